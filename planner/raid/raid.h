/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID levels and what follows from them: data and parity disks, spans,
 * md RAID10's layouts, and the rules a controller (or md) sets for a
 * level.  The member-I/O model (model.h) and a layout's cost (cost.h)
 * build on it; together they are libstripeplan-raid, which the core's
 * audit and the bench link.
 */
#ifndef STRIPEPLAN_RAID_RAID_H
#define STRIPEPLAN_RAID_RAID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

struct sp_error;

/*
 * The most disks an array stripeplan plans may have: the widest any layer
 * it knows builds, md's 1920 (version-1 superblock: two bytes a device
 * after its 256-byte head within 4 KiB, drivers/md/md.c).  A controller's
 * own max_disks row binds lower; more than this is refused, never capped.
 */
#define SP_MAX_DISKS 1920U
/*
 * The largest chunk (stripe unit) stripeplan plans, wherever one is read
 * (--chunk, a profile's chunk_max, md facts, a plan file): 1 GiB, the
 * largest power of two that md's chunk (md/chunk_size, an int of bytes)
 * and XFS's stripe unit (su x sw must stay below 2^31 bytes) can hold.
 * Controllers stop far below it (1 MiB).
 */
#define SP_CHUNK_MAX_BYTES (1ULL << 30)

enum sp_level {
	SP_LEVEL_0 = 0,
	SP_LEVEL_1 = 1,
	SP_LEVEL_4 = 4, /* md only: parity on the last disk, no rotation */
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
/*
 * Parity that rotates from stripe to stripe (RAID5, 6, 50, 60): what
 * whole-stripe XFS allocation groups rely on.  RAID4 keeps parity on its
 * last disk, so every stripe starts on the same disk.
 */
bool sp_level_rotates_parity(enum sp_level level);
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

/* How a level's chunk may be sized. */
enum sp_chunk_rule {
	SP_CHUNK_POWER_OF_TWO = 0, /* controllers, md raid4/5/6/10 (raid5.c setup_conf()) */
	SP_CHUNK_SECTOR_MULTIPLE,  /* md raid0: any multiple of the member block (raid0.c) */
};
SP_STRING_TABLE_DECLARE(sp_chunk_rule, enum sp_chunk_rule);

struct sp_level_rule {
	enum sp_level level;
	unsigned min_disks;
	unsigned max_disks;      /* 0: the profile's max_disks */
	enum sp_chunk_rule chunk;
	char source[SP_MSG_MAX]; /* where min_disks, max_disks and chunk come from */
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

/* Bit of a level in a levels mask (a profile's "levels": [0, 5, 6]). */
unsigned sp_level_bit(enum sp_level level);

#endif
