/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tuning stage: the knobs the plan sets on the device and, of an md
 * array, on each member disk (the profile's, by recipe and level; the
 * scheduler the kernel has under the profile's name; md's stripe cache
 * sized from the array and the memory budget), the module options that
 * change something, and each profile knob it leaves out with why.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/devname.h"
#include "base/error.h"
#include "base/units.h"
#include "kernel/kernel.h"
#include "kernel/knob.h"
#include "limits/limit.h"
#include "plan-internal.h"

struct sp_tuning *sp_plan_add_tuning(struct sp_plan *plan)
{
	struct sp_tuning *t;

	if (plan->n_tuning >= SP_MAX_TUNING ||
	    sp_array_room(&plan->tuning, plan->n_tuning, sizeof(*plan->tuning)) < 0)
		return NULL;
	t = &plan->tuning[plan->n_tuning++];
	memset(t, 0, sizeof(*t));
	return t;
}

/* -E2BIG when the plan holds no more: a knob is never dropped unsaid */
static int tuning_add(struct sp_plan *plan, enum sp_tuning_kind kind, const char *disk,
		      const char *knob, const struct sp_value *value, const char *why)
{
	struct sp_tuning *t;

	t = sp_plan_add_tuning(plan);
	if (!t)
		return plan->n_tuning >= SP_MAX_TUNING ? -E2BIG : -ENOMEM;
	t->kind = kind;
	snprintf(t->device, sizeof(t->device), "%s", disk);
	snprintf(t->attribute, sizeof(t->attribute), "%s", knob);
	t->value = *value;
	snprintf(t->why, sizeof(t->why), "%s", why);
	return 0;
}

static bool offered(const struct sp_facts *f, const char *name)
{
	for (size_t i = 0; name && i < f->n_schedulers; i++)
		if (!strcmp(f->schedulers[i], name))
			return true;
	return false;
}

static bool has_warning_on(const struct sp_plan *plan, const char *code, const char *where)
{
	for (size_t i = 0; i < plan->n_warnings; i++)
		if (!strcmp(plan->warnings[i].code, code) && strstr(plan->warnings[i].message, where))
			return true;
	return false;
}

/*
 * The kernel planned for has no such scheduler on this disk's queue (a
 * blk-mq queue before mq-deadline's or bfq's release, kyber on a single
 * queue): nothing is written, so the disk keeps the kernel's own, and the
 * plan says so with the row -- once for the device, once for the members.
 */
static void scheduler_dropped(const struct sp_spec *spec, struct sp_plan *plan, bool is_device,
			      const char *disk, const char *wanted)
{
	enum sp_queue_family family = sp_queue_family_of(disk);
	enum sp_limit_id row = sp_kernel_scheduler_missing(&spec->kernel, family, wanted);
	bool mq = sp_kernel_queue_is_blk_mq(&spec->kernel, family);
	bool legacy = !strcmp(wanted, "noop") || !strcmp(wanted, "deadline") || !strcmp(wanted, "cfq");
	const char *alias = sp_kernel_scheduler_alias(wanted);
	char where[SP_NAME_MAX + 16], asked[48] = "";

	if (row == SP_LIMIT_COUNT)
		return;
	snprintf(where, sizeof(where), "on %s:", is_device ? disk : "the member disks");
	if (has_warning_on(plan, "scheduler-not-in-release", where))
		return;
	/* a blk-mq queue calls the profile's deadline mq-deadline */
	if (mq && legacy && alias)
		snprintf(asked, sizeof(asked), " (the profile's %s)", wanted);
	sp_plan_add_warning(plan, "scheduler-not-in-release",
			    "queue/scheduler is not planned %s Linux %s has no %s%s on a %s queue "
			    "(limits row %s: %s), so the disk keeps the scheduler the kernel gives it",
			    where, spec->kernel.release, asked[0] ? alias : wanted, asked,
			    mq ? "blk-mq" : "single", sp_limit(row)->id, SP_LIMIT_CITED(row));
}

/*
 * The kernel's name for the scheduler the profile wants.  For the running
 * kernel the probed device's queue/scheduler is the truth (vendors
 * backport, configs differ); for a release string, the kernel rules.
 */
static const char *choose_scheduler(const struct sp_spec *spec, struct sp_plan *plan,
				    bool is_device, const char *disk, const char *wanted)
{
	const struct sp_facts *f = &plan->device;
	const char *name = sp_kernel_scheduler_name(&spec->kernel, sp_queue_family_of(disk), wanted);
	const char *alias = name ? sp_kernel_scheduler_alias(name) : NULL;
	char list[8 * 17] = "";
	size_t used = 0;

	if (!is_device || !spec->kernel_is_running || f->offline || !f->n_schedulers) {
		if (!name)
			scheduler_dropped(spec, plan, is_device, disk, wanted);
		return name;
	}
	if (offered(f, name))
		return name;
	if (offered(f, alias))
		return alias;
	for (size_t i = 0; i < f->n_schedulers; i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? " " : "",
					 f->schedulers[i]);
	sp_plan_add_warning(plan, "scheduler-not-offered",
			    "%s offers the schedulers '%s' on Linux %s, not %s: its scheduler is "
			    "left as it is",
			    disk, list, spec->kernel.release, name ? name : wanted);
	return NULL;
}

static bool knob_applies(const struct sp_spec *spec, const struct sp_profile_knob *k)
{
	return !k->levels_mask || (k->levels_mask & sp_level_bit(spec->level));
}

/*
 * Whether the plan sets profile knob i: the default tuning sets the knobs
 * that are right on current kernels and disks; the field report's recipe
 * adds the others, each replacing a default knob on the same attribute.
 */
static bool knob_planned(const struct sp_spec *spec, const struct sp_profile *profile, size_t i)
{
	const struct sp_profile_knob *k = &profile->knobs[i];

	if (!knob_applies(spec, k))
		return false;
	if (spec->tuning_recipe == SP_TUNING_DEFAULT)
		return k->on_by_default;
	if (!k->on_by_default)
		return true;
	for (size_t j = 0; j < profile->n_knobs; j++) {
		const struct sp_profile_knob *o = &profile->knobs[j];

		if (j != i && !o->on_by_default && o->target == k->target &&
		    !strcmp(o->knob, k->knob) && knob_applies(spec, o))
			return false;
	}
	return true;
}

/* A module option equal to the driver's default changes nothing. */
static bool module_option_planned(const struct sp_spec *spec, const struct sp_profile_module_option *o)
{
	return spec->tuning_recipe == SP_TUNING_FIELD_REPORT ||
	       !sp_value_equal(&o->value, &o->driver_default);
}

/*
 * md's stripe cache, sized from the array: one entry is a 4 KiB page on
 * every member, so a full stripe needs chunk / 4 KiB entries; room for
 * four full stripes in flight lets md gather whole stripes from
 * writeback, within the memory budget.  Returns false when the kernel's
 * default (256) already holds that many.
 */
static bool md_stripe_cache_entries(const struct sp_spec *spec, struct sp_plan *plan,
				    struct sp_value *ret)
{
	uint64_t want = 4 * (plan->chunk_bytes / SP_PAGE_BYTES);
	uint64_t affordable = plan->memory_budget_bytes / (SP_PAGE_BYTES * spec->disks);
	uint64_t entries = want < affordable ? want : affordable;

	if (entries > sp_limit(SP_LIMIT_MD_STRIPE_CACHE)->max)
		entries = sp_limit(SP_LIMIT_MD_STRIPE_CACHE)->max;
	if (entries <= 256) {
		if (want > 256)
			sp_plan_add_warning(plan, "md-stripe-cache-budget",
					    "four full stripes would take %" PRIu64 " stripe cache entries "
					    "(%s), more than the %s memory budget affords above the "
					    "kernel's 256; md/stripe_cache_size is left at its default",
					    want,
					    SP_SIZE_TEXT(want * SP_PAGE_BYTES * spec->disks, SP_SIZE_HUMAN),
					    SP_SIZE_TEXT(plan->memory_budget_bytes, SP_SIZE_HUMAN));
		return false;
	}
	*ret = sp_value_number(entries);
	return true;
}

/* The scheduler the plan sets on disk, or NULL: the kernel's own stays. */
static const struct sp_value *planned_scheduler(const struct sp_plan *plan, const char *disk)
{
	for (size_t i = 0; i < plan->n_tuning; i++)
		if (!strcmp(plan->tuning[i].device, disk) &&
		    !strcmp(plan->tuning[i].attribute, "queue/scheduler"))
			return &plan->tuning[i].value;
	return NULL;
}

/*
 * On a blk-mq queue with a scheduler -- the one the plan sets, or the
 * kernel's default, mq-deadline on a single-queue disk -- nr_requests
 * above 2048 is refused, not lowered; only 'none' takes up to the tag
 * depth, which the running kernel alone knows.  The legacy queues before
 * it take any value.
 */
static int check_nr_requests(const struct sp_spec *spec, const struct sp_plan *plan,
			     const char *disk, const char *knob, const struct sp_value *value,
			     struct sp_error *err)
{
	const struct sp_value *sched = planned_scheduler(plan, disk);
	char field[SP_NAME_MAX + 32], detail[SP_MSG_MAX];

	if (strcmp(knob, "queue/nr_requests") != 0 ||
	    !sp_kernel_queue_is_blk_mq(&spec->kernel, sp_queue_family_of(disk)) ||
	    (sched && sched->scheduler == SP_SCHED_NONE))
		return 0;
	snprintf(field, sizeof(field), "%s/%s", disk, knob);
	snprintf(detail, sizeof(detail), "the %s profile asks for %" PRIu64 " with %s on Linux %s",
		 plan->controller, value->number,
		 sched ? sp_scheduler_name(sched->scheduler) : "the kernel's default scheduler",
		 spec->kernel.release);
	return sp_limit_check(SP_LIMIT_NR_REQUESTS_SCHED, value->number, field, detail, err);
}

/*
 * The knobs whose bound only the disk knows (array/facts.h): a profile's
 * value above it is lowered to it -- the profile is right for its
 * controller, the disk is smaller -- and said, once per knob for all the
 * disks it was lowered on.  Unknown bounds (0) bound nothing.
 */
struct lowered {
	const char *knob;
	enum sp_limit_id limit;
	const char *bound; /* what the disk's bound is called */
	uint64_t asked;
	size_t n, listed, used;
	char disks[SP_MSG_MAX / 2];
};

enum { LOWER_MAX_SECTORS, LOWER_NR_REQUESTS, LOWER_COUNT };

static void lowered_init(struct lowered low[LOWER_COUNT])
{
	memset(low, 0, LOWER_COUNT * sizeof(*low));
	low[LOWER_MAX_SECTORS] = (struct lowered){ .knob = "queue/max_sectors_kb",
						   .limit = SP_LIMIT_MAX_SECTORS_HW,
						   .bound = "queue/max_hw_sectors_kb" };
	low[LOWER_NR_REQUESTS] = (struct lowered){ .knob = "queue/nr_requests",
						   .limit = SP_LIMIT_NR_REQUESTS_TAGS,
						   .bound = "tag depth (mq/*/nr_tags) with scheduler none" };
}

/* The bounds of disk: the device's own, or an md member's. */
static void disk_bounds(const struct sp_facts *f, const char *disk, uint64_t *max_hw_kib,
			unsigned *tag_depth)
{
	*max_hw_kib = 0;
	*tag_depth = 0;
	if (!strcmp(disk, f->kernel_name)) {
		*max_hw_kib = f->max_hw_sectors_kib;
		*tag_depth = f->tag_depth;
		return;
	}
	for (size_t i = 0; f->md.present && i < f->md.n_members; i++)
		if (!strcmp(f->md.members[i].disk, disk)) {
			*max_hw_kib = f->md.members[i].max_hw_sectors_kib;
			*tag_depth = f->md.members[i].tag_depth;
			return;
		}
}

/*
 * The bound of this knob on disk, or 0: max_sectors_kb always has one
 * (6.1 refuses more, 6.12 lowers it itself); nr_requests only without a
 * scheduler -- with one it grows up to MAX_SCHED_RQ, which
 * check_nr_requests() holds.
 */
static struct lowered *bound_of(const struct sp_plan *plan, const char *disk, const char *knob,
				struct lowered low[LOWER_COUNT], uint64_t *ret)
{
	const struct sp_value *sched = planned_scheduler(plan, disk);
	uint64_t max_hw_kib;
	unsigned tag_depth;

	disk_bounds(&plan->device, disk, &max_hw_kib, &tag_depth);
	*ret = 0;
	if (!strcmp(knob, low[LOWER_MAX_SECTORS].knob)) {
		*ret = max_hw_kib;
		return &low[LOWER_MAX_SECTORS];
	}
	if (!strcmp(knob, low[LOWER_NR_REQUESTS].knob) && sched &&
	    sched->scheduler == SP_SCHED_NONE) {
		*ret = tag_depth;
		return &low[LOWER_NR_REQUESTS];
	}
	return NULL;
}

/*
 * false when the knob cannot be set on disk at all: a bound below the
 * least the kernel takes (nr_requests below 4 is raised to 4 before the
 * tag depth is checked, queue_requests_store(); a facts file may claim a
 * max_hw_sectors_kb below a page, which no queue has) -- left out, said.
 */
static bool lower_to_bound(struct sp_plan *plan, const char *disk, const char *knob,
			   struct sp_value *value, char *why, size_t why_len,
			   struct lowered low[LOWER_COUNT])
{
	uint64_t bound;
	struct lowered *l = bound_of(plan, disk, knob, low, &bound);
	size_t n;

	if (!l || !bound || value->kind != SP_VALUE_NUMBER || value->number <= bound)
		return true;
	if (bound < sp_limit(l->limit)->min) {
		sp_plan_add_warning(plan, "knob-not-settable",
				    "%s on %s is not planned: its %s is %" PRIu64 ", and Linux takes "
				    "no value below %" PRIu64 " there (%s)",
				    knob, disk, l->bound, bound, sp_limit(l->limit)->min,
				    SP_LIMIT_CITED(l->limit));
		return false;
	}
	n = strlen(why);
	snprintf(why + n, why_len - n, "; lowered from %" PRIu64 " to %s's %s, %" PRIu64,
		 value->number, disk, l->bound, bound);
	l->asked = value->number;
	/* the disks that fit, then how many more (1920 md members do not) */
	if (l->used + SP_NAME_MAX + 32 < sizeof(l->disks)) {
		l->used += (size_t)snprintf(l->disks + l->used, sizeof(l->disks) - l->used,
					    "%s%s (%" PRIu64 ")", l->n ? ", " : "", disk, bound);
		l->listed++;
	}
	l->n++;
	value->number = bound;
	return true;
}

static void lowered_warnings(struct sp_plan *plan, const struct lowered low[LOWER_COUNT])
{
	for (size_t i = 0; i < LOWER_COUNT; i++) {
		char more[48] = "";

		if (!low[i].n)
			continue;
		if (low[i].n > low[i].listed)
			snprintf(more, sizeof(more), " and %zu more", low[i].n - low[i].listed);
		sp_plan_add_warning(plan, "knob-lowered",
				    "%s is planned lower than the %s profile's %" PRIu64
				    " on %s%s: the %s, above which Linux refuses it (limits row %s: %s)",
				    low[i].knob, plan->controller, low[i].asked, low[i].disks, more,
				    low[i].bound, sp_limit(low[i].limit)->id, SP_LIMIT_CITED(low[i].limit));
	}
}

static int tune_disk(const struct sp_spec *spec, const struct sp_profile *profile,
		     struct sp_plan *plan, const char *disk, enum sp_knob_target target,
		     struct lowered low[LOWER_COUNT], struct sp_error *err)
{
	const char *wanted = target == SP_TARGET_DEVICE ? profile->scheduler : profile->member_scheduler;
	char why[SP_MSG_MAX + 96];
	int r = 0;

	/* md devices have no queue of their own to schedule */
	if (wanted[0] && !(profile->is_md && target == SP_TARGET_DEVICE)) {
		const char *name = choose_scheduler(spec, plan, target == SP_TARGET_DEVICE, disk, wanted);
		struct sp_value v = { .kind = SP_VALUE_SCHEDULER };

		if (name && sp_scheduler_from_name(name, &v.scheduler) == 0)
			r = tuning_add(plan, SP_TUNING_SYSFS, disk, "queue/scheduler", &v,
				   target == SP_TARGET_DEVICE ? profile->scheduler_why :
				   "member disks of an md array: deadline keeps reads from starving behind resync and writeback");
	}
	for (size_t i = 0; r == 0 && i < profile->n_knobs; i++) {
		const struct sp_profile_knob *k = &profile->knobs[i];
		struct sp_value value = k->value;

		if (k->target != target || !knob_planned(spec, profile, i))
			continue;
		if (target == SP_TARGET_MEMBERS && sp_plan_member_lacks(&plan->device, disk, k->knob))
			continue; /* noted once for all members by note_missing_knobs() */
		snprintf(why, sizeof(why), "%s", k->why);
		if (!strcmp(k->knob, "queue/read_ahead_kb"))
			snprintf(why, sizeof(why),
				 "%s (read_ahead_kb counts KiB: blockdev --setra %" PRIu64
				 ", in 512-byte sectors)",
				 k->why, k->value.number * 2);
		if (value.kind == SP_VALUE_AUTO && !md_stripe_cache_entries(spec, plan, &value))
			continue;
		if (!lower_to_bound(plan, disk, k->knob, &value, why, sizeof(why), low))
			continue;
		r = check_nr_requests(spec, plan, disk, k->knob, &value, err);
		if (r == 0)
			r = tuning_add(plan, SP_TUNING_SYSFS, disk, k->knob, &value, why);
	}
	return r;
}

static void plan_md_memory(struct sp_plan *plan)
{
	for (size_t i = 0; i < plan->n_tuning; i++) {
		uint64_t entries;

		if (strcmp(plan->tuning[i].attribute, "md/stripe_cache_size") != 0)
			continue;
		entries = plan->tuning[i].value.number;
		plan->md_stripe_cache_bytes = entries * SP_PAGE_BYTES * plan->disks;
		sp_plan_add_warning(plan, "md-stripe-cache-memory",
				    "md/stripe_cache_size %" PRIu64 " costs %" PRIu64
				    " entries x 4 KiB pages x %u member disks = %s of RAM, held "
				    "while the array runs (range %" PRIu64 "..%" PRIu64 ", default 256; memory "
				    "budget %s, --memory-budget)",
				    entries, entries, plan->disks,
				    SP_SIZE_TEXT(plan->md_stripe_cache_bytes, SP_SIZE_HUMAN),
				    sp_limit(SP_LIMIT_MD_STRIPE_CACHE)->min,
				    sp_limit(SP_LIMIT_MD_STRIPE_CACHE)->max,
				    SP_SIZE_TEXT(plan->memory_budget_bytes, SP_SIZE_HUMAN));
	}
}

static void left_out_add(struct sp_plan *plan, const char *what, const char *why,
			 const char *reason)
{
	struct sp_left_out *l;

	if (plan->n_left_out >= SP_MAX_LEFT_OUT)
		return;
	l = &plan->left_out[plan->n_left_out++];
	snprintf(l->what, sizeof(l->what), "%s", what);
	snprintf(l->why, sizeof(l->why), "%s", why);
	snprintf(l->reason, sizeof(l->reason), "%s", reason);
}

/* The field report's knobs the default tuning leaves out, with why. */
static void plan_left_out(const struct sp_spec *spec, const struct sp_profile *profile,
			  struct sp_plan *plan)
{
	char what[2 * SP_NAME_MAX], reason[SP_MSG_MAX];

	for (size_t i = 0; i < profile->n_knobs; i++) {
		const struct sp_profile_knob *k = &profile->knobs[i];

		if (!knob_applies(spec, k) || knob_planned(spec, profile, i))
			continue;
		if (k->on_by_default)
			continue; /* replaced by the field report's own value */
		snprintf(what, sizeof(what), "%s%s = %s", k->target == SP_TARGET_MEMBERS ? "members: " : "",
			 k->knob, SP_VALUE_TEXT(&k->value));
		snprintf(reason, sizeof(reason), "%s%s--tuning field-report sets it", k->holds,
			 k->holds[0] ? "; " : "");
		left_out_add(plan, what, k->why, reason);
	}
	for (size_t i = 0; i < profile->n_module_options; i++) {
		const struct sp_profile_module_option *o = &profile->module_options[i];

		if (module_option_planned(spec, o))
			continue;
		snprintf(what, sizeof(what), "options %s %s=%s", o->module, o->param,
			 SP_VALUE_TEXT(&o->value));
		snprintf(reason, sizeof(reason), "the driver's default is %s already: the line would "
			 "change nothing; --tuning field-report writes it as the report did",
			 SP_VALUE_TEXT(&o->driver_default));
		left_out_add(plan, what, o->why, reason);
	}
}

/* Knobs the probe saw a member lacks are left out; say which and why. */
static void note_missing_knobs(const struct sp_spec *spec, const struct sp_profile *profile,
			       struct sp_plan *plan)
{
	for (size_t i = 0; i < profile->n_knobs; i++) {
		const struct sp_profile_knob *k = &profile->knobs[i];
		char disks[SP_MSG_MAX / 2] = "";
		size_t used = 0, n = 0;

		if (k->target != SP_TARGET_MEMBERS || !knob_planned(spec, profile, i))
			continue;
		for (size_t m = 0; m < plan->n_members; m++) {
			if (!sp_plan_member_lacks(&plan->device, plan->members[m], k->knob))
				continue;
			used += (size_t)snprintf(disks + used, used < sizeof(disks) ? sizeof(disks) - used : 0,
						 "%s%s", n++ ? ", " : "", plan->members[m]);
		}
		if (n)
			sp_plan_add_warning(plan, "md-member-knob-missing",
					    "%s %s no %s (SCSI disks have it; NVMe and virtio disks "
					    "do not): not tuned there",
					    disks, n == 1 ? "has" : "have", k->knob);
	}
}

int sp_plan_tuning(const struct sp_spec *spec, const struct sp_profile *profile,
		   struct sp_plan *plan, struct sp_error *err)
{
	const char *disk = plan->device.kernel_name;
	struct lowered low[LOWER_COUNT];
	int r = 0;

	lowered_init(low);
	plan->tuning_recipe = spec->tuning_recipe;
	plan->memory_budget_bytes = spec->memory_budget_bytes ? spec->memory_budget_bytes :
				    SP_MEMORY_BUDGET_DEFAULT;
	if (spec->n_members && !profile->is_md)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "members: --members applies to md arrays, not to %s", profile->name);
	if (spec->n_members > SP_MAX_MEMBERS)
		return sp_error_set(err, E2BIG, SP_ERR_INVALID,
				    "members: more than %u member disks", SP_MAX_MEMBERS);
	/* the names become sysfs paths and udev matches: keep them plain */
	for (size_t m = 0; m < spec->n_members; m++)
		if (!sp_block_name_ok(spec->members[m]))
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "members: '%s' is not a block device name",
					    spec->members[m]);
	if (disk[0])
		r = tune_disk(spec, profile, plan, disk, SP_TARGET_DEVICE, low, err);
	else
		/* offline by a stable link: the knobs are /sys/block/NAME's */
		sp_plan_add_warning(plan, "kernel-name-unknown",
				    "the kernel's name of %s is not known without probing it, so no "
				    "queue knob is planned for it: apply given these options probes it "
				    "and plans them (the installer snippets do); this plan as a file "
				    "has none",
				    plan->device.path);
	plan->members_source = SP_SOURCE_NONE;
	if (profile->is_md)
		sp_plan_members(spec, &plan->device, plan);
	/* members the kernel named (a facts file is untrusted too) */
	for (size_t m = 0; m < plan->n_members; m++)
		if (!sp_block_name_ok(plan->members[m]))
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "members: '%s' is not a block device name",
					    plan->members[m]);
	for (size_t m = 0; r == 0 && m < plan->n_members; m++)
		r = tune_disk(spec, profile, plan, plan->members[m], SP_TARGET_MEMBERS, low, err);
	note_missing_knobs(spec, profile, plan);
	if (profile->is_md && !plan->n_members)
		sp_plan_add_warning(plan, "md-members-unknown",
				    "give --members sdb,sdc,... to tune the member disks too "
				    "(scheduler, max_sectors_kb, nr_requests, queue_depth)");
	for (size_t i = 0; i < profile->n_module_options; i++) {
		const struct sp_profile_module_option *o = &profile->module_options[i];

		if (r == 0 && module_option_planned(spec, o))
			r = tuning_add(plan, SP_TUNING_MODULE, o->module, o->param, &o->value,
				       o->why);
	}
	if (r == -ENOMEM)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED,
				    "out of memory for the knobs of %zu member disks", plan->n_members);
	if (r < 0 && r != -E2BIG)
		return r; /* a knob outside its limit: err names it */
	if (r < 0)
		return sp_error_set(err, -r, SP_ERR_INVALID,
				    "members: the plan would set more than the %u knobs a plan holds "
				    "(%zu member disks)",
				    SP_MAX_TUNING, plan->n_members);
	lowered_warnings(plan, low);
	sp_plan_stack_read_ahead(plan);
	plan_md_memory(plan);
	plan_left_out(spec, profile, plan);
	return 0;
}
