/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plan: spec + profile + facts -> every number and command line
 * apply needs (plan.c runs the stages; plan-internal.h names them), and
 * the replan check of a plan file (replan.c).  Pure: no I/O.
 */
#ifndef STRIPEPLAN_PLAN_PLAN_H
#define STRIPEPLAN_PLAN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array/facts.h"
#include "array/profile.h"
#include "base/base.h"
#include "base/units.h"
#include "kernel/kernel.h"
#include "kernel/knob.h"
#include "raid/raid.h"
#include "spec.h"
#include "xfs-geometry.h"

struct sp_error;

/* The most knobs a plan sets: every knob of a profile on the device and
 * on each of md's members, and every module option.  The planner cannot
 * plan more; a plan file that lists more is refused. */
#define SP_MAX_TUNING ((SP_MAX_MEMBERS + 1) * SP_PROFILE_MAX_KNOBS + SP_PROFILE_MAX_MODOPTS)
/* the most a plan file may list: one a member disk (a scheduler it does
 * not offer) and the plan's own; a plan grows its list as it needs */
#define SP_MAX_WARNINGS (SP_MAX_MEMBERS + 64U)
#define SP_MAX_ARGV 24U
#define SP_MAX_OPTIONS 16U

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

#define SP_MAX_RECOGNISED_BY 4U

/*
 * A LUKS2 volume of the stack (planner/plan/stack.c): where its data
 * starts and in what sectors it encrypts.  The key is no part of a plan:
 * apply reads it from a file or a prompt.
 */
struct sp_luks_plan {
	char name[SP_DM_NAME_MAX]; /* the dm-crypt mapping: /dev/mapper/NAME */
	char path[SP_PATH_MAX];    /* /dev/mapper/NAME */
	char below[SP_PATH_MAX];   /* the device luksFormat writes */
	unsigned sector_bytes;     /* --sector-size */
	uint64_t align_bytes;      /* the data offset is a multiple of it */
	uint64_t offset_bytes;     /* the data offset from the device's start (--offset) */
	uint64_t size_bytes;       /* what the mapping holds */
};

/* lvm2 reads lvcreate -r into 32 bits, UINT32_MAX being 'auto'
 * (DM_READ_AHEAD_AUTO): the most in whole 4 KiB pages below it */
#define SP_LVM_READ_AHEAD_MAX_SECTORS 4294967288U

/* An LVM PV, its VG alone on it and one linear LV over all of it. */
struct sp_lvm_plan {
	char vg[SP_DM_NAME_MAX];
	char lv[SP_DM_NAME_MAX];
	char path[SP_PATH_MAX];          /* /dev/VG/LV */
	char below[SP_PATH_MAX];         /* the device pvcreate writes */
	uint64_t data_alignment_bytes;   /* pvcreate --dataalignment */
	uint64_t pe_start_bytes;         /* where the first extent starts */
	uint64_t extent_bytes;           /* vgcreate -s */
	uint64_t extents;                /* lvcreate -l */
	uint64_t size_bytes;             /* the LV */
	/* lvcreate -r: the device's planned read_ahead_kb in 512-byte
	 * sectors, whole pages as lvm2 keeps it (the filesystem, or the LUKS2
	 * mapping on the LV, reads through its dm device, which otherwise
	 * gets the kernel's 128 KiB); 0: none planned, LVM's auto */
	uint64_t read_ahead_sectors;
};

struct sp_plan {
	/* array */
	char controller[SP_NAME_MAX];
	/* the facts that chose the controller when --controller was not given */
	size_t n_recognised_by;
	char recognised_by[SP_MAX_RECOGNISED_BY][SP_MSG_MAX / 2];
	enum sp_level level;
	unsigned disks, spans, data_disks;
	uint64_t chunk_bytes;        /* 0 for a mirror */
	uint64_t stripe_width_bytes; /* 0 for a mirror: it has no stripe */
	struct sp_md_layout layout;  /* md raid10 only */
	/* where level, disks, chunk, layout, members and table came from */
	enum sp_source level_source, disks_source, chunk_source, layout_source,
		members_source, table_source;
	/* which report said what SP_SOURCE_REPORT marks: "storcli report
	 * vd1.json (VD 1)"; "" for none */
	char geometry_report[SP_PATH_MAX];
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

	/* the stack between the partition and the filesystem, bottom up */
	size_t n_layers;
	enum sp_layer layers[SP_MAX_LAYERS];
	struct sp_luks_plan luks;
	struct sp_lvm_plan lvm;
	/* what the filesystem goes on: the top of the stack, or the partition */
	char fs_path[SP_PATH_MAX];
	uint64_t fs_offset_bytes; /* from the partition's start: the layers' offsets */
	uint64_t fs_size_bytes;

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

	/* tuning: grown as needed (sp_array_room), at most SP_MAX_TUNING; sp_plan_release() */
	size_t n_tuning;
	struct sp_tuning *tuning;
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
	struct sp_warning *warnings; /* grown as needed; sp_plan_release() frees it */
	bool warnings_out_of_memory; /* a warning could not be kept: the plan fails */
};

/*
 * Whether the device's exported queue limits are a stripe a plan can
 * take without --disks and --chunk (0), or why not: no md array, no
 * exported strip and full stripe, or values that cannot be a stripe.
 */
int sp_plan_exported_stripe(const struct sp_facts *f, struct sp_error *err);

/*
 * The planner: pure, no I/O.  Returns -EINVAL with err->kind set to
 * SP_ERR_INVALID for impossible requests.
 */
int sp_plan_make(const struct sp_spec *spec, const struct sp_profile *profile,
		 const struct sp_facts *facts, struct sp_plan *ret, struct sp_error *err);
/*
 * The array's stage alone: level, disks, chunk, stripe and where each
 * came from, with no partition, filesystem or tuning.  For scan, which
 * shows a device's geometry even where no filesystem plan fits it.
 */
int sp_plan_make_geometry(const struct sp_spec *spec, const struct sp_profile *profile,
			  const struct sp_facts *facts, struct sp_plan *ret, struct sp_error *err);

void sp_plan_add_warning(struct sp_plan *plan, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Room for one more knob, zeroed and counted: NULL past SP_MAX_TUNING or
 * out of memory. */
struct sp_tuning *sp_plan_add_tuning(struct sp_plan *plan);
/* The LUKS2 data offset and the LVM data alignment the stack stage plans
 * for this plan's array (stack.c), for check's fixes. */
uint64_t sp_stack_luks_offset_bytes(const struct sp_plan *plan, unsigned sector_bytes);
uint64_t sp_stack_lvm_alignment_bytes(const struct sp_plan *plan);

/* Whether the plan's stack has layer l. */
bool sp_plan_has_layer(const struct sp_plan *plan, enum sp_layer l);

/* Frees what a plan holds (its knobs, its device's md members) and
 * empties that; NULL is fine.  A plan from sp_plan_make(),
 * sp_plan_replan(), sp_plan_from_json() or sp_plan_copy() is released so;
 * each overwrites *ret without releasing what it held. */
void sp_plan_release(struct sp_plan *plan);
/* *dst = *src with knobs and members of its own: 0, or -ENOMEM (*dst
 * then empty of both). */
int sp_plan_copy(struct sp_plan *dst, const struct sp_plan *src);

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
