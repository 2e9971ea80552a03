/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The only place stripeplan forks: argv arrays, never a shell. */
#ifndef STRIPEPLAN_EXEC_H
#define STRIPEPLAN_EXEC_H

#include <stddef.h>

#include "stripeplan.h"

struct sp_exec_result {
	int exit_status;  /* WEXITSTATUS, or 128+signal */
	char *output;     /* stdout and stderr interleaved, NUL-terminated, capped */
	size_t output_len;
	double seconds;
};

/*
 * Runs argv[0] (looked up in PATH) with argv, stdin from /dev/null,
 * capturing stdout+stderr (at most 1 MiB kept).  Returns 0 when the
 * program ran (whatever its exit status: check result->exit_status);
 * -errno with err filled when it could not be started.
 * LC_ALL=C is set for the child so its messages can be matched.
 */
int sp_exec(const char *const *argv, struct sp_exec_result *result, struct sp_error *err);
void sp_exec_result_free(struct sp_exec_result *result);

/*
 * Where apply looks for the programs it runs (mkfs.xfs, mke2fs): root's
 * usual PATH (sudo's secure_path, systemd's default), never the caller's,
 * so a directory someone put first in PATH cannot choose what formats a
 * disk.  Tests replace it (STRIPEPLAN_TEST_PROGRAM_DIRS).
 */
#define SP_EXEC_SYSTEM_DIRS "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/*
 * The absolute path of the program `name` (no '/' in it) in dirs, a
 * colon-separated list of absolute directories (NULL: SP_EXEC_SYSTEM_DIRS):
 * the first regular file there that root may execute, as execvp() would
 * pick it.  0 with buf filled, -ENOENT when no directory has one,
 * -EINVAL for a name with a '/', -ENAMETOOLONG.  Pass the result as
 * argv[0] to sp_exec(), which then runs exactly that file.
 */
int sp_exec_find(const char *name, const char *dirs, char *buf, size_t len);

/*
 * Runs fn(arg, msg, len) in a child process with a mount namespace of its
 * own (unshare(CLONE_NEWNS), every mount made private, a private tmpfs on
 * /run): whatever fn mounts is seen by no other process and is gone when
 * the child exits, including when it or this process is killed with
 * SIGKILL (the child is killed with its parent).  Returns fn's return
 * value with fn's message in msg, or -errno with msg saying why the child
 * could not run it.  fn must not return with anything it mounted still
 * needed: the namespace does not outlive it.
 */
int sp_run_in_private_mounts(int (*fn)(void *arg, char *msg, size_t len), void *arg, char *msg,
			     size_t len);

#endif
