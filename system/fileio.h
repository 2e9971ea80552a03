/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STRIPEPLAN_FILEIO_H
#define STRIPEPLAN_FILEIO_H

#include <sys/types.h>

/*
 * Replaces path with text so that a crash leaves the old file or the new
 * one, never half of one: temp file in the same directory, mode and owner
 * set, write, fsync, rename, fsync of the directory.  uid/gid (uid_t)-1
 * keeps the caller's.  Returns 0 or -errno; on failure *ret_what says
 * which stage failed ("write", "rename the new file over", ...) and the
 * old file is untouched and no temp file is left.  A failure to sync the
 * directory after the rename returns -errno with *ret_what "sync the
 * directory of": the new file is in place.
 */
int sp_write_atomic(const char *path, const char *text, mode_t mode, uid_t uid, gid_t gid,
		    const char **ret_what);

/*
 * mkdir -p: makes each missing directory of path with exactly mode,
 * whatever the umask.  0 or -errno, -ENOTDIR when something other than a
 * directory is in the way; on failure `at` names the directory and
 * *ret_what the stage ("create directory", "chmod").
 */
int sp_mkdir_p(const char *path, mode_t mode, char *at, size_t at_len, const char **ret_what);

/* write(2) until done, retrying EINTR. */
int sp_write_all(int fd, const char *buf, size_t len);

#endif
