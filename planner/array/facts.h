/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the device is: read once by the probe, or from a facts file. */
#ifndef STRIPEPLAN_ARRAY_FACTS_H
#define STRIPEPLAN_ARRAY_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "md.h"

/*
 * Who drives a disk, as the kernel says: what recognition matches against
 * the profiles' "recognition" rows.  "" is unknown; the PCI ids are four
 * lowercase hex digits ("1000", "005d"), from the nearest PCI function
 * above the disk.
 */
struct sp_controller_facts {
	char proc_name[SP_NAME_MAX]; /* the SCSI host's: "megaraid_sas", "smartpqi" */
	char vendor[16];             /* INQUIRY vendor (device/vendor), 8 bytes trimmed */
	char model[32];              /* INQUIRY product (device/model), 16 bytes trimmed */
	char revision[16];           /* INQUIRY revision (device/rev) */
	char pci_vendor[8], pci_device[8], pci_subvendor[8], pci_subdevice[8];
	char scsi_address[24];       /* the SCSI device's host:channel:target:lun, "0:2:0:0" */
};

/*
 * Whether the disk is a physical disk a MegaRAID controller passes
 * through (JBOD, a "system" PD) rather than a logical drive: megaraid_sas
 * puts those on SCSI channels 0 and 1 and its logical drives on 2 and 3
 * (Linux 6.1 drivers/scsi/megaraid/megaraid_sas.h: MEGASAS_MAX_PD_CHANNELS
 * 2, MEGASAS_IS_LOGICAL(sdev) is sdev->channel >= it).  Such a disk is no
 * array, whatever its controller can make.
 */
bool sp_controller_passthrough(const struct sp_controller_facts *c);

/*
 * max_hw_sectors_kib and tag_depth (in sp_facts and each md member) are
 * the bounds of two queue knobs that only the device knows (0: unknown --
 * an offline plan, a facts file or plan made before they were read):
 *  - max_hw_sectors_kib, queue/max_hw_sectors_kb: Linux 6.1 refuses a
 *    max_sectors_kb above it (block/blk-sysfs.c queue_max_sectors_store());
 *  - tag_depth, the smallest mq/<n>/nr_tags: the tags of the tag set the
 *    driver made (set->queue_depth), which nr_requests may not exceed
 *    without a scheduler (block/blk-mq.c blk_mq_update_nr_requests() ->
 *    blk-mq-tag.c blk_mq_tag_update_depth(can_grow=false): tdepth >
 *    tags->nr_tags is -EINVAL; mq/<n>/nr_tags shows that tags->nr_tags,
 *    block/blk-mq-sysfs.c blk_mq_hw_sysfs_nr_tags_show()).  queue/
 *    nr_requests itself is no bound: it is whatever was last written.
 * Their ranges: max_sectors is an unsigned int of sectors (so KiB below
 * 2^31); a tag set is at most BLK_MQ_MAX_DEPTH (10240) deep
 * (include/linux/blk-mq.h, blk_mq_alloc_tag_set()).
 */
#define SP_MAX_HW_SECTORS_KIB_MAX 2147483647ULL
#define SP_TAG_DEPTH_MAX 10240U
/*
 * What a block device is, as read (read-only) from the kernel.  For an
 * offline plan the CLI fills path, size and sector sizes from flags and
 * sets `offline`.
 */
struct sp_facts {
	char path[SP_PATH_MAX];
	char kernel_name[SP_NAME_MAX]; /* "sdb", "loop0", "cciss!c0d0" */
	bool offline;
	uint64_t size_bytes;
	unsigned logical_sector_bytes;
	unsigned physical_sector_bytes;
	uint64_t min_io_bytes;
	uint64_t optimal_io_bytes;
	int64_t alignment_offset_bytes;
	uint64_t max_hw_sectors_kib; /* the queue limits below: 0 unknown */
	unsigned tag_depth;
	int rotational;     /* -1 unknown */
	int read_only;      /* -1 unknown */
	unsigned major, minor;
	uint64_t diskseq;   /* 0 unknown */
	char wwn[SP_NAME_MAX];
	char serial[SP_NAME_MAX];
	char driver[SP_NAME_MAX];
	bool is_scsi;
	bool is_partition;
	/* queue/scheduler as the running kernel offers it ("[none] mq-deadline");
	 * none for md, partitions, offline plans */
	size_t n_schedulers;
	char schedulers[8][16];
	struct sp_controller_facts controller;
	struct sp_md_facts md;
};

/* Frees what facts hold (an md array's members) and empties that; NULL is fine. */
void sp_facts_release(struct sp_facts *f);
/* *dst = *src with members of its own: 0, or -ENOMEM (*dst then without members). */
int sp_facts_copy(struct sp_facts *dst, const struct sp_facts *src);

#endif
