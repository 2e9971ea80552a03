/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * XFS allocation-group geometry that mkfs.xfs accepts.  Pure.
 *
 * The limits are mkfs.xfs's own (xfsprogs 6.1, mkfs/xfs_mkfs.c,
 * include/xfs_multidisk.h, libxfs/topology.c):
 *  - the data section must be at least 300 MiB (validate_supported());
 *  - the internal log must be at least 64 MiB (XFS_MIN_REALISTIC_LOG_BLOCKS)
 *    and lie wholly inside one AG, number agcount / 2; an AG holds it from
 *    65 MiB up, whatever the log stripe unit (measured), so 68 MiB is asked;
 *  - an AG is 16 MiB (XFS_AG_MIN_BYTES) to 1 TiB - 1 block
 *    (XFS_AG_MAX_BLOCKS: 1 TiB itself is refused);
 *  - at least two AGs ("at least 2 superblocks for redundancy");
 *  - a last AG under 16 MiB is dropped, and the filesystem shrinks with it;
 *  - with a stripe unit ("multi-disk") the default AG count is 8 up to
 *    8 GiB, 16 up to 512 GiB, 32 above, and 1 TiB AGs from 32 TiB; the size
 *    is rounded up to the stripe unit and moved one unit when it is a
 *    multiple of the stripe width.
 * mkfs.xfs also ignores the stripe geometry a device *reports* below 1 GiB,
 * but never geometry given on its command line, which is what a plan does.
 */
#include <errno.h>
#include <inttypes.h>

#include "base/error.h"
#include "base/units.h"
#include "xfs-geometry.h"

#define AG_MIN_BYTES (16 * SP_MIB)
#define AG_MAX_BYTES (SP_TIB - SP_FS_BLOCK_BYTES)
#define LOG_AG_MIN_BYTES (68 * SP_MIB)
#define SEARCH_STEPS 4096U

static unsigned multidisk_agcount(uint64_t fs_bytes)
{
	if (fs_bytes <= 8 * SP_GIB)
		return 8;
	return fs_bytes <= 512 * SP_GIB ? 16 : 32;
}

/* What mkfs.xfs makes on its own for su/sw: calc_default_ag_geometry()
 * then align_ag_geometry(). */
uint64_t sp_xfs_mkfs_agsize_bytes(uint64_t fs_bytes, uint64_t su_bytes, unsigned sw)
{
	uint64_t blocks = fs_bytes / SP_FS_BLOCK_BYTES, su = su_bytes / SP_FS_BLOCK_BYTES;
	uint64_t max = AG_MAX_BYTES / SP_FS_BLOCK_BYTES, ag;

	if (fs_bytes >= 32 * SP_TIB || (!su && fs_bytes >= 4 * SP_TIB))
		ag = max;
	else if (!su)
		ag = (blocks + 3) / 4; /* one device: 4 AGs */
	else
		ag = (blocks + multidisk_agcount(fs_bytes) - 1) / multidisk_agcount(fs_bytes);
	if (su && ag % su) {
		uint64_t up = (ag + su - 1) / su * su;

		ag = up > max ? ag / su * su : up;
	}
	if (su && sw > 1 && ag % (su * sw) == 0 && blocks > ag) {
		ag -= su;
		if (ag < AG_MIN_BYTES / SP_FS_BLOCK_BYTES)
			ag += 2 * su;
	}
	return ag * SP_FS_BLOCK_BYTES;
}

static bool holds_log(uint64_t fs_bytes, uint64_t ag_bytes)
{
	uint64_t count = fs_bytes / ag_bytes, tail = fs_bytes % ag_bytes;

	if (tail >= AG_MIN_BYTES)
		count++; /* a smaller tail is dropped by mkfs.xfs */
	if (count < 2 || ag_bytes < LOG_AG_MIN_BYTES || ag_bytes > AG_MAX_BYTES)
		return false;
	/* the log goes into AG count / 2: the last one when there are two */
	return count != 2 || !tail || tail >= LOG_AG_MIN_BYTES;
}

static bool candidate_ok(uint64_t n_granules, uint64_t k, unsigned avoid, bool coprime,
			 uint64_t granule_bytes)
{
	uint64_t tail = n_granules % k;

	if (avoid > 1 && k % avoid == 0)
		return false;
	if (coprime && avoid > 1 && sp_gcd(k, avoid) != 1)
		return false;
	/* a tail mkfs.xfs would drop is space lost: never plan one */
	if (tail && tail * granule_bytes < AG_MIN_BYTES)
		return false;
	return holds_log(n_granules * granule_bytes, k * granule_bytes);
}

/* Searches AG sizes of k granules outward from k0, first for k coprime
 * with `avoid` (AG starts visit every member), then for any k that is not
 * a multiple of it. */
static uint64_t search_k(uint64_t n, uint64_t k0, uint64_t kmin, uint64_t kmax, unsigned avoid,
			 uint64_t granule_bytes)
{
	for (int coprime = 1; coprime >= 0; coprime--) {
		for (uint64_t step = 0; step < SEARCH_STEPS; step++) {
			/* larger first: no more AGs than mkfs.xfs would make */
			uint64_t up = k0 + step, down = k0 - step;

			if (up <= kmax && candidate_ok(n, up, avoid, coprime, granule_bytes))
				return up;
			if (step && step <= k0 - kmin && candidate_ok(n, down, avoid, coprime, granule_bytes))
				return down;
		}
	}
	return 0;
}

int sp_xfs_plan_ag(uint64_t fs_bytes, uint64_t su_bytes, unsigned sw, uint64_t stripe_bytes,
		   unsigned rotation_period, struct sp_xfs_ag *ret, struct sp_error *err)
{
	struct sp_xfs_ag ag = { 0 };
	uint64_t granule, target, n, k0, kmin, kmax, k;
	unsigned avoid;
	char a[32];

	sp_format_size(fs_bytes, SP_SIZE_HUMAN, a, sizeof(a));
	if (fs_bytes < SP_XFS_MIN_FS_BYTES)
		return sp_error_set(err, ENOSPC, SP_ERR_INVALID,
				    "size: xfs needs at least 300 MiB (mkfs.xfs refuses smaller; limits "
				    "row xfs-min-size); the aligned partition would be %s",
				    a);
	if (!rotation_period) {
		uint64_t def = sp_xfs_mkfs_agsize_bytes(fs_bytes, su_bytes, sw);

		/* (mkfs.xfs may drop a last AG under 16 MiB: its choice, kept) */
		if (holds_log(fs_bytes, def)) {
			ag.agcount = (unsigned)(fs_bytes / def + (fs_bytes % def >= AG_MIN_BYTES));
			ag.mkfs_agsize_bytes = def;
			*ret = ag;
			return 0; /* mkfs.xfs's own choice works: leave it to mkfs */
		}
	}
	/* parity RAID: whole stripes, for swalloc; otherwise stripe units,
	 * avoiding multiples of the width as mkfs.xfs does */
	granule = rotation_period ? stripe_bytes : su_bytes ? su_bytes : SP_FS_BLOCK_BYTES;
	avoid = rotation_period ? rotation_period : sw;
	n = fs_bytes / granule;
	target = fs_bytes >= 32 * SP_TIB ? AG_MAX_BYTES :
		 (fs_bytes + multidisk_agcount(fs_bytes) - 1) / multidisk_agcount(fs_bytes);
	if (target < LOG_AG_MIN_BYTES)
		target = LOG_AG_MIN_BYTES;
	kmin = (LOG_AG_MIN_BYTES + granule - 1) / granule;
	kmax = AG_MAX_BYTES / granule;
	k0 = (target + granule - 1) / granule;
	if (k0 > kmax)
		k0 = kmax;
	k = kmin <= kmax ? search_k(n, k0, kmin, kmax, avoid, granule) : 0;
	if (!k)
		return sp_error_set(err, ENOSPC, SP_ERR_INVALID,
				    "size: xfs cannot lay %s out in allocation groups of whole "
				    "%" PRIu64 "-byte units that each hold the 64 MiB log mkfs.xfs "
				    "requires (at least two groups of at least 68 MiB); give a larger "
				    "device or a smaller chunk",
				    a, granule);
	ag.agsize_bytes = k * granule;
	ag.agcount = (unsigned)((n + k - 1) / k);
	ag.units_per_ag = k;
	ag.rotation_period = rotation_period;
	ag.header_positions = rotation_period ? (unsigned)(rotation_period / sp_gcd(k, rotation_period)) : 0;
	*ret = ag;
	return 0;
}
