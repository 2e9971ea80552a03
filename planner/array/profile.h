/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Controller profiles: what a controller (or md) allows, the knobs the
 * plan sets on it with the measurement each comes from, its warnings
 * and advice.  The set starts from the shipped profiles (embedded at
 * build time) and takes a site's own by their text.
 */
#ifndef STRIPEPLAN_ARRAY_PROFILE_H
#define STRIPEPLAN_ARRAY_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "kernel/knob.h"
#include "raid/raid.h"

struct sp_error;

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

struct sp_profile_warning {
	char code[SP_NAME_MAX];
	unsigned levels_mask; /* bit per enum sp_level index; 0 = always */
	char message[SP_MSG_MAX];
};

/*
 * What the kernel says of a disk that tells this controller: data, so a
 * site's profile can teach stripeplan its own cards.  A PCI row without
 * subsystem ids matches a chip (weaker); one with them, a board.  An
 * INQUIRY model is a prefix (the product field is 16 bytes, and vendors
 * add "Adp", "Mini", "Front").  md_metadata is the superblock format
 * (md facts' "metadata").
 */
struct sp_profile_inquiry {
	char vendor[16];
	char model[32];
};

struct sp_profile_pci {
	char vendor[8], device[8], subvendor[8], subdevice[8];
	char name[SP_NAME_MAX];
};

#define SP_PROFILE_MAX_PROC_NAMES 4U
#define SP_PROFILE_MAX_INQUIRY 8U
#define SP_PROFILE_MAX_PCI 24U
#define SP_PROFILE_MAX_MD_METADATA 8U

struct sp_profile_recognition {
	size_t n_proc_names;
	char proc_names[SP_PROFILE_MAX_PROC_NAMES][SP_NAME_MAX];
	size_t n_inquiry;
	struct sp_profile_inquiry inquiry[SP_PROFILE_MAX_INQUIRY];
	size_t n_pci;
	struct sp_profile_pci pci[SP_PROFILE_MAX_PCI];
	size_t n_md_metadata;
	char md_metadata[SP_PROFILE_MAX_MD_METADATA][SP_NAME_MAX];
	char source[SP_MSG_MAX];
};

#define SP_PROFILE_MAX_KNOBS 16U
#define SP_PROFILE_MAX_MODOPTS 4U
#define SP_PROFILE_MAX_WARNINGS 8U
#define SP_PROFILE_MAX_ADVICE 8U
#define SP_PROFILE_MAX_LEVEL_RULES 8U
#define SP_PROFILE_MAX_STRIPS 24U

struct sp_profile {
	char name[SP_NAME_MAX];
	char description[SP_MSG_MAX];
	char driver[SP_NAME_MAX];
	char device_naming[SP_MSG_MAX];
	char source[SP_MSG_MAX]; /* where the values come from */
	unsigned levels_mask;
	uint64_t chunk_min_bytes, chunk_max_bytes;
	unsigned max_disks;
	char levels_source[SP_MSG_MAX];    /* where levels and max_disks come from */
	/* "strips": the per-disk unit as the controller offers it */
	char strip_name[SP_NAME_MAX];      /* the vendor's word: "stripe element", "strip" */
	size_t n_strip_sizes;              /* 0: every power of two in chunk_min..chunk_max */
	uint64_t strip_sizes_bytes[SP_PROFILE_MAX_STRIPS];
	uint64_t default_strip_bytes;      /* 0: not documented */
	char strips_source[SP_MSG_MAX];
	/* "spans": RAID50/60 (and a controller's spanned RAID10) */
	unsigned spans_min;                /* 0: 2 */
	unsigned spans_max;                /* 0: no documented maximum */
	unsigned span_disks_max;           /* 0: no documented maximum */
	char spans_source[SP_MSG_MAX];
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
	struct sp_profile_recognition recognition;
};

/* The profile's rule for a level, else the hardware rule. */
const struct sp_level_rule *sp_profile_level_rule(const struct sp_profile *profile,
						  enum sp_level level);
/* The controller offers a strip of bytes: one of its list, else a power of
 * two in chunk_min..chunk_max. */
bool sp_profile_offers_strip(const struct sp_profile *profile, uint64_t bytes);

struct sp_profile_set;

/* A set of the profiles stripeplan ships (planner/profiles/, embedded at
 * build time). */
int sp_profiles_embedded(struct sp_profile_set **ret, struct sp_error *err);
/* Adds the profile that text holds (origin names it in messages); one
 * named as a profile of the set replaces it, so a site's own file
 * overrides a shipped profile.  -ENOSPC past 64 profiles. */
int sp_profiles_add(struct sp_profile_set *set, const char *text, const char *origin,
		    struct sp_error *err);
struct sp_profile_set *sp_profiles_free(struct sp_profile_set *set);
size_t sp_profiles_count(const struct sp_profile_set *set);
const struct sp_profile *sp_profiles_get(const struct sp_profile_set *set, size_t i);
const struct sp_profile *sp_profiles_find(const struct sp_profile_set *set, const char *name);
/* "dell-perc5e, dell-perc6i, ..." */
void sp_profiles_names(const struct sp_profile_set *set, char *buf, size_t len);

#endif
