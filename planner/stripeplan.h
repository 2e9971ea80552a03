/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libstripeplan: the public face of the planner.
 *
 * Data flows one way: spec (what the user asked) + facts (what the device
 * is) -> plan (pure computation) -> steps (apply/verify) -> report.
 *
 * Library functions return 0 or -errno and describe failures in a
 * struct sp_error; they never print and never exit.  Out-parameters are
 * written only on success.  Units are part of every name.
 */
#ifndef STRIPEPLAN_H
#define STRIPEPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base.h"
#include "knob.h"

#define SP_KIB 1024ULL
#define SP_MIB (1024ULL * 1024ULL)
#define SP_GIB (1024ULL * 1024ULL * 1024ULL)
#define SP_TIB (1024ULL * SP_GIB)

/* The filesystem block every plan uses (mkfs.xfs's and mke2fs's default
 * on large filesystems, the page size of the machines stripeplan runs
 * on): strides, stripe units and AG sizes are whole blocks of it. */
#define SP_FS_BLOCK_BYTES 4096U

#define SP_NAME_MAX 64
#define SP_PATH_MAX 4096
#define SP_MSG_MAX 512
#define SP_MAX_DISKS 1024U
/*
 * The largest chunk (stripe unit) stripeplan plans, wherever one is read
 * (--chunk, a profile's chunk_max, md facts, a plan file): 1 GiB, the
 * largest power of two that md's chunk (md/chunk_size, an int of bytes)
 * and XFS's stripe unit (su x sw must stay below 2^31 bytes) can hold.
 * Controllers stop far below it (1 MiB).
 */
#define SP_CHUNK_MAX_BYTES (1ULL << 30)
#define SP_MAX_MEMBERS 64U
#define SP_MAX_TUNING 128U
#define SP_MAX_WARNINGS 48U
#define SP_MAX_ARGV 24U
#define SP_MAX_OPTIONS 16U

/* Exit codes shared by every command (stripeplan(8), EXIT STATUS). */
enum sp_exit {
	SP_EXIT_OK = 0,
	SP_EXIT_DRIFT = 1,
	SP_EXIT_INVALID = 2,
	SP_EXIT_REFUSED = 3,
	SP_EXIT_FAILED = 4,
};

/* What went wrong, in the terms the exit code is decided from (one place:
 * sp_error_exit_code()).  Zero is FAILED, so an error nobody classified
 * is a failure, never a success. */
enum sp_error_kind {
	SP_ERR_FAILED = 0, /* the system did not do what was asked */
	SP_ERR_INVALID,    /* the input is wrong: nothing was attempted */
	SP_ERR_REFUSED,    /* safety: the device was not touched */
};

/*
 * Every failure carries what was said: the message names the input, knob,
 * device or file at fault ("chunk: '3K' is not a power of two", "cannot
 * open '/dev/sdb': ..."), and is the CLI's one line.
 */
struct sp_error {
	int code;               /* -errno */
	enum sp_error_kind kind; /* decides the exit code */
	char message[SP_MSG_MAX];
};

void sp_error_clear(struct sp_error *err);
/* The exit code for err: the only place a kind becomes an enum sp_exit. */
int sp_error_exit_code(const struct sp_error *err);
/* Fills err (when non-NULL) and returns -code, so callers can
 * `return sp_error_set(err, EINVAL, SP_ERR_INVALID, "chunk: ...")`.
 * code is an errno (> 0, asserted): a caller holding r = -errno from a
 * callee passes -r, and a wrapper that adds words keeps the callee's code. */
int sp_error_set(struct sp_error *err, int code, enum sp_error_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* ---------------------------------------------------------------- units */

/*
 * Parses a size with a binary suffix: plain bytes, "B", K/KiB, M/MiB, G/GiB,
 * T/TiB, P/PiB (case-insensitive single letters).  Decimal suffixes such
 * as "kB" or "MB" are rejected because parted and friends read them as
 * powers of 1000.  Rejects signs, fractions, trailing junk and overflow.
 */
int sp_parse_size(const char *text, const char *field, uint64_t *ret_bytes,
		  struct sp_error *err);
/* Parses a decimal count within [min, max]. */
int sp_parse_count(const char *text, const char *field, uint64_t min, uint64_t max,
		   uint64_t *ret_value, struct sp_error *err);
/* The one size formatter, in three spellings; returns buf. */
enum sp_size_style {
	SP_SIZE_HUMAN, /* "256 KiB", "1.75 MiB", "2.18 TiB": for people (truncated, never overstated) */
	SP_SIZE_SHORT, /* "256K", "1M", "1792K", "33553920": what mkfs tools and our flags take */
	SP_SIZE_MKFS,  /* "256k": mkfs.xfs's documented spelling */
};
#define SP_SIZE_MAX 32U
const char *sp_format_size(uint64_t bytes, enum sp_size_style style, char *buf, size_t len);
/* The same into a buffer that lives until the end of the enclosing block,
 * for a printf argument: printf("%s", SP_SIZE_TEXT(bytes, SP_SIZE_HUMAN)). */
#define SP_SIZE_TEXT(bytes, style)                                                          \
	sp_format_size((bytes), (style), (char[SP_SIZE_MAX]){ 0 }, SP_SIZE_MAX)

bool sp_is_power_of_two(uint64_t v);
uint64_t sp_gcd(uint64_t a, uint64_t b);
/* lcm; returns -EOVERFLOW when it does not fit. */
int sp_lcm(uint64_t a, uint64_t b, uint64_t *ret);
int sp_mul_overflows(uint64_t a, uint64_t b, uint64_t *ret);

/* ----------------------------------------------------------------- raid */

enum sp_level {
	SP_LEVEL_0 = 0,
	SP_LEVEL_1 = 1,
	SP_LEVEL_5 = 5,
	SP_LEVEL_6 = 6,
	SP_LEVEL_10 = 10,
	SP_LEVEL_50 = 50,
	SP_LEVEL_60 = 60,
};

/* "raid10"; sp_parse_level also takes "10" and "RAID10" */
SP_STRING_TABLE_DECLARE(sp_level, enum sp_level);
int sp_parse_level(const char *text, enum sp_level *ret_level, struct sp_error *err);
bool sp_level_has_spans(enum sp_level level);
/* Validates disks/spans for the level and returns the data disks. */
int sp_raid_data_disks(enum sp_level level, unsigned disks, unsigned spans,
		       unsigned *ret_data_disks, struct sp_error *err);
/* Parity disks written per stripe: 0, 1 or 2 (per span). */
unsigned sp_level_parity_disks(enum sp_level level);
/* RAID5, 6, 50, 60: parity rotates over the members. */
bool sp_level_has_parity(enum sp_level level);
/* RAID1 (md or a controller's): a mirror has no stripe to align to. */
bool sp_level_is_mirror(enum sp_level level);

/*
 * md RAID10's layout: near copies side by side in a stripe, far copies
 * in distant stripes, or (offset) in the next stripe.  The kernel keeps
 * it as near | far << 8 | offset << 16 in md/layout.  near == 0 is "not
 * given".
 */
struct sp_md_layout {
	unsigned near_copies, far_copies;
	bool offset;
};

#define SP_MD_LAYOUT_NAME_MAX 16U

/* "n2", "f3", "o2" (mdadm's spelling) */
int sp_parse_md_layout(const char *text, struct sp_md_layout *ret, struct sp_error *err);
/* md/layout's number for raid10; -EINVAL when no copies are set */
int sp_md_layout_from_kernel(uint64_t layout, struct sp_md_layout *ret);
/* "n2"; "n2f2" for a mix mdadm does not create */
void sp_md_layout_name(const struct sp_md_layout *l, char *buf, size_t len);
bool sp_md_layout_equal(const struct sp_md_layout *a, const struct sp_md_layout *b);

/*
 * What a controller (or md) allows for one level, from its profile.  A
 * profile without a rule for a level gets the hardware rule: RAID0 and
 * RAID1 need 2 disks, RAID10 an even number of at least 4 in mirrored
 * pairs.
 */
enum sp_stripe_rule {
	SP_STRIPE_PAIRS = 0,     /* hardware RAID10: disks / 2 data disks */
	SP_STRIPE_NEAR_COPIES,   /* md RAID10: disks / near copies when it divides, else disks */
};
SP_STRING_TABLE_DECLARE(sp_stripe_rule, enum sp_stripe_rule); /* "pairs", "near-copies" */

#define SP_PROFILE_MAX_LAYOUTS 8U

struct sp_level_rule {
	enum sp_level level;
	unsigned min_disks;
	bool even_disks;
	enum sp_stripe_rule stripe;
	size_t n_layouts;                    /* 0: the level takes no layout */
	struct sp_md_layout layouts[SP_PROFILE_MAX_LAYOUTS]; /* [0] is the default */
};

/* The hardware rule for a level (never NULL for a known level). */
const struct sp_level_rule *sp_level_default_rule(enum sp_level level);
/*
 * Data disks with a profile's rule (NULL: the hardware rule).  For md
 * RAID10 this is the number of chunks the kernel puts in its optimal
 * I/O size (raid10.c): disks / near copies when that divides, else disks.
 */
int sp_raid_data_disks_rule(const struct sp_level_rule *rule, enum sp_level level,
			    unsigned disks, unsigned spans, const struct sp_md_layout *layout,
			    unsigned *ret_data_disks, struct sp_error *err);

/* --------------------------------------------------------------- kernel */

/* Whose kernel a release string names: the vendors backport, so the
 * version number alone misleads (RHEL 8's 4.18 is blk-mq only). */
enum sp_kernel_family {
	SP_KERNEL_MAINLINE = 0, /* "6.1", "6.1.0": kernel.org */
	SP_KERNEL_DEBIAN,       /* "6.1.0-13-amd64" */
	SP_KERNEL_UBUNTU,       /* "5.15.0-91-generic", HWE "6.8.0-45-generic" */
	SP_KERNEL_FEDORA,       /* "6.5.6-300.fc39.x86_64" */
	SP_KERNEL_RHEL,         /* RHEL, CentOS, Rocky, Alma, Oracle RHCK: ".el7", ".el8", ".el9" */
	SP_KERNEL_SLES,         /* "5.14.21-150500.55.19-default" */
	SP_KERNEL_UNKNOWN,      /* a suffix stripeplan does not know: judged by its version */
};

struct sp_kernel {
	unsigned major, minor, patch;
	char release[SP_NAME_MAX];
	enum sp_kernel_family family;
	unsigned vendor_major; /* RHEL 7, 8, 9; SLES 12, 15; 0 otherwise */
	char vendor[32];       /* "el8", "SLES 15", "Ubuntu", ... for messages */
};

int sp_parse_kernel(const char *release, struct sp_kernel *ret, struct sp_error *err);
int sp_kernel_cmp(const struct sp_kernel *k, unsigned major, unsigned minor);
/* No single-queue schedulers (noop, deadline, cfq): mainline >= 5.0,
 * RHEL >= 8, SLES >= 15 (scsi-mq on by default). */
bool sp_kernel_is_blk_mq_only(const struct sp_kernel *k);

enum sp_xfs_barrier_opts {
	SP_XFS_BARRIER_EFFECTIVE = 0, /* before 4.10: nobarrier turns flushes off */
	SP_XFS_BARRIER_IGNORED,       /* 4.10 - 4.18 (and RHEL 8): accepted, ignored, logged */
	SP_XFS_BARRIER_REJECTED,      /* 4.19 on: "unknown mount option", mount fails */
};
enum sp_xfs_barrier_opts sp_kernel_xfs_barrier_opts(const struct sp_kernel *k);
/* systemd's x-systemd.* mount options: the distributions whose kernels
 * are 3.10 or later boot systemd; RHEL 6 (2.6.32) and older do not. */
bool sp_kernel_has_systemd(const struct sp_kernel *k);
/*
 * Translates a scheduler name from any era ("noop", "deadline", "cfq",
 * "none", "mq-deadline", "bfq", "kyber") into the name the given kernel
 * uses.  Returns NULL for unknown names and for names the kernel lacks.
 */
const char *sp_kernel_scheduler_name(const struct sp_kernel *k, const char *wanted);
/* The other spellings of the same scheduler ("deadline" -> "mq-deadline"),
 * to find it in a list the running kernel offers; NULL when unknown. */
const char *sp_kernel_scheduler_alias(const char *name);
/* Parses queue/scheduler ("[mq-deadline] kyber bfq none") into names. */
size_t sp_parse_scheduler_list(const char *text, char (*names)[16], size_t max);

/* ------------------------------------------------------------- profiles */

enum sp_knob_target {
	SP_TARGET_DEVICE = 0, /* the array's block device (LUN or md) */
	SP_TARGET_MEMBERS,    /* each md member disk */
};
SP_STRING_TABLE_DECLARE(sp_knob_target, enum sp_knob_target); /* "device", "members" */

/*
 * A knob carries the measurement it comes from (why), where that holds
 * (holds: kernels, hardware) and whether the default tuning sets it
 * (on_by_default); the others belong to the field report's full recipe
 * (--tuning field-report).  A field-report knob replaces a default one on
 * the same target and attribute.
 */
struct sp_profile_knob {
	enum sp_knob_target target;
	char knob[SP_NAME_MAX]; /* relative sysfs path: "queue/read_ahead_kb" */
	struct sp_value value;  /* a number, or auto (md/stripe_cache_size: sized by the planner) */
	unsigned levels_mask; /* 0 = every level */
	char why[SP_MSG_MAX];
	char holds[SP_MSG_MAX];
	bool on_by_default;
};

struct sp_profile_module_option {
	char module[SP_NAME_MAX];
	char param[SP_NAME_MAX];
	struct sp_value value;          /* a number, or a word of [a-z0-9,] */
	struct sp_value driver_default; /* unset: unknown; equal to value: nothing to write */
	char why[SP_MSG_MAX];
	char holds[SP_MSG_MAX];
};

enum sp_tuning_recipe {
	SP_TUNING_DEFAULT = 0,  /* what is right on current kernels and disks */
	SP_TUNING_FIELD_REPORT, /* the seed report's whole recipe, as measured then */
};

SP_STRING_TABLE_DECLARE(sp_tuning_recipe, enum sp_tuning_recipe); /* "default", "field-report" */
int sp_parse_tuning_recipe(const char *text, enum sp_tuning_recipe *ret, struct sp_error *err);

/* What the filesystem mostly does: one default cannot serve all (XFS's
 * log buffers and stripe unit, bench/run --parts log) */
enum sp_workload {
	SP_WORKLOAD_GENERAL = 0, /* data, fsync'd files included */
	SP_WORKLOAD_METADATA,    /* many small files made and removed, no fsync */
	SP_WORKLOAD_SMALL_SYNC,  /* many small files, each fsynced: no XFS stripe unit */
};

SP_STRING_TABLE_DECLARE(sp_workload, enum sp_workload); /* "general", "metadata", "small-sync" */
int sp_parse_workload(const char *text, enum sp_workload *ret, struct sp_error *err);
/* whether XFS gets the array's stripe unit under this workload: only
 * general; the small-file workloads pay for it and gain nothing */
bool sp_workload_xfs_stripe(enum sp_workload w);

struct sp_profile_warning {
	char code[SP_NAME_MAX];
	unsigned levels_mask; /* bit per enum sp_level index; 0 = always */
	char message[SP_MSG_MAX];
};

#define SP_PROFILE_MAX_KNOBS 16U
#define SP_PROFILE_MAX_MODOPTS 4U
#define SP_PROFILE_MAX_WARNINGS 8U
#define SP_PROFILE_MAX_ADVICE 8U
#define SP_PROFILE_MAX_LEVEL_RULES 8U

struct sp_profile {
	char name[SP_NAME_MAX];
	char description[SP_MSG_MAX];
	char driver[SP_NAME_MAX];
	char device_naming[SP_MSG_MAX];
	char source[SP_MSG_MAX]; /* where the values come from */
	unsigned levels_mask;
	uint64_t chunk_min_bytes, chunk_max_bytes;
	unsigned max_disks;
	bool protected_write_cache;
	bool is_md;
	char scheduler[SP_NAME_MAX]; /* era-neutral; translated per kernel */
	char scheduler_why[SP_MSG_MAX];
	char member_scheduler[SP_NAME_MAX];
	size_t n_knobs;
	struct sp_profile_knob knobs[SP_PROFILE_MAX_KNOBS];
	size_t n_module_options;
	struct sp_profile_module_option module_options[SP_PROFILE_MAX_MODOPTS];
	size_t n_warnings;
	struct sp_profile_warning warnings[SP_PROFILE_MAX_WARNINGS];
	size_t n_advice;
	char advice[SP_PROFILE_MAX_ADVICE][SP_MSG_MAX];
	size_t n_level_rules;
	struct sp_level_rule level_rules[SP_PROFILE_MAX_LEVEL_RULES];
};

/* The profile's rule for a level, else the hardware rule. */
const struct sp_level_rule *sp_profile_level_rule(const struct sp_profile *profile,
						  enum sp_level level);

unsigned sp_level_bit(enum sp_level level);

struct sp_profile_set;

/* A set of the profiles stripeplan ships (planner/profiles/, embedded at
 * build time). */
int sp_profiles_embedded(struct sp_profile_set **ret, struct sp_error *err);
/* Adds the profile that text holds (origin names it in messages); one
 * named as a profile of the set replaces it, so a site's own file
 * overrides a shipped profile.  -ENOSPC past 64 profiles. */
int sp_profiles_add(struct sp_profile_set *set, const char *text, const char *origin,
		    struct sp_error *err);
/* Parses one profile from JSON text. */
int sp_profile_parse(const char *json_text, const char *origin, struct sp_profile *ret,
		     struct sp_error *err);
struct sp_profile_set *sp_profiles_free(struct sp_profile_set *set);
size_t sp_profiles_count(const struct sp_profile_set *set);
const struct sp_profile *sp_profiles_get(const struct sp_profile_set *set, size_t i);
const struct sp_profile *sp_profiles_find(const struct sp_profile_set *set, const char *name);
/* "dell-perc5e, dell-perc6i, ..." */
void sp_profiles_names(const struct sp_profile_set *set, char *buf, size_t len);

/* ---------------------------------------------------------------- facts */

/* An md member as sysfs shows it in slaves/. */
struct sp_md_member {
	char name[SP_NAME_MAX];   /* "sdb1": what md holds */
	char disk[SP_NAME_MAX];   /* "sdb": the whole disk with the queue (= name for a disk) */
	char wwn[SP_NAME_MAX];    /* the disk's wwid attribute, "" unknown */
	char serial[SP_NAME_MAX]; /* the disk's serial attribute, "" unknown */
	bool has_queue_depth;     /* device/queue_depth exists (SCSI disks only) */
};

#define SP_MD_UUID_MAX 40U

/*
 * What the kernel says about an md array (/sys/block/mdN/md/ and
 * slaves/).  `present` is false for anything that is not a probed md
 * array.  The uuid is spelled as udev's MD_UUID (mdadm --detail
 * --export): four groups of eight hex digits separated by ':'.
 */
struct sp_md_facts {
	bool present;
	char level[16];           /* md/level: "raid5", "raid10", "linear" ... */
	unsigned raid_disks;
	uint64_t chunk_bytes;     /* 0 for raid1 */
	uint64_t layout;          /* md/layout as a number */
	char sync_action[16];     /* "idle", "resync", "recover", "check", "" unknown */
	unsigned degraded;        /* md/degraded: members missing */
	char uuid[SP_MD_UUID_MAX];
	size_t n_members;
	struct sp_md_member members[SP_MAX_MEMBERS];
};

/* md/level -> level; -EINVAL (exit 2, message naming the array) when
 * stripeplan does not plan that personality (linear, raid4, multipath). */
int sp_md_level(const struct sp_md_facts *md, const char *array, enum sp_level *ret,
		struct sp_error *err);

/* The "md" object of a facts file or a plan's device (read by the facts
 * table, planner/md.c): NULL when md->present is false. */
struct json_object;
struct json_object *sp_md_facts_to_json(const struct sp_md_facts *md);

/*
 * What a block device is, as read (read-only) from the kernel.  For an
 * offline plan the CLI fills path, size and sector sizes from flags and
 * sets `offline`.
 */
struct sp_facts {
	char path[SP_PATH_MAX];
	char kernel_name[SP_NAME_MAX]; /* "sdb", "loop0", "cciss!c0d0" */
	bool offline;
	uint64_t size_bytes;
	unsigned logical_sector_bytes;
	unsigned physical_sector_bytes;
	uint64_t min_io_bytes;
	uint64_t optimal_io_bytes;
	int64_t alignment_offset_bytes;
	int rotational;     /* -1 unknown */
	int read_only;      /* -1 unknown */
	unsigned major, minor;
	uint64_t diskseq;   /* 0 unknown */
	char wwn[SP_NAME_MAX];
	char serial[SP_NAME_MAX];
	char driver[SP_NAME_MAX];
	bool is_scsi;
	bool is_partition;
	/* queue/scheduler as the running kernel offers it ("[none] mq-deadline");
	 * none for md, partitions, offline plans */
	size_t n_schedulers;
	char schedulers[8][16];
	struct sp_md_facts md;
};

/*
 * Facts from a JSON file's text instead of a device, so planning is
 * testable without root: the same field names as the plan's "device"
 * object; origin names the file in messages.
 */
int sp_facts_from_json(const char *text, const char *origin, struct sp_facts *ret,
		       struct sp_error *err);

/* Derives the kernel's name from a /dev path without touching it:
 * /dev/sdb -> sdb, /dev/cciss/c0d0 -> cciss!c0d0. */
int sp_kernel_name_from_path(const char *path, char *buf, size_t len, struct sp_error *err);
/* A kernel block device name that may become a sysfs path and a udev
 * match: [a-z0-9!_-]+ ("sdb", "cciss!c0d0", "nvme0n1"). */
bool sp_block_name_ok(const char *name);
/* /dev/sdb -> /dev/sdb1, /dev/loop0 -> /dev/loop0p1, /dev/nvme0n1 -> /dev/nvme0n1p1 */
int sp_partition_path(const char *disk_path, unsigned number, char *buf, size_t len);

/* ------------------------------------------------------------------ xfs */

#define SP_XFS_MIN_FS_BYTES (300ULL * SP_MIB) /* mkfs.xfs >= 5.19 refuses smaller */

/* The allocation groups a plan gives mkfs.xfs (xfs-geometry.c). */
struct sp_xfs_ag {
	uint64_t agsize_bytes;      /* 0: mkfs.xfs's own choice holds, it is left to mkfs */
	uint64_t mkfs_agsize_bytes; /* what mkfs.xfs chooses, when agsize_bytes is 0 */
	unsigned agcount;
	uint64_t units_per_ag;      /* agsize in stripes (parity) or stripe units */
	unsigned rotation_period;   /* disks per parity set (parity rotates with it); 0 = none */
	unsigned header_positions;  /* members the AG starts rotate over (parity) */
};

/*
 * Chooses AGs that mkfs.xfs accepts for a data section of fs_bytes.
 * Parity RAID (rotation_period = disks per parity set): AGs of whole
 * stripes, so swalloc keeps full-stripe writes, and a number of stripes per
 * AG that is not a multiple of the period (coprime when one is near), so
 * AG headers do not all start on one member.  Otherwise mkfs.xfs's own
 * geometry, unless it would not hold the log.  -ENOSPC when no geometry
 * does (below 300 MiB, or stripes too large for two AGs).
 */
int sp_xfs_plan_ag(uint64_t fs_bytes, uint64_t su_bytes, unsigned sw, uint64_t stripe_bytes,
		   unsigned rotation_period, struct sp_xfs_ag *ret, struct sp_error *err);
/* The AG size mkfs.xfs 6.1 chooses on its own for a data section of
 * fs_bytes with 4 KiB blocks and this stripe unit and width (0: none):
 * where an XFS made without -d agsize has its secondary superblocks. */
uint64_t sp_xfs_mkfs_agsize_bytes(uint64_t fs_bytes, uint64_t su_bytes, unsigned sw);

/* ----------------------------------------------------------------- spec */

enum sp_fs {
	SP_FS_XFS = 0,
	SP_FS_EXT3,
	SP_FS_EXT4,
};

enum sp_table {
	SP_TABLE_GPT = 0,
	SP_TABLE_MSDOS,
	SP_TABLE_NONE, /* the filesystem on the whole device (md arrays) */
};

enum sp_barriers {
	SP_BARRIERS_DEFAULT = 0, /* leave the kernel's default (on) */
	SP_BARRIERS_OFF,         /* asked for; granted only when safe and accepted */
};

SP_STRING_TABLE_DECLARE(sp_fs, enum sp_fs);
int sp_parse_fs(const char *text, enum sp_fs *ret, struct sp_error *err);
/* The one program that makes fs: "mkfs.xfs", "mke2fs".  A plan's mkfs argv
 * must start with it (the planner writes it, the loader and the
 * filesystem step refuse anything else). */
const char *sp_mkfs_tool(enum sp_fs fs);
SP_STRING_TABLE_DECLARE(sp_table, enum sp_table);
/* also "dos" and "mbr", as sfdisk and fdisk users say */
int sp_parse_table(const char *text, enum sp_table *ret, struct sp_error *err);

/* The parts of a spec the user may leave out (struct sp_spec.omitted). */
enum sp_spec_field {
	SP_FIELD_LEVEL = 1U << 0,
	SP_FIELD_DISKS = 1U << 1,
	SP_FIELD_CHUNK = 1U << 2,
	SP_FIELD_TABLE = 1U << 3,
};

/* Where a planned value came from. */
enum sp_source {
	SP_SOURCE_DECLARED = 0, /* a flag or a plan file */
	SP_SOURCE_KERNEL,       /* the probed md array */
	SP_SOURCE_DEFAULT,      /* the profile's default */
	SP_SOURCE_NONE,         /* does not apply (a mirror's chunk) */
};

SP_STRING_TABLE_DECLARE(sp_source, enum sp_source); /* "declared", "kernel", ... */

/* What the user asked for, bounded but not yet reasoned about. */
struct sp_spec {
	char controller[SP_NAME_MAX];
	enum sp_level level;
	unsigned disks;
	unsigned spans; /* 0 = not given */
	uint64_t chunk_bytes;
	enum sp_fs fs;
	enum sp_table table;
	enum sp_barriers barriers;
	char mountpoint[SP_PATH_MAX]; /* "" = none */
	bool force_mountpoint;        /* accept a system directory as the mount point */
	char label[SP_NAME_MAX];      /* "" = none */
	struct sp_kernel kernel;
	bool kernel_is_running; /* kernel is uname -r: probed facts tell what it offers */
	enum sp_tuning_recipe tuning_recipe;
	enum sp_workload workload;
	uint64_t memory_budget_bytes; /* for md's stripe cache; 0 = SP_MEMORY_BUDGET_DEFAULT */
	size_t n_members;
	char members[SP_MAX_MEMBERS][SP_NAME_MAX]; /* md member kernel names */
	struct sp_md_layout layout; /* md raid10; near_copies 0 = not given */
	unsigned omitted;           /* SP_FIELD_*: not given, take them from the kernel */
};

/* ----------------------------------------------------------------- plan */

enum sp_tuning_kind {
	SP_TUNING_SYSFS = 0, /* /sys/block/<device>/<attribute>, set live and at boot */
	SP_TUNING_MODULE,    /* /sys/module/<device>/parameters/<attribute>: modprobe.d */
};

/* One knob.  Its sysfs path is derived (sp_tuning_path), never stored. */
struct sp_tuning {
	enum sp_tuning_kind kind;
	char device[SP_NAME_MAX];        /* kernel name "sdb", "cciss!c0d0"; or the module */
	char attribute[2 * SP_NAME_MAX]; /* "queue/read_ahead_kb"; or the module parameter */
	struct sp_value value;           /* a number, a scheduler, or a module parameter's word */
	char why[SP_MSG_MAX];
};

/* A profile knob the plan does not set, and why (the text plan lists them). */
struct sp_left_out {
	char what[2 * SP_NAME_MAX]; /* "md/sync_speed_min = 30000", "options megaraid_mbox max_sectors=128" */
	char why[SP_MSG_MAX];       /* the measurement it comes from */
	char reason[SP_MSG_MAX];    /* why the plan leaves it out, and how to have it */
};

/* one for each knob and module option of a profile, at most */
#define SP_MAX_LEFT_OUT (SP_PROFILE_MAX_KNOBS + SP_PROFILE_MAX_MODOPTS)
#define SP_MEMORY_BUDGET_DEFAULT (256ULL * SP_MIB)
#define SP_MEMORY_BUDGET_MIN SP_MIB
#define SP_MEMORY_BUDGET_MAX (64ULL * SP_GIB)

struct sp_warning {
	char code[SP_NAME_MAX];
	char message[SP_MSG_MAX];
};

struct sp_plan {
	/* array */
	char controller[SP_NAME_MAX];
	enum sp_level level;
	unsigned disks, spans, data_disks;
	uint64_t chunk_bytes;        /* 0 for a mirror */
	uint64_t stripe_width_bytes; /* 0 for a mirror: it has no stripe */
	struct sp_md_layout layout;  /* md raid10 only */
	/* where level, disks, chunk, layout, members and table came from */
	enum sp_source level_source, disks_source, chunk_source, layout_source,
		members_source, table_source;
	/* the member disks tuned (whole disks, each once) */
	size_t n_members;
	char members[SP_MAX_MEMBERS][SP_NAME_MAX];

	struct sp_facts device;

	/* partition */
	enum sp_table table;
	uint64_t align_bytes;     /* lcm the start is a multiple of */
	uint64_t start_bytes;
	uint64_t size_bytes;
	uint64_t reserved_tail_bytes; /* GPT backup header and entries */
	char partition_path[SP_PATH_MAX];

	/* filesystem */
	enum sp_fs fs;
	char label[SP_NAME_MAX];      /* "" = none */
	unsigned block_bytes;
	uint64_t xfs_su_bytes;
	unsigned xfs_sw;
	uint64_t xfs_log_su_bytes;
	uint64_t xfs_agsize_bytes;  /* 0 = mkfs.xfs chooses; parity RAID: whole stripes */
	struct sp_xfs_ag xfs_ag;    /* how it was chosen (not in the plan file) */
	unsigned ext_stride_blocks;
	unsigned ext_stripe_width_blocks;
	size_t n_mkfs_argv;
	char mkfs_argv[SP_MAX_ARGV][SP_PATH_MAX / 16];

	/* mount */
	char mountpoint[SP_PATH_MAX]; /* "" = none */
	size_t n_mount_options;
	char mount_options[SP_MAX_OPTIONS][SP_NAME_MAX];
	char fstab_line[SP_PATH_MAX + 512];

	/* tuning */
	size_t n_tuning;
	struct sp_tuning tuning[SP_MAX_TUNING];
	uint64_t md_stripe_cache_bytes; /* memory cost, 0 when not md */
	enum sp_tuning_recipe tuning_recipe;
	enum sp_workload workload;
	uint64_t memory_budget_bytes;
	size_t n_left_out;
	struct sp_left_out left_out[SP_MAX_LEFT_OUT];

	/* advice for settings stripeplan cannot set (controller BIOS) */
	size_t n_advice;
	char advice[SP_PROFILE_MAX_ADVICE][SP_MSG_MAX];

	struct sp_kernel kernel; /* the release it is for, read once (sp_parse_kernel) */
	size_t n_warnings;
	struct sp_warning warnings[SP_MAX_WARNINGS];
	size_t n_warnings_dropped; /* past the last, which says "... and N more warnings" */
};

#define SP_FSTAB_UUID_PLACEHOLDER "@FS_UUID@"

/*
 * The planner: pure, no I/O.  Returns -EINVAL with err->kind set to
 * SP_ERR_INVALID for impossible requests.
 */
int sp_plan_make(const struct sp_spec *spec, const struct sp_profile *profile,
		 const struct sp_facts *facts, struct sp_plan *ret, struct sp_error *err);

/*
 * Mount points (planner/mountpoint.c).  sp_path_normalize() writes the
 * canonical spelling of an absolute path: repeated slashes, "." and a
 * trailing slash dropped ("/./data//" is "/data"); -EINVAL for a relative
 * path, -EXDEV for a ".." component (never resolved: it would leave the
 * directory meant), -ENAMETOOLONG.
 * sp_mountpoint_check() normalizes a mount point into out and refuses
 * (SP_ERR_INVALID) control characters, "/" in any spelling, and, unless
 * force, the directories of the operating system and every path in the
 * trees it owns (/usr/..., /etc/..., /boot/..., /var/lib/..., below the
 * kernel filesystems; the table in mountpoint.c says which and why).
 */
int sp_path_normalize(const char *in, char *out, size_t len);
int sp_mountpoint_check(const char *in, bool force, char *out, size_t len, struct sp_error *err);
/* Why a normalized mount point belongs to the system, or NULL. */
const char *sp_mountpoint_system_use(const char *normalized);

/* Escapes a path for fstab (space \040, tab \011, backslash \134);
 * control characters are rejected. */
int sp_fstab_escape(const char *in, char *out, size_t len, struct sp_error *err);
/* "UUID=@FS_UUID@ /data xfs OPTIONS 0 PASSNO": the line a plan owns, the
 * mount point escaped; -ENAMETOOLONG (SP_ERR_INVALID) when it is longer
 * than len. */
int sp_fstab_line_make(const char *mountpoint, const char *fstype, const char *options,
		       int passno, char *buf, size_t len, struct sp_error *err);

void sp_plan_add_warning(struct sp_plan *plan, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ------------------------------------------------------------ plan file */

#define SP_PLAN_FORMAT_VERSION 1

/* Loads a plan written by sp_format_plan_json (apply --plan FILE).  The
 * loader is strict: a missing or mistyped field is an error naming it. */
int sp_plan_from_json(const char *text, struct sp_plan *ret, struct sp_error *err);
/* The plan as the JSON object a plan file holds (NULL: out of memory);
 * sp_format_plan_json() prints it. */
struct json_object *sp_plan_to_json(const struct sp_plan *plan);

/*
 * A plan read from a file is untrusted: nothing in it is executed as it
 * is written.  The request it answers (controller, level, disks, spans,
 * chunk, fs, label, table, barriers, mount point, kernel, members) is
 * taken from its fields and planned again for the file's own device
 * facts; the file is accepted only when it is exactly that plan, every
 * executable part compared (mkfs argv, tuning, mount options, fstab
 * line, geometry).  *ret is the plan made here.  -EINVAL with err
 * naming the first field that differs (exit SP_ERR_INVALID).
 * force_mountpoint is the caller's --force, never the file's: a file
 * cannot grant itself a system directory as its mount point.
 */
int sp_plan_replan(const struct sp_plan *file, const struct sp_profile *profile,
		   bool force_mountpoint, struct sp_plan *ret, struct sp_error *err);
/* The request a plan answers, as sp_plan_replan reads it. */
int sp_plan_spec(const struct sp_plan *plan, struct sp_spec *ret, struct sp_error *err);

#endif
