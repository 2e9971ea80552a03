/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The only place stripeplan forks: argv arrays, never a shell. */
#ifndef STRIPEPLAN_EXEC_H
#define STRIPEPLAN_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "stripeplan.h"

/*
 * Where the programs are looked for, and the PATH every child runs with:
 * root's usual PATH (sudo's secure_path, systemd's default; /sbin and /bin
 * too, for systems without merged /usr and for installer roots), never
 * the caller's, so a directory someone put first in PATH cannot choose
 * what formats a disk.  Tests replace it (STRIPEPLAN_TEST_PROGRAM_DIRS).
 */
#define SP_EXEC_SYSTEM_DIRS "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/*
 * How long one program may run before it is killed with its process
 * group, at least.  The deadline is there for a tool that hangs, not for
 * a slow one: a mkfs killed half-way would be run again by the next apply
 * and killed again.  Measured on a 100 TiB sparse loop device (the image
 * on tmpfs; docs/ARCHITECTURE.md, "Children"): mkfs.xfs wrote 4079 MiB in
 * 5405 requests, mke2fs 2624 MiB in 56088; on one slow disk (100 random
 * writes a second, 100 MiB/s) that is 1.6 and 10 minutes.  An hour is six
 * times the worse, and mkfs's work grows with the filesystem, so mkfs gets
 * SP_EXEC_DEADLINE_S_PER_TIB for each TiB beyond 100 (sp_exec_deadline_s).
 */
#define SP_EXEC_DEADLINE_S 3600U
#define SP_EXEC_DEADLINE_S_PER_TIB 36U

/* The deadline for a program that writes across bytes of a device. */
unsigned sp_exec_deadline_s(uint64_t bytes);

/* How a child is run; a zeroed struct (or NULL) is the default. */
struct sp_exec_opts {
	/* tests only (STRIPEPLAN_TEST_PROGRAM_DIRS): directories, ':'-separated,
	 * searched and made the child's PATH instead of SP_EXEC_SYSTEM_DIRS */
	const char *program_dirs;
	/* seconds before the child is killed; 0 = SP_EXEC_DEADLINE_S (tests
	 * shorten it: STRIPEPLAN_TEST_DEADLINE; mkfs: sp_exec_deadline_s) */
	unsigned deadline_s;
	/*
	 * When not NULL, the child's stdin is a pipe that receives exactly
	 * these stdin_len bytes and then end of file (cryptsetup's
	 * --key-file -), written as the child reads them, so a child that
	 * reads nothing cannot block the run.  The bytes are never copied:
	 * the caller keeps and wipes them.  NULL: stdin is /dev/null.
	 */
	const void *stdin_bytes;
	size_t stdin_len;
};

struct sp_exec_result {
	int exit_status;  /* WEXITSTATUS, or 128+signal */
	char *output;     /* stdout and stderr interleaved, NUL-terminated, capped */
	size_t output_len;
	double seconds;
};

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
 * Runs argv[0] with argv -- a path as it is, a name as sp_exec_find()
 * finds it in opts->program_dirs or the system's: no shell; stdin from
 * /dev/null or opts->stdin_bytes; stdout and stderr captured together (at most 1 MiB kept); an
 * environment of exactly PATH (those directories) and LC_ALL=C, so
 * messages can be matched and nothing the caller's environment holds (MKE2FS_CONFIG,
 * LD_PRELOAD, ...) changes what the tool does; a process group of its
 * own, and killed when this process dies.  Returns when the child exits,
 * not when its output ends: whatever it left running in its group is
 * killed then, and output is read for at most a moment more, so a
 * grandchild that keeps the pipe open cannot hang the run.
 *
 * Returns 0 when the program ran (whatever its exit status: check
 * result->exit_status; a program that cannot be found or started reads
 * like the shell's 127, with the reason as its output); -ETIME with err
 * saying so when it was still running at its deadline, after SIGTERM and
 * then SIGKILL to its whole process group; -errno with err filled when it
 * could not be started or waited for.
 */
int sp_exec(const char *const *argv, const struct sp_exec_opts *opts, struct sp_exec_result *result,
	    struct sp_error *err);
void sp_exec_result_free(struct sp_exec_result *result);

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
