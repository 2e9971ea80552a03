/* The shared helpers: enum <-> name tables and the messages made from them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "audit/result.h"
#include "stripeplan.h"
#include "render/tuning-files.h"

/* Every name maps back to its value, and nothing else maps. */
static void check_round_trip(const struct sp_names *t)
{
	char unknown[] = "no-such-name";

	for (size_t i = 0; i < t->n; i++) {
		if (!t->names[i])
			continue;
		assert_int_equal(sp_names_lookup(t, t->names[i]), (int)i);
		assert_ptr_equal(sp_names_get(t, (long)i), t->names[i]);
	}
	assert_int_equal(sp_names_lookup(t, unknown), -EINVAL);
	assert_int_equal(sp_names_lookup(t, NULL), -EINVAL);
	assert_null(sp_names_get(t, -1));
	assert_null(sp_names_get(t, (long)t->n));
}

static void test_tables_round_trip(void **state)
{
	(void)state;
	check_round_trip(&sp_fs_names);
	check_round_trip(&sp_table_names);
	check_round_trip(&sp_source_names);
	check_round_trip(&sp_workload_names);
	check_round_trip(&sp_tuning_recipe_names);
	check_round_trip(&sp_tuning_kind_names);
	check_round_trip(&sp_level_names);
	check_round_trip(&sp_outcome_names);
	check_round_trip(&sp_step_status_names);
}

/* A sparse enum: RAID levels are indexed by their number. */
static void test_sparse_levels(void **state)
{
	enum sp_level level = SP_LEVEL_0;

	(void)state;
	assert_string_equal(sp_level_name(SP_LEVEL_60), "raid60");
	assert_string_equal(sp_level_name((enum sp_level)7), "unknown");
	assert_int_equal(sp_level_from_name("raid50", &level), 0);
	assert_int_equal(level, SP_LEVEL_50);
	assert_int_equal(sp_level_from_name("raid7", &level), -EINVAL);
	assert_int_equal(level, SP_LEVEL_50); /* untouched on failure */
	assert_string_equal(SP_NAMES_JOINED(&sp_level_names),
			    "raid0, raid1, raid4, raid5, raid6, raid10, raid50, raid60");
}

/* The "known" list of a message is the table, so a new name shows up. */
static void test_known_lists(void **state)
{
	struct sp_error err = { 0 };
	enum sp_workload w;
	enum sp_table t;
	enum sp_level l;
	enum sp_fs fs;

	(void)state;
	assert_int_equal(sp_parse_fs("btrfs", &fs, &err), -EINVAL);
	assert_string_equal(err.message, "fs: unknown filesystem 'btrfs' (known: xfs, ext3, ext4)");
	assert_int_equal(sp_parse_workload("oltp", &w, &err), -EINVAL);
	assert_string_equal(err.message, "workload: unknown workload 'oltp' (known: general, "
					 "metadata, small-sync)");
	assert_int_equal(sp_parse_table("bsd", &t, &err), -EINVAL);
	assert_string_equal(err.message, "table: unknown partition table 'bsd' (known: gpt, msdos, none)");
	assert_int_equal(sp_parse_level("7", &l, &err), -EINVAL);
	assert_string_equal(err.message, "level: unknown RAID level '7' (known: 0, 1, 4, 5, 6, 10, 50, 60)");
	/* the aliases people type still parse */
	assert_int_equal(sp_parse_table("mbr", &t, &err), 0);
	assert_int_equal(t, SP_TABLE_MSDOS);
	assert_int_equal(sp_parse_level("RAID10", &l, &err), 0);
	assert_int_equal(l, SP_LEVEL_10);
}

/* The fallback of each table, for a value no name has. */
static void test_fallbacks(void **state)
{
	(void)state;
	assert_string_equal(sp_fs_name((enum sp_fs)9), "unknown");
	assert_null(sp_tuning_kind_name((enum sp_tuning_kind)9));
	assert_string_equal(sp_workload_name((enum sp_workload)9), "general");
	assert_string_equal(sp_outcome_name(SP_OUTCOME_HARMLESS), "differs");
}

/* A full list says how many more there were, in its last line. */
static void test_full_step_lines(void **state)
{
	struct sp_step_result res = { 0 };

	(void)state;
	for (unsigned i = 0; i < SP_STEP_MAX_LINES; i++)
		sp_step_line(&res, "line %u", i);
	assert_int_equal(res.n_lines, SP_STEP_MAX_LINES);
	assert_string_equal(res.lines[SP_STEP_MAX_LINES - 1], "line 23");
	for (unsigned i = 0; i < 6; i++)
		sp_step_line(&res, "line %u", SP_STEP_MAX_LINES + i);
	assert_int_equal(res.n_lines, SP_STEP_MAX_LINES);
	assert_string_equal(res.lines[SP_STEP_MAX_LINES - 2], "line 22");
	/* 30 lines, 23 shown */
	assert_string_equal(res.lines[SP_STEP_MAX_LINES - 1], "... and 7 more");
	assert_int_equal(res.n_lines_dropped, 7);
}

/* Actions are listed, every one: a tuning step on 1920 md members sets
 * 7680 knobs, and a dry run that says "and N more" shows no target. */
static void test_every_action(void **state)
{
	struct sp_report *r = calloc(1, sizeof(*r));
	struct sp_step_result *res;
	char target[32];

	(void)state;
	assert_non_null(r);
	r->n_steps = 2;
	res = &r->steps[1];
	for (unsigned i = 0; i < 7680; i++) {
		snprintf(target, sizeof(target), "knob %u", i);
		sp_step_action(res, SP_ACTION_KNOB, target, "1", "2");
	}
	sp_step_action(&r->kept, SP_ACTION_FILE, "/r/var/log/stripeplan/apply-x.json", NULL,
		       "this run's report");
	assert_int_equal(res->n_actions, 7680);
	assert_int_equal(res->n_actions_dropped, 0);
	assert_string_equal(res->actions[7679].target, "knob 7679");
	assert_false(res->actions[7679].destroys);
	assert_int_equal(sp_report_n_actions(r), 7681);
	/* steps first, the kept report last */
	assert_ptr_equal(sp_report_result(r, 1), res);
	assert_ptr_equal(sp_report_result(r, 2), &r->kept);
	assert_null(sp_report_result(r, 3));
	sp_report_free(r);
	assert_int_equal(r->steps[1].n_actions, 0);
	assert_null(r->steps[1].actions);
	free(r);
}

/* An error carries -errno; sp_error_set takes the errno itself. */
static void test_error_sign(void **state)
{
	struct sp_error err = { 0 };
	pid_t pid;
	int status;

	(void)state;
	assert_int_equal(sp_error_set(&err, ENOENT, SP_ERR_REFUSED, "x: %s", "gone"), -ENOENT);
	assert_int_equal(err.code, -ENOENT);
	assert_int_equal(err.kind, SP_ERR_REFUSED);
	assert_string_equal(err.message, "x: gone");
	assert_int_equal(sp_error_set(NULL, EIO, SP_ERR_FAILED, "nobody listens"), -EIO);
#ifndef NDEBUG
	/* -errno passed as the code is a caller's bug, caught where it is made */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGABRT, SIG_DFL);
		sp_error_set(&err, -ENOENT, SP_ERR_FAILED, "wrong sign");
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
#else
	(void)pid;
	(void)status;
	/* built without assertions: a wrong sign is an EIO, never a success */
	assert_int_equal(sp_error_set(&err, -ENOENT, SP_ERR_FAILED, "wrong sign"), -EIO);
#endif
}

static void test_array_size(void **state)
{
	static const int a[7] = { 0 };
	char b[3][5];

	(void)state;
	(void)b;
	assert_int_equal(ARRAY_SIZE(a), 7);
	assert_int_equal(ARRAY_SIZE(b), 3);
	assert_int_equal(ARRAY_SIZE(b[0]), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_round_trip),
		cmocka_unit_test(test_sparse_levels),
		cmocka_unit_test(test_known_lists),
		cmocka_unit_test(test_fallbacks),
		cmocka_unit_test(test_full_step_lines),
		cmocka_unit_test(test_every_action),
		cmocka_unit_test(test_error_sign),
		cmocka_unit_test(test_array_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
