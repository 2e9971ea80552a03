/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sp_exec: the exit status and both output streams come back, a program
 * that does not exist reads like the shell's 127, and a chatty program is
 * capped without the pipe filling up and hanging us.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "exec.h"

#define OUTPUT_CAP_BYTES (1024U * 1024U)

static void run(const char *const *argv, struct sp_exec_result *res)
{
	struct sp_error err = { 0 };
	int r;

	r = sp_exec(argv, res, &err);
	if (r < 0)
		fail_msg("sp_exec(%s): %s", argv[0], err.message);
	assert_non_null(res->output);
	assert_int_equal(strlen(res->output), res->output_len);
	assert_true(res->seconds >= 0.0);
}

static void test_status_and_both_streams(void **state)
{
	const char *const argv[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	struct sp_exec_result res;

	(void)state;
	run(argv, &res);
	assert_int_equal(res.exit_status, 3);
	assert_string_equal(res.output, "out\nerr\n");
	sp_exec_result_free(&res);
	assert_null(res.output);
}

static void test_missing_program(void **state)
{
	const char *const argv[] = { "stripeplan-no-such-program", "x", NULL };
	struct sp_exec_result res;

	(void)state;
	run(argv, &res);
	assert_int_equal(res.exit_status, 127);
	assert_string_equal(res.output,
			    "cannot run 'stripeplan-no-such-program': No such file or directory\n");
	sp_exec_result_free(&res);
}

static void test_huge_output_is_capped(void **state)
{
	/* 8 MiB: eight times the cap, far more than a pipe buffer holds */
	const char *const argv[] = { "sh", "-c", "yes 0123456789abcdef | head -c 8388608; exit 0",
				     NULL };
	struct sp_exec_result res;

	(void)state;
	run(argv, &res);
	assert_int_equal(res.exit_status, 0);
	assert_int_equal(res.output_len, OUTPUT_CAP_BYTES);
	assert_memory_equal(res.output, "0123456789abcdef\n0123", 21);
	sp_exec_result_free(&res);
}

static void test_locale_and_stdin(void **state)
{
	const char *const argv[] = { "sh", "-c", "echo \"$LC_ALL\"; cat; echo end", NULL };
	struct sp_exec_result res;

	(void)state;
	run(argv, &res);
	assert_int_equal(res.exit_status, 0);
	/* LC_ALL=C, and cat sees /dev/null rather than waiting on a terminal */
	assert_string_equal(res.output, "C\nend\n");
	sp_exec_result_free(&res);
}

static void test_killed_by_signal(void **state)
{
	const char *const argv[] = { "sh", "-c", "kill -KILL $$", NULL };
	struct sp_exec_result res;

	(void)state;
	run(argv, &res);
	assert_int_equal(res.exit_status, 128 + 9);
	sp_exec_result_free(&res);
}

static void test_arguments_are_not_shell(void **state)
{
	const char *const argv[] = { "printf", "%s|", "a b", "$(echo no)", ";", NULL };
	struct sp_exec_result res;

	(void)state;
	run(argv, &res);
	assert_string_equal(res.output, "a b|$(echo no)|;|");
	sp_exec_result_free(&res);
}

static void test_empty_argv(void **state)
{
	const char *const argv[] = { NULL };
	struct sp_error err = { 0 };
	struct sp_exec_result res = { .exit_status = 42 };

	(void)state;
	assert_int_equal(sp_exec(argv, &res, &err), -EINVAL);
	assert_int_equal(res.exit_status, 42);
	assert_true(err.message[0] != '\0');
	sp_exec_result_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_and_both_streams),
		cmocka_unit_test(test_missing_program),
		cmocka_unit_test(test_huge_output_is_capped),
		cmocka_unit_test(test_locale_and_stdin),
		cmocka_unit_test(test_killed_by_signal),
		cmocka_unit_test(test_arguments_are_not_shell),
		cmocka_unit_test(test_empty_argv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
