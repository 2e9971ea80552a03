/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spec + profile + facts -> plan.  Pure: no I/O, no printing, no exit.
 * sp_plan_make() checks the device's facts, settles the array (declared,
 * or read from a probed md array), then runs the stages, each in a file
 * of its own: partition, stack, filesystem, mount, tuning.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "kernel/kernel.h"
#include "plan-internal.h"

void sp_plan_add_warning(struct sp_plan *plan, const char *code, const char *fmt, ...)
{
	struct sp_warning *w;
	va_list ap;

	/* never dropped: a warning that cannot be kept fails the plan (sp_plan_make) */
	if (plan->n_warnings >= SP_MAX_WARNINGS ||
	    sp_array_room(&plan->warnings, plan->n_warnings, sizeof(*plan->warnings)) < 0) {
		plan->warnings_out_of_memory = true;
		return;
	}
	w = &plan->warnings[plan->n_warnings++];
	snprintf(w->code, sizeof(w->code), "%s", code);
	va_start(ap, fmt);
	vsnprintf(w->message, sizeof(w->message), fmt, ap);
	va_end(ap);
}

static int check_facts(const struct sp_facts *f, struct sp_error *err)
{
	if (f->is_partition)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "device: '%s' is a partition; give the whole disk or array", f->path);
	if (f->logical_sector_bytes < 512 || f->logical_sector_bytes > 65536 ||
	    !sp_is_power_of_two(f->logical_sector_bytes))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "sector-size: %u is not a sector size (512, 4096, ...)",
				    f->logical_sector_bytes);
	if (f->physical_sector_bytes < f->logical_sector_bytes ||
	    !sp_is_power_of_two(f->physical_sector_bytes) || f->physical_sector_bytes > 65536)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "sector-size: physical sector %u must be a power of two >= the logical %u",
				    f->physical_sector_bytes, f->logical_sector_bytes);
	if (f->logical_sector_bytes > SP_FS_BLOCK_BYTES)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "sector-size: %u-byte sectors are larger than the 4 KiB filesystem block",
				    f->logical_sector_bytes);
	if (f->size_bytes == 0 || f->size_bytes % f->logical_sector_bytes)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "size: %" PRIu64 " bytes is not a whole number of %u-byte sectors",
				    f->size_bytes, f->logical_sector_bytes);
	return 0;
}

/* What the plan says beside its stages: the profile's warnings and advice,
 * and what follows from the device, the array and the kernel together. */
static int plan_notes(const struct sp_spec *spec, const struct sp_profile *profile,
		      struct sp_plan *plan, struct sp_error *err)
{
	unsigned bit = sp_level_bit(plan->level);

	(void)err;
	for (size_t i = 0; i < profile->n_warnings; i++) {
		const struct sp_profile_warning *w = &profile->warnings[i];

		if (!w->levels_mask || (w->levels_mask & bit))
			sp_plan_add_warning(plan, w->code, "%s", w->message);
	}
	for (size_t i = 0; i < profile->n_advice; i++)
		snprintf(plan->advice[plan->n_advice++], SP_MSG_MAX, "%s", profile->advice[i]);
	if (strstr(plan->device.path, "/cciss/") && sp_kernel_cmp(&spec->kernel, 4, 14) >= 0)
		sp_plan_add_warning(plan, "cciss-removed",
				    "the cciss driver was removed in Linux 4.14; on %s a Smart Array "
				    "is driven by hpsa and appears as /dev/sdX",
				    spec->kernel.release);
	if ((plan->level == SP_LEVEL_5 || plan->level == SP_LEVEL_50) && plan->disks / plan->spans > 12)
		sp_plan_add_warning(plan, "wide-raid5",
				    "%u disks in one RAID5 set: a rebuild reads every other disk and a "
				    "second failure or unreadable sector loses the array; consider RAID6 "
				    "or RAID50",
				    plan->disks / plan->spans);
	if (spec->kernel.family == SP_KERNEL_UNKNOWN)
		sp_plan_add_warning(plan, "kernel-vendor-unknown",
				    "'%s' carries a vendor suffix stripeplan does not know; it is planned "
				    "as mainline %u.%u (schedulers %s, XFS nobarrier %s)%s",
				    spec->kernel.release, spec->kernel.major, spec->kernel.minor,
				    sp_kernel_is_blk_mq_only(&spec->kernel) ? "none/mq-deadline/bfq/kyber" :
				    "noop/deadline/cfq",
				    sp_kernel_xfs_barrier_opts(&spec->kernel) == SP_XFS_BARRIER_EFFECTIVE ?
				    "accepted" : "not planned",
				    spec->kernel_is_running && plan->device.n_schedulers ?
				    "; the schedulers are those the device offers" :
				    "; vendors backport, so check /sys/block/DEV/queue/scheduler on it");
	if (plan->device.offline)
		sp_plan_add_warning(plan, "offline",
				    "planned without probing %s; apply re-probes it and refuses if its "
				    "size or sector sizes differ",
				    plan->device.path);
	return 0;
}

/*
 * After the array stage, the later stages reason on the geometry the
 * plan has, whether declared or read from the kernel: they get the spec
 * with the array's values in it.
 */
static void effective_spec(const struct sp_plan *plan, struct sp_spec *eff)
{
	eff->level = plan->level;
	eff->disks = plan->disks;
	eff->chunk_bytes = plan->chunk_bytes;
	eff->omitted &= ~(SP_FIELD_LEVEL | SP_FIELD_DISKS | SP_FIELD_CHUNK);
}

/*
 * The stages after the array's, in the order a person reasons about a
 * plan; each fills its part of the plan from the spec, the profile and
 * what the stages before it decided.  A layer of the storage stack is a
 * stage here.
 */
static int (*const stages[])(const struct sp_spec *spec, const struct sp_profile *profile,
			     struct sp_plan *plan, struct sp_error *err) = {
	sp_plan_partition,
	sp_plan_stack,
	sp_plan_filesystem,
	sp_plan_mount,
	sp_plan_tuning,
	plan_notes,
};

static int make(const struct sp_spec *spec, const struct sp_profile *profile,
		const struct sp_facts *facts, size_t n_stages, struct sp_plan *ret,
		struct sp_error *err)
{
	static struct sp_plan zero;
	struct sp_plan *plan;
	struct sp_spec *eff;
	int r;

	plan = malloc(sizeof(*plan));
	eff = malloc(sizeof(*eff));
	if (!plan || !eff) {
		free(plan);
		free(eff);
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	}
	*plan = zero;
	*eff = *spec;
	if (sp_facts_copy(&plan->device, facts) < 0) {
		free(plan);
		free(eff);
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	}
	plan->kernel = spec->kernel;
	r = check_facts(facts, err);
	if (r == 0)
		r = sp_plan_array(spec, profile, facts, plan, err);
	if (r == 0)
		effective_spec(plan, eff);
	for (size_t i = 0; r == 0 && i < n_stages; i++)
		r = stages[i](eff, profile, plan, err);
	if (r == 0 && plan->warnings_out_of_memory)
		r = sp_error_set(err, ENOMEM, SP_ERR_FAILED,
				 "out of memory for the plan's warnings (%zu kept)", plan->n_warnings);
	if (r == 0)
		*ret = *plan;
	else
		sp_plan_release(plan);
	free(eff);
	free(plan);
	return r;
}

int sp_plan_make(const struct sp_spec *spec, const struct sp_profile *profile,
		 const struct sp_facts *facts, struct sp_plan *ret, struct sp_error *err)
{
	return make(spec, profile, facts, ARRAY_SIZE(stages), ret, err);
}

int sp_plan_make_geometry(const struct sp_spec *spec, const struct sp_profile *profile,
			  const struct sp_facts *facts, struct sp_plan *ret, struct sp_error *err)
{
	return make(spec, profile, facts, 0, ret, err);
}

void sp_plan_release(struct sp_plan *plan)
{
	if (!plan)
		return;
	free(plan->tuning);
	plan->tuning = NULL;
	plan->n_tuning = 0;
	free(plan->warnings);
	plan->warnings = NULL;
	plan->n_warnings = 0;
	sp_facts_release(&plan->device);
}

int sp_plan_copy(struct sp_plan *dst, const struct sp_plan *src)
{
	*dst = *src;
	dst->tuning = NULL;
	dst->n_tuning = 0;
	dst->warnings = NULL;
	dst->n_warnings = 0;
	if (sp_facts_copy(&dst->device, &src->device) < 0 ||
	    sp_array_dup(&dst->tuning, src->tuning, src->n_tuning, sizeof(*src->tuning)) < 0 ||
	    sp_array_dup(&dst->warnings, src->warnings, src->n_warnings,
			 sizeof(*src->warnings)) < 0) {
		sp_plan_release(dst);
		return -ENOMEM;
	}
	dst->n_tuning = src->n_tuning;
	dst->n_warnings = src->n_warnings;
	return 0;
}
