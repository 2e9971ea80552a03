/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A device-mapper node as the kernel shows it in sysfs (dm/name, dm/uuid,
 * size, slaves/): what the LUKS2 and LVM steps read back of a mapping
 * they made or found.  Read-only; the device numbers come from stat(2) of
 * the node, the rest from /sys/dev/block/MAJ:MIN, so a node that names
 * another device than its sysfs directory cannot be mistaken for it.
 */
#ifndef STRIPEPLAN_DM_NODE_H
#define STRIPEPLAN_DM_NODE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "stripeplan.h"
#include "sysfs.h"

struct sp_dm_node {
	bool exists;                 /* the node is there and a block device */
	bool is_dm;                  /* sysfs has dm/name for it */
	dev_t rdev;
	char kernel_name[SP_NAME_MAX]; /* "dm-3", "md5", "sdb1" */
	char dm_name[SP_NAME_MAX];   /* "md5_crypt", "vgs-data" */
	char dm_uuid[SP_NAME_MAX];   /* "CRYPT-LUKS2-<uuid>-<name>", "LVM-<vg><lv>" */
	uint64_t size_bytes;
	/* queue/read_ahead_kb: what the filesystem on it reads ahead (a dm
	 * device's own, not its slave's); 0 also when it cannot be read */
	uint64_t read_ahead_kib;
	size_t n_slaves;             /* what it sits on, by kernel name */
	char slave[SP_NAME_MAX];     /* the first one */
};

/* Fills ret for the node at path: 0 (ret->exists false when there is no
 * such node), or -errno when it cannot be read. */
int sp_dm_node_read(const struct sp_sysfs *sys, const char *path, struct sp_dm_node *ret);

/* The kernel name of the block device at path ("md5", "sdb1"): 0 or -errno. */
int sp_dm_kernel_name(const struct sp_sysfs *sys, const char *path, char *buf, size_t len);

/* LVM's device-mapper name of VG/LV: each '-' doubled, joined by '-'. */
void sp_dm_lvm_name(const char *vg, const char *lv, char *buf, size_t len);

#endif
