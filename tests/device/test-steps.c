/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The partition and filesystem steps against real block devices: loop
 * devices this test attaches to sparse images in its own temporary
 * directory, with plans made by the real planner from probed facts.
 * Runs as root.
 *
 * SAFETY: steps run only with plans whose device is a loop device this
 * test attached, and every command that writes (parted, dd-like pwrite)
 * goes through loop_ours().  Teardown runs after every test, failed or
 * not, and detaches a device only while its backing file is still our
 * image.  The group teardown fails if any of our images is still
 * attached, or if a loop device that was attached before we started is
 * gone (loopdev.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "loopdev.h"
#include "probe.h"
#include "steps.h"

#define GIB_IMAGE (1024ULL * 1024ULL * 1024ULL)
#define SMALL_IMAGE (128ULL * 1024ULL * 1024ULL)

/* Test-only state: what to undo beside the loop devices. */
static char saved_path[SP_PATH_MAX]; /* PATH at start: test_no_udevadm changes it */
static struct sp_profile_set *profiles;
static struct {
	struct sp_plan *plan;
	struct sp_step_result res;
} t;

static void cleanup(void)
{
	if (saved_path[0])
		setenv("PATH", saved_path, 1);
	loop_cleanup();
	sp_step_result_clear(&t.res);
	sp_plan_release(t.plan);
	free(t.plan);
	t.plan = NULL;
}

static int teardown_test(void **state)
{
	(void)state;
	cleanup();
	return 0;
}

static int group_setup(void **state)
{
	struct sp_error err = { 0 };

	(void)state;
	if (loop_group_setup("steps") < 0)
		return -1;
	snprintf(saved_path, sizeof(saved_path), "%s",
		 getenv("PATH") ? getenv("PATH") : "/usr/sbin:/usr/bin:/sbin:/bin");
	if (sp_profiles_embedded(&profiles, &err) < 0) {
		print_error("%s\n", err.message);
		return -1;
	}
	/* Runs before loopdev's own: PATH back first, on exit() paths too. */
	atexit(cleanup);
	return 0;
}

static int group_teardown(void **state)
{
	int r;

	(void)state;
	cleanup();
	r = loop_group_teardown();
	profiles = sp_profiles_free(profiles);
	return r;
}

/* ------------------------------------------------------------- helpers */

struct want {
	const char *controller, *level;
	unsigned disks;
	uint64_t chunk_bytes;
	enum sp_fs fs;
	enum sp_table table;
};

/* A plan from the real planner for one of our loop devices. */
static struct sp_plan *plan_for(const char *dev, const struct want *w)
{
	struct sp_error err = { 0 };
	struct sp_spec spec = { 0 };
	struct sp_facts facts;
	const struct sp_profile *profile = sp_profiles_find(profiles, w->controller);

	assert_non_null(loop_ours(dev));
	assert_non_null(profile);
	snprintf(spec.controller, sizeof(spec.controller), "%s", w->controller);
	assert_int_equal(sp_parse_level(w->level, &spec.level, &err), 0);
	assert_int_equal(sp_parse_kernel("6.1", &spec.kernel, &err), 0);
	spec.disks = w->disks;
	spec.chunk_bytes = w->chunk_bytes;
	spec.fs = w->fs;
	spec.table = w->table;
	if (sp_probe_facts(NULL, dev, &facts, &err) < 0)
		fail_msg("probe '%s': %s", dev, err.message);
	sp_plan_release(t.plan);
	free(t.plan);
	t.plan = calloc(1, sizeof(*t.plan));
	assert_non_null(t.plan);
	if (sp_plan_make(&spec, profile, &facts, t.plan, &err) < 0)
		fail_msg("plan for '%s': %s", dev, err.message);
	assert_string_equal(t.plan->device.path, dev);
	return t.plan;
}

static void ctx_for(struct sp_ctx *ctx, const struct sp_plan *plan)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->plan = plan;
	ctx->disk_path = loop_ours(plan->device.path);
	snprintf(ctx->partition_path, sizeof(ctx->partition_path), "%s", plan->partition_path);
	ctx->root = "/";
	ctx->partition_wait_ms = 10000;
}

static void print_result(const struct sp_step_result *res)
{
	size_t i;

	print_message("%s: status %d, summary '%s'\n", res->name, res->status, res->summary);
	for (i = 0; i < res->n_lines; i++)
		print_message("  %s\n", res->lines[i]);
	if (res->error.message[0])
		print_message("  error: %s\n", res->error.message);
}

/* Runs verify into t.res and returns the status it left. */
static enum sp_step_status verify(const struct sp_step *step, struct sp_ctx *ctx)
{
	int r;

	sp_step_result_clear(&t.res);
	t.res.name = step->name;
	t.res.status = SP_STEP_UNCHANGED;
	r = step->verify(ctx, &t.res);
	if (r < 0) {
		print_result(&t.res);
		fail_msg("%s verify failed: %s", step->name, t.res.error.message);
	}
	return t.res.status;
}

static void apply_ok(const struct sp_step *step, struct sp_ctx *ctx)
{
	assert_non_null(loop_ours(ctx->disk_path));
	sp_step_result_clear(&t.res);
	t.res.name = step->name;
	if (step->apply(ctx, &t.res) < 0) {
		print_result(&t.res);
		if (t.res.tool_output)
			print_message("%s\n", t.res.tool_output);
		fail_msg("%s apply failed: %s", step->name, t.res.error.message);
	}
	assert_int_equal(t.res.status, ctx->dry_run ? SP_STEP_DRY_RUN : SP_STEP_DONE);
}

static bool has_line(const struct sp_step_result *res, const char *needle)
{
	size_t i;

	for (i = 0; i < res->n_lines; i++)
		if (strstr(res->lines[i], needle))
			return true;
	return false;
}

static void expect_line(const char *needle)
{
	if (!has_line(&t.res, needle)) {
		print_result(&t.res);
		fail_msg("no line says '%s'", needle);
	}
}

static void expect_status(enum sp_step_status got, enum sp_step_status want)
{
	if (got != want) {
		print_result(&t.res);
		fail_msg("status %d, expected %d", got, want);
	}
}

/* /sys/class/block/<partition>/<attr>, in the kernel's 512-byte units. */
static uint64_t kernel_attr(const char *part, const char *attr)
{
	char path[SP_PATH_MAX], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/block/%s/%s", strrchr(part, '/') + 1, attr);
	f = fopen(path, "re");
	if (!f)
		fail_msg("cannot open %s", path);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	return strtoull(buf, NULL, 10);
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Both steps, verify -> apply -> verify, as the pipeline runs them. */
static void make_both(struct sp_ctx *ctx)
{
	expect_status(verify(&sp_step_partition, ctx), SP_STEP_DRIFT);
	apply_ok(&sp_step_partition, ctx);
	expect_status(verify(&sp_step_partition, ctx), SP_STEP_UNCHANGED);
	expect_status(verify(&sp_step_filesystem, ctx), SP_STEP_DRIFT);
	apply_ok(&sp_step_filesystem, ctx);
	expect_status(verify(&sp_step_filesystem, ctx), SP_STEP_UNCHANGED);
	assert_true(ctx->fs_uuid[0] != '\0');
}

/* --------------------------------------------------------------- tests */

/* (a) 512-byte sectors, gpt, xfs on a RAID10 of 8 x 256K. */
static void test_gpt_xfs_512(void **state)
{
	const char *dev = loop_attach(GIB_IMAGE, 0, LOOP_PARTSCAN);
	const struct want w = { "hp-p400", "10", 8, 256 * SP_KIB, SP_FS_XFS, SP_TABLE_GPT };
	struct sp_plan *plan = plan_for(dev, &w);
	char what[SP_MSG_MAX];
	struct sp_ctx ctx;

	(void)state;
	ctx_for(&ctx, plan);
	assert_int_equal(plan->start_bytes, SP_MIB);
	assert_int_equal(sp_step_partition.probe_existing(&ctx, what, sizeof(what)), 0);
	assert_int_equal(sp_step_filesystem.probe_existing(&ctx, what, sizeof(what)), 0);

	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_DRIFT);
	expect_line("no partition table on ");
	apply_ok(&sp_step_partition, &ctx);
	/* we told the kernel ourselves, not libparted (and its udevadm) */
	expect_line("told the kernel with BLKPG: it had no partitions on ");
	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_UNCHANGED);
	assert_int_equal(t.res.n_lines, 0);
	assert_non_null(strstr(t.res.summary, "gpt, partition 1 at 1 MiB"));
	assert_int_equal(kernel_attr(plan->partition_path, "start"), 2048);
	assert_int_equal(kernel_attr(plan->partition_path, "size") * 512, plan->size_bytes);
	/* the plan's own label is no obstacle to a re-run that must tell the
	 * kernel again (a run stopped between the two) */
	assert_int_equal(sp_step_partition.probe_existing(&ctx, what, sizeof(what)), 0);
	/* the new partition is blank: nothing of anyone's to lose */
	assert_int_equal(sp_step_filesystem.probe_existing(&ctx, what, sizeof(what)), 0);

	expect_status(verify(&sp_step_filesystem, &ctx), SP_STEP_DRIFT);
	expect_line("no filesystem on ");
	apply_ok(&sp_step_filesystem, &ctx);
	assert_non_null(t.res.tool_output);
	expect_status(verify(&sp_step_filesystem, &ctx), SP_STEP_UNCHANGED);
	assert_true(strlen(ctx.fs_uuid) == 36);
	assert_non_null(strstr(t.res.summary, "xfs su=256k sw=4 log su=4k, UUID "));
	assert_non_null(strstr(t.res.summary, ctx.fs_uuid));
	assert_int_equal(sp_step_filesystem.probe_existing(&ctx, what, sizeof(what)), 1);
	assert_non_null(strstr(what, "an xfs filesystem (UUID "));
	assert_non_null(strstr(what, plan->partition_path));
}

/* (b) 4Kn, ext4, generic RAID5 of 4 x 64K: a 192K stripe, so a 3 MiB start. */
static void test_gpt_ext4_4k(void **state)
{
	const char *dev = loop_attach(GIB_IMAGE, 4096, LOOP_PARTSCAN);
	const struct want w = { "generic", "5", 4, 64 * SP_KIB, SP_FS_EXT4, SP_TABLE_GPT };
	struct sp_plan *plan = plan_for(dev, &w);
	struct sp_ctx ctx;

	(void)state;
	ctx_for(&ctx, plan);
	assert_int_equal(plan->device.logical_sector_bytes, 4096);
	assert_int_equal(plan->stripe_width_bytes, 192 * SP_KIB);
	assert_int_equal(plan->start_bytes, 3 * SP_MIB);
	make_both(&ctx);
	/* sysfs counts 512-byte units even on a 4Kn disk */
	assert_int_equal(kernel_attr(plan->partition_path, "start"), 6144);
	assert_int_equal(plan->ext_stride_blocks, 16);
	assert_int_equal(plan->ext_stripe_width_blocks, 48);
	assert_non_null(strstr(t.res.summary, "stride=16 stripe_width=48"));
	/* the read-back is what verify compares: prove it looks */
	plan->ext_stripe_width_blocks = 32;
	expect_status(verify(&sp_step_filesystem, &ctx), SP_STEP_DRIFT);
	expect_line("costly: ext4 on ");
	expect_line("has stride=16,stripe_width=48 blocks, the array's is stride=16,stripe_width=32");
}

/* (c) msdos label. */
static void test_msdos(void **state)
{
	const char *dev = loop_attach(GIB_IMAGE, 0, LOOP_PARTSCAN);
	const struct want w = { "hp-p400", "10", 8, 256 * SP_KIB, SP_FS_EXT4, SP_TABLE_MSDOS };
	struct sp_plan *plan = plan_for(dev, &w);
	struct sp_ctx ctx;

	(void)state;
	ctx_for(&ctx, plan);
	make_both(&ctx);
	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_UNCHANGED);
	assert_non_null(strstr(t.res.summary, "msdos, partition 1"));
	/* a gpt plan on this disk is drift, not an error */
	plan->table = SP_TABLE_GPT;
	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_DRIFT);
	expect_line("has a msdos label, the plan says gpt");
}

/* (d) a partition made the old way, at sector 63. */
static void test_drift_sector_63(void **state)
{
	const char *dev = loop_attach(GIB_IMAGE, 0, LOOP_PARTSCAN);
	const struct want w = { "hp-p400", "10", 8, 256 * SP_KIB, SP_FS_XFS, SP_TABLE_MSDOS };
	struct sp_plan *plan = plan_for(dev, &w);
	struct sp_ctx ctx;

	(void)state;
	ctx_for(&ctx, plan);
	assert_int_equal(RUN("parted", "-s", loop_ours(dev), "mklabel", "msdos", "mkpart", "primary",
			     "63s", "100%"),
			 0);
	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_DRIFT);
	expect_line("costly: partition 1 of ");
	expect_line("starts at sector 63 (byte 32256), 31.50 KiB past a 1 MiB stripe boundary");
	expect_line("differs: partition 1 of ");
	/* the kernel agrees with the disk: no advice to run partprobe */
	for (size_t i = 0; i < t.res.n_lines; i++)
		if (strstr(t.res.lines[i], "partprobe"))
			fail_msg("partprobe advised although the kernel agrees: %s", t.res.lines[i]);
}

/* Fails the test if dev holds a filesystem. */
static void expect_no_fs_on(const char *dev)
{
	char what[SP_MSG_MAX] = "";

	if (sp_step_probe_signature(dev, what, sizeof(what)) == 1 && strstr(what, "filesystem"))
		fail_msg("'%s' holds %s", dev, what);
}

/* Copies the device's bytes (sparse) so a later cmp can prove nothing changed. */
static void snapshot(const char *dev, const char *name, char *copy, size_t len)
{
	snprintf(copy, len, "%s/%s", loop_dir(), name);
	assert_int_equal(RUN("cp", "--sparse=always", dev, copy), 0);
}

/* (e) dry run: lines say what would happen, and not one byte changes. */
static void test_dry_run_touches_nothing(void **state)
{
	const char *dev = loop_attach(SMALL_IMAGE, 0, LOOP_PARTSCAN);
	const struct want w = { "hp-p400", "10", 8, 256 * SP_KIB, SP_FS_EXT4, SP_TABLE_GPT };
	struct sp_plan *plan;
	char before[SP_PATH_MAX], what[SP_MSG_MAX];
	struct sp_ctx ctx;

	(void)state;
	/* something to lose: a filesystem on the whole disk */
	assert_int_equal(RUN("mkfs.ext4", "-q", "-F", loop_ours(dev)), 0);
	plan = plan_for(dev, &w);
	ctx_for(&ctx, plan);
	ctx.dry_run = true;
	assert_int_equal(sp_step_partition.probe_existing(&ctx, what, sizeof(what)), 1);
	assert_non_null(strstr(what, "an ext4 filesystem (UUID "));
	snapshot(dev, "before.img", before, sizeof(before));

	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_DRIFT);
	expect_line("no partition table on ");
	apply_ok(&sp_step_partition, &ctx);
	/* the dry run names what the wipe would erase, as the real one does */
	expect_line("wipe the ext4 signature at offset 1080 on ");
	expect_line("write a new gpt label on ");
	expect_line("create partition 1: sectors 2048..");
	expect_line("wait up to 10 s for ");
	assert_int_equal(t.res.n_actions, 2);
	assert_int_equal(t.res.actions[0].kind, SP_ACTION_WIPE);
	assert_string_equal(t.res.actions[0].before, "ext4 signature at offset 1080");
	assert_true(t.res.actions[0].destroys);
	assert_int_equal(t.res.actions[1].kind, SP_ACTION_LABEL);
	assert_non_null(strstr(t.res.actions[1].after, "gpt, 1 partition, partition 1 at 1 MiB"));
	expect_status(verify(&sp_step_filesystem, &ctx), SP_STEP_DRIFT);
	apply_ok(&sp_step_filesystem, &ctx);
	expect_line("run: mke2fs -t ext4 -b 4096 -E stride=64,stripe_width=256 ");
	/* nothing where the partition will be: no wipe there, only mkfs */
	assert_int_equal(t.res.n_actions, 1);
	assert_int_equal(t.res.actions[0].kind, SP_ACTION_MKFS);
	assert_string_equal(t.res.actions[0].after, "ext4 (a new UUID)");
	assert_null(t.res.tool_output);

	assert_int_equal(RUN("cmp", before, dev), 0);
	unlink(before);
}

/* Replaces the mkfs argument `from` (the first after `after`, if given). */
static void set_arg(struct sp_plan *plan, const char *after, const char *from, const char *to)
{
	size_t i;

	for (i = 1; i < plan->n_mkfs_argv; i++)
		if (!strcmp(plan->mkfs_argv[i], from) &&
		    (!after || !strcmp(plan->mkfs_argv[i - 1], after))) {
			snprintf(plan->mkfs_argv[i], sizeof(plan->mkfs_argv[i]), "%s", to);
			return;
		}
	fail_msg("no mkfs argument '%s'", from);
}

static void expect_apply_fails(struct sp_ctx *ctx, const char *needle)
{
	sp_step_result_clear(&t.res);
	assert_true(sp_step_filesystem.apply(ctx, &t.res) < 0);
	print_message("failure: %s\n", t.res.error.message);
	assert_int_equal(t.res.status, SP_STEP_FAILED);
	assert_int_equal(t.res.error.kind, SP_ERR_FAILED);
	if (!strstr(t.res.error.message, needle))
		fail_msg("message should say '%s'", needle);
}

/* (f) mkfs refuses the geometry: its own words reach the error. */
static void test_mkfs_failure(void **state)
{
	const char *dev = loop_attach(GIB_IMAGE, 0, LOOP_PARTSCAN);
	const struct want w = { "hp-p400", "10", 8, 256 * SP_KIB, SP_FS_XFS, SP_TABLE_GPT };
	struct sp_plan *plan = plan_for(dev, &w);
	struct sp_ctx ctx;

	(void)state;
	ctx_for(&ctx, plan);
	apply_ok(&sp_step_partition, &ctx);

	set_arg(plan, "-d", "su=256k,sw=4", "su=3k,sw=4");
	expect_apply_fails(&ctx, "mkfs.xfs failed (exit 1) on ");
	assert_non_null(strstr(t.res.error.message, plan->partition_path));
	assert_non_null(strstr(t.res.error.message, "Stripe unit(3072)"));
	assert_non_null(t.res.tool_output);
	assert_non_null(strstr(t.res.tool_output, "Stripe unit(3072)"));
	set_arg(plan, "-d", "su=3k,sw=4", "su=256k,sw=4");

	/* mkfs.xfs follows this one with its usage: the reason, not the usage */
	set_arg(plan, "-l", "su=4k", "su=512k");
	expect_apply_fails(&ctx, "Invalid value 512k for -l su option");
	set_arg(plan, "-l", "su=512k", "su=4k");

	/* an argv that does not end with the partition never runs */
	set_arg(plan, NULL, plan->partition_path, dev);
	expect_apply_fails(&ctx, "not the partition");
	assert_null(t.res.tool_output);
	set_arg(plan, NULL, dev, plan->partition_path);

	/* nor one that runs something other than the plan's mkfs */
	snprintf(plan->mkfs_argv[0], sizeof(plan->mkfs_argv[0]), "dd");
	expect_apply_fails(&ctx, "is not one that makes xfs");
	expect_no_fs_on(plan->partition_path);
}

/* (g) the node never appears: a bounded wait, a clear message, and the
 * whole disk is never formatted in its place. */
static void test_node_never_appears(void **state)
{
	const char *dev = loop_attach(GIB_IMAGE, 0, LOOP_PARTSCAN);
	const struct want w = { "hp-p400", "10", 8, 256 * SP_KIB, SP_FS_XFS, SP_TABLE_GPT };
	struct sp_plan *plan = plan_for(dev, &w);
	struct sp_ctx ctx;
	double started, took;
	char fake_dev[SP_PATH_MAX];

	(void)state;
	ctx_for(&ctx, plan);
	/* a /dev nobody populates (no devtmpfs, no udev): the kernel adds
	 * the partition, but neither the node the plan names nor the one of
	 * the kernel's name ever shows up */
	snprintf(fake_dev, sizeof(fake_dev), "%s/dev", loop_dir());
	assert_int_equal(mkdir(fake_dev, 0755), 0);
	snprintf(ctx.partition_path, sizeof(ctx.partition_path), "%s/%s", fake_dev,
		 strrchr(plan->partition_path, '/') + 1);
	snprintf(plan->partition_path, sizeof(plan->partition_path), "%s", ctx.partition_path);
	ctx.node_dir = fake_dev;
	ctx.partition_wait_ms = 1000;
	sp_step_result_clear(&t.res);
	started = now_seconds();
	assert_true(sp_step_partition.apply(&ctx, &t.res) < 0);
	took = now_seconds() - started;
	print_message("after %.2f s: %s\n", took, t.res.error.message);
	assert_true(took >= 1.0 && took < 2.5);
	assert_int_equal(t.res.error.kind, SP_ERR_FAILED);
	assert_non_null(strstr(t.res.error.message, "did not appear within 1 s"));
	assert_non_null(strstr(t.res.error.message, "but no node appeared"));

	/* filesystem apply refuses the missing node and the whole disk */
	sp_step_result_clear(&t.res);
	assert_true(sp_step_filesystem.apply(&ctx, &t.res) < 0);
	snprintf(ctx.partition_path, sizeof(ctx.partition_path), "%s", dev);
	sp_step_result_clear(&t.res);
	assert_true(sp_step_filesystem.apply(&ctx, &t.res) < 0);
	assert_int_equal(t.res.error.kind, SP_ERR_FAILED);
	assert_non_null(strstr(t.res.error.message, "formats a whole disk only when the plan"));
	expect_no_fs_on(dev);
	rmdir(fake_dev);
}

/*
 * (g') without --partscan.  Kernels differ: some refuse BLKPG on such a
 * loop device, so the node never appears; newer ones add the partition
 * anyway.  Either way the wait is bounded and the disk is never formatted.
 */
static void test_no_partscan(void **state)
{
	const char *dev = loop_attach(GIB_IMAGE, 0, 0);
	const struct want w = { "hp-p400", "10", 8, 256 * SP_KIB, SP_FS_XFS, SP_TABLE_GPT };
	struct sp_plan *plan = plan_for(dev, &w);
	struct sp_ctx ctx;
	double started, took;
	int r;

	(void)state;
	ctx_for(&ctx, plan);
	ctx.partition_wait_ms = 1000;
	sp_step_result_clear(&t.res);
	started = now_seconds();
	r = sp_step_partition.apply(&ctx, &t.res);
	took = now_seconds() - started;
	print_message("no --partscan: apply %s after %.2f s%s%s\n", r < 0 ? "failed" : "worked",
		      took, r < 0 ? ": " : "", t.res.error.message);
	assert_true(took < 2.5);
	/* which way the kernel was told is said, whichever it was */
	if (!has_line(&t.res, "told the kernel with BLKPG: ") && !has_line(&t.res, "(BLKRRPART)")) {
		print_result(&t.res);
		fail_msg("no line says how the kernel was told");
	}
	if (r < 0)
		assert_non_null(strstr(t.res.error.message, "did not appear within 1 s"));
	else
		expect_status(verify(&sp_step_partition, &ctx), SP_STEP_UNCHANGED);
	snprintf(ctx.partition_path, sizeof(ctx.partition_path), "%s", dev);
	sp_step_result_clear(&t.res);
	assert_true(sp_step_filesystem.apply(&ctx, &t.res) < 0);
	expect_no_fs_on(dev);
}

static void write_zeros(const char *dev, uint64_t offset, size_t len)
{
	char zeros[4096] = { 0 };
	int fd = open(loop_ours(dev), O_WRONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_true(len <= sizeof(zeros));
	assert_int_equal(pwrite(fd, zeros, len, (off_t)offset), (ssize_t)len);
	assert_int_equal(fsync(fd), 0);
	close(fd);
}

/*
 * (h) a damaged GPT copy is never "fixed" by verify: it reports which copy
 * and the repair (libparted would only ask), and leaves the bytes alone.
 */
static void test_never_fixes(void **state)
{
	const char *dev = loop_attach(GIB_IMAGE, 0, LOOP_PARTSCAN);
	const struct want w = { "hp-p400", "10", 8, 256 * SP_KIB, SP_FS_XFS, SP_TABLE_GPT };
	struct sp_plan *plan = plan_for(dev, &w);
	char before[SP_PATH_MAX];
	struct sp_ctx ctx;

	(void)state;
	ctx_for(&ctx, plan);
	apply_ok(&sp_step_partition, &ctx);
	/* the backup GPT header lives in the last sector */
	write_zeros(dev, GIB_IMAGE - 512, 512);
	snapshot(dev, "damaged.img", before, sizeof(before));
	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_DRIFT);
	print_result(&t.res);
	/* the on-disk reader judges the copies: the damage and its repair,
	 * never a re-created label */
	expect_line("the backup GPT header at LBA ");
	expect_line("fix: sgdisk -e ");
	assert_int_equal(RUN("cmp", before, dev), 0);
	unlink(before);

	/* apply rewrites the label from scratch: no question to answer */
	apply_ok(&sp_step_partition, &ctx);
	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_UNCHANGED);
}

/*
 * (h') the LUN grew: libparted offers to "Fix" the GPT to use the new
 * space.  Verify must not accept on our behalf: drift, libparted's words,
 * and the new end of the disk still untouched.
 */
static void test_grown_disk_not_fixed(void **state)
{
	const char *dev = loop_attach(GIB_IMAGE, 0, LOOP_PARTSCAN);
	const struct want w = { "hp-p400", "10", 8, 256 * SP_KIB, SP_FS_XFS, SP_TABLE_GPT };
	struct sp_plan *plan = plan_for(dev, &w);
	char before[SP_PATH_MAX];
	struct sp_ctx ctx;

	(void)state;
	ctx_for(&ctx, plan);
	apply_ok(&sp_step_partition, &ctx);
	assert_int_equal(truncate(loop_image(dev), (off_t)(GIB_IMAGE + 64 * SP_MIB)), 0);
	assert_int_equal(RUN("losetup", "--set-capacity", loop_ours(dev)), 0);
	snapshot(dev, "grown.img", before, sizeof(before));
	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_DRIFT);
	expect_line("libparted complained about ");
	expect_line("Not all of the space available");
	assert_int_equal(RUN("cmp", before, dev), 0);
	unlink(before);
}

/* (i) apply replaces what was there, leftovers included (wipefs's job). */
static void test_apply_replaces_old_label(void **state)
{
	const char *dev = loop_attach(GIB_IMAGE, 0, LOOP_PARTSCAN);
	const struct want w = { "hp-p400", "10", 8, 256 * SP_KIB, SP_FS_EXT4, SP_TABLE_MSDOS };
	struct sp_plan *plan = plan_for(dev, &w);
	char what[SP_MSG_MAX];
	struct sp_ctx ctx;

	(void)state;
	ctx_for(&ctx, plan);
	/* xfs on the whole disk: its magic sits in the msdos boot code area,
	 * which libparted keeps as it finds it */
	assert_int_equal(RUN("mkfs.xfs", "-q", "-f", loop_ours(dev)), 0);
	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_DRIFT);
	expect_line("no partition table on ");
	apply_ok(&sp_step_partition, &ctx);
	expect_line("wiped the xfs signature at offset 0 on ");
	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_UNCHANGED);
	/* the plan's own label: no obstacle; any other label is */
	assert_int_equal(sp_step_partition.probe_existing(&ctx, what, sizeof(what)), 0);

	/* a gpt with two partitions: both tables go, and the kernel's second
	 * partition with them */
	assert_int_equal(RUN("parted", "-s", loop_ours(dev), "mklabel", "gpt", "mkpart", "p", "1MiB",
			     "100MiB", "mkpart", "q", "100MiB", "200MiB"),
			 0);
	assert_int_equal(sp_step_partition.probe_existing(&ctx, what, sizeof(what)), 1);
	assert_string_equal(what, "a gpt partition table");
	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_DRIFT);
	expect_line("has a gpt label, the plan says msdos");
	apply_ok(&sp_step_partition, &ctx);
	expect_line("wiped the gpt signature at offset 512 on ");
	expect_line("wiped the PMBR signature");
	snprintf(what, sizeof(what), "told the kernel with BLKPG: removed its partitions %sp1, "
		 "%sp2, added partition 1 at 1 MiB", dev + strlen("/dev/"), dev + strlen("/dev/"));
	expect_line(what);
	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_UNCHANGED);
	expect_no_fs_on(dev);
}

/* Polls for a block device node (devtmpfs makes it soon after the kernel). */
static bool wait_for_block(const char *path, double seconds)
{
	double deadline = now_seconds() + seconds;
	struct stat st;

	for (;;) {
		if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
			return true;
		if (now_seconds() >= deadline)
			return false;
		usleep(20 * 1000);
	}
}

/*
 * (j) a partition someone has open (not mounted: the pipeline refuses
 * that before any step runs) cannot be removed from the kernel.  Apply
 * fails within the bounded retry, naming the partition; once it is
 * closed, apply works.
 */
static void test_partition_in_use(void **state)
{
	const char *dev = loop_attach(GIB_IMAGE, 0, LOOP_PARTSCAN);
	const struct want w = { "hp-p400", "10", 8, 256 * SP_KIB, SP_FS_XFS, SP_TABLE_GPT };
	struct sp_plan *plan = plan_for(dev, &w);
	char p2[SP_PATH_MAX], want[SP_MSG_MAX];
	double started, took;
	struct sp_ctx ctx;
	int fd;

	(void)state;
	ctx_for(&ctx, plan);
	assert_int_equal(RUN("parted", "-s", loop_ours(dev), "mklabel", "gpt", "mkpart", "p", "1MiB",
			     "100MiB", "mkpart", "q", "100MiB", "200MiB"),
			 0);
	snprintf(p2, sizeof(p2), "%sp2", dev);
	assert_true(wait_for_block(p2, 5.0));
	fd = open(loop_ours(p2), O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);

	sp_step_result_clear(&t.res);
	t.res.name = sp_step_partition.name;
	started = now_seconds();
	assert_true(sp_step_partition.apply(&ctx, &t.res) < 0);
	took = now_seconds() - started;
	close(fd);
	print_message("after %.2f s: %s\n", took, t.res.error.message);
	assert_true(took < 3.0);
	assert_int_equal(t.res.status, SP_STEP_FAILED);
	assert_int_equal(t.res.error.kind, SP_ERR_FAILED);
	snprintf(want, sizeof(want), "but cannot tell the kernel: %s (partition 2) is in use", p2);
	if (!strstr(t.res.error.message, want))
		fail_msg("message should say '%s'", want);
	assert_non_null(strstr(t.res.error.message, "run partprobe "));

	/* nobody holds it now: the same apply goes through */
	apply_ok(&sp_step_partition, &ctx);
	expect_line("told the kernel with BLKPG: removed its partition ");
	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_UNCHANGED);
	assert_false(wait_for_block(p2, 0));
}

/* Writes an executable shell script. */
static void write_script(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0755), 0);
}

static bool file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/*
 * (k) apply runs no udevadm: with the pipeline's flock held, udev >= 251
 * postpones the disk's events and `udevadm settle` (which Debian's
 * libparted runs from ped_disk_commit_to_os) would wait ~120 s.  A fake
 * udevadm first in PATH records any call.
 */
static void test_no_udevadm(void **state)
{
	const char *dev = loop_attach(GIB_IMAGE, 0, LOOP_PARTSCAN);
	const struct want w = { "hp-p400", "10", 8, 256 * SP_KIB, SP_FS_XFS, SP_TABLE_MSDOS };
	struct sp_plan *plan = plan_for(dev, &w);
	char bin[SP_PATH_MAX], fake[SP_PATH_MAX], called[SP_PATH_MAX], script[SP_PATH_MAX * 2];
	char path[SP_PATH_MAX * 2];
	struct sp_ctx ctx;

	(void)state;
	ctx_for(&ctx, plan);
	snprintf(bin, sizeof(bin), "%s/bin", loop_dir());
	snprintf(fake, sizeof(fake), "%s/udevadm", bin);
	snprintf(called, sizeof(called), "%s/udevadm-called", loop_dir());
	assert_int_equal(mkdir(bin, 0755), 0);
	snprintf(script, sizeof(script), "#!/bin/sh\necho \"$*\" >>'%s'\n", called);
	write_script(fake, script);
	snprintf(path, sizeof(path), "%s:%s", bin, saved_path);
	assert_int_equal(setenv("PATH", path, 1), 0);

	/* does this libparted run udevadm at all?  (Debian's and Ubuntu's do) */
	assert_int_equal(RUN("parted", "-s", loop_ours(dev), "mklabel", "gpt", "mkpart", "p", "1MiB",
			     "100MiB"),
			 0);
	print_message("parted itself ran udevadm: %s\n", file_exists(called) ? "yes" : "no");
	unlink(called);

	apply_ok(&sp_step_partition, &ctx);
	expect_line("told the kernel with BLKPG: removed its partition ");
	if (file_exists(called)) {
		RUN("cat", called);
		fail_msg("partition apply ran udevadm");
	}
	assert_int_equal(setenv("PATH", saved_path, 1), 0);
	expect_status(verify(&sp_step_partition, &ctx), SP_STEP_UNCHANGED);
	unlink(fake);
	rmdir(bin);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_gpt_xfs_512, teardown_test),
		cmocka_unit_test_teardown(test_gpt_ext4_4k, teardown_test),
		cmocka_unit_test_teardown(test_msdos, teardown_test),
		cmocka_unit_test_teardown(test_drift_sector_63, teardown_test),
		cmocka_unit_test_teardown(test_dry_run_touches_nothing, teardown_test),
		cmocka_unit_test_teardown(test_mkfs_failure, teardown_test),
		cmocka_unit_test_teardown(test_node_never_appears, teardown_test),
		cmocka_unit_test_teardown(test_no_partscan, teardown_test),
		cmocka_unit_test_teardown(test_never_fixes, teardown_test),
		cmocka_unit_test_teardown(test_grown_disk_not_fixed, teardown_test),
		cmocka_unit_test_teardown(test_apply_replaces_old_label, teardown_test),
		cmocka_unit_test_teardown(test_partition_in_use, teardown_test),
		cmocka_unit_test_teardown(test_no_udevadm, teardown_test),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
