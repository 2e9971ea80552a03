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

#include "stripeplan.h"

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
/* A "dev" attribute, "MAJOR:MINOR" and nothing else.  0 or -EINVAL. */
int sp_sysfs_parse_devno(const char *text, unsigned *ret_major, unsigned *ret_minor);
/* Writes value and the newline every store expects, in one write(2), as
 * echo does.  0 or -errno (-EIO for a short write). */
int sp_sysfs_write(const char *file, const char *value);

/* The kernel's limit on partitions of one disk (DISK_MAX_PARTS). */
#define SP_SYSFS_MAX_PARTITIONS 256U

/* One partition of a disk, as the kernel has it now. */
struct sp_sysfs_partition {
	unsigned number;            /* first: the list is sorted by it */
	char name[SP_NAME_MAX];     /* the kernel's name: "sdb1", "cciss!c0d0p1" */
	unsigned major, minor;
	uint64_t start_512, size_512; /* sysfs units, whatever the sector size */
};

struct sp_sysfs_partitions {
	size_t n;
	struct sp_sysfs_partition p[SP_SYSFS_MAX_PARTITIONS];
};

/*
 * Every partition the kernel has on the disk major:minor, by number,
 * whatever its name: the one partition lister of the tree (the probe's
 * "is any of it in use" and the partition step's read and re-read).  A
 * subdirectory that is no partition (queue/, holders/) or vanished while
 * it was read is not listed.  0, or -errno (-E2BIG past the limit).
 */
int sp_sysfs_partitions(const struct sp_sysfs *sys, unsigned major, unsigned minor,
			struct sp_sysfs_partitions *ret);

/*
 * The node of the kernel's partition p: name (what sp_partition_path()
 * derives from the disk's path) when it is that node (/dev/sdb1, or
 * udev's .../by-id/NAME-part1 once udev made it), else the node devtmpfs
 * made for the kernel's name in dev_dir (NULL: /dev; /dev/loop3p1,
 * /dev/cciss/c0d0p1).  Found by what the kernel says, never by waiting
 * for a name: without udev (a chroot, an installer, a test's own link)
 * no "-part1" link is made.  0 and the node in buf, -ENOENT while there
 * is no node of p's device number.
 */
int sp_sysfs_partition_node(const char *name, const char *dev_dir,
			    const struct sp_sysfs_partition *p, char *buf, size_t len);
/* The same for partition number of disk_path, looked up in sysfs: 0,
 * -ENOENT when the kernel has no such partition or node, -errno. */
int sp_sysfs_partition_node_of(const struct sp_sysfs *sys, const char *disk_path,
			       unsigned number, char *buf, size_t len);

#endif
