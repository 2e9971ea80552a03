/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The key's way to cryptsetup, end to end with the real program: a key
 * file read by sp_key_read() and given to `cryptsetup luksFormat
 * --key-file -` through sp_exec()'s stdin formats a volume that the same
 * file opens as crypttab would name it (`--key-file FILE`), byte for byte:
 * the file's trailing newline is part of the key, so the key without it
 * opens nothing.  The volume is a scratch file in this test's own
 * temporary directory (cryptsetup formats a regular file without a loop
 * device or device-mapper): no block device is touched.
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

#include "exec.h"
#include "keyfile.h"

static char scratch[] = "/tmp/stripeplan-test-luks-key.XXXXXX";
static char image[256], key_path[256];

#define IMAGE_BYTES (32 * 1024 * 1024)

/* the exit status cryptsetup gives a key that opens no keyslot */
#define CRYPTSETUP_EXIT_NO_KEY 2

/*
 * cryptsetup with stdin given or /dev/null; its exit status.  A cheap
 * PBKDF for format: argon2's default gigabyte is no part of the test.
 */
static int cryptsetup(const char *action, const char *key_arg, const void *in, size_t len)
{
	const char *format[] = { "cryptsetup", "luksFormat", "-q", "--type", "luks2",
				 "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000",
				 "--key-file", key_arg, image, NULL };
	const char *open[] = { "cryptsetup", "open", "--test-passphrase", "--key-file",
			       key_arg, image, NULL };
	struct sp_exec_opts opts = { .stdin_bytes = in, .stdin_len = len, .deadline_s = 60 };
	struct sp_exec_result res = { 0 };
	struct sp_error err = { 0 };
	int status;

	if (sp_exec(strcmp(action, "format") ? open : format, &opts, &res, &err) < 0)
		fail_msg("cryptsetup %s: %s", action, err.message);
	status = res.exit_status;
	if (status && status != CRYPTSETUP_EXIT_NO_KEY)
		fprintf(stderr, "cryptsetup %s: exit %d: %s", action, status, res.output);
	sp_exec_result_free(&res);
	return status;
}

static void write_file(const char *path, const void *bytes, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
}

static void new_image(void)
{
	int fd = open(image, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, IMAGE_BYTES), 0);
	assert_int_equal(close(fd), 0);
}

/* format with the key through stdin; the file opens it, the key cut by
 * its last byte does not */
static void format_and_open(const void *bytes, size_t len)
{
	struct sp_key key = { 0 };
	struct sp_error err = { 0 };

	new_image();
	write_file(key_path, bytes, len, 0600);
	if (sp_key_read(key_path, -1, &key, &err) < 0)
		fail_msg("%s", err.message);
	assert_int_equal(cryptsetup("format", "-", key.bytes, key.len), 0);
	assert_int_equal(cryptsetup("open", key_path, NULL, 0), 0);
	assert_int_equal(cryptsetup("open", "-", key.bytes, key.len), 0);
	assert_int_equal(cryptsetup("open", "-", key.bytes, key.len - 1), CRYPTSETUP_EXIT_NO_KEY);
	sp_key_wipe(&key);
}

static void test_passphrase_with_newline(void **state)
{
	static const char pass[] = "correct horse\0battery\n";

	(void)state;
	format_and_open(pass, sizeof(pass) - 1);
}

/* every byte value, and more than one 4 KiB read */
static void test_binary_key(void **state)
{
	unsigned char bytes[6000];

	(void)state;
	for (size_t i = 0; i < sizeof(bytes); i++)
		bytes[i] = (unsigned char)(i * 131 + 17);
	format_and_open(bytes, sizeof(bytes));
}

static int setup(void **state)
{
	char path[SP_PATH_MAX];

	(void)state;
	if (sp_exec_find("cryptsetup", NULL, path, sizeof(path)) < 0) {
		fprintf(stderr, "no cryptsetup in " SP_EXEC_SYSTEM_DIRS " (scripts/setup installs "
				"cryptsetup-bin)\n");
		return -1;
	}
	if (!mkdtemp(scratch))
		return -1;
	snprintf(image, sizeof(image), "%s/volume", scratch);
	snprintf(key_path, sizeof(key_path), "%s/key", scratch);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(image);
	unlink(key_path);
	return rmdir(scratch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_passphrase_with_newline),
		cmocka_unit_test(test_binary_key),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
