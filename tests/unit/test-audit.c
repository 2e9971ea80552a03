/*
 * The judges (planner/audit/audit.c) on found facts written by hand: severity,
 * code, and messages that name the device, the value and the fix, and
 * give no advice the facts do not call for.  Costs are the figures
 * derived by hand in test-cost.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "audit/audit.h"
#include "base/error.h"
#include "schema/objects.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)

#include "embedded-profiles.h"

/* RAID5 4 x 64 KiB on a 1 GiB /dev/sdb, for a given kernel and fs. */
static struct sp_plan *raid5_plan(const char *kernel, enum sp_fs fs, const char *mountpoint)
{
	static struct sp_plan plan;
	struct sp_spec spec = { 0 };
	struct sp_facts facts = { 0 };
	struct sp_error err = { 0 };

	snprintf(spec.controller, sizeof(spec.controller), "generic");
	spec.level = SP_LEVEL_5;
	spec.disks = 4;
	spec.chunk_bytes = 64 * KiB;
	spec.fs = fs;
	assert_int_equal(sp_parse_kernel(kernel, &spec.kernel, &err), 0);
	snprintf(spec.mountpoint, sizeof(spec.mountpoint), "%s", mountpoint);
	snprintf(facts.path, sizeof(facts.path), "/dev/sdb");
	snprintf(facts.kernel_name, sizeof(facts.kernel_name), "sdb");
	facts.size_bytes = GiB;
	facts.logical_sector_bytes = facts.physical_sector_bytes = 512;
	sp_plan_release(&plan);
	if (sp_plan_make(&spec, sp_profiles_find(profiles, "generic"), &facts, &plan, &err) < 0)
		fail_msg("plan: %s", err.message);
	return &plan;
}

/* What parted leaves: one partition the kernel agrees with. */
static struct sp_found_partition parted(const char *label, uint64_t start, uint64_t size)
{
	struct sp_found_partition f = { 0 };

	snprintf(f.disk, sizeof(f.disk), "/dev/sdb");
	snprintf(f.partition, sizeof(f.partition), "/dev/sdb1");
	snprintf(f.label, sizeof(f.label), "%s", label);
	f.disk_bytes = GiB;
	f.sector_bytes = 512;
	f.n_partitions = f.kernel_n_partitions = 1;
	f.has_first = f.first_is_primary = f.kernel_has_first = f.node_matches = true;
	f.start_bytes = f.kernel_start_bytes = start;
	f.size_bytes = f.kernel_size_bytes = size;
	return f;
}

/* mkfs.xfs with su/sw (0 = none) and the given allocation groups. */
static struct sp_found_fs xfs(uint64_t su, unsigned sw, uint64_t agblocks, uint64_t logsunit)
{
	struct sp_found_fs f = { 0 };

	snprintf(f.path, sizeof(f.path), "/dev/sdb1");
	snprintf(f.type, sizeof(f.type), "xfs");
	snprintf(f.uuid, sizeof(f.uuid), "0f5e2c1a-1111-2222-3333-444455556666");
	f.block_bytes = 4096;
	f.xfs_unit_blocks = su / 4096;
	f.xfs_width_blocks = su / 4096 * sw;
	f.xfs_agblocks = agblocks;
	f.xfs_agcount = 4;
	f.xfs_logsunit_bytes = logsunit;
	return f;
}

static const struct sp_finding *find(const struct sp_findings *fs, const char *code)
{
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->f[i].code, code))
			return &fs->f[i];
	return NULL;
}

static bool any_says(const struct sp_findings *fs, const char *text)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strstr(fs->f[i].message, text))
			return true;
	return false;
}

/* Every message names a device or file, and a fix (or that none is needed). */
static void assert_actionable(const struct sp_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		const char *m = fs->f[i].message;

		if (!strstr(m, "/dev/") && !strstr(m, "/etc/") && !strstr(m, "/sys/"))
			fail_msg("no device or file named: %s", m);
		if (!strstr(m, "fix: ") && !strstr(m, "nothing to fix"))
			fail_msg("no fix given: %s", m);
	}
}

/*
 * msdos at sector 63 with the right XFS geometry: the label type is a
 * harmless difference, the start is costly (2.25x writes, 2.00x reads:
 * test-cost.c), and nothing tells the user to run partprobe, because the
 * kernel agrees with the disk.
 */
/* A full list of findings keeps the worst: a costly finding after as many
 * suboptimal ones as fit still judges the outcome, and the rest are
 * counted. */
static void test_findings_keep_the_worst(void **state)
{
	struct sp_findings *fs = calloc(1, sizeof(*fs));
	size_t costly = 0;

	(void)state;
	assert_non_null(fs);
	for (unsigned i = 0; i < SP_MAX_FINDINGS + 6; i++)
		sp_findings_add(fs, SP_SEVERITY_SUBOPTIMAL, "knob-low", "member %u", i);
	sp_findings_add(fs, SP_SEVERITY_COSTLY, "knob-drifted", "the last member");
	sp_findings_add(fs, SP_SEVERITY_DIFFERS, "knob-differs", "not worth a place");
	assert_int_equal(fs->n, SP_MAX_FINDINGS);
	assert_int_equal(fs->dropped, 8);
	assert_int_equal(sp_findings_worst(fs), SP_SEVERITY_COSTLY);
	for (size_t i = 0; i < fs->n; i++)
		costly += fs->f[i].severity == SP_SEVERITY_COSTLY;
	assert_int_equal(costly, 1);
	free(fs);
}

static void test_msdos_63(void **state)
{
	struct sp_plan *plan = raid5_plan("6.1", SP_FS_XFS, "");
	struct sp_found_partition p = parted("msdos", 63 * 512, GiB - 63 * 512);
	struct sp_found_fs fs = xfs(64 * KiB, 3, 65536 / 4 * 3, 64 * KiB);
	struct sp_findings out = { 0 };
	const struct sp_finding *f;

	(void)state;
	sp_judge_partition(plan, &p, &out);
	sp_audit_costs(plan, &p, &fs, &out);
	assert_actionable(&out);
	f = find(&out, "label-type");
	assert_non_null(f);
	assert_int_equal(f->severity, SP_SEVERITY_DIFFERS);
	f = find(&out, "start-misaligned");
	assert_non_null(f);
	assert_int_equal(f->severity, SP_SEVERITY_COSTLY);
	assert_true(f->cost.known);
	assert_true(f->cost.write_ratio > 2.25 - 1e-9 && f->cost.write_ratio < 2.25 + 1e-9);
	assert_true(f->cost.read_ratio > 2.0 - 1e-9 && f->cost.read_ratio < 2.0 + 1e-9);
	assert_non_null(strstr(f->message, "sector 63"));
	assert_non_null(strstr(f->message, "stripe-sized writes cost 2.25x the minimum member "
					   "I/O of this raid5"));
	assert_non_null(strstr(f->message, "destroys the data"));
	assert_false(any_says(&out, "partprobe"));
	assert_int_equal(sp_findings_worst(&out), SP_SEVERITY_COSTLY);
}

/* GPT at 6 MiB (32 stripes), right geometry, AGs of whole stripes: only
 * harmless differences, and the worst is "differs".  A log stripe unit of
 * the chunk (what mkfs.xfs picks by itself) pads every log write to it:
 * suboptimal. */
static void test_aligned_elsewhere(void **state)
{
	struct sp_plan *plan = raid5_plan("6.1", SP_FS_XFS, "");
	struct sp_found_partition p = parted("gpt", 6 * MiB, 512 * MiB);
	/* 49 stripes of 192 KiB (48 blocks each) = 2352 blocks; 49 is not a
	 * multiple of the 4 disks parity rotates over */
	struct sp_found_fs fs = xfs(64 * KiB, 3, 2352, 4 * KiB);
	struct sp_findings out = { 0 };
	const struct sp_finding *f;

	(void)state;
	sp_judge_partition(plan, &p, &out);
	sp_judge_filesystem(plan, &fs, &out);
	sp_audit_costs(plan, &p, &fs, &out);
	assert_actionable(&out);
	assert_non_null(find(&out, "start"));
	assert_non_null(find(&out, "size"));
	assert_non_null(find(&out, "xfs-agsize"));
	assert_null(find(&out, "xfs-log-stripe-unit"));
	assert_int_equal(sp_findings_worst(&out), SP_SEVERITY_DIFFERS);

	memset(&out, 0, sizeof(out));
	fs.xfs_logsunit_bytes = 64 * KiB;
	sp_judge_filesystem(plan, &fs, &out);
	f = find(&out, "xfs-log-stripe-unit");
	assert_non_null(f);
	assert_int_equal(f->severity, SP_SEVERITY_SUBOPTIMAL);
	assert_non_null(strstr(f->message, "64 KiB log stripe unit"));
	assert_non_null(strstr(f->message, "-l su=4k"));

	/* 48 stripes a group is a multiple of the 4 disks parity rotates over:
	 * every group header on one member */
	assert_int_equal(plan->xfs_ag.rotation_period, 4);
	{
		memset(&out, 0, sizeof(out));
		fs.xfs_agblocks = 48 * 48;
		sp_judge_filesystem(plan, &fs, &out);
		assert_int_equal(find(&out, "xfs-ag-headers-one-member")->severity,
				 SP_SEVERITY_SUBOPTIMAL);
	}
}

/* A disk that grew under an intact GPT: said once, harmlessly, by the
 * label's reader (libparted's own words when it read it). */
static void test_gpt_not_at_end(void **state)
{
	struct sp_plan *plan = raid5_plan("6.1", SP_FS_XFS, "");
	struct sp_found_partition p = parted("gpt", plan->start_bytes, plan->size_bytes);
	struct sp_findings out = { 0 };
	const struct sp_finding *f;

	(void)state;
	p.gpt_backup_lba = 2097151;
	p.disk_last_lba = 2252799;
	sp_judge_partition(plan, &p, &out);
	f = find(&out, "gpt-not-at-end");
	assert_non_null(f);
	assert_int_equal(f->severity, SP_SEVERITY_DIFFERS);
	assert_non_null(strstr(f->message, "grew by 155648 sectors"));
	assert_non_null(strstr(f->message, "sgdisk -e /dev/sdb"));

	memset(&out, 0, sizeof(out));
	snprintf(p.said, sizeof(p.said), "Not all of the space available to /dev/sdb appears to be used");
	sp_judge_partition(plan, &p, &out);
	assert_null(find(&out, "gpt-not-at-end"));
	assert_non_null(find(&out, "libparted-said"));

	memset(&out, 0, sizeof(out));
	p.said[0] = '\0';
	p.disk_last_lba = p.gpt_backup_lba;
	sp_judge_partition(plan, &p, &out);
	assert_null(find(&out, "gpt-not-at-end"));
}

/* The kernel has an old view of the label: then, and only then, partprobe. */
static void test_kernel_stale(void **state)
{
	struct sp_plan *plan = raid5_plan("6.1", SP_FS_XFS, "");
	struct sp_found_partition p = parted("gpt", plan->start_bytes, plan->size_bytes);
	struct sp_findings out = { 0 };
	const struct sp_finding *f;

	(void)state;
	p.kernel_start_bytes = 34 * 512;
	sp_judge_partition(plan, &p, &out);
	assert_actionable(&out);
	f = find(&out, "kernel-stale");
	assert_non_null(f);
	assert_int_equal(f->severity, SP_SEVERITY_COSTLY);
	assert_non_null(strstr(f->message, "fix: partprobe /dev/sdb"));
	assert_int_equal(out.n, 1);
}

/* No stripe unit, no log stripe unit, AGs not whole stripes: each is its
 * own finding, and no "log stripe unit is 1 B".  No log stripe unit pads
 * log writes to the sector, less than the plan's block: nothing to fix. */
static void test_xfs_without_geometry(void **state)
{
	struct sp_plan *plan = raid5_plan("6.1", SP_FS_XFS, "");
	struct sp_found_fs fs = xfs(0, 0, 65534, 1);
	struct sp_findings out = { 0 };
	const struct sp_finding *f;

	(void)state;
	sp_judge_filesystem(plan, &fs, &out);
	assert_actionable(&out);
	f = find(&out, "xfs-no-stripe-unit");
	assert_non_null(f);
	assert_int_equal(f->severity, SP_SEVERITY_COSTLY);
	assert_non_null(strstr(f->message, "sunit=128,swidth=384"));
	f = find(&out, "xfs-no-log-stripe-unit");
	assert_non_null(f);
	assert_int_equal(f->severity, SP_SEVERITY_DIFFERS);
	assert_non_null(strstr(f->message, "nothing to fix"));
	f = find(&out, "xfs-ag-partial-stripes");
	assert_non_null(f);
	assert_int_equal(f->severity, SP_SEVERITY_SUBOPTIMAL);
	assert_false(any_says(&out, "1 B"));
}

/* ext4 with the wrong stride: costly, fixed in place by tune2fs. */
static void test_ext4_wrong_stride(void **state)
{
	struct sp_plan *plan = raid5_plan("6.1", SP_FS_EXT4, "");
	struct sp_found_fs fs = { .path = "/dev/sdb1", .type = "ext4", .block_bytes = 4096,
				  .ext_stride_blocks = 16, .ext_stripe_width_blocks = 64 };
	struct sp_findings out = { 0 };
	const struct sp_finding *f;

	(void)state;
	sp_judge_filesystem(plan, &fs, &out);
	assert_actionable(&out);
	f = find(&out, "ext-wrong-stripe");
	assert_non_null(f);
	assert_int_equal(f->severity, SP_SEVERITY_COSTLY);
	assert_non_null(strstr(f->message, "fix: tune2fs -E stride=16,stripe_width=48 /dev/sdb1"));
}

/* A mirror has no stripe: stride/stripe_width found on one (what mke2fs
 * takes from a LUN's exported I/O sizes when not told 0) differ from the
 * plan, harmlessly; none found is a match. */
static void test_ext4_stripe_on_mirror(void **state)
{
	struct sp_plan *plan = raid5_plan("6.1", SP_FS_EXT4, "");
	struct sp_found_fs fs = { .path = "/dev/sdb1", .type = "ext4", .block_bytes = 4096,
				  .ext_stride_blocks = 16, .ext_stripe_width_blocks = 256 };
	struct sp_findings out = { 0 };
	const struct sp_finding *f;

	(void)state;
	plan->level = SP_LEVEL_1;
	plan->data_disks = 1;
	plan->chunk_bytes = plan->stripe_width_bytes = 0;
	plan->ext_stride_blocks = plan->ext_stripe_width_blocks = 0;
	sp_judge_filesystem(plan, &fs, &out);
	f = find(&out, "ext-stripe-on-mirror");
	assert_non_null(f);
	assert_int_equal(f->severity, SP_SEVERITY_DIFFERS);
	assert_non_null(strstr(f->message, "stride=16,stripe_width=256 blocks"));
	memset(&out, 0, sizeof(out));
	fs.ext_stride_blocks = fs.ext_stripe_width_blocks = 0;
	sp_judge_filesystem(plan, &fs, &out);
	assert_int_equal(out.n, 0);
}

/*
 * A half-made filesystem is costly whatever its geometry: mkfs stopped
 * (xfs in progress, a header missing), ext4 with errors or a journal to
 * recover.  Right geometry, so only the whole-ness findings appear.
 */
static void test_half_made(void **state)
{
	struct sp_plan *plan = raid5_plan("6.1", SP_FS_XFS, "");
	/* the plan's one-block log stripe unit: nothing but the AG size differs */
	struct sp_found_fs fs = xfs(64 * KiB, 3, 2352, 4 * KiB);
	struct sp_found_fs ext = { .path = "/dev/sdb1", .type = "ext4", .block_bytes = 4096,
				   .ext_stride_blocks = 16, .ext_stripe_width_blocks = 48 };
	struct sp_findings out = { 0 };
	const struct sp_finding *f;

	(void)state;
	sp_judge_filesystem(plan, &fs, &out);
	assert_int_equal(out.n, 1); /* the baseline only differs (its agsize) */
	assert_int_equal(sp_findings_worst(&out), SP_SEVERITY_DIFFERS);

	memset(&out, 0, sizeof(out));

	fs.xfs_inprogress = 1;
	sp_judge_filesystem(plan, &fs, &out);
	assert_actionable(&out);
	assert_int_equal(out.n, 2);
	f = find(&out, "xfs-unfinished");
	assert_non_null(f);
	assert_int_equal(f->severity, SP_SEVERITY_COSTLY);
	assert_non_null(strstr(f->message, "mkfs is still in progress"));

	memset(&out, 0, sizeof(out));
	fs.xfs_inprogress = 0;
	snprintf(fs.xfs_missing, sizeof(fs.xfs_missing), "the AGF of allocation group 3");
	fs.xfs_missing_at_bytes = 805306880;
	sp_judge_filesystem(plan, &fs, &out);
	assert_actionable(&out);
	f = find(&out, "xfs-incomplete");
	assert_non_null(f);
	assert_int_equal(f->severity, SP_SEVERITY_COSTLY);
	assert_non_null(strstr(f->message, "the AGF of allocation group 3 is not at byte 805306880"));

	plan = raid5_plan("6.1", SP_FS_EXT4, "");
	memset(&out, 0, sizeof(out));
	sp_judge_filesystem(plan, &ext, &out);
	assert_int_equal(out.n, 0);
	ext.ext_errors = ext.ext_needs_recovery = ext.ext_not_clean = true;
	sp_judge_filesystem(plan, &ext, &out);
	assert_actionable(&out);
	assert_int_equal(out.n, 2); /* not clean is implied by needing recovery */
	assert_non_null(find(&out, "ext-errors"));
	assert_non_null(find(&out, "ext-needs-recovery"));
	memset(&out, 0, sizeof(out));
	ext.ext_errors = ext.ext_needs_recovery = false;
	sp_judge_filesystem(plan, &ext, &out);
	assert_int_equal(out.n, 1);
	assert_int_equal(find(&out, "ext-not-clean")->severity, SP_SEVERITY_COSTLY);
}

static struct sp_found_fstab fstab_with(const char *source, const char *options)
{
	struct sp_found_fstab f = { 0 };

	snprintf(f.path, sizeof(f.path), "/r/etc/fstab");
	snprintf(f.fs_path, sizeof(f.fs_path), "/dev/sdb1");
	snprintf(f.fs_type, sizeof(f.fs_type), "xfs");
	f.fs_log_su_bytes = 64 * KiB;
	f.n_lines = 1;
	f.lines[0].line = 3;
	snprintf(f.lines[0].source, sizeof(f.lines[0].source), "%s", source);
	snprintf(f.lines[0].target, sizeof(f.lines[0].target), "/data");
	snprintf(f.lines[0].fstype, sizeof(f.lines[0].fstype), "xfs");
	snprintf(f.lines[0].options, sizeof(f.lines[0].options), "%s", options);
	return f;
}

/* nobarrier stops the boot on XFS >= 4.19 and not before. */
static void test_fstab_nobarrier(void **state)
{
	struct sp_found_fstab f = fstab_with("LABEL=data", "noatime,nobarrier,swalloc");
	struct sp_findings out = { 0 };
	const struct sp_finding *r;

	(void)state;
	sp_judge_fstab(raid5_plan("6.1", SP_FS_XFS, ""), &f, &out);
	assert_actionable(&out);
	r = find(&out, "mount-option-refused");
	assert_non_null(r);
	assert_int_equal(r->severity, SP_SEVERITY_COSTLY);
	assert_non_null(strstr(r->message, "/r/etc/fstab line 3 (LABEL=data on /data)"));
	assert_non_null(strstr(r->message, "emergency mode"));
	memset(&out, 0, sizeof(out));
	sp_judge_fstab(raid5_plan("4.14", SP_FS_XFS, ""), &f, &out);
	assert_null(find(&out, "mount-option-refused"));
	/* 4.10 - 4.18 accept it and do nothing */
	assert_int_equal(find(&out, "mount-option-ignored")->severity, SP_SEVERITY_DIFFERS);
}

/*
 * --workload small-sync plans xfs without a stripe unit: what the general
 * plan reports about such a filesystem (no su: costly; AGs not whole
 * stripes; no swalloc) is what the small-sync plan asked for.  A log
 * stripe unit above the sector is what small-sync exists to avoid; a
 * data stripe unit alone costs fsync'd files nothing more.
 */
static void test_xfs_small_sync(void **state)
{
	struct sp_plan *plan = raid5_plan("6.1", SP_FS_XFS, "");
	struct sp_found_fs none = xfs(0, 0, 65534, 0), one = xfs(0, 0, 65534, 1);
	struct sp_found_fs general = xfs(64 * KiB, 3, 65520, 4096);
	struct sp_found_fstab f = fstab_with("LABEL=data", "noatime,nofail");
	struct sp_findings out = { 0 };
	const struct sp_finding *r;

	(void)state;
	plan->workload = SP_WORKLOAD_SMALL_SYNC;
	f.fs_log_su_bytes = 0;
	sp_judge_filesystem(plan, &none, &out);
	sp_judge_filesystem(plan, &one, &out);
	sp_judge_fstab(plan, &f, &out);
	assert_int_equal(out.n, 0);
	/* made by the general plan: su differs harmlessly, the log su costs */
	sp_judge_filesystem(plan, &general, &out);
	assert_actionable(&out);
	r = find(&out, "xfs-stripe-small-files");
	assert_non_null(r);
	assert_int_equal(r->severity, SP_SEVERITY_DIFFERS);
	assert_non_null(strstr(r->message, "su=64k,sw=3"));
	r = find(&out, "xfs-log-stripe-unit");
	assert_non_null(r);
	assert_int_equal(r->severity, SP_SEVERITY_SUBOPTIMAL);
	assert_non_null(strstr(r->message, "4 KiB log stripe unit"));
	assert_non_null(strstr(r->message, "4.27 against 4.11"));
	assert_int_equal(out.n, 2);
	/* and the general plan keeps reporting a small-sync filesystem */
	plan->workload = SP_WORKLOAD_GENERAL;
	memset(&out, 0, sizeof(out));
	sp_judge_filesystem(plan, &none, &out);
	sp_judge_fstab(plan, &f, &out);
	assert_int_equal(find(&out, "xfs-no-stripe-unit")->severity, SP_SEVERITY_COSTLY);
	assert_int_equal(find(&out, "xfs-ag-partial-stripes")->severity, SP_SEVERITY_SUBOPTIMAL);
	assert_int_equal(find(&out, "mount-no-swalloc")->severity, SP_SEVERITY_SUBOPTIMAL);
	assert_non_null(find(&out, "xfs-no-log-stripe-unit"));
}

/* Parity RAID without swalloc is suboptimal; a logbsize below the log
 * stripe unit is refused by XFS. */
static void test_fstab_swalloc_logbsize(void **state)
{
	struct sp_found_fstab f = fstab_with("/dev/disk/by-id/wwn-0x5000-part1",
					     "noatime,logbsize=32k");
	struct sp_findings out = { 0 };

	(void)state;
	sp_judge_fstab(raid5_plan("6.1", SP_FS_XFS, ""), &f, &out);
	assert_actionable(&out);
	assert_int_equal(find(&out, "mount-no-swalloc")->severity, SP_SEVERITY_SUBOPTIMAL);
	assert_int_equal(find(&out, "mount-option-refused")->severity, SP_SEVERITY_COSTLY);
}

/* logbufs and logbsize outside their rows stop the mount; inode64 is
 * asked for above 2 TiB before 3.7 */
static void test_fstab_log_options_inode64(void **state)
{
	struct sp_found_fstab f = fstab_with("LABEL=data", "noatime,swalloc,logbufs=9");
	struct sp_findings out = { 0 };
	struct sp_plan *p;
	const struct sp_finding *r;

	(void)state;
	sp_judge_fstab(raid5_plan("6.1", SP_FS_XFS, ""), &f, &out);
	r = find(&out, "mount-option-refused");
	assert_non_null(r);
	assert_non_null(strstr(r->message, "logbufs=9, outside 2..8 buffers: XFS refuses the mount "
					   "(Linux 6.1, fs/xfs/xfs_super.c xfs_fs_validate_params()"));
	f = fstab_with("LABEL=data", "noatime,swalloc,logbufs=8,logbsize=256k");
	memset(&out, 0, sizeof(out));
	sp_judge_fstab(raid5_plan("6.1", SP_FS_XFS, ""), &f, &out);
	assert_null(find(&out, "mount-option-refused"));
	f = fstab_with("LABEL=data", "noatime,swalloc,logbsize=512k");
	memset(&out, 0, sizeof(out));
	sp_judge_fstab(raid5_plan("6.1", SP_FS_XFS, ""), &f, &out);
	assert_non_null(strstr(find(&out, "mount-option-refused")->message, "logbsize=512k, outside"));

	f = fstab_with("LABEL=data", "noatime,swalloc");
	p = raid5_plan("2.6.32-754.el6", SP_FS_XFS, "");
	p->size_bytes = 3 * SP_TIB;
	memset(&out, 0, sizeof(out));
	sp_judge_fstab(p, &f, &out);
	assert_int_equal(find(&out, "mount-no-inode64")->severity, SP_SEVERITY_SUBOPTIMAL);
	f = fstab_with("LABEL=data", "noatime,swalloc,inode64");
	memset(&out, 0, sizeof(out));
	sp_judge_fstab(p, &f, &out);
	assert_null(find(&out, "mount-no-inode64"));
	p = raid5_plan("3.10.0-1160.el7", SP_FS_XFS, "");
	p->size_bytes = 3 * SP_TIB;
	f = fstab_with("LABEL=data", "noatime,swalloc");
	memset(&out, 0, sizeof(out));
	sp_judge_fstab(p, &f, &out);
	assert_null(find(&out, "mount-no-inode64"));
}

static void test_no_fstab_line(void **state)
{
	struct sp_found_fstab f = fstab_with("x", "y");
	struct sp_findings out = { 0 };

	(void)state;
	f.n_lines = 0;
	snprintf(f.planned_line, sizeof(f.planned_line), "UUID=u /data xfs noatime 0 0");
	sp_judge_fstab(raid5_plan("6.1", SP_FS_XFS, "/data"), &f, &out);
	assert_actionable(&out);
	assert_int_equal(find(&out, "no-fstab-line")->severity, SP_SEVERITY_COSTLY);
	/* without a planned mount point, no line is no finding */
	memset(&out, 0, sizeof(out));
	f.planned_line[0] = '\0';
	sp_judge_fstab(raid5_plan("6.1", SP_FS_XFS, ""), &f, &out);
	assert_int_equal(out.n, 0);
}

/* Read-ahead below the plan is suboptimal, above it harmless; any other
 * knob drifted, or a persistence file missing, is costly. */
static void test_tuning(void **state)
{
	struct sp_found_tuning *t = calloc(1, sizeof(*t));
	struct sp_findings out = { 0 };
	const struct sp_finding *f;

	(void)state;
	assert_non_null(t);
	t->knobs = calloc(3, sizeof(*t->knobs));
	assert_non_null(t->knobs);
	t->n_knobs = 3;
	t->knobs[0] = (struct sp_found_knob){ .disk = "sdb", .attr = "queue/read_ahead_kb",
					      .file = "/sys/block/sdb/queue/read_ahead_kb",
					      .want = "4096", .have = "128",
					      .want_value = sp_value_number(4096),
					      .have_value = sp_value_number(128), .have_known = true,
					      .state = SP_KNOB_DIFFERS };
	t->knobs[1] = (struct sp_found_knob){ .disk = "sdb", .attr = "queue/read_ahead_kb",
					      .file = "/sys/block/sdb/queue/read_ahead_kb",
					      .want = "4096", .have = "8192",
					      .want_value = sp_value_number(4096),
					      .have_value = sp_value_number(8192), .have_known = true,
					      .state = SP_KNOB_DIFFERS };
	t->knobs[2] = (struct sp_found_knob){ .disk = "sdb", .attr = "queue/scheduler",
					      .file = "/sys/block/sdb/queue/scheduler", .want = "none",
					      .have = "mq-deadline",
					      .want_value = { .kind = SP_VALUE_SCHEDULER,
							      .scheduler = SP_SCHED_NONE },
					      .have_value = { .kind = SP_VALUE_SCHEDULER,
							      .scheduler = SP_SCHED_MQ_DEADLINE },
					      .have_known = true, .state = SP_KNOB_DIFFERS };
	t->n_artifacts = 1;
	snprintf(t->artifacts[0].path, sizeof(t->artifacts[0].path),
		 "/r/etc/udev/rules.d/60-stripeplan-sdb.rules");
	t->artifacts[0].state = SP_ARTIFACT_MISSING;
	sp_judge_tuning(raid5_plan("6.1", SP_FS_XFS, ""), t, &out);
	assert_actionable(&out);
	f = find(&out, "read-ahead-below-plan");
	assert_int_equal(f->severity, SP_SEVERITY_SUBOPTIMAL);
	assert_non_null(strstr(f->message, "is 128 KiB (blockdev --setra 256)"));
	assert_non_null(strstr(f->message, "fix: echo 4096 > /sys/block/sdb/queue/read_ahead_kb"));
	assert_int_equal(find(&out, "read-ahead-above-plan")->severity, SP_SEVERITY_DIFFERS);
	assert_int_equal(find(&out, "knob-drifted")->severity, SP_SEVERITY_COSTLY);
	assert_int_equal(find(&out, "persistence-missing")->severity, SP_SEVERITY_COSTLY);
	free(t->knobs);
	free(t);
}

/* Every finding is kept, up to the bound, and the rest counted. */
static void test_findings_bound(void **state)
{
	struct sp_findings out = { 0 };

	(void)state;
	assert_int_equal(sp_findings_worst(&out), -1);
	for (unsigned i = 0; i < SP_MAX_FINDINGS + 3; i++)
		sp_findings_add(&out, SP_SEVERITY_DIFFERS, "x", "finding %u", i);
	assert_int_equal(out.n, SP_MAX_FINDINGS);
	assert_int_equal(out.dropped, 3);
	assert_string_equal(sp_severity_name(SP_SEVERITY_SUBOPTIMAL), "suboptimal");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msdos_63),
		cmocka_unit_test(test_aligned_elsewhere),
		cmocka_unit_test(test_kernel_stale),
		cmocka_unit_test(test_gpt_not_at_end),
		cmocka_unit_test(test_xfs_without_geometry),
		cmocka_unit_test(test_xfs_small_sync),
		cmocka_unit_test(test_ext4_wrong_stride),
		cmocka_unit_test(test_ext4_stripe_on_mirror),
		cmocka_unit_test(test_half_made),
		cmocka_unit_test(test_fstab_nobarrier),
		cmocka_unit_test(test_fstab_swalloc_logbsize),
		cmocka_unit_test(test_fstab_log_options_inode64),
		cmocka_unit_test(test_no_fstab_line),
		cmocka_unit_test(test_tuning),
		cmocka_unit_test(test_findings_keep_the_worst),
		cmocka_unit_test(test_findings_bound),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
