/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Judging an array someone else built: pure code, no I/O.
 *
 * The steps' verifies read what is on the disk, in the kernel and under
 * the target root into the `found` structs below and nothing else; the
 * functions here turn plan + found into findings, each with a severity:
 *
 *   costly      loses performance or stops the boot: a misaligned start,
 *               missing or wrong stripe geometry, drifted live tuning,
 *               missing persistence, mount options the kernel refuses;
 *   suboptimal  what the plan improves without breaking alignment;
 *   differs     another choice than the plan's that costs nothing.
 *
 * Every message names the device or file, the value found and the fix.
 * `check` exits 1 on costly or suboptimal findings, 0 when everything
 * only differs; `check --strict` exits 1 on any finding.
 */
#ifndef STRIPEPLAN_AUDIT_AUDIT_H
#define STRIPEPLAN_AUDIT_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "kernel/knob.h"
#include "plan/plan.h"
#include "raid/cost.h"

enum sp_severity {
	SP_SEVERITY_DIFFERS = 0,
	SP_SEVERITY_SUBOPTIMAL,
	SP_SEVERITY_COSTLY,
};

SP_STRING_TABLE_DECLARE(sp_severity, enum sp_severity); /* "costly" */

#define SP_MAX_FINDINGS 24U

struct sp_finding {
	enum sp_severity severity;
	char code[SP_NAME_MAX];  /* stable: "start-misaligned", "xfs-no-stripe-unit", ... */
	char message[SP_MSG_MAX];
	struct sp_cost cost;
};

struct sp_findings {
	size_t n;
	size_t dropped; /* past SP_MAX_FINDINGS: never worse than any kept */
	struct sp_finding f[SP_MAX_FINDINGS];
};

void sp_findings_add(struct sp_findings *fs, enum sp_severity severity, const char *code,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The worst severity of the findings; -1 when there are none. */
int sp_findings_worst(const struct sp_findings *fs);

/* ------------------------------------------------------------ partition */

struct sp_found_partition {
	char disk[SP_PATH_MAX];
	char partition[SP_PATH_MAX];  /* the node the plan names */
	uint64_t disk_bytes;
	unsigned sector_bytes;        /* as the label's reader sees the disk */
	bool label_unreadable;        /* the reader could not read it: said says why */
	char label[SP_NAME_MAX];      /* "gpt", "msdos", "loop" (fs on the whole disk), "" none */
	/* which library read the label: "libparted" (apply's verify: what it
	 * cannot read, it must not rewrite unasked) or "libblkid" (check and
	 * scan: it opens the disk read-only and makes no udev event) */
	char reader[16];
	char said[SP_MSG_MAX];        /* what the reader complained about */
	unsigned n_partitions;
	bool has_first;               /* partition 1 */
	bool first_is_primary;
	bool first_is_extended;
	uint64_t start_bytes, size_bytes; /* of partition 1, on the label */
	/* a GPT copy the on-disk reader found damaged or missing ("" none);
	 * with the other one intact, the partitions above are that one's */
	char gpt_damage[SP_MSG_MAX];
	bool gpt_both_damaged;
	/* an intact GPT's backup header and the disk's last sector (0: no
	 * GPT read): a backup before the end is a disk that grew */
	uint64_t gpt_backup_lba, disk_last_lba;
	/* the kernel's view (sysfs, 512-byte units turned into bytes) */
	bool kernel_unreadable;
	char kernel_error[SP_MSG_MAX];
	bool kernel_has_first;
	uint64_t kernel_start_bytes, kernel_size_bytes;
	unsigned kernel_n_partitions;
	char kernel_name[SP_NAME_MAX];
	unsigned kernel_major, kernel_minor;
	bool node_matches;            /* `partition` is the kernel's partition 1 */
};

void sp_judge_partition(const struct sp_plan *plan, const struct sp_found_partition *found,
			struct sp_findings *out);

/* ----------------------------------------------------------- filesystem */

struct sp_found_fs {
	char path[SP_PATH_MAX];
	bool no_node, not_block;
	bool blank, ambivalent;
	char type[SP_NAME_MAX];       /* libblkid's TYPE */
	char uuid[SP_NAME_MAX];
	char label[SP_NAME_MAX];
	bool sb_unreadable;           /* the superblock could not be read: sb_error says why */
	char sb_error[SP_MSG_MAX];
	unsigned block_bytes;
	/* xfs (struct xfs_dsb) */
	uint64_t xfs_unit_blocks, xfs_width_blocks;
	uint64_t xfs_agblocks, xfs_agcount;
	uint64_t xfs_logsunit_bytes;  /* 0 or 1 = none */
	/* ext3/ext4 */
	unsigned ext_stride_blocks, ext_stripe_width_blocks;
	/*
	 * Whether it is whole: what the kernel needs to mount it.  A mkfs
	 * stopped by ENOSPC or a kill leaves a right superblock and the rest
	 * unwritten.
	 */
	unsigned xfs_inprogress;          /* sb_inprogress: mkfs never finished */
	char xfs_missing[SP_NAME_MAX];    /* the first header not there ("" all are):
					   * "the AGF of allocation group 3" */
	uint64_t xfs_missing_at_bytes;
	bool mounted;                     /* then a journal needing recovery is normal */
	bool ext_errors;                  /* s_state says 'with errors' */
	bool ext_needs_recovery;          /* journal needs_recovery, not mounted */
	bool ext_not_clean;               /* s_state not 'clean', not mounted */
	/*
	 * What the on-disk readers (ondisk.h) say of it: a superblock the
	 * kernel refuses (bad CRC or checksum, unknown feature bits, sb_logstart
	 * 0, a geometry check), or, where libblkid saw nothing, a primary that
	 * is gone while a secondary or backup copy is there.  Such a
	 * filesystem still holds its files: never "no filesystem".
	 */
	bool damaged;
	char damage[SP_MSG_MAX];          /* what failed, in words */
	char repair[SP_MSG_MAX];          /* the whole command: "xfs_repair /dev/sdb1" */
};

void sp_judge_filesystem(const struct sp_plan *plan, const struct sp_found_fs *found,
			 struct sp_findings *out);

/* ---------------------------------------------------------------- fstab */

/*
 * A layer of a stack check found where the filesystem should be: a LUKS2
 * volume or an LVM physical volume, read from its header on the disk
 * (planner/ondisk/luks2.c, lvm.c).  Where its data starts decides whether
 * what is above it can be aligned at all.
 */
struct sp_found_layer {
	enum sp_layer kind;
	char device[SP_PATH_MAX];      /* what holds the header: /dev/sdb1, /dev/md3 */
	uint64_t device_start_bytes;   /* where that device starts on the array */
	bool unread;                   /* not a header check reads (LUKS1): damage says what */
	bool damaged;                  /* the header fails a check its tool makes */
	char damage[SP_MSG_MAX];
	uint64_t data_offset_bytes;    /* the LUKS2 data offset, or the PV's pe_start */
	unsigned sector_bytes;         /* LUKS2's encryption sector */
};

/* What check says of a layer: costly when its data does not start on a
 * full stripe, with the model's cost and the fix; another aligned offset
 * only differs. */
void sp_judge_layer(const struct sp_plan *plan, const struct sp_found_layer *found,
		    struct sp_findings *out);

#define SP_FOUND_MAX_MOUNT_LINES 4U

struct sp_found_mount_line {
	unsigned line;             /* 1-based */
	bool owned;                /* below a stripeplan marker */
	char source[SP_PATH_MAX];  /* as written: "LABEL=data", "/dev/disk/by-id/..." */
	char target[SP_PATH_MAX];
	char fstype[SP_NAME_MAX];
	char options[SP_PATH_MAX];
	int passno;
};

struct sp_found_fstab {
	char path[SP_PATH_MAX];          /* the fstab read (under the target root) */
	char fs_path[SP_PATH_MAX];       /* the filesystem looked for */
	char fs_type[SP_NAME_MAX];       /* as found on the disk ("" none) */
	char fs_uuid[SP_NAME_MAX];
	uint64_t fs_log_su_bytes;        /* XFS log stripe unit found (0 none) */
	char planned_line[SP_PATH_MAX + 512]; /* the plan's line, rendered ("" no mount point) */
	bool have_planned;
	struct sp_found_mount_line planned;   /* ... parsed as the file's lines are */
	size_t n_lines;                  /* lines that mount this filesystem, all counted */
	struct sp_found_mount_line lines[SP_FOUND_MAX_MOUNT_LINES];
	bool mountpoint_checked;
	bool mountpoint_is_dir;
	char mountpoint_dir[SP_PATH_MAX]; /* under the root */
};

void sp_judge_fstab(const struct sp_plan *plan, const struct sp_found_fstab *found,
		    struct sp_findings *out);
/*
 * Mount options the kernel would refuse for this filesystem type, and
 * ones that cost or are redundant: pure, for the fstab judge and tests.
 */
void sp_judge_mount_options(const struct sp_plan *plan, const char *fstype, const char *options,
			    uint64_t log_su_bytes, const char *where, struct sp_findings *out);

/* --------------------------------------------------------------- tuning */

enum sp_knob_state {
	SP_KNOB_MATCHES = 0,
	SP_KNOB_MISSING,   /* the file is not there (no such knob on this kernel) */
	SP_KNOB_LOWERED,   /* the kernel clamped it below the plan's (its maximum) */
	SP_KNOB_DIFFERS,
};

enum sp_artifact_state {
	SP_ARTIFACT_MATCHES = 0,
	SP_ARTIFACT_MISSING,
	SP_ARTIFACT_DIFFERS,
	SP_ARTIFACT_WRONG_MODE,
};

#define SP_FOUND_MAX_ARTIFACTS 4U

struct sp_found_knob {
	char disk[SP_NAME_MAX];
	char attr[SP_NAME_MAX];
	char file[SP_PATH_MAX];     /* the sysfs file */
	char want[SP_NAME_MAX];     /* the values as text, for messages */
	char have[SP_NAME_MAX];
	struct sp_value want_value; /* and as the step read them, to compare */
	struct sp_value have_value;
	bool have_known;            /* the kernel's text was a value stripeplan reads */
	enum sp_knob_state state;
};

struct sp_found_artifact {
	char path[SP_PATH_MAX];
	enum sp_artifact_state state;
	unsigned mode, want_mode;
};

struct sp_found_tuning {
	size_t n_knobs;
	struct sp_found_knob *knobs; /* grown as needed (sp_array_room); free() it */
	size_t n_artifacts;
	struct sp_found_artifact artifacts[SP_FOUND_MAX_ARTIFACTS];
};

void sp_judge_tuning(const struct sp_plan *plan, const struct sp_found_tuning *found,
		     struct sp_findings *out);

/* ---------------------------------------------------------------- costs */

/*
 * Adds the model's cost to the costly alignment and geometry findings,
 * from the layout found (partition start, filesystem stripe settings).
 * Findings without a layout to cost keep cost.known = false.
 */
void sp_audit_costs(const struct sp_plan *plan, const struct sp_found_partition *part,
		    const struct sp_found_fs *fs, struct sp_findings *findings);
/* "stripe-sized writes cost 2.25x the minimum member I/O of this raid5,
 * chunk-sized reads 2.00x" */
void sp_cost_sentence(const struct sp_plan *plan, const struct sp_cost *cost, char *buf,
		      size_t len);

#endif
