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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stripeplan.h"

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
	int r;

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
	r = sp_parse_kernel(p->kernel_release, &s->kernel, err);
	if (r == 0)
		*ret = *s;
	free(s);
	return r;
}

static int differ_u64(const char *field, uint64_t have, uint64_t want, struct sp_error *err)
{
	if (have == want)
		return 0;
	return differ(err, EINVAL, SP_ERR_INVALID,
		      "plan: %s is %" PRIu64 ", but stripeplan plans %" PRIu64
		      " from the file's own fields",
		      field, have, want);
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

static int differ_count(const char *field, size_t have, size_t want, struct sp_error *err)
{
	if (have == want)
		return 0;
	return differ(err, EINVAL, SP_ERR_INVALID,
		      "plan: %s has %zu entries, but stripeplan plans %zu from the file's own "
		      "fields",
		      field, have, want);
}

static int compare_geometry(const struct sp_plan *f, const struct sp_plan *w, struct sp_error *err)
{
	int r = 0;

	if (!r) r = differ_u64("array.data_disks", f->data_disks, w->data_disks, err);
	if (!r) r = differ_u64("array.stripe_width_bytes", f->stripe_width_bytes, w->stripe_width_bytes, err);
	if (!r) r = differ_u64("partition.align_bytes", f->align_bytes, w->align_bytes, err);
	if (!r) r = differ_u64("partition.start_bytes", f->start_bytes, w->start_bytes, err);
	if (!r) r = differ_u64("partition.size_bytes", f->size_bytes, w->size_bytes, err);
	if (!r) r = differ_u64("partition.reserved_tail_bytes", f->reserved_tail_bytes, w->reserved_tail_bytes, err);
	if (!r) r = differ_str("partition.path", f->partition_path, w->partition_path, err);
	if (!r) r = differ_u64("filesystem.block_bytes", f->block_bytes, w->block_bytes, err);
	if (!r) r = differ_u64("filesystem.xfs.su_bytes", f->xfs_su_bytes, w->xfs_su_bytes, err);
	if (!r) r = differ_u64("filesystem.xfs.sw", f->xfs_sw, w->xfs_sw, err);
	if (!r) r = differ_u64("filesystem.xfs.log_su_bytes", f->xfs_log_su_bytes, w->xfs_log_su_bytes, err);
	if (!r) r = differ_u64("filesystem.xfs.agsize_bytes", f->xfs_agsize_bytes, w->xfs_agsize_bytes, err);
	if (!r) r = differ_u64("filesystem.ext.stride_blocks", f->ext_stride_blocks, w->ext_stride_blocks, err);
	if (!r) r = differ_u64("filesystem.ext.stripe_width_blocks", f->ext_stripe_width_blocks, w->ext_stripe_width_blocks, err);
	if (!r) r = differ_u64("md_stripe_cache_bytes", f->md_stripe_cache_bytes, w->md_stripe_cache_bytes, err);
	return r;
}

/* A list of strings, the rows of a char array stride bytes apart: its
 * length, then entry by entry. */
static int differ_list(const char *name, const char *have, size_t n_have, const char *want,
		       size_t n_want, size_t stride, struct sp_error *err)
{
	char field[64];
	int r = differ_count(name, n_have, n_want, err);

	for (size_t i = 0; r == 0 && i < n_want; i++) {
		snprintf(field, sizeof(field), "%s[%zu]", name, i);
		r = differ_str(field, have + i * stride, want + i * stride, err);
	}
	return r;
}

static int compare_argv(const struct sp_plan *f, const struct sp_plan *w, struct sp_error *err)
{
	return differ_list("filesystem.mkfs_argv", (const char *)f->mkfs_argv, f->n_mkfs_argv,
			   (const char *)w->mkfs_argv, w->n_mkfs_argv, sizeof(f->mkfs_argv[0]), err);
}

static int compare_mount(const struct sp_plan *f, const struct sp_plan *w, struct sp_error *err)
{
	int r = differ_list("mount.options", (const char *)f->mount_options, f->n_mount_options,
			    (const char *)w->mount_options, w->n_mount_options,
			    sizeof(f->mount_options[0]), err);

	if (r == 0)
		r = differ_str("mount.fstab", f->fstab_line, w->fstab_line, err);
	return r;
}

static int compare_tuning(const struct sp_plan *f, const struct sp_plan *w, struct sp_error *err)
{
	char field[64];
	int r = differ_count("tuning", f->n_tuning, w->n_tuning, err);

	for (size_t i = 0; r == 0 && i < w->n_tuning; i++) {
		const struct sp_tuning *a = &f->tuning[i], *b = &w->tuning[i];

		snprintf(field, sizeof(field), "tuning[%zu] device", i);
		r = differ_str(field, a->device, b->device, err);
		if (r == 0) {
			snprintf(field, sizeof(field), "tuning[%zu] attribute", i);
			r = differ_str(field, a->attribute, b->attribute, err);
		}
		if (r == 0) {
			snprintf(field, sizeof(field), "tuning[%zu].value", i);
			r = differ_str(field, a->value, b->value, err);
		}
		if (r == 0) {
			snprintf(field, sizeof(field), "tuning[%zu].kind", i);
			r = differ_u64(field, a->kind, b->kind, err);
		}
		/* the reason lands in the tune script and udev rule as a comment */
		if (r == 0) {
			snprintf(field, sizeof(field), "tuning[%zu].why", i);
			r = differ_str(field, a->why, b->why, err);
		}
	}
	return r;
}

int sp_plan_replan(const struct sp_plan *file, const struct sp_profile *profile,
		   bool force_mountpoint, struct sp_plan *ret, struct sp_error *err)
{
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
	if ((r = compare_geometry(file, want, err)) < 0 || (r = compare_argv(file, want, err)) < 0 ||
	    (r = compare_mount(file, want, err)) < 0 || (r = compare_tuning(file, want, err)) < 0)
		goto out;
	*ret = *want;
out:
	free(want);
	free(spec);
	return r;
}
