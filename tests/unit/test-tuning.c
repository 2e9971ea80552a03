/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tuning step and its persistence files, without root: plans from
 * the real planner, applied to COPIES of the fake sysfs trees in
 * fixtures/sysfs/ (the step's struct sp_sysfs) with a scratch directory as the target
 * root.  Also renders the tune script, udev rule and modprobe.d file for
 * the seed plans and compares them with tests/cli/golden/tuning-*
 * (UPDATE_GOLDEN=1 rewrites them; tests/cli/tuning-goldens.sh runs
 * shellcheck on them and runs the scripts against the fake trees).
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
#include <unistd.h>

#include <cmocka.h>

#include "exec.h"
#include "format.h"
#include "inputs.h"
#include "steps.h"

static struct sp_profile_set *profiles;
static char work[256];  /* per-test scratch: sysfs copy and target root */
static char sysfs[320]; /* the fake tree this test writes into */
static char root[320];  /* the target root for persistence files */
static struct sp_plan plan;
static struct sp_step_result res;

/* The identities the plan's own facts hold: what plan --format renders
 * from (the step takes the md array's from what it probes now). */
static const struct sp_identities *ids_of(const struct sp_plan *p)
{
	static struct sp_identities ids;

	sp_identities_of(&p->device, NULL, &ids);
	return &ids;
}

/* ------------------------------------------------------------ helpers */

static int run_argv(const char *const *argv, char *out, size_t len)
{
	struct sp_exec_result ran;
	struct sp_error err = { 0 };
	int status;

	if (sp_exec(argv, NULL, &ran, &err) < 0) {
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

/* the tree the step reads and writes instead of /sys */
static struct sp_sysfs fake_sysfs;

static const char *env_dir(const char *name)
{
	const char *dir = getenv(name);

	assert_non_null(dir); /* set by ctest; run the test through ctest */
	return dir;
}

/* A fresh copy of fixtures/sysfs/<tree> as the step's sysfs, and an empty root. */
static void use_tree(const char *tree)
{
	char src[SP_PATH_MAX];

	snprintf(src, sizeof(src), "%s/sysfs/%s", env_dir("FIXTURES"), tree);
	snprintf(sysfs, sizeof(sysfs), "%s/sysfs", work);
	snprintf(root, sizeof(root), "%s/root", work);
	assert_int_equal(RUN("cp", "-R", src, sysfs), 0);
	assert_int_equal(mkdir(root, 0755), 0);
	fake_sysfs.root = sysfs;
}

static void read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		fail_msg("cannot open '%s'", path);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The knob's content in the fake tree, trailing newline removed. */
static const char *knob(const char *rel)
{
	static char buf[256];
	char path[SP_PATH_MAX];

	snprintf(path, sizeof(path), "%s/sys/block/%s", sysfs, rel);
	read_text(path, buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static void set_knob(const char *rel, const char *value)
{
	char path[SP_PATH_MAX], line[64];

	snprintf(path, sizeof(path), "%s/sys/block/%s", sysfs, rel);
	snprintf(line, sizeof(line), "%s\n", value);
	write_text(path, line);
}

static bool has_line(const struct sp_step_result *r, const char *text)
{
	for (size_t i = 0; i < r->n_lines; i++)
		if (strstr(r->lines[i], text))
			return true;
	return false;
}

/* "<text><root>": summaries end with the target root */
static void expect_summary(const char *text)
{
	char want[SP_MSG_MAX];

	snprintf(want, sizeof(want), "%s%s", text, root);
	assert_string_equal(res.summary, want);
}

static void dump(const struct sp_step_result *r)
{
	print_message("status %d, summary '%s', error '%s'\n", r->status, r->summary,
		      r->error.message);
	for (size_t i = 0; i < r->n_lines; i++)
		print_message("  %s\n", r->lines[i]);
}

static void expect_line(const struct sp_step_result *r, const char *text)
{
	if (!has_line(r, text)) {
		dump(r);
		fail_msg("no line contains '%s'", text);
	}
}

/* ------------------------------------------------------------- plans */

struct req {
	const char *controller, *level, *path, *size, *kernel, *members;
	unsigned disks;
	const char *chunk;
};

static const struct req md_seed = { "md", "raid5", "/dev/md3", "1318680576K", "6.1.0",
				    "sdb,sdc,sdd,sde,sdf,sdg,sdh,sdi,sdj,sdk", 10, "1M" };
static const struct req md_two = { "md", "raid5", "/dev/md3", "1318680576K", "6.1.0", "sdb,sdc",
				   10, "1M" };
static const struct req lsi_seed = { "lsi-megaraid-475", "5", "/dev/sda", "33G", "6.1.0", NULL,
				     3, "64K" };
static const struct req p400_cciss = { "hp-p400", "10", "/dev/cciss/c0d0", "2398G", "2.6.18",
				       NULL, 8, "256K" };
static const struct req p400_sdb = { "hp-p400", "10", "/dev/sdb", "2398G", "6.1.0", NULL, 8,
				     "256K" };

static void add_members(struct sp_spec *spec, const char *list)
{
	char *copy = strdup(list), *save = NULL;

	assert_non_null(copy);
	for (char *m = strtok_r(copy, ",", &save); m; m = strtok_r(NULL, ",", &save))
		snprintf(spec->members[spec->n_members++], SP_NAME_MAX, "%s", m);
	free(copy);
}

/* md's members NAMES (each its own disk), appended */
static void add_md_members(struct sp_md_facts *md, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct sp_md_member m = { 0 };

		snprintf(m.name, SP_NAME_MAX, "%s", names[i]);
		snprintf(m.disk, SP_NAME_MAX, "%s", names[i]);
		assert_int_equal(sp_md_member_add(md, &m), 0);
	}
}

static void make_plan(const struct req *q, struct sp_plan *out)
{
	const struct sp_profile *profile = sp_profiles_find(profiles, q->controller);
	static struct sp_spec spec;
	struct sp_facts facts = { 0 };
	struct sp_error err = { 0 };

	assert_non_null(profile);
	memset(&spec, 0, sizeof(spec));
	snprintf(spec.controller, sizeof(spec.controller), "%s", q->controller);
	assert_int_equal(sp_parse_level(q->level, &spec.level, &err), 0);
	assert_int_equal(sp_parse_kernel(q->kernel, &spec.kernel, &err), 0);
	spec.disks = q->disks;
	assert_int_equal(sp_parse_size(q->chunk, "chunk", &spec.chunk_bytes, &err), 0);
	snprintf(spec.mountpoint, sizeof(spec.mountpoint), "/data");
	/* the field report's whole recipe: every kind of knob (module options,
	 * md sync speeds, queue_depth) goes through the renderers */
	spec.tuning_recipe = SP_TUNING_FIELD_REPORT;
	if (q->members)
		add_members(&spec, q->members);
	snprintf(facts.path, sizeof(facts.path), "%s", q->path);
	assert_int_equal(sp_kernel_name_from_path(facts.path, facts.kernel_name,
						  sizeof(facts.kernel_name), &err),
			 0);
	facts.offline = true;
	assert_int_equal(sp_parse_size(q->size, "size", &facts.size_bytes, &err), 0);
	facts.logical_sector_bytes = facts.physical_sector_bytes = 512;
	sp_plan_release(out);
	if (sp_plan_make(&spec, profile, &facts, out, &err) < 0)
		fail_msg("planner: %s", err.message);
}

/* --------------------------------------------------------------- step */

static void ctx_for(struct sp_ctx *ctx, bool dry_run)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->plan = &plan;
	ctx->disk_path = plan.device.path;
	ctx->root = root;
	ctx->dry_run = dry_run;
	ctx->sysfs = &fake_sysfs;
}

static int apply(bool dry_run)
{
	struct sp_ctx ctx;

	ctx_for(&ctx, dry_run);
	sp_step_result_clear(&res);
	res.name = sp_step_tuning.name;
	return sp_step_tuning.apply(&ctx, &res);
}

static enum sp_step_status verify(void)
{
	struct sp_ctx ctx;
	int r;

	ctx_for(&ctx, false);
	sp_step_result_clear(&res);
	res.name = sp_step_tuning.name;
	res.status = SP_STEP_UNCHANGED;
	r = sp_step_tuning.verify(&ctx, &res);
	if (r < 0) {
		dump(&res);
		fail_msg("verify could not look: %s", res.error.message);
	}
	return res.status;
}

static void apply_ok(void)
{
	if (apply(false) < 0) {
		dump(&res);
		fail_msg("apply failed: %s", res.error.message);
	}
	assert_int_equal(res.status, SP_STEP_DONE);
}

/* The persistence file under root equals what the plan renders now. */
static void expect_artifact(const char *dir, const char *name, const char *want, mode_t mode)
{
	static char have[256 * 1024];
	char path[SP_PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s/%s", root, dir, name);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, mode);
	read_text(path, have, sizeof(have));
	assert_string_equal(have, want);
}

static void expect_rule_and_script(void)
{
	char rule_name[128], script_name[128];
	char *rule = sp_format_udev_rule(&plan, ids_of(&plan), NULL, 0);
	char *script = sp_format_tuning_script(&plan, ids_of(&plan));

	assert_int_equal(sp_udev_rule_name(&plan, ids_of(&plan), rule_name, sizeof(rule_name)), 0);
	assert_int_equal(sp_tune_script_name(&plan, ids_of(&plan), script_name, sizeof(script_name)), 0);
	expect_artifact("etc/udev/rules.d", rule_name, rule, 0644);
	expect_artifact("usr/local/sbin", script_name, script, 0755);
	free(rule);
	free(script);
}

static void test_md_apply_verify_drift(void **state)
{
	char path[SP_PATH_MAX];

	(void)state;
	make_plan(&md_two, &plan);
	use_tree("md");
	assert_int_equal(verify(), SP_STEP_DRIFT);
	expect_line(&res, "suboptimal: queue/read_ahead_kb on md3 is 6144 KiB (blockdev --setra 12288), the plan says 32768 KiB");

	apply_ok();
	assert_string_equal(knob("md3/queue/read_ahead_kb"), "32768");
	assert_string_equal(knob("md3/md/stripe_cache_size"), "16384");
	assert_string_equal(knob("md3/md/sync_speed_min"), "30000");
	assert_string_equal(knob("md3/md/sync_speed_max"), "30000");
	/* sdb's scheduler was mq-deadline already: not written */
	assert_string_equal(knob("sdb/queue/scheduler"), "[mq-deadline] kyber bfq none");
	assert_string_equal(knob("sdc/queue/scheduler"), "mq-deadline");
	assert_string_equal(knob("sdc/queue/max_sectors_kb"), "128");
	assert_string_equal(knob("sdc/queue/nr_requests"), "512");
	assert_string_equal(knob("sdc/device/queue_depth"), "1");
	expect_line(&res, "udev rule: matching by kernel name 'md3', 'sdb', 'sdc'");
	expect_line(&res, "wrote ");
	assert_non_null(strstr(res.summary, "11 knobs set, 1 already right, 0 not present"));
	expect_rule_and_script();
	snprintf(path, sizeof(path), "%s/etc/modprobe.d", root);
	assert_int_equal(access(path, F_OK), -1); /* md has no module options */

	assert_int_equal(verify(), SP_STEP_UNCHANGED);
	expect_summary("12 knobs live; udev rule + script in ");
}

/*
 * Values are numbers, compared as numbers (issue 21, rule 7): md writes
 * where a sync speed comes from beside it, the scheduler file lists every
 * scheduler; both are the plan's value, so verify matches and a second
 * apply writes nothing.
 */
static void test_values_compare_as_numbers(void **state)
{
	(void)state;
	make_plan(&md_two, &plan);
	use_tree("md");
	apply_ok();
	set_knob("md3/md/sync_speed_min", "30000 (local)");
	set_knob("md3/md/sync_speed_max", "30000 (system)");
	set_knob("sdc/queue/scheduler", "[mq-deadline] kyber bfq none");
	assert_int_equal(verify(), SP_STEP_UNCHANGED);
	apply_ok();
	assert_non_null(strstr(res.summary, "0 knobs set, 12 already right"));
	assert_string_equal(knob("md3/md/sync_speed_min"), "30000 (local)");
	/* another number is drift, whatever follows it */
	set_knob("md3/md/sync_speed_min", "3000 (local)");
	assert_int_equal(verify(), SP_STEP_DRIFT);
	expect_line(&res, "md/sync_speed_min on md3 is 3000 (local), the plan says 30000");
}

static void test_md_verify_names_drift(void **state)
{
	char path[SP_PATH_MAX];

	(void)state;
	make_plan(&md_two, &plan);
	use_tree("md");
	apply_ok();

	set_knob("md3/queue/read_ahead_kb", "128");
	assert_int_equal(verify(), SP_STEP_DRIFT);
	expect_line(&res, "suboptimal: queue/read_ahead_kb on md3 is 128 KiB (blockdev --setra 256), the plan says 32768 KiB");
	assert_int_equal(res.n_lines, 1);

	set_knob("md3/queue/read_ahead_kb", "32768");
	/* nr_requests is never lowered: blk-mq refuses what it cannot take
	 * (blk_mq_tag_update_depth()), so a lower one is drift */
	set_knob("sdb/queue/nr_requests", "128");
	assert_int_equal(verify(), SP_STEP_DRIFT);
	set_knob("sdb/queue/nr_requests", "512");

	/* a higher one, or another scheduler, is drift too */
	set_knob("sdb/queue/nr_requests", "1024");
	set_knob("sdc/queue/scheduler", "mq-deadline kyber [bfq] none");
	assert_int_equal(verify(), SP_STEP_DRIFT);
	expect_line(&res, "costly: queue/nr_requests on sdb is 1024, the plan says 512; fix: echo 512 > ");
	expect_line(&res, "costly: queue/scheduler on sdc is bfq, the plan says mq-deadline; fix: echo mq-deadline > ");

	/* persistence files: missing, edited, wrong mode */
	snprintf(path, sizeof(path), "%s/etc/udev/rules.d/60-stripeplan-md3.rules", root);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/usr/local/sbin/stripeplan-tune-md3", root);
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(verify(), SP_STEP_DRIFT);
	expect_line(&res, "/etc/udev/rules.d/60-stripeplan-md3.rules is missing");
	expect_line(&res, "/usr/local/sbin/stripeplan-tune-md3 has mode 0644, not 0755");

	/* apply repairs all of it, and a second apply changes nothing */
	apply_ok();
	assert_int_equal(verify(), SP_STEP_UNCHANGED);
	write_text(path, "#!/bin/sh\n");
	assert_int_equal(verify(), SP_STEP_DRIFT);
	expect_line(&res, "stripeplan-tune-md3 differs from what the plan renders");
	apply_ok();
	apply_ok();
	assert_non_null(strstr(res.summary, "0 knobs set, 12 already right"));
	assert_false(has_line(&res, "wrote "));
	expect_rule_and_script();
}

/* loop devices have no device/queue_depth; the seed's other 8 members
 * are not in the tree at all */
static void test_missing_knobs_are_skipped(void **state)
{
	char path[SP_PATH_MAX];

	(void)state;
	make_plan(&md_seed, &plan);
	use_tree("md");
	snprintf(path, sizeof(path), "%s/sys/block/sdc/device/queue_depth", sysfs);
	assert_int_equal(unlink(path), 0);
	apply_ok();
	expect_line(&res, "skip /sys/block/sdc/device/queue_depth: not present (only SCSI disks "
			  "have device/queue_depth; loop devices do not)");
	expect_line(&res, "skip /sys/block/sdd/queue/scheduler: not present");
	/* 33 skips do not fit: the last line says how many were left out */
	assert_int_equal(res.n_lines, SP_STEP_MAX_LINES);
	assert_non_null(strstr(res.lines[SP_STEP_MAX_LINES - 1], "... and "));
	assert_non_null(strstr(res.summary, "10 knobs set, 1 already right, 33 not present"));
	assert_string_equal(knob("sdb/device/queue_depth"), "1");

	assert_int_equal(verify(), SP_STEP_UNCHANGED);
	expect_summary("11 knobs live, 33 not present; udev rule + script in ");
}

static void test_cciss_tree(void **state)
{
	(void)state;
	make_plan(&p400_cciss, &plan);
	assert_string_equal(plan.device.kernel_name, "cciss!c0d0");
	use_tree("cciss");
	apply_ok();
	assert_string_equal(knob("cciss!c0d0/queue/scheduler"), "noop");
	assert_string_equal(knob("cciss!c0d0/queue/read_ahead_kb"), "4096");
	assert_string_equal(knob("cciss!c0d0/queue/nr_requests"), "128"); /* not in the plan */
	expect_line(&res, "udev rule: matching by kernel name 'cciss!c0d0'");
	expect_rule_and_script();
	assert_int_equal(verify(), SP_STEP_UNCHANGED);
	expect_summary("2 knobs live; udev rule + script in ");
}

static void test_dry_run_touches_nothing(void **state)
{
	char path[SP_PATH_MAX];

	(void)state;
	make_plan(&md_two, &plan);
	use_tree("md");
	assert_int_equal(apply(true), 0);
	assert_int_equal(res.status, SP_STEP_DRY_RUN);
	expect_line(&res, "write 32768 to /sys/block/md3/queue/read_ahead_kb (now 6144)");
	expect_line(&res, "write 1 to /sys/block/sdc/device/queue_depth (now 32)");
	snprintf(path, sizeof(path), "write %s/etc/udev/rules.d/60-stripeplan-md3.rules", root);
	expect_line(&res, path);
	assert_string_equal(knob("md3/queue/read_ahead_kb"), "6144");
	assert_string_equal(knob("sdc/queue/scheduler"), "mq-deadline kyber bfq [none]");
	snprintf(path, sizeof(path), "%s/etc", root);
	assert_int_equal(access(path, F_OK), -1);
}

/* Module options: modprobe.d only; a loaded module's value is reported. */
static void test_lsi_module_option(void **state)
{
	char path[SP_PATH_MAX];
	char *conf;

	(void)state;
	make_plan(&lsi_seed, &plan);
	use_tree("cciss"); /* no sda: its scheduler is skipped */
	snprintf(path, sizeof(path), "%s/sys/module/megaraid_mbox/parameters", sysfs);
	assert_int_equal(RUN("mkdir", "-p", path), 0);
	strcat(path, "/max_sectors");
	write_text(path, "64\n");
	apply_ok();
	expect_line(&res, "module option megaraid_mbox max_sectors=128 takes effect when the "
			  "module loads");
	expect_line(&res, "module megaraid_mbox is loaded with max_sectors=64; 128 takes effect");
	expect_line(&res, "skip /sys/block/sda/queue/scheduler: not present");
	conf = sp_format_modprobe_conf(&plan, ids_of(&plan));
	expect_artifact("etc/modprobe.d", "stripeplan.conf", conf, 0644);
	free(conf);
	expect_rule_and_script();
	assert_string_equal(knob("../module/megaraid_mbox/parameters/max_sectors"), "64");
	assert_int_equal(verify(), SP_STEP_UNCHANGED);
	assert_non_null(strstr(res.summary, "udev rule + script + modprobe.d options in "));
}

static void test_write_error_names_knob(void **state)
{
	char path[SP_PATH_MAX];

	(void)state;
	make_plan(&md_two, &plan);
	use_tree("md");
	snprintf(path, sizeof(path), "%s/sys/block/md3/queue/read_ahead_kb", sysfs);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/dev/full", path), 0);
	assert_int_equal(apply(false), -ENOSPC);
	assert_int_equal(res.status, SP_STEP_FAILED);
	assert_int_equal(res.error.kind, SP_ERR_FAILED);
	assert_string_equal(res.error.message, "cannot set 'queue/read_ahead_kb' on 'md3' to 32768: "
					       "No space left on device");
	snprintf(path, sizeof(path), "%s/etc", root);
	assert_int_equal(access(path, F_OK), -1);
}

static void test_bad_entries_are_refused(void **state)
{
	/* device, attribute: a hand-edited plan that climbs out of sysfs, names
	 * no device or attribute, or puts a space or a newline in a name */
	static const char *const bad[][2] = {
		{ "..", "../etc/passwd" }, { "sdb", "../../../etc/shadow" },
		{ "..", "../../etc/passwd" }, { "sdb", "" },
		{ "", "queue/x" },         { "sd b", "queue/x" },
		{ "sdb", "queue/x\n" },
	};
	char path[SP_PATH_MAX];

	(void)state;
	use_tree("md");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct sp_tuning *t;

		make_plan(&md_two, &plan);
		t = &plan.tuning[plan.n_tuning - 1];
		t->kind = SP_TUNING_SYSFS;
		snprintf(t->device, sizeof(t->device), "%s", bad[i][0]);
		snprintf(t->attribute, sizeof(t->attribute), "%s", bad[i][1]);
		assert_int_equal(apply(false), -EINVAL);
		assert_non_null(strstr(res.error.message, "is not a /sys/block or /sys/module path"));
	}
	make_plan(&md_two, &plan);
	/* a value is a number or a scheduler: a word (a module parameter's) with
	 * a newline is no value for a sysfs knob */
	plan.tuning[0].value = (struct sp_value){ .kind = SP_VALUE_WORD, .word = "1\n2" };
	assert_int_equal(apply(false), -EINVAL);
	snprintf(path, sizeof(path), "%s/etc", root);
	assert_int_equal(access(path, F_OK), -1);
	/* refused before anything was written */
	assert_string_equal(knob("md3/queue/read_ahead_kb"), "6144");
	assert_string_equal(knob("sdc/queue/scheduler"), "mq-deadline kyber bfq [none]");
}

static void test_root_must_exist(void **state)
{
	struct sp_ctx ctx;

	(void)state;
	make_plan(&p400_cciss, &plan);
	use_tree("cciss");
	ctx_for(&ctx, false);
	ctx.root = "/nonexistent/stripeplan-root";
	sp_step_result_clear(&res);
	assert_true(sp_step_tuning.apply(&ctx, &res) < 0);
	assert_string_equal(res.error.message,
			    "the target root '/nonexistent/stripeplan-root' is not a directory");
}

/* ---------------------------------------------------------- formatters */

/* The tune script looks the disk up by what the rule matched it by. */
static void expect_script_finds(const char *found_line)
{
	char *script = sp_format_tuning_script(&plan, ids_of(&plan));

	assert_non_null(script);
	if (!strstr(script, found_line))
		fail_msg("the script has no '%s':\n%s", found_line, script);
	free(script);
}

static void test_udev_matches_stable_identity(void **state)
{
	char warning[SP_MSG_MAX] = "stale";
	char *rule;

	(void)state;
	make_plan(&p400_sdb, &plan);
	snprintf(plan.device.wwn, sizeof(plan.device.wwn), "naa.600508b1001c5e8f3a2b4c6d7e8f9012");
	snprintf(plan.device.serial, sizeof(plan.device.serial), "PACCR9SZH1B4");
	rule = sp_format_udev_rule(&plan, ids_of(&plan), warning, sizeof(warning));
	assert_non_null(strstr(rule, "ACTION==\"add|change\", SUBSYSTEM==\"block\", "
				     "ENV{DEVTYPE}==\"disk\", "
				     "ATTRS{wwid}==\"naa.600508b1001c5e8f3a2b4c6d7e8f9012\", "
				     "ATTR{queue/scheduler}=\"none\", "
				     "ATTR{queue/read_ahead_kb}=\"4096\"\n"));
	assert_null(strstr(rule, "KERNEL=="));
	assert_string_equal(warning, "");
	free(rule);
	expect_script_finds("\nif found wwn 'naa.600508b1001c5e8f3a2b4c6d7e8f9012' "
			    "'the device'; then\n");
	/* nothing in the text names the kernel name: the files stay what
	 * check renders when the device comes back as another sdX */
	expect_script_finds("#   the device: the disk with WWN naa.600508b1001c5e8f3a2b4c6d7e8f9012 ");
	expect_script_finds("planned for the disk with WWN naa.600508b1001c5e8f3a2b4c6d7e8f9012\n");

	plan.device.wwn[0] = '\0';
	rule = sp_format_udev_rule(&plan, ids_of(&plan), warning, sizeof(warning));
	assert_non_null(strstr(rule, "ATTRS{serial}==\"PACCR9SZH1B4\", ATTR{queue/scheduler}"));
	free(rule);
	expect_script_finds("\nif found serial 'PACCR9SZH1B4' 'the device'; then\n");

	/* a glob character would make the match loose: fall back, and warn */
	snprintf(plan.device.serial, sizeof(plan.device.serial), "PACC*");
	rule = sp_format_udev_rule(&plan, ids_of(&plan), warning, sizeof(warning));
	assert_non_null(strstr(rule, "KERNEL==\"sdb\", ATTR{queue/scheduler}"));
	assert_string_equal(warning,
			    "matching by kernel name 'sdb': names can change across boots");
	free(rule);
	expect_script_finds("\nif found name 'sdb' 'the device'; then\n");
	expect_script_finds("#   sdb  the device, by kernel name: the plan knows no identity");
	expect_script_finds("planned for /dev/sdb\n");

	/* udev spells cciss!c0d0 as cciss/c0d0 */
	make_plan(&p400_cciss, &plan);
	rule = sp_format_udev_rule(&plan, ids_of(&plan), NULL, 0);
	assert_non_null(strstr(rule, "KERNEL==\"cciss/c0d0\", ATTR{queue/scheduler}=\"noop\""));
	free(rule);
}

/*
 * md: the array by its UUID (after mdadm's rules import MD_UUID), the
 * members by the WWN or serial probed at apply; a member without either
 * is the only kernel-name match, and the only one warned about.
 */
static void test_udev_md_identity(void **state)
{
	struct sp_facts *now = calloc(1, sizeof(*now));
	struct sp_md_facts *md = &now->md;
	char warning[SP_MSG_MAX] = "stale", name[64], path[SP_PATH_MAX], *rule;
	const char *const members[] = { "sdb", "sdc" };
	struct sp_ctx ctx;

	(void)state;
	use_tree("md");
	make_plan(&md_two, &plan);
	/* the plan was made offline: it knows no identity, so by name */
	rule = sp_format_udev_rule(&plan, ids_of(&plan), warning, sizeof(warning));
	assert_non_null(strstr(rule, "KERNEL==\"md3\", ATTR{queue/read_ahead_kb}"));
	assert_non_null(strstr(warning, "'md3', 'sdb', 'sdc'"));
	free(rule);

	/* apply probes the array and its members */
	md->present = true;
	snprintf(md->level, sizeof(md->level), "raid5");
	snprintf(md->uuid, sizeof(md->uuid), "3f1c2a9e:6b0d4e21:9a7f5c33:c2e81b04");
	add_md_members(md, members, 2);
	snprintf(md->members[0].wwn, SP_NAME_MAX, "naa.50014ee2b0000062");
	sp_facts_release(&plan.device);
	plan.device.md = *md;
	plan.device.md.members = NULL;
	plan.device.md.n_members = 0;
	for (size_t i = 0; i < md->n_members; i++)
		assert_int_equal(sp_md_member_add(&plan.device.md, &md->members[i]), 0);
	rule = sp_format_udev_rule(&plan, ids_of(&plan), warning, sizeof(warning));
	assert_non_null(strstr(rule, "ENV{DEVTYPE}==\"disk\", KERNEL==\"md*\", "
				     "ENV{MD_UUID}==\"3f1c2a9e:6b0d4e21:9a7f5c33:c2e81b04\", "
				     "ATTR{queue/read_ahead_kb}=\"32768\""));
	assert_non_null(strstr(rule, "ATTRS{wwid}==\"naa.50014ee2b0000062\", ATTR{queue/scheduler}"));
	assert_non_null(strstr(rule, "KERNEL==\"sdc\", ATTR{queue/scheduler}"));
	assert_null(strstr(rule, "KERNEL==\"md3\""));
	assert_string_equal(warning, "matching by kernel name 'sdc': names can change across boots");
	free(rule);
	snprintf(plan.device.md.members[1].serial, SP_NAME_MAX, "WD-WMAP41234567");
	rule = sp_format_udev_rule(&plan, ids_of(&plan), warning, sizeof(warning));
	assert_non_null(strstr(rule, "ATTRS{serial}==\"WD-WMAP41234567\", ATTR{queue/scheduler}"));
	assert_string_equal(warning, "");
	free(rule);
	expect_script_finds("\nif found md '3f1c2a9e:6b0d4e21:9a7f5c33:c2e81b04' 'the array'; then\n");
	expect_script_finds("\nif found wwn 'naa.50014ee2b0000062' 'md member'; then\n");
	expect_script_finds("\nif found serial 'WD-WMAP41234567' 'md member'; then\n");
	/* after 63-md-raid-arrays.rules, and named by the UUID it matches:
	 * the same file when the array comes back as md127 */
	assert_int_equal(sp_udev_rule_name(&plan, ids_of(&plan), name, sizeof(name)), 0);
	assert_string_equal(name, "65-stripeplan-md-3f1c2a9e-6b0d4e21-9a7f5c33-c2e81b04.rules");
	snprintf(plan.device.kernel_name, sizeof(plan.device.kernel_name), "md127");
	assert_int_equal(sp_udev_rule_name(&plan, ids_of(&plan), name, sizeof(name)), 0);
	assert_string_equal(name, "65-stripeplan-md-3f1c2a9e-6b0d4e21-9a7f5c33-c2e81b04.rules");
	assert_int_equal(sp_tune_script_name(&plan, ids_of(&plan), name, sizeof(name)), 0);
	assert_string_equal(name, "stripeplan-tune-md-3f1c2a9e-6b0d4e21-9a7f5c33-c2e81b04");

	/* the step writes the rule with what it probed now, not what the plan knew */
	make_plan(&md_two, &plan);
	ctx_for(&ctx, false);
	ctx.facts = now;
	sp_step_result_clear(&res);
	res.name = sp_step_tuning.name;
	assert_int_equal(sp_step_tuning.apply(&ctx, &res), 0);
	snprintf(path, sizeof(path),
		 "%s/etc/udev/rules.d/65-stripeplan-md-3f1c2a9e-6b0d4e21-9a7f5c33-c2e81b04.rules", root);
	{
		char text[8192];

		read_text(path, text, sizeof(text));
		assert_non_null(strstr(text, "ENV{MD_UUID}==\"3f1c2a9e:6b0d4e21:9a7f5c33:c2e81b04\""));
		assert_non_null(strstr(text, "ATTRS{wwid}==\"naa.50014ee2b0000062\""));
	}
	sp_facts_release(now);
	free(now);
}

static void test_file_names(void **state)
{
	char name[64];

	(void)state;
	make_plan(&p400_cciss, &plan);
	assert_int_equal(sp_udev_rule_name(&plan, ids_of(&plan), name, sizeof(name)), 0);
	assert_string_equal(name, "60-stripeplan-cciss-c0d0.rules");
	assert_int_equal(sp_tune_script_name(&plan, ids_of(&plan), name, sizeof(name)), 0);
	assert_string_equal(name, "stripeplan-tune-cciss-c0d0");
	assert_int_equal(sp_tune_script_name(&plan, ids_of(&plan), name, 10), -ENAMETOOLONG);

	/* named by what the rule matches: the WWN, else the serial; the
	 * kernel name only when there is neither */
	snprintf(plan.device.serial, sizeof(plan.device.serial), "PAC 1234/5");
	assert_int_equal(sp_udev_rule_name(&plan, ids_of(&plan), name, sizeof(name)), 0);
	assert_string_equal(name, "60-stripeplan-serial-PAC-1234-5.rules");
	snprintf(plan.device.wwn, sizeof(plan.device.wwn), "naa.600508b1001c5f6a");
	assert_int_equal(sp_udev_rule_name(&plan, ids_of(&plan), name, sizeof(name)), 0);
	assert_string_equal(name, "60-stripeplan-wwn-naa.600508b1001c5f6a.rules");
	snprintf(plan.device.kernel_name, sizeof(plan.device.kernel_name), "sdq");
	assert_int_equal(sp_tune_script_name(&plan, ids_of(&plan), name, sizeof(name)), 0);
	assert_string_equal(name, "stripeplan-tune-wwn-naa.600508b1001c5f6a");
	/* a value udev could not match literally is no identity */
	snprintf(plan.device.wwn, sizeof(plan.device.wwn), "naa.*");
	plan.device.serial[0] = '\0';
	assert_int_equal(sp_udev_rule_name(&plan, ids_of(&plan), name, sizeof(name)), 0);
	assert_string_equal(name, "60-stripeplan-sdq.rules");
}

static void test_modprobe_only_with_module_options(void **state)
{
	char *conf;

	(void)state;
	make_plan(&md_seed, &plan);
	conf = sp_format_modprobe_conf(&plan, ids_of(&plan));
	assert_string_equal(conf, "");
	free(conf);
	make_plan(&lsi_seed, &plan);
	conf = sp_format_modprobe_conf(&plan, ids_of(&plan));
	assert_non_null(strstr(conf, "\noptions megaraid_mbox max_sectors=128\n"));
	free(conf);
}

/* The modprobe.d file of a LUN with a WWN names the LUN by it, so that it
 * reads the same when the LUN comes back under another kernel name (check
 * compares the text); without one, by its path, as before. */
static void test_modprobe_names_identity(void **state)
{
	static struct sp_plan renamed;
	char *conf, *again;

	(void)state;
	make_plan(&lsi_seed, &plan);
	snprintf(plan.device.wwn, sizeof(plan.device.wwn), "naa.600508e000000000b6d2bfa2");
	conf = sp_format_modprobe_conf(&plan, ids_of(&plan));
	assert_non_null(strstr(conf, "the disk with WWN naa.600508e000000000b6d2bfa2"));
	assert_null(strstr(conf, "/dev/sda"));
	renamed = plan;
	snprintf(renamed.device.kernel_name, sizeof(renamed.device.kernel_name), "sdb");
	snprintf(renamed.device.path, sizeof(renamed.device.path), "/dev/sdb");
	again = sp_format_modprobe_conf(&renamed, ids_of(&renamed));
	assert_string_equal(conf, again);
	free(again);
	free(conf);
	make_plan(&lsi_seed, &plan);
	conf = sp_format_modprobe_conf(&plan, ids_of(&plan));
	assert_non_null(strstr(conf, "module options for /dev/sda ("));
	free(conf);
}

/*
 * A '!' in the path, and an entry whose value would need quoting: no
 * value does (numbers and scheduler names), so such an entry is left out
 * with a comment; the script passes shellcheck and tunes the rest.
 */
static void test_script_quoting(void **state)
{
	char script[SP_PATH_MAX], env[SP_PATH_MAX], out[4096];
	struct sp_tuning *t;
	char *text;

	(void)state;
	make_plan(&p400_cciss, &plan);
	use_tree("cciss");
	plan.tuning[1].value = (struct sp_value){ .kind = SP_VALUE_WORD,
						  .word = "it's $(id) `x` \"q\" \\" };
	t = sp_plan_add_tuning(&plan);
	assert_non_null(t);
	assert_int_equal(sp_tuning_from_path(SP_TUNING_SYSFS, "/sys/block/cciss!c0d0/queue/nr_requests",
					     t),
			 0);
	t->value = sp_value_number(64);
	text = sp_format_tuning_script(&plan, ids_of(&plan));
	assert_non_null(strstr(text, "# skipped, not a /sys/block knob stripeplan writes: "
				     "/sys/block/cciss!c0d0/queue/read_ahead_kb"));
	snprintf(script, sizeof(script), "%s/tune.sh", work);
	write_text(script, text);
	free(text);
	if (access("/usr/bin/shellcheck", X_OK) == 0 || access("/bin/shellcheck", X_OK) == 0)
		assert_int_equal(RUN("shellcheck", "-s", "sh", script), 0);
	else
		print_message("shellcheck not installed: not checked here (the cli test does)\n");

	snprintf(env, sizeof(env), "SYSFS_ROOT=%s", sysfs);
	assert_int_equal(run_argv((const char *const[]){ "env", env, "sh", script, NULL }, out,
				  sizeof(out)),
			 0);
	assert_string_equal(out, "");
	/* left out, and said so in the script */
	assert_string_equal(knob("cciss!c0d0/queue/read_ahead_kb"), "128");
	assert_string_equal(knob("cciss!c0d0/queue/nr_requests"), "64");
	assert_string_equal(knob("cciss!c0d0/queue/scheduler"), "noop");
	/* udev's %k spelling; another device's name tunes nothing */
	set_knob("cciss!c0d0/queue/nr_requests", "8");
	assert_int_equal(run_argv((const char *const[]){ "env", env, "sh", script, "sdb", NULL },
				  out, sizeof(out)),
			 0);
	assert_string_equal(knob("cciss!c0d0/queue/nr_requests"), "8");
	assert_int_equal(run_argv((const char *const[]){ "env", env, "sh", script, "cciss/c0d0",
							 NULL },
				  out, sizeof(out)),
			 0);
	assert_string_equal(knob("cciss!c0d0/queue/nr_requests"), "64");
}

/* -------------------------------------------------- one call, two paths */

/* stripeplan plan for the md fixture, in one more format */
static void plan_md_raid5(const char *format, const char *out_file, char *out, size_t len)
{
	char facts[SP_PATH_MAX];

	snprintf(facts, sizeof(facts), "%s/facts/md-raid5.json", env_dir("FIXTURES"));
	if (run_argv((const char *const[]){ env_dir("STRIPEPLAN"), "plan", "--controller", "md",
					    "--kernel", "6.1.0", "--mountpoint", "/r1", "--fs", "xfs",
					    "--facts", facts, "--format", format,
					    out_file ? "-o" : NULL, out_file, NULL },
		     out, len) != 0)
		fail_msg("stripeplan plan --format %s failed: %s", format, out ? out : "");
}

/*
 * plan --format udev and --format script print what apply writes and
 * check expects: all three render the plan and its identities with the
 * same calls (the md array's UUID and its members' WWNs, here from a
 * facts file the plan was made from and the step takes as probed now),
 * so the files match byte for byte, names included.
 */
static void test_plan_format_is_what_apply_writes(void **state)
{
	static char rule[256 * 1024], script[256 * 1024];
	char plan_file[SP_PATH_MAX], facts[SP_PATH_MAX], rule_name[128], script_name[128];
	struct sp_facts *now = calloc(1, sizeof(*now));
	struct sp_error err = { 0 };
	struct sp_ctx ctx;

	(void)state;
	assert_non_null(now);
	use_tree("md");
	snprintf(plan_file, sizeof(plan_file), "%s/plan.json", work);
	plan_md_raid5("json", plan_file, NULL, 0);
	plan_md_raid5("udev", NULL, rule, sizeof(rule));
	plan_md_raid5("script", NULL, script, sizeof(script));
	/* the identities are the array's, not kernel names */
	assert_non_null(strstr(rule, "ENV{MD_UUID}==\"3f1c2a9e:6b0d4e21:9a7f5c33:c2e81b04\""));
	assert_non_null(strstr(rule, "ATTRS{wwid}==\"naa.50014ee2b0000062\""));

	snprintf(facts, sizeof(facts), "%s/facts/md-raid5.json", env_dir("FIXTURES"));
	sp_plan_release(&plan);
	if (sp_plan_load_file(plan_file, &plan, &err) < 0 || sp_facts_load_json(facts, now, &err) < 0)
		fail_msg("%s", err.message);
	ctx_for(&ctx, false);
	ctx.facts = now;
	sp_step_result_clear(&res);
	res.name = sp_step_tuning.name;
	if (sp_step_tuning.apply(&ctx, &res) < 0) {
		dump(&res);
		fail_msg("apply failed: %s", res.error.message);
	}
	assert_int_equal(sp_udev_rule_name(&plan, ids_of(&plan), rule_name, sizeof(rule_name)), 0);
	assert_string_equal(rule_name, "65-stripeplan-md-3f1c2a9e-6b0d4e21-9a7f5c33-c2e81b04.rules");
	assert_int_equal(sp_tune_script_name(&plan, ids_of(&plan), script_name, sizeof(script_name)),
			 0);
	expect_artifact("etc/udev/rules.d", rule_name, rule, 0644);
	expect_artifact("usr/local/sbin", script_name, script, 0755);
	/* and check, which renders them again with what it probes, finds them so */
	sp_step_result_clear(&res);
	res.name = sp_step_tuning.name;
	res.status = SP_STEP_UNCHANGED;
	assert_int_equal(sp_step_tuning.verify(&ctx, &res), 0);
	if (res.status != SP_STEP_UNCHANGED) {
		dump(&res);
		fail_msg("check after apply: status %d", (int)res.status);
	}
	sp_facts_release(now);
	free(now);
}

/* -------------------------------------------------------------- goldens */

static void golden(const char *name, const char *text)
{
	static char want[256 * 1024];
	char path[SP_PATH_MAX];

	snprintf(path, sizeof(path), "%s/tests/cli/golden/%s", env_dir("SRCDIR"), name);
	if (getenv("UPDATE_GOLDEN") && !strcmp(getenv("UPDATE_GOLDEN"), "1")) {
		write_text(path, text);
		print_message("updated %s\n", name);
		return;
	}
	read_text(path, want, sizeof(want));
	if (strcmp(want, text) != 0)
		fail_msg("%s differs from its golden; UPDATE_GOLDEN=1 rewrites it:\n%s", name, text);
}

/* md_two as apply probes it: the array's UUID, one member's WWN, the
 * other's serial (tests/cli/tuning-goldens.sh moves them around) */
static void with_identities(struct sp_plan *p)
{
	struct sp_md_facts *md = &p->device.md;
	const char *const members[] = { "sdb", "sdc" };

	md->present = true;
	snprintf(md->level, sizeof(md->level), "raid5");
	snprintf(md->uuid, sizeof(md->uuid), "3f1c2a9e:6b0d4e21:9a7f5c33:c2e81b04");
	add_md_members(md, members, 2);
	snprintf(md->members[0].serial, SP_NAME_MAX, "WD-WMAP41234567");
	snprintf(md->members[1].wwn, SP_NAME_MAX, "naa.50014ee2b0000062");
}

static void goldens_for(const char *name, const struct req *q, void (*with)(struct sp_plan *),
			const char *expect_warning)
{
	char file[128], warning[SP_MSG_MAX];
	char *text;

	make_plan(q, &plan);
	if (with)
		with(&plan);
	text = sp_format_tuning_script(&plan, ids_of(&plan));
	snprintf(file, sizeof(file), "tuning-%s.sh", name);
	golden(file, text);
	free(text);
	text = sp_format_udev_rule(&plan, ids_of(&plan), warning, sizeof(warning));
	snprintf(file, sizeof(file), "tuning-%s.rules", name);
	golden(file, text);
	free(text);
	assert_non_null(strstr(warning, expect_warning));
	text = sp_format_modprobe_conf(&plan, ids_of(&plan));
	snprintf(file, sizeof(file), "tuning-%s.conf", name);
	if (text[0])
		golden(file, text);
	free(text);
}

static void test_goldens(void **state)
{
	(void)state;
	goldens_for("md", &md_seed, NULL, "matching by kernel name 'md3', 'sdb', 'sdc', 'sdd'");
	goldens_for("md-identity", &md_two, with_identities, "");
	goldens_for("lsi", &lsi_seed, NULL, "matching by kernel name 'sda'");
	goldens_for("p400-cciss", &p400_cciss, NULL, "matching by kernel name 'cciss!c0d0'");
}

/*
 * An md array of 256 members (md takes 1920): planned, applied to a fake
 * sysfs with a tree for every member, each member tuned, and verified
 * unchanged after.  No member is left out for want of room.
 */
static void test_many_members(void **state)
{
	enum { N = 256 };
	/* each member as the tree's sdc is: none of the plan's values yet */
	static const char *const files[][2] = {
		{ "queue/max_sectors_kb", "1280\n" },
		{ "queue/nr_requests", "64\n" },
		{ "queue/scheduler", "mq-deadline kyber bfq [none]\n" },
		{ "device/queue_depth", "32\n" },
	};
	char *list = calloc(N, 8), dir[SP_PATH_MAX], path[SP_PATH_MAX + 32], rel[64];
	struct req q = md_two;
	size_t used = 0;

	(void)state;
	assert_non_null(list);
	use_tree("md");
	for (unsigned i = 0; i < N; i++) {
		used += (size_t)snprintf(list + used, 8, "%ssdm%u", i ? "," : "", i);
		snprintf(dir, sizeof(dir), "%s/sys/block/sdm%u", sysfs, i);
		assert_int_equal(mkdir(dir, 0755), 0);
		snprintf(path, sizeof(path), "%s/queue", dir);
		assert_int_equal(mkdir(path, 0755), 0);
		snprintf(path, sizeof(path), "%s/device", dir);
		assert_int_equal(mkdir(path, 0755), 0);
		for (size_t k = 0; k < ARRAY_SIZE(files); k++) {
			snprintf(path, sizeof(path), "%s/%s", dir, files[k][0]);
			write_text(path, files[k][1]);
		}
	}
	q.members = list;
	make_plan(&q, &plan);
	assert_int_equal(plan.n_members, N);
	apply_ok();
	for (unsigned i = 0; i < N; i++) {
		snprintf(rel, sizeof(rel), "sdm%u/queue/nr_requests", i);
		assert_string_equal(knob(rel), "512");
		snprintf(rel, sizeof(rel), "sdm%u/device/queue_depth", i);
		assert_string_equal(knob(rel), "1");
	}
	assert_string_equal(knob("md3/queue/read_ahead_kb"), "32768");
	assert_int_equal(verify(), SP_STEP_UNCHANGED);
	free(list);
}

/* ------------------------------------------------------------- fixture */

static int setup(void **state)
{
	(void)state;
	snprintf(work, sizeof(work), "%s/test-tuning.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(work) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	fake_sysfs.root = NULL;
	sp_step_result_clear(&res);
	RUN("rm", "-rf", "--one-file-system", work);
	return 0;
}

static int group_setup(void **state)
{
	struct sp_error err = { 0 };

	(void)state;
	return sp_profiles_embedded(&profiles, &err);
}

static int group_teardown(void **state)
{
	(void)state;
	profiles = sp_profiles_free(profiles);
	return 0;
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_md_apply_verify_drift),
		T(test_values_compare_as_numbers),
		T(test_md_verify_names_drift),
		T(test_missing_knobs_are_skipped),
		T(test_cciss_tree),
		T(test_dry_run_touches_nothing),
		T(test_lsi_module_option),
		T(test_write_error_names_knob),
		T(test_bad_entries_are_refused),
		T(test_root_must_exist),
		T(test_udev_matches_stable_identity),
		T(test_udev_md_identity),
		T(test_file_names),
		T(test_modprobe_only_with_module_options),
		T(test_modprobe_names_identity),
		T(test_script_quoting),
		T(test_plan_format_is_what_apply_writes),
		T(test_goldens),
		T(test_many_members),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
