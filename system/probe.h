/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device facts, read from the kernel.  Nothing here writes to a device;
 * the probe opens read-only (and without O_EXCL) so it is safe on a disk
 * in use.
 */
#ifndef STRIPEPLAN_PROBE_H
#define STRIPEPLAN_PROBE_H

#include "stripeplan.h"
#include "sysfs.h"

#define SP_USAGE_MAX 16U

/*
 * Who is using a disk or any of its partitions.  Each entry names the
 * block device (disk or partition) and what was found, for messages like
 * "/dev/loop3p1 is mounted on /mnt/x".
 */
struct sp_usage_entry {
	char device[SP_NAME_MAX]; /* kernel name: "loop3p1" */
	char what[SP_PATH_MAX];   /* "mounted on /mnt/x", "held by md0", "swap" */
};

struct sp_usage {
	size_t n_mounted, n_swap, n_held;
	struct sp_usage_entry mounted[SP_USAGE_MAX];
	struct sp_usage_entry swap[SP_USAGE_MAX];
	struct sp_usage_entry held[SP_USAGE_MAX];
	/* Signatures found by libblkid on the whole disk (full probe,
	 * partitions chain on).  An ambivalent result or probe error counts
	 * as a signature with type "unknown". */
	bool has_signature;
	char signature_type[SP_NAME_MAX];  /* "xfs", "gpt", "dos", "linux_raid_member" */
	char signature_usage[SP_NAME_MAX]; /* "filesystem", "raid", "partition table" */
	uint64_t signature_offset_bytes;
	size_t n_partitions;               /* kernel's view: /sys/class/block/<disk>/<part> */
};

/*
 * Reads size, sector sizes (BLKSSZGET/BLKPBSZGET), topology (BLKIOMIN,
 * BLKIOOPT, BLKALIGNOFF), read-only flag, rotational, major:minor,
 * diskseq, wwn/serial (sysfs, udev-free), driver, is_scsi, is_partition.
 * Errors: -ENOENT/-ENOTBLK etc. with err->kind = SP_ERR_INVALID and
 * a message naming the path.  sys (may be NULL) says where sysfs is.
 */
int sp_probe_facts(const struct sp_sysfs *sys, const char *path, struct sp_facts *ret,
		   struct sp_error *err);
/* The same facts, for the device behind an open descriptor (path names
 * it in messages and in ret->path): what apply checks after its lock. */
int sp_probe_facts_fd(const struct sp_sysfs *sys, int fd, const char *path, struct sp_facts *ret,
		      struct sp_error *err);
/* A symlink (/dev/disk/by-id/...) resolved to the node it names; any
 * other path is copied as it is.  The facts' path is always the node, so
 * the partition is named after it (loop3p1, not by-id/...p1). */
int sp_probe_resolve(const char *path, char *buf, size_t len, struct sp_error *err);

/*
 * What an md array says about itself (/sys/block/<kernel_name>/md/ and
 * slaves/), read-only; ret->present is false when it is not md.
 * sp_probe_facts() fills facts.md the same way.
 */
int sp_probe_md(const struct sp_sysfs *sys, const char *kernel_name, struct sp_md_facts *ret,
		struct sp_error *err);

/* One line of /proc/self/mountinfo, unescaped. */
struct sp_mount {
	unsigned major, minor;     /* of the filesystem's device */
	char target[SP_PATH_MAX];  /* the mount point */
	char source[SP_PATH_MAX];  /* what was mounted, as given ("/dev/sdb1") */
};

/* each() for every mount of this process's namespace, in order; a line
 * that does not parse is skipped.  0, or -errno when it cannot be read:
 * the one mountinfo reader of the tree. */
int sp_mountinfo_each(void (*each)(const struct sp_mount *m, void *userdata), void *userdata);

/* Mounts (by major:minor in /proc/self/mountinfo), swap (/proc/swaps),
 * holders (/sys/class/block/X/holders) for the disk and every partition,
 * and libblkid signatures on the whole disk.  What it cannot read is a
 * refusal (SP_ERR_REFUSED): a disk whose use cannot be told is not
 * written. */
int sp_probe_usage(const struct sp_sysfs *sys, const struct sp_facts *facts,
		   struct sp_usage *ret, struct sp_error *err);

/*
 * The filesystem type libblkid finds on path ("xfs"), read-only: 1 with
 * type filled, 0 when there is none (or it is ambivalent), -errno when
 * path cannot be read.  check uses it when no --fs is given.
 */
int sp_probe_fs_type(const char *path, char *type, size_t len);

#endif
