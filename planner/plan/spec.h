/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the user asked for, and the names users type for its parts. */
#ifndef STRIPEPLAN_PLAN_SPEC_H
#define STRIPEPLAN_PLAN_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array/md.h"
#include "array/report.h"
#include "base/base.h"
#include "kernel/kernel.h"
#include "raid/raid.h"

struct sp_error;

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

/*
 * A layer between the partition (or the whole md device) and the
 * filesystem (--stack, bottom up: "luks,lvm" is LUKS2 on the partition,
 * an LVM PV on the LUKS2 volume, the filesystem on the LV).
 */
enum sp_layer {
	SP_LAYER_LUKS = 0, /* a LUKS2 volume: cryptsetup luksFormat --type luks2 */
	SP_LAYER_LVM,      /* an LVM PV, a VG on it alone and one linear LV */
};

SP_STRING_TABLE_DECLARE(sp_layer, enum sp_layer); /* "luks", "lvm" */
#define SP_MAX_LAYERS 2U
/* LVM's NAME_LEN and device-mapper's DM_NAME_LEN: 127 bytes and a NUL */
#define SP_DM_NAME_MAX 128U
/* "luks,lvm" into layers (bottom up), each at most once; "none" for none */
int sp_parse_stack(const char *text, enum sp_layer *layers, size_t *ret_n, struct sp_error *err);

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
	SP_SOURCE_TOPOLOGY,     /* the device's queue/minimum_io_size and optimal_io_size */
	SP_SOURCE_REPORT,       /* the controller's own report (--controller-report) */
	SP_SOURCE_ASSUMED,      /* scan: a stand-in level for a LUN that exports only its stripe */
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
	size_t n_layers;
	enum sp_layer layers[SP_MAX_LAYERS]; /* bottom up */
	char vg_name[SP_DM_NAME_MAX];        /* "" = the default (stack.c) */
	char lv_name[SP_DM_NAME_MAX];
	char luks_name[SP_DM_NAME_MAX];
	unsigned omitted;           /* SP_FIELD_*: not given, take them from the kernel */
	/* scan: level is no one's word but a stand-in for pricing what is
	 * found on a LUN that exports its strip and full stripe and nothing
	 * else; planned only from that topology (array.c) */
	bool level_assumed;
	/* --controller-report: the controller's word on level, disks, spans
	 * and strip where the kernel exports none; report_name says which
	 * report ("storcli report vd1.json") */
	bool have_report;
	struct sp_controller_report report;
	char report_name[SP_PATH_MAX];
};

#endif
