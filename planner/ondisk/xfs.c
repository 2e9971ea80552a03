/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The XFS superblock, judged as the kernel judges it before it mounts:
 * libxfs xfs_sb_read_verify() (the CRC of a v5 superblock),
 * xfs_validate_sb_read() (feature bits) and xfs_validate_sb_common()
 * (version, log placement, the geometry sanity list xfs_repair also
 * uses), then the fs-level refusals of xfs_fs_fill_super() (needsrepair,
 * mkfs in progress).  Offsets are those of struct xfs_dsb in xfsprogs'
 * xfs_format.h, big-endian; system/ondisk-scan.c checks them against
 * the installed header at compile time.
 */
#include <inttypes.h>
#include <string.h>

#include "ondisk-internal.h"

/* struct xfs_dsb */
enum {
	SB_MAGICNUM = 0, SB_BLOCKSIZE = 4, SB_DBLOCKS = 8, SB_RBLOCKS = 16, SB_REXTENTS = 24,
	SB_UUID = 32, SB_LOGSTART = 48, SB_ROOTINO = 56, SB_REXTSIZE = 80, SB_AGBLOCKS = 84,
	SB_AGCOUNT = 88, SB_RBMBLOCKS = 92, SB_LOGBLOCKS = 96, SB_VERSIONNUM = 100,
	SB_SECTSIZE = 102, SB_INODESIZE = 104, SB_INOPBLOCK = 106, SB_BLOCKLOG = 120,
	SB_SECTLOG = 121, SB_INODELOG = 122, SB_INOPBLOG = 123, SB_AGBLKLOG = 124,
	SB_REXTSLOG = 125, SB_INPROGRESS = 126, SB_IMAX_PCT = 127, SB_FREXTENTS = 152,
	SB_QFLAGS = 176, SB_SHARED_VN = 179, SB_INOALIGNMT = 180, SB_UNIT = 184,
	SB_WIDTH = 188, SB_DIRBLKLOG = 192, SB_LOGSECTLOG = 193, SB_LOGSECTSIZE = 194,
	SB_LOGSUNIT = 196, SB_FEATURES2 = 200, SB_FEATURES_COMPAT = 208,
	SB_FEATURES_RO_COMPAT = 212, SB_FEATURES_INCOMPAT = 216, SB_CRC = 224,
};

#define VERSION_NUM_MASK 0x000fU
#define VERSION_4 4U
#define VERSION_5 5U
#define VERSION_DALIGNBIT 0x0100U
#define VERSION_SHAREDBIT 0x0200U
#define VERSION_SECTORBIT 0x0800U
#define VERSION_EXTFLGBIT 0x1000U
#define VERSION_DIRV2BIT 0x2000U
#define VERSION_MOREBITSBIT 0x8000U
#define VERSION_OKBITS (0xffffU & ~VERSION_SHAREDBIT)
/* NLINK, ALIGN, LOGV2, EXTFLG, DIRV2, MOREBITS: what every v5 has */
#define V5_VERS_FLAGS 0xb4a0U
/* LAZYSBCOUNT, ATTR2, PROJID32, FTYPE */
#define VERSION2_OKBITS 0x028aU
#define VERSION2_CRCBIT 0x0100U
/* LAZYSBCOUNT, ATTR2, PROJID32, CRC */
#define V5_FEAT_FLAGS 0x018aU

/* Linux 6.18: finobt, rmapbt, reflink, inobtcnt */
#define RO_COMPAT_KNOWN 0x0000000fU
/* ftype, spinodes, meta_uuid, bigtime, needsrepair, nrext64, exchrange,
 * parent, metadir, zoned, zone_gaps */
#define INCOMPAT_KNOWN 0x000007ffU
#define INCOMPAT_SPINODES 0x00000002U
#define INCOMPAT_NEEDSREPAIR 0x00000010U

#define OQUOTA_BITS 0x0030U   /* OQUOTA_ENFD | OQUOTA_CHKD */
#define PGQUOTA_BITS 0x0780U  /* GQUOTA_ENFD/CHKD | PQUOTA_ENFD/CHKD */

#define MIN_SECTORSIZE_LOG 9U
#define MAX_SECTORSIZE_LOG 15U
#define MIN_BLOCKSIZE_LOG 9U
#define MAX_BLOCKSIZE_LOG 16U
#define MIN_CRC_BLOCKSIZE 1024U
#define DINODE_MIN_LOG 8U
#define DINODE_MAX_LOG 11U
#define MIN_AG_BYTES (1ULL << 24)
#define MAX_AG_BYTES (1ULL << 40)
#define MIN_AG_BLOCKS 64U
#define MAX_LOG_BLOCKS (1024ULL * 1024ULL)
#define MAX_LOG_BYTES (2ULL * 1024 * 1024 * 1024 - 10ULL * 1024 * 1024)
#define MAX_LOG_RECORD_BYTES (256U * 1024U)
#define MIN_RTEXT_BYTES 4096ULL
#define MAX_RTEXT_BYTES (1024ULL * 1024ULL * 1024ULL)
#define INODES_PER_CHUNK 64U

#define CHECK(cond, ...)                                  \
	do {                                              \
		if (!(cond))                              \
			return damaged(why, why_len, __VA_ARGS__); \
	} while (0)

static const char *const sp_ondisk_verdict_table[] = {
	[SP_ONDISK_ABSENT] = "absent",
	[SP_ONDISK_INTACT] = "intact",
	[SP_ONDISK_DAMAGED] = "damaged",
	[SP_ONDISK_UNFINISHED] = "unfinished",
};
SP_STRING_TABLE(sp_ondisk_verdict, enum sp_ondisk_verdict, "absent")

void sp_uuid_format(const uint8_t u[16], char *buf, size_t len)
{
	snprintf(buf, len,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
		 u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
		 u[14], u[15]);
}

static void parse(const uint8_t *b, struct sp_xfs_sb *sb)
{
	memset(sb, 0, sizeof(*sb));
	sb->blocksize = get_be32(b + SB_BLOCKSIZE);
	sb->dblocks = get_be64(b + SB_DBLOCKS);
	sb->rblocks = get_be64(b + SB_RBLOCKS);
	sb->rextents = get_be64(b + SB_REXTENTS);
	memcpy(sb->uuid, b + SB_UUID, sizeof(sb->uuid));
	sb->logstart = get_be64(b + SB_LOGSTART);
	sb->rootino = get_be64(b + SB_ROOTINO);
	sb->rextsize = get_be32(b + SB_REXTSIZE);
	sb->agblocks = get_be32(b + SB_AGBLOCKS);
	sb->agcount = get_be32(b + SB_AGCOUNT);
	sb->rbmblocks = get_be32(b + SB_RBMBLOCKS);
	sb->logblocks = get_be32(b + SB_LOGBLOCKS);
	sb->versionnum = get_be16(b + SB_VERSIONNUM);
	sb->sectsize = get_be16(b + SB_SECTSIZE);
	sb->inodesize = get_be16(b + SB_INODESIZE);
	sb->inopblock = get_be16(b + SB_INOPBLOCK);
	sb->blocklog = b[SB_BLOCKLOG];
	sb->sectlog = b[SB_SECTLOG];
	sb->inodelog = b[SB_INODELOG];
	sb->inopblog = b[SB_INOPBLOG];
	sb->agblklog = b[SB_AGBLKLOG];
	sb->rextslog = b[SB_REXTSLOG];
	sb->inprogress = b[SB_INPROGRESS];
	sb->imax_pct = b[SB_IMAX_PCT];
	sb->frextents = get_be64(b + SB_FREXTENTS);
	sb->qflags = get_be16(b + SB_QFLAGS);
	sb->shared_vn = b[SB_SHARED_VN];
	sb->inoalignmt = get_be32(b + SB_INOALIGNMT);
	sb->unit = get_be32(b + SB_UNIT);
	sb->width = get_be32(b + SB_WIDTH);
	sb->dirblklog = b[SB_DIRBLKLOG];
	sb->logsectlog = b[SB_LOGSECTLOG];
	sb->logsectsize = get_be16(b + SB_LOGSECTSIZE);
	sb->logsunit = get_be32(b + SB_LOGSUNIT);
	sb->features2 = get_be32(b + SB_FEATURES2);
	sb->v5 = (sb->versionnum & VERSION_NUM_MASK) == VERSION_5;
	if (!sb->v5)
		return; /* the v5 fields are padding on v4 */
	sb->features_compat = get_be32(b + SB_FEATURES_COMPAT);
	sb->features_ro_compat = get_be32(b + SB_FEATURES_RO_COMPAT);
	sb->features_incompat = get_be32(b + SB_FEATURES_INCOMPAT);
	sb->crc_stored = get_le32(b + SB_CRC); /* the CRC alone is little-endian */
}

/* crc32c of the sector with sb_crc taken as zero, inverted (xfs_cksum.h) */
static uint32_t sb_crc(const uint8_t *buf, size_t sector_bytes)
{
	static const uint8_t zero[4];
	uint32_t crc = sp_crc32c_update(~0U, buf, SB_CRC);

	crc = sp_crc32c_update(crc, zero, sizeof(zero));
	crc = sp_crc32c_update(crc, buf + SB_CRC + 4, sector_bytes - SB_CRC - 4);
	return ~crc;
}

/* xfs_sb_good_version() */
static enum sp_ondisk_verdict check_version(const struct sp_xfs_sb *sb, char *why, size_t why_len)
{
	unsigned num = sb->versionnum & VERSION_NUM_MASK;

	if (sb->v5) {
		CHECK(!(sb->versionnum & ~VERSION_OKBITS) &&
			      !(sb->features2 & ~(VERSION2_OKBITS | VERSION2_CRCBIT)) &&
			      (sb->versionnum & V5_VERS_FLAGS) == V5_VERS_FLAGS &&
			      (sb->features2 & V5_FEAT_FLAGS) == V5_FEAT_FLAGS,
		      "version 5 superblock with feature masks no mkfs.xfs writes "
		      "(sb_versionnum 0x%04x, sb_features2 0x%08x)",
		      sb->versionnum, sb->features2);
		return SP_ONDISK_INTACT;
	}
	CHECK(num == VERSION_4, "superblock version %u (sb_versionnum 0x%04x): the kernel mounts "
	      "only versions 4 and 5", num, sb->versionnum);
	CHECK(!(sb->versionnum & ~VERSION_OKBITS) &&
		      (!(sb->versionnum & VERSION_MOREBITSBIT) ||
		       !(sb->features2 & ~VERSION2_OKBITS)),
	      "version 4 superblock with unknown feature bits (sb_versionnum 0x%04x, "
	      "sb_features2 0x%08x)", sb->versionnum, sb->features2);
	CHECK((sb->versionnum & VERSION_DIRV2BIT) && (sb->versionnum & VERSION_EXTFLGBIT),
	      "version 4 superblock without v2 directories or unwritten extents "
	      "(sb_versionnum 0x%04x): the kernel refuses it", sb->versionnum);
	return SP_ONDISK_INTACT;
}

/* xfs_validate_sb_read(): bits the kernel does not know */
static enum sp_ondisk_verdict check_features(const struct sp_xfs_sb *sb, char *why, size_t why_len)
{
	if (!sb->v5)
		return SP_ONDISK_INTACT;
	CHECK(!(sb->features_incompat & ~INCOMPAT_KNOWN),
	      "unknown incompatible feature bits 0x%08x (sb_features_incompat 0x%08x): no "
	      "kernel mounts it", sb->features_incompat & ~INCOMPAT_KNOWN, sb->features_incompat);
	CHECK(!(sb->features_ro_compat & ~RO_COMPAT_KNOWN),
	      "unknown read-only-compatible feature bits 0x%08x (sb_features_ro_compat 0x%08x): "
	      "the kernel mounts it read-only only",
	      sb->features_ro_compat & ~RO_COMPAT_KNOWN, sb->features_ro_compat);
	CHECK(sb->blocksize >= MIN_CRC_BLOCKSIZE,
	      "%u-byte blocks in a version 5 superblock (at least %u)", sb->blocksize,
	      MIN_CRC_BLOCKSIZE);
	CHECK(!(sb->qflags & OQUOTA_BITS), "version 5 superblock with old quota flags "
	      "(sb_qflags 0x%04x)", sb->qflags);
	if ((sb->features_incompat & INCOMPAT_SPINODES) && sb->blocklog < 32) {
		uint64_t align = ((uint64_t)INODES_PER_CHUNK * sb->inodesize) >> sb->blocklog;

		CHECK(sb->inoalignmt == align, "inode alignment %u blocks, sparse inodes need %" PRIu64,
		      sb->inoalignmt, align);
	}
	return SP_ONDISK_INTACT;
}

static unsigned log2_ceil32(uint32_t v)
{
	unsigned n = 0;

	/* xfs_highbit32(v - 1) + 1 */
	for (uint32_t x = v ? v - 1 : 0; x; x >>= 1)
		n++;
	return n;
}

/* the sanity list of xfs_validate_sb_common(), one message each */
static enum sp_ondisk_verdict check_geometry(const struct sp_xfs_sb *sb, char *why, size_t why_len)
{
	uint64_t ag_bytes, agcount = 0;

	CHECK(sb->agcount > 0, "sb_agcount is 0");
	CHECK(sb->sectlog >= MIN_SECTORSIZE_LOG && sb->sectlog <= MAX_SECTORSIZE_LOG &&
		      sb->sectsize == 1U << sb->sectlog,
	      "sector size %u (log %u) is not a power of two from 512 to 32768 matching its log",
	      sb->sectsize, sb->sectlog);
	CHECK(sb->blocklog >= MIN_BLOCKSIZE_LOG && sb->blocklog <= MAX_BLOCKSIZE_LOG &&
		      sb->blocksize == 1U << sb->blocklog,
	      "block size %u (log %u) is not a power of two from 512 to 65536 matching its log",
	      sb->blocksize, sb->blocklog);
	CHECK(sb->dirblklog + sb->blocklog <= MAX_BLOCKSIZE_LOG,
	      "directory block log %u too large for %u-byte blocks", sb->dirblklog, sb->blocksize);
	CHECK(sb->inodelog >= DINODE_MIN_LOG && sb->inodelog <= DINODE_MAX_LOG &&
		      sb->inodesize == 1U << sb->inodelog,
	      "inode size %u (log %u) is not 256, 512, 1024 or 2048 matching its log",
	      sb->inodesize, sb->inodelog);
	CHECK(sb->inopblock == (sb->blocksize + sb->inodesize - 1) / sb->inodesize &&
		      sb->blocklog - sb->inodelog == sb->inopblog,
	      "%u inodes per block (log %u) for %u-byte blocks of %u-byte inodes",
	      sb->inopblock, sb->inopblog, sb->blocksize, sb->inodesize);
	ag_bytes = (uint64_t)sb->agblocks << sb->blocklog;
	CHECK(ag_bytes >= MIN_AG_BYTES && ag_bytes <= MAX_AG_BYTES,
	      "allocation groups of %u blocks (%" PRIu64 " bytes): not 16 MiB to 1 TiB",
	      sb->agblocks, ag_bytes);
	CHECK(sb->agblklog == log2_ceil32(sb->agblocks),
	      "sb_agblklog %u does not match %u blocks per allocation group", sb->agblklog,
	      sb->agblocks);
	agcount = sb->dblocks / sb->agblocks + (sb->dblocks % sb->agblocks != 0);
	CHECK(sb->dblocks > 0 && agcount == sb->agcount,
	      "sb_agcount %u, but %" PRIu64 " blocks in groups of %u make %" PRIu64,
	      sb->agcount, sb->dblocks, sb->agblocks, agcount);
	CHECK(sb->dblocks >= (uint64_t)(sb->agcount - 1) * sb->agblocks + MIN_AG_BLOCKS,
	      "%" PRIu64 " blocks leave a last allocation group under %u blocks", sb->dblocks,
	      MIN_AG_BLOCKS);
	CHECK((uint64_t)sb->rextsize * sb->blocksize >= MIN_RTEXT_BYTES &&
		      (uint64_t)sb->rextsize * sb->blocksize <= MAX_RTEXT_BYTES,
	      "realtime extent size %u blocks is not 4 KiB to 1 GiB", sb->rextsize);
	CHECK(sb->imax_pct <= 100, "sb_imax_pct %u is above 100", sb->imax_pct);
	CHECK(sb->shared_vn == 0, "sb_shared_vn is %u, not 0", sb->shared_vn);
	switch (sb->inodesize) {
	case 256: case 512: case 1024: case 2048:
		break;
	default:
		return damaged(why, why_len, "inode size %u", sb->inodesize);
	}
	return SP_ONDISK_INTACT;
}

static enum sp_ondisk_verdict check_log(const struct sp_xfs_sb *sb, char *why, size_t why_len)
{
	/* an internal log's first block is never block 0: that is the superblock */
	CHECK(sb->logstart != 0, "sb_logstart is 0 (an external log): the kernel refuses to mount "
	      "it without logdev=");
	CHECK(sb->logblocks <= MAX_LOG_BLOCKS &&
		      ((uint64_t)sb->logblocks << sb->blocklog) <= MAX_LOG_BYTES,
	      "log of %u blocks is larger than the kernel takes", sb->logblocks);
	/* a filesystem block number is AG << agblklog | block in the AG */
	CHECK((sb->logstart >> sb->agblklog) < sb->agcount &&
		      (sb->logstart & ((1ULL << sb->agblklog) - 1)) + sb->logblocks <= sb->agblocks,
	      "the log (%u blocks from block %" PRIu64 ") does not lie inside one allocation "
	      "group", sb->logblocks, sb->logstart);
	if (sb->versionnum & VERSION_SECTORBIT)
		CHECK(sb->logsectlog < 32 && sb->logsectsize == 1U << sb->logsectlog,
		      "log sector size %u does not match its log %u", sb->logsectsize,
		      sb->logsectlog);
	else
		CHECK(!sb->logsectsize && !sb->logsectlog,
		      "log sector size %u/%u set without the sector feature bit", sb->logsectsize,
		      sb->logsectlog);
	if (sb->logsunit > 1)
		CHECK(sb->logsunit % sb->blocksize == 0 && sb->logsunit <= MAX_LOG_RECORD_BYTES,
		      "log stripe unit %u bytes is not a multiple of the block size up to 256 KiB",
		      sb->logsunit);
	return SP_ONDISK_INTACT;
}

static enum sp_ondisk_verdict check_rt_stripe(const struct sp_xfs_sb *sb, char *why, size_t why_len)
{
	bool dalign = sb->versionnum & VERSION_DALIGNBIT;

	if (sb->rblocks == 0)
		CHECK(!sb->rextents && !sb->rbmblocks && !sb->rextslog && !sb->frextents,
		      "realtime geometry set without realtime blocks");
	CHECK(!sb->unit == !dalign, "stripe unit %u blocks %s the stripe-alignment feature bit",
	      sb->unit, dalign ? "missing beside" : "set without");
	if (sb->unit || sb->width)
		CHECK(sb->unit && sb->width && sb->width % sb->unit == 0 &&
			      ((uint64_t)sb->width << sb->blocklog) <= INT32_MAX,
		      "stripe width %u blocks is not a multiple of the stripe unit %u (or too large)",
		      sb->width, sb->unit);
	return SP_ONDISK_INTACT;
}

enum sp_ondisk_verdict sp_xfs_sb_read(const uint8_t *buf, size_t len, struct sp_xfs_sb *ret,
				      char *why, size_t why_len)
{
	struct sp_xfs_sb sb;
	enum sp_ondisk_verdict v;

	if (why && why_len)
		why[0] = '\0';
	if (len < SP_XFS_SB_BYTES || get_be32(buf + SB_MAGICNUM) != SP_XFS_SB_MAGIC)
		return SP_ONDISK_ABSENT;
	parse(buf, &sb);
	*ret = sb;
	if (sb.v5 && sb.sectsize >= SP_XFS_SB_BYTES && sb.sectsize <= SP_XFS_MAX_SECTOR_BYTES &&
	    !(sb.sectsize & (sb.sectsize - 1))) {
		if (len < sb.sectsize)
			return damaged(why, why_len, "only %zu of its %u-byte sector could be read "
				       "to check its CRC", len, sb.sectsize);
		ret->crc_computed = sb.crc_computed = sb_crc(buf, sb.sectsize);
		CHECK(sb.crc_stored == sb.crc_computed,
		      "superblock CRC is 0x%08x, its contents give 0x%08x", sb.crc_stored,
		      sb.crc_computed);
	}
	v = check_version(&sb, why, why_len);
	if (v == SP_ONDISK_INTACT)
		v = check_features(&sb, why, why_len);
	if (v == SP_ONDISK_INTACT)
		v = check_geometry(&sb, why, why_len);
	if (v == SP_ONDISK_INTACT)
		v = check_log(&sb, why, why_len);
	if (v == SP_ONDISK_INTACT)
		v = check_rt_stripe(&sb, why, why_len);
	if (v != SP_ONDISK_INTACT)
		return v;
	CHECK(!(sb.features_incompat & INCOMPAT_NEEDSREPAIR),
	      "the needsrepair feature is set: an xfs_repair was interrupted, and the kernel "
	      "refuses it until one finishes");
	if (sb.inprogress) {
		if (why && why_len)
			snprintf(why, why_len, "mkfs is still in progress (sb_inprogress %u)",
				 sb.inprogress);
		return SP_ONDISK_UNFINISHED;
	}
	return SP_ONDISK_INTACT;
}

bool sp_xfs_ag_header_read(const uint8_t *buf, size_t len, struct sp_xfs_ag_header *ret)
{
	uint32_t magic;

	/* magicnum, versionnum, seqno, length: the same four words in both */
	if (len < 16)
		return false;
	magic = get_be32(buf);
	if ((magic != SP_XFS_AGF_MAGIC && magic != SP_XFS_AGI_MAGIC) || get_be32(buf + 4) != 1)
		return false;
	ret->magic = magic;
	ret->seqno = get_be32(buf + 8);
	ret->length_blocks = get_be32(buf + 12);
	return true;
}

uint64_t sp_xfs_default_agblocks(unsigned blocklog, uint64_t dblocks, bool multidisk)
{
	uint64_t max_blocks, blocks;
	unsigned shift;

	if (blocklog < MIN_BLOCKSIZE_LOG || blocklog > MAX_BLOCKSIZE_LOG ||
	    dblocks < (MIN_AG_BYTES >> blocklog))
		return 0;
	max_blocks = (MAX_AG_BYTES - 1) >> blocklog;
	if (dblocks >= (32ULL << (40 - blocklog)))
		return max_blocks;
	if (!multidisk && dblocks >= (4ULL << (40 - blocklog)))
		return max_blocks;
	if (!multidisk && dblocks >= (128ULL << (20 - blocklog))) {
		shift = 2; /* one device: 4 AGs */
	} else {
		shift = 5;
		shift -= dblocks <= (512ULL << (30 - blocklog));
		shift -= dblocks <= (8ULL << (30 - blocklog));
		shift -= dblocks <= (128ULL << (20 - blocklog));
		shift -= dblocks <= (64ULL << (20 - blocklog));
		shift -= dblocks <= (32ULL << (20 - blocklog));
	}
	blocks = dblocks >> shift;
	if ((dblocks & ((1ULL << shift) - 1)) && blocks < max_blocks)
		blocks++;
	return blocks;
}
