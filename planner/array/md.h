/* SPDX-License-Identifier: GPL-2.0-or-later */
/* md arrays as the kernel shows them: the facts of one, and its level. */
#ifndef STRIPEPLAN_ARRAY_MD_H
#define STRIPEPLAN_ARRAY_MD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "raid/raid.h"

struct sp_error;

/* An md array's members: as many as its disks (raid.h says why 1920). */
#define SP_MAX_MEMBERS SP_MAX_DISKS

/* An md member as sysfs shows it in slaves/. */
struct sp_md_member {
	char name[SP_NAME_MAX];   /* "sdb1": what md holds */
	char disk[SP_NAME_MAX];   /* "sdb": the whole disk with the queue (= name for a disk) */
	char wwn[SP_NAME_MAX];    /* the disk's wwid attribute, "" unknown */
	char serial[SP_NAME_MAX]; /* the disk's serial attribute, "" unknown */
	bool has_queue_depth;     /* device/queue_depth exists (SCSI disks only) */
	uint64_t max_hw_sectors_kib; /* the disk's queue/max_hw_sectors_kb, 0 unknown */
	unsigned tag_depth;       /* the disk's smallest mq/<n>/nr_tags, 0 unknown (facts.h) */
};

#define SP_MD_UUID_MAX 40U

/*
 * What the kernel says about an md array (/sys/block/mdN/md/ and
 * slaves/).  `present` is false for anything that is not a probed md
 * array.  The uuid is spelled as udev's MD_UUID (mdadm --detail
 * --export): four groups of eight hex digits separated by ':'.
 */
struct sp_md_facts {
	bool present;
	char level[16];           /* md/level: "raid5", "raid10", "linear" ... */
	unsigned raid_disks;
	uint64_t chunk_bytes;     /* 0 for raid1 */
	uint64_t layout;          /* md/layout as a number */
	char sync_action[16];     /* "idle", "resync", "recover", "check", "" unknown */
	unsigned degraded;        /* md/degraded: members missing */
	char uuid[SP_MD_UUID_MAX];
	/* the superblock format: md/metadata_version ("1.2", "0.90"), and for
	 * a volume of an external container ("external:/md127/0") the
	 * container's ("external:imsm") */
	char metadata[SP_NAME_MAX];
	size_t n_members;
	struct sp_md_member *members; /* grown as needed (sp_array_room); sp_facts_release() */
};

/* Appends a member: 0, -E2BIG past SP_MAX_MEMBERS, -ENOMEM. */
int sp_md_member_add(struct sp_md_facts *md, const struct sp_md_member *m);

/* md/level -> level; -EINVAL (exit 2, message naming the array) when
 * stripeplan does not plan that personality (linear, raid4, multipath). */
int sp_md_level(const struct sp_md_facts *md, const char *array, enum sp_level *ret,
		struct sp_error *err);

#endif
