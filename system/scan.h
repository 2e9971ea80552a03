/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `stripeplan scan` looks at: the block devices of the machine that
 * hold or could hold a data array, and which of them the running system
 * needs.  Reads sysfs (its root carried in struct sp_sysfs), mountinfo,
 * /proc/swaps and, read-only, the devices' first sectors through
 * libblkid; writes, locks and runs nothing.
 */
#ifndef STRIPEPLAN_SCAN_H
#define STRIPEPLAN_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "stripeplan.h"
#include "sysfs.h"

#define SP_SCAN_MAX_DEVICES 256U
#define SP_SCAN_MAX_NEEDED 64U

enum sp_scan_kind {
	SP_SCAN_DISK = 0,   /* a whole disk or a controller's logical drive (LUN) */
	SP_SCAN_MD,         /* a Linux md array */
	SP_SCAN_MULTIPATH,  /* a dm-multipath map (dm/uuid "mpath-...") */
};

/* One device scan lists, by its kernel name. */
struct sp_scan_device {
	char name[SP_NAME_MAX];     /* "sdb", "md0", "dm-3" */
	enum sp_scan_kind kind;
	/* md or multipath above it ("md0"): a member, judged as the array's */
	char held_by[SP_NAME_MAX];
	/* the running system needs it: "/ (sda2)", "swap (dm-1 on sda3)"; "" no */
	char system_use[SP_MSG_MAX];
	/* something else of it is mounted: "/data (sdc1)"; "" none */
	char mounted[SP_MSG_MAX];
	/* sysfs's size: known even when the node cannot be opened */
	uint64_t size_bytes;
};

/* What the running system has mounted or swaps on, by device number:
 * read from mountinfo and /proc/swaps, or given by a test. */
struct sp_scan_needed {
	size_t n;
	struct {
		unsigned major, minor;
		bool system;                  /* /, a system tree, swap */
		char what[SP_PATH_MAX];       /* "/", "/data", "swap" */
	} e[SP_SCAN_MAX_NEEDED];
};

/* Fills ret from /proc/self/mountinfo and /proc/swaps.  0 or -errno
 * (mountinfo unreadable: what the system needs cannot be told). */
int sp_scan_needed_read(struct sp_scan_needed *ret);

/*
 * The kernel's name of the block device at path (a node or a link to
 * one): 0, -ENOTBLK, -errno.  A partition is -EISDIR with its disk's
 * name in disk (the caller says "give its disk").
 */
int sp_scan_name_of(const struct sp_sysfs *sys, const char *path, char *name, size_t len,
		    char *disk, size_t disk_len);

/*
 * Classifies the block device `name`: 1 and *ret filled when scan lists
 * it, 0 when it never holds an array (loop, ram, zram, optical, floppy,
 * an md container, a dm map that is not multipath, an empty drive), or
 * -errno when its sysfs directory cannot be read.  listed_anyway lists a
 * loop device too (scan --device names it).  needed marks the disks the
 * system needs, through partitions and holders/slaves chains.
 */
int sp_scan_classify(const struct sp_sysfs *sys, const char *name, bool listed_anyway,
		     const struct sp_scan_needed *needed, struct sp_scan_device *ret);

/* Every listed device of <sysfs>/sys/block, sorted by name: n in *ret_n.
 * 0 or -errno. */
int sp_scan_list(const struct sp_sysfs *sys, const struct sp_scan_needed *needed,
		 struct sp_scan_device *ret, size_t max, size_t *ret_n);

/* What is on a device, read-only (libblkid): its table, partitions and
 * the signatures on it and on each partition. */
struct sp_scan_contents {
	char table[SP_NAME_MAX];        /* "gpt", "dos", "" none */
	unsigned n_partitions;
	char signature[SP_NAME_MAX];    /* on the whole device: "xfs", "crypto_LUKS", "LVM2_member" */
	char summary[SP_MSG_MAX];       /* "dos: 1 partition: 1 at 32256 B xfs" */
	bool blank;                     /* no table, no signature */
};

int sp_scan_contents_read(const struct sp_sysfs *sys, const char *node, struct sp_scan_contents *ret, struct sp_error *err);

#endif
