/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The XFS superblock and AG header readers (planner/ondisk/xfs.c) on
 * arbitrary sectors.  Oracles: a verdict is one of the four; whatever is
 * said is a terminated, non-empty sentence when not intact; an intact
 * superblock has the geometry the checks promise (powers of two matching
 * their logs, AGs covering the blocks, the v5 CRC its contents give); an
 * absent one has no magic; nothing is read past len (ASan).
 */
#include <inttypes.h>

#include "fuzz.h"
#include "ondisk/ondisk.h"

static void check_intact(const struct sp_xfs_sb *sb)
{
	FUZZ_CHECK(sb->blocksize == 1U << sb->blocklog, "block %u log %u", sb->blocksize,
		   sb->blocklog);
	FUZZ_CHECK(sb->sectsize == 1U << sb->sectlog, "sector %u log %u", sb->sectsize, sb->sectlog);
	FUZZ_CHECK(sb->agcount > 0 && (uint64_t)sb->agcount * sb->agblocks >= sb->dblocks,
		   "%u AGs of %u blocks for %" PRIu64, sb->agcount, sb->agblocks, sb->dblocks);
	FUZZ_CHECK(sb->logstart != 0, "intact with an external log");
	FUZZ_CHECK(!sb->v5 || sb->crc_stored == sb->crc_computed, "CRC 0x%08x, computed 0x%08x",
		   sb->crc_stored, sb->crc_computed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sp_xfs_sb sb;
	struct sp_xfs_ag_header agh;
	char why[SP_MSG_MAX];
	enum sp_ondisk_verdict v = sp_xfs_sb_read(data, size, &sb, why, sizeof(why));

	FUZZ_CHECK(v >= SP_ONDISK_ABSENT && v <= SP_ONDISK_UNFINISHED, "verdict %d", v);
	FUZZ_CHECK_TERMINATED(why);
	FUZZ_CHECK(v == SP_ONDISK_INTACT || v == SP_ONDISK_ABSENT || why[0], "verdict %s, no why",
		   sp_ondisk_verdict_name(v));
	if (v == SP_ONDISK_INTACT)
		check_intact(&sb);
	if (v == SP_ONDISK_ABSENT && size >= SP_XFS_SB_BYTES)
		FUZZ_CHECK(memcmp(data, "XFSB", 4) != 0, "absent with the magic");
	/* the same bytes read without room for a why */
	FUZZ_CHECK(sp_xfs_sb_read(data, size, &sb, NULL, 0) == v, "verdict depends on why");
	if (sp_xfs_ag_header_read(data, size, &agh))
		FUZZ_CHECK(agh.magic == SP_XFS_AGF_MAGIC || agh.magic == SP_XFS_AGI_MAGIC, "magic");
	if (size >= 9) {
		uint64_t dblocks;

		memcpy(&dblocks, data + 1, sizeof(dblocks));
		FUZZ_CHECK(sp_xfs_default_agblocks(data[0] % 20, dblocks, data[0] & 0x80) <= dblocks,
			   "AG larger than the filesystem");
	}
	return 0;
}
