/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sp_exec: the exit status and both output streams come back, a program
 * that does not exist reads like the shell's 127, and a chatty program is
 * capped without the pipe filling up and hanging us.  The child gets a
 * fixed environment, is found in the system's PATH (test directories
 * first), is waited for rather than its output, and is killed with its
 * process group at its deadline.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "exec.h"

#define OUTPUT_CAP_BYTES (1024U * 1024U)

static void run(const char *const *argv, struct sp_exec_result *res)
{
	struct sp_error err = { 0 };
	int r;

	r = sp_exec(argv, NULL, res, &err);
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

static void run_with_stdin(const char *const *argv, const void *bytes, size_t len,
			   struct sp_exec_result *res)
{
	struct sp_exec_opts opts = { .stdin_bytes = bytes, .stdin_len = len, .deadline_s = 20 };
	struct sp_error err = { 0 };

	if (sp_exec(argv, &opts, res, &err) < 0)
		fail_msg("sp_exec(%s): %s", argv[0], err.message);
	assert_non_null(res->output);
}

/* The bytes given arrive exactly, NUL and all, then end of file. */
static void test_stdin_bytes_exactly(void **state)
{
	const char *const argv[] = { "od", "-An", "-tx1", "-v", NULL };
	static const char key[] = { 'k', '\0', 'e', '\n', 'y' };
	struct sp_exec_result res;

	(void)state;
	run_with_stdin(argv, key, sizeof(key), &res);
	assert_int_equal(res.exit_status, 0);
	assert_string_equal(res.output, " 6b 00 65 0a 79\n");
	sp_exec_result_free(&res);
}

/* Empty input is end of file at once, not /dev/null's wait-free read
 * by accident: cat returns and the run goes on. */
static void test_stdin_empty(void **state)
{
	const char *const argv[] = { "sh", "-c", "cat; echo end", NULL };
	struct sp_exec_result res;

	(void)state;
	run_with_stdin(argv, "", 0, &res);
	assert_int_equal(res.exit_status, 0);
	assert_string_equal(res.output, "end\n");
	sp_exec_result_free(&res);
}

static unsigned char *pattern(size_t len)
{
	unsigned char *p = malloc(len);

	assert_non_null(p);
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)('a' + (i * 7 + i / 4099) % 26);
	return p;
}

/* Far more than a pipe holds (64 KiB): written as the child reads it,
 * while its output is read, so neither side waits on the other. */
static void test_stdin_larger_than_a_pipe(void **state)
{
	const char *const echo[] = { "cat", NULL };
	const char *const count[] = { "wc", "-c", NULL };
	size_t echo_len = 700 * 1024, count_len = 8U * 1024 * 1024;
	unsigned char *in = pattern(count_len);
	struct sp_exec_result res;

	(void)state;
	run_with_stdin(echo, in, echo_len, &res);
	assert_int_equal(res.exit_status, 0);
	assert_int_equal(res.output_len, echo_len);
	assert_memory_equal(res.output, in, echo_len);
	sp_exec_result_free(&res);
	run_with_stdin(count, in, count_len, &res);
	assert_int_equal(res.exit_status, 0);
	assert_int_equal(strtoull(res.output, NULL, 10), count_len);
	sp_exec_result_free(&res);
	free(in);
}

/* A child that never reads its stdin, or closes it and goes on: the run
 * waits for its exit, not for the input to be taken, and the write that
 * finds no reader raises no SIGPIPE here (this test keeps SIGPIPE's
 * default, which would end it). */
static void test_stdin_not_read(void **state)
{
	const char *const closes[] = { "sh", "-c", "exec 0<&-; sleep 0.3; echo done", NULL };
	const char *const exits[] = { "true", NULL };
	size_t len = 4U * 1024 * 1024;
	unsigned char *in = pattern(len);
	struct sp_exec_result res;
	sigset_t pending;

	(void)state;
	signal(SIGPIPE, SIG_DFL);
	run_with_stdin(closes, in, len, &res);
	assert_int_equal(res.exit_status, 0);
	assert_string_equal(res.output, "done\n");
	sp_exec_result_free(&res);
	run_with_stdin(exits, in, len, &res);
	assert_int_equal(res.exit_status, 0);
	sp_exec_result_free(&res);
	sigpending(&pending);
	assert_false(sigismember(&pending, SIGPIPE));
	free(in);
}

/* Exactly PATH and LC_ALL: nothing of ours (MKE2FS_CONFIG, LD_PRELOAD,
 * a PATH with a user's directory first) reaches the tool. */
static void test_fixed_environment(void **state)
{
	const char *const argv[] = { "env", NULL };
	struct sp_exec_result res;

	(void)state;
	setenv("MKE2FS_CONFIG", "/nonexistent", 1);
	setenv("PATH", "/tmp/evil:/usr/bin", 1);
	setenv("LC_MESSAGES", "de_DE.UTF-8", 1);
	run(argv, &res);
	assert_int_equal(res.exit_status, 0);
	assert_string_equal(res.output, "PATH=" SP_EXEC_SYSTEM_DIRS "\nLC_ALL=C\n");
	sp_exec_result_free(&res);
}

static char scratch[] = "/tmp/stripeplan-test-exec.XXXXXX";

static void write_tool(const char *name, const char *body)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", scratch, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0755), 0);
}

/* Programs are found in the system directories, or in the test's
 * instead of them, and that is the child's PATH; the caller's PATH is
 * never searched. */
static void test_lookup(void **state)
{
	char dirs[SP_PATH_MAX], path[SP_PATH_MAX], want[SP_PATH_MAX + 64];
	struct sp_exec_opts opts = { .program_dirs = dirs };
	const char *const argv[] = { "sp-test-tool", "a b", NULL };
	const char *const env_argv[] = { "sp-test-tool", "env", NULL };
	struct sp_exec_result res;
	struct sp_error err = { 0 };

	(void)state;
	/* relative and empty entries are no place to look */
	snprintf(dirs, sizeof(dirs), ".::tmp:%s:" SP_EXEC_SYSTEM_DIRS, scratch);
	write_tool("sp-test-tool", "[ \"$1\" = env ] && exec env -u PWD; echo \"ran $1\"");
	write_tool("sp-not-executable", "exit 0");
	snprintf(path, sizeof(path), "%s/sp-not-executable", scratch);
	assert_int_equal(chmod(path, 0644), 0);

	assert_int_equal(sp_exec_find("sp-test-tool", dirs, path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s/sp-test-tool", scratch);
	assert_string_equal(path, want);
	assert_int_equal(sp_exec_find("sp-test-tool", NULL, path, sizeof(path)), -ENOENT);
	assert_string_equal(path, "");
	assert_int_equal(sp_exec_find("sp-not-executable", dirs, path, sizeof(path)), -ENOENT);
	assert_int_equal(sp_exec_find("sh", NULL, path, sizeof(path)), 0);
	assert_true(path[0] == '/');
	assert_int_equal(sp_exec_find("bin/sh", NULL, path, sizeof(path)), -EINVAL);
	assert_int_equal(sp_exec_find("sh", NULL, path, 4), -ENAMETOOLONG);

	/* found by its directory in PATH: not there without the test hook */
	setenv("PATH", scratch, 1);
	assert_int_equal(sp_exec(argv, NULL, &res, &err), 0);
	assert_int_equal(res.exit_status, 127);
	assert_string_equal(res.output, "cannot run 'sp-test-tool': No such file or directory\n");
	sp_exec_result_free(&res);

	assert_int_equal(sp_exec(argv, &opts, &res, &err), 0);
	assert_int_equal(res.exit_status, 0);
	assert_string_equal(res.output, "ran a b\n");
	sp_exec_result_free(&res);
	assert_int_equal(sp_exec(env_argv, &opts, &res, &err), 0);
	snprintf(want, sizeof(want), "PATH=%s\nLC_ALL=C\n", dirs);
	assert_string_equal(res.output, want);
	sp_exec_result_free(&res);

	/* a path is run as it is */
	snprintf(path, sizeof(path), "%s/sp-test-tool", scratch);
	{
		const char *const by_path[] = { path, "x", NULL };

		assert_int_equal(sp_exec(by_path, NULL, &res, &err), 0);
		assert_string_equal(res.output, "ran x\n");
		sp_exec_result_free(&res);
	}
}

/* pid's state letter from /proc, or 0 when it is gone */
static char proc_state(long pid)
{
	char path[64], line[512], *close_paren, st = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f) && (close_paren = strrchr(line, ')')) && close_paren[1])
		st = close_paren[2];
	fclose(f);
	return st;
}

/* gone, or a zombie init has yet to reap */
static void assert_ended(long pid)
{
	char st = 0;

	for (int i = 0; i < 50; i++) {
		st = proc_state(pid);
		if (!st || st == 'Z')
			return;
		usleep(20 * 1000);
	}
	fail_msg("process %ld still runs (state %c)", pid, st);
}

static long read_pid(const char *name)
{
	char path[256];
	long pid = 0;
	char text[32] = "", *end = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", scratch, name);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	pid = strtol(text, &end, 10);
	assert_true(pid > 0 && end && (*end == '\n' || *end == '\0'));
	return pid;
}

/* The child exits and leaves a process holding the pipe: we return when
 * the child exits, with its output, and what it left is killed. */
static void test_waits_for_child_not_output(void **state)
{
	char script[512];
	const char *const argv[] = { "sh", "-c", script, NULL };
	struct sp_exec_result res;
	double t0 = sp_now_seconds();

	(void)state;
	snprintf(script, sizeof(script), "sleep 60 & echo $! >%s/left; echo done; exit 3", scratch);
	run(argv, &res);
	assert_true(sp_now_seconds() - t0 < 5.0);
	assert_int_equal(res.exit_status, 3);
	assert_string_equal(res.output, "done\n");
	sp_exec_result_free(&res);
	assert_ended(read_pid("left"));
}

/* At the deadline the whole group goes: SIGTERM, then SIGKILL for what
 * ignores it; the call fails with ETIME and says so. */
static void test_deadline_kills_the_group(void **state)
{
	struct sp_exec_opts opts = { .deadline_s = 1 };
	char script[512];
	const char *const argv[] = { "sh", "-c", script, NULL };
	struct sp_exec_result res = { .exit_status = 42 };
	struct sp_error err = { 0 };
	double t0 = sp_now_seconds(), took;

	(void)state;
	snprintf(script, sizeof(script),
		 "trap '' TERM; sleep 60 & echo $! >%s/hung; echo started; wait", scratch);
	assert_int_equal(sp_exec(argv, &opts, &res, &err), -ETIME);
	took = sp_now_seconds() - t0;
	/* 1 s deadline, 2 s from SIGTERM to SIGKILL */
	assert_true(took >= 1.0 && took < 8.0);
	assert_int_equal(res.exit_status, 42); /* out-parameters only on success */
	assert_string_equal(err.message, "sh did not finish within 1 s; killed it and its process group");
	assert_int_equal(err.kind, SP_ERR_FAILED);
	assert_ended(read_pid("hung"));

	/* one that goes on SIGTERM is not kept waiting for the grace */
	snprintf(script, sizeof(script), "sleep 60 & echo $! >%s/polite; wait", scratch);
	t0 = sp_now_seconds();
	assert_int_equal(sp_exec(argv, &opts, &res, &err), -ETIME);
	assert_true(sp_now_seconds() - t0 < 2.5);
	assert_ended(read_pid("polite"));
}

/* A child that neither reads its stdin nor exits: the deadline still
 * ends it (the write end never blocks the loop that keeps time). */
static void test_stdin_unread_until_the_deadline(void **state)
{
	const char *const argv[] = { "sleep", "60", NULL };
	size_t len = 4U * 1024 * 1024;
	unsigned char *in = calloc(1, len);
	struct sp_exec_opts opts = { .deadline_s = 1, .stdin_bytes = in, .stdin_len = len };
	struct sp_exec_result res = { .exit_status = 42 };
	struct sp_error err = { 0 };
	double t0 = sp_now_seconds();

	(void)state;
	assert_non_null(in);
	assert_int_equal(sp_exec(argv, &opts, &res, &err), -ETIME);
	assert_true(sp_now_seconds() - t0 < 4.0);
	assert_string_equal(err.message,
			    "sleep did not finish within 1 s; killed it and its process group");
	free(in);
}

/* mkfs's deadline: an hour, and 36 s per TiB beyond 100 TiB */
static void test_deadline_grows_with_size(void **state)
{
	(void)state;
	assert_int_equal(sp_exec_deadline_s(0), 3600);
	assert_int_equal(sp_exec_deadline_s(SP_GIB), 3600);
	assert_int_equal(sp_exec_deadline_s(100 * SP_TIB), 3600);
	assert_int_equal(sp_exec_deadline_s(101 * SP_TIB), 3636);
	assert_int_equal(sp_exec_deadline_s(1024 * SP_TIB), 36864);
	assert_int_equal(sp_exec_deadline_s(UINT64_MAX), (UINT64_MAX / SP_TIB) * 36);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(scratch) ? 0 : -1;
}

static int teardown(void **state)
{
	const char *const argv[] = { "rm", "-rf", "--one-file-system", "--", scratch, NULL };
	struct sp_exec_result res;
	struct sp_error err = { 0 };

	(void)state;
	if (sp_exec(argv, NULL, &res, &err) < 0)
		return -1;
	sp_exec_result_free(&res);
	return 0;
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
	assert_int_equal(sp_exec(argv, NULL, &res, &err), -EINVAL);
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
		cmocka_unit_test(test_stdin_bytes_exactly),
		cmocka_unit_test(test_stdin_empty),
		cmocka_unit_test(test_stdin_larger_than_a_pipe),
		cmocka_unit_test(test_stdin_not_read),
		cmocka_unit_test(test_killed_by_signal),
		cmocka_unit_test(test_arguments_are_not_shell),
		cmocka_unit_test(test_empty_argv),
		cmocka_unit_test(test_fixed_environment),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_waits_for_child_not_output),
		cmocka_unit_test(test_deadline_kills_the_group),
		cmocka_unit_test(test_stdin_unread_until_the_deadline),
		cmocka_unit_test(test_deadline_grows_with_size),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
