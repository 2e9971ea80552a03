/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading and replacing the fstab file; the merge itself is planner/fstab/fstab.h. */
#ifndef STRIPEPLAN_FSTAB_FILE_H
#define STRIPEPLAN_FSTAB_FILE_H

#include <stdbool.h>
#include <sys/types.h>

#include "fstab/fstab.h"

/* What the old file was, so the new one keeps its mode and owner. */
struct sp_fstab_file {
	bool exists;
	mode_t mode;
	uid_t uid;
	gid_t gid;
};

/*
 * Reads name in the directory dirfd (AT_FDCWD: a path) as an untrusted
 * file: at most SP_INPUT_MAX_BYTES, a regular file and not a link (a
 * rename over a link would replace the link), no NUL byte; any of those
 * is -errno with SP_ERR_INVALID.  A missing file reads as "" with exists
 * = false, mode 0644, root:root.  display names the file in messages.
 */
int sp_fstab_read_at(int dirfd, const char *name, const char *display, char **ret_text,
		     struct sp_fstab_file *ret_file, struct sp_error *err);
int sp_fstab_read(const char *path, char **ret_text, struct sp_fstab_file *ret_file,
		  struct sp_error *err);

/*
 * Replaces the file atomically (sp_write_atomic_at): written, given the
 * old mode and owner, fsync'd, renamed over it, the directory fsync'd.
 * On any failure it is untouched and the temporary file removed
 * (SP_ERR_FAILED, message naming the file and the errno).
 */
int sp_fstab_write_atomic_at(int dirfd, const char *name, const char *display, const char *text,
			     const struct sp_fstab_file *file, struct sp_error *err);
int sp_fstab_write_atomic(const char *path, const char *text, const struct sp_fstab_file *file,
			  struct sp_error *err);

/*
 * The lock a run holds on one root's fstab from reading it to renaming
 * the new one over it, so two applies on the same --root never lose each
 * other's line.  fstab itself cannot carry the lock: it is replaced by
 * rename, and the next run would lock the new inode.  So, as libmount
 * does for utab ("utab.lock") and shadow-utils/systemd for passwd
 * ("/etc/.pwd.lock"), a separate file beside it that is never replaced,
 * locked with flock(2): released by the kernel when the holder dies, so a
 * killed run leaves no stale lock.  Waits at most wait_ms.  *ret_fd is
 * the lock; close it to release.
 */
#define SP_FSTAB_LOCK_NAME ".fstab.lock"
int sp_fstab_lock(int etc_fd, const char *display, unsigned wait_ms, int *ret_fd,
		  struct sp_error *err);
/*
 * Whether the lock can be taken, creating and opening nothing: 0 when it
 * is missing or a regular file; a link, directory, FIFO, device node or
 * socket in its place is -errno with SP_ERR_INVALID ("the fstab lock
 * '...' is a FIFO, not a regular file"), as the same in place of fstab
 * is.  sp_fstab_lock refuses the same, before it opens anything.
 */
int sp_fstab_lock_check(int etc_fd, const char *display, struct sp_error *err);

#endif
