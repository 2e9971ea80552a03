/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The allocation groups of an XFS mkfs.xfs accepts (plan/xfs-geometry.c). */
#ifndef STRIPEPLAN_PLAN_XFS_GEOMETRY_H
#define STRIPEPLAN_PLAN_XFS_GEOMETRY_H

#include <stdint.h>

#include "base/units.h"

struct sp_error;

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

#endif
