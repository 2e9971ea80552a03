/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The array's geometry: what the user declared, merged with what a probed
 * md array says about itself.  The kernel is the authority on an array
 * that exists; a declared value that contradicts it is a typo that would
 * silently make a wrong plan, so every difference is named and refused.
 * Pure: the facts were read by the probe.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "array/md.h"
#include "base/error.h"
#include "base/units.h"
#include "plan-internal.h"
#include "raid/raid.h"


struct diffs {
	size_t n;
	char text[SP_MSG_MAX];
};

static void __attribute__((format(printf, 2, 3))) diff_add(struct diffs *d, const char *fmt, ...)
{
	size_t used = strlen(d->text);
	va_list ap;

	if (used && used + 1 < sizeof(d->text))
		d->text[used++] = '\n';
	va_start(ap, fmt);
	vsnprintf(d->text + used, sizeof(d->text) - used, fmt, ap);
	va_end(ap);
	d->n++;
}

static bool declared(const struct sp_spec *spec, unsigned field)
{
	return !(spec->omitted & field);
}

static int required(const struct sp_facts *f, const char *flag, struct sp_error *err)
{
	if (f->offline)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s: required for an offline plan (--size): nothing is probed",
				    flag);
	/* "exports nothing" would send the admin looking for the LD's
	 * geometry; a disk passed through has none to find */
	if (sp_controller_passthrough(&f->controller))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s: required: %s is a disk %s passes through (JBOD, SCSI address "
				    "%s), no logical drive: one disk, with no array geometry to read; "
				    "plan the md array built on it, or declare the geometry (see "
				    "'stripeplan plan --help')",
				    flag, f->path, f->controller.proc_name, f->controller.scsi_address);
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "%s: required: %s is not an md array and exports no strip and full "
			    "stripe (queue/minimum_io_size, optimal_io_size), which would tell its "
			    "geometry (see 'stripeplan plan --help')",
			    flag, f->path);
}

static void members_list(char names[][SP_NAME_MAX], size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", names[i]);
}

static bool spec_has(const struct sp_spec *spec, const char *name)
{
	for (size_t i = 0; i < spec->n_members; i++)
		if (!strcmp(spec->members[i], name))
			return true;
	return false;
}

/*
 * The same members whether named as md has them or by their whole disks,
 * as the plan records them (a plan file read back declares the disks).
 */
static bool same_members(const struct sp_spec *spec, const struct sp_md_facts *md)
{
	for (size_t i = 0; i < spec->n_members; i++) {
		bool found = false;

		for (size_t j = 0; j < md->n_members && !found; j++)
			found = !strcmp(spec->members[i], md->members[j].name) ||
				!strcmp(spec->members[i], md->members[j].disk);
		if (!found)
			return false;
	}
	for (size_t j = 0; j < md->n_members; j++)
		if (!spec_has(spec, md->members[j].name) && !spec_has(spec, md->members[j].disk))
			return false;
	return true;
}

/* Takes each value from the kernel, noting where a declared one differs. */
static int merge_md(const struct sp_spec *spec, const struct sp_facts *f, struct sp_plan *plan,
		    struct diffs *d, struct sp_error *err)
{
	const struct sp_md_facts *md = &f->md;
	const char *name = f->kernel_name;
	char a[32], b[32];
	enum sp_level level;
	int r;

	r = sp_md_level(md, name, &level, err);
	if (r < 0)
		return r;
	if (declared(spec, SP_FIELD_LEVEL) && spec->level != level)
		diff_add(d, "level: --level %s, but %s is %s", sp_level_name(spec->level) + 4, name,
			 md->level);
	plan->level = level;
	plan->level_source = SP_SOURCE_KERNEL;
	if (declared(spec, SP_FIELD_DISKS) && spec->disks != md->raid_disks)
		diff_add(d, "disks: --disks %u, but %s has %u disks", spec->disks, name,
			 md->raid_disks);
	plan->disks = md->raid_disks;
	plan->disks_source = SP_SOURCE_KERNEL;
	if (!sp_level_is_mirror(level)) {
		if (declared(spec, SP_FIELD_CHUNK) && spec->chunk_bytes != md->chunk_bytes) {
			sp_format_size(spec->chunk_bytes, SP_SIZE_SHORT, a, sizeof(a));
			sp_format_size(md->chunk_bytes, SP_SIZE_HUMAN, b, sizeof(b));
			diff_add(d, "chunk: --chunk %s, but %s has a %s chunk", a, name, b);
		}
		plan->chunk_bytes = md->chunk_bytes;
		plan->chunk_source = SP_SOURCE_KERNEL;
	}
	if (level == SP_LEVEL_10) {
		struct sp_md_layout have;

		if (sp_md_layout_from_kernel(md->layout, &have) < 0)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "layout: %s reports md/layout %" PRIu64
					    ", which is no raid10 layout",
					    name, md->layout);
		if (spec->layout.near_copies && !sp_md_layout_equal(&spec->layout, &have)) {
			sp_md_layout_name(&spec->layout, a, sizeof(a));
			sp_md_layout_name(&have, b, sizeof(b));
			diff_add(d, "layout: --layout %s, but %s has the %s layout", a, name, b);
		}
		plan->layout = have;
		plan->layout_source = SP_SOURCE_KERNEL;
	}
	if (spec->n_members && md->n_members && !same_members(spec, md)) {
		char want[SP_MSG_MAX / 2], have[SP_MSG_MAX / 2];
		char names[SP_MAX_MEMBERS][SP_NAME_MAX];

		for (size_t i = 0; i < md->n_members; i++)
			memcpy(names[i], md->members[i].name, SP_NAME_MAX);
		members_list((char(*)[SP_NAME_MAX])spec->members, spec->n_members, want, sizeof(want));
		members_list(names, md->n_members, have, sizeof(have));
		diff_add(d, "members: --members %s, but %s's members are %s", want, name, have);
	}
	return 0;
}

/* ------------------------------------------------- exported topology */

/*
 * A controller that fills the Block Limits VPD page tells its geometry:
 * the optimal transfer length granularity is the strip, the optimal
 * transfer length the full stripe; sd passes them on as the queue's
 * minimum_io_size and optimal_io_size, for SCSI disks.  A minimum no larger than the
 * physical block is the kernel's own default (blk_queue_physical_block_size()
 * raises io_min to it), not a strip: nothing exported.
 */
#define SD_DEF_XFER_BLOCKS 0xffffU            /* drivers/scsi/sd.h */
#define OPT_IO_BOGUS_BYTES (0xffffULL * 512U) /* 33553920 */

bool sp_topology_exported(const struct sp_facts *f)
{
	/* SCSI only: an NVMe namespace's io_min/io_opt are its write
	 * granularity and optimal write size (NPWG, NOWS), no array's */
	return !f->offline && f->is_scsi && f->optimal_io_bytes &&
	       f->min_io_bytes > f->physical_sector_bytes;
}

/*
 * Why the exported geometry cannot be a stripe, or NULL.  The kernel's
 * own rules for the optimal transfer length first (Linux 6.1
 * drivers/scsi/sd.c sd_validate_opt_xfer_size(), which other drivers and
 * older kernels need not apply, and a facts file may say anything), then
 * the value util-linux ignores by name, then what a filesystem needs.
 * Not its '> dev_max': dev_max is the disk's own maximum transfer length
 * (Block Limits VPD, the queue's max_dev_sectors, not in sysfs), while
 * queue/max_hw_sectors_kb is the host adapter's; a full stripe larger
 * than one transfer of the HBA is an ordinary array (QEMU's SAS2108 under
 * megaraid_sas: a 192 KiB stripe, max_hw_sectors_kb 128, io_opt kept by sd).
 */
const char *sp_topology_implausible(const struct sp_facts *f, char *buf, size_t len)
{
	uint64_t opt = f->optimal_io_bytes, min = f->min_io_bytes;

	if (opt == OPT_IO_BOGUS_BYTES)
		return "it is 0xffff 512-byte blocks, what USB bridges and some RAID firmware "
		       "report for 'no limit' (util-linux ignores it since libfdisk commit "
		       "'ignore 33553920 byte optimal I/O size', util-linux#1224)";
	if (opt / f->logical_sector_bytes > SD_DEF_XFER_BLOCKS)
		snprintf(buf, len, "it is more than the sd driver's limit of %u logical blocks "
			 "(sd_validate_opt_xfer_size(), Linux 6.1 drivers/scsi/sd.c)",
			 SD_DEF_XFER_BLOCKS);
	else if (opt < SP_PAGE_BYTES)
		snprintf(buf, len, "it is smaller than a %u-byte page (sd_validate_opt_xfer_size(), "
			 "Linux 6.1 drivers/scsi/sd.c: '< PAGE_SIZE')",
			 SP_PAGE_BYTES);
	else if (opt % f->physical_sector_bytes)
		snprintf(buf, len, "it is not a multiple of the %u-byte physical block "
			 "(sd_validate_opt_xfer_size(), Linux 6.1 drivers/scsi/sd.c, a83da8a4509d)",
			 f->physical_sector_bytes);
	else if (opt % min)
		snprintf(buf, len, "it is not a multiple of minimum_io_size %" PRIu64
			 " (sd_validate_opt_xfer_size(), Linux 6.1 drivers/scsi/sd.c: 'Optimal I/O "
			 "size should be a multiple of reported granularity')",
			 min);
	else if (min % SP_FS_BLOCK_BYTES)
		snprintf(buf, len, "its strip, minimum_io_size %" PRIu64 ", is not whole 4 KiB "
			 "filesystem blocks: nothing can be aligned to it",
			 min);
	else
		return NULL;
	return buf;
}

/* The smallest disk count whose data disks the full stripe holds, or 0. */
static unsigned disks_for(enum sp_level level, unsigned spans, unsigned data_disks)
{
	for (unsigned n = 1; n <= SP_MAX_DISKS; n++) {
		struct sp_error ignored = { 0 };
		unsigned data;

		if (sp_raid_data_disks(level, n, spans, &data, &ignored) == 0 && data == data_disks)
			return n;
	}
	return 0;
}

/*
 * The strip and the full stripe from the device: --chunk and --disks may
 * be left out, and each one given is checked against them -- a difference
 * is a typo or a LUN that is not the one meant, never a plan.
 */
static int take_topology(const struct sp_spec *spec, const struct sp_facts *f,
			 struct sp_plan *plan, struct diffs *d, struct sp_error *err)
{
	unsigned data_disks = (unsigned)(f->optimal_io_bytes / f->min_io_bytes), declared_data;
	char a[32], b[32];

	sp_format_size(f->min_io_bytes, SP_SIZE_HUMAN, b, sizeof(b));
	if (declared(spec, SP_FIELD_CHUNK) && spec->chunk_bytes != f->min_io_bytes) {
		sp_format_size(spec->chunk_bytes, SP_SIZE_SHORT, a, sizeof(a));
		diff_add(d, "chunk: --chunk %s, but %s exports a %s strip (queue/minimum_io_size "
			 "%" PRIu64 ", the controller's optimal transfer length granularity)",
			 a, f->path, b, f->min_io_bytes);
	}
	plan->chunk_bytes = f->min_io_bytes;
	plan->chunk_source = SP_SOURCE_TOPOLOGY;
	if (declared(spec, SP_FIELD_DISKS)) {
		plan->disks = spec->disks;
		if (sp_raid_data_disks(plan->level, spec->disks, spec->spans, &declared_data, err) < 0)
			return -EINVAL;
		if (declared_data != data_disks)
			diff_add(d, "disks: --disks %u makes %u data disks, but %s exports a full "
				 "stripe of %u x %s (queue/optimal_io_size %" PRIu64
				 " / minimum_io_size %" PRIu64 ")",
				 spec->disks, declared_data, f->path, data_disks, b,
				 f->optimal_io_bytes, f->min_io_bytes);
		return 0;
	}
	plan->disks = disks_for(plan->level, spec->spans, data_disks);
	if (!plan->disks)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "disks: required: %s exports a full stripe of %u strips "
				    "(queue/optimal_io_size %" PRIu64 " / minimum_io_size %" PRIu64
				    "), which no %s%s has",
				    f->path, data_disks, f->optimal_io_bytes, f->min_io_bytes,
				    sp_level_name(plan->level),
				    sp_level_has_spans(plan->level) ? " of --spans spans" : "");
	plan->disks_source = SP_SOURCE_TOPOLOGY;
	return 0;
}

/* Whether the plan takes the device's topology; says why when it is not sane. */
static bool topology_usable(const struct sp_facts *f, struct sp_plan *plan)
{
	char why[SP_MSG_MAX / 2];
	const char *bad;

	if (!sp_topology_exported(f) || sp_level_is_mirror(plan->level))
		return false;
	bad = sp_topology_implausible(f, why, sizeof(why));
	if (bad)
		sp_plan_add_warning(plan, "topology-ignored",
				    "%s exports minimum_io_size %" PRIu64 " and optimal_io_size %" PRIu64
				    ", which is no stripe: %s; they are ignored",
				    f->path, f->min_io_bytes, f->optimal_io_bytes, bad);
	return !bad;
}

/*
 * scan's stand-in level stands only on an exported stripe: without one
 * nothing about the LUN is known, and with an implausible one the
 * stripe would be made up too.
 */
int sp_plan_exported_stripe(const struct sp_facts *f, struct sp_error *err)
{
	char why[SP_MSG_MAX / 2];
	const char *bad;

	if (!sp_topology_exported(f))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s is not an md array and exports no strip and full stripe "
				    "(queue/minimum_io_size, optimal_io_size)",
				    f->path);
	bad = sp_topology_implausible(f, why, sizeof(why));
	if (bad)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s exports minimum_io_size %" PRIu64
				    " and optimal_io_size %" PRIu64 ", which is no stripe: %s",
				    f->path, f->min_io_bytes, f->optimal_io_bytes, bad);
	return 0;
}

static int take_declared(const struct sp_spec *spec, const struct sp_facts *f,
			 struct sp_plan *plan, struct diffs *d, struct sp_error *err)
{
	if (!declared(spec, SP_FIELD_LEVEL))
		return required(f, "level", err);
	if (spec->level_assumed) {
		int r = sp_plan_exported_stripe(f, err);

		if (r < 0) {
			char why[SP_MSG_MAX];

			snprintf(why, sizeof(why), "%s", err ? err->message : "");
			return sp_error_set(err, -r, SP_ERR_INVALID, "level: unknown: %s", why);
		}
		plan->level_source = SP_SOURCE_ASSUMED;
	}
	plan->level = spec->level;
	if (topology_usable(f, plan)) {
		int r = take_topology(spec, f, plan, d, err);

		if (r < 0 || !spec->layout.near_copies)
			return r;
		plan->layout = spec->layout;
		plan->layout_source = SP_SOURCE_DECLARED;
		return 0;
	}
	if (!declared(spec, SP_FIELD_DISKS))
		return required(f, "disks", err);
	plan->disks = spec->disks;
	if (!sp_level_is_mirror(spec->level)) {
		if (!declared(spec, SP_FIELD_CHUNK))
			return required(f, "chunk", err);
		plan->chunk_bytes = spec->chunk_bytes;
	}
	if (spec->layout.near_copies) {
		plan->layout = spec->layout;
		plan->layout_source = SP_SOURCE_DECLARED;
	}
	return 0;
}

/* ----------------------------------------------- a controller's report */

/* --spans, else the report's */
static unsigned spec_spans(const struct sp_spec *spec)
{
	return spec->spans || !spec->have_report ? spec->spans : spec->report.spans;
}

/* What the device exports, when it does, must be the report's stripe too. */
static void report_vs_topology(const struct sp_spec *spec, const struct sp_facts *f,
			       struct sp_plan *plan, struct diffs *d)
{
	unsigned data = 0;
	struct sp_error ignored = { 0 };

	if (!topology_usable(f, plan))
		return;
	if (f->min_io_bytes != plan->chunk_bytes)
		diff_add(d, "chunk: %s says a %s strip, but %s exports %s (queue/minimum_io_size "
			 "%" PRIu64 ")",
			 spec->report_name, SP_SIZE_TEXT(plan->chunk_bytes, SP_SIZE_HUMAN), f->path,
			 SP_SIZE_TEXT(f->min_io_bytes, SP_SIZE_HUMAN), f->min_io_bytes);
	else if (sp_raid_data_disks(plan->level, plan->disks, spec_spans(spec), &data, &ignored) ==
			 0 &&
		 (uint64_t)data * f->min_io_bytes != f->optimal_io_bytes)
		diff_add(d, "disks: %s says %u disks, %u of data, but %s exports a full stripe of "
			 "%" PRIu64 " strips (queue/optimal_io_size %" PRIu64 ")",
			 spec->report_name, plan->disks, data, f->path,
			 f->optimal_io_bytes / f->min_io_bytes, f->optimal_io_bytes);
}

/*
 * Level, disks, spans and strip from the controller's own report of the
 * drive: each flag given is checked against it -- a difference is a typo
 * or the report of another drive, never a plan -- as is the device the
 * report names, and what the device exports.
 */
static int take_report(const struct sp_spec *spec, const struct sp_facts *f,
		       struct sp_plan *plan, struct diffs *d, struct sp_error *err)
{
	const struct sp_controller_report *rep = &spec->report;
	const char *src = spec->report_name;

	if (f->md.present)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "controller-report: %s is an md array, whose geometry the "
				    "kernel tells; %s is a hardware controller's",
				    f->kernel_name, src);
	/* the NAA identifier when both have one: kernel names move between boots */
	if (rep->naa_id[0] && !strncmp(f->wwn, "naa.", 4)) {
		if (strcasecmp(f->wwn + 4, rep->naa_id) != 0)
			diff_add(d, "device: %s is of the drive with NAA id %s, but %s's wwid is %s",
				 src, rep->naa_id, f->path, f->wwn);
	} else if (rep->device[0] && f->kernel_name[0] && strcmp(rep->device, f->kernel_name) != 0) {
		diff_add(d, "device: %s is of /dev/%s, not %s", src, rep->device, f->path);
	}
	if (declared(spec, SP_FIELD_LEVEL) && spec->level != rep->level)
		diff_add(d, "level: --level %s, but %s says %s", sp_level_name(spec->level) + 4, src,
			 sp_level_name(rep->level));
	if (declared(spec, SP_FIELD_DISKS) && spec->disks != rep->disks)
		diff_add(d, "disks: --disks %u, but %s says %u disks", spec->disks, src, rep->disks);
	if (spec->spans && rep->spans && spec->spans != rep->spans)
		diff_add(d, "spans: --spans %u, but %s says %u spans", spec->spans, src, rep->spans);
	plan->level = rep->level;
	plan->disks = rep->disks;
	plan->level_source = plan->disks_source = SP_SOURCE_REPORT;
	if (!sp_level_is_mirror(rep->level)) {
		if (declared(spec, SP_FIELD_CHUNK) && spec->chunk_bytes != rep->chunk_bytes)
			diff_add(d, "chunk: --chunk %s, but %s says a %s strip",
				 SP_SIZE_TEXT(spec->chunk_bytes, SP_SIZE_SHORT), src,
				 SP_SIZE_TEXT(rep->chunk_bytes, SP_SIZE_HUMAN));
		plan->chunk_bytes = rep->chunk_bytes;
		plan->chunk_source = SP_SOURCE_REPORT;
		report_vs_topology(spec, f, plan, d);
	}
	if (spec->layout.near_copies) {
		plan->layout = spec->layout;
		plan->layout_source = SP_SOURCE_DECLARED;
	}
	snprintf(plan->geometry_report, sizeof(plan->geometry_report), "%s", src);
	return 0;
}

static void md_state_warnings(const struct sp_facts *f, struct sp_plan *plan)
{
	const struct sp_md_facts *md = &f->md;

	if (md->degraded)
		sp_plan_add_warning(plan, "md-degraded",
				    "%s is degraded: %u of its %u members %s missing; the plan uses "
				    "the array's own geometry, which a missing member does not "
				    "change, but the array is slow and unprotected until it is rebuilt",
				    f->kernel_name, md->degraded, md->raid_disks,
				    md->degraded == 1 ? "is" : "are");
	if (md->sync_action[0] && strcmp(md->sync_action, "idle") != 0)
		sp_plan_add_warning(plan, "md-sync",
				    "%s is running '%s' (md/sync_action); planning is safe, but mkfs "
				    "and the first writes compete with it for the disks",
				    f->kernel_name, md->sync_action);
}

/* " (SOURCE)", or nothing when the profile names none */
static const char *cited(const char *source, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", *source ? " (" : "", source, *source ? ")" : "");
	return buf;
}
#define CITED(source) cited((source), (char[SP_MSG_MAX]){ 0 }, SP_MSG_MAX)

static int check_chunk(const struct sp_profile *profile, const struct sp_level_rule *rule,
		       struct sp_plan *plan, struct sp_error *err)
{
	char a[32], b[32], c[32];

	if (plan->chunk_bytes == 0)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "chunk: must not be zero");
	sp_format_size(plan->chunk_bytes, SP_SIZE_SHORT, a, sizeof(a));
	if (rule->chunk == SP_CHUNK_SECTOR_MULTIPLE) {
		/* md raid0 maps any multiple of the member block; the
		 * filesystem still needs whole blocks to align to */
		if (plan->chunk_bytes % SP_FS_BLOCK_BYTES)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "chunk: %s is not a multiple of the 4K filesystem "
					    "block; the filesystem cannot align to it",
					    a);
	} else if (!sp_is_power_of_two(plan->chunk_bytes)) {
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "chunk: %s is not a power of two (%s %s stripes in 2^n sizes%s)",
				    a, profile->name, sp_level_name(plan->level),
				    CITED(rule->source));
	}
	if (plan->chunk_bytes < SP_FS_BLOCK_BYTES)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "chunk: %s is smaller than the 4K filesystem block; "
				    "the filesystem cannot align to it",
				    a);
	if (plan->chunk_bytes < profile->chunk_min_bytes ||
	    plan->chunk_bytes > profile->chunk_max_bytes) {
		sp_format_size(profile->chunk_min_bytes, SP_SIZE_SHORT, b, sizeof(b));
		sp_format_size(profile->chunk_max_bytes, SP_SIZE_SHORT, c, sizeof(c));
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "chunk: %s is outside what %s supports (%s..%s)%s", a, profile->name, b,
				    c, CITED(profile->strips_source));
	}
	if (profile->n_strip_sizes && !sp_profile_offers_strip(profile, plan->chunk_bytes)) {
		char list[SP_MSG_MAX / 2];
		size_t used = 0;

		list[0] = '\0';
		for (size_t i = 0; i < profile->n_strip_sizes && used < sizeof(list); i++)
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
						 i ? ", " : "",
						 SP_SIZE_TEXT(profile->strip_sizes_bytes[i], SP_SIZE_SHORT));
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "chunk: %s is not a %s %s offers (%s%s)", a,
				    profile->strip_name[0] ? profile->strip_name : "strip size",
				    profile->name, list, CITED(profile->strips_source));
	}
	if (sp_mul_overflows(plan->chunk_bytes, plan->data_disks, &plan->stripe_width_bytes) < 0)
		return sp_error_set(err, EOVERFLOW, SP_ERR_INVALID,
				    "chunk: %s x %u data disks overflows", a, plan->data_disks);
	return 0;
}

static int check_layout_flag(const struct sp_spec *spec, const struct sp_level_rule *rule,
			     struct sp_plan *plan, struct sp_error *err)
{
	if (!spec->layout.near_copies)
		return 0;
	if (plan->level != SP_LEVEL_10)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "layout: --layout is for raid10, not %s", sp_level_name(plan->level));
	if (!rule->n_layouts)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "layout: --layout is md raid10's; the %s profile's raid10 has "
				    "mirrored pairs and no layouts",
				    plan->controller);
	return 0;
}

/* The controller's documented limits: disks, and spans with the disks in each. */
static int check_disk_limits(const struct sp_profile *profile, const struct sp_level_rule *rule,
			     const struct sp_plan *plan, struct sp_error *err)
{
	unsigned spans_min = profile->spans_min ? profile->spans_min : 2;

	if (profile->max_disks && plan->disks > profile->max_disks)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "disks: %s takes at most %u disks, not %u%s", profile->name,
				    profile->max_disks, plan->disks, CITED(profile->levels_source));
	if (rule->max_disks && plan->disks > rule->max_disks)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "disks: %s %s takes at most %u disks, not %u%s", profile->name,
				    sp_level_name(plan->level), rule->max_disks, plan->disks,
				    CITED(rule->source));
	if (!sp_level_has_spans(plan->level))
		return 0;
	if (plan->spans < spans_min || (profile->spans_max && plan->spans > profile->spans_max))
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "spans: %s %s takes %u to %u spans, not %u%s", profile->name,
				    sp_level_name(plan->level), spans_min,
				    profile->spans_max ? profile->spans_max : SP_MAX_DISKS / 2,
				    plan->spans, CITED(profile->spans_source));
	if (profile->span_disks_max && plan->disks / plan->spans > profile->span_disks_max)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "disks: %s takes at most %u disks per span, not %u (%u in %u "
				    "spans)%s",
				    profile->name, profile->span_disks_max, plan->disks / plan->spans,
				    plan->disks, plan->spans, CITED(profile->spans_source));
	return 0;
}

int sp_plan_array(const struct sp_spec *spec, const struct sp_profile *profile,
		  const struct sp_facts *f, struct sp_plan *plan, struct sp_error *err)
{
	const struct sp_level_rule *rule;
	struct diffs d = { 0 };
	int r;

	snprintf(plan->controller, sizeof(plan->controller), "%s", profile->name);
	r = spec->have_report ? take_report(spec, f, plan, &d, err) :
	    f->md.present     ? merge_md(spec, f, plan, &d, err) :
				take_declared(spec, f, plan, &d, err);
	if (r < 0)
		return r;
	if (d.n)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "%s", d.text);
	if (f->md.present)
		md_state_warnings(f, plan);
	plan->spans = sp_level_has_spans(plan->level) ? spec_spans(spec) : 1;
	if (!(profile->levels_mask & sp_level_bit(plan->level)))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "level: %s is not supported by the %s profile",
				    sp_level_name(plan->level), profile->name);
	rule = sp_profile_level_rule(profile, plan->level);
	r = check_layout_flag(spec, rule, plan, err);
	if (r < 0)
		return r;
	if (rule->n_layouts && !plan->layout.near_copies) {
		plan->layout = rule->layouts[0];
		plan->layout_source = SP_SOURCE_DEFAULT;
	}
	r = sp_raid_data_disks_rule(rule, plan->level, plan->disks, spec_spans(spec),
				    rule->n_layouts ? &plan->layout : NULL, &plan->data_disks, err);
	if (r < 0)
		return r;
	r = check_disk_limits(profile, rule, plan, err);
	if (r < 0)
		return r;
	/* md takes one device, mdadm only when forced: planned, and said */
	if (profile->is_md && !f->md.present && plan->disks == 1)
		sp_plan_add_warning(plan, "md-one-device",
				    "mdadm creates a one-device %s only with --force ('1 is an "
				    "unusual number of drives', mdadm.c); this plan is for such an "
				    "array",
				    sp_level_name(plan->level));
	if (sp_level_is_mirror(plan->level)) {
		/* a mirror writes every block to each disk: nothing to align to */
		if (!f->md.present && declared(spec, SP_FIELD_CHUNK) && spec->chunk_bytes) {
			char a[32];

			sp_format_size(spec->chunk_bytes, SP_SIZE_SHORT, a, sizeof(a));
			sp_plan_add_warning(plan, "mirror-chunk-ignored",
					    "a mirror has no stripe: --chunk %s is not used (raid1 "
					    "writes every block to each disk)",
					    a);
		}
		plan->chunk_bytes = 0;
		plan->stripe_width_bytes = 0;
		plan->chunk_source = SP_SOURCE_NONE;
		return 0;
	}
	return check_chunk(profile, rule, plan, err);
}

static bool has_member(const struct sp_plan *plan, const char *disk)
{
	for (size_t i = 0; i < plan->n_members; i++)
		if (!strcmp(plan->members[i], disk))
			return true;
	return false;
}

static void add_member(struct sp_plan *plan, const char *disk)
{
	if (plan->n_members < SP_MAX_MEMBERS && !has_member(plan, disk))
		snprintf(plan->members[plan->n_members++], SP_NAME_MAX, "%s", disk);
}

/* Partitions have no queue: their disk's queue is what md's I/O goes through. */
static void note_partitions(const struct sp_facts *f, struct sp_plan *plan)
{
	const struct sp_md_facts *md = &f->md;
	char parts[SP_MSG_MAX / 2] = "", disks[SP_MSG_MAX / 2] = "";
	size_t n = 0, pu = 0;

	for (size_t i = 0; i < md->n_members; i++) {
		if (!strcmp(md->members[i].name, md->members[i].disk))
			continue;
		pu += (size_t)snprintf(parts + pu, pu < sizeof(parts) ? sizeof(parts) - pu : 0,
				       "%s%s", n++ ? ", " : "", md->members[i].name);
	}
	if (!n)
		return;
	members_list(plan->members, plan->n_members, disks, sizeof(disks));
	sp_plan_add_warning(plan, "md-member-partitions",
			    "%s's member%s %s %s partition%s, which have no queue of their own: the "
			    "whole disks are tuned instead, each once (%s)",
			    f->kernel_name, n == 1 ? "" : "s", parts, n == 1 ? "is a" : "are",
			    n == 1 ? "" : "s", disks);
}

void sp_plan_members(const struct sp_spec *spec, const struct sp_facts *f, struct sp_plan *plan)
{
	const struct sp_md_facts *md = &f->md;

	plan->n_members = 0;
	if (md->present && md->n_members) {
		for (size_t i = 0; i < md->n_members; i++)
			add_member(plan, md->members[i].disk);
		plan->members_source = SP_SOURCE_KERNEL;
		note_partitions(f, plan);
		return;
	}
	for (size_t i = 0; i < spec->n_members; i++)
		add_member(plan, spec->members[i]);
	plan->members_source = plan->n_members ? SP_SOURCE_DECLARED : SP_SOURCE_NONE;
}

/* Whether the probe saw that this member disk lacks the knob. */
bool sp_plan_member_lacks(const struct sp_facts *f, const char *disk, const char *knob)
{
	const struct sp_md_facts *md = &f->md;

	if (!md->present || strcmp(knob, "device/queue_depth") != 0)
		return false;
	for (size_t i = 0; i < md->n_members; i++)
		if (!strcmp(md->members[i].disk, disk))
			return !md->members[i].has_queue_depth;
	return false;
}
