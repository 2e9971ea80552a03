/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What mkfs.xfs, mke2fs, mdadm and the kernel accept, as data: one row per
 * limit, each naming where it comes from (the file and function, the
 * commit, the document section), read by the planner, the knob parser
 * and the audit, and printed into stripeplan(8) by `limits-doc`.  A value
 * outside a row is a plan-time error that quotes the row, or -- where the
 * tool only ignores it -- a warning that does.
 */
#ifndef STRIPEPLAN_LIMIT_H
#define STRIPEPLAN_LIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sp_error;

enum sp_limit_id {
	/* mkfs.xfs */
	SP_LIMIT_XFS_SWIDTH,
	SP_LIMIT_XFS_LOG_SU,
	SP_LIMIT_XFS_SIZE,
	SP_LIMIT_XFS_LOG_SIZE,
	SP_LIMIT_XFS_AGSIZE,
	SP_LIMIT_XFS_AGCOUNT,
	SP_LIMIT_XFS_BLOCK,
	SP_LIMIT_XFS_SECTOR,
	SP_LIMIT_XFS_INODE,
	/* mke2fs and ext4 */
	SP_LIMIT_EXT_STRIDE,
	SP_LIMIT_EXT_STRIPE_WIDTH,
	SP_LIMIT_EXT3_BLOCKS,
	SP_LIMIT_EXT4_STRIPE_USED,
	/* sysfs knobs */
	SP_LIMIT_READ_AHEAD_KB,
	SP_LIMIT_MAX_SECTORS_KB,
	SP_LIMIT_NR_REQUESTS,
	SP_LIMIT_NR_REQUESTS_SCHED,
	SP_LIMIT_MAX_SECTORS_HW,
	SP_LIMIT_NR_REQUESTS_TAGS,
	SP_LIMIT_QUEUE_DEPTH,
	SP_LIMIT_MD_STRIPE_CACHE,
	SP_LIMIT_MD_SYNC_SPEED,
	/* XFS mount options */
	SP_LIMIT_XFS_LOGBUFS,
	SP_LIMIT_XFS_LOGBSIZE,
	/* mdadm */
	SP_LIMIT_MD_RAID6_DISKS,
	SP_LIMIT_MD_DEVICES,
	/* what changed with a Linux release: min is the release (SP_LIMIT_RELEASE) */
	SP_LIMIT_SCSI_MQ_DEFAULT,
	SP_LIMIT_LEGACY_SCHED_REMOVED,
	SP_LIMIT_XFS_BARRIER_REMOVED,
	SP_LIMIT_XFS_INODE64_DEFAULT,
	SP_LIMIT_XFS_BARRIER_IGNORED,
	SP_LIMIT_MQ_DEADLINE,
	SP_LIMIT_MQ_BFQ_KYBER,
	SP_LIMIT_SYSTEMD,
	SP_LIMIT_UBUNTU_SYSTEMD,
	/* what changed with a vendor's major release: min is the release (RHEL 8) */
	SP_LIMIT_RHEL_BLK_MQ_ONLY,
	SP_LIMIT_RHEL_BARRIER_REMOVED,
	SP_LIMIT_SLES_BLK_MQ_ONLY,
	SP_LIMIT_RHEL_SYSTEMD,
	SP_LIMIT_COUNT
};

/* What the tool does with a value outside the row. */
enum sp_limit_action {
	SP_LIMIT_REFUSED,   /* an error, an exit status, -EINVAL: a plan never asks for it */
	SP_LIMIT_IGNORED,   /* accepted and not used: the plan warns */
	SP_LIMIT_TRUNCATED, /* accepted and stored wrong: a plan never asks for it */
	SP_LIMIT_CHANGED,   /* a release row: from min on, the kernel behaves as the note says */
};

/* A release row's unit: min is a Linux release (SP_LIMIT_RELEASE); any other
 * unit names a vendor ("RHEL", "SLES") and min is its major release. */
#define SP_LIMIT_UNIT_RELEASE "release"

/* A release row's min: 4.19 is SP_LIMIT_RELEASE(4, 19). */
#define SP_LIMIT_RELEASE(major, minor) ((uint64_t)(major) * 1000 + (minor))

struct sp_limit {
	const char *id;       /* "xfs-swidth-max": stable, cited by the docs */
	const char *tool;     /* "mkfs.xfs", "mke2fs", "Linux", "mdadm" */
	const char *what;     /* "a stripe width": "mkfs.xfs refuses a stripe width above ..." */
	uint64_t min, max;    /* inclusive; max 0: none */
	const char *unit;     /* "bytes", "blocks", "KiB" */
	const char *since;    /* the first release holding it: "xfsprogs 5.11" */
	const char *source;   /* file and function, commit, document section */
	enum sp_limit_action action;
	const char *note;     /* the condition, or what happens instead; may be NULL */
	/* the older releases read beside the one named (a target system's mkfs
	 * may be older than the planning host's): the same bound, or how they
	 * differ; NULL where none was read */
	const char *releases;
};

const struct sp_limit *sp_limit(enum sp_limit_id id);
/* The row whose id is text, or NULL. */
const struct sp_limit *sp_limit_by_name(const char *text);

static inline bool sp_limit_holds(enum sp_limit_id id, uint64_t value)
{
	const struct sp_limit *l = sp_limit(id);

	return value >= l->min && (!l->max || value <= l->max);
}

/*
 * 0 when value is within row id; else -ERANGE with err saying, after
 * "field: ", which tool refuses what, the bound, the row's release and
 * source, then detail (how the plan came to the value):
 *   "stripe width: mkfs.xfs refuses a stripe width above 2147483647 bytes
 *    (xfsprogs 5.11, libxfs/xfs_sb.c xfs_validate_stripe_geometry()):
 *    32 x 64 MiB = 2 GiB"
 */
int sp_limit_check(enum sp_limit_id id, uint64_t value, const char *field, const char *detail,
		   struct sp_error *err);

struct sp_kernel;
/* k is release row id's release or later (SP_LIMIT_SCSI_MQ_DEFAULT ...); for a
 * vendor's row, k is that vendor's kernel of its major release or later */
bool sp_kernel_from(const struct sp_kernel *k, enum sp_limit_id id);

/* "xfsprogs 5.11, libxfs/xfs_sb.c xfs_validate_stripe_geometry()": for warnings. */
const char *sp_limit_cite(const struct sp_limit *l, char *buf, size_t len);
#define SP_LIMIT_CITE_MAX 256U
#define SP_LIMIT_CITED(id) sp_limit_cite(sp_limit(id), (char[SP_LIMIT_CITE_MAX]){ 0 }, SP_LIMIT_CITE_MAX)

#endif
