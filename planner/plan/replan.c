/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A plan file is executed as root, and it comes from a person's editor.
 * Checking the dangerous parts one by one (the first and last word of the
 * mkfs argv, the prefix of a tuning path) left the rest open: an extra
 * `-l logdev=/dev/sdX` in the argv, `queue/iostats=0`, another device's
 * read_ahead_kb, a `nobarrier` fstab line.  So nothing in the file is
 * executed as written: the request is read from its fields and planned
 * again, pure, for the file's own device facts, and the file must be that
 * plan exactly.  Pure: no I/O.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "plan.h"
#include "schema/schema.h"

#define differ sp_error_set

static bool has_option(const struct sp_plan *p, const char *opt)
{
	for (size_t i = 0; i < p->n_mount_options; i++)
		if (!strcmp(p->mount_options[i], opt))
			return true;
	return false;
}

int sp_plan_spec(const struct sp_plan *p, struct sp_spec *ret, struct sp_error *err)
{
	struct sp_spec *s = calloc(1, sizeof(*s));

	if (!s)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	snprintf(s->controller, sizeof(s->controller), "%s", p->controller);
	s->level = p->level;
	s->disks = p->disks;
	s->spans = sp_level_has_spans(p->level) ? p->spans : 0;
	s->chunk_bytes = p->chunk_bytes;
	s->fs = p->fs;
	s->table = p->table;
	/* the planner writes these two only when barriers were turned off */
	s->barriers = has_option(p, "nobarrier") || has_option(p, "barrier=0") ?
			      SP_BARRIERS_OFF :
			      SP_BARRIERS_DEFAULT;
	snprintf(s->mountpoint, sizeof(s->mountpoint), "%s", p->mountpoint);
	snprintf(s->label, sizeof(s->label), "%s", p->label);
	s->workload = p->workload;
	/* the tuning the plan was made with: without them a field-report or
	 * budgeted md plan would replan as the default and be refused */
	s->tuning_recipe = p->tuning_recipe;
	s->memory_budget_bytes = p->memory_budget_bytes;
	if (p->level == SP_LEVEL_10)
		s->layout = p->layout;
	s->n_members = p->n_members;
	for (size_t i = 0; i < p->n_members && i < SP_MAX_MEMBERS; i++)
		snprintf(s->members[i], sizeof(s->members[i]), "%s", p->members[i]);
	s->kernel = p->kernel;
	/* the stack and its names, which the plan recorded whether typed or
	 * the defaults */
	s->n_layers = p->n_layers < SP_MAX_LAYERS ? p->n_layers : SP_MAX_LAYERS;
	memcpy(s->layers, p->layers, sizeof(s->layers));
	if (sp_plan_has_layer(p, SP_LAYER_LVM)) {
		snprintf(s->vg_name, sizeof(s->vg_name), "%s", p->lvm.vg);
		snprintf(s->lv_name, sizeof(s->lv_name), "%s", p->lvm.lv);
	}
	if (sp_plan_has_layer(p, SP_LAYER_LUKS))
		snprintf(s->luks_name, sizeof(s->luks_name), "%s", p->luks.name);
	*ret = *s;
	free(s);
	return 0;
}

static int differ_str(const char *field, const char *have, const char *want,
		      struct sp_error *err)
{
	if (!strcmp(have, want))
		return 0;
	return differ(err, EINVAL, SP_ERR_INVALID,
		      "plan: %s is '%s', but stripeplan plans '%s' from the file's own fields",
		      field, have, want);
}

int sp_plan_replan(const struct sp_plan *file, const struct sp_profile *profile,
		   bool force_mountpoint, struct sp_plan *ret, struct sp_error *err)
{
	const struct sp_where root = { .name = "", .prefix = "plan", .view = SP_VIEW_PLAN };
	struct sp_spec *spec = calloc(1, sizeof(*spec));
	struct sp_plan *want = calloc(1, sizeof(*want));
	int r;

	if (!spec || !want) {
		r = sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
		goto out;
	}
	r = sp_plan_spec(file, spec, err);
	spec->force_mountpoint = force_mountpoint;
	if (r == 0 && strcmp(profile->name, file->controller))
		r = differ_str("array.controller", file->controller, profile->name, err);
	if (r == 0)
		r = sp_plan_make(spec, profile, &file->device, want, err);
	if (r < 0) {
		/* the file asks for something the planner refuses: say where it came from */
		char msg[SP_MSG_MAX];

		snprintf(msg, sizeof(msg), "%s", err ? err->message : "");
		if (err && strncmp(msg, "plan: ", 6))
			sp_error_set(err, -r, err->kind,
				     "plan: the file's fields are not a plan stripeplan makes: %s", msg);
		goto out;
	}
	/* every field the plan's table compares, the geometry first */
	r = sp_schema_compare(&sp_plan_schema, file, want, &root, err);
	if (r < 0)
		goto out;
	*ret = *want;
out:
	if (r < 0)
		sp_plan_release(want);
	free(want);
	free(spec);
	return r;
}
