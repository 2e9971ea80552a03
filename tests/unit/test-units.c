/* Sizes, counts and the arithmetic the alignment rests on. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stripeplan.h"

static uint64_t size_ok(const char *text)
{
	struct sp_error err = { 0 };
	uint64_t v = 0;

	assert_int_equal(sp_parse_size(text, "chunk", &v, &err), 0);
	return v;
}

static const char *size_bad(const char *text)
{
	static struct sp_error err;
	uint64_t v = 12345;

	memset(&err, 0, sizeof(err));
	assert_true(sp_parse_size(text, "chunk", &v, &err) < 0);
	assert_int_equal(v, 12345); /* out-parameter untouched on failure */
	assert_int_equal(err.kind, SP_ERR_INVALID);
	assert_true(strncmp(err.message, "chunk: ", 7) == 0); /* the flag at fault */
	return err.message;
}

static void test_binary_suffixes(void **state)
{
	(void)state;
	assert_int_equal(size_ok("512"), 512);
	assert_int_equal(size_ok("512B"), 512);
	assert_int_equal(size_ok("256k"), 256 * 1024);
	assert_int_equal(size_ok("256K"), 256 * 1024);
	assert_int_equal(size_ok("256KiB"), 256 * 1024);
	assert_int_equal(size_ok("1M"), 1048576);
	assert_int_equal(size_ok("1mib"), 1048576);
	assert_int_equal(size_ok("2G"), 2ULL << 30);
	assert_int_equal(size_ok("3T"), 3ULL << 40);
	assert_int_equal(size_ok("1P"), 1ULL << 50);
	assert_int_equal(size_ok("0"), 0);
}

static void test_decimal_suffixes_refused_with_hint(void **state)
{
	(void)state;
	assert_non_null(strstr(size_bad("128kB"), "use 128K or 128KiB"));
	assert_non_null(strstr(size_bad("4MB"), "use 4M or 4MiB"));
	assert_non_null(strstr(size_bad("2TB"), "ambiguous"));
}

static void test_malformed_sizes(void **state)
{
	(void)state;
	assert_non_null(strstr(size_bad("-4K"), "negative"));
	assert_non_null(strstr(size_bad("1.5M"), "fraction"));
	assert_non_null(strstr(size_bad("K"), "not a size"));
	assert_non_null(strstr(size_bad(""), "empty"));
	assert_non_null(strstr(size_bad("12Q"), "unknown unit"));
	assert_non_null(strstr(size_bad("99999999999999999999"), "too large"));
	/* 2^54 PiB overflows only after the shift */
	assert_non_null(strstr(size_bad("16384P"), "too large"));
	assert_int_equal(size_ok("16383P"), 16383ULL << 50);
}

static void test_counts(void **state)
{
	struct sp_error err = { 0 };
	uint64_t v = 0;

	(void)state;
	assert_int_equal(sp_parse_count("8", "disks", 1, 1024, &v, &err), 0);
	assert_int_equal(v, 8);
	assert_true(sp_parse_count("0", "disks", 1, 1024, &v, &err) < 0);
	assert_non_null(strstr(err.message, "out of range"));
	assert_true(sp_parse_count("-3", "disks", 1, 1024, &v, &err) < 0);
	assert_non_null(strstr(err.message, "negative"));
	assert_true(sp_parse_count("8x", "disks", 1, 1024, &v, &err) < 0);
	assert_true(sp_parse_count("184467440737095516160", "disks", 1, 1024, &v, &err) < 0);
	assert_non_null(strstr(err.message, "too large"));
}

static void test_lcm_gcd(void **state)
{
	uint64_t r = 0;

	(void)state;
	assert_int_equal(sp_gcd(196608, 1048576), 65536);
	assert_int_equal(sp_lcm(196608, 1048576, &r), 0);
	assert_int_equal(r, 3 * 1048576);    /* 3 x 64K stripe -> 3 MiB */
	assert_int_equal(sp_lcm(1835008, 1048576, &r), 0);
	assert_int_equal(r, 7 * 1048576);    /* 14 x 128K -> 7 MiB */
	assert_int_equal(sp_lcm(1048576, 4096, &r), 0);
	assert_int_equal(r, 1048576);
	assert_int_equal(sp_lcm(UINT64_MAX - 1, UINT64_MAX - 2, &r), -EOVERFLOW);
	assert_int_equal(sp_lcm(0, 5, &r), -EINVAL);
	assert_true(sp_is_power_of_two(4096));
	assert_false(sp_is_power_of_two(196608));
	assert_false(sp_is_power_of_two(0));
}

static void test_formatting(void **state)
{
	char buf[32];

	(void)state;
	sp_format_size(262144, SP_SIZE_SHORT, buf, sizeof(buf));
	assert_string_equal(buf, "256K");
	sp_format_size(1048576, SP_SIZE_SHORT, buf, sizeof(buf));
	assert_string_equal(buf, "1M");
	sp_format_size(1835008, SP_SIZE_SHORT, buf, sizeof(buf));
	assert_string_equal(buf, "1792K");
	sp_format_size(33553920, SP_SIZE_SHORT, buf, sizeof(buf));
	assert_string_equal(buf, "33553920");
	sp_format_size(1572864, SP_SIZE_HUMAN, buf, sizeof(buf));
	assert_string_equal(buf, "1.50 MiB");
	sp_format_size(512, SP_SIZE_HUMAN, buf, sizeof(buf));
	assert_string_equal(buf, "512 B");
	sp_format_size(3ULL << 40, SP_SIZE_HUMAN, buf, sizeof(buf));
	assert_string_equal(buf, "3 TiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binary_suffixes),
		cmocka_unit_test(test_decimal_suffixes_refused_with_hint),
		cmocka_unit_test(test_malformed_sizes),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_lcm_gcd),
		cmocka_unit_test(test_formatting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
