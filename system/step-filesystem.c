/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The filesystem step: mkfs with the plan's argv on the partition, and
 * a verify that reads the stripe geometry back from the superblock
 * rather than trusting mkfs's exit status.
 *
 * XFS is read directly (the first 512 bytes of the partition, laid out
 * as xfsprogs' struct xfs_dsb, big-endian); ext3/ext4 through libext2fs,
 * read-only.  libblkid says which filesystem is there and its UUID.
 */
#include <assert.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <blkid/blkid.h>
#include <ext2fs/ext2fs.h>
#include <linux/fs.h>
#include <xfs/xfs.h>
#include <xfs/xfs_format.h>

#include "dm-node.h"
#include "exec.h"
#include "mkfs-check.h"
#include "steps.h"

#define STEP "filesystem"

/* The on-disk offsets this file relies on (xfs_format.h, "struct xfs_dsb"). */
static_assert(offsetof(struct xfs_dsb, sb_magicnum) == 0, "xfs sb_magicnum moved");
static_assert(offsetof(struct xfs_dsb, sb_blocksize) == 4, "xfs sb_blocksize moved");
static_assert(offsetof(struct xfs_dsb, sb_unit) == 0xb8, "xfs sb_unit moved");
static_assert(offsetof(struct xfs_dsb, sb_width) == 0xbc, "xfs sb_width moved");
static_assert(offsetof(struct xfs_dsb, sb_agblocks) == 0x54, "xfs sb_agblocks moved");
static_assert(offsetof(struct xfs_dsb, sb_logsunit) == 0xc4, "xfs sb_logsunit moved");
static_assert(offsetof(struct xfs_dsb, sb_inprogress) == 0x7e, "xfs sb_inprogress moved");

#define XFS_LOG_MAGIC 0xfeedbabeU   /* xfs_log_format.h XLOG_HEADER_MAGIC_NUM */
#define XFS_INODE_MAGIC 0x494eU     /* 'IN', xfs_format.h XFS_DINODE_MAGIC */
/* Looking at every AG header of a filesystem with more AGs than this
 * would cost more than it tells: the first ones show an unfinished mkfs. */
#define XFS_AGS_CHECKED_MAX 4096U

/* What libblkid found on the partition. */
struct fs_found {
	bool blank;
	bool ambivalent;
	char type[SP_NAME_MAX];
	char uuid[SP_UUID_MAX];
};

/* "256k": the spelling mkfs.xfs documents and the plan's argv uses. */
static void size_short_lower(uint64_t bytes, char *buf, size_t len)
{
	sp_format_size(bytes, SP_SIZE_SHORT, buf, len);
	for (; *buf; buf++)
		if (*buf >= 'A' && *buf <= 'Z')
			*buf = (char)(*buf - 'A' + 'a');
}

/* "xfs su=256k sw=4 log su=256k", then ", UUID ..." once there is one. */
static void summarize(const struct sp_plan *plan, const char *uuid, struct sp_step_result *res)
{
	char su[32], lsu[32], id[SP_UUID_MAX + 16] = "";

	if (uuid && uuid[0])
		snprintf(id, sizeof(id), ", UUID %s", uuid);
	if (plan->fs == SP_FS_XFS && !sp_workload_xfs_stripe(plan->workload)) {
		snprintf(res->summary, sizeof(res->summary),
			 "xfs without a stripe unit (--workload %s)%s", sp_workload_name(plan->workload),
			 id);
	} else if (plan->fs == SP_FS_XFS) {
		size_short_lower(plan->xfs_su_bytes, su, sizeof(su));
		size_short_lower(plan->xfs_log_su_bytes, lsu, sizeof(lsu));
		snprintf(res->summary, sizeof(res->summary), "xfs su=%s sw=%u log su=%s%s", su,
			 plan->xfs_sw, lsu, id);
	} else {
		snprintf(res->summary, sizeof(res->summary),
			 "%s %u B blocks, stride=%u stripe_width=%u%s", sp_fs_name(plan->fs),
			 plan->block_bytes, plan->ext_stride_blocks, plan->ext_stripe_width_blocks,
			 id);
	}
}

/* --------------------------------------------------------------- verify */

/*
 * verify only reads: libblkid says what is there, the superblock says
 * its geometry; both go into a struct sp_found_fs, and
 * sp_judge_filesystem() in the core says what it means.
 */

static int find_fs(const char *path, struct sp_found_fs *f, struct sp_step_result *res)
{
	const char *v;
	blkid_probe pr;
	int rc;

	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return sp_step_fail(res, errno ? errno : EIO,
				    "cannot open '%s' to look for a filesystem: %s", path,
				    strerror(errno ? errno : EIO));
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID |
						      BLKID_SUBLKS_LABEL);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &v, NULL) == 0)
			snprintf(f->type, sizeof(f->type), "%s", v);
		if (blkid_probe_lookup_value(pr, "UUID", &v, NULL) == 0)
			snprintf(f->uuid, sizeof(f->uuid), "%s", v);
		if (blkid_probe_lookup_value(pr, "LABEL", &v, NULL) == 0)
			snprintf(f->label, sizeof(f->label), "%s", v);
	}
	blkid_free_probe(pr);
	if (rc == -1)
		return sp_step_fail(res, EIO, "cannot read '%s': libblkid failed", path);
	f->blank = rc == 1;
	f->ambivalent = rc == -2;
	return 0;
}

/* The superblock of an xfs starting at byte base of fd. */
static int read_xfs_sb(int fd, uint64_t base, const char *path, struct xfs_dsb *sb,
		       struct sp_step_result *res)
{
	ssize_t n = pread(fd, sb, sizeof(*sb), (off_t)base);

	if (n < 0)
		return sp_step_fail(res, errno, "cannot read the xfs superblock of "
				    "'%s': %s", path, strerror(errno));
	if ((size_t)n != sizeof(*sb))
		return sp_step_fail(res, EIO, "'%s' ends inside the xfs superblock", path);
	return 0;
}

static bool read_be(int fd, uint64_t offset, unsigned bytes, uint32_t *ret)
{
	unsigned char b[4];

	if (pread(fd, b, bytes, (off_t)offset) != (ssize_t)bytes)
		return false;
	*ret = bytes == 2 ? (uint32_t)b[0] << 8 | b[1] :
			    (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	return true;
}

static void xfs_missing(struct sp_found_fs *f, uint64_t at_bytes, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void xfs_missing(struct sp_found_fs *f, uint64_t at_bytes, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->xfs_missing, sizeof(f->xfs_missing), fmt, ap);
	va_end(ap);
	f->xfs_missing_at_bytes = at_bytes;
}

/*
 * A superblock is not a filesystem: what the kernel reads at mount time
 * must be there too: every AG's superblock copy, AGF and AGI, the root
 * inode, the log's first record.  A few sectors per AG, so check can
 * say "match" only of a filesystem that mounts.  The first one missing
 * goes into f.
 */
static void read_xfs_headers(int fd, uint64_t base, const struct xfs_dsb *sb,
			     struct sp_found_fs *f)
{
	static const struct {
		unsigned sector;
		uint32_t magic;
		const char *name;
	} hdr[] = { { 0, XFS_SB_MAGIC, "superblock" }, { 1, XFS_AGF_MAGIC, "AGF" },
		    { 2, XFS_AGI_MAGIC, "AGI" } };
	uint64_t block = be32toh(sb->sb_blocksize), agblocks = be32toh(sb->sb_agblocks);
	uint64_t sect = be16toh(sb->sb_sectsize), ag_bytes = agblocks * block;
	uint64_t ino = be64toh(sb->sb_rootino), logstart = be64toh(sb->sb_logstart);
	unsigned agblklog = sb->sb_agblklog, inopblog = sb->sb_inopblog;
	uint32_t agcount = be32toh(sb->sb_agcount), v = 0;
	uint64_t off, agno, agino;

	if (agblklog + inopblog >= 64 || agblklog >= 64)
		return; /* not a superblock mkfs.xfs writes; the kernel's own checks say so */
	for (uint32_t ag = 0; ag < agcount && ag < XFS_AGS_CHECKED_MAX; ag++) {
		for (size_t h = 0; h < ARRAY_SIZE(hdr); h++) {
			off = ag * ag_bytes + hdr[h].sector * sect;
			if (!read_be(fd, base + off, 4, &v) || v != hdr[h].magic) {
				xfs_missing(f, off, "the %s of allocation group %u", hdr[h].name, ag);
				return;
			}
		}
	}
	/* inode number = AG | block in AG | inode in block, by the sb's logs */
	agno = ino >> (agblklog + inopblog);
	agino = ino & ((1ULL << (agblklog + inopblog)) - 1);
	off = agno * ag_bytes + (agino >> inopblog) * block +
	      (agino & ((1ULL << inopblog) - 1)) * be16toh(sb->sb_inodesize);
	if (!read_be(fd, base + off, 2, &v) || v != XFS_INODE_MAGIC) {
		xfs_missing(f, off, "the root inode (%" PRIu64 ")", ino);
		return;
	}
	if (!logstart)
		return; /* an external log is not on this device */
	off = ((logstart >> agblklog) * agblocks + (logstart & ((1ULL << agblklog) - 1))) * block;
	if (!read_be(fd, base + off, 4, &v) || v != XFS_LOG_MAGIC)
		xfs_missing(f, off, "the log's first record");
}

/*
 * The one reader of an xfs: the superblock at byte base of fd and, with
 * headers and mkfs finished, the headers behind it.  The filesystem's
 * own node (verify) and the disk at the planned start (probe_existing,
 * before any partition exists) are read the same way.
 */
static int read_xfs_at(int fd, uint64_t base, const char *path, bool headers,
		       struct sp_found_fs *f, struct sp_step_result *res)
{
	struct xfs_dsb sb;
	int r = read_xfs_sb(fd, base, path, &sb, res);

	if (r < 0)
		return r;
	if (be32toh(sb.sb_magicnum) != XFS_SB_MAGIC) {
		f->sb_unreadable = true;
		snprintf(f->sb_error, sizeof(f->sb_error),
			 "no xfs superblock magic (XFSB) at its start");
		return 0;
	}
	/* sb_unit and sb_width count filesystem blocks, sb_logsunit bytes */
	f->block_bytes = be32toh(sb.sb_blocksize);
	f->xfs_unit_blocks = be32toh(sb.sb_unit);
	f->xfs_width_blocks = be32toh(sb.sb_width);
	f->xfs_agblocks = be32toh(sb.sb_agblocks);
	f->xfs_agcount = be32toh(sb.sb_agcount);
	f->xfs_logsunit_bytes = be32toh(sb.sb_logsunit);
	f->xfs_inprogress = sb.sb_inprogress;
	if (headers && !f->xfs_inprogress)
		read_xfs_headers(fd, base, &sb, f);
	return 0;
}

static int read_xfs(const char *path, struct sp_found_fs *f, struct sp_step_result *res)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return sp_step_fail(res, errno, "cannot open '%s': %s", path, strerror(errno));
	r = read_xfs_at(fd, 0, path, true, f, res);
	close(fd);
	return r;
}

/*
 * libext2fs's own messages need libcom_err's error_message(), which the
 * build does not link; these are the answers a superblock read gives.
 */
static const char *ext2fs_said(errcode_t e)
{
	if (e > 0 && e < 4096)
		return strerror((int)e);
	switch (e) {
	case EXT2_ET_BAD_MAGIC:
		return "bad magic number in superblock";
	case EXT2_ET_SB_CSUM_INVALID:
		return "superblock checksum does not match superblock";
	case EXT2_ET_CORRUPT_SUPERBLOCK:
		return "the ext2 superblock is corrupt";
	case EXT2_ET_UNSUPP_FEATURE:
	case EXT2_ET_RO_UNSUPP_FEATURE:
		return "the filesystem has features this libext2fs does not support";
	case EXT2_ET_SHORT_READ:
		return "attempt to read block from filesystem resulted in short read";
	case EXT2_ET_REV_TOO_HIGH:
		return "the filesystem revision is too high";
	default:
		return "unknown libext2fs error";
	}
}

/*
 * What e2fsck and the kernel refuse or repair first.  A journal that
 * needs recovery is normal on a mounted filesystem (the kernel holds it),
 * so that is judged only when nothing mounts the partition.
 */
static void read_ext_state(const char *path, const struct struct_ext2_filsys *fs,
			   struct sp_found_fs *f)
{
	int mount_flags = 0;

	f->ext_errors = (fs->super->s_state & EXT2_ERROR_FS) != 0;
	if (ext2fs_check_if_mounted(path, &mount_flags) != 0)
		mount_flags = 0;
	f->mounted = (mount_flags & EXT2_MF_MOUNTED) != 0;
	if (f->mounted)
		return;
	f->ext_needs_recovery = ext2fs_has_feature_journal_needs_recovery(fs->super);
	f->ext_not_clean = !(fs->super->s_state & EXT2_VALID_FS);
}

static void read_ext(const char *path, struct sp_found_fs *f)
{
	ext2_filsys fs = NULL;
	errcode_t e;

	/* read-only (no EXT2_FLAG_RW); 64BITS or a 64bit filesystem is refused */
	e = ext2fs_open(path, EXT2_FLAG_64BITS, 0, 0, unix_io_manager, &fs);
	if (e) {
		f->sb_unreadable = true;
		snprintf(f->sb_error, sizeof(f->sb_error), "libext2fs said: %s (%ld)",
			 ext2fs_said(e), (long)e);
		return;
	}
	f->block_bytes = EXT2_BLOCK_SIZE(fs->super);
	f->ext_stride_blocks = fs->super->s_raid_stride;
	f->ext_stripe_width_blocks = fs->super->s_raid_stripe_width;
	read_ext_state(path, fs, f);
	ext2fs_close_free(&fs);
}

/*
 * The on-disk readers' verdict on what is at the start of the node (a
 * partition, or the whole disk): a superblock libblkid reports that the
 * kernel would refuse, or, where libblkid sees nothing, a primary that
 * is gone while a copy is there.
 */
static void judge_on_disk(const struct sp_plan *plan, const char *path, struct sp_found_fs *f)
{
	struct sp_scan_hints h = { 0 };
	struct sp_fs_trace t;
	uint64_t bytes = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return;
	if (ioctl(fd, BLKGETSIZE64, &bytes) == 0) {
		h.disk_bytes = bytes;
		h.su_bytes = plan->stripe_width_bytes ? plan->chunk_bytes : 0;
		h.sw = plan->data_disks;
		h.agsize_bytes = plan->fs == SP_FS_XFS ? (plan->xfs_agsize_bytes ?
							  plan->xfs_agsize_bytes :
							  plan->xfs_ag.mkfs_agsize_bytes) : 0;
		h.region_bytes[h.n_regions++] = bytes;
		h.n_exact = 1; /* the node is the filesystem's own extent */
		if (sp_scan_fs_at(fd, 0, &h, &t) == 0 && t.verdict == SP_ONDISK_DAMAGED) {
			f->damaged = true;
			f->blank = false;
			if (!f->type[0] || t.from_backup)
				snprintf(f->type, sizeof(f->type), "%s", t.type);
			snprintf(f->damage, sizeof(f->damage), "%s", t.what);
			snprintf(f->repair, sizeof(f->repair), "%s %s", t.repair, path);
		}
	}
	close(fd);
}

/* Fills f; returns <0 only when it cannot look. */
static int read_fs(const struct sp_plan *plan, const char *path, struct sp_found_fs *f,
		   struct sp_step_result *res)
{
	struct stat st;
	int r;

	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return sp_step_fail(res, errno, "cannot stat '%s': %s", path,
					    strerror(errno));
		f->no_node = true;
		return 0;
	}
	if (!S_ISBLK(st.st_mode)) {
		f->not_block = true;
		return 0;
	}
	r = find_fs(path, f, res);
	if (r < 0 || f->ambivalent)
		return r;
	if (f->blank || !strcmp(f->type, "xfs") || !strncmp(f->type, "ext", 3))
		judge_on_disk(plan, path, f);
	if (f->blank || f->damaged)
		return 0;
	if (!strcmp(f->type, "xfs"))
		return read_xfs(path, f, res);
	if (!strcmp(f->type, "ext3") || !strcmp(f->type, "ext4") || !strcmp(f->type, "ext2"))
		read_ext(path, f);
	return 0;
}

/*
 * Where the filesystem should be, a layer of a stack (LUKS2, an LVM PV):
 * where its data starts on the array, from its own header, judged
 * against the stripe.  The device starts where the partition found does
 * (0 for a filesystem on the whole disk).
 */
static int judge_layer(struct sp_ctx *ctx, const struct sp_found_fs *f, struct sp_step_result *res)
{
	const struct sp_found_partition *part = ctx->have_found_partition ? &ctx->found_partition : NULL;
	struct sp_found_layer *layer = calloc(1, sizeof(*layer));
	int fd, r;

	if (!layer)
		return sp_step_fail(res, ENOMEM, "out of memory");
	snprintf(layer->device, sizeof(layer->device), "%s", f->path);
	if (ctx->plan->table == SP_TABLE_NONE || (part && !strcmp(part->label, "loop")))
		layer->device_start_bytes = 0;
	else
		layer->device_start_bytes = part && part->has_first ? part->start_bytes :
								    ctx->plan->start_bytes;
	fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	r = fd < 0 ? -errno : sp_scan_layer(fd, f->type, layer);
	if (fd >= 0)
		close(fd);
	if (r < 0) {
		free(layer);
		return sp_step_fail(res, -r, "cannot read the %s header of '%s': %s", f->type, f->path,
				    strerror(-r));
	}
	sp_judge_layer(ctx->plan, layer, &res->findings);
	free(layer);
	return 0;
}

static int filesystem_verify(struct sp_ctx *ctx, struct sp_step_result *res)
{
	struct sp_found_fs *f;
	int r;

	if (!ctx || !ctx->plan)
		return sp_step_fail(res, EINVAL, "no plan to verify against");
	ctx->fs_uuid[0] = '\0';
	f = &ctx->found_fs;
	memset(f, 0, sizeof(*f));
	/* check: a filesystem on the whole disk (libparted's "loop" label) is
	 * judged where it is */
	if (ctx->plan->n_layers)
		snprintf(f->path, sizeof(f->path), "%s", sp_ctx_fs_path(ctx));
	else if (ctx->auditing && ctx->have_found_partition &&
		 !strcmp(ctx->found_partition.label, "loop"))
		snprintf(f->path, sizeof(f->path), "%s", sp_ctx_disk_path(ctx));
	else
		snprintf(f->path, sizeof(f->path), "%s", sp_ctx_partition_path(ctx));
	summarize(ctx->plan, NULL, res);
	r = read_fs(ctx->plan, f->path, f, res);
	if (r < 0)
		return r;
	ctx->have_found_fs = true;
	if (f->uuid[0] && !f->blank && !f->ambivalent) {
		snprintf(ctx->fs_uuid, sizeof(ctx->fs_uuid), "%s", f->uuid);
		summarize(ctx->plan, f->uuid, res);
	}
	/* a closed LUKS2 volume of the plan's hides what is above it: check
	 * says so in the LUKS2 step and judges no further */
	if (ctx->auditing && ctx->luks_closed && f->no_node) {
		sp_step_line(res, "'%s' is not open: the filesystem on it is not read", f->path);
		return 0;
	}
	sp_judge_filesystem(ctx->plan, f, &res->findings);
	if (!ctx->plan->n_layers && !f->blank && !f->ambivalent &&
	    (!strcmp(f->type, "crypto_LUKS") || !strcmp(f->type, "LVM2_member"))) {
		r = judge_layer(ctx, f, res);
		if (r < 0)
			return r;
	}
	sp_step_take_findings(res);
	return 0;
}

/* ---------------------------------------------------------------- apply */

static void join_argv(const struct sp_plan *plan, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < plan->n_mkfs_argv && n < len; i++) {
		int w = snprintf(buf + n, len - n, "%s%s", i ? " " : "", plan->mkfs_argv[i]);

		if (w < 0)
			break;
		n += (size_t)w;
	}
}

/*
 * The mkfs action, old -> new: what the verify found on the planned node
 * (a new partition's range holds what the disk had there) and the plan's
 * filesystem with a UUID mkfs has yet to choose.
 */
static void mkfs_action(const struct sp_ctx *ctx, const char *path, struct sp_step_result *res)
{
	const struct sp_found_fs *f = &ctx->found_fs;
	char before[SP_ACTION_VALUE_MAX] = "", after[SP_ACTION_VALUE_MAX];

	bool something = ctx->have_found_fs && !f->blank && !f->no_node;

	if (something && f->type[0])
		snprintf(before, sizeof(before), "%s%s%s", f->type, f->uuid[0] ? " UUID=" : "",
			 f->uuid);
	else if (something)
		snprintf(before, sizeof(before), "unrecognised data");
	snprintf(after, sizeof(after), "%s (a new UUID)", sp_fs_name(ctx->plan->fs));
	sp_step_action(res, SP_ACTION_MKFS, path, before, after);
}

static int dry_run(const struct sp_ctx *ctx, struct sp_step_result *res)
{
	const struct sp_plan *plan = ctx->plan;
	const char *path = sp_ctx_fs_path(ctx);
	char cmd[SP_MSG_MAX];
	int r = 0;

	join_argv(ctx->plan, cmd, sizeof(cmd));
	/* the partition a dry run has not made is its range of the disk; the
	 * whole device, once the partition step's wipe has gone over it, holds
	 * none of what that wipe listed */
	/* a layer's node: made by the step below, blank (lvcreate -Zy) */
	if (plan->n_layers)
		r = 0;
	else if (plan->table != SP_TABLE_NONE)
		r = sp_step_wipe_dry_run(ctx, path, plan->start_bytes, plan->size_bytes, res);
	else
		r = ctx->dry_run_wiped_disk ? 0 : sp_step_wipe_dry_run(ctx, path, 0, 0, res);
	if (r < 0)
		return r;
	mkfs_action(ctx, path, res);
	/* the program as apply runs it: by the path its preflight found */
	if (ctx->mkfs_path[0])
		sp_step_line(res, "run: %s%s", ctx->mkfs_path, cmd + strlen(ctx->plan->mkfs_argv[0]));
	else
		sp_step_line(res, "run: %s", cmd);
	summarize(ctx->plan, NULL, res);
	res->status = SP_STEP_DRY_RUN;
	return 0;
}

/* Never a whole disk unless the plan says so (--table none): otherwise
 * the node must be what the kernel calls a partition. */
/* The top of a stack must be the mapping the layer step made: its
 * device-mapper name is the plan's. */
static int check_is_top(const struct sp_ctx *ctx, const char *path, struct sp_step_result *res)
{
	const struct sp_plan *plan = ctx->plan;
	char want[SP_NAME_MAX];
	struct sp_dm_node m;
	int r = sp_dm_node_read(ctx->sysfs, path, &m);

	if (plan->layers[plan->n_layers - 1] == SP_LAYER_LUKS)
		snprintf(want, sizeof(want), "%s", plan->luks.name);
	else
		sp_dm_lvm_name(plan->lvm.vg, plan->lvm.lv, want, sizeof(want));
	if (r < 0)
		return sp_step_fail(res, -r, "cannot read '%s' in sysfs: %s", path, strerror(-r));
	if (!m.exists || !m.is_dm || strcmp(m.dm_name, want))
		return sp_step_fail(res, EPERM,
				    "refusing to format '%s': it is not the device-mapper device "
				    "'%s' the plan's stack makes", path, want);
	return 0;
}

static int check_is_partition(const struct sp_plan *plan, const char *path,
			      struct sp_step_result *res)
{
	char attr[64];
	struct stat st;

	if (stat(path, &st) < 0)
		return sp_step_fail(res, errno, "cannot format '%s': %s", path, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return sp_step_fail(res, ENOTBLK,
				    "refusing to format '%s': not a block device", path);
	if (plan->table == SP_TABLE_NONE && !strcmp(path, plan->device.path))
		return 0;
	snprintf(attr, sizeof(attr), "/sys/dev/block/%u:%u/partition", major(st.st_rdev),
		 minor(st.st_rdev));
	if (access(attr, F_OK) < 0)
		return sp_step_fail(res, EPERM,
				    "refusing to format '%s': the kernel does not call it a partition "
				    "(no %s); stripeplan formats a whole disk only when the plan "
				    "says --table none", path, attr);
	return 0;
}

/*
 * The argv comes from a plan file a person may have edited: it must run
 * the plan's own mkfs and end with the plan's partition, so no edit can
 * point it at another device; run_mkfs() then gives mkfs the node checked
 * above in its place (the kernel's, when no udev made the plan's
 * .../by-id/NAME-part1).
 */
static int check_argv(const struct sp_plan *plan, struct sp_step_result *res)
{
	const char *path = plan->n_layers ? plan->fs_path : plan->partition_path;
	const char *tool = plan->n_mkfs_argv ? plan->mkfs_argv[0] : "";
	bool tool_ok = !strcmp(tool, sp_mkfs_tool(plan->fs));

	if (plan->n_mkfs_argv < 2 || plan->n_mkfs_argv > SP_MAX_ARGV || !tool_ok)
		return sp_step_fail(res, EINVAL,
				    "the plan's mkfs command ('%s', %zu arguments) is not one that makes "
				    "%s", tool, plan->n_mkfs_argv, sp_fs_name(plan->fs));
	if (strcmp(plan->mkfs_argv[plan->n_mkfs_argv - 1], path))
		return sp_step_fail(res, EINVAL,
				    "the plan's mkfs command ends with '%s', not the partition '%s'",
				    plan->mkfs_argv[plan->n_mkfs_argv - 1], path);
	return 0;
}

/* The plan's command, run by the absolute path the preflight found. */
static int run_mkfs(struct sp_ctx *ctx, const char *path, struct sp_step_result *res)
{
	const struct sp_plan *plan = ctx->plan;
	const char *argv[SP_MAX_ARGV + 1];
	struct sp_exec_opts opts = { .program_dirs = ctx->program_dirs,
				     .deadline_s = ctx->program_deadline_s };
	struct sp_exec_result out = { 0 };
	char why[SP_MSG_MAX];
	size_t i;
	int r;

	if (!ctx->mkfs_path[0] && sp_step_find_program(ctx, plan->mkfs_argv[0], ctx->mkfs_path,
						       sizeof(ctx->mkfs_path), res) < 0)
		return -ENOENT;
	argv[0] = ctx->mkfs_path;
	for (i = 1; i + 1 < plan->n_mkfs_argv; i++)
		argv[i] = plan->mkfs_argv[i];
	argv[i++] = path; /* in place of the plan's name for it: check_argv() */
	argv[i] = NULL;
	/* mkfs's work grows with what it formats */
	if (!opts.deadline_s)
		opts.deadline_s = sp_exec_deadline_s(plan->size_bytes);
	r = sp_exec(argv, &opts, &out, &res->error);
	if (r < 0) {
		res->status = SP_STEP_FAILED;
		return r;
	}
	free(res->tool_output);
	res->tool_output = out.output; /* the report owns it now */
	out.output = NULL;
	if (out.exit_status == 0)
		return 0;
	sp_mkfs_why(res->tool_output, plan->mkfs_argv[0], why, sizeof(why));
	return sp_step_fail(res, EIO, "%s failed (exit %d) on '%s': %s", plan->mkfs_argv[0],
			    out.exit_status, path, why);
}

/* Right before mkfs opens it by name: the disk and the node are still
 * the ones the run identified and bound. */
static int still_bound(const struct sp_ctx *ctx, const char *path, struct sp_step_result *res)
{
	int fd, r = sp_ctx_check_disk(ctx, res);

	if (r < 0 || !ctx->part_rdev)
		return r;
	fd = sp_ctx_open_checked(ctx, path, O_RDONLY, ctx->part_rdev, res);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static int filesystem_apply(struct sp_ctx *ctx, struct sp_step_result *res)
{
	double started = sp_now_seconds();
	const char *path;
	int r;

	/* the filesystem there now is gone once this step runs: what comes
	 * after (the fstab line) must not name its UUID, in a dry run too */
	ctx->fs_uuid[0] = '\0';
	r = sp_step_apply_begin(ctx, res, dry_run);
	if (r <= 0)
		return r;
	path = sp_ctx_fs_path(ctx);
	r = ctx->plan->n_layers ? check_is_top(ctx, path, res) :
				  check_is_partition(ctx->plan, path, res);
	if (r == 0)
		r = check_argv(ctx->plan, res);
	/* a layer's node is new and blank (lvcreate -Zy, a fresh mapping), and
	 * has its own disk sequence: the disk's checks are the layers' */
	if (r == 0 && !ctx->plan->n_layers)
		r = sp_step_wipe_signatures(ctx, path, ctx->part_rdev, res);
	if (r == 0)
		r = ctx->plan->n_layers ? sp_ctx_check_disk(ctx, res) : still_bound(ctx, path, res);
	if (r == 0)
		mkfs_action(ctx, path, res);
	if (r == 0)
		r = run_mkfs(ctx, path, res);
	res->seconds = sp_now_seconds() - started;
	if (r < 0)
		return r;
	summarize(ctx->plan, NULL, res);
	res->status = SP_STEP_DONE;
	return 0;
}

/* --------------------------------------------------------------- exists */

/*
 * An xfs whose superblock still says mkfs is in progress held no data and
 * never can: the kernel refuses to mount it.  A run that mkfs.xfs left so
 * (ENOSPC, a kill) is redone without --force.  Read at the planned start
 * on the disk itself, through the identified descriptor.
 */
static bool xfs_never_finished(const struct sp_ctx *ctx)
{
	struct sp_found_fs *f;
	struct sp_step_result *tmp;
	bool never = false;

	if (!ctx->disk_rdev || ctx->disk_fd < 0)
		return false;
	f = calloc(1, sizeof(*f));
	tmp = calloc(1, sizeof(*tmp));
	if (f && tmp && read_xfs_at(ctx->disk_fd, ctx->plan->start_bytes, sp_ctx_disk_path(ctx),
				    false, f, tmp) == 0)
		never = !f->sb_unreadable && f->xfs_inprogress;
	sp_step_result_clear(tmp);
	free(tmp);
	free(f);
	return never;
}

/*
 * The planned partition's whole range, read from the disk at the planned
 * start: an old filesystem, LVM PV or md superblock there is found even
 * when no partition table points at it any more (a table wiped alone).
 * Then the on-disk readers, for what libblkid does not report: a damaged
 * primary, or a filesystem whose primary is gone but whose secondary or
 * backup superblocks are there, at any start that reaches into the range.
 */
static int filesystem_probe_existing(struct sp_ctx *ctx, char *what, size_t len)
{
	const struct sp_plan *plan = ctx->plan;
	char found[SP_MSG_MAX], start[32], node[SP_PATH_MAX];
	struct sp_fs_trace t;
	int r, s;

	/* on a stack: what is on its top now (the layers' steps read below) */
	if (plan->n_layers) {
		r = sp_step_probe_signature(plan->fs_path, found, sizeof(found));
		if (r == 0 || r == -ENOENT)
			return 0;
		if (r < 0)
			snprintf(found, sizeof(found), "unrecognised data (cannot be probed: %s)",
				 strerror(-r));
		snprintf(what, len, "%s on %s, where the plan's filesystem goes", found,
			 plan->fs_path);
		return 1;
	}

	r = sp_step_probe_range(ctx, plan->start_bytes, plan->size_bytes, found, sizeof(found));
	s = sp_step_scan_filesystems(ctx, plan->start_bytes + plan->size_bytes, &t, node,
				     sizeof(node));
	/* what libblkid sees at the start is what is there now (swap made over
	 * an old xfs): the readers' words only for what libblkid missed, or
	 * for the damaged primary it saw */
	if (s > 0 && (r <= 0 || (t.verdict == SP_ONDISK_DAMAGED && t.primary &&
				 t.start_bytes == plan->start_bytes))) {
		sp_step_describe_trace(&t, node, what, len);
		return 1;
	}
	if (r > 0 && xfs_never_finished(ctx))
		return 0; /* mkfs was stopped: no data was ever in it, redo it */
	if (r < 0 || s < 0)
		snprintf(found, sizeof(found), "unrecognised data (cannot be probed: %s)",
			 strerror(r < 0 ? -r : -s));
	sp_format_size(plan->start_bytes, SP_SIZE_HUMAN, start, sizeof(start));
	if (r != 0 || s < 0)
		snprintf(what, len, "%s at %s, where the plan's partition %s starts", found,
			 start, sp_ctx_partition_path(ctx));
	return r != 0 || s < 0;
}

const struct sp_step sp_step_filesystem = {
	.name = STEP,
	.verify = filesystem_verify,
	.apply = filesystem_apply,
	.probe_existing = filesystem_probe_existing,
	.preflight = sp_mkfs_preflight, /* mkfs-check.c */
};
