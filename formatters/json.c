/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan as JSON: the reviewable artifact `apply --plan` executes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "format.h"

static json_object *str_or_null(const char *s)
{
	return s && s[0] ? json_object_new_string(s) : NULL;
}

static json_object *u64(uint64_t v)
{
	/* json-c has no unsigned 64-bit writer before 0.14's uint64; sizes fit int64 */
	return json_object_new_int64((int64_t)v);
}

static json_object *array_json(const struct sp_plan *p)
{
	json_object *o = json_object_new_object(), *members = json_object_new_array();
	json_object *source = json_object_new_object();

	for (size_t i = 0; i < p->n_members; i++)
		json_object_array_add(members, json_object_new_string(p->members[i]));
	json_object_object_add(source, "level", json_object_new_string(sp_source_name(p->level_source)));
	json_object_object_add(source, "disks", json_object_new_string(sp_source_name(p->disks_source)));
	json_object_object_add(source, "chunk", json_object_new_string(sp_source_name(p->chunk_source)));
	json_object_object_add(source, "layout",
			       p->layout.near_copies ? json_object_new_string(sp_source_name(p->layout_source)) : NULL);
	json_object_object_add(source, "members", json_object_new_string(sp_source_name(p->members_source)));
	json_object_object_add(source, "table", json_object_new_string(sp_source_name(p->table_source)));

	json_object_object_add(o, "controller", json_object_new_string(p->controller));
	json_object_object_add(o, "level", json_object_new_string(sp_level_name(p->level)));
	json_object_object_add(o, "disks", json_object_new_int((int)p->disks));
	json_object_object_add(o, "spans", json_object_new_int((int)p->spans));
	json_object_object_add(o, "data_disks", json_object_new_int((int)p->data_disks));
	json_object_object_add(o, "chunk_bytes", u64(p->chunk_bytes));
	json_object_object_add(o, "stripe_width_bytes", u64(p->stripe_width_bytes));
	if (p->layout.near_copies) {
		char name[SP_MD_LAYOUT_NAME_MAX];

		sp_md_layout_name(&p->layout, name, sizeof(name));
		json_object_object_add(o, "layout", json_object_new_string(name));
	} else {
		json_object_object_add(o, "layout", NULL);
	}
	json_object_object_add(o, "members", members);
	json_object_object_add(o, "source", source);
	return o;
}

static json_object *device_json(const struct sp_facts *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "path", json_object_new_string(d->path));
	json_object_object_add(o, "kernel_name", json_object_new_string(d->kernel_name));
	json_object_object_add(o, "offline", json_object_new_boolean(d->offline));
	json_object_object_add(o, "size_bytes", u64(d->size_bytes));
	json_object_object_add(o, "logical_sector_bytes", json_object_new_int((int)d->logical_sector_bytes));
	json_object_object_add(o, "physical_sector_bytes", json_object_new_int((int)d->physical_sector_bytes));
	json_object_object_add(o, "min_io_bytes", u64(d->min_io_bytes));
	json_object_object_add(o, "optimal_io_bytes", u64(d->optimal_io_bytes));
	json_object_object_add(o, "alignment_offset_bytes", json_object_new_int64(d->alignment_offset_bytes));
	json_object_object_add(o, "wwn", str_or_null(d->wwn));
	json_object_object_add(o, "serial", str_or_null(d->serial));
	json_object_object_add(o, "diskseq", d->diskseq ? u64(d->diskseq) : NULL);
	json_object_object_add(o, "md", sp_md_facts_to_json(&d->md));
	return o;
}

static json_object *partition_json(const struct sp_plan *p)
{
	json_object *o = json_object_new_object();
	uint64_t sector = p->device.logical_sector_bytes;

	json_object_object_add(o, "table", json_object_new_string(sp_table_name(p->table)));
	json_object_object_add(o, "path", json_object_new_string(p->partition_path));
	json_object_object_add(o, "start_bytes", u64(p->start_bytes));
	json_object_object_add(o, "size_bytes", u64(p->size_bytes));
	json_object_object_add(o, "start_sector", u64(p->start_bytes / sector));
	json_object_object_add(o, "size_sectors", u64(p->size_bytes / sector));
	json_object_object_add(o, "align_bytes", u64(p->align_bytes));
	json_object_object_add(o, "reserved_tail_bytes", u64(p->reserved_tail_bytes));
	return o;
}

static json_object *filesystem_json(const struct sp_plan *p)
{
	json_object *o = json_object_new_object(), *argv = json_object_new_array(), *sub;

	json_object_object_add(o, "type", json_object_new_string(sp_fs_name(p->fs)));
	json_object_object_add(o, "label", str_or_null(p->label));
	json_object_object_add(o, "block_bytes", json_object_new_int((int)p->block_bytes));
	for (size_t i = 0; i < p->n_mkfs_argv; i++)
		json_object_array_add(argv, json_object_new_string(p->mkfs_argv[i]));
	json_object_object_add(o, "mkfs_argv", argv);
	sub = json_object_new_object();
	if (p->fs == SP_FS_XFS) {
		json_object_object_add(sub, "su_bytes", u64(p->xfs_su_bytes));
		json_object_object_add(sub, "sw", json_object_new_int((int)p->xfs_sw));
		json_object_object_add(sub, "log_su_bytes", u64(p->xfs_log_su_bytes));
		json_object_object_add(sub, "agsize_bytes", p->xfs_agsize_bytes ? u64(p->xfs_agsize_bytes) : NULL);
		json_object_object_add(o, "xfs", sub);
	} else {
		json_object_object_add(sub, "stride_blocks", json_object_new_int((int)p->ext_stride_blocks));
		json_object_object_add(sub, "stripe_width_blocks",
				       u64(p->ext_stripe_width_blocks));
		json_object_object_add(o, "ext", sub);
	}
	return o;
}

static json_object *mount_json(const struct sp_plan *p)
{
	json_object *o = json_object_new_object(), *opts = json_object_new_array();

	json_object_object_add(o, "mountpoint", str_or_null(p->mountpoint));
	for (size_t i = 0; i < p->n_mount_options; i++)
		json_object_array_add(opts, json_object_new_string(p->mount_options[i]));
	json_object_object_add(o, "options", opts);
	json_object_object_add(o, "fstab", str_or_null(p->fstab_line));
	return o;
}

static json_object *tuning_json(const struct sp_plan *p)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < p->n_tuning; i++) {
		json_object *t = json_object_new_object();
		const char *kind = sp_tuning_kind_name(p->tuning[i].kind);
		char path[SP_PATH_MAX];

		/* the stable "path" field is derived here, from device and attribute */
		sp_tuning_path(&p->tuning[i], path, sizeof(path));
		json_object_object_add(t, "path", json_object_new_string(path));
		json_object_object_add(t, "value", json_object_new_string(p->tuning[i].value));
		json_object_object_add(t, "kind", json_object_new_string(kind ? kind : ""));
		json_object_object_add(t, "why", json_object_new_string(p->tuning[i].why));
		json_object_array_add(a, t);
	}
	return a;
}

static json_object *warnings_json(const struct sp_plan *p)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < p->n_warnings; i++) {
		json_object *w = json_object_new_object();

		json_object_object_add(w, "code", json_object_new_string(p->warnings[i].code));
		json_object_object_add(w, "message", json_object_new_string(p->warnings[i].message));
		json_object_array_add(a, w);
	}
	return a;
}

static char *to_string(json_object *root)
{
	const char *s = json_object_to_json_string_ext(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len = strlen(s);
	char *out = malloc(len + 2);

	if (out) {
		memcpy(out, s, len);
		out[len] = '\n';
		out[len + 1] = '\0';
	}
	json_object_put(root);
	return out;
}

/* For the reviewer: the profile's knobs the plan leaves out, and why. */
static json_object *left_out_json(const struct sp_plan *p)
{
	json_object *list = json_object_new_array();

	for (size_t i = 0; i < p->n_left_out; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "what", json_object_new_string(p->left_out[i].what));
		json_object_object_add(o, "why", json_object_new_string(p->left_out[i].why));
		json_object_object_add(o, "reason", json_object_new_string(p->left_out[i].reason));
		json_object_array_add(list, o);
	}
	return list;
}

char *sp_format_plan_json(const struct sp_plan *p)
{
	json_object *root = json_object_new_object(), *advice = json_object_new_array();

	json_object_object_add(root, "format", json_object_new_int(SP_PLAN_FORMAT_VERSION));
	json_object_object_add(root, "kernel", json_object_new_string(p->kernel_release));
	json_object_object_add(root, "array", array_json(p));
	json_object_object_add(root, "device", device_json(&p->device));
	json_object_object_add(root, "partition", partition_json(p));
	json_object_object_add(root, "filesystem", filesystem_json(p));
	json_object_object_add(root, "mount", mount_json(p));
	json_object_object_add(root, "tuning", tuning_json(p));
	json_object_object_add(root, "md_stripe_cache_bytes", u64(p->md_stripe_cache_bytes));
	json_object_object_add(root, "tuning_recipe",
			       json_object_new_string(sp_tuning_recipe_name(p->tuning_recipe)));
	json_object_object_add(root, "workload", json_object_new_string(sp_workload_name(p->workload)));
	json_object_object_add(root, "memory_budget_bytes", u64(p->memory_budget_bytes));
	json_object_object_add(root, "left_out", left_out_json(p));
	for (size_t i = 0; i < p->n_advice; i++)
		json_object_array_add(advice, json_object_new_string(p->advice[i]));
	json_object_object_add(root, "controller_advice", advice);
	json_object_object_add(root, "warnings", warnings_json(p));
	return to_string(root);
}

static json_object *profile_json(const struct sp_profile *pr)
{
	json_object *o = json_object_new_object(), *levels = json_object_new_array();
	static const enum sp_level all[] = { SP_LEVEL_0, SP_LEVEL_1, SP_LEVEL_5, SP_LEVEL_6,
					     SP_LEVEL_10, SP_LEVEL_50, SP_LEVEL_60 };
	json_object *knobs = json_object_new_array(), *mods = json_object_new_array();

	json_object_object_add(o, "name", json_object_new_string(pr->name));
	json_object_object_add(o, "description", json_object_new_string(pr->description));
	json_object_object_add(o, "driver", json_object_new_string(pr->driver));
	json_object_object_add(o, "device_naming", json_object_new_string(pr->device_naming));
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (pr->levels_mask & sp_level_bit(all[i]))
			json_object_array_add(levels, json_object_new_int((int)all[i]));
	json_object_object_add(o, "levels", levels);
	json_object_object_add(o, "chunk_min_bytes", u64(pr->chunk_min_bytes));
	json_object_object_add(o, "chunk_max_bytes", u64(pr->chunk_max_bytes));
	json_object_object_add(o, "protected_write_cache", json_object_new_boolean(pr->protected_write_cache));
	json_object_object_add(o, "scheduler", str_or_null(pr->scheduler));
	for (size_t i = 0; i < pr->n_knobs; i++) {
		json_object *k = json_object_new_object();

		json_object_object_add(k, "target", json_object_new_string(
			pr->knobs[i].target == SP_TARGET_DEVICE ? "device" : "members"));
		json_object_object_add(k, "knob", json_object_new_string(pr->knobs[i].knob));
		json_object_object_add(k, "value", json_object_new_string(pr->knobs[i].value));
		json_object_object_add(k, "default", json_object_new_boolean(pr->knobs[i].on_by_default));
		json_object_object_add(k, "holds", json_object_new_string(pr->knobs[i].holds));
		json_object_array_add(knobs, k);
	}
	json_object_object_add(o, "tuning", knobs);
	for (size_t i = 0; i < pr->n_module_options; i++) {
		char line[3 * SP_NAME_MAX + 16];

		snprintf(line, sizeof(line), "%s %s=%s", pr->module_options[i].module,
			 pr->module_options[i].param, pr->module_options[i].value);
		json_object_array_add(mods, json_object_new_string(line));
	}
	json_object_object_add(o, "module_options", mods);
	json_object_object_add(o, "source", json_object_new_string(pr->source));
	return o;
}

char *sp_format_profiles_json(const struct sp_profile_set *set)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < sp_profiles_count(set); i++)
		json_object_array_add(a, profile_json(sp_profiles_get(set, i)));
	return to_string(a);
}
