/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sp_crypttab_line and sp_crypttab_merge: the plan's volume by its UUID,
 * nofail as its fstab line has it; the merge changes the volume's own
 * line alone, in place, drops a second line for it, appends one that is
 * missing, and keeps comments, other volumes and a name it only prefixes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/error.h"
#include "fstab/crypttab.h"

#define UUID "2d97a0c3-ad07-4b3a-9972-bde87aa9b61b"
#define LINE "md5_crypt UUID=" UUID " none luks,nofail"

static struct sp_plan *plan_with(bool nofail)
{
	static struct sp_plan plan;

	memset(&plan, 0, sizeof(plan));
	strcpy(plan.luks.name, "md5_crypt");
	strcpy(plan.mount_options[plan.n_mount_options++], "noatime");
	if (nofail)
		strcpy(plan.mount_options[plan.n_mount_options++], "nofail");
	return &plan;
}

static void test_line(void **state)
{
	struct sp_error err = { 0 };
	char buf[256];

	(void)state;
	assert_int_equal(sp_crypttab_line(plan_with(true), UUID, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, LINE);
	assert_int_equal(sp_crypttab_line(plan_with(false), UUID, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "md5_crypt UUID=" UUID " none luks");
	assert_int_equal(sp_crypttab_line(plan_with(false), NULL, buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "md5_crypt UUID=" SP_CRYPTTAB_UUID_PLACEHOLDER " none luks");
	assert_int_equal(sp_crypttab_line(plan_with(false), "x none luks\nroot", buf, sizeof(buf), &err),
			 -EINVAL);
	assert_int_equal(sp_crypttab_line(plan_with(false), "", buf, sizeof(buf), &err), -EINVAL);
	assert_int_equal(sp_crypttab_line(plan_with(false), UUID, buf, 10, &err), -ENAMETOOLONG);
}

static void merge(const char *text, const char *want, size_t want_found, const char *want_old)
{
	struct sp_error err = { 0 };
	char *out = NULL, old[256];
	size_t found = 99;

	assert_int_equal(sp_crypttab_merge(text, "md5_crypt", LINE, &out, &found, old, sizeof(old),
					   &err), 0);
	assert_string_equal(out, want);
	assert_int_equal(found, want_found);
	assert_string_equal(old, want_old);
	free(out);
}

static void test_merge(void **state)
{
	(void)state;
	merge("", LINE "\n", 0, "");
	/* a file without a last newline gets one before the line */
	merge("# <target name> <source device> <key file> <options>\nsda5_crypt UUID=1 none luks",
	      "# <target name> <source device> <key file> <options>\nsda5_crypt UUID=1 none luks\n"
	      LINE "\n", 0, "");
	/* in place; comments, other volumes and a longer name kept */
	merge("# md5_crypt old\nmd5_crypt2 UUID=2 none luks\n\tmd5_crypt  UUID=3 /key luks\nz x y\n",
	      "# md5_crypt old\nmd5_crypt2 UUID=2 none luks\n" LINE "\nz x y\n", 1,
	      "\tmd5_crypt  UUID=3 /key luks");
	/* a second line for the volume is dropped */
	merge("md5_crypt UUID=3 none luks\nmd5_crypt UUID=4 none luks\n", LINE "\n", 2,
	      "md5_crypt UUID=3 none luks");
	/* already there: the same text */
	merge("a b c\n" LINE "\n", "a b c\n" LINE "\n", 1, LINE);
	/* the last line, without its newline */
	merge("a b c\nmd5_crypt UUID=3 none", "a b c\n" LINE "\n", 1, "md5_crypt UUID=3 none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
