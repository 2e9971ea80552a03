/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs: the one place that knows where it is and how its attributes are
 * read and written.  Where it is travels in a struct sp_sysfs passed down
 * from the caller (the CLI, a test), never read from the environment, so
 * a test can hand the probe and the steps a fake tree (fixtures/sysfs/).
 */
#ifndef STRIPEPLAN_SYSFS_H
#define STRIPEPLAN_SYSFS_H

#include <stddef.h>
#include <stdint.h>

struct sp_sysfs {
	const char *root; /* NULL or "": the machine's /sys; else a tree holding sys/ */
};

/* "<root>/sys/<rel>", rel formatted; sys may be NULL.  0 or -ENAMETOOLONG. */
int sp_sysfs_path(const struct sp_sysfs *sys, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* An attribute's first line, white space trimmed at both ends (at most
 * len - 1 bytes are read).  0 or -errno. */
int sp_sysfs_read(const char *file, char *buf, size_t len);
/* A decimal attribute: -EINVAL for anything else ("", "-1", "12abc"). */
int sp_sysfs_read_u64(const char *file, uint64_t *ret);
/* Writes value and the newline every store expects, in one write(2), as
 * echo does.  0 or -errno (-EIO for a short write). */
int sp_sysfs_write(const char *file, const char *value);

#endif
