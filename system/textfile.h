/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STRIPEPLAN_TEXTFILE_H
#define STRIPEPLAN_TEXTFILE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "base/base.h" /* SP_INPUT_MAX_BYTES */

struct sp_error;

/*
 * Reads a small untrusted file: opened O_NONBLOCK so a FIFO or a device
 * cannot hang the run, then fstat'd and refused unless it is a regular
 * file; at most SP_INPUT_MAX_BYTES; a NUL byte is refused.  dirfd is
 * AT_FDCWD or a directory that name is relative to; extra_flags may add
 * O_NOFOLLOW.  Returns 0 with *ret_text (malloc'd, NUL-terminated; an
 * empty file reads as "") and, when ret_st is not NULL, the file's stat;
 * or -errno with err (when not NULL) filled in the one style of the
 * tree: "[WHAT: ]cannot read 'DISPLAY': is a FIFO, not a regular file".
 * The kind is invalid input (the file handed over is not acceptable)
 * unless memory ran out or the read itself failed (EIO).
 */
int sp_read_input_at(int dirfd, const char *name, int extra_flags, const char *what,
		     const char *display, char **ret_text, struct stat *ret_st,
		     struct sp_error *err);
/* The kind of a non-regular file, for messages: "a directory", "a FIFO". */
const char *sp_file_kind(mode_t mode);

#endif
