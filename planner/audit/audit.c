/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The judges: plan + what verify found -> findings with a severity.
 * Pure: no I/O.  Messages read "<what is there>; <what it costs>; fix:
 * <the command>", so sp_audit_costs() can put the model's figure before
 * the fix.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "base/units.h"
#include "kernel/kernel.h"
#include "limits/limit.h"
#include "plan/spec.h"
#include "raid/raid.h"

#define RECREATE "re-create with 'stripeplan apply --force' (destroys the data)"
#define MSDOS_MAX_SECTORS (1ULL << 32)
#define SYSFS_SECTOR_BYTES 512U

static const char *const sp_severity_table[] = {
	[SP_SEVERITY_DIFFERS] = "differs",
	[SP_SEVERITY_SUBOPTIMAL] = "suboptimal",
	[SP_SEVERITY_COSTLY] = "costly",
};
SP_STRING_TABLE(sp_severity, enum sp_severity, "differs")

void sp_findings_add(struct sp_findings *fs, enum sp_severity severity, const char *code,
		     const char *fmt, ...)
{
	struct sp_finding *f;
	va_list ap;

	if (fs->n >= SP_MAX_FINDINGS) {
		/* full: a finding gives way only to a worse one, so the worst
		 * are always shown and judge the outcome (an md array of
		 * hundreds of members can drift on every one) */
		size_t least = 0;

		fs->dropped++;
		for (size_t i = 1; i < fs->n; i++)
			if (fs->f[i].severity <= fs->f[least].severity)
				least = i;
		if (severity <= fs->f[least].severity)
			return;
		f = &fs->f[least];
	} else {
		f = &fs->f[fs->n++];
	}
	memset(f, 0, sizeof(*f));
	f->severity = severity;
	snprintf(f->code, sizeof(f->code), "%s", code);
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
}

int sp_findings_worst(const struct sp_findings *fs)
{
	int worst = -1;

	for (size_t i = 0; i < fs->n; i++)
		if ((int)fs->f[i].severity > worst)
			worst = (int)fs->f[i].severity;
	return worst;
}

/* the one size formatter (units.c), under the names the judgments use */
static const char *human(uint64_t bytes, char *buf, size_t len)
{
	return sp_format_size(bytes, SP_SIZE_HUMAN, buf, len);
}

/* "64k": mkfs.xfs's spelling */
static const char *short_size(uint64_t bytes, char *buf, size_t len)
{
	return sp_format_size(bytes, SP_SIZE_MKFS, buf, len);
}

/* A mirror has no stripe: nothing to align to but the sector. */
static bool is_striped(const struct sp_plan *plan)
{
	return plan->level != SP_LEVEL_1 && plan->stripe_width_bytes > 0;
}

/* ------------------------------------------------------------ partition */

static void judge_label(const struct sp_plan *plan, const struct sp_found_partition *f,
			struct sp_findings *out)
{
	const char *want = sp_table_name(plan->table);
	uint64_t msdos_max = MSDOS_MAX_SECTORS * (f->sector_bytes ? f->sector_bytes : 512);
	char a[32], b[32];

	if (!strcmp(f->label, want))
		return;
	if (!strcmp(f->label, "msdos") && f->disk_bytes > msdos_max)
		sp_findings_add(out, SP_SEVERITY_SUBOPTIMAL, "label-too-small",
				"%s has a msdos label, which addresses only the first %s of its %s; "
				"fix: %s to get a gpt label",
				f->disk, human(msdos_max, a, sizeof(a)),
				human(f->disk_bytes, b, sizeof(b)), RECREATE);
	else
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "label-type",
				"%s has a %s label, the plan says %s; both address the whole %s: "
				"nothing to fix",
				f->disk, f->label, want, human(f->disk_bytes, a, sizeof(a)));
}

static void judge_start(const struct sp_plan *plan, const struct sp_found_partition *f,
			struct sp_findings *out)
{
	uint64_t stripe = plan->stripe_width_bytes, phys = plan->device.physical_sector_bytes;
	uint64_t sector = f->sector_bytes ? f->sector_bytes : 512;
	char a[32], b[32], c[32];

	if (is_striped(plan) && f->start_bytes % stripe) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "start-misaligned",
				"partition 1 of %s starts at sector %" PRIu64 " (byte %" PRIu64
				"), %s past a %s stripe boundary; fix: %s at a multiple of %s "
				"(the plan: %s)",
				f->disk, f->start_bytes / sector, f->start_bytes,
				human(f->start_bytes % stripe, a, sizeof(a)),
				human(stripe, b, sizeof(b)), RECREATE, b,
				human(plan->start_bytes, c, sizeof(c)));
		return;
	}
	if (phys > sector && f->start_bytes % phys) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "start-misaligned-physical",
				"partition 1 of %s starts at byte %" PRIu64 ", not on a %" PRIu64
				"-byte physical sector: every write reads and rewrites a physical "
				"sector; fix: %s",
				f->disk, f->start_bytes, phys, RECREATE);
		return;
	}
	if (f->start_bytes != plan->start_bytes)
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "start",
				"partition 1 of %s starts at %s (sector %" PRIu64 "), the plan says "
				"%s; both are whole %s stripes, so it costs nothing: nothing to fix",
				f->disk, human(f->start_bytes, a, sizeof(a)), f->start_bytes / sector,
				human(plan->start_bytes, b, sizeof(b)),
				is_striped(plan) ? human(stripe, c, sizeof(c)) : "(mirror: no)");
}

static void judge_size(const struct sp_plan *plan, const struct sp_found_partition *f,
		       struct sp_findings *out)
{
	char a[32], b[32], c[32], d[32];

	if (f->size_bytes == plan->size_bytes)
		return;
	if (is_striped(plan) && (f->start_bytes + f->size_bytes) % plan->stripe_width_bytes)
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "size",
				"partition 1 of %s is %s, the plan says %s; it ends %s into a %s "
				"stripe, which is never written whole (costs nothing else): "
				"nothing to fix",
				f->disk, human(f->size_bytes, a, sizeof(a)),
				human(plan->size_bytes, b, sizeof(b)),
				human((f->start_bytes + f->size_bytes) % plan->stripe_width_bytes, c,
				      sizeof(c)),
				human(plan->stripe_width_bytes, d, sizeof(d)));
	else
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "size",
				"partition 1 of %s is %s, the plan says %s: nothing to fix", f->disk,
				human(f->size_bytes, a, sizeof(a)),
				human(plan->size_bytes, b, sizeof(b)));
}

/* The kernel against the label on the disk (never against the plan). */
static void judge_kernel(const struct sp_found_partition *f, struct sp_findings *out)
{
	char a[32], b[32];

	if (f->kernel_unreadable) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "kernel-unreadable",
				"cannot read the kernel's partitions of %s: %s; fix: check that %s "
				"is the whole disk",
				f->disk, f->kernel_error, f->disk);
		return;
	}
	if (f->has_first && !f->kernel_has_first) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "kernel-stale",
				"the label on %s has partition 1, the kernel has none: nothing can "
				"use it; fix: partprobe %s",
				f->disk, f->disk);
		return;
	}
	if (f->has_first && (f->kernel_start_bytes != f->start_bytes ||
			     f->kernel_size_bytes != f->size_bytes))
		sp_findings_add(out, SP_SEVERITY_COSTLY, "kernel-stale",
				"the kernel sees partition 1 of %s at byte %" PRIu64 ", %s long; the "
				"label says byte %" PRIu64 ", %s: the kernel has not read the label; "
				"fix: partprobe %s",
				f->disk, f->kernel_start_bytes, human(f->kernel_size_bytes, a, sizeof(a)),
				f->start_bytes, human(f->size_bytes, b, sizeof(b)), f->disk);
	if (f->kernel_n_partitions != f->n_partitions)
		sp_findings_add(out, SP_SEVERITY_COSTLY, "kernel-stale",
				"the kernel sees %u partitions on %s, the label has %u; fix: "
				"partprobe %s",
				f->kernel_n_partitions, f->disk, f->n_partitions, f->disk);
	if (f->kernel_has_first && !f->node_matches)
		sp_findings_add(out, SP_SEVERITY_COSTLY, "no-node",
				"no device node %s for the kernel's %s (%u:%u); fix: udevadm trigger "
				"--action=add --settle /sys/class/block/%s",
				f->partition, f->kernel_name, f->kernel_major, f->kernel_minor,
				f->kernel_name);
}

/* --table none: the filesystem goes on the whole device, so a label there
 * (and the partitions the kernel made from it) must go. */
static void judge_no_table(const struct sp_found_partition *f, struct sp_findings *out)
{
	if (f->label_unreadable || (f->label[0] && strcmp(f->label, "loop") != 0))
		sp_findings_add(out, SP_SEVERITY_COSTLY, "table-present",
				"%s has a %s partition table%s; the plan puts the filesystem on the "
				"whole device (--table none); fix: stripeplan apply --force (it wipes "
				"the table: destroys what the partitions hold)",
				f->disk, f->label[0] ? f->label : "unreadable",
				f->kernel_n_partitions ? " and the kernel has partitions from it" : "");
}

/*
 * A damaged GPT copy is repaired from the other, never by re-creating
 * the label: sgdisk -e, or sfdisk writing back its own dump, rewrites both
 * copies from the one it read (parted only asks, and print writes nothing).  Both damaged: tools that rebuild a table from what
 * the partitions hold.
 */
static bool judge_gpt_copies(const struct sp_found_partition *f, struct sp_findings *out)
{
	if (!f->gpt_damage[0])
		return false;
	if (f->gpt_both_damaged) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "gpt-damaged",
				"%s: %s; there is no intact copy to repair from, and the partitions "
				"still hold their data; fix: gdisk %s (recovery menu, r) or testdisk "
				"rebuild the table from what the partitions hold",
				f->disk, f->gpt_damage, f->disk);
		return true;
	}
	sp_findings_add(out, SP_SEVERITY_COSTLY, "gpt-copy-damaged",
			"%s: %s (the kernel uses the intact copy; libparted stops to ask); fix: "
			"sgdisk -e %s, or sfdisk -d %s >table && sfdisk %s <table: either "
			"rewrites both copies from the intact one, partitions unchanged",
			f->disk, f->gpt_damage, f->disk, f->disk, f->disk);
	return false;
}

/*
 * An intact GPT whose backup header is not in the disk's last sector: the
 * disk (a LUN, a grown array) got larger after the label was written.
 * The space past the backup is unused, nothing is misaligned; libparted
 * says so itself ("Not all of the space available ..."), and where it
 * read the label its words are the finding.
 */
static void judge_gpt_end(const struct sp_found_partition *f, struct sp_findings *out)
{
	if (!f->gpt_backup_lba || f->gpt_backup_lba >= f->disk_last_lba || f->said[0])
		return;
	sp_findings_add(out, SP_SEVERITY_DIFFERS, "gpt-not-at-end",
			"the backup GPT header of %s is at LBA %" PRIu64 ", not in the last one (%" PRIu64
			"): the disk grew by %" PRIu64 " sectors the label does not cover; nothing is "
			"misaligned; fix, to use them: sgdisk -e %s (moves the backup to the end), then "
			"grow the partition",
			f->disk, f->gpt_backup_lba, f->disk_last_lba,
			f->disk_last_lba - f->gpt_backup_lba, f->disk);
}

void sp_judge_partition(const struct sp_plan *plan, const struct sp_found_partition *f,
			struct sp_findings *out)
{
	if (judge_gpt_copies(f, out))
		return;
	if (plan->table == SP_TABLE_NONE) {
		judge_no_table(f, out);
		return;
	}
	if (f->label_unreadable) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "label-unreadable",
				"cannot read the partition table on %s: %s said: %s; fix: %s",
				f->disk, f->reader[0] ? f->reader : "its reader", f->said,
				RECREATE);
		return;
	}
	if (!f->label[0]) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "no-label",
				"no partition table on %s; fix: stripeplan apply (with --force if the "
				"disk holds data: destroys it)",
				f->disk);
		return;
	}
	/* libparted's "loop" label: a filesystem starting at byte 0 is aligned */
	if (!strcmp(f->label, "loop")) {
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "whole-disk",
				"no partition table on %s: a filesystem covers the whole disk, "
				"starting at byte 0, on a stripe boundary: nothing to fix",
				f->disk);
		return;
	}
	judge_label(plan, f, out);
	if (f->n_partitions != 1)
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "partition-count",
				"%s has %u partitions, the plan has 1: only partition 1 is judged; "
				"nothing to fix",
				f->disk, f->n_partitions);
	if (!f->has_first) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "no-partition-1",
				"%s has no partition 1; fix: %s", f->disk, RECREATE);
		return;
	}
	if (!f->first_is_primary)
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "partition-type",
				"partition 1 of %s is %s partition, not a primary one: nothing to fix",
				f->disk, f->first_is_extended ? "an extended" : "a logical");
	judge_start(plan, f, out);
	judge_size(plan, f, out);
	judge_gpt_end(f, out);
	if (f->said[0])
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "libparted-said",
				"libparted complained about %s: %s; fix: parted %s print, and read "
				"what it says",
				f->disk, f->said, f->disk);
	judge_kernel(f, out);
}

/* ----------------------------------------------------------- filesystem */

static void mkfs_command(const struct sp_plan *plan, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < plan->n_mkfs_argv && n < len; i++) {
		int w = snprintf(buf + n, len - n, "%s%s", i ? " " : "", plan->mkfs_argv[i]);

		if (w < 0)
			break;
		n += (size_t)w;
	}
}

/* --workload small-sync and metadata want xfs without a stripe unit (plan.c: -d noalign) */
static bool wants_no_xfs_stripe(const struct sp_plan *plan)
{
	return !sp_workload_xfs_stripe(plan->workload);
}

static uint64_t want_log_su(const struct sp_plan *plan)
{
	if (plan->fs == SP_FS_XFS && plan->xfs_log_su_bytes)
		return plan->xfs_log_su_bytes;
	/* what plan_xfs() sets: one block */
	return plan->block_bytes ? plan->block_bytes : SP_FS_BLOCK_BYTES;
}

static void judge_xfs_stripe(const struct sp_plan *plan, const struct sp_found_fs *f,
			     struct sp_findings *out)
{
	uint64_t block = f->block_bytes, unit = f->xfs_unit_blocks * block;
	uint64_t width = f->xfs_width_blocks * block;
	uint64_t want_su = plan->chunk_bytes, want_width = plan->stripe_width_bytes;
	unsigned want_sw = plan->data_disks;
	uint64_t su_512, sw_512;
	char a[32], b[32];

	/* a plan for xfs says it exactly (a plan file may be edited) */
	if (plan->fs == SP_FS_XFS && plan->xfs_su_bytes) {
		want_su = plan->xfs_su_bytes;
		want_sw = plan->xfs_sw;
		want_width = want_su * want_sw;
	}
	su_512 = want_su / 512;
	sw_512 = want_width / 512;

	if (is_striped(plan) && wants_no_xfs_stripe(plan)) {
		if (unit)
			sp_findings_add(out, SP_SEVERITY_DIFFERS, "xfs-stripe-small-files",
					"xfs on %s has su=%s,sw=%" PRIu64 ", the plan (--workload "
					"%s) has none: it serves stripe-sized writes, and what it "
					"costs small files is its log stripe unit's and its aligned "
					"allocations': nothing to fix",
					f->path, short_size(unit, a, sizeof(a)), width / unit,
					sp_workload_name(plan->workload));
		return;
	}
	if (!is_striped(plan)) {
		if (unit)
			sp_findings_add(out, SP_SEVERITY_DIFFERS, "xfs-stripe-on-mirror",
					"xfs on %s has a %s stripe unit; a mirror has no stripe: "
					"nothing to fix",
					f->path, human(unit, a, sizeof(a)));
		return;
	}
	if (!unit) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "xfs-no-stripe-unit",
				"xfs on %s has no stripe unit (sunit=0), the array's is su=%s,sw=%u; "
				"fix: mount with sunit=%" PRIu64 ",swidth=%" PRIu64 " (512-byte "
				"units; new files only), or %s",
				f->path, short_size(want_su, a, sizeof(a)), want_sw, su_512, sw_512,
				RECREATE);
		return;
	}
	if (unit != want_su || width != want_width)
		sp_findings_add(out, SP_SEVERITY_COSTLY, "xfs-wrong-stripe",
				"xfs on %s has su=%s,sw=%" PRIu64 " (sb_unit %" PRIu64 ", sb_width "
				"%" PRIu64 " blocks), the array's is su=%s,sw=%u; fix: mount with "
				"sunit=%" PRIu64 ",swidth=%" PRIu64 " (512-byte units; new files "
				"only), or %s",
				f->path, short_size(unit, a, sizeof(a)), width / unit,
				f->xfs_unit_blocks, f->xfs_width_blocks, short_size(want_su, b, sizeof(b)),
				want_sw, su_512, sw_512, RECREATE);
}

static void judge_xfs_ags(const struct sp_plan *plan, const struct sp_found_fs *f,
			  struct sp_findings *out)
{
	uint64_t ag = f->xfs_agblocks * f->block_bytes, stripe = plan->stripe_width_bytes;
	char a[32], b[32], c[32];

	/* small-sync: no stripe unit, no swalloc, so no stripe for AGs to hold */
	if (!is_striped(plan) || !sp_level_rotates_parity(plan->level) || !ag ||
	    wants_no_xfs_stripe(plan))
		return;
	if (ag % stripe)
		sp_findings_add(out, SP_SEVERITY_SUBOPTIMAL, "xfs-ag-partial-stripes",
				"xfs allocation groups on %s are %s (%" PRIu64 " blocks), not whole "
				"%s stripes: swalloc aligns file data to the stripe only relative to "
				"each group, so most groups' full-stripe writes straddle two stripes; "
				"fix: %s (agsize=%s)",
				f->path, human(ag, a, sizeof(a)), f->xfs_agblocks,
				human(stripe, b, sizeof(b)), RECREATE,
				short_size(plan->xfs_agsize_bytes ? plan->xfs_agsize_bytes : stripe, c,
					   sizeof(c)));
	else if (plan->xfs_ag.rotation_period && (ag / stripe) % plan->xfs_ag.rotation_period == 0)
		sp_findings_add(out, SP_SEVERITY_SUBOPTIMAL, "xfs-ag-headers-one-member",
				"xfs allocation groups on %s are %" PRIu64 " stripes each, a multiple "
				"of the %u disks parity rotates over: every group's header starts on "
				"the same member; fix: %s (agsize=%s)",
				f->path, ag / stripe, plan->xfs_ag.rotation_period, RECREATE,
				short_size(plan->xfs_agsize_bytes ? plan->xfs_agsize_bytes : stripe, c,
					   sizeof(c)));
	else if (plan->fs == SP_FS_XFS && plan->xfs_agsize_bytes && ag != plan->xfs_agsize_bytes)
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "xfs-agsize",
				"xfs allocation groups on %s are %s, the plan says %s; both are whole "
				"%s stripes: nothing to fix",
				f->path, human(ag, a, sizeof(a)),
				human(plan->xfs_agsize_bytes, b, sizeof(b)),
				human(stripe, c, sizeof(c)));
}

/*
 * small-sync: mkfs.xfs writes 0 or 1 for "no log stripe unit" (log writes
 * padded to the sector); any larger one pads every fsync's log write to
 * it: 2.13 member bytes per data byte at one block against 2.06 without on
 * RAID10 8 x 256 KiB, 4.27-4.31 against 4.11 on RAID5 (bench/run --quick).
 */
static void judge_xfs_small_sync_log(const struct sp_found_fs *f, struct sp_findings *out)
{
	char a[32];

	if (f->xfs_logsunit_bytes <= 1)
		return;
	sp_findings_add(out, SP_SEVERITY_SUBOPTIMAL, "xfs-log-stripe-unit",
			"xfs on %s has a %s log stripe unit: every fsync's log write is padded to "
			"it, not to the sector, which cost 64 KiB fsync'd files 3.4-4.9 %% more "
			"member bytes at one block (4.27 against 4.11 per data byte on RAID5 "
			"10 x 1 MiB) and more at the chunk; fix: %s (--workload small-sync: "
			"-d noalign, no stripe unit)",
			f->path, human(f->xfs_logsunit_bytes, a, sizeof(a)), RECREATE);
}

static void judge_xfs(const struct sp_plan *plan, const struct sp_found_fs *f,
		      struct sp_findings *out)
{
	uint64_t lsu = f->xfs_logsunit_bytes, want = want_log_su(plan);
	char a[32], b[32], c[32];

	judge_xfs_stripe(plan, f, out);
	judge_xfs_ags(plan, f, out);
	if (!is_striped(plan))
		return;
	if (wants_no_xfs_stripe(plan)) {
		/* metadata's 256 KiB log buffers fill before they are written:
		 * padding them costs little; fsync writes them part-full */
		if (plan->workload == SP_WORKLOAD_SMALL_SYNC)
			judge_xfs_small_sync_log(f, out);
		return;
	}
	/*
	 * mkfs.xfs writes 1 (or 0) for "no log stripe unit": log writes padded
	 * to the sector only, which costs less than the plan's one block.  A
	 * larger unit pads every log write to it for no member I/O saved
	 * (bench/run --parts log): that one costs bytes on fsync-heavy work.
	 */
	if (lsu <= 1)
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "xfs-no-log-stripe-unit",
				"xfs on %s has no log stripe unit (log writes padded to the sector), "
				"the plan says %s, the least mkfs.xfs takes beside a stripe unit: "
				"nothing to fix",
				f->path, human(want, b, sizeof(b)));
	else if (lsu > want)
		sp_findings_add(out, SP_SEVERITY_SUBOPTIMAL, "xfs-log-stripe-unit",
				"xfs on %s has a %s log stripe unit: every log write is padded to it, "
				"and a padded write is still a partial %s stripe, so fsync-heavy work "
				"writes more bytes for no member I/O saved; fix: %s (-l su=%s)",
				f->path, human(lsu, a, sizeof(a)),
				human(plan->stripe_width_bytes, b, sizeof(b)), RECREATE,
				short_size(want, c, sizeof(c)));
	else if (lsu != want)
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "xfs-log-stripe-unit",
				"xfs on %s has a %s log stripe unit, the plan says %s: nothing to fix",
				f->path, human(lsu, a, sizeof(a)), human(want, b, sizeof(b)));
}

static void judge_ext(const struct sp_plan *plan, const struct sp_found_fs *f,
		      struct sp_findings *out)
{
	unsigned block = f->block_bytes ? f->block_bytes : SP_FS_BLOCK_BYTES;
	uint64_t want_stride = plan->chunk_bytes / block;
	uint64_t want_width = want_stride * plan->data_disks;
	char a[32];

	/* a plan for this filesystem says it exactly (a plan file may be edited) */
	if (!strcmp(f->type, sp_fs_name(plan->fs)) && block == plan->block_bytes &&
	    plan->ext_stride_blocks) {
		want_stride = plan->ext_stride_blocks;
		want_width = plan->ext_stripe_width_blocks;
	}

	if (!is_striped(plan)) {
		if (f->ext_stride_blocks || f->ext_stripe_width_blocks)
			sp_findings_add(out, SP_SEVERITY_DIFFERS, "ext-stripe-on-mirror",
					"%s on %s has stride=%u,stripe_width=%u blocks; a mirror has "
					"no stripe: nothing to fix",
					f->type, f->path, f->ext_stride_blocks,
					f->ext_stripe_width_blocks);
		return;
	}
	if (plan->chunk_bytes % block) {
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "ext-chunk-below-block",
				"the %s chunk is smaller than the %u B blocks of %s on %s: no stride "
				"can describe it",
				human(plan->chunk_bytes, a, sizeof(a)), block, f->type, f->path);
		return;
	}
	if (f->ext_stride_blocks == want_stride && f->ext_stripe_width_blocks == want_width)
		return;
	sp_findings_add(out, SP_SEVERITY_COSTLY,
			f->ext_stride_blocks || f->ext_stripe_width_blocks ? "ext-wrong-stripe" :
									     "ext-no-stripe",
			"%s on %s has stride=%u,stripe_width=%u blocks, the array's is stride=%" PRIu64
			",stripe_width=%" PRIu64 " (%u B blocks); fix: tune2fs -E stride=%" PRIu64
			",stripe_width=%" PRIu64 " %s (new allocations only)",
			f->type, f->path, f->ext_stride_blocks, f->ext_stripe_width_blocks,
			want_stride, want_width, block, want_stride, want_width, f->path);
}

/* A filesystem that will not mount, or whose contents mkfs did not make,
 * is never a match, whatever its geometry. */
static void judge_whole(const struct sp_found_fs *f, struct sp_findings *out)
{
	if (f->xfs_inprogress)
		sp_findings_add(out, SP_SEVERITY_COSTLY, "xfs-unfinished",
				"the xfs on %s was never finished: its superblock says mkfs is still "
				"in progress (sb_inprogress=%u; mkfs was stopped or failed), and the "
				"kernel will not mount it; fix: stripeplan apply (redoes it without "
				"--force: it never held data)",
				f->path, f->xfs_inprogress);
	else if (f->xfs_missing[0])
		sp_findings_add(out, SP_SEVERITY_COSTLY, "xfs-incomplete",
				"the xfs on %s is incomplete: %s is not at byte %" PRIu64 " (mkfs did "
				"not finish); it will not mount; fix: %s",
				f->path, f->xfs_missing, f->xfs_missing_at_bytes, RECREATE);
	if (f->ext_errors)
		sp_findings_add(out, SP_SEVERITY_COSTLY, "ext-errors",
				"the %s on %s records errors (state 'with errors'): its contents are "
				"not what mkfs made; fix: e2fsck -f %s",
				f->type, f->path, f->path);
	if (f->ext_needs_recovery)
		sp_findings_add(out, SP_SEVERITY_COSTLY, "ext-needs-recovery",
				"the %s on %s needs journal recovery (it was not unmounted cleanly); "
				"fix: mount it, or e2fsck %s, before trusting it",
				f->type, f->path, f->path);
	else if (f->ext_not_clean)
		sp_findings_add(out, SP_SEVERITY_COSTLY, "ext-not-clean",
				"the %s on %s is not marked clean (it was not unmounted cleanly, or "
				"mkfs did not finish); fix: e2fsck -f %s",
				f->type, f->path, f->path);
}

void sp_judge_filesystem(const struct sp_plan *plan, const struct sp_found_fs *f,
			 struct sp_findings *out)
{
	const char *want = sp_fs_name(plan->fs);
	char cmd[SP_MSG_MAX];

	mkfs_command(plan, cmd, sizeof(cmd));
	if (f->no_node || f->not_block) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "no-partition-node",
				"%s %s, so there is no filesystem to judge; fix: see the partition "
				"findings",
				f->path, f->no_node ? "does not exist" : "is not a block device");
		return;
	}
	if (f->damaged) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "fs-damaged",
				"damaged filesystem: the %s on %s will not mount: %s; it still holds "
				"its files; fix: %s (never mkfs: that destroys them)",
				f->type[0] ? f->type : "filesystem", f->path, f->damage, f->repair);
		return;
	}
	if (f->blank) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "no-filesystem",
				"no filesystem on %s; fix: %s", f->path, cmd);
		return;
	}
	if (f->ambivalent) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "ambivalent",
				"%s holds conflicting signatures (libblkid cannot tell which "
				"filesystem it is); fix: wipefs %s lists them, wipefs -o OFFSET %s "
				"removes the stale one",
				f->path, f->path, f->path);
		return;
	}
	/* a layer of a stack: sp_judge_layer() says what it costs */
	if (!strcmp(f->type, "crypto_LUKS") || !strcmp(f->type, "LVM2_member"))
		return;
	if (strcmp(f->type, "xfs") && strcmp(f->type, "ext3") && strcmp(f->type, "ext4")) {
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "fs-type-unjudged",
				"%s holds %s, the plan says %s; stripeplan cannot judge its geometry: "
				"nothing to fix",
				f->path, f->type[0] ? f->type : "an unknown signature", want);
		return;
	}
	if (strcmp(f->type, want))
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "fs-type",
				"%s holds %s, the plan says %s: both can be aligned, nothing to fix; "
				"its geometry is judged as %s",
				f->path, f->type, want, f->type);
	if (f->sb_unreadable) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, "superblock-unreadable",
				"cannot read the %s superblock of %s: %s; fix: %s -n %s shows what is "
				"wrong",
				f->type, f->path, f->sb_error,
				strcmp(f->type, "xfs") ? "e2fsck" : "xfs_repair", f->path);
		return;
	}
	judge_whole(f, out);
	if (f->block_bytes != plan->block_bytes)
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "block-size",
				"%s on %s has %u B blocks, the plan says %u B: nothing to fix", f->type,
				f->path, f->block_bytes, plan->block_bytes);
	if (!strcmp(f->type, "xfs"))
		judge_xfs(plan, f, out);
	else
		judge_ext(plan, f, out);
}

/* ---------------------------------------------------------------- stack */

/* the model's cost of a filesystem with the plan's su/sw starting at start */
static bool layer_cost(const struct sp_plan *plan, uint64_t start, struct sp_cost *cost,
		       char *sentence, size_t len)
{
	struct sp_layout l = { .level = plan->level, .disks = plan->disks, .spans = plan->spans,
			       .chunk_bytes = plan->chunk_bytes, .start_bytes = start,
			       .fs_su_bytes = plan->chunk_bytes, .fs_sw = plan->data_disks,
			       .fs_block_bytes = plan->block_bytes };

	if (sp_cost_layout(&l, cost, NULL) < 0)
		return false;
	sp_cost_sentence(plan, cost, sentence, len);
	return true;
}

static void judge_layer_misaligned(const struct sp_plan *plan, const struct sp_found_layer *f,
				   uint64_t at, struct sp_findings *out)
{
	uint64_t stripe = plan->stripe_width_bytes;
	bool luks = f->kind == SP_LAYER_LUKS;
	char a[32], b[32], c[32], cost_text[SP_MSG_MAX] = "", fix[SP_MSG_MAX];
	struct sp_cost cost = { 0 };

	if (layer_cost(plan, at, &cost, cost_text, sizeof(cost_text)))
		snprintf(cost_text + strlen(cost_text), sizeof(cost_text) - strlen(cost_text), "; ");
	if (luks)
		snprintf(fix, sizeof(fix),
			 "back up the data, then re-create the volume with 'cryptsetup luksFormat "
			 "--type luks2 --offset %" PRIu64 "' (%s, whole stripes; destroys the data)",
			 sp_stack_luks_offset_bytes(plan, f->sector_bytes) / 512,
			 human(sp_stack_luks_offset_bytes(plan, f->sector_bytes), c, sizeof(c)));
	else
		snprintf(fix, sizeof(fix),
			 "pvmove its extents to a PV made with 'pvcreate --dataalignment %" PRIu64
			 "k --dataalignmentoffset 0' and vgreduce this one, or re-create it so "
			 "(destroys the data)",
			 (uint64_t)(sp_stack_lvm_alignment_bytes(plan) / SP_KIB));
	sp_findings_add(out, SP_SEVERITY_COSTLY, luks ? "luks-offset-misaligned" : "pv-start-misaligned",
			"the %s on %s starts its %s %s in (byte %" PRIu64 " of the array, %" PRIu64
			".%02" PRIu64 " stripes), %s past a %s stripe boundary: everything above it "
			"straddles stripes; %sfix: %s",
			luks ? "LUKS2 volume" : "LVM physical volume", f->device,
			luks ? "data" : "extents (pe_start)",
			human(f->data_offset_bytes, a, sizeof(a)), at, at / stripe,
			at % stripe * 100 / stripe, human(at % stripe, b, sizeof(b)),
			human(stripe, c, sizeof(c)), cost_text, fix);
	if (cost.known)
		out->f[out->n - 1].cost = cost;
}

void sp_judge_layer(const struct sp_plan *plan, const struct sp_found_layer *f,
		    struct sp_findings *out)
{
	bool luks = f->kind == SP_LAYER_LUKS;
	uint64_t at = f->device_start_bytes + f->data_offset_bytes;
	char a[32], b[32];

	if (f->unread) {
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "layer-unread",
				"%s holds %s, which check does not read yet: nothing to fix",
				f->device, f->damage);
		return;
	}
	if (f->damaged) {
		sp_findings_add(out, SP_SEVERITY_COSTLY, luks ? "luks-damaged" : "pv-damaged",
				"%s holds a %s header that fails a check %s makes: %s; fix: %s",
				f->device, luks ? "LUKS2" : "LVM physical volume",
				luks ? "cryptsetup" : "lvm", f->damage,
				luks ? "cryptsetup repair (after cryptsetup luksHeaderBackup)" :
				       "pvck --dump headers shows it; pvck --repair rewrites it");
		return;
	}
	if (is_striped(plan) && at % plan->stripe_width_bytes) {
		judge_layer_misaligned(plan, f, at, out);
		return;
	}
	if (!sp_plan_has_layer(plan, f->kind))
		sp_findings_add(out, SP_SEVERITY_DIFFERS, luks ? "luks-found" : "pv-found",
				"%s holds %s whose %s starts at %s, %s: aligned; the plan has no "
				"--stack %s, and check does not look inside it: nothing to fix",
				f->device, luks ? "a LUKS2 volume" : "an LVM physical volume",
				luks ? "data" : "first extent", human(f->data_offset_bytes, a, sizeof(a)),
				is_striped(plan) ? "whole stripes" : "a mirror has no stripe",
				luks ? "luks" : "lvm");
	else if (f->data_offset_bytes != (luks ? plan->luks.offset_bytes : plan->lvm.pe_start_bytes))
		sp_findings_add(out, SP_SEVERITY_DIFFERS, luks ? "luks-offset" : "pv-start",
				"the %s on %s starts at %s, the plan says %s; both are whole stripes: "
				"nothing to fix",
				luks ? "LUKS2 data" : "LVM extents", f->device,
				human(f->data_offset_bytes, a, sizeof(a)),
				human(luks ? plan->luks.offset_bytes : plan->lvm.pe_start_bytes, b,
				      sizeof(b)));
}

/* ---------------------------------------------------------------- fstab */

static bool has_option(const char *options, const char *name, const char **ret_value)
{
	size_t n = strlen(name);

	for (const char *p = options; p && *p;) {
		const char *end = strchrnul(p, ',');

		if ((size_t)(end - p) >= n && !strncmp(p, name, n) &&
		    (p + n == end || p[n] == '=')) {
			if (ret_value)
				*ret_value = p + n == end ? NULL : p + n + 1;
			return true;
		}
		p = *end ? end + 1 : end;
	}
	return false;
}

static uint64_t parse_logbsize(const char *v)
{
	char *end;
	unsigned long long n;

	if (!v)
		return 0;
	n = strtoull(v, &end, 10);
	if (*end == 'k' || *end == 'K')
		n *= 1024;
	else if (*end == 'm' || *end == 'M')
		n *= 1024 * 1024;
	return n;
}

/* logbufs and logbsize outside what the kernel's mount takes (their rows) */
static void judge_xfs_log_options(const char *options, const char *where,
				  struct sp_findings *out)
{
	static const struct {
		const char *name;
		enum sp_limit_id limit;
	} opts[] = { { "logbufs", SP_LIMIT_XFS_LOGBUFS }, { "logbsize", SP_LIMIT_XFS_LOGBSIZE } };

	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		const struct sp_limit *l = sp_limit(opts[i].limit);
		const char *v = NULL;

		if (!has_option(options, opts[i].name, &v) ||
		    sp_limit_holds(opts[i].limit, parse_logbsize(v)))
			continue;
		sp_findings_add(out, SP_SEVERITY_COSTLY, "mount-option-refused",
				"%s has %s=%s, outside %" PRIu64 "..%" PRIu64 " %s: XFS refuses the "
				"mount (%s); fix: remove it, or a value in that range",
				where, opts[i].name, v ? v : "", l->min, l->max, l->unit,
				SP_LIMIT_CITED(opts[i].limit));
	}
}

void sp_judge_mount_options(const struct sp_plan *plan, const char *fstype, const char *options,
			    uint64_t log_su_bytes, const char *where, struct sp_findings *out)
{
	struct sp_kernel k = { 0 };
	const char *v = NULL;
	char a[32], b[32];
	bool xfs = !strcmp(fstype, "xfs");

	k = plan->kernel;
	if (xfs) {
		static const char *const gone[] = { "nobarrier", "barrier" };
		enum sp_xfs_barrier_opts barrier = sp_kernel_xfs_barrier_opts(&k);

		for (size_t i = 0; i < ARRAY_SIZE(gone); i++) {
			if (!has_option(options, gone[i], NULL))
				continue;
			if (barrier == SP_XFS_BARRIER_REJECTED)
				sp_findings_add(out, SP_SEVERITY_COSTLY, "mount-option-refused",
						"%s has option '%s', which XFS refuses since Linux 4.19 "
						"(this is %s): the mount fails (\"xfs: Unknown parameter "
						"'%s'\") and the boot stops in emergency mode; fix: remove "
						"'%s' from that line",
						where, gone[i], plan->kernel.release, gone[i], gone[i]);
			else if (barrier == SP_XFS_BARRIER_IGNORED)
				sp_findings_add(out, SP_SEVERITY_DIFFERS, "mount-option-ignored",
						"%s has option '%s', which XFS accepts but ignores on %s "
						"(4.10 to 4.18): it does nothing; fix: remove it before the "
						"kernel reaches 4.19, which refuses it",
						where, gone[i], plan->kernel.release);
		}
	}
	if (xfs && log_su_bytes > 1 && has_option(options, "logbsize", &v) &&
	    parse_logbsize(v) < log_su_bytes)
		sp_findings_add(out, SP_SEVERITY_COSTLY, "mount-option-refused",
				"%s has logbsize=%s, smaller than the %s log stripe unit: XFS refuses "
				"the mount (\"logbuf size must be greater than or equal to log stripe "
				"size\"); fix: logbsize=%s",
				where, v ? v : "", human(log_su_bytes, a, sizeof(a)),
				human(log_su_bytes > 256 * 1024 ? 256 * 1024 : log_su_bytes, b,
				      sizeof(b)));
	if (xfs)
		judge_xfs_log_options(options, where, out);
	/* before 3.7 XFS keeps every inode in the first TiB unless told */
	if (xfs && plan->size_bytes > 2 * SP_TIB &&
	    !sp_kernel_from(&k, SP_LIMIT_XFS_INODE64_DEFAULT) && !has_option(options, "inode64", NULL))
		sp_findings_add(out, SP_SEVERITY_SUBOPTIMAL, "mount-no-inode64",
				"%s has no 'inode64': on Linux %s XFS keeps every inode of this %s "
				"filesystem in its first TiB (%s); fix: add 'inode64' to that line's "
				"options",
				where, plan->kernel.release, human(plan->size_bytes, a, sizeof(a)),
				SP_LIMIT_CITED(SP_LIMIT_XFS_INODE64_DEFAULT));
	/* small-sync plans no stripe unit, so there is nothing to round to */
	if (xfs && is_striped(plan) && sp_level_rotates_parity(plan->level) &&
	    !wants_no_xfs_stripe(plan) && !has_option(options, "swalloc", NULL))
		sp_findings_add(out, SP_SEVERITY_SUBOPTIMAL, "mount-no-swalloc",
				"%s has no 'swalloc': on parity RAID XFS then rounds only to the "
				"stripe unit, so large files do not start on full stripes; fix: add "
				"'swalloc' to that line's options",
				where);
	if (has_option(options, "noatime", NULL) && has_option(options, "nodiratime", NULL))
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "mount-option-redundant",
				"%s has 'nodiratime', which 'noatime' already implies: nothing to fix",
				where);
}

static void judge_line(const struct sp_plan *plan, const struct sp_found_fstab *f,
		       const struct sp_found_mount_line *l, struct sp_findings *out)
{
	const struct sp_found_mount_line *want = f->have_planned ? &f->planned : NULL;
	char where[SP_PATH_MAX + 64];

	snprintf(where, sizeof(where), "%s line %u (%s on %s)", f->path, l->line, l->source,
		 l->target);
	sp_judge_mount_options(plan, f->fs_type, l->options, f->fs_log_su_bytes, where, out);
	if (strcmp(l->fstype, f->fs_type) && strcmp(l->fstype, "auto"))
		sp_findings_add(out, SP_SEVERITY_COSTLY, "mount-type",
				"%s says type '%s', the filesystem on %s is %s: the mount fails; fix: "
				"write '%s' in its third field",
				where, l->fstype, f->fs_path, f->fs_type, f->fs_type);
	if (!want)
		return;
	if (strcmp(l->target, want->target))
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "mount-target",
				"%s mounts on '%s', the plan says '%s': nothing to fix", where,
				l->target, want->target);
	if (strcmp(l->options, want->options))
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "mount-options",
				"%s has options '%s', the plan says '%s'; fix: none needed beyond "
				"the findings above (the plan's line: '%s')",
				where, l->options, want->options, f->planned_line);
	if (l->passno != want->passno)
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "mount-passno",
				"%s has fsck pass %d, the plan says %d: nothing to fix", where,
				l->passno, want->passno);
}

void sp_judge_fstab(const struct sp_plan *plan, const struct sp_found_fstab *f,
		    struct sp_findings *out)
{
	if (!f->fs_type[0]) {
		if (plan->mountpoint[0])
			sp_findings_add(out, SP_SEVERITY_COSTLY, "no-filesystem-to-mount",
					"no filesystem on %s to mount on %s; fix: see the filesystem "
					"findings",
					f->fs_path, plan->mountpoint);
		return;
	}
	if (f->n_lines == 0) {
		if (f->planned_line[0])
			sp_findings_add(out, SP_SEVERITY_COSTLY, "no-fstab-line",
					"no line in %s mounts %s (UUID=%s; by UUID, LABEL, PARTUUID "
					"or device path): it is not mounted at boot; fix: add '%s'",
					f->path, f->fs_path, f->fs_uuid, f->planned_line);
		return;
	}
	if (f->n_lines > 1)
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "fstab-lines",
				"%zu lines in %s mount %s (lines %u and %u%s); fix: keep one",
				f->n_lines, f->path, f->fs_path, f->lines[0].line, f->lines[1].line,
				f->n_lines > 2 ? ", ..." : "");
	for (size_t i = 0; i < f->n_lines && i < SP_FOUND_MAX_MOUNT_LINES; i++)
		judge_line(plan, f, &f->lines[i], out);
	/* systemd creates a missing mount point; mount(8) alone does not */
	if (f->mountpoint_checked && !f->mountpoint_is_dir)
		sp_findings_add(out, SP_SEVERITY_DIFFERS, "no-mount-point",
				"mount point %s is not a directory (systemd creates it at boot; "
				"'mount' alone fails); fix: mkdir -p %s",
				f->mountpoint_dir, f->mountpoint_dir);
}

/* --------------------------------------------------------------- tuning */

static bool is_read_ahead(const char *attr)
{
	return !strcmp(attr, "queue/read_ahead_kb");
}

static void judge_knob(const struct sp_found_knob *k, struct sp_findings *out)
{
	if (k->state != SP_KNOB_DIFFERS)
		return; /* missing knobs and kernel clamps are notes, not findings */
	if (is_read_ahead(k->attr) && k->have_known && k->have_value.kind == SP_VALUE_NUMBER &&
	    k->want_value.kind == SP_VALUE_NUMBER) {
		if (k->have_value.number < k->want_value.number)
			sp_findings_add(out, SP_SEVERITY_SUBOPTIMAL, "read-ahead-below-plan",
					"%s on %s is %s KiB (blockdev --setra %" PRIu64 "), the plan "
					"says %s KiB; fix: echo %s > %s",
					k->attr, k->disk, k->have, k->have_value.number * 2, k->want,
					k->want, k->file);
		/* more read-ahead than planned is a choice, not a loss */
		else
			sp_findings_add(out, SP_SEVERITY_DIFFERS, "read-ahead-above-plan",
					"%s on %s is %s KiB, more than the plan's %s KiB: nothing to "
					"fix (%s)",
					k->attr, k->disk, k->have, k->want, k->file);
		return;
	}
	sp_findings_add(out, SP_SEVERITY_COSTLY, "knob-drifted",
			"%s on %s is %s, the plan says %s; fix: echo %s > %s", k->attr, k->disk,
			k->have, k->want, k->want, k->file);
}

void sp_judge_tuning(const struct sp_plan *plan, const struct sp_found_tuning *f,
		     struct sp_findings *out)
{
	(void)plan;
	for (size_t i = 0; i < f->n_knobs; i++)
		judge_knob(&f->knobs[i], out);
	for (size_t i = 0; i < f->n_artifacts; i++) {
		const struct sp_found_artifact *a = &f->artifacts[i];

		switch (a->state) {
		case SP_ARTIFACT_MATCHES:
			break;
		case SP_ARTIFACT_MISSING:
			sp_findings_add(out, SP_SEVERITY_COSTLY, "persistence-missing",
					"%s is missing: the tuning is lost at the next boot; fix: "
					"stripeplan apply with the same options writes it",
					a->path);
			break;
		case SP_ARTIFACT_DIFFERS:
			sp_findings_add(out, SP_SEVERITY_COSTLY, "persistence-differs",
					"%s differs from what the plan renders: the next boot tunes "
					"otherwise; fix: stripeplan apply with the same options "
					"rewrites it",
					a->path);
			break;
		case SP_ARTIFACT_WRONG_MODE:
			sp_findings_add(out, SP_SEVERITY_COSTLY, "persistence-mode",
					"%s has mode %04o, not %04o; fix: chmod %04o %s", a->path,
					a->mode, a->want_mode, a->want_mode, a->path);
			break;
		}
	}
}

/* ---------------------------------------------------------------- costs */

static bool is_costed(const struct sp_finding *f)
{
	static const char *const codes[] = { "start-misaligned", "xfs-no-stripe-unit",
					     "xfs-wrong-stripe", "ext-no-stripe",
					     "ext-wrong-stripe" };

	if (f->severity != SP_SEVERITY_COSTLY)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(codes); i++)
		if (!strcmp(f->code, codes[i]))
			return true;
	return false;
}

/* The layout found; the filesystem's settings only when one was read. */
static void layout_found(const struct sp_plan *plan, const struct sp_found_partition *part,
			 const struct sp_found_fs *fs, struct sp_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->level = plan->level;
	l->disks = plan->disks;
	l->spans = plan->spans;
	l->chunk_bytes = plan->chunk_bytes;
	l->start_bytes = part && part->has_first ? part->start_bytes : plan->start_bytes;
	if (part && !strcmp(part->label, "loop"))
		l->start_bytes = 0; /* a filesystem on the whole disk */
	if (!fs || fs->sb_unreadable || fs->blank || fs->no_node) {
		/* nothing read: cost the filesystem the plan would make */
		l->fs_su_bytes = plan->chunk_bytes;
		l->fs_sw = plan->data_disks;
		l->fs_block_bytes = plan->block_bytes;
		return;
	}
	l->fs_block_bytes = fs->block_bytes;
	if (!strcmp(fs->type, "xfs")) {
		l->fs_su_bytes = fs->xfs_unit_blocks * fs->block_bytes;
		l->fs_sw = fs->xfs_unit_blocks ? (unsigned)(fs->xfs_width_blocks / fs->xfs_unit_blocks) : 0;
	} else if (fs->ext_stride_blocks) {
		l->fs_su_bytes = (uint64_t)fs->ext_stride_blocks * fs->block_bytes;
		l->fs_sw = fs->ext_stripe_width_blocks / fs->ext_stride_blocks;
	}
}

void sp_cost_sentence(const struct sp_plan *plan, const struct sp_cost *c, char *buf, size_t len)
{
	/* the model's ratios are over the level's own minimum: raid0 and
	 * raid10 of the same stripe give the same ones, parity RAID more
	 * (read-modify-write), so a stand-in raid0 prices the least it costs */
	if (plan->level_source == SP_SOURCE_ASSUMED) {
		snprintf(buf, len,
			 "level unknown: costed as %s, as raid10 of this stripe costs too, parity "
			 "RAID more: stripe-sized writes cost at least %.2fx the minimum member I/O, "
			 "chunk-sized reads %.2fx",
			 sp_level_name(plan->level), c->write_ratio, c->read_ratio);
		return;
	}
	snprintf(buf, len,
		 "stripe-sized writes cost %.2fx the minimum member I/O of this %s, chunk-sized "
		 "reads %.2fx",
		 c->write_ratio, sp_level_name(plan->level), c->read_ratio);
}

/* "<what>; fix: <how>" -> "<what>; <cost>; fix: <how>" */
static void insert_cost(struct sp_finding *f, const char *sentence)
{
	char *fix = strstr(f->message, "; fix: ");
	char tail[SP_MSG_MAX];

	if (!fix) {
		size_t n = strlen(f->message);

		snprintf(f->message + n, sizeof(f->message) - n, "; %s", sentence);
		return;
	}
	snprintf(tail, sizeof(tail), "%s", fix);
	snprintf(fix, sizeof(f->message) - (size_t)(fix - f->message), "; %s%s", sentence, tail);
}

void sp_audit_costs(const struct sp_plan *plan, const struct sp_found_partition *part,
		    const struct sp_found_fs *fs, struct sp_findings *findings)
{
	struct sp_layout l;
	struct sp_cost cost;
	char sentence[SP_MSG_MAX];

	if (plan->level == SP_LEVEL_1)
		return;
	layout_found(plan, part, fs, &l);
	if (sp_cost_layout(&l, &cost, NULL) < 0)
		return;
	sp_cost_sentence(plan, &cost, sentence, sizeof(sentence));
	for (size_t i = 0; i < findings->n; i++) {
		struct sp_finding *f = &findings->f[i];

		if (!is_costed(f) || f->cost.known)
			continue;
		f->cost = cost;
		insert_cost(f, sentence);
	}
}
