/*
 * The on-disk readers (planner/ondisk-*.c) on real structures that
 * mkfs.xfs 6.1, mke2fs 1.47 and sfdisk 2.38 wrote (fixtures/ondisk/,
 * made on sparse files), each then damaged one field at a time: every
 * check is seen to pass on the real one and to fail, with its own words,
 * on the damaged one.  A damaged field whose CRC is recomputed fails on
 * the field, not on the CRC, as xfs_db -x 'write -d' leaves it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ondisk/ondisk.h"
#include "plan/xfs-geometry.h"

#define MAX_FIXTURE (64U * 1024U)

static size_t load(const char *name, uint8_t *buf)
{
	const char *dir = getenv("FIXTURES");
	char path[4096];
	size_t n;
	FILE *f;

	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/ondisk/%s", dir, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	n = fread(buf, 1, MAX_FIXTURE, f);
	fclose(f);
	return n;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void test_crc_known_answers(void **state)
{
	(void)state;
	assert_int_equal(~sp_crc32c_update(~0U, "123456789", 9), 0xe3069283U);
	assert_int_equal(~sp_crc32_update(~0U, "123456789", 9), 0xcbf43926U);
	/* updates compose */
	assert_int_equal(sp_crc32c_update(sp_crc32c_update(~0U, "1234", 4), "56789", 5),
			 sp_crc32c_update(~0U, "123456789", 9));
}

/* ------------------------------------------------------------------ xfs */

/* what xfs_db -x 'write -d' does: the field, then the CRC over the sector */
static void xfs_recrc(uint8_t *sb, size_t sector)
{
	uint32_t crc;

	memset(sb + 224, 0, 4);
	crc = ~sp_crc32c_update(~0U, sb, sector);
	put_le32(sb + 224, crc);
}

static enum sp_ondisk_verdict xfs_judge(const uint8_t *b, size_t n, char *why)
{
	struct sp_xfs_sb sb;

	return sp_xfs_sb_read(b, n, &sb, why, SP_MSG_MAX);
}

static void test_xfs_real(void **state)
{
	static uint8_t b[MAX_FIXTURE];
	struct sp_xfs_sb sb;
	char why[SP_MSG_MAX];
	size_t n = load("xfs-v5.sb", b);

	(void)state;
	assert_int_equal(sp_xfs_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_INTACT);
	assert_string_equal(why, "");
	assert_true(sb.v5);
	assert_int_equal(sb.blocksize, 4096);
	assert_int_equal(sb.agblocks, 32704);
	assert_int_equal(sb.agcount, 8);
	assert_int_equal(sb.unit, 64);
	assert_int_equal(sb.width, 256);
	assert_int_equal(sb.crc_stored, sb.crc_computed);
	/* a 4 KiB-sector superblock: the CRC covers all 4096 bytes */
	n = load("xfs-v5-4k-sector.sb", b);
	assert_int_equal(sp_xfs_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_INTACT);
	assert_int_equal(sb.sectsize, 4096);
	assert_int_equal(sp_xfs_sb_read(b, 512, &sb, why, sizeof(why)), SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "only 512 of its 4096-byte sector"));
	/* v4 has no CRC to check */
	n = load("xfs-v4.sb", b);
	assert_int_equal(sp_xfs_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_INTACT);
	assert_false(sb.v5);
	/* no magic, too short */
	memset(b, 0, 512);
	assert_int_equal(sp_xfs_sb_read(b, 512, &sb, why, sizeof(why)), SP_ONDISK_ABSENT);
	assert_int_equal(load("xfs-v5.sb", b), 512);
	assert_int_equal(sp_xfs_sb_read(b, 100, &sb, why, sizeof(why)), SP_ONDISK_ABSENT);
}

/* Each damage, CRC recomputed, fails its own check. */
static void test_xfs_each_check(void **state)
{
	static const struct {
		size_t at;
		unsigned bytes;
		uint64_t value;
		const char *why;
	} cases[] = {
		{ 88, 4, 0, "sb_agcount is 0" },
		{ 88, 4, 9, "sb_agcount 9, but" },
		{ 48, 8, 0, "sb_logstart is 0" },
		{ 48, 8, 32703, "does not lie inside one allocation group" },
		{ 216, 4, 0x00001000, "unknown incompatible feature bits 0x00001000" },
		{ 212, 4, 0x00000010, "unknown read-only-compatible feature bits 0x00000010" },
		{ 216, 4, 0x0000001b, "needsrepair" },
		{ 4, 4, 3000, "block size 3000" },
		{ 102, 2, 1000, "sector size 1000" },
		{ 104, 2, 4096, "inode alignment 8 blocks, sparse inodes need 64" },
		{ 122, 1, 10, "inode size 512 (log 10)" },
		{ 84, 4, 1000, "allocation groups of 1000 blocks" },
		{ 124, 1, 9, "sb_agblklog 9" },
		{ 8, 8, 1, "sb_agcount 8, but 1 blocks" },
		{ 127, 1, 101, "sb_imax_pct 101" },
		{ 179, 1, 1, "sb_shared_vn is 1" },
		{ 188, 4, 100, "not a multiple of the stripe unit" },
		{ 196, 4, 1000, "log stripe unit 1000 bytes" },
		{ 96, 4, 2000000, "log of 2000000 blocks" },
		{ 100, 2, 0xb485, "feature masks no mkfs.xfs writes" },
		{ 100, 2, 0xb4a3, "superblock version 3" },
		{ 200, 4, 0x0000008a, "feature masks no mkfs.xfs writes" },
		{ 24, 8, 5, "realtime geometry set without realtime blocks" },
	};
	static uint8_t orig[MAX_FIXTURE], b[MAX_FIXTURE];
	char why[SP_MSG_MAX];
	size_t n = load("xfs-v5.sb", orig);

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		memcpy(b, orig, n);
		if (cases[i].bytes == 8)
			put_be64(b + cases[i].at, cases[i].value);
		else if (cases[i].bytes == 4)
			put_be32(b + cases[i].at, (uint32_t)cases[i].value);
		else if (cases[i].bytes == 2)
			b[cases[i].at] = (uint8_t)(cases[i].value >> 8),
			b[cases[i].at + 1] = (uint8_t)cases[i].value;
		else
			b[cases[i].at] = (uint8_t)cases[i].value;
		xfs_recrc(b, n);
		assert_int_equal(xfs_judge(b, n, why), SP_ONDISK_DAMAGED);
		if (!strstr(why, cases[i].why))
			fail_msg("case %zu: '%s' does not say '%s'", i, why, cases[i].why);
	}
	/* a field changed without its CRC: the CRC says so */
	memcpy(b, orig, n);
	put_be32(b + 88, 0);
	assert_int_equal(xfs_judge(b, n, why), SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "superblock CRC is 0x"));
	/* mkfs in progress: everything else right */
	memcpy(b, orig, n);
	b[126] = 1;
	xfs_recrc(b, n);
	assert_int_equal(xfs_judge(b, n, why), SP_ONDISK_UNFINISHED);
	assert_non_null(strstr(why, "sb_inprogress 1"));
}

static void test_xfs_ag_header_and_geometry(void **state)
{
	static uint8_t b[MAX_FIXTURE];
	struct sp_xfs_ag_header h;
	size_t n = load("xfs-v5.agf", b);

	(void)state;
	assert_true(sp_xfs_ag_header_read(b, n, &h));
	assert_int_equal(h.magic, SP_XFS_AGF_MAGIC);
	assert_int_equal(h.seqno, 0);
	assert_int_equal(h.length_blocks, 32704);
	b[0] = 0;
	assert_false(sp_xfs_ag_header_read(b, n, &h));
	assert_false(sp_xfs_ag_header_read(b, 8, &h));
	/* calc_default_ag_geometry(): one device 4 AGs, multidisk 8 up to 8 GiB */
	assert_int_equal(sp_xfs_default_agblocks(12, 262144, false), 65536);
	assert_int_equal(sp_xfs_default_agblocks(12, 262144, true), 32768);
	assert_int_equal(sp_xfs_default_agblocks(12, 262145, false), 65537);
	assert_int_equal(sp_xfs_default_agblocks(12, 5ULL << 28, false), (1ULL << 28) - 1);
	assert_int_equal(sp_xfs_default_agblocks(12, 100, false), 0);
	/* ... and what mkfs.xfs made of it on the stripe: one su off the width */
	assert_int_equal(sp_xfs_mkfs_agsize_bytes(1ULL << 30, 256 * 1024, 4), 32704ULL * 4096);
}

/* ------------------------------------------------------------------ ext */

static void ext_recsum(uint8_t *sb)
{
	put_le32(sb + 0x3fc, sp_crc32c_update(~0U, sb, 0x3fc));
}

static void test_ext_real(void **state)
{
	static uint8_t b[MAX_FIXTURE];
	struct sp_ext_sb sb;
	char why[SP_MSG_MAX];
	size_t n = load("ext4.sb", b);

	(void)state;
	assert_int_equal(sp_ext_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_INTACT);
	assert_string_equal(sb.type, "ext4");
	assert_int_equal(sb.block_bytes, 4096);
	assert_int_equal(sb.blocks_per_group, 32768);
	assert_int_equal(sb.groups, 8);
	assert_int_equal(sb.checksum_stored, sb.checksum_computed);
	assert_true(sp_ext_group_has_backup(&sb, 1));
	assert_true(sp_ext_group_has_backup(&sb, 25));
	assert_true(sp_ext_group_has_backup(&sb, 49));
	assert_false(sp_ext_group_has_backup(&sb, 2));
	assert_false(sp_ext_group_has_backup(&sb, 15));
	n = load("ext4-backup-g1.sb", b);
	assert_int_equal(sp_ext_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_INTACT);
	assert_int_equal(sb.block_group_nr, 1);
	n = load("ext3.sb", b);
	assert_int_equal(sp_ext_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_INTACT);
	assert_string_equal(sb.type, "ext3");
	n = load("ext2-1k.sb", b);
	assert_int_equal(sp_ext_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_INTACT);
	assert_string_equal(sb.type, "ext2");
	assert_int_equal(sb.first_data_block, 1);
	/* the magic alone is not a superblock */
	memset(b, 0xff, 1024);
	b[0x38] = 0x53;
	b[0x39] = 0xef;
	assert_int_equal(sp_ext_sb_read(b, 1024, &sb, why, sizeof(why)), SP_ONDISK_ABSENT);
	b[0x38] = 0;
	assert_int_equal(sp_ext_sb_read(b, 1024, &sb, why, sizeof(why)), SP_ONDISK_ABSENT);
}

static void test_ext_each_check(void **state)
{
	static const struct {
		size_t at;
		uint32_t value;
		const char *why;
	} cases[] = {
		{ 0x60, 0x000002c2 | 0x00040000, "unknown incompatible feature bits 0x00040000" },
		{ 0x64, 0x0000046b | 0x00100000, "unknown read-only-compatible feature bits" },
		{ 0x00, 65537, "65537 inodes, but 8 groups" },
		{ 0x14, 300000, "first data block 300000" },
		{ 0x20, 40000, "40000 blocks (40000 clusters) per group" },
		{ 0x24, 16384, "32768 blocks but 16384 clusters" },
		{ 0x28, 0, "0 inodes per group" },
	};
	static uint8_t orig[MAX_FIXTURE], b[MAX_FIXTURE];
	struct sp_ext_sb sb;
	char why[SP_MSG_MAX];
	size_t n = load("ext4.sb", orig);

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		memcpy(b, orig, n);
		put_le32(b + cases[i].at, cases[i].value);
		if (cases[i].at == 0x20)
			put_le32(b + 0x24, cases[i].value);
		ext_recsum(b);
		assert_int_equal(sp_ext_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_DAMAGED);
		if (!strstr(why, cases[i].why))
			fail_msg("case %zu: '%s' does not say '%s'", i, why, cases[i].why);
	}
	/* the checksum, then the checksum type */
	memcpy(b, orig, n);
	b[0x78] ^= 1; /* the volume label */
	assert_int_equal(sp_ext_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "superblock checksum is 0x"));
	memcpy(b, orig, n);
	b[0x175] = 2;
	ext_recsum(b);
	assert_int_equal(sp_ext_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "checksum type 2"));
	/* inode size, descriptor size */
	memcpy(b, orig, n);
	b[0x58] = 0x20;
	b[0x59] = 0x01; /* 288 */
	ext_recsum(b);
	assert_int_equal(sp_ext_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "inode size 288"));
	memcpy(b, orig, n);
	b[0xfe] = 48;
	ext_recsum(b);
	assert_int_equal(sp_ext_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "group descriptor size 48"));
	/* ext3 has no checksum: a changed label is still intact */
	n = load("ext3.sb", b);
	b[0x78] ^= 1;
	assert_int_equal(sp_ext_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_INTACT);
	/* 1 KiB blocks need the superblock's own block before the data */
	n = load("ext2-1k.sb", b);
	put_le32(b + 0x14, 0);
	assert_int_equal(sp_ext_sb_read(b, n, &sb, why, sizeof(why)), SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "first data block 0 with 1 KiB blocks"));
}

/* ------------------------------------------------------------------ gpt */

static void gpt_recrc(uint8_t *hdr)
{
	uint32_t size = hdr[12] | hdr[13] << 8;

	memset(hdr + 16, 0, 4);
	put_le32(hdr + 16, ~sp_crc32_update(~0U, hdr, size));
}

static void test_gpt(void **state)
{
	static uint8_t b[MAX_FIXTURE];
	struct sp_gpt_header h;
	struct sp_gpt_partition parts[4];
	struct sp_mbr mbr;
	char why[SP_MSG_MAX];
	size_t n = load("gpt-primary.bin", b);
	uint64_t disk = 131072;

	(void)state;
	assert_true(sp_mbr_read(b, n, &mbr));
	assert_true(mbr.protective);
	assert_int_equal(sp_gpt_header_read(b + 512, 512, 1, disk, &h, why, sizeof(why)),
			 SP_ONDISK_INTACT);
	assert_int_equal(h.alternate_lba, disk - 1);
	assert_int_equal(h.entries_lba, 2);
	assert_int_equal(sp_gpt_entries_bytes(&h), 16384);
	assert_int_equal(sp_gpt_entries_check(&h, b + 1024, 16384, why, sizeof(why)),
			 SP_ONDISK_INTACT);
	assert_int_equal(sp_gpt_partitions(&h, b + 1024, 16384, parts, 4), 1);
	assert_int_equal(parts[0].number, 1);
	assert_int_equal(parts[0].first_lba, 2048);
	assert_int_equal(parts[0].last_lba, 2048 + 65536 - 1);
	/* read where it does not say it is */
	assert_int_equal(sp_gpt_header_read(b + 512, 512, 2, disk, &h, why, sizeof(why)),
			 SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "it says it is at LBA 1, it was read at LBA 2"));
	/* a smaller disk than it describes */
	assert_int_equal(sp_gpt_header_read(b + 512, 512, 1, 65536, &h, why, sizeof(why)),
			 SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "usable LBAs"));
	/* one entry byte changed: the array's CRC */
	b[1024 + 40] ^= 1;
	assert_int_equal(sp_gpt_entries_check(&h, b + 1024, 16384, why, sizeof(why)),
			 SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "entry array CRC is 0x"));
	assert_int_equal(sp_gpt_entries_check(&h, b + 1024, 100, why, sizeof(why)),
			 SP_ONDISK_DAMAGED);
	/* a header byte: its CRC; recomputed, the field */
	b[512 + 40] ^= 1;
	assert_int_equal(sp_gpt_header_read(b + 512, 512, 1, disk, &h, why, sizeof(why)),
			 SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "header CRC is 0x"));
	put_le32(b + 512 + 84, 100);
	gpt_recrc(b + 512);
	assert_int_equal(sp_gpt_header_read(b + 512, 512, 1, disk, &h, why, sizeof(why)),
			 SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "100-byte entries"));
	put_le32(b + 512 + 84, 128);
	put_le32(b + 512 + 80, 1000000);
	gpt_recrc(b + 512);
	assert_int_equal(sp_gpt_header_read(b + 512, 512, 1, disk, &h, why, sizeof(why)),
			 SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "1000000 entries"));
	put_le32(b + 512 + 12, 600);
	assert_int_equal(sp_gpt_header_read(b + 512, 512, 1, disk, &h, why, sizeof(why)),
			 SP_ONDISK_DAMAGED);
	assert_non_null(strstr(why, "header size 600"));
	b[512] = 'X';
	assert_int_equal(sp_gpt_header_read(b + 512, 512, 1, disk, &h, why, sizeof(why)),
			 SP_ONDISK_ABSENT);
	/* the backup copy: entries first, the header in the last sector */
	n = load("gpt-backup.bin", b);
	assert_int_equal(n, 33 * 512);
	assert_int_equal(sp_gpt_header_read(b + 32 * 512, 512, disk - 1, disk, &h, why, sizeof(why)),
			 SP_ONDISK_INTACT);
	assert_int_equal(h.entries_lba, disk - 33);
	assert_int_equal(sp_gpt_entries_check(&h, b, 16384, why, sizeof(why)), SP_ONDISK_INTACT);
	/* an msdos label */
	n = load("msdos.mbr", b);
	assert_true(sp_mbr_read(b, n, &mbr));
	assert_false(mbr.protective);
	assert_int_equal(mbr.n_partitions, 1);
	assert_int_equal(mbr.part[0].start_lba, 63);
	b[511] = 0;
	assert_false(sp_mbr_read(b, n, &mbr));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_known_answers),
		cmocka_unit_test(test_xfs_real),
		cmocka_unit_test(test_xfs_each_check),
		cmocka_unit_test(test_xfs_ag_header_and_geometry),
		cmocka_unit_test(test_ext_real),
		cmocka_unit_test(test_ext_each_check),
		cmocka_unit_test(test_gpt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
