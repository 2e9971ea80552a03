/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sp_key_read: a key arrives byte for byte from a file or stdin; a file
 * others may read or another user owns is refused, anything that is not
 * a key (a directory, a FIFO, nothing, more than cryptsetup reads, a
 * terminal) is invalid, and no message carries the key.
 */
#include <errno.h>
#include <fcntl.h>
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

#include "keyfile.h"

static char scratch[] = "/tmp/stripeplan-test-keyfile.XXXXXX";

static const char secret[] = "SECRET-key\0with a NUL\n";
#define SECRET_LEN (sizeof(secret) - 1)

static const char *path_of(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", scratch, name);
	return path;
}

static const char *write_key(const char *name, const void *bytes, size_t len, mode_t mode)
{
	const char *path = path_of(name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, len), (ssize_t)len);
	assert_int_equal(fchmod(fd, mode), 0);
	assert_int_equal(close(fd), 0);
	return path;
}

static void expect_error(const char *path, int stdin_fd, int code, enum sp_error_kind kind,
			 const char *words)
{
	struct sp_key key = { .bytes = (unsigned char *)"untouched" };
	struct sp_error err = { 0 };

	assert_int_equal(sp_key_read(path, stdin_fd, &key, &err), -code);
	assert_int_equal(err.kind, kind);
	if (!strstr(err.message, words))
		fail_msg("'%s' does not say '%s'", err.message, words);
	assert_null(strstr(err.message, "SECRET"));
	assert_string_equal((const char *)key.bytes, "untouched");
}

static void expect_key(const char *path, int stdin_fd, const void *bytes, size_t len)
{
	struct sp_key key = { 0 };
	struct sp_error err = { 0 };

	if (sp_key_read(path, stdin_fd, &key, &err) < 0)
		fail_msg("%s: %s", path, err.message);
	assert_int_equal(key.len, len);
	assert_memory_equal(key.bytes, bytes, len);
	sp_key_wipe(&key);
	assert_null(key.bytes);
	assert_int_equal(key.len, 0);
	sp_key_wipe(&key);
}

static void test_file_exactly(void **state)
{
	(void)state;
	expect_key(write_key("k600", secret, SECRET_LEN, 0600), -1, secret, SECRET_LEN);
	expect_key(write_key("k400", secret, SECRET_LEN, 0400), -1, secret, SECRET_LEN);
}

/* cryptsetup warns about these; stripeplan refuses them */
static void test_file_others_may_use(void **state)
{
	static const mode_t modes[] = { 0640, 0604, 0610, 0601, 0620, 0602, 0644, 0666 };

	(void)state;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		char name[16], mode[8];

		snprintf(name, sizeof(name), "k%o", (unsigned)modes[i]);
		snprintf(mode, sizeof(mode), "%04o", (unsigned)modes[i]);
		expect_error(write_key(name, secret, SECRET_LEN, modes[i]), -1, EPERM,
			     SP_ERR_REFUSED, mode);
	}
}

static void test_file_of_another_user(void **state)
{
	const char *path = write_key("knobody", secret, SECRET_LEN, 0600);

	(void)state;
	if (geteuid() != 0) {
		/* only root can give a file away; CI runs as root */
		fprintf(stderr, "not root: the owner case needs chown\n");
		return;
	}
	assert_int_equal(chown(path, 65534, 65534), 0);
	expect_error(path, -1, EPERM, SP_ERR_REFUSED, "belongs to user 65534");
}

static void test_not_a_key(void **state)
{
	char *big = calloc(1, SP_KEY_MAX_BYTES + 1), fifo[256];

	(void)state;
	assert_non_null(big);
	snprintf(fifo, sizeof(fifo), "%s", path_of("fifo"));
	expect_error(path_of("missing"), -1, ENOENT, SP_ERR_INVALID, "cannot open key file");
	assert_int_equal(mkdir(path_of("dir"), 0700), 0);
	expect_error(path_of("dir"), -1, EINVAL, SP_ERR_INVALID, "not a regular file");
	/* no writer: opening it must not wait for one */
	assert_int_equal(mkfifo(fifo, 0600), 0);
	expect_error(fifo, -1, EINVAL, SP_ERR_INVALID, "not a regular file");
	expect_error(write_key("empty", "", 0, 0600), -1, EINVAL, SP_ERR_INVALID, "is empty");
	expect_error(write_key("big", big, SP_KEY_MAX_BYTES + 1, 0600), -1, EFBIG, SP_ERR_INVALID,
		     "8388608 bytes cryptsetup reads");
	expect_key(write_key("max", big, SP_KEY_MAX_BYTES, 0600), -1, big, SP_KEY_MAX_BYTES);
	expect_error("", -1, EINVAL, SP_ERR_INVALID, "no key file");
	free(big);
}

static int pipe_with(const void *bytes, size_t len)
{
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], bytes, len), (ssize_t)len);
	close(fds[1]);
	return fds[0];
}

/* "-": what stdin holds to its end, however it comes (a pipe, a file) */
static void test_stdin(void **state)
{
	size_t len = 60000;
	unsigned char *many = malloc(SP_KEY_MAX_BYTES + 1);
	int fd;

	(void)state;
	assert_non_null(many);
	for (size_t i = 0; i < SP_KEY_MAX_BYTES + 1; i++)
		many[i] = (unsigned char)(i * 31 + 7);
	fd = pipe_with(secret, SECRET_LEN);
	expect_key("-", fd, secret, SECRET_LEN);
	close(fd);
	fd = pipe_with(many, len);
	expect_key("-", fd, many, len);
	close(fd);
	fd = pipe_with("", 0);
	expect_error("-", fd, EINVAL, SP_ERR_INVALID, "the key on stdin is empty");
	close(fd);
	write_key("stdin-big", many, SP_KEY_MAX_BYTES + 1, 0600);
	fd = open(path_of("stdin-big"), O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	expect_error("-", fd, EFBIG, SP_ERR_INVALID, "on stdin has more than");
	close(fd);
	free(many);
}

/* stripeplan never prompts: a key typed at a terminal is refused */
static void test_stdin_terminal(void **state)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC), tty;

	(void)state;
	assert_true(master >= 0);
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	tty = open(ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(tty >= 0);
	expect_error("-", tty, ENOTTY, SP_ERR_INVALID, "does not prompt");
	close(tty);
	close(master);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(scratch) ? 0 : -1;
}

static int teardown(void **state)
{
	static const char *const names[] = { "k600", "k400", "k640", "k604", "k610", "k601",
					     "k620", "k602", "k644", "k666", "knobody", "fifo",
					     "empty", "big", "max", "stdin-big" };

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(path_of(names[i]));
	rmdir(path_of("dir"));
	return rmdir(scratch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_exactly),
		cmocka_unit_test(test_file_others_may_use),
		cmocka_unit_test(test_file_of_another_user),
		cmocka_unit_test(test_not_a_key),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_stdin_terminal),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
