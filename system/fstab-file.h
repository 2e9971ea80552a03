/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading and replacing the fstab file; the merge itself is planner/fstab.h. */
#ifndef STRIPEPLAN_FSTAB_FILE_H
#define STRIPEPLAN_FSTAB_FILE_H

#include <stdbool.h>
#include <sys/types.h>

#include "fstab.h"

/* What the old file was, so the new one keeps its mode and owner. */
struct sp_fstab_file {
	bool exists;
	mode_t mode;
	uid_t uid;
	gid_t gid;
};

/*
 * Reads path (at most SP_FSTAB_MAX_BYTES; a NUL byte is refused).  A
 * missing file reads as "" with exists = false, mode 0644, root:root.
 */
int sp_fstab_read(const char *path, char **ret_text, struct sp_fstab_file *ret_file,
		  struct sp_error *err);

/*
 * Replaces path with text atomically: a temporary file in the same
 * directory, written, given the old mode and owner, fsync'd, renamed over
 * path, then the directory fsync'd.  On any failure path is untouched
 * and the temporary file removed (SP_ERR_FAILED, message naming the
 * file and the errno).
 */
int sp_fstab_write_atomic(const char *path, const char *text, const struct sp_fstab_file *file,
			  struct sp_error *err);

#endif
