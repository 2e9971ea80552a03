/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a disk for what the core's on-disk readers (planner/ondisk/ondisk.h)
 * recognise and libblkid does not report: damaged primaries, secondary
 * XFS superblocks and ext backups of a filesystem whose primary is gone,
 * and each GPT copy on its own.  Read-only, bounded reads (pread), no
 * libblkid: what libblkid finds is the steps' first look
 * (sp_step_probe_range), this is the second.
 */
#ifndef STRIPEPLAN_ONDISK_SCAN_H
#define STRIPEPLAN_ONDISK_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "ondisk/ondisk.h"

/* What a filesystem left at one start. */
struct sp_fs_trace {
	enum sp_ondisk_verdict verdict; /* ABSENT: nothing recognised there */
	char type[8];                   /* "xfs", "ext4", ... */
	uint64_t start_bytes;
	uint8_t uuid[16];
	bool primary;                   /* a primary superblock is there (intact or not) */
	bool from_backup;               /* the primary is gone or damaged, a copy was found */
	char what[SP_MSG_MAX / 2];      /* "its primary superblock: sb_agcount is 0" */
	char repair[SP_NAME_MAX];       /* the command before the node: "xfs_repair",
					 * "e2fsck -b 32768 -B 4096" */
};

/* Where mkfs.xfs may have put allocation groups for a filesystem at a
 * start, besides its own defaults: the array's stripe and the plan's. */
struct sp_scan_hints {
	uint64_t disk_bytes;        /* readable end of the descriptor */
	uint64_t su_bytes;          /* the array's chunk, 0 none */
	unsigned sw;                /* its data disks */
	uint64_t agsize_bytes;      /* the plan's AG size at agsize_start_bytes, 0 none */
	uint64_t agsize_start_bytes;
	size_t n_regions;
	uint64_t region_bytes[6];   /* sizes the filesystem may have had */
	size_t n_exact;             /* the first n_exact are a label's or the plan's
				     * exact size: mkfs.xfs -d agcount=2..32 is tried too */
};

/*
 * Everything the readers find of a filesystem starting at byte start of
 * fd: its primary superblock (XFS at +0, ext at +1024), and when that
 * is not intact, XFS secondaries where AG 0's own AGF/AGI, mkfs.xfs's
 * defaults (xfs_repair's first guesses), -d agcount=2..32 of an exact
 * size or the hints put AG 1, and ext backups of groups 1, 3, 5, 7, 9,
 * 25, 27 for 1, 2, 4 and 64 KiB blocks.  At most 1 read of 64 KiB and
 * 117 of 4 KiB.  0, or -errno when fd cannot be read at start.
 */
int sp_scan_fs_at(int fd, uint64_t start, const struct sp_scan_hints *hints,
		  struct sp_fs_trace *ret);

/* Both GPT copies of a disk, each judged on its own. */
struct sp_gpt_state {
	bool mbr_protective;
	enum sp_ondisk_verdict primary, backup;  /* ABSENT, INTACT or DAMAGED */
	/* DAMAGED because it is not there at all (no GPT signature where the
	 * other copy says it is), not because something there is wrong */
	bool primary_missing, backup_missing;
	char primary_why[SP_MSG_MAX / 2], backup_why[SP_MSG_MAX / 2];
	uint64_t primary_lba, backup_lba;        /* where each was read */
	uint64_t last_lba;                       /* the disk's last sector */
	struct sp_gpt_header primary_hdr, backup_hdr;
	/* the partitions of the intact copy (primary first), else of any
	 * copy whose entries could be read: where filesystems may start */
	size_t n_parts;
	struct sp_gpt_partition parts[SP_GPT_MAX_PARTITIONS];
	bool parts_from_intact;
	struct sp_mbr mbr;
	bool have_mbr;
};

/* 0, or -errno when the disk cannot be read. */
int sp_gpt_read_disk(int fd, unsigned sector_bytes, uint64_t disk_bytes, struct sp_gpt_state *ret);
/* One copy damaged (or missing) while the other is intact. */
bool sp_gpt_one_copy_damaged(const struct sp_gpt_state *g);
/* One copy missing (no signature where it belongs), the other intact. */
bool sp_gpt_one_copy_missing(const struct sp_gpt_state *g);
/* "the backup GPT header at LBA 2097151 is damaged: header CRC is ...;
 * the primary at LBA 1 is intact" */
void sp_gpt_describe_damage(const struct sp_gpt_state *g, char *buf, size_t len);

struct sp_found_layer;

/*
 * The header of the layer libblkid named at the start of fd (its TYPE:
 * "crypto_LUKS" or "LVM2_member"): where its data starts, or why it
 * cannot say (a damaged header, LUKS1).  Reads the first 4 KiB and, for
 * LUKS2, the header's own size (at most 4 MiB).  Fills kind, damaged,
 * unread, damage, data_offset_bytes and sector_bytes; 0, or -errno when
 * fd cannot be read.
 */
int sp_scan_layer(int fd, const char *blkid_type, struct sp_found_layer *ret);

#endif
