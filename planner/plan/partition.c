/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The partition stage: where the filesystem starts and how large it is.
 * The start is a multiple of the full stripe, 1 MiB and the physical
 * sector (and of a sane exported optimal I/O size); the end is whole
 * stripes before the label's tail (GPT's backup header); an md array
 * takes the filesystem on the whole device.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "base/devname.h"
#include "base/error.h"
#include "base/units.h"
#include "plan-internal.h"

#define GPT_ENTRIES_BYTES 16384U                /* 128 entries x 128 bytes */
#define MSDOS_MAX_SECTORS (1ULL << 32)
#define OPTIMAL_IO_MAX_BYTES (256 * SP_MIB)

/* An optimal I/O size is sane when it could be a stripe: whole 4 KiB
 * pages, not huge.  33553920 (32 MiB - 512, what some USB bridges and
 * RAID firmware report) is not. */
static bool optimal_io_is_sane(const struct sp_facts *f)
{
	uint64_t io = f->optimal_io_bytes;

	return io && io % SP_PAGE_BYTES == 0 && io % f->physical_sector_bytes == 0 &&
	       io <= OPTIMAL_IO_MAX_BYTES;
}

static bool topology_judged_bogus(const struct sp_facts *f, const struct sp_plan *plan)
{
	char why[SP_MSG_MAX / 2];

	return !f->md.present && !sp_level_is_mirror(plan->level) && sp_topology_exported(f) &&
	       sp_topology_implausible(f, why, sizeof(why));
}

static void topology_mismatch(const struct sp_facts *f, struct sp_plan *plan)
{
	char a[32];

	sp_format_size(f->optimal_io_bytes, SP_SIZE_HUMAN, a, sizeof(a));
	if (!plan->stripe_width_bytes)
		sp_plan_add_warning(plan, "topology-mismatch",
				    "%s exports an optimal I/O size of %s but a mirror has no stripe; "
				    "it is not aligned to",
				    f->path, a);
	else if (plan->level_source == SP_SOURCE_KERNEL)
		sp_plan_add_warning(plan, "topology-mismatch",
				    "%s exports an optimal I/O size of %s but its md geometry makes a "
				    "%s full stripe",
				    f->path, a,
				    SP_SIZE_TEXT(plan->stripe_width_bytes, SP_SIZE_HUMAN));
	else
		sp_plan_add_warning(plan, "topology-mismatch",
				    "%s exports an optimal I/O size of %s but the declared array's "
				    "full stripe is %s: check --level, --disks and --chunk against "
				    "the controller's configuration",
				    f->path, a,
				    SP_SIZE_TEXT(plan->stripe_width_bytes, SP_SIZE_HUMAN));
}

static int plan_alignment(const struct sp_facts *f, struct sp_plan *plan, struct sp_error *err)
{
	uint64_t align = SP_MIB;

	/* a mirror has no stripe: 1 MiB and the physical sector */
	if ((plan->stripe_width_bytes && sp_lcm(plan->stripe_width_bytes, SP_MIB, &align) < 0) ||
	    sp_lcm(align, f->physical_sector_bytes, &align) < 0)
		return sp_error_set(err, EOVERFLOW, SP_ERR_INVALID,
				    "chunk: the stripe width cannot be aligned to 1 MiB without overflow");
	/* judged, and said, by the array stage already (array.c topology_usable()) */
	if (topology_judged_bogus(f, plan)) {
		/* ignored: aligned to the declared array alone */
	} else if (optimal_io_is_sane(f)) {
		if (f->optimal_io_bytes != plan->stripe_width_bytes)
			topology_mismatch(f, plan);
		if (plan->stripe_width_bytes && sp_lcm(align, f->optimal_io_bytes, &align) < 0)
			return sp_error_set(err, EOVERFLOW, SP_ERR_INVALID,
					    "device: the optimal I/O size cannot be combined with the stripe");
	} else if (f->optimal_io_bytes) {
		sp_plan_add_warning(plan, "topology-ignored",
				    "%s exports an optimal I/O size of %" PRIu64
				    " bytes, which no array has; it is ignored",
				    f->path, f->optimal_io_bytes);
	}
	if (f->alignment_offset_bytes)
		sp_plan_add_warning(plan, "alignment-offset",
				    "%s reports an alignment offset of %" PRId64
				    " bytes; stripeplan aligns to the declared array from sector 0, "
				    "check the controller's configuration",
				    f->path, f->alignment_offset_bytes);
	plan->align_bytes = align;
	return 0;
}

/* md arrays carry the filesystem themselves; LUNs get a label */
static void choose_table(const struct sp_spec *spec, const struct sp_profile *profile,
			 struct sp_plan *plan)
{
	if (!(spec->omitted & SP_FIELD_TABLE)) {
		plan->table = spec->table;
		plan->table_source = SP_SOURCE_DECLARED;
		return;
	}
	plan->table = profile->is_md ? SP_TABLE_NONE : SP_TABLE_GPT;
	plan->table_source = SP_SOURCE_DEFAULT;
}

/* The filesystem on the whole device: it starts at 0, aligned to anything. */
static int plan_whole_device(const struct sp_facts *f, struct sp_plan *plan, struct sp_error *err)
{
	plan->start_bytes = 0;
	plan->reserved_tail_bytes = 0;
	plan->size_bytes = f->size_bytes;
	if (plan->size_bytes < plan->stripe_width_bytes)
		return sp_error_set(err, ENOSPC, SP_ERR_INVALID,
				    "size: %s (%s) is smaller than one %s stripe", f->path,
				    SP_SIZE_TEXT(f->size_bytes, SP_SIZE_HUMAN),
				    SP_SIZE_TEXT(plan->stripe_width_bytes, SP_SIZE_HUMAN));
	snprintf(plan->partition_path, sizeof(plan->partition_path), "%s", f->path);
	return 0;
}

int sp_plan_partition(const struct sp_spec *spec, const struct sp_profile *profile,
		      struct sp_plan *plan, struct sp_error *err)
{
	const struct sp_facts *f = &plan->device;
	uint64_t sector = f->logical_sector_bytes;
	uint64_t device_sectors = f->size_bytes / sector;
	/* a mirror's partition ends on a physical sector, a stripe's on a stripe */
	uint64_t unit = plan->stripe_width_bytes ? plan->stripe_width_bytes : f->physical_sector_bytes;
	uint64_t usable_end;
	int r;

	r = plan_alignment(f, plan, err);
	if (r < 0)
		return r;
	choose_table(spec, profile, plan);
	if (plan->table == SP_TABLE_NONE)
		return plan_whole_device(f, plan, err);
	/* GPT keeps a backup header and entry array in the last sectors */
	plan->reserved_tail_bytes = plan->table == SP_TABLE_GPT ? GPT_ENTRIES_BYTES + sector : 0;
	plan->start_bytes = plan->align_bytes;
	if (f->size_bytes < plan->reserved_tail_bytes ||
	    f->size_bytes - plan->reserved_tail_bytes < plan->start_bytes + unit)
		return sp_error_set(err, ENOSPC, SP_ERR_INVALID,
				    "size: %s (%s) is smaller than one %s stripe after the aligned start "
				    "at %s and the %s label",
				    f->path, SP_SIZE_TEXT(f->size_bytes, SP_SIZE_HUMAN),
				    SP_SIZE_TEXT(unit, SP_SIZE_HUMAN),
				    SP_SIZE_TEXT(plan->start_bytes, SP_SIZE_HUMAN),
				    sp_table_name(plan->table));
	usable_end = f->size_bytes - plan->reserved_tail_bytes;
	plan->size_bytes = (usable_end - plan->start_bytes) / unit * unit;

	if (plan->table == SP_TABLE_MSDOS &&
	    (plan->start_bytes + plan->size_bytes) / sector > MSDOS_MAX_SECTORS)
		return sp_error_set(err, EFBIG, SP_ERR_INVALID,
				    "table: msdos labels stop at 2^32 sectors (%s with %" PRIu64
				    "-byte sectors) and %s has %" PRIu64 "; use --table gpt",
				    SP_SIZE_TEXT(MSDOS_MAX_SECTORS * sector, SP_SIZE_HUMAN), sector,
				    f->path, device_sectors);
	if (plan->table == SP_TABLE_GPT && device_sectors > MSDOS_MAX_SECTORS)
		sp_plan_add_warning(plan, "gpt-required",
				    "%s has %" PRIu64 " sectors, more than an msdos label can address "
				    "(2^32); GPT is the only choice",
				    f->path, device_sectors);
	if (sp_partition_path(f->path, 1, plan->partition_path, sizeof(plan->partition_path)) < 0)
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
				    "device: '%s' is too long", f->path);
	return 0;
}
