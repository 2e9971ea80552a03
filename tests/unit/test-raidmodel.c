/*
 * The array model (planner/raid/model.c) on synthetic traces whose member
 * I/O is worked out by hand in the comments.  Sectors are 512 bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/error.h"
#include "base/units.h"
#include "raid/model.h"

#define EPS 1e-9

static struct rm_array array(enum sp_level level, unsigned disks, unsigned spans,
			     uint64_t chunk_bytes, uint64_t offset_sectors)
{
	return (struct rm_array){ level, disks, spans, chunk_bytes, offset_sectors };
}

/* Replays `trace` (the bench's text form) and returns the totals. */
static struct rm_stats replay(const struct rm_array *a, enum rm_gather gather, const char *trace)
{
	struct sp_error err = { 0 };
	struct rm_model *m = NULL;
	struct rm_stats s;
	FILE *f;

	assert_int_equal(rm_model_new(a, gather, &m, &err), 0);
	f = fmemopen((void *)trace, strlen(trace), "r");
	assert_non_null(f);
	if (rm_trace_replay(m, f, "t", &err) < 0)
		fail_msg("replay failed: %s", err.message);
	fclose(f);
	assert_int_equal(rm_model_finish(m, &s), 0);
	rm_model_free(m);
	return s;
}

static const char *replay_error(const struct rm_array *a, const char *trace)
{
	static struct sp_error err;
	struct rm_model *m = NULL;
	FILE *f;

	memset(&err, 0, sizeof(err));
	assert_int_equal(rm_model_new(a, RM_GATHER_INFLIGHT, &m, &err), 0);
	f = fmemopen((void *)trace, strlen(trace), "r");
	assert_non_null(f);
	assert_true(rm_trace_replay(m, f, "t", &err) < 0);
	fclose(f);
	rm_model_free(m);
	return err.message;
}

static struct rm_figures figures(const struct rm_array *a, const struct rm_stats *s,
				 enum rm_dir dir)
{
	struct rm_geometry g;
	struct rm_figures f;

	assert_int_equal(rm_geometry_init(a, &g, NULL), 0);
	rm_figures(&g, s, dir, 0, &f);
	return f;
}

static void assert_close(double got, double want)
{
	if (got < want - 1e-6 || got > want + 1e-6)
		fail_msg("got %.9f, want %.9f", got, want);
}

/*
 * RAID5 4 x 64 KiB: 3 data columns of 128 sectors, 1 parity; a row (full
 * stripe) is 384 sectors = 192 KiB.  Writing it whole costs 4 member
 * writes and no reads, so the least a MiB can cost is 4 / (192/1024) =
 * 21.33 member I/Os.
 */
static const char three_stripes[] = "# three aligned full-stripe writes, one after another\n"
				    "I W 0 384\nC W 0 384\n"
				    "\n"
				    "I W 384 384\nC W 384 384\n"
				    "I W 768 384\nC W 768 384\n";

static void test_aligned_full_stripes(void **state)
{
	struct rm_array a = array(SP_LEVEL_5, 4, 0, 64 * SP_KIB, 0);
	struct rm_stats s = replay(&a, RM_GATHER_INFLIGHT, three_stripes);
	struct rm_figures f = figures(&a, &s, RM_WRITE);

	(void)state;
	assert_int_equal(s.write.requests, 3);
	assert_int_equal(s.rows_full, 3);
	assert_int_equal(s.rows_rmw + s.rows_rcw + s.rows_mixed + s.rows_partial, 0);
	assert_int_equal(s.write.member_reads, 0);
	assert_int_equal(s.write.member_writes, 12);
	assert_int_equal(s.write.member_write_sectors, 3 * (384 + 128));
	assert_int_equal(s.write.crossing_requests, 0);
	assert_int_equal(s.unmatched_completions, 0);
	assert_close(f.full_stripe_write_fraction, 1.0);
	assert_close(f.min_member_ios_per_mib, 4.0 / (192.0 / 1024.0));
	assert_close(f.member_ios_per_mib, f.min_member_ios_per_mib);
	assert_close(f.member_bytes_per_data_byte, 4.0 / 3.0);
	assert_close(f.chunk_crossing_fraction, 0.0);

	/*
	 * Per MiB of payload: had the workload written only half of this
	 * (the rest being, say, log padding), the same 12 member I/Os buy
	 * 288 KiB: 42.67 a MiB, and 1536 member sectors for 576 sectors.
	 */
	{
		struct rm_geometry g;

		assert_int_equal(rm_geometry_init(&a, &g, NULL), 0);
		rm_figures(&g, &s, RM_WRITE, 288 * SP_KIB, &f);
		assert_close(f.payload_mib, 288.0 / 1024.0);
		assert_close(f.device_mib, 576.0 / 1024.0);
		assert_close(f.member_ios_per_mib, 12.0 / (288.0 / 1024.0));
		assert_close(f.member_bytes_per_data_byte, 1536.0 / 576.0);
	}

	/* costed request by request the answer is the same: nothing to gather */
	s = replay(&a, RM_GATHER_NONE, three_stripes);
	assert_int_equal(s.rows_full, 3);
	assert_int_equal(s.write.member_reads, 0);
	assert_int_equal(s.write.member_writes, 12);
}

/*
 * The same three writes on a partition that starts at sector 63 (the
 * msdos default until 2008).  Request 1 lands on LUN sectors [63, 447):
 *
 *   row 0 = LUN [0, 384): written [63, 384)
 *     column 0 (LUN 0..127)   offsets 63..127 written (65 sectors)
 *     column 1 (LUN 128..255) all 128 written
 *     column 2 (LUN 256..383) all 128 written
 *     parity is rewritten at every offset where any column is: 0..127
 *     offsets 0..62:   k = 2 columns written; rmw would read k + 1 = 3,
 *                      rcw reads 3 - k = 1 (column 0)  -> rcw
 *     offsets 63..127: k = 3, rcw reads 0              -> rcw, no reads
 *     => writes: col0, col1, col2, parity = 4 (65+128+128+128 = 449 sectors)
 *        reads:  col0 offsets 0..62 = 1 (63 sectors)
 *   row 1 = LUN [384, 768): written [384, 447) = column 0 offsets 0..62
 *     offsets 0..62: k = 1; rmw reads 1 + 1 = 2, rcw reads 3 - 1 = 2:
 *                    a tie, which md gives to rcw
 *     => writes: col0, parity = 2 (63 + 63 sectors)
 *        reads:  col1 and col2 at offsets 0..62 = 2 (126 sectors)
 *   request 1: 6 writes + 3 reads = 9 member I/Os, both rows rcw.
 *
 * Requests 2 and 3 ([447, 831) and [831, 1215)) fall the same way on rows
 * 1-2 and 2-3: 27 member I/Os in all for 576 KiB, 48 per MiB, 2.25 times
 * the aligned 21.33.  Each 3-chunk request touches 4 chunks: every one
 * crosses a chunk boundary it need not cross.
 */
static void test_shifted_by_63_sectors(void **state)
{
	struct rm_array a = array(SP_LEVEL_5, 4, 0, 64 * SP_KIB, 63);
	struct rm_stats s = replay(&a, RM_GATHER_INFLIGHT, three_stripes);
	struct rm_figures f = figures(&a, &s, RM_WRITE);

	(void)state;
	assert_int_equal(s.rows_full, 0);
	assert_int_equal(s.rows_rcw, 6);
	assert_int_equal(s.rows_rmw + s.rows_mixed, 0);
	assert_int_equal(s.write.member_writes, 18);
	assert_int_equal(s.write.member_reads, 9);
	assert_int_equal(s.write.member_write_sectors, 3 * (449 + 126));
	assert_int_equal(s.write.member_read_sectors, 3 * (63 + 126));
	assert_int_equal(s.write.crossing_requests, 3);
	assert_close(f.member_ios_per_mib, 48.0);
	assert_close(f.member_ios_per_mib / f.min_member_ios_per_mib, 2.25);
	assert_close(f.full_stripe_write_fraction, 0.0);
	assert_close(f.chunk_crossing_fraction, 1.0);
}

/*
 * The shifted writes again, but all three in flight at once (a queue
 * depth of 3): gathered, they cover LUN [63, 1215).
 *   row 0 [63, 384):     as above, 4 writes + 1 read
 *   row 1 [384, 768):    whole: 4 writes
 *   row 2 [768, 1152):   whole: 4 writes
 *   row 3 [1152, 1215):  column 0 offsets 0..62, as row 1 above: 2 writes + 2 reads
 * 17 member I/Os instead of 27; 768 of the 1152 sectors went as full stripes.
 * Without gathering, the same trace costs the 27 of the test above.
 */
static const char three_in_flight[] = "I W 0 384\nI W 384 384\nI W 768 384\n"
				      "C W 384 384\nC W 0 384\nC W 768 384\n";

static void test_gathering_in_flight_writes(void **state)
{
	struct rm_array a = array(SP_LEVEL_5, 4, 0, 64 * SP_KIB, 63);
	struct rm_stats s = replay(&a, RM_GATHER_INFLIGHT, three_in_flight);
	struct rm_figures f = figures(&a, &s, RM_WRITE);

	(void)state;
	assert_int_equal(s.rows_full, 2);
	assert_int_equal(s.rows_rcw, 2);
	assert_int_equal(s.write.member_writes, 14);
	assert_int_equal(s.write.member_reads, 3);
	assert_close(f.full_stripe_write_fraction, 768.0 / 1152.0);

	s = replay(&a, RM_GATHER_NONE, three_in_flight);
	assert_int_equal(s.write.member_writes + s.write.member_reads, 27);
}

/*
 * RAID5 10 x 1 MiB (the md seed): 9 data columns of 2048 sectors, a 9 MiB
 * row.  The loop device splits one 9 MiB direct write into pieces; here 18
 * of 1024 sectors (512 KiB), each half of one column.
 *  - All in flight together, gathered: one full row, 10 writes, no reads.
 *  - Each piece alone: k = 1 column written at its offsets; rmw reads
 *    1 + 1 = 2, rcw reads 9 - 1 = 8 -> rmw: read the old half column and
 *    the old parity, write both: 4 member I/Os a piece, 72 in all.
 *  - Pieces issued and completed one at a time are never gathered, even
 *    with gathering on: they did not overlap in time.  72 again.
 */
static void test_split_full_stripe(void **state)
{
	struct rm_array a = array(SP_LEVEL_5, 10, 0, SP_MIB, 0);
	char together[2048] = "", serial[2048] = "";
	size_t t = 0, u = 0;
	struct rm_stats s;

	(void)state;
	for (unsigned i = 0; i < 18; i++)
		t += (size_t)snprintf(together + t, sizeof(together) - t, "I W %u 1024\n", i * 1024);
	for (unsigned i = 0; i < 18; i++) {
		t += (size_t)snprintf(together + t, sizeof(together) - t, "C W %u 1024\n", i * 1024);
		u += (size_t)snprintf(serial + u, sizeof(serial) - u, "I W %u 1024\nC W %u 1024\n",
				      i * 1024, i * 1024);
	}

	s = replay(&a, RM_GATHER_INFLIGHT, together);
	assert_int_equal(s.rows_full, 1);
	assert_int_equal(s.write.member_writes, 10);
	assert_int_equal(s.write.member_reads, 0);

	s = replay(&a, RM_GATHER_NONE, together);
	assert_int_equal(s.rows_full, 0);
	assert_int_equal(s.rows_rmw, 18);
	assert_int_equal(s.write.member_writes, 36);
	assert_int_equal(s.write.member_reads, 36);

	s = replay(&a, RM_GATHER_INFLIGHT, serial);
	assert_int_equal(s.rows_rmw, 18);
	assert_int_equal(s.write.member_writes + s.write.member_reads, 72);
}

/*
 * md's choice on the same 9-column row:
 *  - 4 KiB in one column: k = 1, rmw reads 2 < rcw 8 -> rmw:
 *    2 reads (data, parity) + 2 writes.
 *  - 5 whole columns: k = 5, rmw reads 6 > rcw 4 -> rcw: 4 reads + 6 writes.
 *  - column 0 whole and columns 1..5 in their first half (six writes in
 *    flight together): offsets 0..1023 have k = 6 (rcw reads 3 < rmw 7),
 *    offsets 1024..2047 have k = 1 (rmw reads 2 < rcw 8): a mixed row.
 *    reads: column 0 at 1024..2047 (rmw, it is written there) = 1,
 *           columns 6, 7, 8 at 0..1023 (rcw, not written there) = 3,
 *           parity at 1024..2047 (rmw) = 1                 -> 5 reads
 *    writes: columns 0..5 and parity                       -> 7 writes
 */
static void test_rmw_or_rcw(void **state)
{
	struct rm_array a = array(SP_LEVEL_5, 10, 0, SP_MIB, 0);
	struct rm_stats s;

	(void)state;
	s = replay(&a, RM_GATHER_INFLIGHT, "I W 4096 8\nC W 4096 8\n");
	assert_int_equal(s.rows_rmw, 1);
	assert_int_equal(s.write.member_reads, 2);
	assert_int_equal(s.write.member_read_sectors, 16);
	assert_int_equal(s.write.member_writes, 2);

	s = replay(&a, RM_GATHER_INFLIGHT, "I W 0 10240\nC W 0 10240\n");
	assert_int_equal(s.rows_rcw, 1);
	assert_int_equal(s.write.member_reads, 4);
	assert_int_equal(s.write.member_read_sectors, 4 * 2048);
	assert_int_equal(s.write.member_writes, 6);

	s = replay(&a, RM_GATHER_INFLIGHT,
		   "I W 0 2048\nI W 2048 1024\nI W 4096 1024\nI W 6144 1024\n"
		   "I W 8192 1024\nI W 10240 1024\n"
		   "C W 0 2048\nC W 2048 1024\nC W 4096 1024\nC W 6144 1024\n"
		   "C W 8192 1024\nC W 10240 1024\n");
	assert_int_equal(s.rows_mixed, 1);
	assert_int_equal(s.write.member_reads, 5);
	assert_int_equal(s.write.member_read_sectors, 1024 + 3 * 1024 + 1024);
	assert_int_equal(s.write.member_writes, 7);
}

/*
 * Member bytes, read and written, per byte of data.
 *  - RAID5 4 x 64 KiB, one full stripe (192 KiB of data, 384 sectors):
 *    3 data chunks + 1 parity chunk written, nothing read: 4 x 64 KiB =
 *    256 KiB on the members for 192 KiB, 4/3 = 1.333...
 *  - the same array, one 4 KiB write (8 sectors) at sector 0: k = 1 data
 *    column written, rmw would read k + P = 2 members, rcw D - k = 2: a
 *    tie, so reconstruct-write: read columns 1 and 2 at those 8 sectors
 *    (8 KiB), write column 0 and parity (8 KiB): 16 KiB for 4 KiB, 4.0.
 *  - RAID5 10 x 1 MiB, one 4 KiB write: rmw reads 1 + 1 = 2 members, rcw
 *    would read 8: read-modify-write, 2 reads (8 KiB) + 2 writes (8 KiB):
 *    4.0 again; reconstruct-write would have cost 8 x 4 + 2 x 4 = 40 KiB.
 */
static void test_member_bytes(void **state)
{
	struct rm_array a = array(SP_LEVEL_5, 4, 0, 64 * SP_KIB, 0);
	struct rm_array wide = array(SP_LEVEL_5, 10, 0, SP_MIB, 0);
	struct rm_stats s;
	struct rm_figures f;

	(void)state;
	s = replay(&a, RM_GATHER_INFLIGHT, "I W 0 384\nC W 0 384\n");
	f = figures(&a, &s, RM_WRITE);
	assert_int_equal((s.write.member_read_sectors + s.write.member_write_sectors) * 512,
			 4 * 64 * SP_KIB);
	assert_close(f.member_bytes_per_data_byte, 256.0 / 192.0);
	assert_close(f.min_member_bytes_per_data_byte, 4.0 / 3.0);

	s = replay(&a, RM_GATHER_INFLIGHT, "I W 0 8\nC W 0 8\n");
	f = figures(&a, &s, RM_WRITE);
	assert_int_equal(s.rows_rcw, 1);
	assert_int_equal(s.write.member_read_sectors * 512, 8 * SP_KIB);
	assert_int_equal(s.write.member_write_sectors * 512, 8 * SP_KIB);
	assert_close(f.member_bytes_per_data_byte, 4.0);

	s = replay(&wide, RM_GATHER_INFLIGHT, "I W 0 8\nC W 0 8\n");
	f = figures(&wide, &s, RM_WRITE);
	assert_int_equal(s.rows_rmw, 1);
	assert_int_equal(s.write.member_read_sectors * 512, 8 * SP_KIB);
	assert_int_equal(s.write.member_write_sectors * 512, 8 * SP_KIB);
	assert_close(f.member_bytes_per_data_byte, 4.0);
}

static struct rm_floor floor_of(const struct rm_array *a, enum rm_dir dir, uint64_t bytes)
{
	struct sp_error err = { 0 };
	struct rm_geometry g;
	struct rm_floor f;

	assert_int_equal(rm_geometry_init(a, &g, NULL), 0);
	if (rm_floor(&g, dir, bytes, &f, &err) < 0)
		fail_msg("floor failed: %s", err.message);
	return f;
}

/*
 * The achievable floor: each request alone, starting a row.
 *  - RAID5 4 x 64 KiB, 4 KiB writes: rmw and rcw both read 2 (a tie, rcw):
 *    2 reads + 2 writes = 4 I/Os per 4 KiB = 1024 per MiB, 16 KiB of
 *    member bytes for 4 KiB = 4.0 (the level's least: 21.33 and 1.33).
 *  - RAID5 10 x 1 MiB, 4 KiB writes: rmw (2 reads) beats rcw (8): 4 I/Os,
 *    1024 per MiB, 4.0; 64 KiB writes: the same 4 I/Os per 64 KiB, 64 per
 *    MiB, 256 KiB for 64 KiB = 4.0.
 *  - RAID5 4 x 64 KiB, one stripe (192 KiB): a full-stripe write, 4 I/Os,
 *    21.33 per MiB and 4/3: the level's least.
 *  - RAID5 4 x 64 KiB, 288 KiB (1.5 stripes, 576 sectors): one full row
 *    (4 I/Os, 512 sectors) and 192 sectors more: column 0 whole, column 1
 *    at offsets 0..63.  Offsets 0..63: k = 2, rmw 3 reads, rcw 1: rcw
 *    reads column 2 there; 64..127: k = 1, a tie, rcw reads columns 1 and
 *    2.  Reads: column 1 at 64..127 (64 sectors), column 2 at 0..127 (one
 *    run, 128); writes: columns 0 (128), 1 (64) and parity (128).  5 I/Os,
 *    512 sectors.  In all 9 I/Os for 288 KiB = 32 per MiB, 1024 sectors
 *    (512 KiB) for 288 KiB = 1.777...
 *  - RAID10 8 x 256 KiB, 64 KiB writes: one column, two copies: 2 I/Os,
 *    32 per MiB, 2.0.
 *  - RAID5 10 x 1 MiB, 64 KiB reads: one chunk, 16 per MiB, 1.0; 1.5 MiB
 *    reads: 2 chunks, 1.33 per MiB.
 */
static void test_floor(void **state)
{
	struct rm_array r5 = array(SP_LEVEL_5, 4, 0, 64 * SP_KIB, 0);
	struct rm_array wide = array(SP_LEVEL_5, 10, 0, SP_MIB, 0);
	struct rm_array r10 = array(SP_LEVEL_10, 8, 0, 256 * SP_KIB, 0);
	struct sp_error err = { 0 };
	struct rm_geometry g;
	struct rm_floor f;

	(void)state;
	f = floor_of(&r5, RM_WRITE, 4 * SP_KIB);
	assert_close(f.member_ios_per_mib, 1024.0);
	assert_close(f.member_bytes_per_data_byte, 4.0);

	f = floor_of(&wide, RM_WRITE, 4 * SP_KIB);
	assert_close(f.member_ios_per_mib, 1024.0);
	assert_close(f.member_bytes_per_data_byte, 4.0);
	f = floor_of(&wide, RM_WRITE, 64 * SP_KIB);
	assert_close(f.member_ios_per_mib, 64.0);
	assert_close(f.member_bytes_per_data_byte, 4.0);

	f = floor_of(&r5, RM_WRITE, 192 * SP_KIB);
	assert_close(f.member_ios_per_mib, 4.0 / (192.0 / 1024.0));
	assert_close(f.member_bytes_per_data_byte, 4.0 / 3.0);

	f = floor_of(&r5, RM_WRITE, 288 * SP_KIB);
	assert_close(f.member_ios_per_mib, 32.0);
	assert_close(f.member_bytes_per_data_byte, 512.0 / 288.0);

	f = floor_of(&r10, RM_WRITE, 64 * SP_KIB);
	assert_close(f.member_ios_per_mib, 32.0);
	assert_close(f.member_bytes_per_data_byte, 2.0);

	f = floor_of(&wide, RM_READ, 64 * SP_KIB);
	assert_close(f.member_ios_per_mib, 16.0);
	assert_close(f.member_bytes_per_data_byte, 1.0);
	f = floor_of(&wide, RM_READ, 1536 * SP_KIB);
	assert_close(f.member_ios_per_mib, 2.0 / 1.5);

	assert_int_equal(rm_geometry_init(&r5, &g, NULL), 0);
	assert_true(rm_floor(&g, RM_WRITE, 0, &f, &err) < 0);
	assert_true(rm_floor(&g, RM_WRITE, 100, &f, &err) < 0);
	assert_non_null(strstr(err.message, "100 bytes"));
	assert_true(rm_floor(&g, RM_WRITE, (UINT32_MAX + 1ULL) * 512, &f, &err) < 0);
}

/*
 * RAID10 8 x 256 KiB (the P400 seed): 4 mirrored columns of 512 sectors,
 * a 1 MiB row.  Mirrors never read to write; each column written costs 2.
 * Aligned 1 MiB writes: 8 writes each, the minimum of 8 per MiB.
 * Shifted by 63: [63, 2111) writes the 4 columns of row 0 (column 0 from
 * offset 63) and column 0 of row 1 (offsets 0..62): 5 columns, 10 writes,
 * 1.25 times the minimum; 5 chunks touched where 4 would do.
 */
static void test_raid10(void **state)
{
	struct rm_array a = array(SP_LEVEL_10, 8, 0, 256 * SP_KIB, 0);
	const char *trace = "I W 0 2048\nC W 0 2048\nI W 2048 2048\nC W 2048 2048\n";
	struct rm_stats s = replay(&a, RM_GATHER_INFLIGHT, trace);
	struct rm_figures f = figures(&a, &s, RM_WRITE);

	(void)state;
	assert_int_equal(s.rows_full, 2);
	assert_int_equal(s.write.member_writes, 16);
	assert_int_equal(s.write.member_reads, 0);
	assert_close(f.min_member_ios_per_mib, 8.0);
	assert_close(f.member_ios_per_mib, 8.0);
	assert_close(f.min_member_bytes_per_data_byte, 2.0);

	a.offset_sectors = 63;
	s = replay(&a, RM_GATHER_NONE, trace);
	f = figures(&a, &s, RM_WRITE);
	assert_int_equal(s.rows_full, 0);
	assert_int_equal(s.rows_partial, 4);
	assert_int_equal(s.write.member_writes, 20);
	assert_int_equal(s.write.member_reads, 0);
	assert_close(f.member_ios_per_mib / f.min_member_ios_per_mib, 1.25);
	assert_int_equal(s.write.crossing_requests, 2);
}

/*
 * RAID6 6 x 64 KiB: 4 data columns, 2 parity (P and Q).
 *  - one whole column: k = 1, rmw reads 1 + 2 = 3, rcw reads 4 - 1 = 3:
 *    tie -> rcw: 3 reads, writes column + P + Q = 3.
 *  - two whole columns: k = 2, rmw 4 > rcw 2 -> rcw: 2 reads, 4 writes.
 * RAID50 12 disks in 2 spans: rows of 5 data columns and 1 parity.
 */
static void test_raid6_and_spans(void **state)
{
	struct rm_array a = array(SP_LEVEL_6, 6, 0, 64 * SP_KIB, 0);
	struct rm_geometry g;
	struct rm_stats s;

	(void)state;
	s = replay(&a, RM_GATHER_INFLIGHT, "I W 0 128\nC W 0 128\n");
	assert_int_equal(s.rows_rcw, 1);
	assert_int_equal(s.write.member_reads, 3);
	assert_int_equal(s.write.member_writes, 3);
	s = replay(&a, RM_GATHER_INFLIGHT, "I W 0 256\nC W 0 256\n");
	assert_int_equal(s.write.member_reads, 2);
	assert_int_equal(s.write.member_writes, 4);

	a = array(SP_LEVEL_50, 12, 2, 64 * SP_KIB, 0);
	assert_int_equal(rm_geometry_init(&a, &g, NULL), 0);
	assert_int_equal(g.data_columns, 5);
	assert_int_equal(g.parity_columns, 1);
	assert_int_equal(g.row_sectors, 5 * 128);
	assert_close(rm_min_write_ios_per_mib(&g), 6.0 / (5.0 / 16.0));
}

/* Reads cost one member read per chunk touched: 128 KiB on 64 KiB chunks is 2, shifted 3. */
static void test_reads(void **state)
{
	struct rm_array a = array(SP_LEVEL_5, 4, 0, 64 * SP_KIB, 0);
	const char *trace = "I R 0 256\nC R 0 256\nI R 256 256\nC R 256 256\n";
	struct rm_stats s = replay(&a, RM_GATHER_INFLIGHT, trace);
	struct rm_figures f = figures(&a, &s, RM_READ);

	(void)state;
	assert_int_equal(s.read.requests, 2);
	assert_int_equal(s.read.member_reads, 4);
	assert_int_equal(s.write.requests, 0);
	assert_int_equal(s.unmatched_completions, 0); /* read completions are not matched */
	assert_close(f.min_member_ios_per_mib, 16.0);
	assert_close(f.member_ios_per_mib, 16.0);
	assert_close(f.full_stripe_write_fraction, -1.0);

	a.offset_sectors = 63;
	s = replay(&a, RM_GATHER_INFLIGHT, trace);
	f = figures(&a, &s, RM_READ);
	assert_int_equal(s.read.member_reads, 6);
	assert_int_equal(s.read.crossing_requests, 2);
	assert_close(f.member_ios_per_mib, 24.0);
}

/* The four arrays the bench runs, at their theoretical minimum. */
static void test_minimums(void **state)
{
	struct rm_geometry g;
	struct rm_array a;

	(void)state;
	a = array(SP_LEVEL_10, 8, 0, 256 * SP_KIB, 0);
	assert_int_equal(rm_geometry_init(&a, &g, NULL), 0);
	assert_close(rm_min_write_ios_per_mib(&g), 8.0);
	a = array(SP_LEVEL_5, 10, 0, SP_MIB, 0);
	assert_int_equal(rm_geometry_init(&a, &g, NULL), 0);
	assert_close(rm_min_write_ios_per_mib(&g), 10.0 / 9.0);
	a = array(SP_LEVEL_5, 15, 0, 128 * SP_KIB, 0);
	assert_int_equal(rm_geometry_init(&a, &g, NULL), 0);
	assert_close(rm_min_write_ios_per_mib(&g), 15.0 / (14.0 / 8.0));
	a = array(SP_LEVEL_5, 4, 0, 64 * SP_KIB, 0);
	assert_int_equal(rm_geometry_init(&a, &g, NULL), 0);
	assert_close(rm_min_write_ios_per_mib(&g), 4.0 / (3.0 / 16.0));
	assert_close(rm_min_read_ios_per_mib(&g), 16.0);
}

/*
 * Completions that were never issued (the capture began mid-flight) are
 * counted, not guessed at; writes never completed are written back at the
 * end as they are; rows beyond RM_MAX_OPEN_ROWS are written back early.
 */
static void test_incomplete_traces(void **state)
{
	struct rm_array a = array(SP_LEVEL_0, 2, 0, 4 * SP_KIB, 0); /* rows of 16 sectors */
	static char many[(RM_MAX_OPEN_ROWS + 1) * 24];
	size_t n = 0;
	struct rm_stats s;

	(void)state;
	s = replay(&a, RM_GATHER_INFLIGHT, "C W 0 16\nI W 16 16\n");
	assert_int_equal(s.unmatched_completions, 1);
	assert_int_equal(s.rows_full, 1);
	assert_int_equal(s.write.member_writes, 2);

	for (unsigned i = 0; i <= RM_MAX_OPEN_ROWS; i++)
		n += (size_t)snprintf(many + n, sizeof(many) - n, "I W %u 16\n", i * 16);
	s = replay(&a, RM_GATHER_INFLIGHT, many);
	assert_int_equal(s.forced_destages, 1);
	assert_int_equal(s.rows_full, RM_MAX_OPEN_ROWS + 1);
}

static void test_bad_input(void **state)
{
	struct rm_array a = array(SP_LEVEL_5, 4, 0, 64 * SP_KIB, 0);
	struct sp_error err = { 0 };
	struct rm_geometry g;
	struct rm_array bad;

	(void)state;
	assert_non_null(strstr(replay_error(&a, "I W 0 8\nX W 1 2\n"), "t:2: expected"));
	assert_non_null(strstr(replay_error(&a, "I W 12\n"), "t:1:"));
	assert_non_null(strstr(replay_error(&a, "I W 12 8 9\n"), "t:1:"));
	assert_non_null(strstr(replay_error(&a, "I W -1 8\n"), "t:1:"));
	assert_non_null(strstr(replay_error(&a, "I W 0 4294967296\n"), "t:1:"));
	assert_non_null(strstr(replay_error(&a, "I D 0 8\n"), "t:1:"));
	assert_non_null(strstr(replay_error(&a, "I W 99999999999999999999 8\n"), "t:1:"));

	bad = array(SP_LEVEL_5, 2, 0, 64 * SP_KIB, 0);
	assert_true(rm_geometry_init(&bad, &g, &err) < 0);
	assert_non_null(strstr(err.message, "at least 3 disks"));
	bad = array(SP_LEVEL_5, 4, 0, 1000, 0);
	assert_true(rm_geometry_init(&bad, &g, &err) < 0);
	assert_non_null(strstr(err.message, "512-byte sectors"));
	bad = array(SP_LEVEL_0, 1024, 0, 64 * SP_MIB, 0);
	assert_true(rm_geometry_init(&bad, &g, &err) < 0);
	assert_non_null(strstr(err.message, "larger than"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aligned_full_stripes),
		cmocka_unit_test(test_shifted_by_63_sectors),
		cmocka_unit_test(test_gathering_in_flight_writes),
		cmocka_unit_test(test_split_full_stripe),
		cmocka_unit_test(test_rmw_or_rcw),
		cmocka_unit_test(test_member_bytes),
		cmocka_unit_test(test_floor),
		cmocka_unit_test(test_raid10),
		cmocka_unit_test(test_raid6_and_spans),
		cmocka_unit_test(test_reads),
		cmocka_unit_test(test_minimums),
		cmocka_unit_test(test_incomplete_traces),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
