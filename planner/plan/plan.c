/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spec + profile + facts -> plan.  Pure: no I/O, no printing, no exit.
 * Each stage fills one part of the plan in the order a person would
 * reason about it: array, partition, filesystem, mount, tuning.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan-internal.h"

#define EXT3_MAX_BLOCKS ((1ULL << 32) - 1)      /* no 64bit feature: mke2fs's MAX_32_NUM */
#define GPT_ENTRIES_BYTES 16384U                /* 128 entries x 128 bytes */
#define MSDOS_MAX_SECTORS (1ULL << 32)
#define OPTIMAL_IO_MAX_BYTES (256 * SP_MIB)
#define DEVICE_TIMEOUT "x-systemd.device-timeout=30s"
#define PAGE_BYTES 4096U

void sp_plan_add_warning(struct sp_plan *plan, const char *code, const char *fmt, ...)
{
	struct sp_warning *w;
	va_list ap;

	if (plan->n_warnings >= SP_MAX_WARNINGS) {
		/* full: the last warning gives way to the count of those not shown */
		plan->n_warnings_dropped += plan->n_warnings_dropped ? 1 : 2;
		w = &plan->warnings[SP_MAX_WARNINGS - 1];
		snprintf(w->code, sizeof(w->code), "more-warnings");
		snprintf(w->message, sizeof(w->message), "... and %zu more warnings",
			 plan->n_warnings_dropped);
		return;
	}
	w = &plan->warnings[plan->n_warnings++];
	snprintf(w->code, sizeof(w->code), "%s", code);
	va_start(ap, fmt);
	vsnprintf(w->message, sizeof(w->message), fmt, ap);
	va_end(ap);
}

int sp_kernel_name_from_path(const char *path, char *buf, size_t len, struct sp_error *err)
{
	const char *name;
	size_t i;

	if (strncmp(path, "/dev/", 5) != 0 || !path[5])
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "device: '%s' is not a /dev path", path);
	name = path + 5;
	if (!strncmp(name, "disk/", 5) || !strncmp(name, "mapper/", 7))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "device: cannot tell the kernel name of '%s' without probing it; "
				    "name the device as /dev/sdX or let stripeplan probe it",
				    path);
	if (strlen(name) >= len || strlen(name) >= SP_NAME_MAX)
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
				    "device: '%s' is too long", path);
	/* the kernel spells '/' in block device names as '!' in sysfs */
	for (i = 0; name[i]; i++)
		buf[i] = name[i] == '/' ? '!' : name[i];
	buf[i] = '\0';
	return 0;
}

bool sp_block_name_ok(const char *name)
{
	if (!name[0] || strlen(name) >= SP_NAME_MAX)
		return false;
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '!' ||
		      *c == '-' || *c == '_'))
			return false;
	return true;
}

int sp_partition_path(const char *disk_path, unsigned number, char *buf, size_t len)
{
	size_t n = strlen(disk_path);
	/* the kernel inserts 'p' when the disk name ends in a digit (loop0p1, nvme0n1p1) */
	bool needs_p = n && disk_path[n - 1] >= '0' && disk_path[n - 1] <= '9';
	int w = snprintf(buf, len, "%s%s%u", disk_path, needs_p ? "p" : "", number);

	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

static int check_facts(const struct sp_facts *f, struct sp_error *err)
{
	if (f->is_partition)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "device: '%s' is a partition; give the whole disk or array", f->path);
	if (f->logical_sector_bytes < 512 || f->logical_sector_bytes > 65536 ||
	    !sp_is_power_of_two(f->logical_sector_bytes))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "sector-size: %u is not a sector size (512, 4096, ...)",
				    f->logical_sector_bytes);
	if (f->physical_sector_bytes < f->logical_sector_bytes ||
	    !sp_is_power_of_two(f->physical_sector_bytes) || f->physical_sector_bytes > 65536)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "sector-size: physical sector %u must be a power of two >= the logical %u",
				    f->physical_sector_bytes, f->logical_sector_bytes);
	if (f->logical_sector_bytes > SP_FS_BLOCK_BYTES)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "sector-size: %u-byte sectors are larger than the 4 KiB filesystem block",
				    f->logical_sector_bytes);
	if (f->size_bytes == 0 || f->size_bytes % f->logical_sector_bytes)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "size: %" PRIu64 " bytes is not a whole number of %u-byte sectors",
				    f->size_bytes, f->logical_sector_bytes);
	return 0;
}

/* An optimal I/O size is sane when it could be a stripe: whole 4 KiB
 * pages, not huge.  33553920 (32 MiB - 512, what some USB bridges and
 * RAID firmware report) is not. */
static bool optimal_io_is_sane(const struct sp_facts *f)
{
	uint64_t io = f->optimal_io_bytes;

	return io && io % PAGE_BYTES == 0 && io % f->physical_sector_bytes == 0 &&
	       io <= OPTIMAL_IO_MAX_BYTES;
}

static void topology_mismatch(const struct sp_facts *f, struct sp_plan *plan)
{
	char a[32];

	sp_format_size(f->optimal_io_bytes, SP_SIZE_HUMAN, a, sizeof(a));
	if (!plan->stripe_width_bytes)
		sp_plan_add_warning(plan, "topology-mismatch",
				    "%s exports an optimal I/O size of %s but a mirror has no stripe; "
				    "it is not aligned to",
				    f->path, a);
	else if (plan->level_source == SP_SOURCE_KERNEL)
		sp_plan_add_warning(plan, "topology-mismatch",
				    "%s exports an optimal I/O size of %s but its md geometry makes a "
				    "%s full stripe",
				    f->path, a,
				    SP_SIZE_TEXT(plan->stripe_width_bytes, SP_SIZE_HUMAN));
	else
		sp_plan_add_warning(plan, "topology-mismatch",
				    "%s exports an optimal I/O size of %s but the declared array's "
				    "full stripe is %s: check --level, --disks and --chunk against "
				    "the controller's configuration",
				    f->path, a,
				    SP_SIZE_TEXT(plan->stripe_width_bytes, SP_SIZE_HUMAN));
}

static int plan_alignment(const struct sp_facts *f, struct sp_plan *plan, struct sp_error *err)
{
	uint64_t align = SP_MIB;

	/* a mirror has no stripe: 1 MiB and the physical sector */
	if ((plan->stripe_width_bytes && sp_lcm(plan->stripe_width_bytes, SP_MIB, &align) < 0) ||
	    sp_lcm(align, f->physical_sector_bytes, &align) < 0)
		return sp_error_set(err, EOVERFLOW, SP_ERR_INVALID,
				    "chunk: the stripe width cannot be aligned to 1 MiB without overflow");
	if (optimal_io_is_sane(f)) {
		if (f->optimal_io_bytes != plan->stripe_width_bytes)
			topology_mismatch(f, plan);
		if (plan->stripe_width_bytes && sp_lcm(align, f->optimal_io_bytes, &align) < 0)
			return sp_error_set(err, EOVERFLOW, SP_ERR_INVALID,
					    "device: the optimal I/O size cannot be combined with the stripe");
	} else if (f->optimal_io_bytes) {
		sp_plan_add_warning(plan, "topology-ignored",
				    "%s exports an optimal I/O size of %" PRIu64
				    " bytes, which no array has; it is ignored",
				    f->path, f->optimal_io_bytes);
	}
	if (f->alignment_offset_bytes)
		sp_plan_add_warning(plan, "alignment-offset",
				    "%s reports an alignment offset of %" PRId64
				    " bytes; stripeplan aligns to the declared array from sector 0, "
				    "check the controller's configuration",
				    f->path, f->alignment_offset_bytes);
	plan->align_bytes = align;
	return 0;
}

/* md arrays carry the filesystem themselves; LUNs get a label */
static void choose_table(const struct sp_spec *spec, const struct sp_profile *profile,
			 struct sp_plan *plan)
{
	if (!(spec->omitted & SP_FIELD_TABLE)) {
		plan->table = spec->table;
		plan->table_source = SP_SOURCE_DECLARED;
		return;
	}
	plan->table = profile->is_md ? SP_TABLE_NONE : SP_TABLE_GPT;
	plan->table_source = SP_SOURCE_DEFAULT;
}

/* The filesystem on the whole device: it starts at 0, aligned to anything. */
static int plan_whole_device(const struct sp_facts *f, struct sp_plan *plan, struct sp_error *err)
{
	plan->start_bytes = 0;
	plan->reserved_tail_bytes = 0;
	plan->size_bytes = f->size_bytes;
	if (plan->size_bytes < plan->stripe_width_bytes)
		return sp_error_set(err, ENOSPC, SP_ERR_INVALID,
				    "size: %s (%s) is smaller than one %s stripe", f->path,
				    SP_SIZE_TEXT(f->size_bytes, SP_SIZE_HUMAN),
				    SP_SIZE_TEXT(plan->stripe_width_bytes, SP_SIZE_HUMAN));
	snprintf(plan->partition_path, sizeof(plan->partition_path), "%s", f->path);
	return 0;
}

static int plan_partition(const struct sp_spec *spec, const struct sp_profile *profile,
			  const struct sp_facts *f, struct sp_plan *plan, struct sp_error *err)
{
	uint64_t sector = f->logical_sector_bytes;
	uint64_t device_sectors = f->size_bytes / sector;
	/* a mirror's partition ends on a physical sector, a stripe's on a stripe */
	uint64_t unit = plan->stripe_width_bytes ? plan->stripe_width_bytes : f->physical_sector_bytes;
	uint64_t usable_end;
	int r;

	r = plan_alignment(f, plan, err);
	if (r < 0)
		return r;
	choose_table(spec, profile, plan);
	if (plan->table == SP_TABLE_NONE)
		return plan_whole_device(f, plan, err);
	/* GPT keeps a backup header and entry array in the last sectors */
	plan->reserved_tail_bytes = plan->table == SP_TABLE_GPT ? GPT_ENTRIES_BYTES + sector : 0;
	plan->start_bytes = plan->align_bytes;
	if (f->size_bytes < plan->reserved_tail_bytes ||
	    f->size_bytes - plan->reserved_tail_bytes < plan->start_bytes + unit)
		return sp_error_set(err, ENOSPC, SP_ERR_INVALID,
				    "size: %s (%s) is smaller than one %s stripe after the aligned start "
				    "at %s and the %s label",
				    f->path, SP_SIZE_TEXT(f->size_bytes, SP_SIZE_HUMAN),
				    SP_SIZE_TEXT(unit, SP_SIZE_HUMAN),
				    SP_SIZE_TEXT(plan->start_bytes, SP_SIZE_HUMAN),
				    sp_table_name(plan->table));
	usable_end = f->size_bytes - plan->reserved_tail_bytes;
	plan->size_bytes = (usable_end - plan->start_bytes) / unit * unit;

	if (plan->table == SP_TABLE_MSDOS &&
	    (plan->start_bytes + plan->size_bytes) / sector > MSDOS_MAX_SECTORS)
		return sp_error_set(err, EFBIG, SP_ERR_INVALID,
				    "table: msdos labels stop at 2^32 sectors (%s with %" PRIu64
				    "-byte sectors) and %s has %" PRIu64 "; use --table gpt",
				    SP_SIZE_TEXT(MSDOS_MAX_SECTORS * sector, SP_SIZE_HUMAN), sector,
				    f->path, device_sectors);
	if (plan->table == SP_TABLE_GPT && device_sectors > MSDOS_MAX_SECTORS)
		sp_plan_add_warning(plan, "gpt-required",
				    "%s has %" PRIu64 " sectors, more than an msdos label can address "
				    "(2^32); GPT is the only choice",
				    f->path, device_sectors);
	if (sp_partition_path(f->path, 1, plan->partition_path, sizeof(plan->partition_path)) < 0)
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
				    "device: '%s' is too long", f->path);
	return 0;
}

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

static bool is_parity_level(enum sp_level level)
{
	return sp_level_parity_disks(level) > 0;
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
	argv_add(a, "%s", a->plan->partition_path);
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
	return sp_xfs_plan_ag(plan->size_bytes, 0, 0, plan->stripe_width_bytes, 0, &plan->xfs_ag, err);
}

/*
 * XFS aligns file data to the stripe width only relative to the start of
 * each AG (and only with swalloc), so parity arrays get AGs of whole
 * stripes: otherwise every full-stripe write costs a read-modify-write
 * (bench/: 1.4-2.0x the member I/O).  Parity rotates from row to row with
 * a period of the disks in a parity set, so AG headers still spread over
 * the members as long as the stripes per AG are not a multiple of that
 * period.  A mirror has no stripe: su, sw and the log stripe unit stay 0.
 */
static int xfs_stripe_ag(struct sp_plan *plan, struct sp_error *err)
{
	plan->xfs_su_bytes = plan->chunk_bytes;
	plan->xfs_sw = plan->stripe_width_bytes ? plan->data_disks : 0;
	return sp_xfs_plan_ag(plan->size_bytes, plan->xfs_su_bytes, plan->xfs_sw,
			      plan->stripe_width_bytes,
			      is_parity_level(plan->level) ? plan->disks / plan->spans : 0,
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

static int plan_ext(const struct sp_spec *spec, struct sp_plan *plan, struct sp_error *err)
{
	uint64_t stride = plan->chunk_bytes / plan->block_bytes;
	uint64_t width = stride * plan->data_disks;
	struct argv a = { .plan = plan };

	if (spec->fs == SP_FS_EXT3 && plan->size_bytes / plan->block_bytes > EXT3_MAX_BLOCKS)
		return sp_error_set(err, EFBIG, SP_ERR_INVALID,
				    "fs: ext3 cannot hold %s (%" PRIu64 " blocks; at most 2^32 - 1 "
				    "with 4 KiB blocks, 16 TiB - 4 KiB, as ext3 has no 64bit "
				    "feature); use --fs ext4 or --fs xfs",
				    SP_SIZE_TEXT(plan->size_bytes, SP_SIZE_HUMAN),
				    plan->size_bytes / plan->block_bytes);
	/* s_raid_stride is 16 bits on disk, s_raid_stripe_width 32 */
	if (stride > UINT16_MAX || width > UINT32_MAX)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "chunk: stride %" PRIu64 " / stripe width %" PRIu64
				    " blocks do not fit the ext superblock",
				    stride, width);
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

static int plan_filesystem(const struct sp_spec *spec, struct sp_plan *plan,
			   struct sp_error *err)
{
	size_t label_max = spec->fs == SP_FS_XFS ? 12 : 16;

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

static void option_add(struct sp_plan *plan, const char *opt)
{
	if (plan->n_mount_options < SP_MAX_OPTIONS)
		snprintf(plan->mount_options[plan->n_mount_options++], SP_NAME_MAX, "%s", opt);
}

static int plan_barriers(const struct sp_spec *spec, const struct sp_profile *profile,
			 struct sp_plan *plan, struct sp_error *err)
{
	bool xfs = spec->fs == SP_FS_XFS;

	enum sp_xfs_barrier_opts xfs_opts = sp_kernel_xfs_barrier_opts(&spec->kernel);

	if (spec->barriers != SP_BARRIERS_OFF) {
		if (xfs && profile->protected_write_cache && xfs_opts == SP_XFS_BARRIER_REJECTED)
			sp_plan_add_warning(plan, "nobarrier-removed",
					    "seed recipes mount XFS with nobarrier; Linux %s rejects it "
					    "(removed in 4.19: 'xfs: Unknown parameter nobarrier' and the "
					    "server stops in emergency mode), so barriers stay on; with a "
					    "battery-backed cache flushes are cheap",
					    spec->kernel.release);
		else if (xfs && profile->protected_write_cache && xfs_opts == SP_XFS_BARRIER_IGNORED)
			sp_plan_add_warning(plan, "nobarrier-ignored",
					    "seed recipes mount XFS with nobarrier; Linux %s accepts it but "
					    "ignores it (a no-op since 4.10, removed in 4.19), so it is not "
					    "planned; with a battery-backed cache flushes are cheap",
					    spec->kernel.release);
		return 0;
	}
	if (!profile->protected_write_cache)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "barriers: the %s profile has no battery- or flash-backed write "
				    "cache; turning barriers off would lose data on power failure",
				    profile->name);
	if (xfs && xfs_opts != SP_XFS_BARRIER_EFFECTIVE)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "barriers: XFS on Linux %s %s; barriers cannot be turned off",
				    spec->kernel.release,
				    xfs_opts == SP_XFS_BARRIER_REJECTED ?
				    "has no nobarrier option (removed in 4.19)" :
				    "ignores nobarrier (a no-op since 4.10)");
	option_add(plan, xfs ? "nobarrier" : "barrier=0");
	sp_plan_add_warning(plan, "barriers-off",
			    "write barriers are off: safe only while the controller's write cache "
			    "is battery- or flash-backed and the disks' own caches are off; a failed "
			    "battery means lost writes on power failure");
	return 0;
}

int sp_fstab_escape(const char *in, char *out, size_t len, struct sp_error *err)
{
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		const char *esc = NULL;
		char one[2] = { (char)*p, '\0' };

		if (*p == ' ')
			esc = "\\040";
		else if (*p == '\t')
			esc = "\\011";
		else if (*p == '\\')
			esc = "\\134";
		else if (*p < 0x20 || *p == 0x7f)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "mountpoint: control character 0x%02x is not allowed in "
					    "an fstab path",
					    *p);
		if (!esc)
			esc = one;
		if (o + strlen(esc) >= len)
			return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
					    "mountpoint: path is too long");
		memcpy(out + o, esc, strlen(esc));
		o += strlen(esc);
	}
	out[o] = '\0';
	return 0;
}

static int plan_mount(const struct sp_spec *spec, const struct sp_profile *profile,
		      struct sp_plan *plan, struct sp_error *err)
{
	char escaped[SP_PATH_MAX], opts[SP_MAX_OPTIONS * SP_NAME_MAX] = "";
	size_t used = 0;
	int r, w;

	option_add(plan, "noatime"); /* implies nodiratime, which the seeds also set */
	/*
	 * The log buffers, by workload: the seeds' logbufs=8,logbsize=256k
	 * against the kernel's 8 x 32 KiB, measured with the plan's one-block
	 * log stripe unit (bench/run --quick --parts log, 3 runs of each pair):
	 * - metadata (20 000 2 KiB files untarred, renamed, removed, no
	 *   fsync): 21 log-device requests against 163, member I/Os per MiB
	 *   lower in 8 of 9 pairs (1.28-1.79 against 1.33-2.20 on RAID10
	 *   8 x 256 KiB, 3.28 against 4.86 on RAID5 4 x 64 KiB), bytes equal;
	 * - smallfiles (64 KiB files, each fsynced): 4.52 against 4.27 member
	 *   bytes per byte on every RAID5 (2.26 against 2.13 on RAID10) in two
	 *   of three runs, equal in the third.
	 * One default cannot serve both: general keeps the kernel's buffers,
	 * as parted-default and mkfs-topology do; --workload metadata asks
	 * for the large ones (at least the log stripe unit, as XFS requires);
	 * small-sync keeps the kernel's, as general does.
	 */
	if (spec->fs == SP_FS_XFS && spec->workload == SP_WORKLOAD_METADATA) {
		option_add(plan, "logbufs=8");
		option_add(plan, "logbsize=256k");
	}
	/* with whole-stripe AGs, allocations that extend a file start on a
	 * full stripe: full-stripe writes stay full-stripe writes; without a
	 * stripe unit (small-sync, metadata) there is nothing for swalloc to
	 * round to */
	if (spec->fs == SP_FS_XFS && is_parity_level(plan->level) &&
	    sp_workload_xfs_stripe(spec->workload))
		option_add(plan, "swalloc");
	r = plan_barriers(spec, profile, plan, err);
	if (r < 0)
		return r;
	/* a data array that is missing at boot must not stop the boot; the
	 * device timeout is systemd's, and a pre-systemd mount(8) (RHEL 5/6,
	 * kernels before 3.10) would hand x-systemd.* to the filesystem */
	option_add(plan, "nofail");
	if (sp_kernel_has_systemd(&spec->kernel))
		option_add(plan, DEVICE_TIMEOUT);

	if (!spec->mountpoint[0]) {
		sp_plan_add_warning(plan, "no-mountpoint",
				    "no --mountpoint given: no fstab line is planned");
		return 0;
	}
	r = sp_mountpoint_check(spec->mountpoint, spec->force_mountpoint, plan->mountpoint,
				sizeof(plan->mountpoint), err);
	if (r < 0)
		return r;
	r = sp_fstab_escape(plan->mountpoint, escaped, sizeof(escaped), err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < plan->n_mount_options; i++)
		used += (size_t)snprintf(opts + used, sizeof(opts) - used, "%s%s", i ? "," : "",
					 plan->mount_options[i]);
	/* xfs has nothing for fsck to do at boot; ext gets the second pass */
	w = snprintf(plan->fstab_line, sizeof(plan->fstab_line), "UUID=%s %s %s %s 0 %d",
		     SP_FSTAB_UUID_PLACEHOLDER, escaped, sp_fs_name(spec->fs), opts,
		     spec->fs == SP_FS_XFS ? 0 : 2);
	if (w < 0 || (size_t)w >= sizeof(plan->fstab_line))
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
				    "mountpoint: the fstab line would be too long");
	return 0;
}

/* -E2BIG when the plan holds no more: a knob is never dropped unsaid */
static int tuning_add(struct sp_plan *plan, enum sp_tuning_kind kind, const char *disk,
		      const char *knob, const struct sp_value *value, const char *why)
{
	struct sp_tuning *t;

	if (plan->n_tuning >= SP_MAX_TUNING)
		return -E2BIG;
	t = &plan->tuning[plan->n_tuning++];
	t->kind = kind;
	snprintf(t->device, sizeof(t->device), "%s", disk);
	snprintf(t->attribute, sizeof(t->attribute), "%s", knob);
	t->value = *value;
	snprintf(t->why, sizeof(t->why), "%s", why);
	return 0;
}

static bool offered(const struct sp_facts *f, const char *name)
{
	for (size_t i = 0; name && i < f->n_schedulers; i++)
		if (!strcmp(f->schedulers[i], name))
			return true;
	return false;
}

/*
 * The kernel's name for the scheduler the profile wants.  For the running
 * kernel the probed device's queue/scheduler is the truth (vendors
 * backport, configs differ); for a release string, the kernel rules.
 */
static const char *choose_scheduler(const struct sp_spec *spec, struct sp_plan *plan,
				    bool is_device, const char *disk, const char *wanted)
{
	const struct sp_facts *f = &plan->device;
	const char *name = sp_kernel_scheduler_name(&spec->kernel, wanted);
	const char *alias = name ? sp_kernel_scheduler_alias(name) : NULL;
	char list[8 * 17] = "";
	size_t used = 0;

	if (!is_device || !spec->kernel_is_running || f->offline || !f->n_schedulers)
		return name;
	if (offered(f, name))
		return name;
	if (offered(f, alias))
		return alias;
	for (size_t i = 0; i < f->n_schedulers; i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? " " : "",
					 f->schedulers[i]);
	sp_plan_add_warning(plan, "scheduler-not-offered",
			    "%s offers the schedulers '%s' on Linux %s, not %s: its scheduler is "
			    "left as it is",
			    disk, list, spec->kernel.release, name ? name : wanted);
	return NULL;
}

static bool knob_applies(const struct sp_spec *spec, const struct sp_profile_knob *k)
{
	return !k->levels_mask || (k->levels_mask & sp_level_bit(spec->level));
}

/*
 * Whether the plan sets profile knob i: the default tuning sets the knobs
 * that are right on current kernels and disks; the field report's recipe
 * adds the others, each replacing a default knob on the same attribute.
 */
static bool knob_planned(const struct sp_spec *spec, const struct sp_profile *profile, size_t i)
{
	const struct sp_profile_knob *k = &profile->knobs[i];

	if (!knob_applies(spec, k))
		return false;
	if (spec->tuning_recipe == SP_TUNING_DEFAULT)
		return k->on_by_default;
	if (!k->on_by_default)
		return true;
	for (size_t j = 0; j < profile->n_knobs; j++) {
		const struct sp_profile_knob *o = &profile->knobs[j];

		if (j != i && !o->on_by_default && o->target == k->target &&
		    !strcmp(o->knob, k->knob) && knob_applies(spec, o))
			return false;
	}
	return true;
}

/* A module option equal to the driver's default changes nothing. */
static bool module_option_planned(const struct sp_spec *spec, const struct sp_profile_module_option *o)
{
	return spec->tuning_recipe == SP_TUNING_FIELD_REPORT ||
	       !sp_value_equal(&o->value, &o->driver_default);
}

/*
 * md's stripe cache, sized from the array: one entry is a 4 KiB page on
 * every member, so a full stripe needs chunk / 4 KiB entries; room for
 * four full stripes in flight lets md gather whole stripes from
 * writeback, within the memory budget.  Returns false when the kernel's
 * default (256) already holds that many.
 */
static bool md_stripe_cache_entries(const struct sp_spec *spec, struct sp_plan *plan,
				    struct sp_value *ret)
{
	uint64_t want = 4 * (plan->chunk_bytes / PAGE_BYTES);
	uint64_t affordable = plan->memory_budget_bytes / (PAGE_BYTES * spec->disks);
	uint64_t entries = want < affordable ? want : affordable;

	if (entries > 32768)
		entries = 32768;
	if (entries <= 256) {
		if (want > 256)
			sp_plan_add_warning(plan, "md-stripe-cache-budget",
					    "four full stripes would take %" PRIu64 " stripe cache entries "
					    "(%s), more than the %s memory budget affords above the "
					    "kernel's 256; md/stripe_cache_size is left at its default",
					    want,
					    SP_SIZE_TEXT(want * PAGE_BYTES * spec->disks, SP_SIZE_HUMAN),
					    SP_SIZE_TEXT(plan->memory_budget_bytes, SP_SIZE_HUMAN));
		return false;
	}
	*ret = sp_value_number(entries);
	return true;
}

static int tune_disk(const struct sp_spec *spec, const struct sp_profile *profile,
		     struct sp_plan *plan, const char *disk, enum sp_knob_target target)
{
	const char *wanted = target == SP_TARGET_DEVICE ? profile->scheduler : profile->member_scheduler;
	char why[SP_MSG_MAX + 96];
	int r = 0;

	/* md devices have no queue of their own to schedule */
	if (wanted[0] && !(profile->is_md && target == SP_TARGET_DEVICE)) {
		const char *name = choose_scheduler(spec, plan, target == SP_TARGET_DEVICE, disk, wanted);
		struct sp_value v = { .kind = SP_VALUE_SCHEDULER };

		if (name && sp_scheduler_from_name(name, &v.scheduler) == 0)
			r = tuning_add(plan, SP_TUNING_SYSFS, disk, "queue/scheduler", &v,
				   target == SP_TARGET_DEVICE ? profile->scheduler_why :
				   "member disks of an md array: deadline keeps reads from starving behind resync and writeback");
	}
	for (size_t i = 0; r == 0 && i < profile->n_knobs; i++) {
		const struct sp_profile_knob *k = &profile->knobs[i];
		struct sp_value value = k->value;

		if (k->target != target || !knob_planned(spec, profile, i))
			continue;
		if (target == SP_TARGET_MEMBERS && sp_plan_member_lacks(&plan->device, disk, k->knob))
			continue; /* noted once for all members by note_missing_knobs() */
		snprintf(why, sizeof(why), "%s", k->why);
		if (!strcmp(k->knob, "queue/read_ahead_kb"))
			snprintf(why, sizeof(why),
				 "%s (read_ahead_kb counts KiB: blockdev --setra %" PRIu64
				 ", in 512-byte sectors)",
				 k->why, k->value.number * 2);
		if (value.kind == SP_VALUE_AUTO && !md_stripe_cache_entries(spec, plan, &value))
			continue;
		r = tuning_add(plan, SP_TUNING_SYSFS, disk, k->knob, &value, why);
	}
	return r;
}

static void plan_md_memory(struct sp_plan *plan)
{
	for (size_t i = 0; i < plan->n_tuning; i++) {
		uint64_t entries;

		if (strcmp(plan->tuning[i].attribute, "md/stripe_cache_size") != 0)
			continue;
		entries = plan->tuning[i].value.number;
		plan->md_stripe_cache_bytes = entries * PAGE_BYTES * plan->disks;
		sp_plan_add_warning(plan, "md-stripe-cache-memory",
				    "md/stripe_cache_size %" PRIu64 " costs %" PRIu64
				    " entries x 4 KiB pages x %u member disks = %s of RAM, held "
				    "while the array runs (range 17..32768, default 256; memory "
				    "budget %s, --memory-budget)",
				    entries, entries, plan->disks,
				    SP_SIZE_TEXT(plan->md_stripe_cache_bytes, SP_SIZE_HUMAN),
				    SP_SIZE_TEXT(plan->memory_budget_bytes, SP_SIZE_HUMAN));
	}
}

static void left_out_add(struct sp_plan *plan, const char *what, const char *why,
			 const char *reason)
{
	struct sp_left_out *l;

	if (plan->n_left_out >= SP_MAX_LEFT_OUT)
		return;
	l = &plan->left_out[plan->n_left_out++];
	snprintf(l->what, sizeof(l->what), "%s", what);
	snprintf(l->why, sizeof(l->why), "%s", why);
	snprintf(l->reason, sizeof(l->reason), "%s", reason);
}

/* The field report's knobs the default tuning leaves out, with why. */
static void plan_left_out(const struct sp_spec *spec, const struct sp_profile *profile,
			  struct sp_plan *plan)
{
	char what[2 * SP_NAME_MAX], reason[SP_MSG_MAX];

	for (size_t i = 0; i < profile->n_knobs; i++) {
		const struct sp_profile_knob *k = &profile->knobs[i];

		if (!knob_applies(spec, k) || knob_planned(spec, profile, i))
			continue;
		if (k->on_by_default)
			continue; /* replaced by the field report's own value */
		snprintf(what, sizeof(what), "%s%s = %s", k->target == SP_TARGET_MEMBERS ? "members: " : "",
			 k->knob, SP_VALUE_TEXT(&k->value));
		snprintf(reason, sizeof(reason), "%s%s--tuning field-report sets it", k->holds,
			 k->holds[0] ? "; " : "");
		left_out_add(plan, what, k->why, reason);
	}
	for (size_t i = 0; i < profile->n_module_options; i++) {
		const struct sp_profile_module_option *o = &profile->module_options[i];

		if (module_option_planned(spec, o))
			continue;
		snprintf(what, sizeof(what), "options %s %s=%s", o->module, o->param,
			 SP_VALUE_TEXT(&o->value));
		snprintf(reason, sizeof(reason), "the driver's default is %s already: the line would "
			 "change nothing; --tuning field-report writes it as the report did",
			 SP_VALUE_TEXT(&o->driver_default));
		left_out_add(plan, what, o->why, reason);
	}
}

/* Knobs the probe saw a member lacks are left out; say which and why. */
static void note_missing_knobs(const struct sp_spec *spec, const struct sp_profile *profile,
			       struct sp_plan *plan)
{
	for (size_t i = 0; i < profile->n_knobs; i++) {
		const struct sp_profile_knob *k = &profile->knobs[i];
		char disks[SP_MSG_MAX / 2] = "";
		size_t used = 0, n = 0;

		if (k->target != SP_TARGET_MEMBERS || !knob_planned(spec, profile, i))
			continue;
		for (size_t m = 0; m < plan->n_members; m++) {
			if (!sp_plan_member_lacks(&plan->device, plan->members[m], k->knob))
				continue;
			used += (size_t)snprintf(disks + used, used < sizeof(disks) ? sizeof(disks) - used : 0,
						 "%s%s", n++ ? ", " : "", plan->members[m]);
		}
		if (n)
			sp_plan_add_warning(plan, "md-member-knob-missing",
					    "%s %s no %s (SCSI disks have it; NVMe and virtio disks "
					    "do not): not tuned there",
					    disks, n == 1 ? "has" : "have", k->knob);
	}
}

static int plan_tuning(const struct sp_spec *spec, const struct sp_profile *profile,
		       struct sp_plan *plan, struct sp_error *err)
{
	const char *disk = plan->device.kernel_name;
	int r;

	plan->tuning_recipe = spec->tuning_recipe;
	plan->memory_budget_bytes = spec->memory_budget_bytes ? spec->memory_budget_bytes :
				    SP_MEMORY_BUDGET_DEFAULT;
	if (spec->n_members && !profile->is_md)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "members: --members applies to md arrays, not to %s", profile->name);
	if (spec->n_members > SP_MAX_MEMBERS)
		return sp_error_set(err, E2BIG, SP_ERR_INVALID,
				    "members: more than %u member disks", SP_MAX_MEMBERS);
	/* the names become sysfs paths and udev matches: keep them plain */
	for (size_t m = 0; m < spec->n_members; m++)
		if (!sp_block_name_ok(spec->members[m]))
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "members: '%s' is not a block device name",
					    spec->members[m]);
	r = tune_disk(spec, profile, plan, disk, SP_TARGET_DEVICE);
	plan->members_source = SP_SOURCE_NONE;
	if (profile->is_md)
		sp_plan_members(spec, &plan->device, plan);
	/* members the kernel named (a facts file is untrusted too) */
	for (size_t m = 0; m < plan->n_members; m++)
		if (!sp_block_name_ok(plan->members[m]))
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "members: '%s' is not a block device name",
					    plan->members[m]);
	for (size_t m = 0; r == 0 && m < plan->n_members; m++)
		r = tune_disk(spec, profile, plan, plan->members[m], SP_TARGET_MEMBERS);
	note_missing_knobs(spec, profile, plan);
	if (profile->is_md && !plan->n_members)
		sp_plan_add_warning(plan, "md-members-unknown",
				    "give --members sdb,sdc,... to tune the member disks too "
				    "(scheduler, max_sectors_kb, nr_requests, queue_depth)");
	for (size_t i = 0; i < profile->n_module_options; i++) {
		const struct sp_profile_module_option *o = &profile->module_options[i];

		if (r == 0 && module_option_planned(spec, o))
			r = tuning_add(plan, SP_TUNING_MODULE, o->module, o->param, &o->value,
				       o->why);
	}
	if (r < 0)
		return sp_error_set(err, -r, SP_ERR_INVALID,
				    "members: the plan would set more than the %u knobs a plan holds "
				    "(%zu member disks); give fewer with --members",
				    SP_MAX_TUNING, plan->n_members);
	plan_md_memory(plan);
	plan_left_out(spec, profile, plan);
	return 0;
}

static void plan_profile_notes(const struct sp_spec *spec, const struct sp_profile *profile,
			       struct sp_plan *plan)
{
	unsigned bit = sp_level_bit(plan->level);

	for (size_t i = 0; i < profile->n_warnings; i++) {
		const struct sp_profile_warning *w = &profile->warnings[i];

		if (!w->levels_mask || (w->levels_mask & bit))
			sp_plan_add_warning(plan, w->code, "%s", w->message);
	}
	for (size_t i = 0; i < profile->n_advice; i++)
		snprintf(plan->advice[plan->n_advice++], SP_MSG_MAX, "%s", profile->advice[i]);
	if (strstr(plan->device.path, "/cciss/") && sp_kernel_cmp(&spec->kernel, 4, 14) >= 0)
		sp_plan_add_warning(plan, "cciss-removed",
				    "the cciss driver was removed in Linux 4.14; on %s a Smart Array "
				    "is driven by hpsa and appears as /dev/sdX",
				    spec->kernel.release);
	if ((plan->level == SP_LEVEL_5 || plan->level == SP_LEVEL_50) && plan->disks / plan->spans > 12)
		sp_plan_add_warning(plan, "wide-raid5",
				    "%u disks in one RAID5 set: a rebuild reads every other disk and a "
				    "second failure or unreadable sector loses the array; consider RAID6 "
				    "or RAID50",
				    plan->disks / plan->spans);
	if (spec->kernel.family == SP_KERNEL_UNKNOWN)
		sp_plan_add_warning(plan, "kernel-vendor-unknown",
				    "'%s' carries a vendor suffix stripeplan does not know; it is planned "
				    "as mainline %u.%u (schedulers %s, XFS nobarrier %s)%s",
				    spec->kernel.release, spec->kernel.major, spec->kernel.minor,
				    sp_kernel_is_blk_mq_only(&spec->kernel) ? "none/mq-deadline/bfq/kyber" :
				    "noop/deadline/cfq",
				    sp_kernel_xfs_barrier_opts(&spec->kernel) == SP_XFS_BARRIER_EFFECTIVE ?
				    "accepted" : "not planned",
				    spec->kernel_is_running && plan->device.n_schedulers ?
				    "; the schedulers are those the device offers" :
				    "; vendors backport, so check /sys/block/DEV/queue/scheduler on it");
	if (plan->device.offline)
		sp_plan_add_warning(plan, "offline",
				    "planned without probing %s; apply re-probes it and refuses if its "
				    "size or sector sizes differ",
				    plan->device.path);
}

/*
 * After the array stage, the later stages reason on the geometry the
 * plan has, whether declared or read from the kernel: they get the spec
 * with the array's values in it.
 */
static void effective_spec(const struct sp_plan *plan, struct sp_spec *eff)
{
	eff->level = plan->level;
	eff->disks = plan->disks;
	eff->chunk_bytes = plan->chunk_bytes;
	eff->omitted &= ~(SP_FIELD_LEVEL | SP_FIELD_DISKS | SP_FIELD_CHUNK);
}

int sp_plan_make(const struct sp_spec *spec, const struct sp_profile *profile,
		 const struct sp_facts *facts, struct sp_plan *ret, struct sp_error *err)
{
	static struct sp_plan zero;
	struct sp_plan *plan;
	struct sp_spec *eff;
	int r;

	plan = malloc(sizeof(*plan));
	eff = malloc(sizeof(*eff));
	if (!plan || !eff) {
		free(plan);
		free(eff);
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	}
	*plan = zero;
	*eff = *spec;
	plan->device = *facts;
	plan->kernel = spec->kernel;
	if ((r = check_facts(facts, err)) < 0 || (r = sp_plan_array(spec, profile, facts, plan, err)) < 0)
		goto out;
	effective_spec(plan, eff);
	if ((r = plan_partition(eff, profile, facts, plan, err)) < 0 ||
	    (r = plan_filesystem(eff, plan, err)) < 0 ||
	    (r = plan_mount(eff, profile, plan, err)) < 0 ||
	    (r = plan_tuning(eff, profile, plan, err)) < 0)
		goto out;
	plan_profile_notes(eff, profile, plan);
	*ret = *plan;
out:
	free(eff);
	free(plan);
	return r;
}
