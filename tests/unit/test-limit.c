/* The limits table: every row is whole and cited, and each bound holds
 * on both sides with a message that names the tool, the bound and the
 * source. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "limits/limit.h"
#include "stripeplan.h"

static void test_rows_whole(void **state)
{
	(void)state;
	for (int i = 0; i < SP_LIMIT_COUNT; i++) {
		const struct sp_limit *l = sp_limit((enum sp_limit_id)i);

		assert_non_null(l->id);
		assert_non_null(l->tool);
		assert_non_null(l->what);
		assert_non_null(l->unit);
		assert_non_null(l->since);
		/* a source is a file and function, a commit or a document: never empty */
		assert_true(strlen(l->source) > 20);
		assert_true(!l->max || l->min <= l->max);
		assert_ptr_equal(sp_limit_by_name(l->id), l);
		/* a target system's mkfs may be older than the one read: every
		 * mkfs row says what RHEL 7's and 8's releases do (issue 23) */
		if (!strcmp(l->tool, "mkfs.xfs"))
			assert_true(l->releases && strstr(l->releases, "4.5") &&
				    strstr(l->releases, "5.0"));
		if (!strcmp(l->tool, "mke2fs"))
			assert_true(l->releases && strstr(l->releases, "1.42") &&
				    strstr(l->releases, "1.45"));
		for (int j = 0; j < i; j++)
			assert_string_not_equal(sp_limit((enum sp_limit_id)j)->id, l->id);
	}
	assert_null(sp_limit_by_name("no-such-limit"));
	assert_null(sp_limit(SP_LIMIT_COUNT));
}

/* each row's bounds, both sides */
static void test_bounds(void **state)
{
	static const struct {
		enum sp_limit_id id;
		uint64_t last_ok, first_bad;
	} upper[] = {
		{ SP_LIMIT_XFS_SWIDTH, 2147483647, 2147483648ULL },
		{ SP_LIMIT_XFS_LOG_SU, 262144, 262145 },
		{ SP_LIMIT_XFS_AGSIZE, (1ULL << 40) - 4096, 1ULL << 40 },
		{ SP_LIMIT_EXT_STRIDE, 65535, 65536 },
		{ SP_LIMIT_EXT_STRIPE_WIDTH, 4294967295ULL, 4294967296ULL },
		{ SP_LIMIT_EXT3_BLOCKS, 4294967295ULL, 4294967296ULL },
		{ SP_LIMIT_EXT4_STRIPE_USED, 32768, 32769 },
		{ SP_LIMIT_READ_AHEAD_KB, 4294967295ULL, 4294967296ULL },
		{ SP_LIMIT_NR_REQUESTS_SCHED, 2048, 2049 },
		{ SP_LIMIT_QUEUE_DEPTH, 4096, 4097 },
		{ SP_LIMIT_MD_STRIPE_CACHE, 32768, 32769 },
		{ SP_LIMIT_MD_SYNC_SPEED, 4294967295ULL, 4294967296ULL },
		{ SP_LIMIT_XFS_LOGBUFS, 8, 9 },
		{ SP_LIMIT_XFS_LOGBSIZE, 262144, 262145 },
		{ SP_LIMIT_MD_RAID6_DISKS, 256, 257 },
		{ SP_LIMIT_MD_DEVICES, 1920, 1921 },
	}, lower[] = {
		{ SP_LIMIT_XFS_SIZE, 300ULL << 20, (300ULL << 20) - 1 },
		{ SP_LIMIT_XFS_LOG_SIZE, 64ULL << 20, (64ULL << 20) - 1 },
		{ SP_LIMIT_XFS_AGSIZE, 16ULL << 20, (16ULL << 20) - 1 },
		{ SP_LIMIT_XFS_AGCOUNT, 2, 1 },
		{ SP_LIMIT_NR_REQUESTS_SCHED, 4, 3 },
		{ SP_LIMIT_NR_REQUESTS, 4, 3 },
		{ SP_LIMIT_MAX_SECTORS_KB, 4, 3 },
		{ SP_LIMIT_MAX_SECTORS_HW, 4, 3 },
		{ SP_LIMIT_NR_REQUESTS_TAGS, 4, 3 },
		{ SP_LIMIT_QUEUE_DEPTH, 1, 0 },
		{ SP_LIMIT_MD_STRIPE_CACHE, 17, 16 },
		{ SP_LIMIT_MD_SYNC_SPEED, 1, 0 },
		{ SP_LIMIT_XFS_LOGBUFS, 2, 1 },
		{ SP_LIMIT_MD_RAID6_DISKS, 4, 3 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(upper); i++) {
		assert_true(sp_limit_holds(upper[i].id, upper[i].last_ok));
		assert_false(sp_limit_holds(upper[i].id, upper[i].first_bad));
	}
	for (size_t i = 0; i < ARRAY_SIZE(lower); i++) {
		assert_true(sp_limit_holds(lower[i].id, lower[i].last_ok));
		assert_false(sp_limit_holds(lower[i].id, lower[i].first_bad));
	}
}

static void test_message(void **state)
{
	struct sp_error err = { 0 };

	(void)state;
	assert_int_equal(sp_limit_check(SP_LIMIT_XFS_SWIDTH, 2147483647, "stripe width", "x", &err), 0);
	assert_int_equal(sp_limit_check(SP_LIMIT_XFS_SWIDTH, 2147483648ULL, "stripe width",
					"32 data disks x 64 MiB = 2 GiB", &err),
			 -ERANGE);
	assert_int_equal(err.kind, SP_ERR_INVALID);
	assert_non_null(strstr(err.message, "stripe width: mkfs.xfs refuses a stripe width "));
	assert_non_null(strstr(err.message, "above 2147483647 bytes (xfsprogs 5.11, "));
	assert_non_null(strstr(err.message, "xfs_validate_stripe_geometry()"));
	assert_non_null(strstr(err.message, "): 32 data disks x 64 MiB = 2 GiB"));
	assert_int_equal(sp_limit_check(SP_LIMIT_MD_STRIPE_CACHE, 16, "md/stripe_cache_size", NULL,
					&err),
			 -ERANGE);
	assert_non_null(strstr(err.message, "Linux refuses an md/stripe_cache_size below 17 entries"));
	assert_non_null(strstr(err.message, "raid5_set_cache_size()"));
	assert_int_equal(err.message[strlen(err.message) - 1], ')');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_whole),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_message),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
