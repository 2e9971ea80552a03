/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fstab line a plan owns, as fstab(5) spells it (fstab/line.c). */
#ifndef STRIPEPLAN_FSTAB_LINE_H
#define STRIPEPLAN_FSTAB_LINE_H

#include <stddef.h>

struct sp_error;

#define SP_FSTAB_UUID_PLACEHOLDER "@FS_UUID@"

/* Escapes a path for fstab (space \040, tab \011, backslash \134);
 * control characters are rejected. */
int sp_fstab_escape(const char *in, char *out, size_t len, struct sp_error *err);
/* "UUID=@FS_UUID@ /data xfs OPTIONS 0 PASSNO": the line a plan owns, the
 * mount point escaped; -ENAMETOOLONG (SP_ERR_INVALID) when it is longer
 * than len. */
int sp_fstab_line_make(const char *mountpoint, const char *fstype, const char *options,
		       int passno, char *buf, size_t len, struct sp_error *err);

#endif
