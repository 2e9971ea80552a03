/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The crypttab(5) line of a plan's LUKS2 volume and its merge into the
 * file's text.  Pure: the file is read and written by the system library
 * (system/step-crypttab.c).
 */
#ifndef STRIPEPLAN_FSTAB_CRYPTTAB_H
#define STRIPEPLAN_FSTAB_CRYPTTAB_H

#include <stddef.h>

#include "plan/plan.h"

/* A line longer than this is no line systemd-cryptsetup-generator wrote
 * or reads as one volume; the merge keeps it as it is. */
#define SP_CRYPTTAB_LINE_MAX 4096U

/*
 * "NAME UUID=<uuid> none luks[,nofail]": the volume by its LUKS2 UUID,
 * the key asked for at boot ("none": the key file apply read is the
 * installer's, not the installed system's), nofail when the plan's fstab
 * line has it (a missing array must not stop the boot at the volume
 * when it does not at the filesystem).  uuid must be hex digits and '-'
 * only, at most 36 of them; NULL (not formatted yet: a dry run) puts
 * SP_CRYPTTAB_UUID_PLACEHOLDER.  0, or -EINVAL with err filled.
 */
#define SP_CRYPTTAB_UUID_PLACEHOLDER "@LUKS2_UUID@"
int sp_crypttab_line(const struct sp_plan *plan, const char *uuid, char *buf, size_t len,
		     struct sp_error *err);

/*
 * text with the volume name's line made line: the first line whose first
 * field is name replaced in place, any later one for the same name
 * removed (systemd would set up the volume twice), else line appended;
 * comments, blank lines and other volumes kept byte for byte.  text may
 * be "" (no file).  *ret_text is malloc'd; *ret_found is how many lines
 * named the volume, and old (when not NULL) the first of them, cut to
 * old_len.  0, or -ENOMEM / -EFBIG (text over SP_INPUT_MAX_BYTES) with
 * err filled.
 */
int sp_crypttab_merge(const char *text, const char *name, const char *line, char **ret_text,
		      size_t *ret_found, char *old, size_t old_len, struct sp_error *err);

#endif
