/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan as JSON: the reviewable artifact `apply --plan` executes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "format.h"
#include "json-out.h"

static json_object *str_or_null(const char *s)
{
	return s && s[0] ? json_object_new_string(s) : NULL;
}

static json_object *u64(uint64_t v)
{
	/* json-c has no unsigned 64-bit writer before 0.14's uint64; sizes fit int64 */
	return json_object_new_int64((int64_t)v);
}

static char *to_string(json_object *root)
{
	return sp_json_to_text(root);
}

/* The plan's fields and their order are its table's (planner/schema/plan-file.c). */
char *sp_format_plan_json(const struct sp_plan *p)
{
	json_object *root = sp_plan_to_json(p);

	return root ? to_string(root) : NULL;
}

static json_object *zero_null(uint64_t v)
{
	return v ? u64(v) : NULL;
}

/* what the controller documents (null: not documented), with its sources */
static json_object *profile_limits_json(const struct sp_profile *pr)
{
	json_object *o = json_object_new_object(), *strips = json_object_new_object();
	json_object *spans = json_object_new_object(), *sizes = json_object_new_array();
	json_object *rules = json_object_new_array();

	json_object_object_add(o, "max_disks", zero_null(pr->max_disks));
	json_object_object_add(o, "levels_source", str_or_null(pr->levels_source));
	for (size_t i = 0; i < pr->n_strip_sizes; i++)
		json_object_array_add(sizes, u64(pr->strip_sizes_bytes[i]));
	json_object_object_add(strips, "name", str_or_null(pr->strip_name));
	json_object_object_add(strips, "sizes_bytes", pr->n_strip_sizes ? sizes : NULL);
	if (!pr->n_strip_sizes)
		json_object_put(sizes);
	json_object_object_add(strips, "default_bytes", zero_null(pr->default_strip_bytes));
	json_object_object_add(strips, "source", str_or_null(pr->strips_source));
	json_object_object_add(o, "strips", strips);
	json_object_object_add(spans, "min", u64(pr->spans_min ? pr->spans_min : 2));
	json_object_object_add(spans, "max", zero_null(pr->spans_max));
	json_object_object_add(spans, "disks_max", zero_null(pr->span_disks_max));
	json_object_object_add(spans, "source", str_or_null(pr->spans_source));
	json_object_object_add(o, "spans", spans);
	for (size_t i = 0; i < pr->n_level_rules; i++) {
		const struct sp_level_rule *r = &pr->level_rules[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "level", json_object_new_int((int)r->level));
		json_object_object_add(j, "min_disks", u64(r->min_disks));
		json_object_object_add(j, "max_disks", zero_null(r->max_disks));
		json_object_object_add(j, "chunk", json_object_new_string(sp_chunk_rule_name(r->chunk)));
		json_object_object_add(j, "source", str_or_null(r->source));
		json_object_array_add(rules, j);
	}
	json_object_object_add(o, "level_rules", rules);
	return o;
}

static json_object *string_list(const char (*names)[SP_NAME_MAX], size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(names[i]));
	return a;
}

/* the profile's recognition rows as it spells them; null: none */
static json_object *profile_recognition_json(const struct sp_profile *pr)
{
	const struct sp_profile_recognition *r = &pr->recognition;
	json_object *o, *pci, *inquiry;

	if (!r->source[0])
		return NULL;
	o = json_object_new_object();
	pci = json_object_new_array();
	inquiry = json_object_new_array();
	json_object_object_add(o, "proc_name", string_list(r->proc_names, r->n_proc_names));
	for (size_t i = 0; i < r->n_inquiry; i++) {
		json_object *j = json_object_new_object();

		json_object_object_add(j, "vendor", json_object_new_string(r->inquiry[i].vendor));
		json_object_object_add(j, "model", json_object_new_string(r->inquiry[i].model));
		json_object_array_add(inquiry, j);
	}
	json_object_object_add(o, "inquiry", inquiry);
	for (size_t i = 0; i < r->n_pci; i++) {
		const struct sp_profile_pci *p = &r->pci[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "vendor", json_object_new_string(p->vendor));
		json_object_object_add(j, "device", json_object_new_string(p->device));
		json_object_object_add(j, "subvendor", str_or_null(p->subvendor));
		json_object_object_add(j, "subdevice", str_or_null(p->subdevice));
		json_object_object_add(j, "name", str_or_null(p->name));
		json_object_array_add(pci, j);
	}
	json_object_object_add(o, "pci", pci);
	json_object_object_add(o, "md_metadata", string_list(r->md_metadata, r->n_md_metadata));
	json_object_object_add(o, "source", json_object_new_string(r->source));
	return o;
}

static json_object *profile_json(const struct sp_profile *pr)
{
	json_object *o = json_object_new_object(), *levels = json_object_new_array();
	static const enum sp_level all[] = { SP_LEVEL_0, SP_LEVEL_1, SP_LEVEL_4, SP_LEVEL_5, SP_LEVEL_6,
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
	json_object_object_add(o, "limits", profile_limits_json(pr));
	json_object_object_add(o, "recognition", profile_recognition_json(pr));
	json_object_object_add(o, "scheduler", str_or_null(pr->scheduler));
	for (size_t i = 0; i < pr->n_knobs; i++) {
		json_object *k = json_object_new_object();

		json_object_object_add(k, "target",
				       json_object_new_string(sp_knob_target_name(pr->knobs[i].target)));
		json_object_object_add(k, "knob", json_object_new_string(pr->knobs[i].knob));
		json_object_object_add(k, "value", json_object_new_string(SP_VALUE_TEXT(&pr->knobs[i].value)));
		json_object_object_add(k, "default", json_object_new_boolean(pr->knobs[i].on_by_default));
		json_object_object_add(k, "holds", json_object_new_string(pr->knobs[i].holds));
		json_object_array_add(knobs, k);
	}
	json_object_object_add(o, "tuning", knobs);
	for (size_t i = 0; i < pr->n_module_options; i++) {
		char line[3 * SP_NAME_MAX + 16];

		snprintf(line, sizeof(line), "%s %s=%s", pr->module_options[i].module,
			 pr->module_options[i].param, SP_VALUE_TEXT(&pr->module_options[i].value));
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
