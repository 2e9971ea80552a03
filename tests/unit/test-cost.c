/*
 * sp_cost_layout(): what a layout found on an array costs, from the array
 * model.  Every expected ratio is worked out by hand in the comments, with
 * the model's rules (planner/raid/model.h): a member I/O is one contiguous
 * run on one member within one row; a partial parity row reads by
 * reconstruct-write unless read-modify-write reads fewer members (ties go
 * to reconstruct-write); a read costs one member read per chunk touched.
 * The device tests (tests/device/check-findings.sh) assert these same
 * figures on loop devices laid out by parted and mkfs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "audit/audit.h"
#include "base/error.h"
#include "raid/cost.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)

static struct sp_cost cost(enum sp_level level, unsigned disks, uint64_t chunk, uint64_t start,
			   uint64_t su, unsigned sw)
{
	struct sp_layout l = { level, disks, 0, chunk, start, su, sw, 4096 };
	struct sp_error err = { 0 };
	struct sp_cost c = { 0 };

	if (sp_cost_layout(&l, &c, &err) < 0)
		fail_msg("sp_cost_layout: %s", err.message);
	assert_true(c.known);
	return c;
}

static void assert_close(double got, double want)
{
	if (got < want - 1e-6 || got > want + 1e-6)
		fail_msg("got %.9f, want %.9f", got, want);
}

/*
 * RAID5 4 x 64 KiB: 3 data chunks + parity a row, a 192 KiB stripe; the
 * least a 192 KiB write costs is 4 member writes (one per member).
 *
 * Partition 1 at sector 63 (msdos, 2006), XFS su=64k,sw=3: every write
 * starts 32256 B into a row (start + k x 192 KiB).
 *  row A, bytes 32256..192K: chunk 0 from 32256, chunks 1 and 2 whole.
 *    Offsets 0..32255 of the chunk have 2 of 3 data written: rcw reads
 *    chunk 0 there (1 read; rmw would read 2 + parity).  Offsets from
 *    32256 are full.  Writes: chunk 0, 1, 2, parity = 4.     -> 5
 *  row B, bytes 0..32255: chunk 0 only, 1 of 3: rcw reads chunks 1, 2
 *    (2), rmw reads chunk 0 + parity (2): a tie, rcw.  Writes: chunk 0,
 *    parity = 2.                                              -> 4
 *  9 member I/Os for 4 at best: 2.25x.
 * 64 KiB reads at multiples of su from the start: all 32256 B into a
 * chunk, so each touches 2 chunks: 2.00x.
 */
static void test_raid5_msdos_63(void **state)
{
	struct sp_cost c = cost(SP_LEVEL_5, 4, 64 * KiB, 63 * 512, 64 * KiB, 3);

	(void)state;
	assert_close(c.write_ratio, 2.25);
	assert_close(c.read_ratio, 2.0);
}

/*
 * The same array at parted's default, 1 MiB: 1 MiB = 5 x 192 KiB + 64 KiB,
 * so every write starts at chunk 1 of a row.
 *  row A: chunks 1, 2 (2 of 3): rcw reads chunk 0 (1); writes 1, 2, parity (3).
 *  row B: chunk 0 (1 of 3): a tie, rcw reads chunks 1, 2 (2); writes 0, parity (2).
 *  8 for 4: 2.00x.  1 MiB is a multiple of the 64 KiB chunk: reads 1.00x.
 */
static void test_raid5_parted_1mib(void **state)
{
	struct sp_cost c = cost(SP_LEVEL_5, 4, 64 * KiB, MiB, 64 * KiB, 3);

	(void)state;
	assert_close(c.write_ratio, 2.0);
	assert_close(c.read_ratio, 1.0);
}

/* 6 MiB is 32 whole 192 KiB stripes: every write is one full row, 1.00x. */
static void test_raid5_aligned_6mib(void **state)
{
	struct sp_cost c = cost(SP_LEVEL_5, 4, 64 * KiB, 6 * MiB, 64 * KiB, 3);

	(void)state;
	assert_close(c.write_ratio, 1.0);
	assert_close(c.read_ratio, 1.0);
}

/*
 * Aligned start (3 MiB), but sw=4 where the array has 3 data disks: XFS
 * places 192 KiB writes on multiples of 256 KiB, which fall at 0, 64 KiB
 * and 128 KiB into a row (gcd(256K, 192K) = 64K), equally often.
 *  at 0: one full row, 4.
 *  at 64 KiB: as at 1 MiB above, 8.
 *  at 128 KiB: row A chunk 2 (1 of 3, rcw reads 0 and 1: 2; writes 2) = 4,
 *    row B chunks 0, 1 (rcw reads 2: 1; writes 3) = 4: 8.
 *  (4 + 8 + 8) / (3 x 4) = 1.667x.  Reads on the 64 KiB unit: 1.00x.
 */
static void test_raid5_wrong_sw(void **state)
{
	struct sp_cost c = cost(SP_LEVEL_5, 4, 64 * KiB, 3 * MiB, 64 * KiB, 4);

	(void)state;
	assert_close(c.write_ratio, 20.0 / 12.0);
	assert_close(c.read_ratio, 1.0);
}

/*
 * RAID0 2 x 8 KiB, no stripe geometry: 16 KiB writes on any 4 KiB block,
 * at 0, 4, 8 and 12 KiB into a row.
 *  at 0: 2.  at 4 KiB: row A chunk 0 from 4K + chunk 1 (2), row B chunk 0's
 *  first 4K (1): 3.  at 8 KiB: chunk 1, then chunk 0 of the next row: 2.
 *  at 12 KiB: chunk 1's last 4K (1), then chunk 0 + chunk 1's first 4K (2): 3.
 *  10 for 4 x 2: 1.25x.  8 KiB reads at any block: 1 or 2 chunks, 1.50x.
 */
static void test_raid0_no_geometry(void **state)
{
	struct sp_cost c = cost(SP_LEVEL_0, 2, 8 * KiB, 0, 0, 0);

	(void)state;
	assert_close(c.write_ratio, 1.25);
	assert_close(c.read_ratio, 1.5);
}

/*
 * RAID10 8 x 256 KiB (the P400), msdos at sector 63, su=256k,sw=4: a
 * 1 MiB write 32256 B into a row touches chunks 0..3 of row A (4 runs)
 * and chunk 0 of row B (1), each on 2 mirrors: 10 for 8, 1.25x.  Reads
 * cross a chunk boundary every time: 2.00x.
 */
static void test_raid10_msdos_63(void **state)
{
	struct sp_cost c = cost(SP_LEVEL_10, 8, 256 * KiB, 63 * 512, 256 * KiB, 4);

	(void)state;
	assert_close(c.write_ratio, 1.25);
	assert_close(c.read_ratio, 2.0);
}

static void test_refused(void **state)
{
	struct sp_layout l = { SP_LEVEL_1, 2, 0, 64 * KiB, 0, 0, 0, 4096 };
	struct sp_error err = { 0 };
	struct sp_cost c = { 0 };

	(void)state;
	assert_true(sp_cost_layout(&l, &c, &err) < 0);
	assert_non_null(strstr(err.message, "mirror"));
	assert_false(c.known);
	l = (struct sp_layout){ SP_LEVEL_5, 4, 0, 64 * KiB, 100, 0, 0, 4096 };
	assert_true(sp_cost_layout(&l, &c, &err) < 0);
	assert_non_null(strstr(err.message, "512-byte sectors"));
	l = (struct sp_layout){ SP_LEVEL_5, 2, 0, 64 * KiB, 0, 0, 0, 4096 };
	assert_true(sp_cost_layout(&l, &c, &err) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raid5_msdos_63),
		cmocka_unit_test(test_raid5_parted_1mib),
		cmocka_unit_test(test_raid5_aligned_6mib),
		cmocka_unit_test(test_raid5_wrong_sw),
		cmocka_unit_test(test_raid0_no_geometry),
		cmocka_unit_test(test_raid10_msdos_63),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
