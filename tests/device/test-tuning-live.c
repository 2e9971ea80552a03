/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tuning step against the real kernel: a loop device this test
 * attaches, probed and planned like a P400 LUN, tuned through the real
 * /sys/block/loopN/queue/ (the machine's sysfs), read back, then tuned
 * again by the generated script.  Runs as root.
 *
 * SAFETY: the step is run only on a plan whose every knob lies under
 * /sys/block/<our loop device>/; persistence files go to a scratch root.
 * A loop device's queue settings outlive losetup --detach, so the values
 * found at attach time are written back before detaching, on every way
 * out, and only while the device still serves our image (loopdev.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

#include "format.h"
#include "loopdev.h"
#include "probe.h"
#include "steps.h"
#include "sysfs.h"

#define IMAGE_BYTES (512U * 1024U * 1024U) /* sparse; XFS wants 300 MiB */

/* Test-only state: our loop device, NULL between tests. */
static const char *dev;

static const char *kernel_name(void)
{
	return dev + strlen("/dev/");
}

/* Its queue settings are found at attach and written back before detach. */
static void attach(void)
{
	dev = loop_attach(IMAGE_BYTES, 0, LOOP_RESTORE_QUEUE);
}

/* ------------------------------------------------------------- plan */

/* A P400 plan for our loop device; site, when given, adds its knobs to the profile's. */
static void plan_for_loop_with(struct sp_plan *plan, const struct sp_profile_knob *site,
			       size_t n_site)
{
	struct sp_profile_set *profiles = NULL;
	struct sp_profile *profile = malloc(sizeof(*profile));
	struct sp_spec spec = { 0 };
	struct sp_facts facts;
	struct sp_error err = { 0 };
	struct utsname u;

	assert_int_equal(sp_profiles_embedded(&profiles, &err), 0);
	if (sp_probe_facts(NULL, dev, &facts, &err) < 0)
		fail_msg("probe: %s", err.message);
	assert_int_equal(uname(&u), 0);
	snprintf(spec.controller, sizeof(spec.controller), "hp-p400");
	spec.level = SP_LEVEL_10;
	spec.disks = 8;
	spec.chunk_bytes = 256 * 1024;
	assert_int_equal(sp_parse_kernel(u.release, &spec.kernel, &err), 0);
	sp_plan_release(plan); /* the one the test before made: its knobs and warnings */
	assert_non_null(profile);
	*profile = *sp_profiles_find(profiles, "hp-p400");
	assert_true(profile->n_knobs + n_site <= SP_PROFILE_MAX_KNOBS);
	for (size_t i = 0; i < n_site; i++)
		profile->knobs[profile->n_knobs++] = site[i];
	if (sp_plan_make(&spec, profile, &facts, plan, &err) < 0)
		fail_msg("plan: %s", err.message);
	sp_facts_release(&facts);
	sp_profiles_free(profiles);
	free(profile);
}

static void plan_for_loop(struct sp_plan *plan)
{
	plan_for_loop_with(plan, NULL, 0);
}

static void add_knob(struct sp_plan *plan, const char *attr, const char *value)
{
	struct sp_tuning *t = sp_plan_add_tuning(plan);

	assert_non_null(t);
	t->kind = SP_TUNING_SYSFS;
	snprintf(t->device, sizeof(t->device), "%s", kernel_name());
	snprintf(t->attribute, sizeof(t->attribute), "%s", attr);
	/* beyond what a profile may ask too: what the kernel does with it is the test */
	t->value = sp_value_number(strtoull(value, NULL, 10));
	snprintf(t->why, sizeof(t->why), "test-tuning-live");
}

/* Never let the step near another device's sysfs. */
static void assert_only_ours(const struct sp_plan *plan)
{
	char prefix[128], path[SP_PATH_MAX];

	snprintf(prefix, sizeof(prefix), "/sys/block/%s/", kernel_name());
	for (size_t i = 0; i < plan->n_tuning; i++) {
		sp_tuning_path(&plan->tuning[i], path, sizeof(path));
		if (strncmp(path, prefix, strlen(prefix)) != 0 || strstr(path, "/../"))
			fail_msg("refusing to run: '%s' is not under %s", path, prefix);
	}
}

/* ------------------------------------------------------------- step */

static struct sp_plan plan;
static struct sp_step_result res;
static char root[320];

static bool has_line(const char *text)
{
	for (size_t i = 0; i < res.n_lines; i++)
		if (strstr(res.lines[i], text))
			return true;
	return false;
}

static void dump(void)
{
	print_message("status %d, summary '%s', error '%s'\n", res.status, res.summary,
		      res.error.message);
	for (size_t i = 0; i < res.n_lines; i++)
		print_message("  %s\n", res.lines[i]);
}

static int run_step(bool do_apply)
{
	struct sp_ctx ctx = { .plan = &plan, .disk_path = plan.device.path, .root = root };
	int r;

	assert_only_ours(&plan);
	sp_step_result_clear(&res);
	res.name = sp_step_tuning.name;
	res.status = SP_STEP_UNCHANGED;
	r = do_apply ? sp_step_tuning.apply(&ctx, &res) : sp_step_tuning.verify(&ctx, &res);
	if (r < 0 && do_apply == false) {
		dump();
		fail_msg("verify could not look: %s", res.error.message);
	}
	return r;
}

static void expect_knob(const char *knob, const char *want)
{
	char have[256];

	loop_queue_read(dev, knob, have, sizeof(have));
	if (strcmp(have, want) != 0)
		fail_msg("%s on %s reads '%s', expected '%s'", knob, dev, have, want);
}

static void test_live_tuning(void **state)
{
	char script[SP_PATH_MAX], name[128], out[4096], want[SP_MSG_MAX];
	struct sp_identities ids;

	(void)state;
	attach();
	plan_for_loop(&plan);
	assert_string_equal(plan.device.kernel_name, kernel_name());
	/* the member knobs of seed 002, on our own device */
	add_knob(&plan, "queue/max_sectors_kb", "128");
	add_knob(&plan, "queue/nr_requests", "64");
	add_knob(&plan, "device/queue_depth", "1");
	snprintf(root, sizeof(root), "%s/root", loop_dir());
	assert_int_equal(mkdir(root, 0755), 0);

	if (run_step(true) < 0) {
		dump();
		fail_msg("apply failed: %s", res.error.message);
	}
	snprintf(want, sizeof(want), "skip /sys/block/%s/device/queue_depth: not present",
		 kernel_name());
	if (!has_line(want)) {
		dump();
		fail_msg("no line '%s'", want);
	}
	expect_knob("scheduler", "none");
	expect_knob("read_ahead_kb", "4096");
	expect_knob("max_sectors_kb", "128");
	expect_knob("nr_requests", "64");
	assert_int_equal(run_step(false), 0);
	assert_int_equal(res.status, SP_STEP_UNCHANGED);

	/* someone changes read-ahead: check names it */
	assert_int_equal(loop_queue_write(dev, "read_ahead_kb", "128"), 0);
	assert_int_equal(run_step(false), 0);
	assert_int_equal(res.status, SP_STEP_DRIFT);
	snprintf(want, sizeof(want), "queue/read_ahead_kb on %s is 128 KiB (blockdev --setra 256), the plan says 4096 KiB",
		 kernel_name());
	assert_true(has_line(want));

	/* the installed script puts it back, as a udev rule would call it */
	sp_identities_of(&plan.device, NULL, &ids);
	assert_int_equal(sp_tune_script_name(&plan, &ids, name, sizeof(name)), 0);
	snprintf(script, sizeof(script), "%s/usr/local/sbin/%s", root, name);
	assert_int_equal(unsetenv("SYSFS_ROOT"), 0);
	assert_int_equal(run_argv((const char *const[]){ script, kernel_name(), NULL }, out,
				  sizeof(out)),
			 0);
	snprintf(want, sizeof(want),
		 "stripeplan-tune: skip /sys/block/%s/device/queue_depth: not present\n",
		 kernel_name());
	assert_string_equal(out, want);
	expect_knob("read_ahead_kb", "4096");
	assert_int_equal(run_step(false), 0);
	assert_int_equal(res.status, SP_STEP_UNCHANGED);
	/* and a second run finds nothing to do */
	assert_int_equal(run_argv((const char *const[]){ script, NULL }, out, sizeof(out)), 0);
	assert_string_equal(out, want);
}

/*
 * Recent kernels clamp max_sectors_kb to max_hw_sectors_kb (older ones
 * said EINVAL): a clamp is a warning, and check accepts it.
 */
static void test_kernel_clamp(void **state)
{
	char want[SP_MSG_MAX], hw[64];

	(void)state;
	attach();
	plan_for_loop(&plan);
	add_knob(&plan, "queue/max_sectors_kb", "99999999");
	snprintf(root, sizeof(root), "%s/root-clamp", loop_dir());
	assert_int_equal(mkdir(root, 0755), 0);
	if (run_step(true) < 0) {
		snprintf(want, sizeof(want),
			 "cannot set 'queue/max_sectors_kb' on '%s' to 99999999: Invalid argument",
			 kernel_name());
		assert_string_equal(res.error.message, want);
		return;
	}
	loop_queue_read(dev, "max_hw_sectors_kb", hw, sizeof(hw));
	snprintf(want, sizeof(want), "kernel clamped queue/max_sectors_kb on %s to %s (asked 99999999)",
		 kernel_name(), hw);
	assert_true(has_line(want));
	assert_int_equal(run_step(false), 0);
	assert_int_equal(res.status, SP_STEP_UNCHANGED);
	assert_true(has_line(want));
}

static const char *planned(const char *attribute)
{
	static char text[SP_VALUE_WORD_MAX];

	for (size_t i = 0; i < plan.n_tuning; i++)
		if (!strcmp(plan.tuning[i].attribute, attribute))
			return sp_value_format(&plan.tuning[i].value, text, sizeof(text));
	return NULL;
}

/*
 * The probe reads the bounds the kernel holds max_sectors_kb and
 * nr_requests to (queue/max_hw_sectors_kb, mq/<n>/nr_tags); a site
 * profile asking more than this disk takes is planned at the disk's
 * bounds, and applying that plan works where the profile's own values
 * fail (nr_requests 4096 with scheduler none: EINVAL on every kernel,
 * test_kernel_refusal).
 */
static void test_bounds_from_probe(void **state)
{
	const struct sp_profile_knob site[] = {
		{ .target = SP_TARGET_DEVICE, .knob = "queue/nr_requests",
		  .value = { .kind = SP_VALUE_NUMBER, .number = 4096 }, .why = "site",
		  .on_by_default = true },
		{ .target = SP_TARGET_DEVICE, .knob = "queue/max_sectors_kb",
		  .value = { .kind = SP_VALUE_NUMBER, .number = 99999999 }, .why = "site",
		  .on_by_default = true },
	};
	char hw[64], tags[64], path[SP_PATH_MAX];
	struct sp_facts facts;
	struct sp_error err = { 0 };

	(void)state;
	attach();
	loop_queue_read(dev, "max_hw_sectors_kb", hw, sizeof(hw));
	snprintf(path, sizeof(path), "/sys/block/%s/mq/0/nr_tags", kernel_name());
	assert_int_equal(sp_sysfs_read(path, tags, sizeof(tags)), 0);
	if (sp_probe_facts(NULL, dev, &facts, &err) < 0)
		fail_msg("probe: %s", err.message);
	assert_int_equal(facts.max_hw_sectors_kib, strtoull(hw, NULL, 10));
	assert_int_equal(facts.tag_depth, strtoull(tags, NULL, 10));
	sp_facts_release(&facts);

	plan_for_loop_with(&plan, site, ARRAY_SIZE(site));
	assert_string_equal(planned("queue/scheduler"), "none");
	assert_string_equal(planned("queue/nr_requests"), tags);
	assert_string_equal(planned("queue/max_sectors_kb"), hw);
	snprintf(root, sizeof(root), "%s/root-bounds", loop_dir());
	assert_int_equal(mkdir(root, 0755), 0);
	if (run_step(true) < 0) {
		dump();
		fail_msg("apply failed: %s", res.error.message);
	}
	expect_knob("nr_requests", tags);
	expect_knob("max_sectors_kb", hw);
	assert_int_equal(run_step(false), 0);
	assert_int_equal(res.status, SP_STEP_UNCHANGED);
}

/* What the kernel refuses is an error naming knob, device and value. */
static void test_kernel_refusal(void **state)
{
	char want[SP_MSG_MAX];

	(void)state;
	attach();
	plan_for_loop(&plan);
	/* beyond the tag depth (no scheduler) and MAX_SCHED_RQ alike */
	add_knob(&plan, "queue/nr_requests", "100000");
	snprintf(root, sizeof(root), "%s/root-refusal", loop_dir());
	assert_int_equal(mkdir(root, 0755), 0);
	if (run_step(true) != -EINVAL) {
		dump();
		fail_msg("apply did not fail with EINVAL");
	}
	assert_int_equal(res.status, SP_STEP_FAILED);
	assert_int_equal(res.error.kind, SP_ERR_FAILED);
	snprintf(want, sizeof(want),
		 "cannot set 'queue/nr_requests' on '%s' to 100000: Invalid argument",
		 kernel_name());
	assert_string_equal(res.error.message, want);
}

/* ---------------------------------------------------------- fixture */

static int teardown_test(void **state)
{
	(void)state;
	sp_step_result_clear(&res);
	loop_cleanup();
	dev = NULL;
	return 0;
}

static int group_setup(void **state)
{
	(void)state;
	return loop_group_setup("tuning-live");
}

static int group_teardown(void **state)
{
	(void)state;
	return loop_group_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_live_tuning, teardown_test),
		cmocka_unit_test_teardown(test_kernel_clamp, teardown_test),
		cmocka_unit_test_teardown(test_kernel_refusal, teardown_test),
		cmocka_unit_test_teardown(test_bounds_from_probe, teardown_test),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
