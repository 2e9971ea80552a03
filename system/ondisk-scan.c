/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reads behind the core's on-disk readers: where a filesystem that
 * lost its primary superblock still shows (as xfs_repair and e2fsck -b
 * look for it), and each GPT copy on its own.  Every read is a pread of a
 * few KiB at a computed offset; nothing here writes or calls libblkid.
 *
 * Cost, per start judged: one 64 KiB read (XFS primary and AG 0's AGF
 * and AGI at every sector size, the ext primary), then only when no
 * intact primary was found: up to 8 reads for the AG size AG 0's headers
 * give (one per block size), up to 3 x 6 + 1 for mkfs.xfs's and
 * xfs_repair's geometries of the region sizes, 2 x 31 for -d agcount=2..32
 * of the (at most two) exact sizes, and 28 ext backup candidates: 117
 * reads of at most 4 KiB.  The disk-wide scan (sp_step_scan_filesystems)
 * judges at most 160 starts, so about 19,000 reads is the worst case.
 * Measured: apply --dry-run of an XFS plan on a blank 100 TiB sparse
 * loop image (an XFS-hosted file) makes 139 preads and takes 0.16-0.44 s
 * against 6 and 0.05-0.07 s without the scan (strace -c; /usr/bin/time,
 * three runs each, 2 cores shared with other test runs).
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <ext2fs/ext2_fs.h>
#include <xfs/xfs.h>
#include <xfs/xfs_format.h>

#include "audit/audit.h"
#include "base/units.h"
#include "ondisk-scan.h"
#include "plan/xfs-geometry.h"

/* The core reads fields at these offsets without the headers: hold it
 * to the installed ones. */
static_assert(offsetof(struct xfs_dsb, sb_agcount) == 88, "xfs sb_agcount moved");
static_assert(offsetof(struct xfs_dsb, sb_logstart) == 48, "xfs sb_logstart moved");
static_assert(offsetof(struct xfs_dsb, sb_qflags) == 176, "xfs sb_qflags moved");
static_assert(offsetof(struct xfs_dsb, sb_logsunit) == 196, "xfs sb_logsunit moved");
static_assert(offsetof(struct xfs_dsb, sb_features_incompat) == 216, "xfs incompat moved");
static_assert(offsetof(struct xfs_dsb, sb_crc) == 224, "xfs sb_crc moved");
static_assert(offsetof(struct ext2_super_block, s_magic) == 0x38, "ext s_magic moved");
static_assert(offsetof(struct ext2_super_block, s_feature_ro_compat) == 0x64, "ext ro moved");
static_assert(offsetof(struct ext2_super_block, s_desc_size) == 0xfe, "ext desc_size moved");
static_assert(offsetof(struct ext2_super_block, s_raid_stripe_width) == 0x170, "ext moved");
static_assert(offsetof(struct ext2_super_block, s_backup_bgs) == 0x24c, "ext backup_bgs moved");
static_assert(offsetof(struct ext2_super_block, s_checksum) == 0x3fc, "ext s_checksum moved");

#define HEAD_BYTES (64U * 1024U)
#define COPY_BYTES 4096U
#define MIN_SECTOR_LOG 9U
#define MAX_SECTOR_LOG 15U
#define MIN_BLOCK_LOG 9U
#define MAX_BLOCK_LOG 16U
#define EXACT_AGCOUNT_MAX 32U

/* Bytes read at off, short at the end of the device; -errno. */
static ssize_t read_at(int fd, void *buf, size_t len, uint64_t off, uint64_t end)
{
	size_t got = 0;

	if (off >= end)
		return 0;
	if (len > end - off)
		len = (size_t)(end - off);
	while (got < len) {
		ssize_t n = pread(fd, (uint8_t *)buf + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* ------------------------------------------------------------------ xfs */

/* An XFS superblock copy at off that validates and says its AG is
 * agblocks x blocksize: a secondary of a filesystem at off - ag_bytes. */
static bool xfs_copy_at(int fd, uint64_t off, uint64_t ag_bytes, uint64_t end, struct sp_xfs_sb *sb)
{
	uint8_t buf[COPY_BYTES];
	ssize_t n = read_at(fd, buf, sizeof(buf), off, end);
	enum sp_ondisk_verdict v;

	if (n < (ssize_t)SP_XFS_SB_BYTES)
		return false;
	/* mkfs.xfs writes secondaries with sb_inprogress set: that is normal */
	v = sp_xfs_sb_read(buf, (size_t)n, sb, NULL, 0);
	return (v == SP_ONDISK_INTACT || v == SP_ONDISK_UNFINISHED) &&
	       (uint64_t)sb->agblocks * sb->blocksize == ag_bytes;
}

static void add_ag(uint64_t *ags, size_t *n, size_t max, uint64_t ag_bytes)
{
	if (!ag_bytes)
		return;
	for (size_t i = 0; i < *n; i++)
		if (ags[i] == ag_bytes)
			return;
	if (*n < max)
		ags[(*n)++] = ag_bytes;
}

/* The AG sizes to try: what AG 0's own headers say, then the guesses. */
static size_t xfs_ag_candidates(const uint8_t *head, size_t head_len, uint64_t start,
				const struct sp_scan_hints *h, uint64_t *ags, size_t max)
{
	struct sp_xfs_ag_header agh;
	size_t n = 0;

	for (unsigned slog = MIN_SECTOR_LOG; slog <= MAX_SECTOR_LOG; slog++) {
		size_t at = (size_t)1 << slog; /* the AGF is sector 1 of AG 0 */

		if (at >= head_len || !sp_xfs_ag_header_read(head + at, head_len - at, &agh) ||
		    agh.seqno != 0)
			continue;
		for (unsigned blog = MIN_BLOCK_LOG; blog <= MAX_BLOCK_LOG; blog++)
			add_ag(ags, &n, max, (uint64_t)agh.length_blocks << blog);
		break;
	}
	if (h->agsize_bytes && h->agsize_start_bytes == start)
		add_ag(ags, &n, max, h->agsize_bytes);
	for (size_t r = 0; r < h->n_regions; r++) {
		uint64_t blocks = h->region_bytes[r] / 4096;

		add_ag(ags, &n, max, sp_xfs_default_agblocks(12, blocks, false) * 4096);
		add_ag(ags, &n, max, sp_xfs_default_agblocks(12, blocks, true) * 4096);
		if (h->su_bytes && h->region_bytes[r] >= SP_XFS_MIN_FS_BYTES)
			add_ag(ags, &n, max,
			       sp_xfs_mkfs_agsize_bytes(h->region_bytes[r], h->su_bytes, h->sw));
	}
	/* mkfs.xfs -d agcount=k: AGs of ceil(blocks / k) */
	for (size_t r = 0; r < h->n_exact && r < h->n_regions; r++)
		for (uint64_t k = 2; k <= EXACT_AGCOUNT_MAX; k++) {
			uint64_t blocks = h->region_bytes[r] / 4096, ag = (blocks + k - 1) / k;

			if (ag * 4096 >= 16 * SP_MIB)
				add_ag(ags, &n, max, ag * 4096);
		}
	return n;
}

/* A secondary superblock of an XFS at start. */
static bool xfs_find_secondary(int fd, const uint8_t *head, size_t head_len, uint64_t start,
			       const struct sp_scan_hints *h, struct sp_fs_trace *t)
{
	uint64_t ags[8 + 1 + 3 * 6 + 2 * (EXACT_AGCOUNT_MAX - 1)];
	size_t n = xfs_ag_candidates(head, head_len, start, h, ags, ARRAY_SIZE(ags));
	struct sp_xfs_sb sb;
	char uuid[40];

	for (size_t i = 0; i < n; i++) {
		if (!xfs_copy_at(fd, start + ags[i], ags[i], h->disk_bytes, &sb))
			continue;
		memcpy(t->uuid, sb.uuid, sizeof(t->uuid));
		sp_uuid_format(sb.uuid, uuid, sizeof(uuid));
		t->from_backup = true;
		snprintf(t->what + strlen(t->what), sizeof(t->what) - strlen(t->what),
			 "%sits secondary superblock at byte %" PRIu64 " (allocation group 1) is "
			 "intact, UUID %s", t->what[0] ? "; " : "", ags[i], uuid);
		return true;
	}
	return false;
}

/* ------------------------------------------------------------------ ext */

static const unsigned ext_backup_groups[] = { 1, 3, 5, 7, 9, 25, 27 };
static const unsigned ext_block_logs[] = { 10, 11, 12, 16 };

/* An intact ext backup superblock of a filesystem at start, as
 * `mke2fs -n` lists them for the default blocks per group. */
static bool ext_find_backup(int fd, uint64_t start, uint64_t end, struct sp_fs_trace *t)
{
	uint8_t buf[SP_EXT_SB_BYTES];
	struct sp_ext_sb sb;

	for (size_t b = 0; b < ARRAY_SIZE(ext_block_logs); b++) {
		uint64_t block_bytes = 1ULL << ext_block_logs[b], per_group = 8 * block_bytes;

		for (size_t g = 0; g < ARRAY_SIZE(ext_backup_groups); g++) {
			unsigned group = ext_backup_groups[g];
			uint64_t block = group * per_group + (block_bytes == 1024);
			uint64_t off = start + block * block_bytes;

			if (read_at(fd, buf, sizeof(buf), off, end) != (ssize_t)sizeof(buf) ||
			    sp_ext_sb_read(buf, sizeof(buf), &sb, NULL, 0) != SP_ONDISK_INTACT ||
			    sb.block_bytes != block_bytes || sb.blocks_per_group != per_group ||
			    (sb.rev_level && sb.block_group_nr != group))
				continue;
			snprintf(t->type, sizeof(t->type), "%s", sb.type);
			memcpy(t->uuid, sb.uuid, sizeof(t->uuid));
			t->from_backup = true;
			snprintf(t->what + strlen(t->what), sizeof(t->what) - strlen(t->what),
				 "%sits backup superblock in group %u (block %" PRIu64 ") is intact",
				 t->what[0] ? "; " : "", group, block);
			snprintf(t->repair, sizeof(t->repair), "e2fsck -b %" PRIu64 " -B %" PRIu64,
				 block, block_bytes);
			return true;
		}
	}
	return false;
}

/* ---------------------------------------------------------------- a start */

static void primary_words(struct sp_fs_trace *t, const char *why)
{
	snprintf(t->what, sizeof(t->what), "its primary superblock: %s", why);
}

static int judge_xfs_primary(int fd, const uint8_t *head, size_t n, uint64_t start,
			     const struct sp_scan_hints *h, struct sp_fs_trace *t)
{
	struct sp_xfs_sb sb;
	char why[SP_MSG_MAX];
	enum sp_ondisk_verdict v = sp_xfs_sb_read(head, n, &sb, why, sizeof(why));

	if (v == SP_ONDISK_ABSENT)
		return 0;
	snprintf(t->type, sizeof(t->type), "xfs");
	snprintf(t->repair, sizeof(t->repair), "xfs_repair");
	memcpy(t->uuid, sb.uuid, sizeof(t->uuid));
	t->verdict = v;
	t->primary = true;
	if (v == SP_ONDISK_INTACT)
		return 1;
	primary_words(t, why);
	if (v == SP_ONDISK_DAMAGED)
		xfs_find_secondary(fd, head, n, start, h, t);
	return 1;
}

static int judge_ext_primary(int fd, const uint8_t *head, size_t n, uint64_t start,
			     const struct sp_scan_hints *h, struct sp_fs_trace *t)
{
	struct sp_ext_sb sb;
	char why[SP_MSG_MAX];
	enum sp_ondisk_verdict v = SP_ONDISK_ABSENT;

	if (n >= SP_EXT_SB_OFFSET + SP_EXT_SB_BYTES)
		v = sp_ext_sb_read(head + SP_EXT_SB_OFFSET, SP_EXT_SB_BYTES, &sb, why, sizeof(why));
	if (v == SP_ONDISK_ABSENT)
		return 0;
	snprintf(t->type, sizeof(t->type), "%s", sb.type);
	snprintf(t->repair, sizeof(t->repair), "e2fsck -f");
	memcpy(t->uuid, sb.uuid, sizeof(t->uuid));
	t->verdict = v;
	t->primary = true;
	if (v == SP_ONDISK_INTACT)
		return 1;
	primary_words(t, why);
	ext_find_backup(fd, start, h->disk_bytes, t);
	return 1;
}

int sp_scan_fs_at(int fd, uint64_t start, const struct sp_scan_hints *h, struct sp_fs_trace *ret)
{
	uint8_t *head = calloc(1, HEAD_BYTES);
	struct sp_fs_trace t = { .start_bytes = start };
	ssize_t n;

	if (!head)
		return -ENOMEM;
	n = read_at(fd, head, HEAD_BYTES, start, h->disk_bytes);
	if (n < 0) {
		free(head);
		return (int)n;
	}
	/* an unfinished mkfs.xfs (UNFINISHED) has discarded and overwritten
	 * what was there before it: nothing older is looked for behind it */
	if (judge_xfs_primary(fd, head, (size_t)n, start, h, &t) ||
	    judge_ext_primary(fd, head, (size_t)n, start, h, &t))
		goto out;
	/* no primary at all: a zeroed start still leaves the copies */
	snprintf(t.what, sizeof(t.what), "no primary superblock");
	snprintf(t.type, sizeof(t.type), "xfs");
	snprintf(t.repair, sizeof(t.repair), "xfs_repair");
	if (xfs_find_secondary(fd, head, (size_t)n, start, h, &t) ||
	    ext_find_backup(fd, start, h->disk_bytes, &t))
		t.verdict = SP_ONDISK_DAMAGED;
	else
		t = (struct sp_fs_trace){ .start_bytes = start };
out:
	free(head);
	*ret = t;
	return 0;
}

/* ------------------------------------------------------------------ gpt */

static enum sp_ondisk_verdict gpt_copy(int fd, unsigned sector, uint64_t lba, uint64_t disk_bytes,
				       struct sp_gpt_header *hdr, uint8_t **ret_entries,
				       char *why, size_t why_len)
{
	uint64_t disk_sectors = disk_bytes / sector;
	uint8_t *buf = malloc(sector), *entries = NULL;
	enum sp_ondisk_verdict v = SP_ONDISK_ABSENT;
	size_t bytes;

	*ret_entries = NULL;
	if (!buf)
		return SP_ONDISK_ABSENT;
	if (read_at(fd, buf, sector, lba * sector, disk_bytes) == (ssize_t)sector)
		v = sp_gpt_header_read(buf, sector, lba, disk_sectors, hdr, why, why_len);
	free(buf);
	if (v == SP_ONDISK_ABSENT)
		return v;
	/* a damaged header may still locate readable entries: keep them as
	 * places to look for filesystems, never as a label to trust */
	bytes = sp_gpt_entries_bytes(hdr);
	if (bytes && hdr->entries_lba < disk_sectors)
		entries = malloc(bytes);
	if (entries && read_at(fd, entries, bytes, hdr->entries_lba * sector, disk_bytes) !=
			       (ssize_t)bytes) {
		free(entries);
		entries = NULL;
	}
	if (v == SP_ONDISK_INTACT)
		v = entries ? sp_gpt_entries_check(hdr, entries, bytes, why, why_len) :
			      SP_ONDISK_DAMAGED;
	if (v == SP_ONDISK_DAMAGED && !why[0])
		snprintf(why, why_len, "its entry array cannot be read");
	*ret_entries = entries;
	return v;
}

static void take_parts(struct sp_gpt_state *g, const struct sp_gpt_header *hdr,
		       const uint8_t *entries, bool intact)
{
	if (!entries || (g->n_parts && (g->parts_from_intact || !intact)))
		return;
	g->n_parts = sp_gpt_partitions(hdr, entries, sp_gpt_entries_bytes(hdr), g->parts,
				       SP_GPT_MAX_PARTITIONS);
	g->parts_from_intact = intact;
}

int sp_gpt_read_disk(int fd, unsigned sector, uint64_t disk_bytes, struct sp_gpt_state *ret)
{
	struct sp_gpt_state *g = calloc(1, sizeof(*g));
	uint8_t *pe = NULL, *be = NULL, mbr[512];
	uint64_t last;

	if (!g)
		return -ENOMEM;
	if (sector < 512 || disk_bytes / sector < 3) {
		*ret = *g;
		free(g);
		return 0;
	}
	last = disk_bytes / sector - 1;
	g->last_lba = last;
	if (read_at(fd, mbr, sizeof(mbr), 0, disk_bytes) == (ssize_t)sizeof(mbr))
		g->have_mbr = sp_mbr_read(mbr, sizeof(mbr), &g->mbr);
	g->mbr_protective = g->have_mbr && g->mbr.protective;
	g->primary_lba = 1;
	g->primary = gpt_copy(fd, sector, 1, disk_bytes, &g->primary_hdr, &pe, g->primary_why,
			      sizeof(g->primary_why));
	/* the backup is where an intact primary says; else the last sector */
	g->backup_lba = g->primary == SP_ONDISK_INTACT && g->primary_hdr.alternate_lba <= last ?
				g->primary_hdr.alternate_lba : last;
	g->backup = gpt_copy(fd, sector, g->backup_lba, disk_bytes, &g->backup_hdr, &be,
			     g->backup_why, sizeof(g->backup_why));
	take_parts(g, &g->primary_hdr, pe, g->primary == SP_ONDISK_INTACT);
	take_parts(g, &g->backup_hdr, be, g->backup == SP_ONDISK_INTACT);
	/* a copy the other one (or the protective MBR) says should be there */
	if (g->backup == SP_ONDISK_ABSENT && g->primary == SP_ONDISK_INTACT) {
		g->backup = SP_ONDISK_DAMAGED;
		g->backup_missing = true;
		snprintf(g->backup_why, sizeof(g->backup_why), "it is missing (no GPT signature)");
	}
	if (g->primary == SP_ONDISK_ABSENT && g->backup == SP_ONDISK_INTACT) {
		g->primary = SP_ONDISK_DAMAGED;
		g->primary_missing = true;
		snprintf(g->primary_why, sizeof(g->primary_why), "it is missing (no GPT signature)");
	}
	free(pe);
	free(be);
	*ret = *g;
	free(g);
	return 0;
}

bool sp_gpt_one_copy_damaged(const struct sp_gpt_state *g)
{
	return (g->primary == SP_ONDISK_DAMAGED && g->backup == SP_ONDISK_INTACT) ||
	       (g->backup == SP_ONDISK_DAMAGED && g->primary == SP_ONDISK_INTACT);
}

bool sp_gpt_one_copy_missing(const struct sp_gpt_state *g)
{
	return (g->backup_missing && g->primary == SP_ONDISK_INTACT) ||
	       (g->primary_missing && g->backup == SP_ONDISK_INTACT);
}

void sp_gpt_describe_damage(const struct sp_gpt_state *g, char *buf, size_t len)
{
	bool primary_bad = g->primary == SP_ONDISK_DAMAGED;
	bool backup_bad = g->backup == SP_ONDISK_DAMAGED;

	if (primary_bad && backup_bad)
		snprintf(buf, len, "both GPT headers are damaged: the primary at LBA %" PRIu64
			 " (%s) and the backup at LBA %" PRIu64 " (%s)", g->primary_lba,
			 g->primary_why, g->backup_lba, g->backup_why);
	else if (primary_bad)
		snprintf(buf, len, "the primary GPT header at LBA %" PRIu64 " is damaged: %s; the "
			 "backup at LBA %" PRIu64 " is intact", g->primary_lba, g->primary_why,
			 g->backup_lba);
	else if (backup_bad)
		snprintf(buf, len, "the backup GPT header at LBA %" PRIu64 " is damaged: %s; the "
			 "primary at LBA %" PRIu64 " is intact", g->backup_lba, g->backup_why,
			 g->primary_lba);
	else
		snprintf(buf, len, "both GPT copies are intact");
}

/* ---------------------------------------------------------------- layers */

static int scan_luks2(int fd, uint64_t end, struct sp_found_layer *f)
{
	struct sp_luks2_header h;
	uint8_t *buf = malloc(SP_LUKS2_HDR_MAX_BYTES);
	size_t len = SP_LUKS2_BIN_BYTES;
	enum sp_ondisk_verdict v;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	n = read_at(fd, buf, SP_LUKS2_BIN_BYTES, 0, end);
	if (n >= (ssize_t)SP_LUKS2_BIN_BYTES) {
		uint64_t hdr = 0;

		for (int i = 0; i < 8; i++) /* hdr_size, big-endian */
			hdr = hdr << 8 | buf[8 + i];

		/* the whole header when its size is one LUKS2 has; the reader judges it */
		if (hdr > SP_LUKS2_BIN_BYTES && hdr <= SP_LUKS2_HDR_MAX_BYTES)
			n = read_at(fd, buf, (size_t)hdr, 0, end);
		len = n < 0 ? 0 : (size_t)n;
	}
	if (n < 0) {
		free(buf);
		return (int)n;
	}
	v = sp_luks2_read(buf, len, &h, f->damage, sizeof(f->damage));
	free(buf);
	f->kind = SP_LAYER_LUKS;
	if (v == SP_ONDISK_ABSENT) {
		f->unread = true;
		snprintf(f->damage, sizeof(f->damage), "a LUKS header that is not LUKS2 (LUKS1?)");
	} else if (v != SP_ONDISK_INTACT) {
		f->damaged = true;
	} else {
		f->data_offset_bytes = h.data_offset_bytes;
		f->sector_bytes = h.sector_bytes;
	}
	return 0;
}

static int scan_pv(int fd, uint64_t end, struct sp_found_layer *f)
{
	uint8_t buf[SP_LVM_LABEL_SCAN_BYTES];
	struct sp_lvm_label l;
	enum sp_ondisk_verdict v;
	ssize_t n = read_at(fd, buf, sizeof(buf), 0, end);

	if (n < 0)
		return (int)n;
	v = sp_lvm_label_read(buf, (size_t)n, &l, f->damage, sizeof(f->damage));
	f->kind = SP_LAYER_LVM;
	if (v == SP_ONDISK_ABSENT) {
		f->damaged = true;
		snprintf(f->damage, sizeof(f->damage), "libblkid sees a PV, but no LABELONE is in "
			 "its first four sectors");
	} else if (v != SP_ONDISK_INTACT) {
		f->damaged = true;
	} else {
		f->data_offset_bytes = l.pe_start_bytes;
	}
	return 0;
}

int sp_scan_layer(int fd, const char *blkid_type, struct sp_found_layer *f)
{
	uint64_t end = 0;

	if (ioctl(fd, BLKGETSIZE64, &end) < 0) {
		struct stat st;

		if (fstat(fd, &st) < 0)
			return -errno;
		end = (uint64_t)st.st_size;
	}
	if (!strcmp(blkid_type, "crypto_LUKS"))
		return scan_luks2(fd, end, f);
	if (!strcmp(blkid_type, "LVM2_member"))
		return scan_pv(fd, end, f);
	return -EINVAL;
}
