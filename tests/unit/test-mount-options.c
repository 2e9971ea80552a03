/* fstab options split as mount(8) splits them for mount(2). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mount.h>

#include <cmocka.h>

#include "fstab/mount-options.h"

static void test_planned_xfs_options(void **state)
{
	unsigned long flags = 0;
	char data[256];

	(void)state;
	assert_int_equal(sp_mount_options_split("noatime,logbufs=8,logbsize=256k,nofail,"
						"x-systemd.device-timeout=30s",
						&flags, data, sizeof(data)),
			 0);
	assert_int_equal(flags, MS_NOATIME);
	assert_string_equal(data, "logbufs=8,logbsize=256k");
}

static void test_filesystem_options_reach_the_kernel(void **state)
{
	unsigned long flags = 1234;
	char data[64];

	(void)state;
	/* nobarrier is XFS's (gone in 4.19): it must go to the kernel to be refused */
	assert_int_equal(sp_mount_options_split("nobarrier", &flags, data, sizeof(data)), 0);
	assert_int_equal(flags, 0);
	assert_string_equal(data, "nobarrier");
	assert_int_equal(sp_mount_options_split("", &flags, data, sizeof(data)), 0);
	assert_string_equal(data, "");
}

static void test_later_flag_wins(void **state)
{
	unsigned long flags = 0;
	char data[64];

	(void)state;
	assert_int_equal(sp_mount_options_split("ro,noexec,rw,defaults,_netdev,comment=x,stripe=64",
						&flags, data, sizeof(data)),
			 0);
	assert_int_equal(flags, MS_NOEXEC);
	assert_string_equal(data, "stripe=64");
}

static void test_bounds(void **state)
{
	unsigned long flags = 77;
	char data[8] = "keep";

	(void)state;
	assert_int_equal(sp_mount_options_split("logbsize=256k", &flags, data, sizeof(data)),
			 -ENAMETOOLONG);
	assert_int_equal(flags, 77); /* out-parameter untouched on failure */
	assert_int_equal(sp_mount_options_split("noatime,,nofail", &flags, data, sizeof(data)),
			 -EINVAL);
	assert_int_equal(sp_mount_options_split("sunit=8", &flags, data, sizeof(data)), 0);
	assert_string_equal(data, "sunit=8");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_planned_xfs_options),
		cmocka_unit_test(test_filesystem_options_reach_the_kernel),
		cmocka_unit_test(test_later_flag_wins),
		cmocka_unit_test(test_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
