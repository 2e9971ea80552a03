/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Readers of what filesystems and labels leave on a disk: XFS and
 * ext2/3/4 superblocks, GPT headers with their entry arrays, the MBR.
 *
 * Pure: each takes bytes someone else read (never a path or a
 * descriptor), so each is unit-tested on crafted buffers and fuzzed.
 * Each fills a parsed struct and returns a verdict; for a structure
 * whose magic is there but that fails a check, `why` says which check,
 * in words a person can act on ("superblock CRC is 0x1234abcd, its
 * contents give 0x89ab0123").
 *
 * The checks are the ones that decide whether the kernel uses the
 * structure: libxfs xfs_validate_sb_common()/xfs_validate_sb_read() and
 * the superblock CRC for XFS, ext4_fill_super()'s geometry and feature
 * checks and the metadata_csum checksum for ext2/3/4, the kernel's
 * is_gpt_valid() for GPT.  The feature bits known are those of Linux
 * 6.18; a bit no kernel knows is either damage or a newer format, and
 * either way the kernel refuses to mount it.
 *
 * All multi-byte fields are read with explicit byte order; a buffer
 * shorter than the structure is "absent" or "damaged", never read past.
 */
#ifndef STRIPEPLAN_ONDISK_ONDISK_H
#define STRIPEPLAN_ONDISK_ONDISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

enum sp_ondisk_verdict {
	SP_ONDISK_ABSENT = 0, /* no magic: not this structure */
	SP_ONDISK_INTACT,     /* passes every check the kernel makes */
	SP_ONDISK_DAMAGED,    /* the magic, but a check failed: why says which */
	SP_ONDISK_UNFINISHED, /* XFS whose mkfs never finished (sb_inprogress) */
};

SP_STRING_TABLE_DECLARE(sp_ondisk_verdict, enum sp_ondisk_verdict); /* "intact" */

/* ------------------------------------------------------------------ crc */

/*
 * The reflected CRC-32C (Castagnoli) and CRC-32 (IEEE 802.3) updates,
 * with no inversion on either side: each caller inverts as its format
 * says (XFS stores ~crc32c(~0, ...), ext4 crc32c(~0, ...) as it is, GPT
 * ~crc32(~0, ...)).
 */
uint32_t sp_crc32c_update(uint32_t crc, const void *buf, size_t len);
uint32_t sp_crc32_update(uint32_t crc, const void *buf, size_t len);

/* ---------------------------------------------------------------- sha256 */

/* SHA-256, for the LUKS2 header's checksum. */
struct sp_sha256 {
	uint32_t h[8];
	uint8_t buf[64];
	size_t used;
	uint64_t bytes;
};

void sp_sha256_init(struct sp_sha256 *s);
void sp_sha256_update(struct sp_sha256 *s, const void *data, size_t len);
void sp_sha256_final(struct sp_sha256 *s, uint8_t out[32]);

/* ------------------------------------------------------------------ xfs */

#define SP_XFS_SB_MAGIC 0x58465342U  /* "XFSB" */
#define SP_XFS_AGF_MAGIC 0x58414746U /* "XAGF" */
#define SP_XFS_AGI_MAGIC 0x58414749U /* "XAGI" */
/* A superblock's struct fits in the first 512 bytes; its CRC covers the
 * whole sector (sb_sectsize, up to 32 KiB). */
#define SP_XFS_SB_BYTES 512U
#define SP_XFS_MAX_SECTOR_BYTES 32768U

/* The fields of struct xfs_dsb (xfs_format.h) the checks read. */
struct sp_xfs_sb {
	uint32_t blocksize;
	uint64_t dblocks, rblocks, rextents;
	uint8_t uuid[16];
	uint64_t logstart, rootino;
	uint32_t rextsize, agblocks, agcount, rbmblocks, logblocks;
	uint16_t versionnum, sectsize, inodesize, inopblock;
	uint8_t blocklog, sectlog, inodelog, inopblog, agblklog, rextslog;
	uint8_t inprogress, imax_pct;
	uint64_t frextents;
	uint16_t qflags;
	uint8_t shared_vn;
	uint32_t inoalignmt, unit, width;
	uint8_t dirblklog, logsectlog;
	uint16_t logsectsize;
	uint32_t logsunit, features2;
	uint32_t features_compat, features_ro_compat, features_incompat;
	uint32_t crc_stored, crc_computed; /* v5 only */
	bool v5;
};

/*
 * buf holds the bytes at the superblock's start; len how many (at least
 * SP_XFS_SB_BYTES for a verdict, the whole sector for the CRC: a v5
 * superblock with fewer bytes than its sb_sectsize is judged without the
 * CRC and says so in why).  sb is filled whenever the magic is there.
 */
enum sp_ondisk_verdict sp_xfs_sb_read(const uint8_t *buf, size_t len, struct sp_xfs_sb *sb,
				      char *why, size_t why_len);

/* "1b4e28ba-2fa1-11d2-883f-0016d3cca427" (37 bytes with the NUL). */
void sp_uuid_format(const uint8_t uuid[16], char *buf, size_t len);

/* An AG header at sector 1 or 2 of allocation group 0: its magic, its
 * sequence number and length (blocks), which is the AG size. */
struct sp_xfs_ag_header {
	uint32_t magic; /* SP_XFS_AGF_MAGIC or SP_XFS_AGI_MAGIC */
	uint32_t seqno;
	uint32_t length_blocks;
};
/* true when buf (len bytes) starts with an AGF or AGI. */
bool sp_xfs_ag_header_read(const uint8_t *buf, size_t len, struct sp_xfs_ag_header *ret);

/*
 * mkfs.xfs's default AG size in blocks for a data section of dblocks
 * blocks of 2^blocklog bytes (xfsprogs mkfs calc_default_ag_geometry()),
 * with and without "multidisk" (a stripe unit given or reported): where
 * xfs_repair first looks for secondary superblocks (repair/sb.c
 * guess_default_geometry()).  0 for a dblocks too small to judge.
 */
uint64_t sp_xfs_default_agblocks(unsigned blocklog, uint64_t dblocks, bool multidisk);

/* ------------------------------------------------------------------ ext */

#define SP_EXT_SB_OFFSET 1024U /* the primary superblock, from the filesystem's start */
#define SP_EXT_SB_BYTES 1024U
#define SP_EXT_MAGIC 0xef53U

struct sp_ext_sb {
	uint32_t inodes_count;
	uint64_t blocks_count;
	uint32_t first_data_block;
	uint32_t log_block_size, log_cluster_size;
	uint32_t blocks_per_group, clusters_per_group, inodes_per_group;
	uint16_t state, errors;
	uint32_t rev_level;
	uint16_t inode_size, block_group_nr;
	uint32_t feature_compat, feature_incompat, feature_ro_compat;
	uint8_t uuid[16];
	uint16_t desc_size;
	uint8_t log_groups_per_flex, checksum_type;
	uint16_t raid_stride;
	uint32_t raid_stripe_width;
	uint32_t backup_bgs[2]; /* sparse_super2 */
	uint32_t checksum_stored, checksum_computed; /* metadata_csum only */
	uint32_t block_bytes;   /* 1024 << log_block_size, 0 when implausible */
	uint64_t groups;        /* block groups, from the counts */
	char type[8];           /* "ext2", "ext3", "ext4", as libblkid names them */
};

#define SP_EXT_COMPAT_HAS_JOURNAL 0x0004U
#define SP_EXT_COMPAT_SPARSE_SUPER2 0x0200U
#define SP_EXT_RO_COMPAT_SPARSE_SUPER 0x0001U
#define SP_EXT_RO_COMPAT_METADATA_CSUM 0x0400U
#define SP_EXT_INCOMPAT_RECOVER 0x0004U

/* buf holds the SP_EXT_SB_BYTES of a superblock (primary or backup). */
enum sp_ondisk_verdict sp_ext_sb_read(const uint8_t *buf, size_t len, struct sp_ext_sb *sb,
				      char *why, size_t why_len);

/* Whether block group `group` holds a backup superblock with these
 * features (sparse_super: 0, 1 and powers of 3, 5, 7; sparse_super2:
 * the two groups the superblock names; neither: every group). */
bool sp_ext_group_has_backup(const struct sp_ext_sb *sb, uint64_t group);

/* ------------------------------------------------------------------ gpt */

#define SP_GPT_SIGNATURE "EFI PART"
#define SP_GPT_HEADER_MIN_BYTES 92U
#define SP_GPT_ENTRIES_MAX_BYTES (1024U * 1024U) /* larger arrays are not judged */

struct sp_gpt_header {
	uint32_t revision, header_size, header_crc_stored, header_crc_computed;
	uint64_t my_lba, alternate_lba, first_usable_lba, last_usable_lba;
	uint8_t disk_guid[16];
	uint64_t entries_lba;
	uint32_t n_entries, entry_bytes, entries_crc_stored;
};

/*
 * A GPT header: sector is the whole logical sector read at lba read_lba
 * of a disk of disk_sectors sectors.  The checks of the kernel's
 * is_gpt_valid(): signature, header size, header CRC, my_lba equal to
 * where it was read, usable range inside the disk, entry size and count,
 * the entry array inside the disk.  The entry array's CRC is judged by
 * sp_gpt_entries_check().
 */
enum sp_ondisk_verdict sp_gpt_header_read(const uint8_t *sector, size_t sector_bytes,
					  uint64_t read_lba, uint64_t disk_sectors,
					  struct sp_gpt_header *hdr, char *why, size_t why_len);

/* The entry array's length in bytes, as the header gives it (0 when
 * implausible or above SP_GPT_ENTRIES_MAX_BYTES). */
size_t sp_gpt_entries_bytes(const struct sp_gpt_header *hdr);

/* The array's CRC against the header's: SP_ONDISK_INTACT or DAMAGED. */
enum sp_ondisk_verdict sp_gpt_entries_check(const struct sp_gpt_header *hdr, const uint8_t *entries,
					    size_t len, char *why, size_t why_len);

#define SP_GPT_MAX_PARTITIONS 128U

struct sp_gpt_partition {
	unsigned number; /* 1-based index in the array */
	uint64_t first_lba, last_lba;
};

/* The used entries (type GUID not zero) of an array, at most max; the
 * count found. */
size_t sp_gpt_partitions(const struct sp_gpt_header *hdr, const uint8_t *entries, size_t len,
			 struct sp_gpt_partition *ret, size_t max);

/* ------------------------------------------------------------------ mbr */

struct sp_mbr {
	bool protective;          /* one entry of type 0xee: a GPT's */
	unsigned n_partitions;    /* used primary entries */
	struct {
		uint8_t type;
		uint32_t start_lba, n_sectors;
	} part[4];
};

/* true when the 512 bytes at buf end with 0x55 0xaa; fills mbr. */
bool sp_mbr_read(const uint8_t *buf, size_t len, struct sp_mbr *mbr);

/* ---------------------------------------------------------------- luks2 */

/*
 * A LUKS2 header (cryptsetup's docs/on-disk-format-luks2.pdf and
 * lib/luks2/luks2.h): a 4096-byte binary header, big-endian, then its
 * JSON area, hdr_size bytes in all (16 KiB to 4 MiB), a second copy at
 * hdr_size.  The JSON's segments say where the data starts.
 */
#define SP_LUKS2_BIN_BYTES 4096U
#define SP_LUKS2_HDR_MAX_BYTES (4U * 1024U * 1024U)
#define SP_LUKS2_UUID_MAX 40U

struct sp_luks2_header {
	uint16_t version;
	uint64_t hdr_bytes, seqid, hdr_offset;
	char uuid[SP_LUKS2_UUID_MAX];
	/* the data segment (the lowest-numbered one) */
	uint64_t data_offset_bytes;
	unsigned sector_bytes;
	bool size_dynamic;           /* "dynamic": to the device's end */
	uint64_t data_size_bytes;    /* when not dynamic */
	uint64_t keyslots_bytes;     /* config.keyslots_size */
	char encryption[SP_NAME_MAX];
};

/*
 * The primary header at the start of buf (len bytes read from the
 * device's start; hdr_size of them are needed).  ABSENT without the LUKS
 * magic or with a version other than 2 (LUKS1 keeps its payload offset
 * elsewhere); DAMAGED when the size, offset, checksum or JSON fails,
 * with why.  The JSON is parsed with a depth limit, as untrusted input.
 */
enum sp_ondisk_verdict sp_luks2_read(const uint8_t *buf, size_t len, struct sp_luks2_header *hdr,
				     char *why, size_t why_len);

/* ------------------------------------------------------------------ lvm */

/*
 * An LVM2 physical volume's label (lvm2 lib/label/label.h,
 * lib/format_text/layout.h): "LABELONE" in one of the first four
 * 512-byte sectors, its CRC (lvm2's calc_crc: CRC-32 seeded 0xf597a6cf,
 * not inverted) over the rest of that sector, then the PV header with
 * its data area list, little-endian.  The first data area's offset is
 * pe_start.
 */
#define SP_LVM_LABEL_SCAN_BYTES 2048U
#define SP_LVM_UUID_BYTES 32U

struct sp_lvm_label {
	unsigned sector;             /* where LABELONE was */
	char pv_uuid[SP_LVM_UUID_BYTES + 1];
	uint64_t device_bytes;       /* the size the PV was made for */
	uint64_t pe_start_bytes;     /* the first data area's offset */
	unsigned n_metadata_areas;
	uint64_t mda_offset_bytes, mda_size_bytes; /* the first metadata area */
};

/* The label in the first len bytes (SP_LVM_LABEL_SCAN_BYTES are read). */
enum sp_ondisk_verdict sp_lvm_label_read(const uint8_t *buf, size_t len, struct sp_lvm_label *label,
					 char *why, size_t why_len);

#endif
