/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The filesystem stage: its geometry (XFS's stripe unit and width, log
 * stripe unit and allocation groups; ext's stride and stripe width) and
 * the mkfs command line that makes it, built argument by argument and
 * stopped at the first one that does not fit.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/units.h"
#include "limits/limit.h"
#include "plan-internal.h"
#include "xfs-geometry.h"

/* The mkfs argv being built: it stops at the first argument that does not
 * fit, and argv_end() reports that one. */
struct argv {
	struct sp_plan *plan;
	int r;           /* the first error: -E2BIG, -ENAMETOOLONG */
	const char *bad; /* the argument that did not fit */
};

static void argv_add(struct argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void argv_add(struct argv *a, const char *fmt, ...)
{
	struct sp_plan *plan = a->plan;
	va_list ap;
	int w;

	if (a->r < 0)
		return;
	if (plan->n_mkfs_argv >= SP_MAX_ARGV) {
		a->r = -E2BIG;
		return;
	}
	va_start(ap, fmt);
	w = vsnprintf(plan->mkfs_argv[plan->n_mkfs_argv], sizeof(plan->mkfs_argv[0]), fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= sizeof(plan->mkfs_argv[0])) {
		a->r = -ENAMETOOLONG;
		a->bad = plan->mkfs_argv[plan->n_mkfs_argv];
		return;
	}
	plan->n_mkfs_argv++;
}

/* -d su=,sw=[,agsize=] and -l su=: the stripe, which a mirror does not have */
static void xfs_stripe_args(struct argv *a)
{
	struct sp_plan *plan = a->plan;
	char su[32], lsu[32];

	/*
	 * One block, not the chunk mkfs.xfs picks by itself (or the 32 KiB it
	 * falls back to above XFS's 256 KiB cap): every log write is padded to
	 * the log stripe unit, and a padded log write is still a partial
	 * stripe, so the padding buys no member I/O and costs bytes.  Measured
	 * (bench/run --parts log, 64 KiB files each fsynced): member bytes per
	 * data byte 2.13 at 4 KiB against 10.0 at the 256 KiB chunk on RAID10
	 * 8 x 256 KiB, 4.27 against 6.01 at 32 KiB on RAID5 10 x 1 MiB, member
	 * I/Os equal; seqwrite and stripewrite within 1 %.  mkfs.xfs takes no
	 * less than one block once -d su is given.
	 */
	plan->xfs_log_su_bytes = plan->block_bytes;
	sp_format_size(plan->xfs_su_bytes, SP_SIZE_MKFS, su, sizeof(su));
	sp_format_size(plan->xfs_log_su_bytes, SP_SIZE_MKFS, lsu, sizeof(lsu));
	argv_add(a, "-d");
	if (plan->xfs_agsize_bytes) {
		argv_add(a, "su=%s,sw=%u,agsize=%s", su, plan->xfs_sw,
			 SP_SIZE_TEXT(plan->xfs_agsize_bytes, SP_SIZE_MKFS));
	} else {
		argv_add(a, "su=%s,sw=%u", su, plan->xfs_sw);
	}
	argv_add(a, "-l");
	argv_add(a, "su=%s", lsu);
}

/* Every mkfs line ends the same way: the label, then the node. */
static int argv_end(const struct sp_spec *spec, struct argv *a, struct sp_error *err)
{
	if (spec->label[0]) {
		argv_add(a, "-L");
		argv_add(a, "%s", spec->label);
	}
	argv_add(a, "%s", a->plan->fs_path);
	if (a->r == -E2BIG)
		return sp_error_set(err, E2BIG, SP_ERR_INVALID,
				    "mkfs: more than %u arguments", SP_MAX_ARGV);
	if (a->r < 0)
		return sp_error_set(err, -a->r, SP_ERR_INVALID,
				    "mkfs: argument '%.40s...' is longer than %zu characters",
				    a->bad, sizeof(a->plan->mkfs_argv[0]) - 1);
	return 0;
}

/*
 * A plan without a stripe unit says so to mkfs.xfs: left to itself it
 * takes su/sw from md or from a LUN that exports an optimal I/O size (some
 * controllers export their stripe size for a mirror too), and verify would
 * then find a filesystem that is not the plan's.
 */
static void xfs_noalign_args(struct argv *a)
{
	argv_add(a, "-d");
	if (a->plan->xfs_agsize_bytes)
		argv_add(a, "noalign,agsize=%s",
			 SP_SIZE_TEXT(a->plan->xfs_agsize_bytes, SP_SIZE_MKFS));
	else
		argv_add(a, "noalign");
}

/*
 * --workload small-sync: no data stripe unit, so no log stripe unit, and
 * fsync's log writes are padded to the 512-byte sector instead of a block.
 * Measured (bench/run --quick, 64 KiB files each fsynced, member bytes per
 * data byte): the plan with su 2.13 against 2.06 for parted's default on
 * RAID10 8 x 256 KiB, 4.27 against 4.11 on RAID5 10 x 1 MiB, 15 x 128 KiB
 * and (4.31) 4 x 64 KiB.  mkfs.xfs takes no log stripe unit below one
 * block beside -d su, and a stripe unit cannot be added later (mount -o
 * sunit= on a filesystem made without one: "cannot change alignment"),
 * so the two cannot be had together (-d noalign: xfs_noalign_args()).
 * The allocation groups are mkfs.xfs's own for one device, as parted's
 * default layout gets them: whole-stripe AGs serve only swalloc, which
 * needs a stripe unit.
 *
 * --workload metadata (small files made and removed, no fsync) plans the
 * same filesystem: a stripe unit only moves its small allocations apart.
 * Measured (two full bench runs, each workload on a fresh filesystem,
 * 50 000 2 KiB files untarred, renamed and removed, member I/Os per MiB):
 * without one below the general plan's su in 7 of 8 array x run cases
 * (RAID10 8 x 256 KiB 37.6 and 34.4 against 43.7 and 37.4; RAID5 4 x 64 KiB
 * 88.1 and 95.0 against 91.7 and 91.8, the exception); its sync's
 * writeback is gathered by timing, and one layout's figure moved by up to
 * 72 % between the two runs.
 * The small-sync trade beside the bytes: files as large as the chunk stay
 * on chunks only with a stripe unit (64 KiB files on RAID5 4 x 64 KiB:
 * 171.9 member I/Os per MiB without, 137.2 with the general plan's).
 */
static int xfs_no_stripe_ag(struct sp_plan *plan, struct sp_error *err)
{
	plan->xfs_su_bytes = 0;
	plan->xfs_sw = 0;
	plan->xfs_log_su_bytes = 0;
	return sp_xfs_plan_ag(plan->fs_size_bytes, 0, 0, plan->stripe_width_bytes, 0, &plan->xfs_ag, err);
}

/*
 * XFS aligns file data to the stripe width only relative to the start of
 * each AG (and only with swalloc), so parity arrays get AGs of whole
 * stripes: otherwise every full-stripe write costs a read-modify-write
 * (bench/: 1.4-2.0x the member I/O).  Parity rotates from row to row with
 * a period of the disks in a parity set, so AG headers still spread over
 * the members as long as the stripes per AG are not a multiple of that
 * period.  RAID4's parity does not rotate: whole-stripe AGs would all
 * start on its first disk, so it gets mkfs.xfs's own AGs, whose rule (no
 * AG a multiple of the width) is the right one there, and no swalloc.
 * A mirror has no stripe: su, sw and the log stripe unit stay 0.
 */
static int xfs_stripe_ag(struct sp_plan *plan, struct sp_error *err)
{
	char detail[96];
	int r;

	snprintf(detail, sizeof(detail), "%u data disks x %s = %s", plan->data_disks,
		 SP_SIZE_TEXT(plan->chunk_bytes, SP_SIZE_HUMAN),
		 SP_SIZE_TEXT(plan->stripe_width_bytes, SP_SIZE_HUMAN));
	r = sp_limit_check(SP_LIMIT_XFS_SWIDTH, plan->stripe_width_bytes, "stripe width", detail, err);
	if (r < 0)
		return r;
	plan->xfs_su_bytes = plan->chunk_bytes;
	plan->xfs_sw = plan->stripe_width_bytes ? plan->data_disks : 0;
	return sp_xfs_plan_ag(plan->fs_size_bytes, plan->xfs_su_bytes, plan->xfs_sw,
			      plan->stripe_width_bytes,
			      sp_level_rotates_parity(plan->level) ? plan->disks / plan->spans : 0,
			      &plan->xfs_ag, err);
}

static int plan_xfs(const struct sp_spec *spec, struct sp_plan *plan, struct sp_error *err)
{
	bool stripe = sp_workload_xfs_stripe(spec->workload);
	int r = stripe ? xfs_stripe_ag(plan, err) : xfs_no_stripe_ag(plan, err);
	struct argv a = { .plan = plan };

	if (r < 0)
		return r;
	plan->xfs_agsize_bytes = plan->xfs_ag.agsize_bytes;
	argv_add(&a, "%s", sp_mkfs_tool(SP_FS_XFS));
	argv_add(&a, "-b");
	argv_add(&a, "size=%u", plan->block_bytes);
	if (stripe && plan->stripe_width_bytes)
		xfs_stripe_args(&a);
	else
		xfs_noalign_args(&a);
	return argv_end(spec, &a, err);
}

/*
 * ext4's allocator takes the stripe width, else the stride, only when it
 * fits one block group (ext4_get_stripe_size()); mke2fs writes a larger
 * one without a word, and mount -o stripe= is held to the same rule.  The
 * hints stay (they cost nothing and say what the array is); the plan says
 * what ext4 will use instead.
 */
static void ext_stripe_used(const struct sp_spec *spec, struct sp_plan *plan)
{
	const struct sp_limit *l = sp_limit(SP_LIMIT_EXT4_STRIPE_USED);
	unsigned used;

	if (sp_limit_holds(SP_LIMIT_EXT4_STRIPE_USED, plan->ext_stripe_width_blocks))
		return;
	used = sp_limit_holds(SP_LIMIT_EXT4_STRIPE_USED, plan->ext_stride_blocks) ?
		       plan->ext_stride_blocks : 0;
	sp_plan_add_warning(plan, "ext4-stripe-ignored",
			    "%s: %s %s a stripe width above %" PRIu64 " %s (%s): this one is %u "
			    "blocks, so its allocator aligns to %s",
			    sp_fs_name(spec->fs), l->tool, "ignores", l->max, l->unit,
			    SP_LIMIT_CITED(SP_LIMIT_EXT4_STRIPE_USED), plan->ext_stripe_width_blocks,
			    used ? SP_SIZE_TEXT((uint64_t)used * plan->block_bytes, SP_SIZE_HUMAN) :
				   "nothing (the stride is as large)");
}

static int plan_ext(const struct sp_spec *spec, struct sp_plan *plan, struct sp_error *err)
{
	uint64_t stride = plan->chunk_bytes / plan->block_bytes;
	uint64_t width = stride * plan->data_disks;
	struct argv a = { .plan = plan };

	char detail[96];
	int r;

	if (spec->fs == SP_FS_EXT3) {
		snprintf(detail, sizeof(detail), "%s is %" PRIu64 " blocks; use --fs ext4 or --fs xfs",
			 SP_SIZE_TEXT(plan->fs_size_bytes, SP_SIZE_HUMAN),
			 plan->fs_size_bytes / plan->block_bytes);
		r = sp_limit_check(SP_LIMIT_EXT3_BLOCKS, plan->fs_size_bytes / plan->block_bytes, "fs",
				   detail, err);
		if (r < 0)
			return r;
	}
	/* mke2fs would store either modulo its field's width, without a word */
	snprintf(detail, sizeof(detail), "%s chunk / %u-byte blocks = %" PRIu64,
		 SP_SIZE_TEXT(plan->chunk_bytes, SP_SIZE_HUMAN), plan->block_bytes, stride);
	r = sp_limit_check(SP_LIMIT_EXT_STRIDE, stride, "chunk", detail, err);
	if (r < 0)
		return r;
	snprintf(detail, sizeof(detail), "%" PRIu64 " x %u data disks = %" PRIu64, stride,
		 plan->data_disks, width);
	r = sp_limit_check(SP_LIMIT_EXT_STRIPE_WIDTH, width, "stripe width", detail, err);
	if (r < 0)
		return r;
	plan->ext_stride_blocks = (unsigned)stride;
	plan->ext_stripe_width_blocks = (unsigned)width;
	argv_add(&a, "%s", sp_mkfs_tool(spec->fs));
	argv_add(&a, "-t");
	argv_add(&a, "%s", sp_fs_name(spec->fs));
	argv_add(&a, "-b");
	argv_add(&a, "%u", plan->block_bytes);
	/*
	 * Both hints, as mke2fs sets them by itself on md.  mballoc aligns an
	 * allocation to stripe_width (ext4_mb_scan_aligned) only when the
	 * request is a whole number of stripes -- a fallocated or direct-I/O
	 * file; writeback asks for at most 8 MiB at a time -- and then hands
	 * out the buddy run that follows the first aligned free block: whole
	 * stripes when the stripe is a power of two blocks, otherwise a piece
	 * whose end leaves the rest of the file aligned only if the free space
	 * runs on.  Measured (bench/run --parts ext4, stripewrite, member I/Os
	 * as a multiple of the level's minimum, fresh / aged / written
	 * filesystem): 1.02 in all three against 1.27 / 1.02-1.27 / 1.02 without
	 * hints on RAID10 8 x 256 KiB; 1.03 / 1.03 / 1.06 against 1.50 / 1.50 /
	 * 1.06-1.10 on RAID5 15 x 128 KiB.  On the 192 KiB and 9 MiB stripes
	 * neither choice stays aligned in every placement, and which costs
	 * less is where the file happened to land: no hints measured 2.26 /
	 * 1.01 / 1.02 against the plan's 2.51 / 1.01 / 1.51 on RAID5 4 x 64 KiB
	 * but 2.60 / 1.80 / 1.50 against 1.72 / 1.77 / 1.32 on 10 x 1 MiB, and
	 * parted-default's unaligned 1 MiB partition beat the plan once on each
	 * (2.26 fresh, 1.60 aged).  No rule by the stripe separates the two
	 * from 15 x 128 KiB, so the hints stay everywhere (as mke2fs sets them
	 * on md: the plan is never worse than that), and a stripe that is not
	 * a power of two blocks gets the warning below.
	 */
	if (plan->stripe_width_bytes && !sp_is_power_of_two(plan->ext_stripe_width_blocks))
		sp_plan_add_warning(plan, "ext-stripe-not-pow2",
				    "%s keeps a new file aligned to a stripe of %u blocks, "
				    "not a power of two, only as far as the free space "
				    "after its first aligned piece runs: stripe-sized writes "
				    "to such a file measured 1.0-2.5x the level's minimum "
				    "(bench/run --parts ext4), with --fs xfs 1.00-1.03x",
				    sp_fs_name(spec->fs), plan->ext_stripe_width_blocks);
	ext_stripe_used(spec, plan);
	/*
	 * Said even when 0 (a mirror): left to itself mke2fs takes stride and
	 * stripe_width from the minimum and optimal I/O a LUN exports, which
	 * some controllers export for a mirror too; -E is parsed after that
	 * probe, so it wins (vm/scsi: 16 and 256 on a mirror without it).
	 */
	argv_add(&a, "-E");
	argv_add(&a, "stride=%u,stripe_width=%u", plan->ext_stride_blocks,
		 plan->ext_stripe_width_blocks);
	return argv_end(spec, &a, err);
}

int sp_plan_filesystem(const struct sp_spec *spec, const struct sp_profile *profile,
		       struct sp_plan *plan, struct sp_error *err)
{
	size_t label_max = spec->fs == SP_FS_XFS ? 12 : 16;

	(void)profile;

	plan->fs = spec->fs;
	plan->workload = spec->workload;
	plan->block_bytes = SP_FS_BLOCK_BYTES;
	snprintf(plan->label, sizeof(plan->label), "%s", spec->label);
	if (strlen(spec->label) > label_max)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "label: '%s' is longer than the %zu characters %s allows",
				    spec->label, label_max, sp_fs_name(spec->fs));
	for (const char *p = spec->label; *p; p++)
		if ((unsigned char)*p < 0x21 || *p == 0x7f)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "label: spaces and control characters are not allowed");
	return spec->fs == SP_FS_XFS ? plan_xfs(spec, plan, err) : plan_ext(spec, plan, err);
}
