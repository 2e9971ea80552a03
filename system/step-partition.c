/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The partition step: one partition, number 1, exactly where the plan
 * says, on a fresh gpt or msdos label.  The only file that includes
 * libparted.
 *
 * libparted asks questions through exceptions ("Fix/Ignore?").  While
 * this step runs, a handler answers Cancel (or No) and keeps the text,
 * so nothing is ever fixed, ignored or agreed to on the user's behalf;
 * during apply any exception at all is a failure quoting that text.
 *
 * The kernel's view is read from sysfs, where partition offsets and
 * sizes are always in 512-byte units, even on 4Kn disks.  Partitions
 * are found by number under /sys/dev/block/MAJ:MIN of the disk, so no
 * naming rule (sdb1, loop3p1, cciss!c0d0p1) is guessed here.
 *
 * libparted only writes the label (ped_disk_commit_to_dev); we tell the
 * kernel ourselves with BLKPG, as systemd-repart does.  Distributions
 * patch ped_disk_commit_to_os to run `udevadm settle` (through a shell,
 * without a timeout) before and after its own BLKPG calls, and the
 * pipeline holds the whole-disk flock while we run: udev >= 251 holds
 * back every event for a locked disk, so that settle waits for us while
 * we wait for it, until its 120 s timeout (go-debos/debos#344).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <linux/blkpg.h>
#include <linux/fs.h>

#include <blkid.h>

#include "parted.h"
#include "steps.h"
#include "sysfs.h"

#define STEP "partition"
#define PARTITION_NUMBER 1
#define KERNEL_SECTOR_BYTES 512U
#define WAIT_DEFAULT_MS 10000U
#define WAIT_POLL_MS 50U
/* A partition someone merely has open (not mounted: the pipeline refused
 * that) is busy only while they read it; libparted waited this long too. */
#define BUSY_RETRY_MS 1000U
#define BUSY_POLL_MS 10U

/* ----------------------------------------------------------- exceptions */

/* What libparted said during one call into it. */
struct ped_said {
	PedExceptionHandler *previous_handler;
	struct ped_said *previous;
	unsigned count;
	char text[SP_MSG_MAX];
};

/*
 * libparted's handler takes no user pointer, so the collector of the
 * call in progress is reachable only through this.  libparted keeps its
 * handler in a global too: none of this is thread-safe, by its design.
 */
static struct ped_said *ped_listening;

static void said_append(struct ped_said *said, const char *message)
{
	size_t n = strlen(said->text);
	const char *s;

	if (n && n + 3 < sizeof(said->text)) {
		memcpy(said->text + n, " / ", 4);
		n += 3;
	}
	/* one line: libparted wraps its messages with newlines */
	for (s = message; *s && n + 1 < sizeof(said->text); s++)
		said->text[n++] = *s == '\n' || *s == '\t' ? ' ' : *s;
	said->text[n] = '\0';
}

static PedExceptionOption refuse_to_answer(PedException *ex)
{
	if (ped_listening) {
		ped_listening->count++;
		said_append(ped_listening, ex->message ? ex->message : "(no message)");
	}
	if (ex->options & PED_EXCEPTION_CANCEL)
		return PED_EXCEPTION_CANCEL;
	if (ex->options & PED_EXCEPTION_NO)
		return PED_EXCEPTION_NO;
	return PED_EXCEPTION_UNHANDLED;
}

static void listen_begin(struct ped_said *said)
{
	memset(said, 0, sizeof(*said));
	said->previous = ped_listening;
	said->previous_handler = ped_exception_get_handler();
	ped_listening = said;
	ped_exception_set_handler(refuse_to_answer);
}

static void listen_end(struct ped_said *said)
{
	ped_exception_set_handler(said->previous_handler);
	ped_listening = said->previous;
}

static const char *said_or(const struct ped_said *said, const char *otherwise)
{
	return said->count ? said->text : otherwise;
}

/* libparted loaded, its exceptions captured in said, path opened: 0 with
 * *ret_dev (parted_close() ends it), or -errno with res failed. */
static int parted_open(const char *path, PedDevice **ret_dev, struct ped_said *said,
		       struct sp_step_result *res)
{
	const char *no_parted = sp_parted_load();
	PedDevice *dev;

	if (no_parted) {
		sp_step_fail(res, ELIBACC, "cannot load libparted: %s", no_parted);
		return -ELIBACC;
	}
	listen_begin(said);
	dev = ped_device_get(path);
	if (!dev) {
		sp_step_fail(res, ENODEV, "cannot open '%s': libparted said: %s", path,
			     said_or(said, "no such device"));
		listen_end(said);
		return -ENODEV;
	}
	*ret_dev = dev;
	return 0;
}

static void parted_close(PedDisk *disk, PedDevice *dev, struct ped_said *said)
{
	if (disk)
		ped_disk_destroy(disk);
	ped_device_destroy(dev);
	listen_end(said);
}

/* ------------------------------------------------------ kernel (sysfs) */

struct kernel_part {
	bool found;                  /* the partition asked for is there: p */
	struct sp_sysfs_partition p;
	size_t n_partitions;         /* all partitions the kernel has on the disk */
};

/* The kernel's partition `number` of the disk with this device number. */
static int kernel_partition_of(const struct sp_ctx *ctx, dev_t disk, unsigned number,
			       struct kernel_part *ret)
{
	struct sp_sysfs_partitions *list = calloc(1, sizeof(*list));
	struct kernel_part kp = { 0 };
	int r;

	if (!list)
		return -ENOMEM;
	r = sp_sysfs_partitions(ctx->sysfs, major(disk), minor(disk), list);
	for (size_t i = 0; r == 0 && i < list->n && !kp.found; i++) {
		if (list->p[i].number != number)
			continue;
		kp.found = true;
		kp.p = list->p[i];
	}
	kp.n_partitions = list->n;
	free(list);
	if (r == 0)
		*ret = kp;
	return r;
}

/* The same, for the disk at disk_path. */
static int kernel_partition(const struct sp_ctx *ctx, const char *disk_path, unsigned number,
			    struct kernel_part *ret)
{
	struct stat st;

	if (stat(disk_path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	return kernel_partition_of(ctx, st.st_rdev, number, ret);
}

/* The node devtmpfs makes for a kernel name: "cciss!c0d0p1" lives at
 * /dev/cciss/c0d0p1 (sysfs cannot have '/' in a name, /dev can). */
static void node_of(const char *name, char *buf, size_t len)
{
	char *c;

	snprintf(buf, len, "/dev/%s", name);
	for (c = buf; *c; c++)
		if (*c == '!')
			*c = '/';
}

static bool node_is(const char *path, const struct kernel_part *kp)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISBLK(st.st_mode) &&
	       major(st.st_rdev) == kp->p.major && minor(st.st_rdev) == kp->p.minor;
}

/* The node of the kernel's partition kp (sp_sysfs_partition_node). */
static int partition_node(const struct sp_ctx *ctx, const struct kernel_part *kp, char *buf,
			  size_t len)
{
	return sp_sysfs_partition_node(ctx->plan->partition_path, ctx->node_dir, &kp->p, buf, len);
}

static bool kernel_matches_plan(const struct kernel_part *kp, const struct sp_plan *plan)
{
	return kp->found && kp->p.start_512 * KERNEL_SECTOR_BYTES == plan->start_bytes &&
	       kp->p.size_512 * KERNEL_SECTOR_BYTES == plan->size_bytes;
}

/* --------------------------------------------------------------- common */

/* "gpt, partition 1 at 1 MiB, 1022 MiB (1362 stripes of 768 KiB)" */
static void summarize(const struct sp_plan *plan, struct sp_step_result *res)
{
	char start[32], size[32], stripe[32];

	sp_format_size(plan->start_bytes, SP_SIZE_HUMAN, start, sizeof(start));
	sp_format_size(plan->size_bytes, SP_SIZE_HUMAN, size, sizeof(size));
	sp_format_size(plan->stripe_width_bytes, SP_SIZE_HUMAN, stripe, sizeof(stripe));
	if (plan->table == SP_TABLE_NONE) {
		snprintf(res->summary, sizeof(res->summary),
			 "no partition table: the filesystem on the whole device, %s", size);
		return;
	}
	if (!plan->stripe_width_bytes) {
		snprintf(res->summary, sizeof(res->summary), "%s, partition %d at %s, %s (a mirror: no stripe)",
			 sp_table_name(plan->table), PARTITION_NUMBER, start, size);
		return;
	}
	snprintf(res->summary, sizeof(res->summary),
		 "%s, partition %d at %s, %s (%" PRIu64 " stripes of %s)",
		 sp_table_name(plan->table), PARTITION_NUMBER, start, size,
		 plan->stripe_width_bytes ? plan->size_bytes / plan->stripe_width_bytes : 0,
		 stripe);
}

/* --------------------------------------------------------------- verify */

/*
 * verify only reads: the label (libparted) and the kernel's partitions
 * (sysfs) into a struct sp_found_partition; what they mean is judged by
 * sp_judge_partition() in the core.
 */

static void count_partitions(const PedDisk *disk, struct sp_found_partition *f)
{
	PedPartition *p;

	for (p = ped_disk_next_partition(disk, NULL); p; p = ped_disk_next_partition(disk, p)) {
		if (!ped_partition_is_active(p))
			continue; /* free space and label metadata */
		/* an extended partition's logical ones are partitions too */
		f->n_partitions++;
		if (p->num != PARTITION_NUMBER || f->has_first)
			continue;
		f->has_first = true;
		f->first_is_primary = p->type == PED_PARTITION_NORMAL;
		f->first_is_extended = (p->type & PED_PARTITION_EXTENDED) != 0;
		f->start_bytes = (uint64_t)p->geom.start * f->sector_bytes;
		f->size_bytes = (uint64_t)p->geom.length * f->sector_bytes;
	}
}

static void read_kernel(const struct sp_ctx *ctx, struct sp_found_partition *f)
{
	struct kernel_part kp = { 0 };
	int r = kernel_partition(ctx, sp_ctx_disk_path(ctx), PARTITION_NUMBER, &kp);

	if (r < 0) {
		f->kernel_unreadable = true;
		snprintf(f->kernel_error, sizeof(f->kernel_error), "%s", strerror(-r));
		return;
	}
	f->kernel_n_partitions = (unsigned)kp.n_partitions;
	if (!kp.found)
		return;
	f->kernel_has_first = true;
	f->kernel_start_bytes = kp.p.start_512 * KERNEL_SECTOR_BYTES;
	f->kernel_size_bytes = kp.p.size_512 * KERNEL_SECTOR_BYTES;
	snprintf(f->kernel_name, sizeof(f->kernel_name), "%s", kp.p.name);
	f->kernel_major = kp.p.major;
	f->kernel_minor = kp.p.minor;
	f->node_matches = node_is(sp_ctx_partition_path(ctx), &kp);
}

/*
 * A GPT with a damaged or missing copy, read by the on-disk reader: the
 * label is the intact copy's (libparted would only ask whether to fix it,
 * and is never answered Fix on the user's behalf).  false when both
 * copies are intact or there is no GPT: then libparted reads it.
 */
static bool read_gpt_copies(const struct sp_ctx *ctx, struct sp_found_partition *f)
{
	struct sp_gpt_state *g = calloc(1, sizeof(*g));
	unsigned sector = ctx->facts ? ctx->facts->logical_sector_bytes :
				       ctx->plan->device.logical_sector_bytes;
	bool damaged = false;

	if (!g || sp_step_read_gpt(ctx, g) < 0)
		goto out;
	if (g->primary == SP_ONDISK_INTACT && g->backup == SP_ONDISK_INTACT) {
		f->gpt_backup_lba = g->backup_lba;
		f->disk_last_lba = g->last_lba;
	}
	if (g->primary != SP_ONDISK_DAMAGED && g->backup != SP_ONDISK_DAMAGED)
		goto out;
	damaged = true;
	sp_gpt_describe_damage(g, f->gpt_damage, sizeof(f->gpt_damage));
	f->gpt_both_damaged = !sp_gpt_one_copy_damaged(g);
	snprintf(f->label, sizeof(f->label), "gpt");
	f->sector_bytes = sector;
	f->disk_bytes = ctx->facts ? ctx->facts->size_bytes : ctx->plan->device.size_bytes;
	if (f->gpt_both_damaged)
		goto out;
	for (size_t i = 0; i < g->n_parts; i++) {
		f->n_partitions++;
		if (g->parts[i].number != PARTITION_NUMBER)
			continue;
		f->has_first = f->first_is_primary = true;
		f->start_bytes = g->parts[i].first_lba * sector;
		f->size_bytes = (g->parts[i].last_lba - g->parts[i].first_lba + 1) * sector;
	}
out:
	free(g);
	return damaged;
}

/*
 * The label as libblkid reads it, for check and scan (struct
 * sp_ctx.read_only): the
 * names libparted gives ("msdos", "loop" for a filesystem on the whole
 * disk), the partitions in the same order; libblkid counts in 512-byte
 * sectors whatever the disk's.
 */
static int read_label_blkid(const struct sp_ctx *ctx, struct sp_found_partition *f,
			    struct sp_step_result *res)
{
	const char *path = sp_ctx_disk_path(ctx);
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *pttype = NULL, *type = NULL;
	blkid_partlist pl;
	int r, n;

	if (!pr)
		return sp_step_fail(res, errno ? errno : EIO, "cannot open '%s': %s", path,
				    strerror(errno ? errno : EIO));
	snprintf(f->reader, sizeof(f->reader), "libblkid");
	f->sector_bytes = blkid_probe_get_sectorsize(pr);
	f->disk_bytes = (uint64_t)blkid_probe_get_size(pr);
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	r = blkid_do_safeprobe(pr);
	if (r == -1) {
		blkid_free_probe(pr);
		return sp_step_fail(res, EIO, "cannot read '%s': libblkid failed", path);
	}
	if (r == -2) {
		/* two signatures that exclude each other: which one the kernel
		 * and the tools believe is not for check to guess */
		f->label_unreadable = true;
		snprintf(f->said, sizeof(f->said),
			 "more than one signature claims the start of the disk (wipefs %s lists them)",
			 path);
		blkid_free_probe(pr);
		return 0;
	}
	if (r == 0 && blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL) == 0 && pttype)
		snprintf(f->label, sizeof(f->label), "%s", strcmp(pttype, "dos") ? pttype : "msdos");
	else if (r == 0 && blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 && type)
		snprintf(f->label, sizeof(f->label), "loop");
	pl = f->label[0] && strcmp(f->label, "loop") ? blkid_probe_get_partitions(pr) : NULL;
	n = pl ? blkid_partlist_numof_partitions(pl) : 0;
	for (int i = 0; i < n; i++) {
		blkid_partition p = blkid_partlist_get_partition(pl, i);

		if (!p)
			continue;
		f->n_partitions++;
		if (blkid_partition_get_partno(p) != PARTITION_NUMBER || f->has_first)
			continue;
		f->has_first = true;
		f->first_is_extended = blkid_partition_is_extended(p) != 0;
		f->first_is_primary = !f->first_is_extended && !blkid_partition_is_logical(p);
		f->start_bytes = (uint64_t)blkid_partition_get_start(p) * 512;
		f->size_bytes = (uint64_t)blkid_partition_get_size(p) * 512;
	}
	blkid_free_probe(pr);
	return 0;
}

/* Reads the label into f; returns <0 (res failed) only when it cannot look. */
static int read_label(const struct sp_ctx *ctx, struct sp_found_partition *f,
		      struct sp_step_result *res)
{
	const char *path = sp_ctx_disk_path(ctx);
	PedDevice *dev = NULL;
	PedDisk *disk = NULL;
	const PedDiskType *type;
	struct ped_said said;
	int r;

	if (read_gpt_copies(ctx, f))
		return 0;
	if (ctx->read_only)
		return read_label_blkid(ctx, f, res);
	r = parted_open(path, &dev, &said, res);

	if (r < 0)
		return r;
	snprintf(f->reader, sizeof(f->reader), "libparted");
	f->sector_bytes = (unsigned)dev->sector_size;
	f->disk_bytes = (uint64_t)dev->length * (uint64_t)dev->sector_size;
	type = ped_disk_probe(dev);
	if (!type && said.count) {
		r = sp_step_fail(res, EIO, "cannot read '%s': libparted said: %s", path, said.text);
		goto out;
	}
	if (!type)
		goto out; /* no label */
	snprintf(f->label, sizeof(f->label), "%s", type->name);
	if (!strcmp(type->name, "loop"))
		goto out; /* libparted's name for a filesystem on the whole disk */
	disk = ped_disk_new(dev);
	if (!disk) {
		f->label_unreadable = true;
		snprintf(f->said, sizeof(f->said), "%s", said_or(&said, "nothing"));
		goto out;
	}
	count_partitions(disk, f);
	if (said.count)
		snprintf(f->said, sizeof(f->said), "%s", said.text);
out:
	parted_close(disk, dev, &said);
	return r;
}

static int partition_verify(struct sp_ctx *ctx, struct sp_step_result *res)
{
	struct sp_found_partition *f;
	int r;

	if (!ctx || !ctx->plan)
		return sp_step_fail(res, EINVAL, "no plan to verify against");
	f = &ctx->found_partition;
	memset(f, 0, sizeof(*f));
	snprintf(f->disk, sizeof(f->disk), "%s", sp_ctx_disk_path(ctx));
	snprintf(f->partition, sizeof(f->partition), "%s", sp_ctx_partition_path(ctx));
	summarize(ctx->plan, res);
	r = read_label(ctx, f, res);
	if (r < 0)
		return r;
	if (f->label[0] && strcmp(f->label, "loop") && !f->label_unreadable &&
	    !f->gpt_both_damaged)
		read_kernel(ctx, f);
	ctx->have_found_partition = true;
	sp_judge_partition(ctx->plan, f, &res->findings);
	sp_step_take_findings(res);
	return 0;
}

/* ---------------------------------------------------------------- apply */

/* "gpt, partition 1 at 1 MiB + 2 GiB": a label as the plan or the
 * verify saw it, for the label action. */
static void describe_label(const char *table, unsigned n_partitions, bool has_first,
			   uint64_t start_bytes, uint64_t size_bytes, char *buf, size_t len)
{
	char start[32], size[32];

	if (!table[0] || !strcmp(table, "loop")) {
		snprintf(buf, len, "none");
		return;
	}
	if (!has_first) {
		snprintf(buf, len, "%s, %u partition%s", table, n_partitions,
			 n_partitions == 1 ? "" : "s");
		return;
	}
	sp_format_size(start_bytes, SP_SIZE_HUMAN, start, sizeof(start));
	sp_format_size(size_bytes, SP_SIZE_HUMAN, size, sizeof(size));
	snprintf(buf, len, "%s, %u partition%s, partition 1 at %s + %s", table, n_partitions,
		 n_partitions == 1 ? "" : "s", start, size);
}

/* The label action, old -> new, as the verify read the disk: recorded
 * right before the label is written or dropped (a dry run: where it
 * would be). */
static void label_action(const struct sp_ctx *ctx, struct sp_step_result *res)
{
	const struct sp_found_partition *f = &ctx->found_partition;
	const struct sp_plan *plan = ctx->plan;
	char before[SP_ACTION_VALUE_MAX] = "unknown", after[SP_ACTION_VALUE_MAX];

	if (ctx->have_found_partition && f->label_unreadable)
		snprintf(before, sizeof(before), "unreadable");
	else if (ctx->have_found_partition)
		describe_label(f->label, f->n_partitions, f->has_first, f->start_bytes,
			       f->size_bytes, before, sizeof(before));
	if (plan->table == SP_TABLE_NONE)
		snprintf(after, sizeof(after), "none");
	else
		describe_label(sp_table_name(plan->table), 1, true, plan->start_bytes,
			       plan->size_bytes, after, sizeof(after));
	sp_step_action(res, SP_ACTION_LABEL, sp_ctx_disk_path(ctx), before, after);
}

static int dry_run(const struct sp_ctx *ctx, struct sp_step_result *res)
{
	const struct sp_plan *plan = ctx->plan;
	const char *disk = sp_ctx_disk_path(ctx);
	uint64_t sector = plan->device.logical_sector_bytes ? plan->device.logical_sector_bytes : 1;
	unsigned wait_ms = ctx->partition_wait_ms ? ctx->partition_wait_ms : WAIT_DEFAULT_MS;
	char start[32], size[32], stripe[32];
	int r;

	sp_format_size(plan->start_bytes, SP_SIZE_HUMAN, start, sizeof(start));
	sp_format_size(plan->size_bytes, SP_SIZE_HUMAN, size, sizeof(size));
	sp_format_size(plan->stripe_width_bytes, SP_SIZE_HUMAN, stripe, sizeof(stripe));
	r = sp_step_wipe_signatures(ctx, disk, ctx->disk_rdev, res);
	if (r < 0)
		return r;
	label_action(ctx, res);
	if (plan->table == SP_TABLE_NONE) {
		sp_step_line(res, "tell the kernel to drop every partition of %s: the filesystem "
			     "goes on the whole device", disk);
		summarize(plan, res);
		res->status = SP_STEP_DRY_RUN;
		return 0;
	}
	sp_step_line(res, "write a new %s label on %s (replacing whatever is there)",
		     sp_table_name(plan->table), disk);
	sp_step_line(res, "create partition %d: sectors %" PRIu64 "..%" PRIu64 " of %" PRIu64
		     " B (%s + %s), aligned to the %s stripe width", PARTITION_NUMBER,
		     plan->start_bytes / sector, (plan->start_bytes + plan->size_bytes) / sector - 1,
		     sector, start, size, stripe);
	sp_step_line(res, "tell the kernel and wait up to %.3g s for %s", wait_ms / 1000.0,
		     sp_ctx_partition_path(ctx));
	summarize(plan, res);
	res->status = SP_STEP_DRY_RUN;
	return 0;
}

/* The plan's numbers must be whole sectors of the device as it is now. */
static int check_sectors(const struct sp_plan *plan, const PedDevice *dev,
			 struct sp_step_result *res)
{
	uint64_t sector = (uint64_t)dev->sector_size;

	if (sector != plan->device.logical_sector_bytes)
		return sp_step_fail(res, EINVAL,
				    "'%s' has %" PRIu64 "-byte sectors, the plan was made for %u-byte "
				    "sectors", dev->path, sector, plan->device.logical_sector_bytes);
	if (!plan->size_bytes || plan->start_bytes % sector || plan->size_bytes % sector)
		return sp_step_fail(res, EINVAL,
				    "the plan's partition (%" PRIu64 " B at %" PRIu64 " B) is not whole "
				    "%" PRIu64 "-byte sectors of '%s'", plan->size_bytes,
				    plan->start_bytes, sector, dev->path);
	return 0;
}

/* Partition 1 exactly at the plan's sectors: an exact constraint, so
 * libparted may not "improve" the geometry. */
static int add_partition(const struct sp_plan *plan, PedDisk *disk, const struct ped_said *said,
			 struct sp_step_result *res)
{
	PedSector sector = disk->dev->sector_size;
	PedSector start = (PedSector)(plan->start_bytes / (uint64_t)sector);
	PedSector end = (PedSector)((plan->start_bytes + plan->size_bytes) / (uint64_t)sector) - 1;
	PedConstraint *exact = NULL;
	PedPartition *part;
	int ok = 0;

	part = ped_partition_new(disk, PED_PARTITION_NORMAL, NULL, start, end);
	if (part)
		exact = ped_constraint_exact(&part->geom);
	if (exact)
		ok = ped_disk_add_partition(disk, part, exact);
	ped_constraint_destroy(exact);
	if (!ok) {
		if (part)
			ped_partition_destroy(part);
		return sp_step_fail(res, EINVAL,
				    "cannot place partition %d at sectors %lld..%lld on '%s': "
				    "libparted said: %s", PARTITION_NUMBER, (long long)start,
				    (long long)end, disk->dev->path, said_or(said, "no reason given"));
	}
	if (part->num != PARTITION_NUMBER)
		return sp_step_fail(res, EINVAL,
				    "libparted numbered the new partition on '%s' %d, not %d",
				    disk->dev->path, part->num, PARTITION_NUMBER);
	return 0;
}

/*
 * The label as libparted built it in memory, counted as verify counts the
 * one on the disk: nothing is written unless it is already exactly the
 * plan's (one primary partition 1 at the plan's start and size).
 */
static bool found_is_the_plans(const struct sp_plan *plan, const struct sp_found_partition *f)
{
	return f->n_partitions == 1 && f->has_first && f->first_is_primary &&
	       f->start_bytes == plan->start_bytes && f->size_bytes == plan->size_bytes;
}

static int check_in_memory(const struct sp_plan *plan, const PedDevice *dev, const PedDisk *disk,
			   struct sp_step_result *res)
{
	struct sp_found_partition *f = calloc(1, sizeof(*f));
	int r = 0;

	if (!f)
		return sp_step_fail(res, ENOMEM, "out of memory");
	f->sector_bytes = (unsigned)dev->sector_size;
	count_partitions(disk, f);
	if (!found_is_the_plans(plan, f))
		r = sp_step_fail(res, EINVAL,
				 "not writing the %s label on '%s': the label built in memory has %u "
				 "partition(s), partition %d at %" PRIu64 " B, %" PRIu64 " B long; the "
				 "plan says one, at %" PRIu64 " B, %" PRIu64 " B long",
				 sp_table_name(plan->table), dev->path, f->n_partitions,
				 PARTITION_NUMBER, f->start_bytes, f->size_bytes, plan->start_bytes,
				 plan->size_bytes);
	free(f);
	return r;
}

/* --------------------------------------------------- telling the kernel */

static int blkpg(int fd, int op, unsigned number, uint64_t start, uint64_t length)
{
	/* bytes, not sectors: BLKPG has its own units */
	struct blkpg_partition part = {
		.start = (long long)start,
		.length = (long long)length,
		.pno = (int)number,
	};
	struct blkpg_ioctl_arg arg = {
		.op = op,
		.datalen = sizeof(part),
		.data = &part,
	};

	return ioctl(fd, BLKPG, &arg) < 0 ? -errno : 0;
}

/* Drivers without partitions (GENHD_FL_NO_PART) say EINVAL; ENOTTY is what
 * an ioctl nobody handles says. */
static bool blkpg_unsupported(int r)
{
	return r == -EINVAL || r == -ENOTTY;
}

static int blkpg_del(int fd, unsigned number, double deadline)
{
	int r;

	for (;;) {
		r = blkpg(fd, BLKPG_DEL_PARTITION, number, 0, 0);
		if (r == -ENXIO)
			return 0; /* gone since we listed it */
		if (r != -EBUSY || sp_now_seconds() >= deadline)
			return r;
		usleep(BUSY_POLL_MS * 1000);
	}
}

static int reread(int fd)
{
	double deadline = sp_now_seconds() + BUSY_RETRY_MS / 1000.0;

	for (;;) {
		if (ioctl(fd, BLKRRPART) == 0)
			return 0;
		if (errno != EBUSY || sp_now_seconds() >= deadline)
			return -errno;
		usleep(BUSY_POLL_MS * 1000);
	}
}

/* Appends ", item" while it fits, then one ", ..." and nothing more. */
static void list_append(char *buf, size_t len, const char *item)
{
	size_t n = strlen(buf), need = strlen(item) + (n ? 2 : 0);

	if (n >= 5 && !strcmp(buf + n - 5, ", ..."))
		return;
	if (n + need + 5 < len)
		snprintf(buf + n, len - n, "%s%s", n ? ", " : "", item);
	else if (n + 5 < len)
		snprintf(buf + n, len - n, ", ...");
}

/* The plan's partition 1, as BLKPG_ADD_PARTITION will have it. */
static void told_line(const struct sp_plan *plan, const char *path, const char *removed,
		      size_t n_removed, struct sp_step_result *res)
{
	char start[32], size[32];

	sp_format_size(plan->start_bytes, SP_SIZE_HUMAN, start, sizeof(start));
	sp_format_size(plan->size_bytes, SP_SIZE_HUMAN, size, sizeof(size));
	if (n_removed)
		sp_step_line(res, "told the kernel with BLKPG: removed its partition%s %s, added "
			     "partition %d at %s (%" PRIu64 " B), %s long",
			     n_removed == 1 ? "" : "s", removed, PARTITION_NUMBER, start,
			     plan->start_bytes, size);
	else
		sp_step_line(res, "told the kernel with BLKPG: it had no partitions on %s, added "
			     "partition %d at %s (%" PRIu64 " B), %s long", path, PARTITION_NUMBER,
			     start, plan->start_bytes, size);
}

/*
 * After the label is on the disk: the kernel forgets every partition it
 * has on this disk and learns partition 1 exactly as the plan has it.
 * Nothing here waits for udev, so the pipeline's lock cannot deadlock
 * us.  Not O_EXCL: the pipeline made sure nobody holds the disk, and its
 * flock is on an fd of its own, which ours does not disturb.
 */
static int tell_kernel(const struct sp_ctx *ctx, const char *done, struct sp_step_result *res)
{
	const struct sp_plan *plan = ctx->plan;
	const char *path = sp_ctx_disk_path(ctx);
	double deadline = sp_now_seconds() + BUSY_RETRY_MS / 1000.0;
	char removed[SP_MSG_MAX / 2] = "", busy[SP_MSG_MAX / 2] = "", item[SP_PATH_MAX];
	struct sp_sysfs_partitions *list = NULL;
	int fd, r = 0, unsupported = 0;
	size_t i, n_busy = 0, n_removed = 0;
	struct stat st;

	fd = sp_ctx_open_checked(ctx, path, O_RDWR, ctx->disk_rdev, res);
	if (fd < 0) {
		/* keep what was said, and say what is on the disk now */
		char said[SP_MSG_MAX];

		snprintf(said, sizeof(said), "%s", res->error.message);
		return sp_step_fail(res, -fd, "%s '%s' but cannot "
				    "tell the kernel: %s", done, path, said);
	}
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode)) {
		r = sp_step_fail(res, ENOTBLK, "%s '%s' but cannot "
				 "tell the kernel: not a block device", done, path);
		goto out;
	}
	list = calloc(1, sizeof(*list));
	if (!list) {
		r = sp_step_fail(res, ENOMEM, "out of memory");
		goto out;
	}
	/* the disk behind our fd, not whatever the path names by now */
	r = sp_sysfs_partitions(ctx->sysfs, major(st.st_rdev), minor(st.st_rdev), list);
	if (r < 0) {
		r = sp_step_fail(res, -r, "%s '%s' but cannot read "
				 "the kernel's partitions of it: %s", done, path, strerror(-r));
		goto out;
	}
	for (i = 0; i < list->n && !unsupported; i++) {
		node_of(list->p[i].name, item, sizeof(item));
		r = blkpg_del(fd, list->p[i].number, deadline);
		if (blkpg_unsupported(r)) {
			unsupported = r;
		} else if (r == -EBUSY) {
			/* keep going: name every busy one, drop the others */
			size_t n = strlen(item);

			snprintf(item + n, sizeof(item) - n, " (partition %u)", list->p[i].number);
			list_append(busy, sizeof(busy), item);
			n_busy++;
		} else if (r < 0) {
			r = sp_step_fail(res, -r, "%s '%s' but the "
					 "kernel would not remove its partition %u (%s): %s; run "
					 "partprobe %s", done, path, list->p[i].number, item,
					 strerror(-r), path);
			goto out;
		} else {
			list_append(removed, sizeof(removed), list->p[i].name);
			n_removed++;
		}
	}
	if (n_busy) {
		r = sp_step_fail(res, EBUSY, "%s '%s' but cannot "
				 "tell the kernel: %s %s in use, so the kernel keeps the old "
				 "partition%s (%s); stop what uses %s, then run partprobe %s",
				 done, path, busy, n_busy == 1 ? "is" : "are",
				 n_busy == 1 ? "" : "s", strerror(EBUSY),
				 n_busy == 1 ? "it" : "them", path);
		goto out;
	}
	if (!unsupported && plan->table == SP_TABLE_NONE) {
		if (n_removed)
			sp_step_line(res, "told the kernel with BLKPG: removed its partition%s %s",
				     n_removed == 1 ? "" : "s", removed);
	} else if (!unsupported) {
		r = blkpg(fd, BLKPG_ADD_PARTITION, PARTITION_NUMBER, plan->start_bytes,
			  plan->size_bytes);
		if (blkpg_unsupported(r)) {
			unsupported = r;
		} else if (r < 0) {
			r = sp_step_fail(res, -r, "%s '%s' but "
					 "the kernel would not add partition %d at %" PRIu64
					 " B, %" PRIu64 " B long: %s; run partprobe %s", done,
					 path, PARTITION_NUMBER, plan->start_bytes,
					 plan->size_bytes, strerror(-r), path);
			goto out;
		} else {
			told_line(plan, path, removed, n_removed, res);
		}
	}
	if (unsupported) {
		/* the label it reads is the one just written; wait_for_node
		 * then checks the kernel took the plan's geometry from it */
		r = reread(fd);
		if (r < 0) {
			r = sp_step_fail(res, -r, "%s '%s' but "
					 "cannot tell the kernel: BLKPG is not supported there "
					 "(%s) and it would not re-read the label (BLKRRPART): "
					 "%s%s", done, path, strerror(-unsupported), strerror(-r),
					 r == -EBUSY ? "; is one of its partitions in use?" : "");
			goto out;
		}
		sp_step_line(res, "BLKPG is not supported on %s (%s): asked the kernel to re-read "
			     "the whole label instead (BLKRRPART)", path, strerror(-unsupported));
	}
	r = 0;
out:
	free(list);
	close(fd);
	return r;
}

/* Writes the label and tells the kernel; any exception is a failure. */
static int write_label(const struct sp_ctx *ctx, struct sp_step_result *res)
{
	const struct sp_plan *plan = ctx->plan;
	const char *path = sp_ctx_disk_path(ctx), *table = sp_table_name(plan->table);
	PedDevice *dev = NULL;
	PedDisk *disk = NULL;
	struct ped_said said;
	char done[64];
	int r = sp_ctx_check_disk(ctx, res);

	if (r < 0)
		return r;
	r = parted_open(path, &dev, &said, res);
	if (r < 0)
		return r;
	r = check_sectors(plan, dev, res);
	if (r < 0)
		goto out;
	disk = ped_disk_new_fresh(dev, ped_disk_type_get(table));
	if (!disk) {
		r = sp_step_fail(res, EIO, "cannot make a %s label for '%s': "
				 "libparted said: %s", table, path, said_or(&said, "nothing"));
		goto out;
	}
	r = add_partition(plan, disk, &said, res);
	if (r == 0)
		r = check_in_memory(plan, dev, disk, res);
	if (r < 0)
		goto out;
	if (said.count) {
		r = sp_step_fail(res, EIO, "not writing the %s label on '%s': "
				 "libparted said: %s", table, path, said.text);
		goto out;
	}
	/* Only now, with the new label built and checked in memory: libparted
	 * keeps what it does not own in sector 0 (msdos boot code, where an
	 * old xfs superblock starts) and never looks at an old backup GPT. */
	r = sp_step_wipe_signatures(ctx, path, ctx->disk_rdev, res);
	if (r == 0)
		r = sp_ctx_check_disk(ctx, res);
	if (r < 0)
		goto out;
	label_action(ctx, res);
	if (!ped_disk_commit_to_dev(disk) || said.count) {
		r = sp_step_fail(res, EIO, "cannot write the %s label on '%s': "
				 "libparted said: %s", table, path, said_or(&said, "nothing"));
		goto out;
	}
	sp_step_line(res, "wrote a %s label with partition %d on %s", table, PARTITION_NUMBER,
		     path);
	/* not ped_disk_commit_to_os: see the top of this file */
	snprintf(done, sizeof(done), "wrote the %s label on", table);
	r = tell_kernel(ctx, done, res);
out:
	parted_close(disk, dev, &said);
	return r;
}

/* Partition 1 of the disk the run identified (or of the path's disk). */
static int ctx_kernel_partition(const struct sp_ctx *ctx, struct kernel_part *ret)
{
	if (ctx->disk_rdev)
		return kernel_partition_of(ctx, ctx->disk_rdev, PARTITION_NUMBER, ret);
	return kernel_partition(ctx, sp_ctx_disk_path(ctx), PARTITION_NUMBER, ret);
}

/* Why the node is not there, for the failure message. */
static void wait_hint(const struct sp_ctx *ctx, const char *disk, char *buf, size_t len)
{
	struct kernel_part kp = { 0 };
	const char *name = strrchr(disk, '/') ? strrchr(disk, '/') + 1 : disk;

	if (kernel_partition(ctx, disk, PARTITION_NUMBER, &kp) < 0 || !kp.found)
		snprintf(buf, len, "the kernel has no partition %d on %s; %s", PARTITION_NUMBER,
			 disk, !strncmp(name, "loop", 4)
				       ? "is partition scanning off? losetup --partscan"
				       : "is the disk in use? run partprobe");
	else if (!kernel_matches_plan(&kp, ctx->plan))
		snprintf(buf, len, "the kernel still has partition %d at sector %" PRIu64
			 " (512-byte units), %" PRIu64 " sectors; run partprobe %s",
			 PARTITION_NUMBER, kp.p.start_512, kp.p.size_512, disk);
	else
		snprintf(buf, len, "the kernel made %s (%u:%u) but no node appeared; is /dev a "
			 "devtmpfs, or is udev running?", kp.p.name, kp.p.major, kp.p.minor);
}

/*
 * devtmpfs (or udev) makes the node after the kernel adds the partition.
 * The node must be the kernel's partition 1 of this disk, with the
 * plan's geometry: anything else, and we stop rather than let mkfs near
 * the wrong device.
 */
static int wait_for_node(struct sp_ctx *ctx, struct sp_step_result *res)
{
	const char *disk = sp_ctx_disk_path(ctx), *part = ctx->plan->partition_path;
	unsigned wait_ms = ctx->partition_wait_ms ? ctx->partition_wait_ms : WAIT_DEFAULT_MS;
	double deadline = sp_now_seconds() + wait_ms / 1000.0;
	struct kernel_part kp = { 0 };
	char hint[SP_MSG_MAX], node[SP_PATH_MAX];

	for (;;) {
		if (ctx_kernel_partition(ctx, &kp) == 0 && kernel_matches_plan(&kp, ctx->plan) &&
		    partition_node(ctx, &kp, node, sizeof(node)) == 0) {
			snprintf(ctx->partition_path, sizeof(ctx->partition_path), "%s", node);
			return 0;
		}
		if (sp_now_seconds() >= deadline)
			break;
		usleep(WAIT_POLL_MS * 1000);
	}
	wait_hint(ctx, disk, hint, sizeof(hint));
	return sp_step_fail(res, ETIMEDOUT,
			    "partition node '%s' did not appear within %.3g s (%s)", part,
			    wait_ms / 1000.0, hint);
}

/* --table none: wipe what labels there are and make the kernel forget
 * the partitions; the filesystem step then formats the whole device. */
static int remove_table(const struct sp_ctx *ctx, struct sp_step_result *res)
{
	int r = sp_step_wipe_signatures(ctx, sp_ctx_disk_path(ctx), ctx->disk_rdev, res);

	if (r == 0)
		label_action(ctx, res);
	if (r == 0)
		r = tell_kernel(ctx, "wiped the partition table on", res);
	return r;
}

static int partition_apply(struct sp_ctx *ctx, struct sp_step_result *res)
{
	double started = sp_now_seconds();
	int r;

	r = sp_step_apply_begin(ctx, res, dry_run);
	if (r == 0 && ctx->dry_run)
		ctx->dry_run_wiped_disk = true;
	if (r <= 0)
		return r;
	if (ctx->plan->table == SP_TABLE_NONE) {
		r = remove_table(ctx, res);
	} else {
		r = write_label(ctx, res);
		if (r == 0)
			r = wait_for_node(ctx, res);
	}
	res->seconds = sp_now_seconds() - started;
	if (r < 0)
		return r;
	summarize(ctx->plan, res);
	res->status = SP_STEP_DONE;
	return 0;
}

/* ----------------------------------------------------------------- bind */

/* --table none: the filesystem goes on the locked device itself. */
static int bind_whole_device(struct sp_ctx *ctx, const char *path, struct sp_step_result *res)
{
	int fd = sp_ctx_open_checked(ctx, path, O_RDONLY, ctx->disk_rdev, res);

	if (fd < 0)
		return fd;
	if (ctx->part_rdev && ctx->part_fd >= 0)
		close(ctx->part_fd);
	ctx->part_fd = fd;
	ctx->part_rdev = ctx->disk_rdev;
	return 0;
}

void sp_step_partition_resolve(struct sp_ctx *ctx)
{
	struct kernel_part kp = { 0 };
	char node[SP_PATH_MAX];

	if (ctx->plan->table != SP_TABLE_NONE && ctx_kernel_partition(ctx, &kp) == 0 && kp.found &&
	    partition_node(ctx, &kp, node, sizeof(node)) == 0)
		snprintf(ctx->partition_path, sizeof(ctx->partition_path), "%s", node);
}

int sp_step_partition_bind(struct sp_ctx *ctx, struct sp_step_result *res)
{
	const char *part = sp_ctx_partition_path(ctx);
	struct kernel_part kp = { 0 };
	char node[SP_PATH_MAX];
	uint64_t size = 0;
	dev_t want;
	int fd, r;

	if (ctx->plan->table == SP_TABLE_NONE)
		return bind_whole_device(ctx, part, res);
	r = ctx_kernel_partition(ctx, &kp);
	if (r < 0)
		return sp_step_fail(res, -r, "cannot read the kernel's partitions of "
				    "'%s': %s", sp_ctx_disk_path(ctx), strerror(-r));
	if (!kernel_matches_plan(&kp, ctx->plan))
		return sp_step_fail(res, ENXIO, "the kernel has no partition %d on '%s' "
				    "where the plan puts it; nothing more is written",
				    PARTITION_NUMBER, sp_ctx_disk_path(ctx));
	want = makedev(kp.p.major, kp.p.minor);
	if (partition_node(ctx, &kp, node, sizeof(node)) == 0) {
		snprintf(ctx->partition_path, sizeof(ctx->partition_path), "%s", node);
		part = ctx->partition_path;
	}
	fd = sp_ctx_open_checked(ctx, part, O_RDONLY, want, res);
	if (fd < 0)
		return fd;
	if (ioctl(fd, BLKGETSIZE64, &size) < 0 || size != ctx->plan->size_bytes) {
		close(fd);
		return sp_step_fail(res, ESTALE, "'%s' has %" PRIu64 " bytes, the plan's "
				    "partition %" PRIu64 "; nothing more is written", part, size,
				    ctx->plan->size_bytes);
	}
	if (ctx->part_rdev && ctx->part_fd >= 0)
		close(ctx->part_fd);
	ctx->part_fd = fd;
	ctx->part_rdev = want;
	return 0;
}

/* --------------------------------------------------------------- exists */

/*
 * The label on the disk is exactly the plan's (its table type, one
 * primary partition at the plan's start and size, nothing libparted
 * complains about), whatever the kernel thinks: a run stopped between
 * writing the label and telling the kernel left it, and it points at
 * nothing but the plan's partition, whose range the filesystem step
 * probes on its own.
 */
static bool label_is_the_plans(struct sp_ctx *ctx)
{
	const struct sp_plan *plan = ctx->plan;
	struct sp_found_partition *f = calloc(1, sizeof(*f));
	struct sp_step_result *tmp = calloc(1, sizeof(*tmp));
	bool ours = false;

	if (f && tmp && read_label(ctx, f, tmp) == 0)
		ours = !f->label_unreadable && !f->said[0] &&
		       !strcmp(f->label, sp_table_name(plan->table)) &&
		       f->sector_bytes == plan->device.logical_sector_bytes &&
		       found_is_the_plans(plan, f);
	sp_step_result_clear(tmp);
	free(tmp);
	free(f);
	return ours;
}

/*
 * The label and what libblkid looks for from the disk's start and end: a
 * partition table (primary or, with the primary gone, the backup GPT),
 * a filesystem or RAID/LVM member on the whole disk, md 0.90/1.0
 * superblocks at the end.  The partition's own range is the filesystem
 * step's to probe.
 */
/* One copy is not there at all while the other is intact. */
static bool gpt_copy_missing(const struct sp_ctx *ctx)
{
	struct sp_gpt_state *g = calloc(1, sizeof(*g));
	bool missing = g && sp_step_read_gpt(ctx, g) == 0 && sp_gpt_one_copy_missing(g);

	free(g);
	return missing;
}

/*
 * A GPT copy that is damaged is someone's label, however intact the
 * other: refused, with the repair, even when the intact copy is exactly
 * the plan's layout.  Rewriting it then is what parted asks leave to
 * ("Fix?"), and that answer is the user's to give (sgdisk -e, sfdisk),
 * not ours: the handler never answers Fix either.  A copy that is not
 * there at all beside an intact copy that is exactly the plan's is what
 * an apply stopped between libparted's two writes leaves (kill -9, a
 * power cut): writing the plan's table again puts back the same primary
 * and adds the missing copy, so nothing is lost and the re-run converges;
 * what else sits where the copy belongs (an md 1.0 superblock) is still
 * found by the probe after this.
 */
static bool gpt_copy_refused(struct sp_ctx *ctx, char *what, size_t len)
{
	struct sp_found_partition *f = calloc(1, sizeof(*f));
	const char *disk = sp_ctx_disk_path(ctx);
	bool refused = false;

	if (f && read_gpt_copies(ctx, f)) {
		refused = f->gpt_both_damaged || !found_is_the_plans(ctx->plan, f) ||
			  f->sector_bytes != ctx->plan->device.logical_sector_bytes ||
			  !gpt_copy_missing(ctx);
		if (!refused)
			goto out;
		if (f->gpt_both_damaged)
			snprintf(what, len, "a gpt partition table whose copies are both damaged "
				 "(%s); gdisk's recovery menu or testdisk rebuild it", f->gpt_damage);
		else
			snprintf(what, len, "a gpt partition table: %s%s; repair it with sgdisk -e "
				 "%s (or sfdisk -d %s >table && sfdisk %s <table), then run apply "
				 "again", f->gpt_damage, found_is_the_plans(ctx->plan, f) ?
				 " and holds exactly the plan's partition" : "", disk, disk, disk);
	}
out:
	free(f);
	return refused;
}

static int partition_probe_existing(struct sp_ctx *ctx, char *what, size_t len)
{
	const char *disk = sp_ctx_disk_path(ctx);
	int r;

	if (gpt_copy_refused(ctx, what, len))
		return 1;
	r = sp_step_probe_range(ctx, 0, 0, what, len);

	/* describe() says "partition table" only when no superblock was found:
	 * a label alone, and if it is the plan's, the re-run may rewrite it */
	if (r > 0 && strstr(what, " partition table") && label_is_the_plans(ctx))
		return 0;
	if (r < 0) {
		/* cannot tell is not blank */
		snprintf(what, len, "unrecognised data ('%s' cannot be probed: %s)", disk,
			 strerror(-r));
		return 1;
	}
	return r;
}

const struct sp_step sp_step_partition = {
	.name = STEP,
	.verify = partition_verify,
	.apply = partition_apply,
	.probe_existing = partition_probe_existing,
};
