/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The controller profile as JSON (the files in planner/profiles/, and a site's
 * own): its field tables and what holds between its fields.  Parsing is
 * strict: an unknown key is a typo that would silently drop a knob, so it
 * is an error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "array/profile.h"
#include "base/error.h"
#include "base/units.h"
#include "kernel/kernel.h"
#include "kernel/knob.h"
#include "objects.h"
#include "raid/raid.h"
#include "schema.h"

/* ------------------------------------------------------------ custom */

/* A RAID level by its number: the level table is indexed by it. */
static int level_from_number(int64_t n, enum sp_level *ret)
{
	if (n < 0 || n > INT32_MAX || !sp_names_get(&sp_level_names, (long)n))
		return -EINVAL;
	*ret = (enum sp_level)n;
	return 0;
}

/* "levels": [0, 1, 5]: RAID level numbers, as a mask of sp_level_bit() */
static int levels_read(const struct sp_field *f, struct json_object *v, struct json_object *parent,
		       void *base, const struct sp_where *w, struct sp_error *err)
{
	unsigned *mask = (unsigned *)((char *)base + f->offset);

	(void)parent;
	*mask = 0;
	if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) == 0)
		return sp_where_error(err, w, NULL, EINVAL, " must be a non-empty list of RAID levels");
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		json_object *e = json_object_array_get_idx(v, i);
		enum sp_level level;

		if (!json_object_is_type(e, json_type_int))
			return sp_where_error(err, w, NULL, EINVAL,
					      " must list levels as numbers (0, 1, 4, 5, 6, 10, 50, 60)");
		if (level_from_number(json_object_get_int64(e), &level) < 0)
			return sp_where_error(err, w, NULL, EINVAL,
					      " lists an unknown RAID level (%" PRId64 ")",
					      json_object_get_int64(e));
		*mask |= sp_level_bit(level);
	}
	return 0;
}

static const struct sp_custom levels_custom = { .read = levels_read };

/* "chunk_min": "4K": a size as people write it, a power of two */
static int size_read(const struct sp_field *f, struct json_object *v, struct json_object *parent,
		     void *base, const struct sp_where *w, struct sp_error *err)
{
	uint64_t *bytes = (uint64_t *)((char *)base + f->offset);
	struct sp_error why = { 0 };
	uint64_t x;

	(void)parent;
	if (!json_object_is_type(v, json_type_string))
		return sp_where_error(err, w, NULL, EINVAL, " must be a size such as \"64K\"");
	if (sp_parse_size(json_object_get_string(v), f->name, &x, &why) < 0)
		return sp_where_error_from(err, w, &why);
	if (!sp_is_power_of_two(x) || x > f->max)
		return sp_where_error(err, w, NULL, ERANGE,
				      ": %s is not a power of two up to %" PRIu64 " bytes",
				      json_object_get_string(v), f->max);
	*bytes = x;
	return 0;
}

static const struct sp_custom size_custom = { .read = size_read };

/* "sizes": ["8K", "16K", ...]: the strip sizes a controller offers, smallest first */
static int strip_sizes_read(const struct sp_field *f, struct json_object *v,
			    struct json_object *parent, void *base, const struct sp_where *w,
			    struct sp_error *err)
{
	struct sp_profile *p = base;
	size_t n = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0;

	(void)f;
	(void)parent;
	if (n == 0 || n > SP_PROFILE_MAX_STRIPS)
		return sp_where_error(err, w, NULL, EINVAL,
				      " must be a list of 1 to %u sizes (\"8K\", \"16K\" ...)",
				      SP_PROFILE_MAX_STRIPS);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);
		struct sp_error why = { 0 };
		uint64_t x;

		if (!json_object_is_type(e, json_type_string) ||
		    sp_parse_size(json_object_get_string(e), "sizes", &x, &why) < 0 || x == 0 ||
		    x > SP_CHUNK_MAX_BYTES)
			return sp_where_error(err, w, NULL, EINVAL,
					      " lists '%s', not a size from 1 byte to 64M",
					      json_object_get_string(e));
		if (i && x <= p->strip_sizes_bytes[i - 1])
			return sp_where_error(err, w, NULL, EINVAL,
					      " must list each size once, smallest first ('%s')",
					      json_object_get_string(e));
		p->strip_sizes_bytes[i] = x;
	}
	p->n_strip_sizes = n;
	return 0;
}

static const struct sp_custom strip_sizes_custom = { .read = strip_sizes_read };

/*
 * A level rule's "level" comes first: the rule starts as the hardware
 * rule of that level, and the keys that are there change it ("Unset keys
 * keep the hardware rule's values").
 */
static int rule_level_read(const struct sp_field *f, struct json_object *v,
			   struct json_object *parent, void *base, const struct sp_where *w,
			   struct sp_error *err)
{
	struct sp_level_rule *rule = base;
	enum sp_level level;

	(void)f;
	(void)parent;
	if (!json_object_is_type(v, json_type_int))
		return sp_where_error(err, w, NULL, EINVAL, " must be a RAID level number");
	if (level_from_number(json_object_get_int64(v), &level) < 0)
		return sp_where_error(err, w, NULL, EINVAL, ": %" PRId64 " is an unknown RAID level",
				      json_object_get_int64(v));
	*rule = *sp_level_default_rule(level);
	return 0;
}

static const struct sp_custom rule_level_custom = { .read = rule_level_read };

/* "layouts": ["n2", "f2"]: md RAID10's layouts, the first the default */
static int layouts_read(const struct sp_field *f, struct json_object *v, struct json_object *parent,
			void *base, const struct sp_where *w, struct sp_error *err)
{
	struct sp_level_rule *rule = base;

	(void)f;
	(void)parent;
	if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) == 0 ||
	    json_object_array_length(v) > SP_PROFILE_MAX_LAYOUTS)
		return sp_where_error(err, w, NULL, EINVAL,
				      " must be a list of 1 to %u md layouts (\"n2\", \"f2\" ...)",
				      SP_PROFILE_MAX_LAYOUTS);
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		json_object *l = json_object_array_get_idx(v, i);

		if (!json_object_is_type(l, json_type_string) ||
		    sp_parse_md_layout(json_object_get_string(l), &rule->layouts[i], NULL) < 0)
			return sp_where_error(err, w, NULL, EINVAL,
					      " lists an unknown layout (n2, n3, f2, f3, o2, o3)");
	}
	rule->n_layouts = json_object_array_length(v);
	return 0;
}

static const struct sp_custom layouts_custom = { .read = layouts_read };

/* A knob's "value": a number within the kernel's bounds for that knob
 * (one spelling: no leading zeros), or "auto" where the planner sizes it. */
static int knob_value_read(const struct sp_field *f, struct json_object *v,
			   struct json_object *parent, void *base, const struct sp_where *w,
			   struct sp_error *err)
{
	struct sp_profile_knob *k = base;
	const struct sp_knob *knob = sp_knob_find(k->knob);
	struct sp_error why = { 0 };

	(void)f;
	(void)parent;
	if (!json_object_is_type(v, json_type_string))
		return sp_where_error(err, w, NULL, EINVAL, " must be a string");
	if (!knob || !knob->in_profiles)
		return 0; /* knob_check() names the knob */
	if (sp_value_parse(json_object_get_string(v), knob, &k->value, &why) < 0)
		return sp_where_error_from(err, w, &why);
	return 0;
}

static const struct sp_custom knob_value_custom = { .read = knob_value_read };

/* A module parameter's value: a number, or a word of [a-z0-9,] (they end
 * up in modprobe.d and a shell script) */
static int module_value_read(const struct sp_field *f, struct json_object *v,
			     struct json_object *parent, void *base, const struct sp_where *w,
			     struct sp_error *err)
{
	struct sp_error why = { 0 };

	(void)parent;
	if (!json_object_is_type(v, json_type_string))
		return sp_where_error(err, w, NULL, EINVAL, " must be a string");
	if (sp_value_parse(json_object_get_string(v), NULL,
			   (struct sp_value *)((char *)base + f->offset), &why) < 0)
		return sp_where_error_from(err, w, &why);
	return 0;
}

static const struct sp_custom module_value_custom = { .read = module_value_read };

/* ------------------------------------------------------------ checks */

static void knob_init(void *obj)
{
	((struct sp_profile_knob *)obj)->on_by_default = true;
}

static int knob_check(void *obj, const struct sp_where *w, struct sp_error *err)
{
	struct sp_profile_knob *k = obj;
	const struct sp_knob *knob = sp_knob_find(k->knob);
	char list[SP_MSG_MAX / 2];

	if (!knob || !knob->in_profiles)
		return sp_where_error(err, w, "knob", EINVAL,
				      ": '%s' is not a knob stripeplan sets (%s; the scheduler has "
				      "its own key)",
				      k->knob, sp_knob_profile_list(list, sizeof(list)));
	return 0;
}

static int scheduler_check(void *obj, const struct sp_where *w, struct sp_error *err)
{
	const struct sp_profile *p = obj;

	if (!sp_kernel_scheduler_alias(p->scheduler))
		return sp_where_error(err, w, "name", EINVAL, ": '%s' is an unknown I/O scheduler",
				      p->scheduler);
	return 0;
}

static int rule_check(void *obj, const struct sp_where *w, struct sp_error *err)
{
	const struct sp_level_rule *rule = obj;

	if (rule->n_layouts && rule->level != SP_LEVEL_10)
		return sp_where_error(err, w, "layouts", EINVAL, " apply to raid10 only");
	if (rule->stripe != SP_STRIPE_PAIRS && rule->level != SP_LEVEL_10)
		return sp_where_error(err, w, "stripe", EINVAL, " applies to raid10 only");
	if (rule->max_disks && rule->max_disks < rule->min_disks)
		return sp_where_error(err, w, "max_disks", EINVAL, " is below min_disks");
	if (rule->chunk == SP_CHUNK_SECTOR_MULTIPLE && rule->level != SP_LEVEL_0)
		return sp_where_error(err, w, "chunk", EINVAL,
				      ": \"sector-multiple\" is md raid0's rule only");
	if (rule->stripe == SP_STRIPE_NEAR_COPIES && !rule->n_layouts)
		return sp_where_error(err, w, "stripe", EINVAL,
				      ": \"near-copies\" needs the layouts the level takes");
	return 0;
}

static int profile_check(void *obj, const struct sp_where *w, struct sp_error *err)
{
	const struct sp_profile *p = obj;

	if (p->chunk_min_bytes > p->chunk_max_bytes)
		return sp_where_error(err, w, "chunk_min", EINVAL, " is larger than chunk_max");
	/* the list is what the controller offers; chunk_min and chunk_max its ends */
	if (p->n_strip_sizes && (p->strip_sizes_bytes[0] != p->chunk_min_bytes ||
				 p->strip_sizes_bytes[p->n_strip_sizes - 1] != p->chunk_max_bytes))
		return sp_where_error(err, w, "strips", EINVAL,
				      ": sizes must run from chunk_min to chunk_max");
	if (p->default_strip_bytes && p->n_strip_sizes && !sp_profile_offers_strip(p, p->default_strip_bytes))
		return sp_where_error(err, w, "strips", EINVAL, ": default is not one of sizes");
	if (p->default_strip_bytes &&
	    (p->default_strip_bytes < p->chunk_min_bytes || p->default_strip_bytes > p->chunk_max_bytes))
		return sp_where_error(err, w, "strips", EINVAL,
				      ": default is outside chunk_min..chunk_max");
	if (p->spans_max && p->spans_max < (p->spans_min ? p->spans_min : 2))
		return sp_where_error(err, w, "spans", EINVAL, ": max is below min");
	if (p->member_scheduler[0] && !sp_kernel_scheduler_alias(p->member_scheduler))
		return sp_where_error(err, w, "member_scheduler", EINVAL,
				      ": '%s' is an unknown I/O scheduler", p->member_scheduler);
	return 0;
}

/* ------------------------------------------------------------ tables */

#define LOWER_DIGITS "abcdefghijklmnopqrstuvwxyz0123456789"

static const struct sp_field knob_fields[] = {
	SP_ENUM(sp_profile_knob, target, "target", &sp_knob_target_names,
		.flags = SP_FF_REQUIRED),
	/* a relative sysfs path; knob_check() allows only the ones stripeplan sets */
	SP_STRING(sp_profile_knob, knob, "knob", .flags = SP_FF_REQUIRED),
	SP_CUSTOM(sp_profile_knob, value, "value", &knob_value_custom, .flags = SP_FF_REQUIRED),
	SP_STRING(sp_profile_knob, why, "why", .flags = SP_FF_REQUIRED),
	SP_CUSTOM(sp_profile_knob, levels_mask, "levels", &levels_custom),
	SP_STRING(sp_profile_knob, holds, "holds"),
	SP_BOOL(sp_profile_knob, on_by_default, "default"),
};
static const struct sp_schema knob_schema =
	SP_SCHEMA(sp_profile_knob, knob_fields, .init = knob_init, .check = knob_check);
static const struct sp_field knob_elem = SP_ELEM_OBJECT(&knob_schema);

/* these end up in modprobe.d and a shell script: safe characters only */
static const struct sp_field module_option_fields[] = {
	SP_STRING(sp_profile_module_option, module, "module", .flags = SP_FF_REQUIRED,
		  .charset = LOWER_DIGITS "_-", .charset_says = "a module name ([a-z0-9_-])"),
	SP_STRING(sp_profile_module_option, param, "param", .flags = SP_FF_REQUIRED,
		  .charset = LOWER_DIGITS "_", .charset_says = "a parameter name ([a-z0-9_])"),
	SP_CUSTOM(sp_profile_module_option, value, "value", &module_value_custom,
		  .flags = SP_FF_REQUIRED),
	SP_STRING(sp_profile_module_option, why, "why", .flags = SP_FF_REQUIRED),
	SP_STRING(sp_profile_module_option, holds, "holds"),
	/* absent: unknown; equal to value: nothing to write */
	SP_CUSTOM(sp_profile_module_option, driver_default, "driver_default", &module_value_custom),
};
static const struct sp_schema module_option_schema =
	SP_SCHEMA(sp_profile_module_option, module_option_fields);
static const struct sp_field module_option_elem = SP_ELEM_OBJECT(&module_option_schema);

static const struct sp_field warning_fields[] = {
	SP_STRING(sp_profile_warning, code, "code", .flags = SP_FF_REQUIRED),
	SP_CUSTOM(sp_profile_warning, levels_mask, "levels", &levels_custom),
	SP_STRING(sp_profile_warning, message, "message", .flags = SP_FF_REQUIRED),
};
static const struct sp_schema warning_schema = SP_SCHEMA(sp_profile_warning, warning_fields);
static const struct sp_field warning_elem = SP_ELEM_OBJECT(&warning_schema);

/* n_layouts and the layouts, which "layouts" spells together */
#define LAYOUTS_ROW                                                                        \
	{ .name = "layouts", .type = SP_FIELD_CUSTOM, .custom = &layouts_custom,           \
	  .offset = offsetof(struct sp_level_rule, n_layouts),                             \
	  .size = sizeof(struct sp_level_rule) - offsetof(struct sp_level_rule, n_layouts), \
	  .align = __alignof__(size_t) }

/*
 * { "level": 10, "min_disks": 2, "layouts": ["n2", ...], "stripe": "near-copies" }:
 * what the controller allows for one level (md's rules differ from a
 * hardware controller's).
 */
static const struct sp_field rule_fields[] = {
	SP_CUSTOM(sp_level_rule, level, "level", &rule_level_custom, .flags = SP_FF_REQUIRED),
	SP_UINT(sp_level_rule, min_disks, "min_disks", 1, SP_MAX_DISKS),
	SP_UINT(sp_level_rule, max_disks, "max_disks", 1, SP_MAX_DISKS),
	SP_ENUM(sp_level_rule, chunk, "chunk", &sp_chunk_rule_names),
	SP_STRING(sp_level_rule, source, "source"),
	SP_BOOL(sp_level_rule, even_disks, "even_disks"),
	LAYOUTS_ROW,
	SP_ENUM(sp_level_rule, stripe, "stripe", &sp_stripe_rule_names),
};
static const struct sp_schema rule_schema =
	SP_SCHEMA(sp_level_rule, rule_fields, .check = rule_check);
static const struct sp_field rule_elem = SP_ELEM_OBJECT(&rule_schema);

static const struct sp_field scheduler_fields[] = {
	SP_STRING(sp_profile, scheduler, "name", .flags = SP_FF_REQUIRED),
	SP_STRING(sp_profile, scheduler_why, "why", .flags = SP_FF_REQUIRED),
};
static const struct sp_schema scheduler_schema =
	SP_SCHEMA(sp_profile, scheduler_fields, .check = scheduler_check);

static const struct sp_field advice_elem = SP_ELEM_STRING(SP_MSG_MAX);

/* "strips": { "name": "stripe element", "sizes": [...], "default": "64K", "source": "..." } */
static const struct sp_field strips_fields[] = {
	SP_STRING(sp_profile, strip_name, "name"),
	{ .name = "sizes", .type = SP_FIELD_CUSTOM, .custom = &strip_sizes_custom,
	  .offset = offsetof(struct sp_profile, n_strip_sizes),
	  .size = offsetof(struct sp_profile, default_strip_bytes) -
		  offsetof(struct sp_profile, n_strip_sizes),
	  .align = __alignof__(size_t) },
	SP_CUSTOM(sp_profile, default_strip_bytes, "default", &size_custom,
		  .max = SP_CHUNK_MAX_BYTES),
	SP_STRING(sp_profile, strips_source, "source", .flags = SP_FF_REQUIRED),
};
static const struct sp_schema strips_schema = SP_SCHEMA(sp_profile, strips_fields);

/* "spans": { "min": 2, "max": 8, "disks_max": 32, "source": "..." } */
static const struct sp_field spans_fields[] = {
	SP_UINT(sp_profile, spans_min, "min", 2, SP_MAX_DISKS),
	SP_UINT(sp_profile, spans_max, "max", 2, SP_MAX_DISKS),
	SP_UINT(sp_profile, span_disks_max, "disks_max", 2, SP_MAX_DISKS),
	SP_STRING(sp_profile, spans_source, "source", .flags = SP_FF_REQUIRED),
};
static const struct sp_schema spans_schema = SP_SCHEMA(sp_profile, spans_fields);

#define HEX4 "0123456789abcdef"

static int pci_check(void *obj, const struct sp_where *w, struct sp_error *err)
{
	const struct sp_profile_pci *p = obj;
	const struct {
		const char *name, *value;
	} ids[] = { { "vendor", p->vendor },
		    { "device", p->device },
		    { "subvendor", p->subvendor },
		    { "subdevice", p->subdevice } };

	for (size_t i = 0; i < ARRAY_SIZE(ids); i++)
		if (ids[i].value[0] && strlen(ids[i].value) != 4)
			return sp_where_error(err, w, ids[i].name, EINVAL,
					      ": '%s' is not four hex digits", ids[i].value);
	if (!p->subvendor[0] != !p->subdevice[0])
		return sp_where_error(err, w, "subvendor", EINVAL,
				      ": subvendor and subdevice go together");
	return 0;
}

static int recognition_check(void *obj, const struct sp_where *w, struct sp_error *err)
{
	const struct sp_profile_recognition *r = obj;

	if (!r->n_proc_names && !r->n_inquiry && !r->n_pci && !r->n_md_metadata)
		return sp_where_error(err, w, NULL, EINVAL,
				      ": names nothing to recognise (proc_name, inquiry, pci, md_metadata)");
	return 0;
}

static const struct sp_field pci_fields[] = {
	SP_STRING(sp_profile_pci, vendor, "vendor", .flags = SP_FF_REQUIRED | SP_FF_NONEMPTY,
		  .charset = HEX4, .charset_says = "four lowercase hex digits"),
	SP_STRING(sp_profile_pci, device, "device", .flags = SP_FF_REQUIRED | SP_FF_NONEMPTY,
		  .charset = HEX4, .charset_says = "four lowercase hex digits"),
	SP_STRING(sp_profile_pci, subvendor, "subvendor", .charset = HEX4,
		  .charset_says = "four lowercase hex digits"),
	SP_STRING(sp_profile_pci, subdevice, "subdevice", .charset = HEX4,
		  .charset_says = "four lowercase hex digits"),
	SP_STRING(sp_profile_pci, name, "name"),
};
static const struct sp_schema pci_schema = SP_SCHEMA(sp_profile_pci, pci_fields, .check = pci_check);
static const struct sp_field pci_elem = SP_ELEM_OBJECT(&pci_schema);

static const struct sp_field inquiry_fields[] = {
	SP_STRING(sp_profile_inquiry, vendor, "vendor", .flags = SP_FF_REQUIRED | SP_FF_NONEMPTY),
	SP_STRING(sp_profile_inquiry, model, "model", .flags = SP_FF_REQUIRED | SP_FF_NONEMPTY),
};
static const struct sp_schema inquiry_schema = SP_SCHEMA(sp_profile_inquiry, inquiry_fields);
static const struct sp_field inquiry_elem = SP_ELEM_OBJECT(&inquiry_schema);

static const struct sp_field proc_name_elem =
	SP_ELEM_STRING(SP_NAME_MAX, .flags = SP_FF_NAME | SP_FF_NONEMPTY);

/* "recognition": { "proc_name": [...], "inquiry": [...], "pci": [...], "md_metadata": [...], "source": "..." } */
static const struct sp_field recognition_fields[] = {
	SP_LIST(sp_profile_recognition, proc_names, n_proc_names, "proc_name", &proc_name_elem),
	SP_LIST(sp_profile_recognition, inquiry, n_inquiry, "inquiry", &inquiry_elem),
	SP_LIST(sp_profile_recognition, pci, n_pci, "pci", &pci_elem),
	SP_LIST(sp_profile_recognition, md_metadata, n_md_metadata, "md_metadata", &proc_name_elem),
	SP_STRING(sp_profile_recognition, source, "source", .flags = SP_FF_REQUIRED | SP_FF_NONEMPTY),
};
static const struct sp_schema recognition_schema =
	SP_SCHEMA(sp_profile_recognition, recognition_fields, .check = recognition_check);

static const struct sp_field profile_fields[] = {
	SP_STRING(sp_profile, name, "name", .flags = SP_FF_REQUIRED | SP_FF_NONEMPTY,
		  .charset = LOWER_DIGITS "-", .charset_says = "lowercase letters, digits and '-'"),
	SP_STRING(sp_profile, description, "description", .flags = SP_FF_REQUIRED),
	SP_STRING(sp_profile, driver, "driver"),
	SP_STRING(sp_profile, device_naming, "device_naming"),
	SP_STRING(sp_profile, source, "source"),
	SP_CUSTOM(sp_profile, levels_mask, "levels", &levels_custom, .flags = SP_FF_REQUIRED),
	SP_CUSTOM(sp_profile, chunk_min_bytes, "chunk_min", &size_custom, .flags = SP_FF_REQUIRED,
		  .max = SP_CHUNK_MAX_BYTES),
	SP_CUSTOM(sp_profile, chunk_max_bytes, "chunk_max", &size_custom, .flags = SP_FF_REQUIRED,
		  .max = SP_CHUNK_MAX_BYTES),
	SP_UINT(sp_profile, max_disks, "max_disks", 2, SP_MAX_DISKS),
	SP_STRING(sp_profile, levels_source, "levels_source"),
	SP_INLINE("strips", &strips_schema),
	SP_INLINE("spans", &spans_schema),
	SP_BOOL(sp_profile, protected_write_cache, "protected_write_cache"),
	SP_BOOL(sp_profile, is_md, "md"),
	SP_INLINE("scheduler", &scheduler_schema),
	SP_STRING(sp_profile, member_scheduler, "member_scheduler"),
	SP_LIST(sp_profile, knobs, n_knobs, "tuning", &knob_elem),
	SP_LIST(sp_profile, module_options, n_module_options, "module_options",
		&module_option_elem),
	SP_LIST(sp_profile, warnings, n_warnings, "warnings", &warning_elem),
	SP_LIST(sp_profile, advice, n_advice, "advice", &advice_elem),
	SP_LIST(sp_profile, level_rules, n_level_rules, "level_rules", &rule_elem),
	SP_OBJECT(sp_profile, recognition, "recognition", &recognition_schema),
};
const struct sp_schema sp_profile_schema =
	SP_SCHEMA(sp_profile, profile_fields, .check = profile_check);

int sp_profile_parse(const char *json_text, const char *origin, struct sp_profile *ret,
		     struct sp_error *err)
{
	struct sp_profile *p = calloc(1, sizeof(*p));
	char prefix[SP_PATH_MAX + 16];
	struct json_object *obj = NULL;
	struct sp_where root;
	int r;

	if (!p)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	snprintf(prefix, sizeof(prefix), "profile '%s'", origin);
	root = (struct sp_where){ .name = "", .prefix = prefix };
	r = sp_json_parse_object(json_text, prefix, "controller profile", &obj, err);
	if (r == 0)
		r = sp_schema_read(&sp_profile_schema, obj, p, &root, err);
	if (r == 0)
		*ret = *p;
	json_object_put(obj);
	free(p);
	return r;
}
