/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The steps that make a plan real.  Each owns one concern and exposes the
 * same pair: apply() changes the system, verify() reads the system back
 * and compares it with the plan.  The pipeline runs them in order; `check`
 * runs only the verifies.  Device code never computes geometry: every
 * number comes from the plan.
 */
#ifndef STRIPEPLAN_STEPS_H
#define STRIPEPLAN_STEPS_H

#include <sys/types.h>

#include "clock.h"
#include "keyfile.h"
#include "ondisk-scan.h"
#include "audit/result.h"
#include "stripeplan.h"
#include "sysfs.h"

struct sp_fs_names; /* fs-names.h */

/* What the steps share while a run goes on. */
struct sp_ctx {
	const struct sp_plan *plan;
	const char *disk_path;     /* the plan's device.path */
	char partition_path[SP_PATH_MAX]; /* from the plan; the node the kernel made */
	const char *root;          /* target root for fstab and persistence ("/" default) */
	bool dry_run;
	bool force;                /* apply may replace what is there */
	bool auditing;             /* check: fstab lines are found however they name the fs */
	/* check and scan: the label is read by libblkid, never libparted,
	 * which opens the disk O_RDWR and each partition O_WRONLY (BLKFLSBUF
	 * and fsync: a flush request each), and their close makes udev probe
	 * them again */
	bool read_only;
	char fs_uuid[SP_UUID_MAX]; /* filled by the filesystem step's verify */
	unsigned partition_wait_ms; /* bound for the partition node to appear (default 10000) */
	const struct sp_sysfs *sysfs; /* NULL = the machine's /sys */
	const char *node_dir;      /* NULL = /dev: where the kernel's nodes are (tests) */
	/* what the partition and filesystem verifies read, for the costs */
	bool have_found_partition, have_found_fs;
	struct sp_found_partition found_partition;
	struct sp_found_fs found_fs;
	/*
	 * The disk as the pipeline opened, locked and identified it; -1 when
	 * none (check, unit tests).  While it is open a loop device cannot be
	 * re-attached to another file (losetup -d only marks it autoclear),
	 * and every write goes to a node whose number and disk sequence are
	 * checked against these first.  disk_rdev 0 (a zeroed ctx) means
	 * nothing was identified and the descriptors are not used.
	 */
	int disk_fd;
	dev_t disk_rdev;
	uint64_t disk_diskseq;     /* 0 unknown */
	uint64_t disk_size_bytes;
	/* The partition node, opened and checked the same way once it
	 * exists (the pipeline binds it before the filesystem step); used only
	 * while part_rdev is set. */
	int part_fd;
	dev_t part_rdev;
	/* the device as probed for this run (NULL: only the plan's view):
	 * the identities the udev rule matches are the ones seen now */
	const struct sp_facts *facts;
	/*
	 * The disk opened O_EXCL by the in-use check and held until right
	 * before the first write (then closed: the wipe and mkfs open O_EXCL
	 * themselves), so nobody can mount, assemble or claim it or a
	 * partition meanwhile.  claim_fd is valid only while claimed.
	 */
	bool claimed;
	int claim_fd;
	/* where the programs a step runs are looked for: NULL is
	 * SP_EXEC_SYSTEM_DIRS (tests: STRIPEPLAN_TEST_PROGRAM_DIRS) */
	const char *program_dirs;
	/* seconds a program may run; 0: its own deadline (sp_exec_deadline_s;
	 * tests: STRIPEPLAN_TEST_DEADLINE) */
	unsigned program_deadline_s;
	/* a dry run's partition step listed the wipe of the whole device:
	 * with --table none the filesystem step's wipe, after it, finds none
	 * of those signatures again, and its dry run must not list them */
	bool dry_run_wiped_disk;
	/* the mkfs the filesystem step runs, by its absolute path, found by
	 * its preflight ("" until then) */
	char mkfs_path[SP_PATH_MAX];
	/* the fstab step's lock on <root>/etc/.fstab.lock, taken before the
	 * first write (reserve) and held through that step; the fd is valid
	 * only while have_fstab_lock */
	bool have_fstab_lock;
	int fstab_lock_fd;
	/* every name the disk, its partitions and their filesystems have
	 * before the first write (the fstab step's preflight reads them;
	 * NULL until then): a line naming any is this device's */
	struct sp_fs_names *names;
	/* the steps of this run, in order: the plan's layers between the
	 * partition and the filesystem (pipeline.c) */
	size_t n_steps;
	const struct sp_step *steps[SP_MAX_STEPS];
	/* the key a LUKS2 layer is formatted and opened with (NULL: none
	 * given; apply's preflight refuses a run that needs one) */
	const struct sp_key *key;
	/* tests only (STRIPEPLAN_TEST_FAST_PBKDF): luksFormat with PBKDF2 and
	 * 1000 iterations, not argon2's gigabyte and seconds */
	bool fast_pbkdf;
	/* the plan's own mappings hold the disk (a stack this plan made, open):
	 * no claim, and only the steps above the layers may write */
	bool stack_open;
	/* the LUKS2 step's verify: the header is the plan's, the mapping closed */
	bool luks_closed;
	/* the LVM step's verify: the LV is the plan's but for its read-ahead,
	 * which lvchange sets on an open stack without closing anything */
	bool lv_read_ahead_only;
	/* the LUKS2 step's verify: the UUID of the plan's header ("" none yet) */
	char luks_uuid[SP_UUID_MAX];
	/* the programs the layer steps run, by absolute path (their preflights) */
	char cryptsetup_path[SP_PATH_MAX];
	char lvm_path[SP_PATH_MAX];
};

/*
 * verify(): returns 0 and leaves status SP_STEP_UNCHANGED when the system
 * matches the plan; returns 0 with status SP_STEP_DRIFT and one line per
 * difference ("partition 1 starts at 32256 B, not a multiple of the
 * 196608 B stripe width") when it does not; returns -errno with
 * res->error filled when it cannot even look.
 *
 * apply(): called only when verify reported drift (or nothing there).
 * Returns 0 after changing the system (status SP_STEP_DONE), or -errno
 * with res->error filled (exit code SP_ERR_FAILED, message naming the
 * device and what the tool or kernel said).  In dry-run mode it changes
 * nothing and adds one line per action with the exact command/arguments.
 *
 * probe_existing(): optional.  Says whether what is on the device where
 * this step would write is blank (0), or holds something (1, with a
 * description in `what`).  The pipeline refuses to overwrite unless --force.
 *
 * preflight(): optional.  Everything apply() could refuse that can be
 * known before the first step writes (a file it cannot read or merge, a
 * path that leaves --root, a target that is not writable).  The pipeline
 * calls every step's preflight before any apply, so such a refusal comes
 * with the disk untouched.  0, or -errno with res->error filled with the
 * kind it is (sp_step_error: SP_ERR_REFUSED, or SP_ERR_INVALID for the
 * plan's input); the pipeline passes it on as it is.  A dry run runs the
 * same preflights and fails the same way; a preflight never writes.
 *
 * reserve(): optional.  Takes what the step must hold from before the
 * first write until it runs (a lock), keeping it in ctx; called after
 * every preflight and refusal passed, only when the run will write.  Its
 * failure is a refusal like a preflight's; the pipeline lets go of
 * whatever is still held when the run ends (sp_step_fstab_release).
 */
struct sp_step {
	const char *name;
	int (*verify)(struct sp_ctx *ctx, struct sp_step_result *res);
	int (*apply)(struct sp_ctx *ctx, struct sp_step_result *res);
	int (*probe_existing)(struct sp_ctx *ctx, char *what, size_t len);
	int (*preflight)(struct sp_ctx *ctx, struct sp_step_result *res);
	int (*reserve)(struct sp_ctx *ctx, struct sp_step_result *res);
};

extern const struct sp_step sp_step_partition;
extern const struct sp_step sp_step_filesystem;
extern const struct sp_step sp_step_fstab;
extern const struct sp_step sp_step_tuning;
extern const struct sp_step sp_step_luks;
extern const struct sp_step sp_step_lvm;
extern const struct sp_step sp_step_crypttab;

/* The device a layer of the stack is made on: the run's partition node
 * for the bottom layer (the kernel's, see sp_step_partition_resolve),
 * the layer below's node otherwise. */
const char *sp_ctx_layer_below(const struct sp_ctx *ctx, const char *planned_below);

/* ------------------------------------- shared by the layer steps (step-layer.c) */

struct sp_found_layer;

/* What libblkid sees at the start of path (read-only): 0 blank, 1 with
 * type ("crypto_LUKS", "LVM2_member", "xfs"), uuid and what ("an xfs
 * filesystem (UUID ...)"), -errno when path cannot be opened. */
int sp_layer_probe(const char *path, char *type, size_t type_len, char *uuid, size_t uuid_len,
		   char *what, size_t what_len);
/* The header of the layer of blkid type at the start of path (sp_scan_layer). */
int sp_layer_header(const char *path, const char *type, struct sp_found_layer *ret,
		    struct sp_step_result *res);
/* Runs argv (argv[0] an absolute path) with stdin (NULL: /dev/null), its
 * output appended to res->tool_output; a failure (exit status not 0)
 * names the program and the last line it printed.  0 or -errno. */
int sp_layer_run(const struct sp_ctx *ctx, const char *const *argv, const void *stdin_bytes,
		 size_t stdin_len, struct sp_step_result *res);
/* As sp_layer_run, but the exit status is the answer (LVM's "does VG
 * exist": 0 yes, 5 no): >= 0 the status, or -errno. */
int sp_layer_status(const struct sp_ctx *ctx, const char *const *argv, struct sp_step_result *res);
/* probe_existing for a layer on dev: 1 with what (and where) when
 * anything is there; the bottom layer's device is read as the plan's
 * partition range of the disk, made or not. */
int sp_layer_probe_below(const struct sp_ctx *ctx, const char *dev, const char *layer, char *what,
			 size_t len);

/*
 * Opens the partition node the partition step verified or made, checks
 * it is the kernel's partition 1 of the identified disk (st_rdev, disk
 * sequence, the plan's size) and keeps it open in ctx->part_fd, so the
 * filesystem step formats that node and nothing else.
 */
int sp_step_partition_bind(struct sp_ctx *ctx, struct sp_step_result *res);
/* ctx->partition_path becomes the node of the kernel's partition 1 of
 * the disk, when there is one: the plan's name if it is that node, else
 * the kernel's (/dev/loop3p1 for .../by-id/NAME-part1 that no udev made).
 * Unchanged when the kernel has no partition 1 or no node for it. */
void sp_step_partition_resolve(struct sp_ctx *ctx);

/* ------------------------------------------ shared by the step files */

/* Marks res FAILED, fills res->error with the kind the error is (a
 * preflight refuses, SP_ERR_REFUSED, or finds the plan's input wrong,
 * SP_ERR_INVALID) and returns -code. */
int sp_step_error(struct sp_step_result *res, int code, enum sp_error_kind kind, const char *fmt,
		  ...) __attribute__((format(printf, 4, 5)));
/* The step did not do what was asked (SP_ERR_FAILED): most step errors. */
#define sp_step_fail(res, code, ...) sp_step_error(res, code, SP_ERR_FAILED, __VA_ARGS__)
/*
 * The start every apply that writes a device shares: -EINVAL without a
 * plan; in a dry run, dry_run() adds the lines saying what would be done
 * and there is nothing more (0); else 1, go on and write.
 */
int sp_step_apply_begin(const struct sp_ctx *ctx, struct sp_step_result *res,
			int (*dry_run)(const struct sp_ctx *ctx, struct sp_step_result *res));
/*
 * libblkid's safe probe of path (read-only, both chains): 1 with `what`
 * ("an ext4 filesystem (UUID ...)", "a gpt partition table"), 0 when
 * blank, -errno when path cannot be opened.  An ambivalent or failed
 * probe counts as something there.
 */
int sp_step_probe_signature(const char *path, char *what, size_t len);
/* The same for [offset, offset + size) of the run's disk (size 0: to its
 * end), through the identified descriptor when there is one: what lies
 * where a partition will be, whether or not a table points at it. */
int sp_step_probe_range(const struct sp_ctx *ctx, uint64_t offset, uint64_t size, char *what,
			size_t len);
/*
 * What the on-disk readers find where apply writes: a filesystem, intact
 * or damaged (its primary failed a check or is gone and a secondary or
 * backup copy is there), starting anywhere one plausibly starts below
 * end_bytes of the run's disk: byte 0, the plan's start, every start
 * either GPT copy or an msdos label points at, sector 63, sector 2048
 * and 1 MiB multiples up to the plan's start.  An unfinished mkfs.xfs
 * counts as nothing.  1 with ret and the node to repair it on (the
 * kernel's partition starting there, the disk at 0, else a sentence),
 * 0 when nothing is there, -errno when the disk cannot be read.
 */
int sp_step_scan_filesystems(const struct sp_ctx *ctx, uint64_t end_bytes, struct sp_fs_trace *ret,
			     char *node, size_t node_len);
/* Both GPT copies of the run's disk, each judged alone.  0 or -errno. */
int sp_step_read_gpt(const struct sp_ctx *ctx, struct sp_gpt_state *ret);
/* "a damaged xfs filesystem at 1 MiB (its primary superblock: ...);
 * repair: xfs_repair /dev/sdb1" */
void sp_step_describe_trace(const struct sp_fs_trace *t, const char *node, char *buf, size_t len);

/*
 * Erases every signature libblkid finds on path, as `wipefs -a` does,
 * adding one line and one SP_ACTION_WIPE per signature to res; in a dry
 * run, the same walk without writing (sp_step_wipe_dry_run on the whole
 * of the disk the ctx names, which a dry run is always given).  Opens with O_EXCL, so a mounted
 * or otherwise held device is refused, and through sp_ctx_open_checked,
 * so it wipes only the node the run identified (want_rdev).  -errno with res->error filled.
 */
int sp_step_wipe_signatures(const struct sp_ctx *ctx, const char *path, dev_t want_rdev,
			    struct sp_step_result *res);

/*
 * The dry run of a wipe: the same probe-and-wipe walk, libblkid told not
 * to write, over [offset, offset + size) of the run's disk (size 0: to its
 * end), recording each signature under the name path (where apply will
 * wipe it: a partition a dry run has not made yet is its range of the
 * disk).  0 or -errno with res->error filled.
 */
int sp_step_wipe_dry_run(const struct sp_ctx *ctx, const char *path, uint64_t offset,
			 uint64_t size, struct sp_step_result *res);

/*
 * Opens path (flags | O_CLOEXEC) and checks it is the block device the
 * run identified: st_rdev == want_rdev and, when the run knows it, the
 * disk sequence (a partition reports its disk's).  The descriptor or
 * -errno with res->error filled ("'/dev/loop3' is no longer the device
 * apply identified ...").
 */
int sp_ctx_open_checked(const struct sp_ctx *ctx, const char *path, int flags, dev_t want_rdev,
			struct sp_step_result *res);
/* Does the disk fd still name the disk we identified?  0 or -errno with
 * res->error filled; a ctx without a disk fd always passes. */
int sp_ctx_check_disk(const struct sp_ctx *ctx, struct sp_step_result *res);

/* Lets go of what the fstab step's preflight and reserve left in ctx (the
 * names read, the fstab lock); safe to call more than once. */
void sp_step_fstab_release(struct sp_ctx *ctx);

/* The disk and partition node a run works on (the plan's, unless set). */
const char *sp_ctx_disk_path(const struct sp_ctx *ctx);
const char *sp_ctx_partition_path(const struct sp_ctx *ctx);
/* The node the filesystem is on: the top of the plan's stack (an LV, a
 * LUKS2 mapping), else the partition (the whole device with --table none). */
const char *sp_ctx_fs_path(const struct sp_ctx *ctx);

#endif
