/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device facts, read from the kernel.  Nothing here writes to a device;
 * the probe opens read-only (and without O_EXCL) so it is safe on a disk
 * in use.
 */
#ifndef STRIPEPLAN_PROBE_H
#define STRIPEPLAN_PROBE_H

#include <sys/types.h>

#include "stripeplan.h"
#include "sysfs.h"

#define SP_USAGE_MAX 16U

/* How a block device is in use, as the kernel tells it. */
enum sp_use {
	SP_USE_MOUNTED,   /* a filesystem on it is mounted (mountinfo, by device number) */
	SP_USE_SWAP,      /* /proc/swaps */
	SP_USE_HELD,      /* md, dm, bcache: holders/ */
	SP_USE_LOOP,      /* the backing file of a loop device */
	SP_USE_BOUND,     /* its node bind-mounted somewhere (a container's /dev) */
	SP_USE_OPEN,      /* a process has it open (/proc/PID/fd) */
	SP_USE_LOCKED,    /* a lock on its node (/proc/locks: flock, OFD) */
	SP_USE_READ_ONLY, /* not a use: its node is read-only (sysfs ro) */
};

/*
 * One way a disk or one of its partitions is used, for messages like
 * "/dev/loop3p1 is mounted on /mnt/x": node and a phrase that follows it.
 */
struct sp_usage_entry {
	enum sp_use use;
	char device[SP_NAME_MAX]; /* kernel name: "loop3p1", "cciss!c0d0p1" */
	char node[SP_PATH_MAX];   /* its /dev node: "/dev/loop3p1", "/dev/cciss/c0d0p1" */
	char what[SP_PATH_MAX];   /* "is mounted on /mnt/x", "is held by md0", "is swap" */
	char path[SP_PATH_MAX];   /* SP_USE_MOUNTED, SP_USE_BOUND: the mount point */
};

/* Who is using a disk or any of its partitions. */
struct sp_usage {
	size_t n;                 /* every use found; the first SP_USAGE_MAX kept */
	struct sp_usage_entry e[SP_USAGE_MAX];
	/* Signatures found by libblkid on the whole disk (full probe,
	 * partitions chain on).  An ambivalent result or probe error counts
	 * as a signature with type "unknown". */
	bool has_signature;
	char signature_type[SP_NAME_MAX];  /* "xfs", "gpt", "dos", "linux_raid_member" */
	char signature_usage[SP_NAME_MAX]; /* "filesystem", "raid", "partition table" */
	uint64_t signature_offset_bytes;
	size_t n_partitions;               /* kernel's view: /sys/class/block/<disk>/<part> */
};

/* How many of the kept entries are of this kind. */
size_t sp_usage_count(const struct sp_usage *u, enum sp_use use);
/* The node the kernel names "name" ("cciss!c0d0" -> "/dev/cciss/c0d0"). */
int sp_node_of(const char *name, char *buf, size_t len);

/*
 * Reads size, sector sizes (BLKSSZGET/BLKPBSZGET), topology (BLKIOMIN,
 * BLKIOOPT, BLKALIGNOFF), read-only flag, rotational, major:minor,
 * diskseq, wwn/serial (sysfs, udev-free), driver, is_scsi, is_partition.
 * Errors: -ENOENT/-ENOTBLK etc. with err->kind = SP_ERR_INVALID and
 * a message naming the path.  sys (may be NULL) says where sysfs is.
 * The facts own an md array's members: sp_facts_release() them.
 */
/*
 * Who drives the disk whose sysfs directory is sys_disk ("<root>/sys/block/sdb"):
 * the SCSI host's proc_name, the INQUIRY strings of a SCSI device, the ids
 * of the nearest PCI function above it.  Unknown ones stay "".  Reads only.
 */
void sp_probe_controller_at(const char *sys_disk, struct sp_controller_facts *ret);

int sp_probe_facts(const struct sp_sysfs *sys, const char *path, struct sp_facts *ret,
		   struct sp_error *err);
/* The same facts, for the device behind an open descriptor (path names
 * it in messages and in ret->path): what apply checks after its lock. */
int sp_probe_facts_fd(const struct sp_sysfs *sys, int fd, const char *path, struct sp_facts *ret,
		      struct sp_error *err);
/* A symlink resolved to the node it names; any other path is copied as
 * it is.  sp_probe_facts() opens that node; the facts' path is the node,
 * except for a stable link (/dev/disk/by-id/..., sp_is_stable_link()),
 * which stays the name given. */
int sp_probe_resolve(const char *path, char *buf, size_t len, struct sp_error *err);

/*
 * What an md array says about itself (/sys/block/<kernel_name>/md/ and
 * slaves/), read-only; ret->present is false when it is not md.
 * sp_probe_facts() fills facts.md the same way.  free(ret->members).
 */
int sp_probe_md(const struct sp_sysfs *sys, const char *kernel_name, struct sp_md_facts *ret,
		struct sp_error *err);

/* One line of /proc/self/mountinfo, unescaped. */
struct sp_mount {
	unsigned major, minor;     /* of the filesystem's device */
	char root[SP_PATH_MAX];    /* what of it is mounted: "/", or a bound file or directory */
	char target[SP_PATH_MAX];  /* the mount point */
	char fstype[SP_NAME_MAX];
	char source[SP_PATH_MAX];  /* what was mounted, as given ("/dev/sdb1") */
};

/* mountinfo, /proc/swaps and loop's backing_file escape space, tab,
 * newline and backslash as \ooo: undone in place. */
void sp_proc_unescape(char *s);

/* each() for every mount of this process's namespace, in order; a line
 * that does not parse is skipped.  0, or -errno when it cannot be read:
 * the one mountinfo reader of the tree. */
int sp_mountinfo_each(void (*each)(const struct sp_mount *m, void *userdata), void *userdata);

/*
 * Every way the kernel says the disk or one of its partitions is in use
 * (system/usage.c): mounts by device number in /proc/self/mountinfo, swap,
 * holders/, loop devices backed by one of the nodes (backing_file resolved
 * and compared by device number, and LOOP_GET_STATUS64's inode against the
 * node's), the node bind-mounted, processes that have it open
 * (/proc/PID/fd), locks on it (/proc/locks), and a read-only partition;
 * then libblkid signatures on the whole disk.  Never opens anything with
 * O_EXCL: the pipeline does that itself, for the exclusive holders this
 * cannot see (a mount in another namespace).  What it cannot read is a
 * refusal (SP_ERR_REFUSED): a disk whose use cannot be told is not
 * written.  The process `self` (the caller; 0: none) is left out of the
 * open and locked lists: its own descriptors and flock are not a use.
 */
int sp_probe_usage(const struct sp_sysfs *sys, const struct sp_facts *facts, pid_t self,
		   struct sp_usage *ret, struct sp_error *err);

/*
 * The filesystem type libblkid finds on path ("xfs"), read-only: 1 with
 * type filled, 0 when there is none (or it is ambivalent), -errno when
 * path cannot be read.  check uses it when no --fs is given.
 */
int sp_probe_fs_type(const char *path, char *type, size_t len);

#endif
