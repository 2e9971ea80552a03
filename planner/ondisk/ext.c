/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ext2/3/4 superblock, primary or backup, judged as the kernel's
 * ext4_fill_super() and e2fsprogs' ext2fs_open2() judge it: feature bits
 * the kernel does not know, block and inode sizes, the group geometry
 * (blocks, clusters and inodes per group against the counts), the
 * descriptor size of a 64bit filesystem, and with metadata_csum the
 * checksum (crc32c over everything before s_checksum, seed ~0, stored
 * as computed).  Offsets are those of struct ext2_super_block in
 * e2fsprogs' ext2_fs.h, little-endian; system/ondisk-scan.c checks them
 * against the installed header at compile time.
 *
 * The magic is two bytes, so a superblock is only taken as one when its
 * block size and revision are ones mkfs writes (a block size log up to
 * 6, revision 0 or 1): old file data that happens to hold 0xef53 at the
 * right place is not called a damaged filesystem.
 */
#include <inttypes.h>
#include <string.h>

#include "ondisk-internal.h"

/* struct ext2_super_block */
enum {
	S_INODES_COUNT = 0x00, S_BLOCKS_COUNT = 0x04, S_FIRST_DATA_BLOCK = 0x14,
	S_LOG_BLOCK_SIZE = 0x18, S_LOG_CLUSTER_SIZE = 0x1c, S_BLOCKS_PER_GROUP = 0x20,
	S_CLUSTERS_PER_GROUP = 0x24, S_INODES_PER_GROUP = 0x28, S_MAGIC = 0x38, S_STATE = 0x3a,
	S_ERRORS = 0x3c, S_REV_LEVEL = 0x4c, S_INODE_SIZE = 0x58, S_BLOCK_GROUP_NR = 0x5a,
	S_FEATURE_COMPAT = 0x5c, S_FEATURE_INCOMPAT = 0x60, S_FEATURE_RO_COMPAT = 0x64,
	S_UUID = 0x68, S_DESC_SIZE = 0xfe, S_BLOCKS_COUNT_HI = 0x150, S_RAID_STRIDE = 0x164,
	S_RAID_STRIPE_WIDTH = 0x170, S_LOG_GROUPS_PER_FLEX = 0x174, S_CHECKSUM_TYPE = 0x175,
	S_BACKUP_BGS = 0x24c, S_CHECKSUM = 0x3fc,
};

#define MAX_LOG_BLOCK_SIZE 6U /* 64 KiB */
#define MAX_REV_LEVEL 1U
#define GOOD_OLD_INODE_BYTES 128U
#define MIN_DESC_SIZE_64BIT 64U
#define MAX_DESC_SIZE 1024U
#define CHECKSUM_TYPE_CRC32C 1U

#define INCOMPAT_FILETYPE 0x0002U
#define INCOMPAT_META_BG 0x0010U
#define INCOMPAT_64BIT 0x0080U
#define INCOMPAT_FLEX_BG 0x0200U
/* fs/ext4/ext4.h EXT4_FEATURE_INCOMPAT_SUPP: filetype, recover, meta_bg,
 * extents, 64bit, mmp, flex_bg, ea_inode, csum_seed, largedir,
 * inline_data, encrypt, casefold */
#define INCOMPAT_KNOWN 0x0003e7d6U
/* EXT4_FEATURE_RO_COMPAT_SUPP: sparse_super, large_file, huge_file,
 * gdt_csum, dir_nlink, extra_isize, quota, bigalloc, metadata_csum,
 * readonly, project, verity, orphan_present */
#define RO_COMPAT_KNOWN 0x0001b77bU
#define RO_COMPAT_LARGE_FILE 0x0002U
#define RO_COMPAT_BTREE_DIR 0x0004U
#define RO_COMPAT_BIGALLOC 0x0200U

#define CHECK(cond, ...)                                  \
	do {                                              \
		if (!(cond))                              \
			return damaged(why, why_len, __VA_ARGS__); \
	} while (0)

static void parse(const uint8_t *b, struct sp_ext_sb *sb)
{
	memset(sb, 0, sizeof(*sb));
	sb->inodes_count = get_le32(b + S_INODES_COUNT);
	sb->blocks_count = get_le32(b + S_BLOCKS_COUNT);
	sb->first_data_block = get_le32(b + S_FIRST_DATA_BLOCK);
	sb->log_block_size = get_le32(b + S_LOG_BLOCK_SIZE);
	sb->log_cluster_size = get_le32(b + S_LOG_CLUSTER_SIZE);
	sb->blocks_per_group = get_le32(b + S_BLOCKS_PER_GROUP);
	sb->clusters_per_group = get_le32(b + S_CLUSTERS_PER_GROUP);
	sb->inodes_per_group = get_le32(b + S_INODES_PER_GROUP);
	sb->state = get_le16(b + S_STATE);
	sb->errors = get_le16(b + S_ERRORS);
	sb->rev_level = get_le32(b + S_REV_LEVEL);
	sb->inode_size = sb->rev_level ? get_le16(b + S_INODE_SIZE) : GOOD_OLD_INODE_BYTES;
	sb->block_group_nr = get_le16(b + S_BLOCK_GROUP_NR);
	sb->feature_compat = get_le32(b + S_FEATURE_COMPAT);
	sb->feature_incompat = get_le32(b + S_FEATURE_INCOMPAT);
	sb->feature_ro_compat = get_le32(b + S_FEATURE_RO_COMPAT);
	memcpy(sb->uuid, b + S_UUID, sizeof(sb->uuid));
	sb->desc_size = get_le16(b + S_DESC_SIZE);
	if (sb->feature_incompat & INCOMPAT_64BIT)
		sb->blocks_count |= (uint64_t)get_le32(b + S_BLOCKS_COUNT_HI) << 32;
	sb->raid_stride = get_le16(b + S_RAID_STRIDE);
	sb->raid_stripe_width = get_le32(b + S_RAID_STRIPE_WIDTH);
	sb->log_groups_per_flex = b[S_LOG_GROUPS_PER_FLEX];
	sb->checksum_type = b[S_CHECKSUM_TYPE];
	sb->backup_bgs[0] = get_le32(b + S_BACKUP_BGS);
	sb->backup_bgs[1] = get_le32(b + S_BACKUP_BGS + 4);
	sb->checksum_stored = get_le32(b + S_CHECKSUM);
	if (sb->log_block_size <= MAX_LOG_BLOCK_SIZE)
		sb->block_bytes = 1024U << sb->log_block_size;
}

/* libblkid's names: ext4 for any feature ext3 lacks, ext3 for a journal */
static void name_type(struct sp_ext_sb *sb)
{
	static const uint32_t ext3_incompat = INCOMPAT_FILETYPE | SP_EXT_INCOMPAT_RECOVER |
					      INCOMPAT_META_BG;
	static const uint32_t ext3_ro = SP_EXT_RO_COMPAT_SPARSE_SUPER | RO_COMPAT_LARGE_FILE |
					RO_COMPAT_BTREE_DIR;
	const char *t = "ext2";

	if ((sb->feature_incompat & ~ext3_incompat) || (sb->feature_ro_compat & ~ext3_ro))
		t = "ext4";
	else if (sb->feature_compat & SP_EXT_COMPAT_HAS_JOURNAL)
		t = "ext3";
	snprintf(sb->type, sizeof(sb->type), "%s", t);
}

static enum sp_ondisk_verdict check_features(const struct sp_ext_sb *sb, char *why, size_t why_len)
{
	CHECK(!(sb->feature_incompat & ~INCOMPAT_KNOWN),
	      "unknown incompatible feature bits 0x%08x (s_feature_incompat 0x%08x): the kernel "
	      "refuses to mount it", sb->feature_incompat & ~INCOMPAT_KNOWN, sb->feature_incompat);
	CHECK(!(sb->feature_ro_compat & ~RO_COMPAT_KNOWN),
	      "unknown read-only-compatible feature bits 0x%08x (s_feature_ro_compat 0x%08x): the "
	      "kernel mounts it read-only only",
	      sb->feature_ro_compat & ~RO_COMPAT_KNOWN, sb->feature_ro_compat);
	if (sb->feature_ro_compat & SP_EXT_RO_COMPAT_METADATA_CSUM)
		CHECK(sb->checksum_type == CHECKSUM_TYPE_CRC32C,
		      "checksum type %u: the kernel knows only crc32c (1)", sb->checksum_type);
	if (sb->feature_incompat & INCOMPAT_64BIT)
		CHECK(sb->desc_size >= MIN_DESC_SIZE_64BIT && sb->desc_size <= MAX_DESC_SIZE &&
			      !(sb->desc_size & (sb->desc_size - 1)),
		      "group descriptor size %u for a 64bit filesystem (64 to 1024, a power of two)",
		      sb->desc_size);
	if (sb->feature_incompat & INCOMPAT_FLEX_BG)
		CHECK(sb->log_groups_per_flex <= 31, "flex_bg size log %u is above 31",
		      sb->log_groups_per_flex);
	return SP_ONDISK_INTACT;
}

static enum sp_ondisk_verdict check_geometry(struct sp_ext_sb *sb, char *why, size_t why_len)
{
	uint64_t bits_per_block = (uint64_t)sb->block_bytes * 8, data_blocks;

	CHECK(sb->inode_size >= GOOD_OLD_INODE_BYTES && sb->inode_size <= sb->block_bytes &&
		      !(sb->inode_size & (sb->inode_size - 1)),
	      "inode size %u is not a power of two from 128 to the %u-byte block",
	      sb->inode_size, sb->block_bytes);
	CHECK(sb->blocks_count > 0 && sb->first_data_block < sb->blocks_count,
	      "first data block %u is not inside its %" PRIu64 " blocks", sb->first_data_block,
	      sb->blocks_count);
	CHECK(sb->first_data_block != 0 || sb->block_bytes != 1024 ||
		      (sb->feature_ro_compat & RO_COMPAT_BIGALLOC),
	      "first data block 0 with 1 KiB blocks (the superblock's own block)");
	CHECK(sb->blocks_per_group > 0 && sb->clusters_per_group > 0 &&
		      sb->clusters_per_group <= bits_per_block,
	      "%u blocks (%u clusters) per group: not 1 to %" PRIu64 " for %u-byte blocks",
	      sb->blocks_per_group, sb->clusters_per_group, bits_per_block, sb->block_bytes);
	if (!(sb->feature_ro_compat & RO_COMPAT_BIGALLOC))
		CHECK(sb->blocks_per_group == sb->clusters_per_group,
		      "%u blocks but %u clusters per group without bigalloc", sb->blocks_per_group,
		      sb->clusters_per_group);
	CHECK(sb->inodes_per_group > 0 && sb->inodes_per_group <= bits_per_block,
	      "%u inodes per group: not 1 to %" PRIu64, sb->inodes_per_group, bits_per_block);
	data_blocks = sb->blocks_count - sb->first_data_block;
	sb->groups = data_blocks / sb->blocks_per_group + (data_blocks % sb->blocks_per_group != 0);
	CHECK(sb->groups * sb->inodes_per_group == sb->inodes_count,
	      "%u inodes, but %" PRIu64 " groups of %u inodes hold %" PRIu64, sb->inodes_count,
	      sb->groups, sb->inodes_per_group, sb->groups * sb->inodes_per_group);
	return SP_ONDISK_INTACT;
}

enum sp_ondisk_verdict sp_ext_sb_read(const uint8_t *buf, size_t len, struct sp_ext_sb *ret,
				      char *why, size_t why_len)
{
	struct sp_ext_sb sb;
	enum sp_ondisk_verdict v;

	if (why && why_len)
		why[0] = '\0';
	if (len < SP_EXT_SB_BYTES || get_le16(buf + S_MAGIC) != SP_EXT_MAGIC)
		return SP_ONDISK_ABSENT;
	parse(buf, &sb);
	if (!sb.block_bytes || sb.rev_level > MAX_REV_LEVEL)
		return SP_ONDISK_ABSENT; /* the magic alone: not a superblock mkfs wrote */
	name_type(&sb);
	*ret = sb;
	if (sb.feature_ro_compat & SP_EXT_RO_COMPAT_METADATA_CSUM) {
		ret->checksum_computed = sb.checksum_computed = sp_crc32c_update(~0U, buf, S_CHECKSUM);
		CHECK(sb.checksum_stored == sb.checksum_computed,
		      "superblock checksum is 0x%08x, its contents give 0x%08x", sb.checksum_stored,
		      sb.checksum_computed);
	}
	v = check_features(&sb, why, why_len);
	if (v == SP_ONDISK_INTACT)
		v = check_geometry(&sb, why, why_len);
	ret->groups = sb.groups;
	return v;
}

static bool is_power_of(uint64_t n, unsigned base)
{
	while (n > 1 && n % base == 0)
		n /= base;
	return n == 1;
}

bool sp_ext_group_has_backup(const struct sp_ext_sb *sb, uint64_t group)
{
	if (group == 0)
		return true;
	if (sb->feature_compat & SP_EXT_COMPAT_SPARSE_SUPER2)
		return group == sb->backup_bgs[0] || group == sb->backup_bgs[1];
	if (!(sb->feature_ro_compat & SP_EXT_RO_COMPAT_SPARSE_SUPER))
		return true;
	return is_power_of(group, 3) || is_power_of(group, 5) || is_power_of(group, 7);
}
