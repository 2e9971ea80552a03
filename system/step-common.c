/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the step files share: result lines, failures that name the
 * device, and libblkid's view of signatures (describe them, wipe them).
 * Wiping lives here because both steps need it: the partition step on
 * the whole disk before a new label, the filesystem step inside the
 * partition before mkfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <blkid/blkid.h>
#include <linux/fs.h>

#include "steps.h"

/* A disk with more signatures than this is not one wipefs would loop on
 * forever either; it means a wipe did not stick. */
#define WIPE_MAX_SIGNATURES 64

int sp_step_error(struct sp_step_result *res, int code, enum sp_error_kind kind, const char *fmt,
		  ...)
{
	char msg[SP_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	res->status = SP_STEP_FAILED;
	return sp_error_set(&res->error, code ? code : EIO, kind, "%s", msg);
}

int sp_step_apply_begin(const struct sp_ctx *ctx, struct sp_step_result *res,
			int (*dry_run)(const struct sp_ctx *ctx, struct sp_step_result *res))
{
	if (!ctx || !ctx->plan)
		return sp_step_fail(res, EINVAL, "no plan to apply");
	if (!ctx->dry_run)
		return 1;
	return dry_run(ctx, res);
}

/* "an" before a vowel sound: "an ext4", "an xfs", "a gpt", and an
 * upper-case name read letter by letter: "an LVM2_member", "an MBR". */
static const char *article(const char *word)
{
	bool spelled = word[0] >= 'A' && word[0] <= 'Z' && word[1] >= 'A' && word[1] <= 'Z';

	if (!word[0])
		return "a";
	if (spelled)
		return strchr("AEFHILMNORSX", word[0]) ? "an" : "a";
	return strchr("aeiouxAEIOUX", word[0]) ? "an" : "a";
}

static const char *lookup(blkid_probe pr, const char *name)
{
	const char *value = NULL;

	return blkid_probe_lookup_value(pr, name, &value, NULL) == 0 ? value : NULL;
}

/* Turns what a probe found into words: "an ext4 filesystem (UUID x)". */
static void describe(blkid_probe pr, char *what, size_t len)
{
	const char *type = lookup(pr, "TYPE"), *usage = lookup(pr, "USAGE");
	const char *uuid = lookup(pr, "UUID"), *pttype = lookup(pr, "PTTYPE");
	char id[SP_UUID_MAX + 16] = "";

	if (uuid)
		snprintf(id, sizeof(id), " (UUID %s)", uuid);
	if (type && usage && !strcmp(usage, "filesystem"))
		snprintf(what, len, "%s %s filesystem%s", article(type), type, id);
	else if (type)
		snprintf(what, len, "%s %s signature%s%s%s", article(type), type, id,
			 usage ? ", used for " : "", usage ? usage : "");
	else if (pttype)
		snprintf(what, len, "%s %s partition table", article(pttype), pttype);
	else
		snprintf(what, len, "unrecognised data");
}

/* libblkid's safe probe of [offset, offset + size) of fd (size 0: to
 * the end); see sp_step_probe_signature. */
static int probe_fd(int fd, uint64_t offset, uint64_t size, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	int rc;

	if (!pr)
		return -ENOMEM;
	if (blkid_probe_set_device(pr, fd, (blkid_loff_t)offset, (blkid_loff_t)size) < 0) {
		blkid_free_probe(pr);
		return -EIO;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
						      BLKID_SUBLKS_UUID | BLKID_SUBLKS_MAGIC);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_FORCE_GPT | BLKID_PARTS_MAGIC);

	/* A tool that destroys data must not read "not sure" as "empty". */
	rc = blkid_do_safeprobe(pr);
	if (rc == -2)
		snprintf(what, len, "unrecognised data (libblkid found conflicting signatures)");
	else if (rc < 0)
		snprintf(what, len, "unrecognised data (libblkid could not read it)");
	else if (rc == 0)
		describe(pr, what, len);
	blkid_free_probe(pr);
	return rc == 1 ? 0 : 1;
}

int sp_step_probe_signature(const char *path, char *what, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), r;

	if (fd < 0)
		return -errno;
	r = probe_fd(fd, 0, 0, what, len);
	close(fd);
	return r;
}

int sp_step_probe_range(const struct sp_ctx *ctx, uint64_t offset, uint64_t size, char *what,
			size_t len)
{
	const char *path = sp_ctx_disk_path(ctx);
	int fd, r;

	if (ctx->disk_rdev && ctx->disk_fd >= 0)
		return probe_fd(ctx->disk_fd, offset, size, what, len);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	r = probe_fd(fd, offset, size, what, len);
	close(fd);
	return r;
}

/* One probe-and-wipe round; libblkid steps back after each wipe, so the
 * next blkid_do_probe() finds the next signature (wipefs's own loop). */
static int wipe_one(blkid_probe pr, const char *path, bool dry_run, struct sp_step_result *res)
{
	const char *type = lookup(pr, "TYPE"), *off = lookup(pr, "SBMAGIC_OFFSET");
	char what[SP_ACTION_VALUE_MAX];

	if (!type) {
		type = lookup(pr, "PTTYPE");
		off = lookup(pr, "PTMAGIC_OFFSET");
	}
	snprintf(what, sizeof(what), "%s signature at offset %s", type ? type : "unknown",
		 off ? off : "?");
	/* recorded before the write: a wipe that fails half-way may have
	 * destroyed it already */
	sp_step_action(res, SP_ACTION_WIPE, path, what, NULL);
	errno = 0;
	/* a dry run passes the same probe, and libblkid hides the range it
	 * would have zeroed, so the next probe finds the next signature */
	if (blkid_do_wipe(pr, dry_run) < 0)
		return sp_step_fail(res, errno ? errno : EIO, "cannot wipe the %s on '%s': %s",
				    what, path, strerror(errno ? errno : EIO));
	sp_step_line(res, "%s the %s on %s", dry_run ? "wipe" : "wiped", what, path);
	return 0;
}

static int wipe_all(blkid_probe pr, int fd, const char *path, bool dry_run,
		    struct sp_step_result *res)
{
	int n, rc, r;

	blkid_probe_enable_superblocks(pr, 1);
	/* BADCSUM: a damaged superblock is still a signature to remove */
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_TYPE |
						      BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT);

	for (n = 0; n < WIPE_MAX_SIGNATURES; n++) {
		rc = blkid_do_probe(pr);
		if (rc == 1)
			break;
		if (rc < 0)
			return sp_step_fail(res, EIO,
					    "cannot look for signatures on '%s': libblkid failed",
					    path);
		r = wipe_one(pr, path, dry_run, res);
		if (r < 0)
			return r;
	}
	if (n == WIPE_MAX_SIGNATURES)
		return sp_step_fail(res, EIO,
				    "'%s' still shows signatures after %d wipes; the writes do not stick",
				    path, n);
	if (!dry_run && fsync(fd) < 0)
		return sp_step_fail(res, errno, "cannot flush '%s' after wiping: %s",
				    path, strerror(errno));
	return 0;
}

int sp_step_wipe_signatures(const struct sp_ctx *ctx, const char *path, dev_t want_rdev,
			    struct sp_step_result *res)
{
	blkid_probe pr = NULL;
	int fd, r;

	if (ctx->dry_run)
		return sp_step_wipe_dry_run(ctx, path, 0, 0, res);
	/* O_EXCL: the kernel says EBUSY while the device is mounted or held */
	fd = sp_ctx_open_checked(ctx, path, O_RDWR | O_EXCL, want_rdev, res);
	if (fd < 0)
		return fd;
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, 0) < 0) {
		r = sp_step_fail(res, ENOMEM, "cannot set up libblkid on '%s'", path);
		goto out;
	}
	r = wipe_all(pr, fd, path, false, res);
out:
	blkid_free_probe(pr);
	close(fd);
	return r;
}

int sp_step_wipe_dry_run(const struct sp_ctx *ctx, const char *path, uint64_t offset,
			 uint64_t size, struct sp_step_result *res)
{
	blkid_probe pr = blkid_new_probe();
	int fd = -1, r;

	if (!pr)
		return sp_step_fail(res, ENOMEM, "cannot set up libblkid on '%s'", path);
	if (ctx->disk_rdev && ctx->disk_fd >= 0) {
		fd = ctx->disk_fd;
	} else {
		fd = open(sp_ctx_disk_path(ctx), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0) {
			r = sp_step_fail(res, errno, "cannot open '%s': %s", sp_ctx_disk_path(ctx),
					 strerror(errno));
			blkid_free_probe(pr);
			return r;
		}
	}
	if (blkid_probe_set_device(pr, fd, (blkid_loff_t)offset, (blkid_loff_t)size) < 0)
		r = sp_step_fail(res, ENOMEM, "cannot set up libblkid on '%s'", path);
	else
		r = wipe_all(pr, fd, path, true, res);
	blkid_free_probe(pr);
	if (fd != ctx->disk_fd)
		close(fd);
	return r;
}

static uint64_t fd_diskseq(int fd)
{
	uint64_t seq = 0;

#ifdef BLKGETDISKSEQ
	if (ioctl(fd, BLKGETDISKSEQ, &seq) < 0)
		seq = 0;
#else
	(void)fd;
#endif
	return seq;
}

int sp_ctx_open_checked(const struct sp_ctx *ctx, const char *path, int flags, dev_t want_rdev,
			struct sp_step_result *res)
{
	struct stat st;
	uint64_t seq;
	int fd, e;

	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		return sp_step_fail(res, e, "cannot open '%s': %s%s", path, strerror(e),
				    e == EBUSY ? " (mounted, or held by md, dm or swap?)" : "");
	}
	/* want_rdev 0: a ctx that identified nothing (no pipeline) */
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || (want_rdev && st.st_rdev != want_rdev)) {
		close(fd);
		return sp_step_fail(res, ESTALE,
				    "'%s' is no longer the device apply identified (%u:%u); it was "
				    "replaced while apply ran, so nothing more is written",
				    path, major(want_rdev), minor(want_rdev));
	}
	seq = fd_diskseq(fd);
	if (ctx->disk_diskseq && seq && seq != ctx->disk_diskseq) {
		close(fd);
		return sp_step_fail(res, ESTALE,
				    "'%s' is disk sequence %" PRIu64 ", apply identified %" PRIu64
				    ": the medium was replaced while apply ran, so nothing more is "
				    "written", path, seq, ctx->disk_diskseq);
	}
	return fd;
}

int sp_ctx_check_disk(const struct sp_ctx *ctx, struct sp_step_result *res)
{
	const char *path = sp_ctx_disk_path(ctx);
	uint64_t size = 0;
	int fd;

	if (!ctx->disk_rdev || ctx->disk_fd < 0)
		return 0; /* nothing identified: a step run on its own (tests) */
	if (ioctl(ctx->disk_fd, BLKGETSIZE64, &size) < 0 || size != ctx->disk_size_bytes)
		return sp_step_fail(res, ESTALE,
				    "'%s' now has %" PRIu64 " bytes, apply identified %" PRIu64
				    " (detached, resized or replaced while apply ran); nothing more "
				    "is written", path, size, ctx->disk_size_bytes);
	if (ctx->disk_diskseq && fd_diskseq(ctx->disk_fd) != ctx->disk_diskseq)
		return sp_step_fail(res, ESTALE,
				    "'%s' is disk sequence %" PRIu64 ", apply identified %" PRIu64
				    ": the medium was replaced while apply ran; nothing more is written",
				    path, fd_diskseq(ctx->disk_fd), ctx->disk_diskseq);
	/* the path, as libparted and mkfs will open it, must still name it */
	fd = sp_ctx_open_checked(ctx, path, O_RDONLY, ctx->disk_rdev, res);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

const char *sp_ctx_disk_path(const struct sp_ctx *ctx)
{
	return ctx->disk_path ? ctx->disk_path : ctx->plan->device.path;
}

const char *sp_ctx_partition_path(const struct sp_ctx *ctx)
{
	return ctx->partition_path[0] ? ctx->partition_path : ctx->plan->partition_path;
}

const char *sp_ctx_fs_path(const struct sp_ctx *ctx)
{
	return ctx->plan->n_layers ? ctx->plan->fs_path : sp_ctx_partition_path(ctx);
}

const char *sp_ctx_layer_below(const struct sp_ctx *ctx, const char *planned_below)
{
	return strcmp(planned_below, ctx->plan->partition_path) ? planned_below :
								 sp_ctx_partition_path(ctx);
}

/* ------------------------------------------------- the on-disk readers */

/* Starts judged at most: the classic ones, the plan's, 1 MiB multiples up
 * to it, and what the labels point at. */
#define SCAN_MAX_STARTS 160U
#define SCAN_MAX_MIB_STARTS 64U
#define GPT_TAIL_SECTORS 34U

struct scan_start {
	uint64_t start_bytes;
	uint64_t label_bytes; /* the size a label gives a partition here, 0 none */
};

struct scan_starts {
	size_t n;
	struct scan_start s[SCAN_MAX_STARTS];
};

static void add_start(struct scan_starts *l, uint64_t start, uint64_t label_bytes, uint64_t end)
{
	if (start >= end)
		return;
	for (size_t i = 0; i < l->n; i++) {
		if (l->s[i].start_bytes != start)
			continue;
		if (!l->s[i].label_bytes)
			l->s[i].label_bytes = label_bytes;
		return;
	}
	if (l->n < SCAN_MAX_STARTS)
		l->s[l->n++] = (struct scan_start){ start, label_bytes };
}

static unsigned ctx_sector_bytes(const struct sp_ctx *ctx)
{
	unsigned s = ctx->facts ? ctx->facts->logical_sector_bytes :
				  ctx->plan->device.logical_sector_bytes;

	return s >= 512 ? s : 512;
}

static void collect_starts(const struct sp_ctx *ctx, const struct sp_gpt_state *g, uint64_t end,
			   struct scan_starts *l)
{
	const struct sp_plan *plan = ctx->plan;
	uint64_t sector = ctx_sector_bytes(ctx);

	add_start(l, 0, 0, end);
	add_start(l, plan->start_bytes, 0, end);
	for (size_t i = 0; i < g->n_parts; i++)
		if (g->parts[i].last_lba >= g->parts[i].first_lba)
			add_start(l, g->parts[i].first_lba * sector,
				  (g->parts[i].last_lba - g->parts[i].first_lba + 1) * sector, end);
	for (unsigned i = 0; g->have_mbr && !g->mbr_protective && i < 4; i++)
		if (g->mbr.part[i].type && g->mbr.part[i].start_lba)
			add_start(l, (uint64_t)g->mbr.part[i].start_lba * sector,
				  (uint64_t)g->mbr.part[i].n_sectors * sector, end);
	add_start(l, 63 * 512ULL, 0, end);
	add_start(l, 63 * sector, 0, end);
	add_start(l, 2048 * sector, 0, end);
	for (uint64_t mib = 1; mib <= SCAN_MAX_MIB_STARTS && mib * SP_MIB <= plan->start_bytes; mib++)
		add_start(l, mib * SP_MIB, 0, end);
}

static void region_hints(const struct sp_ctx *ctx, const struct scan_start *s, uint64_t disk_bytes,
			 struct sp_scan_hints *h)
{
	const struct sp_plan *plan = ctx->plan;
	uint64_t tail = (uint64_t)GPT_TAIL_SECTORS * ctx_sector_bytes(ctx), gpt_end;

	memset(h, 0, sizeof(*h));
	h->disk_bytes = disk_bytes;
	h->su_bytes = plan->stripe_width_bytes ? plan->chunk_bytes : 0;
	h->sw = plan->data_disks;
	h->agsize_start_bytes = plan->start_bytes;
	h->agsize_bytes = plan->fs == SP_FS_XFS ? (plan->xfs_agsize_bytes ? plan->xfs_agsize_bytes :
						   plan->xfs_ag.mkfs_agsize_bytes) : 0;
	if (s->label_bytes)
		h->region_bytes[h->n_regions++] = s->label_bytes;
	if (s->start_bytes == plan->start_bytes && plan->size_bytes != s->label_bytes)
		h->region_bytes[h->n_regions++] = plan->size_bytes;
	h->n_exact = h->n_regions;
	h->region_bytes[h->n_regions++] = disk_bytes - s->start_bytes;
	gpt_end = disk_bytes > tail ? disk_bytes - tail : 0;
	if (gpt_end > s->start_bytes) {
		h->region_bytes[h->n_regions++] = gpt_end - s->start_bytes;
		if (gpt_end / SP_MIB * SP_MIB > s->start_bytes)
			h->region_bytes[h->n_regions++] = gpt_end / SP_MIB * SP_MIB - s->start_bytes;
	}
}

/* The disk, read-only: the run's identified descriptor when there is one. */
static int scan_fd(const struct sp_ctx *ctx, bool *ret_owned, uint64_t *ret_bytes)
{
	uint64_t bytes = 0;
	int fd;

	*ret_owned = !(ctx->disk_rdev && ctx->disk_fd >= 0);
	fd = *ret_owned ? open(sp_ctx_disk_path(ctx), O_RDONLY | O_CLOEXEC | O_NONBLOCK) :
			  ctx->disk_fd;
	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, &bytes) < 0) {
		int e = errno;

		if (*ret_owned)
			close(fd);
		return -e;
	}
	*ret_bytes = bytes;
	return fd;
}

int sp_step_read_gpt(const struct sp_ctx *ctx, struct sp_gpt_state *ret)
{
	uint64_t bytes = 0;
	bool owned;
	int fd = scan_fd(ctx, &owned, &bytes), r;

	if (fd < 0)
		return fd;
	r = sp_gpt_read_disk(fd, ctx_sector_bytes(ctx), bytes, ret);
	if (owned)
		close(fd);
	return r;
}

/* The node a repair tool takes for a filesystem at start of the disk. */
static void repair_node(const struct sp_ctx *ctx, int fd, uint64_t start, char *buf, size_t len)
{
	struct sp_sysfs_partitions *list = calloc(1, sizeof(*list));
	const char *disk = sp_ctx_disk_path(ctx);
	struct stat st;

	if (start == 0) {
		snprintf(buf, len, "%s", disk);
		goto out;
	}
	snprintf(buf, len, "a device starting at byte %" PRIu64 " of %s (losetup --offset %" PRIu64
		 " --find --show %s)", start, disk, start, disk);
	if (!list || fstat(fd, &st) < 0 ||
	    sp_sysfs_partitions(ctx->sysfs, major(st.st_rdev), minor(st.st_rdev), list) < 0)
		goto out;
	for (size_t i = 0; i < list->n; i++) {
		if (list->p[i].start_512 * 512 != start)
			continue;
		snprintf(buf, len, "/dev/%s", list->p[i].name);
		for (char *c = buf; *c; c++)
			if (*c == '!')
				*c = '/';
		break;
	}
out:
	free(list);
}

int sp_step_scan_filesystems(const struct sp_ctx *ctx, uint64_t end_bytes, struct sp_fs_trace *ret,
			     char *node, size_t node_len)
{
	struct sp_gpt_state *g = calloc(1, sizeof(*g));
	struct scan_starts *l = calloc(1, sizeof(*l));
	struct sp_scan_hints h;
	struct sp_fs_trace t;
	uint64_t bytes = 0;
	bool owned = false;
	int fd = -1, r = -ENOMEM, found = 0;

	if (!g || !l)
		goto out;
	fd = scan_fd(ctx, &owned, &bytes);
	if (fd < 0) {
		r = fd;
		goto out;
	}
	r = sp_gpt_read_disk(fd, ctx_sector_bytes(ctx), bytes, g);
	if (r < 0)
		goto out;
	collect_starts(ctx, g, end_bytes < bytes ? end_bytes : bytes, l);
	for (size_t i = 0; i < l->n && !found; i++) {
		region_hints(ctx, &l->s[i], bytes, &h);
		r = sp_scan_fs_at(fd, l->s[i].start_bytes, &h, &t);
		if (r < 0)
			goto out;
		if (t.verdict != SP_ONDISK_INTACT && t.verdict != SP_ONDISK_DAMAGED)
			continue;
		found = 1;
		*ret = t;
		repair_node(ctx, fd, t.start_bytes, node, node_len);
	}
	r = found;
out:
	if (owned && fd >= 0)
		close(fd);
	free(l);
	free(g);
	return r;
}

void sp_step_describe_trace(const struct sp_fs_trace *t, const char *node, char *buf, size_t len)
{
	char at[32], uuid[40];

	sp_format_size(t->start_bytes, SP_SIZE_HUMAN, at, sizeof(at));
	sp_uuid_format(t->uuid, uuid, sizeof(uuid));
	if (t->verdict == SP_ONDISK_INTACT)
		snprintf(buf, len, "%s %s filesystem (UUID %s) at %s", article(t->type), t->type,
			 uuid, at);
	else
		snprintf(buf, len, "a damaged %s filesystem at %s (%s); repair: %s %s", t->type, at,
			 t->what, t->repair, node);
}
