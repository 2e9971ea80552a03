/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a layout costs its array's members, from the member-I/O model:
 * the audit's judgments and the bench's figures (raid/cost.c). */
#ifndef STRIPEPLAN_RAID_COST_H
#define STRIPEPLAN_RAID_COST_H

#include <stdbool.h>
#include <stdint.h>

#include "raid.h"

struct sp_error;

/*
 * What a layout costs, from the array model: member I/O of writes of one
 * full stripe (and of reads of one chunk) placed where the filesystem
 * places them, as a multiple of the least the level allows.  1.0 = as
 * good as it gets.
 */
struct sp_cost {
	bool known;
	double write_ratio;
	double read_ratio;
};

/* The layout as found: the array, where the data starts, and the
 * stripe settings the filesystem allocates by (0 = none). */
struct sp_layout {
	enum sp_level level;
	unsigned disks, spans;
	uint64_t chunk_bytes;
	uint64_t start_bytes;    /* partition start on the array */
	uint64_t fs_su_bytes;    /* the filesystem's stripe unit, 0 = none */
	unsigned fs_sw;          /* stripe width in units, 0 = none */
	unsigned fs_block_bytes; /* where it allocates without a stripe unit */
};

/*
 * Writes of one full stripe of the array (chunk x data disks) at every
 * offset the filesystem aligns them to — its stripe width when it has
 * one, else its stripe unit, else its block — starting at the partition
 * start, each written alone (as direct writes are); reads of one chunk
 * at every multiple of its stripe unit (else block).  The ratios are the
 * member I/O of all of them over the least the level allows (a full
 * stripe write costs one I/O per member, a chunk read one).
 * -EINVAL (SP_ERR_INVALID) for a layout the model cannot cost.
 */
int sp_cost_layout(const struct sp_layout *layout, struct sp_cost *ret, struct sp_error *err);

#endif
