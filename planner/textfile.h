/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STRIPEPLAN_TEXTFILE_H
#define STRIPEPLAN_TEXTFILE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * Reads a small untrusted file (plan, profile, facts, fstab): opened
 * O_NONBLOCK so a FIFO or a device cannot hang the run, then fstat'd and
 * refused unless it is a regular file; at most max_bytes; a NUL byte is
 * refused.  dirfd is AT_FDCWD or a directory that name is relative to;
 * extra_flags may add O_NOFOLLOW.  Returns 0 with *ret_text (malloc'd,
 * NUL-terminated) and, when ret_st is not NULL, the file's stat; or
 * -errno with a reason in why ("is a FIFO, not a regular file", "is
 * empty" is not an error: an empty file reads as "").
 */
int sp_read_regular_at(int dirfd, const char *name, int extra_flags, size_t max_bytes,
		       char **ret_text, struct stat *ret_st, char *why, size_t why_len);
/* The kind of a non-regular file, for messages: "a directory", "a FIFO". */
const char *sp_file_kind(mode_t mode);

#endif
