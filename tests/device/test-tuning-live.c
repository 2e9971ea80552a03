/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tuning step against the real kernel: a loop device this test
 * attaches, probed and planned like a P400 LUN, tuned through the real
 * /sys/block/loopN/queue/ (SP_SYSFS_ROOT unset), read back, then tuned
 * again by the generated script.  Runs as root.
 *
 * SAFETY: the step is run only on a plan whose every knob lies under
 * /sys/block/<our loop device>/; persistence files go to a scratch root.
 * A loop device's queue settings outlive losetup --detach, so the values
 * found at attach time are written back before detaching, on every way
 * out, and only while the device still serves our image.
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

#include "exec.h"
#include "format.h"
#include "probe.h"
#include "steps.h"

#define IMAGE_BYTES (512U * 1024U * 1024U) /* sparse; XFS wants 300 MiB */

/* Restored in this order: a new scheduler resets nr_requests. */
static const char *const saved_knobs[] = { "scheduler", "nr_requests", "max_sectors_kb",
					   "read_ahead_kb" };
#define N_SAVED (sizeof(saved_knobs) / sizeof(saved_knobs[0]))

/* Test-only state: where we work and what to undo. */
static char test_dir[256];
static struct {
	char dev[64];          /* /dev/loopN, "" when none */
	char img[SP_PATH_MAX];
	char saved[N_SAVED][256];
} loop;

static int run_argv(const char *const *argv, char *out, size_t len)
{
	struct sp_exec_result ran;
	struct sp_error err = { 0 };
	int status;

	if (sp_exec(argv, &ran, &err) < 0) {
		print_error("%s\n", err.message);
		return -1;
	}
	status = ran.exit_status;
	if (out)
		snprintf(out, len, "%s", ran.output);
	else if (status)
		print_message("'%s' exited %d: %s", argv[0], status, ran.output);
	sp_exec_result_free(&ran);
	return status;
}

#define RUN(...) run_argv((const char *const[]){ __VA_ARGS__, NULL }, NULL, 0)

static const char *kernel_name(void)
{
	return loop.dev + strlen("/dev/");
}

static void attr_path(const char *dev, const char *knob, char *buf, size_t len)
{
	snprintf(buf, len, "/sys/block/%s/queue/%s", dev + strlen("/dev/"), knob);
}

/* The attribute's first line, "" when it cannot be read. */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static int write_line(const char *path, const char *value)
{
	FILE *f = fopen(path, "we");
	int r;

	if (!f)
		return -errno;
	fprintf(f, "%s\n", value);
	r = fclose(f) == 0 ? 0 : -errno;
	return r;
}

static void queue_knob(const char *knob, char *buf, size_t len)
{
	char path[SP_PATH_MAX];

	attr_path(loop.dev, knob, path, sizeof(path));
	read_line(path, buf, len);
}

static bool still_ours(void)
{
	char path[SP_PATH_MAX], backing[SP_PATH_MAX];

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", kernel_name());
	read_line(path, backing, sizeof(backing));
	return loop.dev[0] && !strcmp(backing, loop.img);
}

/* "none [mq-deadline]" -> "mq-deadline" */
static void active(char *value)
{
	char *open = strchr(value, '['), *close = open ? strchr(open, ']') : NULL;

	if (close) {
		*close = '\0';
		memmove(value, open + 1, strlen(open + 1) + 1);
	}
}

static void save_knobs(void)
{
	for (size_t i = 0; i < N_SAVED; i++) {
		queue_knob(saved_knobs[i], loop.saved[i], sizeof(loop.saved[i]));
		active(loop.saved[i]);
	}
}

static void restore_knobs(void)
{
	char path[SP_PATH_MAX];

	for (size_t i = 0; i < N_SAVED; i++) {
		if (!loop.saved[i][0])
			continue;
		attr_path(loop.dev, saved_knobs[i], path, sizeof(path));
		if (write_line(path, loop.saved[i]) < 0)
			print_error("cannot restore %s to '%s'\n", path, loop.saved[i]);
	}
}

static void cleanup(void)
{
	if (loop.dev[0] && still_ours()) {
		restore_knobs();
		RUN("losetup", "--detach", loop.dev);
	}
	if (loop.img[0])
		unlink(loop.img);
	memset(&loop, 0, sizeof(loop));
}

static const char *loop_attach(void)
{
	char out[256];
	int fd;

	snprintf(loop.img, sizeof(loop.img), "%s/img.XXXXXX", test_dir);
	fd = mkstemp(loop.img);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, IMAGE_BYTES), 0);
	close(fd);
	assert_int_equal(run_argv((const char *const[]){ "losetup", "--find", "--show", loop.img,
							 NULL },
				  out, sizeof(out)),
			 0);
	out[strcspn(out, "\n")] = '\0';
	assert_true(!strncmp(out, "/dev/loop", 9) && strlen(out) < sizeof(loop.dev));
	memcpy(loop.dev, out, strlen(out) + 1);
	save_knobs();
	return loop.dev;
}

/* ------------------------------------------------------------- plan */

static void plan_for_loop(struct sp_plan *plan)
{
	struct sp_profile_set *profiles = NULL;
	struct sp_spec spec = { 0 };
	struct sp_facts facts;
	struct sp_error err = { 0 };
	struct utsname u;

	assert_int_equal(sp_profiles_load(NULL, &profiles, &err), 0);
	if (sp_probe_facts(loop.dev, &facts, &err) < 0)
		fail_msg("probe: %s", err.message);
	assert_int_equal(uname(&u), 0);
	snprintf(spec.controller, sizeof(spec.controller), "hp-p400");
	spec.level = SP_LEVEL_10;
	spec.disks = 8;
	spec.chunk_bytes = 256 * 1024;
	assert_int_equal(sp_parse_kernel(u.release, &spec.kernel, &err), 0);
	if (sp_plan_make(&spec, sp_profiles_find(profiles, "hp-p400"), &facts, plan, &err) < 0)
		fail_msg("plan: %s", err.message);
	sp_profiles_free(profiles);
}

static void add_knob(struct sp_plan *plan, const char *attr, const char *value)
{
	struct sp_tuning *t = &plan->tuning[plan->n_tuning++];

	snprintf(t->path, sizeof(t->path), "/sys/block/%s/%s", kernel_name(), attr);
	snprintf(t->value, sizeof(t->value), "%s", value);
	snprintf(t->kind, sizeof(t->kind), "sysfs");
	snprintf(t->why, sizeof(t->why), "test-tuning-live");
}

/* Never let the step near another device's sysfs. */
static void assert_only_ours(const struct sp_plan *plan)
{
	char prefix[128];

	snprintf(prefix, sizeof(prefix), "/sys/block/%s/", kernel_name());
	for (size_t i = 0; i < plan->n_tuning; i++)
		if (strncmp(plan->tuning[i].path, prefix, strlen(prefix)) != 0)
			fail_msg("refusing to run: '%s' is not under %s", plan->tuning[i].path,
				 prefix);
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

	queue_knob(knob, have, sizeof(have));
	active(have);
	if (strcmp(have, want) != 0)
		fail_msg("%s on %s reads '%s', expected '%s'", knob, loop.dev, have, want);
}

static void test_live_tuning(void **state)
{
	char script[SP_PATH_MAX], name[128], out[4096], want[SP_MSG_MAX], path[SP_PATH_MAX];

	(void)state;
	loop_attach();
	plan_for_loop(&plan);
	assert_string_equal(plan.device.kernel_name, kernel_name());
	/* the member knobs of seed 002, on our own device */
	add_knob(&plan, "queue/max_sectors_kb", "128");
	add_knob(&plan, "queue/nr_requests", "64");
	add_knob(&plan, "device/queue_depth", "1");
	snprintf(root, sizeof(root), "%s/root", test_dir);
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
	attr_path(loop.dev, "read_ahead_kb", path, sizeof(path));
	assert_int_equal(write_line(path, "128"), 0);
	assert_int_equal(run_step(false), 0);
	assert_int_equal(res.status, SP_STEP_DRIFT);
	snprintf(want, sizeof(want), "queue/read_ahead_kb on %s is 128, the plan says 4096",
		 kernel_name());
	assert_true(has_line(want));

	/* the installed script puts it back, as a udev rule would call it */
	assert_int_equal(sp_tune_script_name(&plan, name, sizeof(name)), 0);
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
	loop_attach();
	plan_for_loop(&plan);
	add_knob(&plan, "queue/max_sectors_kb", "99999999");
	snprintf(root, sizeof(root), "%s/root-clamp", test_dir);
	assert_int_equal(mkdir(root, 0755), 0);
	if (run_step(true) < 0) {
		snprintf(want, sizeof(want),
			 "cannot set 'queue/max_sectors_kb' on '%s' to 99999999: Invalid argument",
			 kernel_name());
		assert_string_equal(res.error.message, want);
		return;
	}
	queue_knob("max_hw_sectors_kb", hw, sizeof(hw));
	snprintf(want, sizeof(want), "kernel clamped queue/max_sectors_kb on %s to %s (asked 99999999)",
		 kernel_name(), hw);
	assert_true(has_line(want));
	assert_int_equal(run_step(false), 0);
	assert_int_equal(res.status, SP_STEP_UNCHANGED);
	assert_true(has_line(want));
}

/* What the kernel refuses is an error naming knob, device and value. */
static void test_kernel_refusal(void **state)
{
	char want[SP_MSG_MAX];

	(void)state;
	loop_attach();
	plan_for_loop(&plan);
	/* beyond the tag depth (no scheduler) and MAX_SCHED_RQ alike */
	add_knob(&plan, "queue/nr_requests", "100000");
	snprintf(root, sizeof(root), "%s/root-refusal", test_dir);
	assert_int_equal(mkdir(root, 0755), 0);
	if (run_step(true) != -EINVAL) {
		dump();
		fail_msg("apply did not fail with EINVAL");
	}
	assert_int_equal(res.status, SP_STEP_FAILED);
	assert_int_equal(res.error.exit_code, SP_EXIT_FAILED);
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
	cleanup();
	return 0;
}

static int group_setup(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		/* CI runs device tests as root: a skip would hide a broken test. */
		print_error("test-tuning-live must run as root (it attaches loop devices)\n");
		return -1;
	}
	unsetenv("SP_SYSFS_ROOT");
	snprintf(test_dir, sizeof(test_dir), "%s/stripeplan-tuning.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(test_dir))
		return -1;
	/* Also on exit() paths cmocka does not route through teardown. */
	atexit(cleanup);
	return 0;
}

/* Fails the group if an image of ours is still attached to a loop device. */
static int group_teardown(void **state)
{
	char out[4096];

	(void)state;
	cleanup();
	run_argv((const char *const[]){ "losetup", "--list", "--noheadings", "--output",
					"BACK-FILE", NULL },
		 out, sizeof(out));
	RUN("rm", "-rf", "--one-file-system", test_dir);
	if (strstr(out, test_dir)) {
		print_error("an image under %s is still attached:\n%s", test_dir, out);
		return -1;
	}
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_live_tuning, teardown_test),
		cmocka_unit_test_teardown(test_kernel_clamp, teardown_test),
		cmocka_unit_test_teardown(test_kernel_refusal, teardown_test),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
