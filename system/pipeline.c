/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The order of things when stripeplan touches a disk:
 *
 *   1. open the device once and take the whole-disk flock on that
 *      descriptor (systemd's convention: udev keeps out);
 *   2. identify the device through the same descriptor (st_rdev, size,
 *      sector sizes, disk sequence) and refuse if it is not the one the
 *      plan saw: checked after the lock, on what we hold, so nobody can
 *      swap the medium between the check and the writes (an open loop
 *      device cannot be re-attached to another file);
 *   3. refuse if the disk or a partition is read-only or in use, as the
 *      kernel says (never overridable): the usage scan, then O_EXCL on
 *      every partition and on the disk, which stays claimed;
 *   4. verify every step: a device that already matches is left alone;
 *   5. run every remaining step's preflight: what a later step would
 *      refuse (mkfs's dry run of the plan's command, a program missing,
 *      an fstab it cannot merge, a path leaving --root) is refused now,
 *      with nothing written; a dry run stops after this and 6;
 *   6. refuse to overwrite anything not written by an already-matching
 *      step, unless --force: libblkid looks at the label, the end of the
 *      disk (backup GPT, old md superblocks) and the planned partition's
 *      whole range, whether or not a partition table still points at it;
 *   7. take what a step must hold from here until it runs (the fstab
 *      lock), then let go of the disk's claim: our own writes open it
 *      O_EXCL;
 *   8. apply the first differing step and everything after it (a step
 *      that leaves the rest as it was, the tuning or an LV's read-ahead,
 *      is followed only by those that differ until one that does not),
 *      each followed by its verify, each write to a node re-checked
 *      against the identified disk; stop at the first failure, exit 4
 *      once anything was written, and say what was left behind.
 *
 * Nothing here, or in a step, unmounts or removes what this run did not
 * make; no name decides what is ours.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <linux/fs.h>

#include "pipeline.h"
#include "dm-node.h"
#include "probe.h"

#define DEFAULT_LOCK_WAIT_MS 5000U

/*
 * The steps of a run: the partition, the tuning, the plan's layers bottom
 * up (each made on the one below), the filesystem on the top, its fstab
 * line (needs the filesystem's UUID), the LUKS2 volume's crypttab line.
 * The tuning comes before the layers because cryptsetup opens a LUKS2
 * mapping with the read-ahead of the device below it: opened after the
 * tuning, a mapping on top has the planned read_ahead_kb from apply's
 * first run, as it has at boot (udev's rule tunes the disk before
 * crypttab opens it).  The tuning needs nothing a later step makes: its
 * knobs are the device's and the md members' (a partition has no
 * queue/), its files are in the target root; and it changes nothing a
 * later step lies on (keeps_the_rest()).
 */
static void plan_steps(const struct sp_plan *plan, struct sp_ctx *ctx)
{
	ctx->n_steps = 0;
	ctx->steps[ctx->n_steps++] = &sp_step_partition;
	ctx->steps[ctx->n_steps++] = &sp_step_tuning;
	for (size_t i = 0; i < plan->n_layers && i < SP_MAX_LAYERS; i++)
		ctx->steps[ctx->n_steps++] =
			plan->layers[i] == SP_LAYER_LUKS ? &sp_step_luks : &sp_step_lvm;
	ctx->steps[ctx->n_steps++] = &sp_step_filesystem;
	ctx->steps[ctx->n_steps++] = &sp_step_fstab;
	if (sp_plan_has_layer(plan, SP_LAYER_LUKS))
		ctx->steps[ctx->n_steps++] = &sp_step_crypttab; /* needs the LUKS2 UUID */
}

/*
 * Whether step i, applied, leaves every step after it as it was: the
 * tuning (sysfs knobs and files in the target root, nothing on the disk)
 * and an LV of the plan's that differs only in its read-ahead (lvchange
 * -r writes no data and closes nothing).  Every other step makes anew
 * what the steps after it lie on.
 */
static bool keeps_the_rest(const struct sp_ctx *ctx, size_t i)
{
	return ctx->steps[i] == &sp_step_tuning ||
	       (ctx->steps[i] == &sp_step_lvm && ctx->lv_read_ahead_only);
}

/*
 * Whether apply runs step i: every step from the first that differs on,
 * but before the first rewrite only those that differ: what ran before
 * such a step kept it as verified (keeps_the_rest()).
 */
static bool runs(const struct sp_report *r, size_t i, size_t first, size_t rewrite)
{
	return i >= first && (i >= rewrite || r->steps[i].status != SP_STEP_UNCHANGED);
}

static void note(struct sp_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct sp_report *r, const char *fmt, ...)
{
	char line[SP_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	sp_line_add(r->notes, SP_STEP_MAX_LINES, &r->n_notes, &r->n_notes_dropped, "%s", line);
}

static int finish(struct sp_report *r, enum sp_outcome outcome, double started)
{
	static const int codes[] = {
		[SP_OUTCOME_DONE] = SP_EXIT_OK,       [SP_OUTCOME_UNCHANGED] = SP_EXIT_OK,
		[SP_OUTCOME_DRY_RUN] = SP_EXIT_OK,    [SP_OUTCOME_MATCH] = SP_EXIT_OK,
		[SP_OUTCOME_DRIFT] = SP_EXIT_DRIFT,   [SP_OUTCOME_REFUSED] = SP_EXIT_REFUSED,
		[SP_OUTCOME_FAILED] = SP_EXIT_FAILED, [SP_OUTCOME_HARMLESS] = SP_EXIT_OK,
	};

	r->outcome = outcome;
	r->exit_code = codes[outcome];
	if (outcome == SP_OUTCOME_FAILED || outcome == SP_OUTCOME_REFUSED)
		r->exit_code = sp_error_exit_code(&r->error);
	r->seconds = sp_now_seconds() - started;
	return r->exit_code;
}

/* code says why, as errno: EROFS, EBUSY (in use), ENXIO (not the device
 * the plan was made for), EEXIST (something would be overwritten)... */
static int refuse(struct sp_report *r, double started, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int refuse(struct sp_report *r, double started, int code, const char *fmt, ...)
{
	char msg[SP_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sp_error_set(&r->error, code, SP_ERR_REFUSED, "%s", msg);
	return finish(r, SP_OUTCOME_REFUSED, started);
}

/*
 * Differences between the device now and the device the plan was made
 * for.  Identity fields are compared only where the plan recorded them.
 */
static size_t identity_differences(const struct sp_facts *want, const struct sp_facts *have,
				   char lines[][SP_MSG_MAX], size_t max)
{
	size_t n = 0;

#define DIFF(...)                                                        \
	do {                                                             \
		if (n < max)                                             \
			snprintf(lines[n], SP_MSG_MAX, __VA_ARGS__);     \
		n++;                                                     \
	} while (0)
	if (!have->size_bytes)
		DIFF("'%s' has no medium (0 bytes: detached, ejected or removed); the plan was "
		     "made for %" PRIu64 " bytes", have->path, want->size_bytes);
	else if (want->size_bytes != have->size_bytes)
		DIFF("'%s' has %" PRIu64 " bytes, the plan was made for %" PRIu64, have->path,
		     have->size_bytes, want->size_bytes);
	if (want->logical_sector_bytes != have->logical_sector_bytes)
		DIFF("'%s' has %u-byte logical sectors, the plan was made for %u", have->path,
		     have->logical_sector_bytes, want->logical_sector_bytes);
	if (want->physical_sector_bytes != have->physical_sector_bytes)
		DIFF("'%s' has %u-byte physical sectors, the plan was made for %u", have->path,
		     have->physical_sector_bytes, want->physical_sector_bytes);
	if (want->wwn[0] && strcmp(want->wwn, have->wwn) != 0)
		DIFF("'%s' has WWN '%s', the plan was made for '%s'", have->path, have->wwn, want->wwn);
	if (want->serial[0] && strcmp(want->serial, have->serial) != 0)
		DIFF("'%s' has serial '%s', the plan was made for '%s'", have->path, have->serial,
		     want->serial);
	if (want->major && (want->major != have->major || want->minor != have->minor))
		DIFF("'%s' is device %u:%u, the plan was made for %u:%u", have->path, have->major,
		     have->minor, want->major, want->minor);
	if (want->diskseq && want->diskseq != have->diskseq)
		DIFF("'%s' is disk sequence %" PRIu64 ", the plan was made for %" PRIu64
		     " (the medium was replaced or re-attached)",
		     have->path, have->diskseq, want->diskseq);
	/* an md array is also what it is made of: another array under the
	 * same name, or the same one reshaped, is not the planned one */
	if (want->md.present && !have->md.present)
		DIFF("'%s' is no longer an md array, the plan was made for md %s", have->path,
		     want->md.level);
	if (want->md.present && have->md.present) {
		const struct sp_md_facts *w = &want->md, *h = &have->md;

		if (w->uuid[0] && strcmp(w->uuid, h->uuid) != 0)
			DIFF("'%s' is md array %s, the plan was made for %s", have->path, h->uuid, w->uuid);
		if (strcmp(w->level, h->level) || w->raid_disks != h->raid_disks ||
		    w->chunk_bytes != h->chunk_bytes || w->layout != h->layout)
			DIFF("'%s' is md %s with %u disks, chunk %" PRIu64 " B, layout %" PRIu64
			     "; the plan was made for %s with %u disks, chunk %" PRIu64
			     " B, layout %" PRIu64,
			     have->path, h->level, h->raid_disks, h->chunk_bytes, h->layout, w->level,
			     w->raid_disks, w->chunk_bytes, w->layout);
	}
#undef DIFF
	return n;
}

/*
 * Earlier versions mounted their test on <dir>/stripeplan-mount.XXXXXX in
 * the machine's namespace.  Such a name proves nothing (a user's
 * /srv/stripeplan-mount.photos looks the same), so it is only said: the
 * run removes nothing it did not make itself.
 */
static void note_old_mount_test(struct sp_report *r, const struct sp_usage_entry *e)
{
	const char *base = strrchr(e->path, '/');

	if (e->use != SP_USE_MOUNTED || !base || strncmp(base + 1, "stripeplan-mount.", 17))
		return;
	note(r, "'%s' is named like the mount test of an older stripeplan; if it is one, "
		"unmount it yourself ('umount %s') and remove the directory: stripeplan unmounts "
		"and removes nothing it did not make in the same run",
	     e->path, e->path);
}

/* One line for the first use, notes for the others; u->n is not 0. */
static int refuse_in_use(const struct sp_usage *u, struct sp_report *r, double started)
{
	size_t kept = u->n < SP_USAGE_MAX ? u->n : SP_USAGE_MAX;

	for (size_t i = 0; i < kept; i++)
		if (u->e[i].use == SP_USE_READ_ONLY)
			return refuse(r, started, EROFS, "'%s' is read-only; nothing was attempted",
				      u->e[i].node);
	for (size_t i = 0; i < kept; i++) {
		if (i)
			note(r, "also: %s %s", u->e[i].node, u->e[i].what);
		note_old_mount_test(r, &u->e[i]);
	}
	if (u->n > kept)
		note(r, "and %zu more uses", u->n - kept);
	return refuse(r, started, EBUSY, "%s %s; stripeplan never touches a disk in use, even with "
		      "--force", u->e[0].node, u->e[0].what);
}

/*
 * The kernel's own answer for exclusive holders the scan cannot see (a
 * filesystem mounted in another mount namespace, a partitioner): every
 * partition is opened O_EXCL and closed again, and is refused when it is
 * read-only (BLKROGET); the disk is opened O_EXCL last and kept in
 * ctx->claim_fd, so from here until the first write nobody can mount,
 * assemble or claim it or any partition on it.  (A partition cannot be
 * claimed while the disk is, by us either: hence one at a time, then
 * the disk.)
 */
static int claim_partition(const struct sp_sysfs_partition *p, struct sp_report *r,
			   double started)
{
	char node[SP_PATH_MAX];
	struct stat st;
	int fd, ro = 0, rc = 0;

	if (sp_node_of(p->name, node, sizeof(node)) < 0)
		return refuse(r, started, ENAMETOOLONG, "partition name '%s' is too long", p->name);
	fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && errno == EBUSY)
		return refuse(r, started, EBUSY,
			      "'%s' is open exclusively by another program (a filesystem mounted in "
			      "another mount namespace, md, dm, or a partitioner); stripeplan never "
			      "touches a disk in use, even with --force",
			      node);
	if (fd < 0)
		return refuse(r, started, errno,
			      "cannot open '%s' to see whether it is in use: %s; nothing was written",
			      node, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) ||
	    st.st_rdev != makedev(p->major, p->minor))
		rc = refuse(r, started, ENXIO,
			    "'%s' is not the kernel's partition %u:%u; nothing was written", node,
			    p->major, p->minor);
	else if (ioctl(fd, BLKROGET, &ro) == 0 && ro)
		rc = refuse(r, started, EROFS, "'%s' is read-only; nothing was attempted", node);
	close(fd);
	return rc;
}

static int claim_nodes(struct sp_ctx *ctx, const struct sp_facts *facts, struct sp_report *r,
		       double started)
{
	struct sp_sysfs_partitions *parts = calloc(1, sizeof(*parts));
	const char *disk = ctx->plan->device.path;
	struct stat st;
	int fd, rc = 0;

	if (!parts) {
		sp_error_set(&r->error, ENOMEM, SP_ERR_FAILED, "out of memory");
		return finish(r, SP_OUTCOME_FAILED, started);
	}
	if (sp_sysfs_partitions(ctx->sysfs, facts->major, facts->minor, parts) < 0) {
		rc = refuse(r, started, EIO, "cannot list the partitions of '%s'; cannot tell "
			    "whether any is in use", disk);
		goto out;
	}
	for (size_t i = 0; i < parts->n && !rc; i++)
		rc = claim_partition(&parts->p[i], r, started);
	if (rc)
		goto out;
	/* O_EXCL on a block device fails with EBUSY while anyone holds it
	 * exclusively (a mounted filesystem, md, dm, another partitioner) */
	fd = open(disk, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		rc = refuse(r, started, errno,
			    "cannot open '%s' exclusively: %s; another program is using it", disk,
			    strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) < 0 || st.st_rdev != makedev(facts->major, facts->minor)) {
		close(fd);
		rc = refuse(r, started, ENXIO,
			    "'%s' no longer names the device that was locked (%u:%u); "
			    "nothing was written", disk, facts->major, facts->minor);
		goto out;
	}
	ctx->claim_fd = fd;
	ctx->claimed = true;
out:
	free(parts);
	return rc;
}

/* Before the first write: our own writes open the disk and its
 * partitions O_EXCL (the wipe, mkfs), which our claim would refuse. */
static void release_claim(struct sp_ctx *ctx)
{
	if (ctx->claimed)
		close(ctx->claim_fd);
	ctx->claimed = false;
	ctx->claim_fd = -1;
}

/* The device-mapper name the plan's bottom layer has: what holds the
 * partition (or the whole device) when the plan's stack is open. */
static void bottom_dm_name(const struct sp_plan *plan, char *buf, size_t len)
{
	if (plan->layers[0] == SP_LAYER_LUKS)
		snprintf(buf, len, "%s", plan->luks.name);
	else
		sp_dm_lvm_name(plan->lvm.vg, plan->lvm.lv, buf, len);
}

/*
 * Whether every use found is the plan's own bottom layer holding the
 * device (its dm name, as sysfs has it): a re-run over the stack this
 * plan made, left open.  Any other use, or more than that, is a use.
 */
static bool own_stack_holds(const struct sp_ctx *ctx, const struct sp_usage *u)
{
	static const char held[] = "is held by ";
	char want[SP_NAME_MAX], name[SP_NAME_MAX], attr[SP_PATH_MAX];
	size_t kept = u->n < SP_USAGE_MAX ? u->n : SP_USAGE_MAX;

	if (!ctx->plan->n_layers || u->n > kept)
		return false;
	bottom_dm_name(ctx->plan, want, sizeof(want));
	for (size_t i = 0; i < kept; i++) {
		const struct sp_usage_entry *e = &u->e[i];

		if (e->use != SP_USE_HELD || strncmp(e->what, held, strlen(held)) ||
		    sp_sysfs_path(ctx->sysfs, attr, sizeof(attr), "block/%s/dm/name",
				  e->what + strlen(held)) < 0 ||
		    sp_sysfs_read(attr, name, sizeof(name)) < 0 || strcmp(name, want))
			return false;
	}
	return true;
}

/*
 * In use = what the kernel says, in one place, never overridable by
 * --force: a read-only disk or partition, every use the scan names (a
 * mount, swap, holder, loop device, bind mount, open descriptor, lock),
 * and every exclusive holder an O_EXCL open runs into.
 */
static int refuse_if_in_use(struct sp_ctx *ctx, const struct sp_facts *facts,
			    struct sp_report *r, double started)
{
	struct sp_usage *u = calloc(1, sizeof(*u));
	struct sp_error err = { 0 };
	int rc = 0;

	if (!u) {
		sp_error_set(&r->error, ENOMEM, SP_ERR_FAILED, "out of memory");
		return finish(r, SP_OUTCOME_FAILED, started);
	}
	if (facts->read_only == 1) {
		rc = refuse(r, started, EROFS, "'%s' is read-only; nothing was attempted",
			    ctx->plan->device.path);
		goto out;
	}
	if (sp_probe_usage(ctx->sysfs, facts, getpid(), u, &err) < 0) {
		r->error = err;
		rc = finish(r, SP_OUTCOME_REFUSED, started);
		goto out;
	}
	if (u->n && own_stack_holds(ctx, u)) {
		/* the plan's own stack, open: no claim (dm holds it); only the
		 * steps above the layers may write (sp_pipeline_apply) */
		ctx->stack_open = true;
		goto out;
	}
	if (u->n) {
		rc = refuse_in_use(u, r, started);
		goto out;
	}
	rc = claim_nodes(ctx, facts, r, started);
out:
	free(u);
	return rc;
}

/*
 * Opens the device once, for the whole run, and takes the whole-disk
 * advisory lock on that descriptor: udev and systemd tools skip a locked
 * disk.  apply takes it exclusively (LOCK_EX), check shares it (LOCK_SH),
 * which waits out udev's own lock and keeps udevd from re-reading the
 * partition table while check reads it: udevd re-reads it whenever a
 * program that opened the disk for writing closes it, and during that
 * re-read the kernel has no partitions to show.  Read-only in both: the
 * writes go through descriptors closed while the lock is held, so udevd
 * finds the disk locked and only announces a change; a lock descriptor
 * opened for writing is closed as the lock goes, and udevd re-read the
 * table then, under the next command (vm/boot: check missed the
 * partition an apply had just made).  A read-only device is refused by
 * its BLKROGET below, not by this open.
 */
static int open_and_lock(const char *path, int op, unsigned wait_ms, int *ret_fd,
			 struct sp_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		int e = errno;

		return sp_error_set(err, e, SP_ERR_REFUSED,
				    "cannot open '%s': %s%s; nothing was written", path, strerror(e),
				    e == ENOENT || e == ENXIO || e == ENODEV ?
					       " (the device vanished: detached, removed or renamed)" :
					       "");
	}
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode)) {
		close(fd);
		return sp_error_set(err, ENOTBLK, SP_ERR_REFUSED,
				    "'%s' is not a block device (any more); nothing was written",
				    path);
	}
	for (unsigned waited = 0;; waited += 50) {
		if (flock(fd, op | LOCK_NB) == 0)
			break;
		if (errno != EWOULDBLOCK || waited >= wait_ms) {
			int e = errno;

			close(fd);
			return sp_error_set(err, e, SP_ERR_REFUSED,
					    "cannot lock '%s': %s; another program (udev, a "
					    "partitioner) holds its lock",
					    path, e == EWOULDBLOCK ? "still locked after waiting" :
									strerror(e));
		}
		usleep(50 * 1000);
	}
	*ret_fd = fd;
	return 0;
}

static void init_ctx(const struct sp_plan *plan, const struct sp_run_opts *opts, struct sp_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->plan = plan;
	ctx->disk_path = plan->device.path;
	snprintf(ctx->partition_path, sizeof(ctx->partition_path), "%s", plan->partition_path);
	ctx->root = opts->root ? opts->root : "/";
	ctx->dry_run = opts->dry_run;
	ctx->force = opts->force;
	ctx->partition_wait_ms = opts->partition_wait_ms;
	ctx->sysfs = opts->sysfs;
	ctx->program_deadline_s = opts->program_deadline_s;
	ctx->disk_fd = -1;
	ctx->part_fd = -1;
	ctx->claim_fd = -1;
	ctx->fstab_lock_fd = -1;
	ctx->program_dirs = opts->program_dirs;
	ctx->key = opts->key;
	ctx->fast_pbkdf = opts->fast_pbkdf;
	plan_steps(plan, ctx);
}

/* What the steps check every write against: the disk as locked. */
static void bind_disk(struct sp_ctx *ctx, int fd, const struct sp_facts *facts)
{
	ctx->disk_fd = fd;
	ctx->disk_rdev = makedev(facts->major, facts->minor);
	ctx->disk_diskseq = facts->diskseq;
	ctx->disk_size_bytes = facts->size_bytes;
}

static void unbind(struct sp_ctx *ctx)
{
	release_claim(ctx);
	sp_step_fstab_release(ctx);
	if (ctx->part_rdev && ctx->part_fd >= 0)
		close(ctx->part_fd);
	if (ctx->disk_fd >= 0)
		close(ctx->disk_fd);
	ctx->part_fd = ctx->disk_fd = -1;
	ctx->part_rdev = ctx->disk_rdev = 0;
}

static void report_init(const struct sp_ctx *ctx, struct sp_report *r, const char *command)
{
	memset(r, 0, sizeof(*r));
	r->command = command;
	r->n_steps = ctx->n_steps;
	for (size_t i = 0; i < ctx->n_steps; i++)
		r->steps[i].name = ctx->steps[i]->name;
	r->kept.name = "report";
}

static void step_done(const struct sp_run_opts *opts, struct sp_report *r, size_t i)
{
	if (opts->on_step)
		opts->on_step(&r->steps[i], i, r->n_steps, opts->userdata);
}

/* Runs verify into a fresh result; a verify that cannot look is FAILED. */
static int run_verify(size_t i, struct sp_ctx *ctx, struct sp_step_result *res)
{
	double t0 = sp_now_seconds();
	int rc;

	sp_step_result_clear(res);
	res->status = SP_STEP_UNCHANGED;
	rc = ctx->steps[i]->verify(ctx, res);
	if (rc < 0)
		res->status = SP_STEP_FAILED;
	res->seconds = sp_now_seconds() - t0;
	return rc;
}

static int verify_all(struct sp_ctx *ctx, struct sp_report *r, size_t *ret_first_drift)
{
	size_t first = ctx->n_steps;

	for (size_t i = 0; i < ctx->n_steps; i++) {
		if (run_verify(i, ctx, &r->steps[i]) < 0)
			return -EIO;
		if (r->steps[i].status != SP_STEP_UNCHANGED && first == ctx->n_steps)
			first = i;
	}
	*ret_first_drift = first;
	return 0;
}

/*
 * Why the step that differs first cannot be brought to the plan in place:
 * what a person weighing --force needs beside what would be lost.
 */
static const char *rewrite_reason(const struct sp_step *step)
{
	if (step == &sp_step_partition)
		return "a partition cannot move or change size under a filesystem: the table is "
		       "written again and the filesystem made anew";
	if (step == &sp_step_filesystem)
		return "a filesystem's type and stripe geometry are set when it is made: only a new "
		       "one has the plan's";
	if (step == &sp_step_luks)
		return "a LUKS2 volume's data offset and sector size are set when it is formatted: "
		       "only a new one has the plan's";
	if (step == &sp_step_lvm)
		return "a PV's pe_start is set when it is made: only a new one has the plan's";
	return NULL;
}

/*
 * "; it differs from the plan in the <step> step: <the worst difference>
 * (and N more); <why>": the worst of what the steps that would be
 * rewritten found (the first such step's, on a tie), not merely the first
 * line: a partition a few stripes shorter "costs nothing", while the
 * filesystem on it has the wrong stripe unit.
 */
static void describe_drift(const struct sp_ctx *ctx, const struct sp_report *r, size_t first,
			   char *buf, size_t len)
{
	const char *why = first < ctx->n_steps ? rewrite_reason(ctx->steps[first]) : NULL;
	const struct sp_step_result *worst_res = NULL;
	size_t worst_line = 0, total = 0;
	int worst = -1;
	char n[48] = "", line[SP_MSG_MAX], *fix;

	buf[0] = '\0';
	if (!why)
		return;
	for (size_t i = first; i < ctx->n_steps; i++) {
		const struct sp_step_result *res = &r->steps[i];

		if (!rewrite_reason(ctx->steps[i]))
			continue;
		total += res->n_lines + res->n_lines_dropped;
		for (size_t k = 0; k < res->findings.n && k < res->n_lines; k++) {
			if ((int)res->findings.f[k].severity <= worst)
				continue;
			worst = (int)res->findings.f[k].severity;
			worst_res = res;
			worst_line = k;
		}
		if (!worst_res && res->n_lines) {
			worst_res = res; /* lines without findings: the first one */
			worst_line = 0;
		}
	}
	if (!worst_res)
		return;
	if (total > 1)
		snprintf(n, sizeof(n), " (and %zu more)", total - 1);
	/* the in-place fixes a finding names are not this run's to take:
	 * --force is, and the why says what it costs */
	snprintf(line, sizeof(line), "%s", worst_res->lines[worst_line]);
	fix = strstr(line, "; fix: ");
	if (fix)
		*fix = '\0';
	snprintf(buf, len, "; it differs from the plan in the %s step: %s%s; %s", worst_res->name,
		 line, n, why);
}

static int refuse_overwrite(struct sp_ctx *ctx, struct sp_report *r, size_t first, double started)
{
	char what[SP_MSG_MAX], drift[SP_MSG_MAX];

	if (ctx->force)
		return 0;
	describe_drift(ctx, r, first, drift, sizeof(drift));
	for (size_t i = first; i < ctx->n_steps; i++) {
		if (!ctx->steps[i]->probe_existing)
			continue;
		what[0] = '\0';
		if (ctx->steps[i]->probe_existing(ctx, what, sizeof(what)) > 0)
			return refuse(r, started, EEXIST,
				      "'%s' holds %s; stripeplan will not overwrite it without "
				      "--force%s",
				      ctx->disk_path, what[0] ? what : "data", drift);
	}
	return 0;
}

/*
 * Everything that can be refused without writing is refused here, before
 * the first step writes: a refusal found by a later step's apply would
 * come after the disk was partitioned and formatted.
 */
static int preflight_all(struct sp_ctx *ctx, struct sp_report *r, size_t first, size_t rewrite,
			 double started)
{
	for (size_t i = first; i < ctx->n_steps; i++) {
		struct sp_step_result res = { .name = ctx->steps[i]->name };

		if (!ctx->steps[i]->preflight || !runs(r, i, first, rewrite))
			continue;
		if (ctx->steps[i]->preflight(ctx, &res) < 0) {
			r->error = res.error;
			sp_step_result_clear(&res);
			return finish(r, SP_OUTCOME_REFUSED, started);
		}
		sp_step_result_clear(&res);
	}
	return 0;
}

/*
 * What a step must hold from before the first write until it runs (the
 * fstab lock), taken once every refusal has passed and only when the run
 * will write: a failure here is still a refusal with nothing written.
 */
static int reserve_all(struct sp_ctx *ctx, struct sp_report *r, size_t first, size_t rewrite,
		       double started)
{
	if (ctx->dry_run)
		return 0;
	for (size_t i = first; i < ctx->n_steps; i++) {
		struct sp_step_result res = { .name = ctx->steps[i]->name };

		if (!ctx->steps[i]->reserve || !runs(r, i, first, rewrite))
			continue;
		if (ctx->steps[i]->reserve(ctx, &res) < 0) {
			r->error = res.error;
			sp_step_result_clear(&res);
			return finish(r, SP_OUTCOME_REFUSED, started);
		}
		sp_step_result_clear(&res);
	}
	return 0;
}

/*
 * The run's own error from step i's, when what the run already did
 * decides it: a step that could not start before anything was written is
 * a refusal (exit 3); any failure after a write is a failure (exit 4),
 * whatever the step said, because the disk is no longer as it was.  The
 * step's own error stays in its result.
 */
static void run_error(struct sp_report *r, size_t i, enum sp_error_kind kind)
{
	const struct sp_error *e = &r->steps[i].error;

	sp_error_set(&r->error, e->code ? -e->code : EIO, kind, "%s", e->message);
}

/*
 * A failure after an earlier step wrote is never "invalid input" or
 * "refused, nothing touched": exit 4, and a note says what is on the
 * disk now.
 */
static void failed_after_writes(struct sp_report *r, size_t first, size_t failed)
{
	char done[SP_MSG_MAX] = "", rest[SP_MSG_MAX] = "";
	size_t used = 0, rused = 0;

	for (size_t j = first; j < failed; j++)
		if (r->steps[j].status == SP_STEP_DONE)
			used += (size_t)snprintf(done + used, sizeof(done) - used, "%s%s",
						 used ? ", " : "", r->steps[j].name);
	for (size_t j = failed + 1; j < r->n_steps; j++)
		rused += (size_t)snprintf(rest + rused, sizeof(rest) - rused, "%s%s",
					  rused ? ", " : "", r->steps[j].name);
	if (!used)
		return;
	run_error(r, failed, SP_ERR_FAILED);
	note(r, "left behind: %s written and verified; '%s' failed%s%s; re-run apply to finish",
	     done, r->steps[failed].name, rused ? "; not run: " : "", rest);
}

/* The fault-injection tests' hook: stop after the named step, as if the
 * run had been killed there. */
static bool stop_requested_after(const struct sp_run_opts *opts, const char *name)
{
	return opts->stop_after && !strcmp(opts->stop_after, name);
}

/*
 * Steps after the partition format its node: bind it first (the node
 * must be the kernel's partition 1 of the locked disk).  Nothing is
 * bound in a dry run, where the partition may not exist yet.
 */
static int bind_partition_before(struct sp_ctx *ctx, size_t i, struct sp_step_result *res)
{
	if (ctx->dry_run || ctx->part_rdev || ctx->steps[i] == &sp_step_partition)
		return 0;
	return sp_step_partition_bind(ctx, res);
}

/* A step that could not start: refused when nothing was written yet,
 * else a failure that says what the earlier steps left behind. */
static int not_started(struct sp_report *r, size_t first, size_t i, double started)
{
	bool wrote = i > first;

	r->steps[i].status = SP_STEP_FAILED;
	for (size_t j = i + 1; j < r->n_steps; j++)
		r->steps[j].status = SP_STEP_SKIPPED;
	run_error(r, i, wrote ? SP_ERR_FAILED : SP_ERR_REFUSED);
	if (wrote)
		failed_after_writes(r, first, i);
	return finish(r, wrote ? SP_OUTCOME_FAILED : SP_OUTCOME_REFUSED, started);
}

/*
 * On a stack, a step above the first one applied was verified before
 * anything was written, when what it lies on may have been closed: a
 * closed LUKS2 volume of the plan's hides its PV, an inactive LV its
 * filesystem.  Once the step below has opened it, the step is looked at
 * again and left alone when it matches: opening a volume must never make
 * its filesystem look missing and be made anew.  Not in a dry run, which
 * opened nothing; not without layers, where nothing is opened.
 */
static bool reverified_unchanged(struct sp_ctx *ctx, size_t i, size_t first,
				 struct sp_step_result *res)
{
	if (ctx->dry_run || i <= first || !ctx->plan->n_layers)
		return false;
	if (run_verify(i, ctx, res) == 0 && res->status == SP_STEP_UNCHANGED)
		return true;
	sp_step_result_clear(res);
	return false;
}

/*
 * The first step at or after first that differs and makes anew what the
 * steps after it lie on, or n_steps: a tuning that differs, or an LV of
 * the plan's that differs only in its read-ahead, is set in place, on an
 * open stack as on a closed one, and nothing on the device is at stake.
 */
static size_t first_rewrite(const struct sp_ctx *ctx, const struct sp_report *r, size_t first)
{
	size_t i = first;

	while (i < ctx->n_steps &&
	       (r->steps[i].status == SP_STEP_UNCHANGED || keeps_the_rest(ctx, i)))
		i++;
	return i;
}

static size_t filesystem_index(const struct sp_ctx *ctx)
{
	size_t i = 0;

	while (i < ctx->n_steps && ctx->steps[i] != &sp_step_filesystem)
		i++;
	return i;
}

/*
 * The plan's stack is open and a step at or below its layers differs:
 * changing it would mean closing what this run did not open.  Never
 * done, even with --force; the commands that close it are named.
 */
static int refuse_open_stack(const struct sp_ctx *ctx, struct sp_report *r, size_t first,
			     double started)
{
	const struct sp_plan *plan = ctx->plan;
	char close_cmds[SP_MSG_MAX] = "";
	size_t n = 0;

	/* top down: the LV before the volume it lies on, and the other way */
	for (size_t i = plan->n_layers; i-- > 0 && n < sizeof(close_cmds);) {
		int w = plan->layers[i] == SP_LAYER_LVM ?
				snprintf(close_cmds + n, sizeof(close_cmds) - n, "%s'vgchange -an %s'",
					 n ? ", then " : "", plan->lvm.vg) :
				snprintf(close_cmds + n, sizeof(close_cmds) - n, "%s'cryptsetup close %s'",
					 n ? ", then " : "", plan->luks.name);

		if (w < 0)
			break;
		n += (size_t)w;
	}
	return refuse(r, started, EBUSY,
		      "'%s' is held by the plan's own stack, open, and the %s step differs (%s); "
		      "stripeplan does not close what it did not open in this run, even with "
		      "--force: close it first (%s) and run apply again",
		      ctx->disk_path, r->steps[first].name,
		      r->steps[first].n_lines ? r->steps[first].lines[0] : "see the step",
		      close_cmds);
}

/*
 * A dry run over a closed LUKS2 volume of the plan's: what is on it (the
 * PV, the filesystem, the fstab line naming its UUID) cannot be read
 * until apply opens it, and apply then reads each step again and changes
 * it only if it differs.  Listing what a blank volume would need (a
 * pvcreate, a mkfs) would say the real run destroys what it keeps, so
 * the dry run says that instead, with no action.
 */
static bool hidden_by_closed_volume(const struct sp_ctx *ctx, size_t i, struct sp_step_result *res)
{
	const struct sp_step *s = ctx->steps[i];
	size_t luks = 0;

	if (!ctx->dry_run || !ctx->luks_closed)
		return false;
	while (luks < ctx->n_steps && ctx->steps[luks] != &sp_step_luks)
		luks++;
	if (i <= luks || (s != &sp_step_lvm && s != &sp_step_filesystem && s != &sp_step_fstab))
		return false;
	sp_step_line(res, "not read while the LUKS2 volume '%s' is closed: apply opens it, reads "
		     "this step again and changes it only if it then differs from the plan",
		     ctx->plan->luks.path);
	res->status = SP_STEP_DRY_RUN;
	return true;
}

static int apply_from(struct sp_ctx *ctx, const struct sp_run_opts *opts, struct sp_report *r,
		      size_t first, size_t rewrite, double started)
{
	for (size_t i = 0; i < ctx->n_steps; i++) {
		struct sp_step_result *res = &r->steps[i];
		double t0 = sp_now_seconds();

		if (!runs(r, i, first, rewrite)) {
			step_done(opts, r, i); /* verified unchanged above */
			continue;
		}
		sp_step_result_clear(res);
		if (opts->on_step_start)
			opts->on_step_start(ctx->steps[i]->name, i, r->n_steps, opts->userdata);
		if (!ctx->dry_run && (sp_ctx_check_disk(ctx, res) < 0 ||
				      bind_partition_before(ctx, i, res) < 0)) {
			step_done(opts, r, i);
			return not_started(r, first, i, started);
		}
		if (reverified_unchanged(ctx, i, first, res) || hidden_by_closed_volume(ctx, i, res)) {
			step_done(opts, r, i);
			continue;
		}
		if (ctx->steps[i]->apply(ctx, res) < 0) {
			res->status = SP_STEP_FAILED;
			res->seconds = sp_now_seconds() - t0;
			r->error = res->error;
			step_done(opts, r, i);
			for (size_t j = i + 1; j < ctx->n_steps; j++)
				r->steps[j].status = SP_STEP_SKIPPED;
			failed_after_writes(r, first, i);
			return finish(r, SP_OUTCOME_FAILED, started);
		}
		if (!ctx->dry_run) {
			struct sp_step_result after = { .name = res->name };
			char *output = res->tool_output;

			/* keep apply's summary and tool output; take verify's verdict */
			res->tool_output = NULL;
			run_verify(i, ctx, &after);
			if (after.status != SP_STEP_UNCHANGED) {
				res->status = SP_STEP_FAILED;
				sp_error_set(&res->error, after.error.code ? -after.error.code : EIO,
					     SP_ERR_FAILED, "%s: verify after apply found: %s", res->name,
					     after.n_lines ? after.lines[0] : after.error.message);
				r->error = res->error;
			} else {
				res->status = SP_STEP_DONE;
				if (after.summary[0])
					snprintf(res->summary, sizeof(res->summary), "%s", after.summary);
			}
			sp_step_result_clear(&after);
			res->tool_output = output;
		} else {
			res->status = SP_STEP_DRY_RUN;
		}
		res->seconds = sp_now_seconds() - t0;
		step_done(opts, r, i);
		if (res->status == SP_STEP_FAILED) {
			for (size_t j = i + 1; j < ctx->n_steps; j++)
				r->steps[j].status = SP_STEP_SKIPPED;
			failed_after_writes(r, first, i);
			return finish(r, SP_OUTCOME_FAILED, started);
		}
		if (!ctx->dry_run && stop_requested_after(opts, ctx->steps[i]->name)) {
			for (size_t j = i + 1; j < ctx->n_steps; j++)
				r->steps[j].status = SP_STEP_SKIPPED;
			note(r, "stopped after step '%s' (STRIPEPLAN_TEST_STOP_AFTER)", ctx->steps[i]->name);
			return finish(r, SP_OUTCOME_FAILED, started);
		}
	}
	return finish(r, ctx->dry_run ? SP_OUTCOME_DRY_RUN : SP_OUTCOME_DONE, started);
}

int sp_pipeline_apply(const struct sp_plan *plan, const struct sp_run_opts *opts,
		      struct sp_report *r)
{
	double started = sp_now_seconds();
	struct sp_facts facts = { 0 };
	struct sp_ctx ctx;
	size_t first, rewrite, n;
	int disk_fd = -1, rc;

	init_ctx(plan, opts, &ctx);
	report_init(&ctx, r, "apply");
	/* lock first, then identify what we hold: never the other way round */
	if (open_and_lock(plan->device.path, LOCK_EX,
			  opts->lock_wait_ms ? opts->lock_wait_ms : DEFAULT_LOCK_WAIT_MS, &disk_fd,
			  &r->error) < 0)
		return finish(r, SP_OUTCOME_REFUSED, started);
	bind_disk(&ctx, disk_fd, &plan->device);
	if (sp_probe_facts_fd(opts->sysfs, disk_fd, plan->device.path, &facts, &r->error) < 0) {
		/* it cannot be read: nothing was written */
		rc = finish(r, SP_OUTCOME_REFUSED, started);
		goto out;
	}
	bind_disk(&ctx, disk_fd, &facts);
	if (facts.is_partition) {
		rc = refuse(r, started, EINVAL, "'%s' is a partition; give the whole disk or array",
			    plan->device.path);
		goto out;
	}
	ctx.facts = &facts;
	n = identity_differences(&plan->device, &facts, r->notes, SP_STEP_MAX_LINES);
	if (n) {
		r->n_notes = n < SP_STEP_MAX_LINES ? n : SP_STEP_MAX_LINES;
		rc = refuse(r, started, ENXIO, "%s: the device is not the one the plan was made for",
			    r->notes[0]);
		goto out;
	}
	rc = refuse_if_in_use(&ctx, &facts, r, started);
	if (rc)
		goto out;
	sp_step_partition_resolve(&ctx);

	if (verify_all(&ctx, r, &first) < 0) {
		for (size_t i = 0; i < ctx.n_steps; i++)
			if (r->steps[i].status == SP_STEP_FAILED)
				r->error = r->steps[i].error;
		rc = finish(r, SP_OUTCOME_FAILED, started);
		goto out;
	}
	if (first == ctx.n_steps) {
		note(r, "'%s' already matches the plan: nothing to do", plan->device.path);
		for (size_t i = 0; i < ctx.n_steps; i++)
			step_done(opts, r, i);
		rc = finish(r, SP_OUTCOME_UNCHANGED, started);
		goto out;
	}
	rewrite = first_rewrite(&ctx, r, first);
	if (ctx.stack_open && rewrite < filesystem_index(&ctx)) {
		rc = refuse_open_stack(&ctx, r, rewrite, started);
		goto out;
	}
	rc = preflight_all(&ctx, r, first, rewrite, started);
	if (rc)
		goto out;
	rc = rewrite < ctx.n_steps ? refuse_overwrite(&ctx, r, rewrite, started) : 0;
	if (rc)
		goto out;
	rc = reserve_all(&ctx, r, first, rewrite, started);
	if (rc)
		goto out;
	if (!opts->dry_run && opts->before_write)
		opts->before_write(opts->before_write_data);
	release_claim(&ctx);
	rc = apply_from(&ctx, opts, r, first, rewrite, started);
out:
	snprintf(r->fs_uuid, sizeof(r->fs_uuid), "%s", ctx.fs_uuid);
	unbind(&ctx);
	sp_facts_release(&facts);
	return rc;
}

static struct sp_step_result *step_named(struct sp_report *r, const char *name)
{
	for (size_t i = 0; i < r->n_steps; i++)
		if (!strcmp(r->steps[i].name, name))
			return &r->steps[i];
	return NULL;
}

/* The model's cost on the alignment and geometry findings, from what the
 * partition and filesystem verifies read; their lines are re-rendered. */
static void add_costs(const struct sp_ctx *ctx, struct sp_report *r)
{
	static const char *const costed[] = { "partition", "filesystem" };

	for (size_t i = 0; i < ARRAY_SIZE(costed); i++) {
		struct sp_step_result *res = step_named(r, costed[i]);

		if (!res || res->status != SP_STEP_DRIFT)
			continue;
		sp_audit_costs(ctx->plan, ctx->have_found_partition ? &ctx->found_partition : NULL,
			       ctx->have_found_fs ? &ctx->found_fs : NULL, &res->findings);
		res->n_lines = res->n_lines_dropped = 0;
		sp_step_take_findings(res);
	}
}

/* costly or suboptimal, or with --strict anything at all, is drift */
static enum sp_outcome judge_outcome(struct sp_report *r, bool identity_drift)
{
	bool any = identity_drift;

	r->worst = identity_drift ? SP_SEVERITY_COSTLY : -1;
	for (size_t i = 0; i < r->n_steps; i++) {
		int w = sp_findings_worst(&r->steps[i].findings);

		if (w > r->worst)
			r->worst = w;
		any = any || r->steps[i].status == SP_STEP_DRIFT;
	}
	if (!any)
		return SP_OUTCOME_MATCH;
	if (r->strict || r->worst > SP_SEVERITY_DIFFERS)
		return SP_OUTCOME_DRIFT;
	return SP_OUTCOME_HARMLESS;
}

int sp_pipeline_check(const struct sp_plan *plan, const struct sp_run_opts *opts,
		      struct sp_report *r)
{
	double started = sp_now_seconds();
	bool failed = false;
	struct sp_error lock_err = { 0 };
	struct sp_facts facts = { 0 };
	struct sp_ctx *ctx = calloc(1, sizeof(*ctx));
	enum sp_outcome outcome;
	int lock_fd = -1, rc;
	size_t n;

	if (!ctx) {
		memset(r, 0, sizeof(*r));
		r->command = "check";
		sp_error_set(&r->error, ENOMEM, SP_ERR_FAILED, "out of memory");
		return finish(r, SP_OUTCOME_FAILED, started);
	}
	init_ctx(plan, opts, ctx);
	report_init(ctx, r, "check");
	r->strict = opts->strict;
	r->worst = -1;
	ctx->auditing = true;
	/* check only reads, and reads the label so (scan: nor locks) */
	ctx->read_only = true;
	/* check only reads: without the lock it still looks, and says so;
	 * scan takes none, so it never delays a tool that wants it.  Taken
	 * before the partition is looked up: udev re-reads a disk's table
	 * (its partitions gone for a moment, their links made again later)
	 * only while it holds the disk's lock, and vm/boot saw check look
	 * in that moment and miss the partition a run had just made. */
	if (!opts->read_only &&
	    open_and_lock(plan->device.path, LOCK_SH,
		      opts->lock_wait_ms ? opts->lock_wait_ms : DEFAULT_LOCK_WAIT_MS, &lock_fd,
		      &lock_err) < 0)
		note(r, "%s; udev may re-read the partition table while check reads it",
		     lock_err.message);
	if (sp_probe_facts(opts->sysfs, plan->device.path, &facts, &r->error) < 0) {
		if (lock_fd >= 0)
			close(lock_fd);
		free(ctx);
		return finish(r, SP_OUTCOME_FAILED, started);
	}
	ctx->facts = &facts;
	sp_step_partition_resolve(ctx);
	n = identity_differences(&plan->device, &facts, r->notes, SP_STEP_MAX_LINES);
	r->n_notes = n < SP_STEP_MAX_LINES ? n : SP_STEP_MAX_LINES;
	for (size_t i = 0; i < ctx->n_steps; i++) {
		if (run_verify(i, ctx, &r->steps[i]) < 0) {
			failed = true;
			r->error = r->steps[i].error;
		}
	}
	if (lock_fd >= 0)
		close(lock_fd);
	add_costs(ctx, r);
	for (size_t i = 0; i < ctx->n_steps; i++)
		step_done(opts, r, i);
	snprintf(r->fs_uuid, sizeof(r->fs_uuid), "%s", ctx->fs_uuid);
	free(ctx);
	sp_facts_release(&facts);
	if (failed)
		return finish(r, SP_OUTCOME_FAILED, started);
	outcome = judge_outcome(r, n > 0);
	rc = finish(r, outcome, started);
	return rc;
}
