/* Mount point normalization: one spelling, and nothing that leaves the
 * directory the user meant. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stripeplan.h"

static const char *norm(const char *in)
{
	static char out[SP_PATH_MAX];

	assert_int_equal(sp_path_normalize(in, out, sizeof(out)), 0);
	return out;
}

static void test_normalize(void **state)
{
	char small[6];

	(void)state;
	assert_string_equal(norm("/data"), "/data");
	assert_string_equal(norm("/./data"), "/data");
	assert_string_equal(norm("//data//x/"), "/data/x");
	assert_string_equal(norm("/data/./x/."), "/data/x");
	assert_string_equal(norm("//"), "/");
	assert_string_equal(norm("/."), "/");
	assert_string_equal(norm("/..."), "/...");
	assert_string_equal(norm("/.hidden"), "/.hidden");
	assert_string_equal(norm("/a b"), "/a b");
	assert_int_equal(sp_path_normalize("/data/..", small, sizeof(small)), -EXDEV);
	assert_int_equal(sp_path_normalize("/../../../X", small, sizeof(small)), -EXDEV);
	assert_int_equal(sp_path_normalize("/a/../b", small, sizeof(small)), -EXDEV);
	assert_int_equal(sp_path_normalize("data", small, sizeof(small)), -EINVAL);
	assert_int_equal(sp_path_normalize("", small, sizeof(small)), -EINVAL);
	assert_int_equal(sp_path_normalize("/abcdefgh", small, sizeof(small)), -ENAMETOOLONG);
	assert_int_equal(sp_path_normalize("/abcd", small, sizeof(small)), 0);
	assert_string_equal(small, "/abcd");
}

static int check(const char *in, bool force, char *out)
{
	struct sp_error err = { 0 };
	int r = sp_mountpoint_check(in, force, out, SP_PATH_MAX, &err);

	if (r < 0) {
		assert_int_equal(err.kind, SP_ERR_INVALID);
		assert_true(strncmp(err.message, "mountpoint: ", 12) == 0);
	}
	return r;
}

static void test_check(void **state)
{
	static const char *const refused[] = { "/", "//", "/.", "/./", "/data/..", "/..",
					       "/../../../X", "data", "/da\nta", "/x\t" };
	static const char *const system[] = {
		"/usr", "/usr/", "/./var", "/boot", "/boot/efi", "/etc", "/proc/x", "/sys/fs/x",
		"/dev/shm", "/run/a",
		/* whole trees the system owns (issue 21): not only the directory */
		"/usr/lib", "/usr/lib/x", "/usr/local", "/usr/local/data", "/var/lib/x", "/var/lib",
		"/etc/ssh", "/boot/x", "/bin/x", "/lib64/x", "/var/log/x", "/var/cache/apt",
		"/var/tmp/x", "/var/run/x", "/efi/EFI", "/root", "/var/spool", "/sbin/x",
	};
	/* data trees: open without --force */
	static const char *const data[] = {
		"/srv", "/srv/x", "/data", "/mnt/x", "/media/usb", "/home", "/home/x", "/opt",
		"/opt/db", "/var/www", "/var/mail", "/var/spool/postfix", "/var/opt/x", "/root/x",
		"/tmp/x", "/var2", "/devices", "/usrx", "/etcetera", "/var/library",
	};
	char out[SP_PATH_MAX];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		assert_true(check(refused[i], false, out) < 0);
		assert_true(check(refused[i], true, out) < 0); /* --force does not help */
	}
	for (size_t i = 0; i < ARRAY_SIZE(system); i++) {
		if (check(system[i], false, out) == 0)
			fail_msg("'%s' should need --force", system[i]);
		assert_int_equal(check(system[i], true, out), 0);
	}
	for (size_t i = 0; i < ARRAY_SIZE(data); i++)
		if (check(data[i], false, out) != 0)
			fail_msg("'%s' should be open without --force", data[i]);
	assert_int_equal(check("/./data//", false, out), 0);
	assert_string_equal(out, "/data");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
