/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ext2/3/4 superblock reader (planner/ondisk/ext.c) on arbitrary
 * bytes.  Oracles: one of the verdicts; a terminated sentence for
 * damage; an intact superblock has a block size of 1 to 64 KiB, groups
 * holding exactly its inodes and a checksum that matches when it has
 * metadata_csum; group 0 always holds a superblock.
 */
#include <inttypes.h>

#include "fuzz.h"
#include "ondisk/ondisk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sp_ext_sb sb;
	char why[SP_MSG_MAX];
	enum sp_ondisk_verdict v = sp_ext_sb_read(data, size, &sb, why, sizeof(why));

	FUZZ_CHECK(v == SP_ONDISK_ABSENT || v == SP_ONDISK_INTACT || v == SP_ONDISK_DAMAGED,
		   "verdict %d", v);
	FUZZ_CHECK_TERMINATED(why);
	FUZZ_CHECK(v != SP_ONDISK_DAMAGED || why[0], "damaged, no why");
	FUZZ_CHECK(sp_ext_sb_read(data, size, &sb, NULL, 0) == v, "verdict depends on why");
	if (v == SP_ONDISK_ABSENT)
		return 0;
	FUZZ_CHECK_TERMINATED(sb.type);
	FUZZ_CHECK(sb.block_bytes >= 1024 && sb.block_bytes <= 65536, "block %u", sb.block_bytes);
	FUZZ_CHECK(sp_ext_group_has_backup(&sb, 0), "group 0 without a superblock");
	if (v != SP_ONDISK_INTACT)
		return 0;
	FUZZ_CHECK(sb.groups * sb.inodes_per_group == sb.inodes_count, "%" PRIu64 " x %u != %u",
		   sb.groups, sb.inodes_per_group, sb.inodes_count);
	FUZZ_CHECK(!(sb.feature_ro_compat & SP_EXT_RO_COMPAT_METADATA_CSUM) ||
			   sb.checksum_stored == sb.checksum_computed,
		   "checksum 0x%08x, computed 0x%08x", sb.checksum_stored, sb.checksum_computed);
	return 0;
}
