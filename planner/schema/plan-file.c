/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plan file: its field tables (read by apply --plan FILE, written by
 * plan --format json, compared by the replan check), and what holds
 * between its fields.  A plan file is input from a person's editor, so
 * every field is checked for type and bounds; apply re-derives nothing
 * from it except what it verifies against the disk, and executes the plan
 * made again from the file's request (plan/replan.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/devname.h"
#include "base/error.h"
#include "kernel/knob.h"
#include "objects.h"
#include "plan/plan.h"
#include "raid/raid.h"
#include "schema.h"

/* ------------------------------------------------------------ custom */

static struct json_object *u64_json(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

/* "format": the version of this layout, read only when it is this one */
static int format_read(const struct sp_field *f, struct json_object *v, struct json_object *parent,
		       void *base, const struct sp_where *w, struct sp_error *err)
{
	(void)f;
	(void)parent;
	(void)base;
	if (!json_object_is_type(v, json_type_int))
		return sp_where_error(err, w, NULL, EINVAL, " must be an integer");
	if (json_object_get_int64(v) != SP_PLAN_FORMAT_VERSION)
		return sp_where_error(err, w, NULL, EINVAL,
				      ": this stripeplan reads format %d, not format %s",
				      SP_PLAN_FORMAT_VERSION, json_object_get_string(v));
	return 0;
}

static struct json_object *format_write(const struct sp_field *f, const void *base)
{
	(void)f;
	(void)base;
	return json_object_new_int(SP_PLAN_FORMAT_VERSION);
}

static const struct sp_custom format_custom = { .read = format_read, .write = format_write };

/* "layout": md RAID10's "n2", "f3", "o2"; null for every other array */
static int layout_read(const struct sp_field *f, struct json_object *v, struct json_object *parent,
		       void *base, const struct sp_where *w, struct sp_error *err)
{
	struct sp_md_layout *l = (struct sp_md_layout *)((char *)base + f->offset);
	struct sp_error why = { 0 };

	(void)parent;
	if (!json_object_is_type(v, json_type_string))
		return sp_where_error(err, w, NULL, EINVAL, " must be a string");
	if (sp_parse_md_layout(json_object_get_string(v), l, &why) < 0)
		return sp_where_error_from(err, w, &why);
	return 0;
}

static struct json_object *layout_write(const struct sp_field *f, const void *base)
{
	const struct sp_md_layout *l = (const struct sp_md_layout *)((const char *)base + f->offset);
	char name[SP_MD_LAYOUT_NAME_MAX];

	if (!l->near_copies)
		return NULL;
	sp_md_layout_name(l, name, sizeof(name));
	return json_object_new_string(name);
}

static const struct sp_custom layout_custom = { .read = layout_read, .write = layout_write };

static bool has_layout(const void *plan)
{
	return ((const struct sp_plan *)plan)->layout.near_copies != 0;
}

static bool is_xfs(const void *plan)
{
	return ((const struct sp_plan *)plan)->fs == SP_FS_XFS;
}

static bool is_ext(const void *plan)
{
	return !is_xfs(plan);
}

/*
 * "start_sector", "size_sectors": the partition in the device's logical
 * sectors, for people and sfdisk; computed from the bytes when written.
 * Read as nothing: the bytes are the plan, and the replan check names an
 * edited start_bytes as itself.
 */
static uint64_t sectors(const struct sp_field *f, const struct sp_plan *p)
{
	uint64_t bytes = !strcmp(f->name, "start_sector") ? p->start_bytes : p->size_bytes;

	return p->device.logical_sector_bytes ? bytes / p->device.logical_sector_bytes : 0;
}

static int sectors_read(const struct sp_field *f, struct json_object *v, struct json_object *parent,
			void *base, const struct sp_where *w, struct sp_error *err)
{
	(void)f;
	(void)parent;
	(void)base;
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return sp_where_error(err, w, NULL, EINVAL, " must be a number of sectors");
	return 0;
}

static struct json_object *sectors_write(const struct sp_field *f, const void *base)
{
	return u64_json(sectors(f, base));
}

static const struct sp_custom sectors_custom = { .read = sectors_read, .write = sectors_write };

/* The tuning entry's "path", from its kind, device and attribute: the one
 * form sp_tuning_path() writes, and it must stay inside sysfs. */
static int tuning_path_read(const struct sp_field *f, struct json_object *v,
			    struct json_object *parent, void *base, const struct sp_where *w,
			    struct sp_error *err)
{
	struct sp_tuning *t = base;
	struct json_object *kind_json = NULL;
	char path[SP_PATH_MAX];
	int r;

	r = json_object_is_type(v, json_type_string) ? 0 :
		sp_where_error(err, w, NULL, EINVAL, " must be a string");
	if (r == 0 && (size_t)json_object_get_string_len(v) >= sizeof(path))
		r = sp_where_error(err, w, NULL, ENAMETOOLONG, " is too long");
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s", json_object_get_string(v));
	/* the kind says which of the two forms; its own row reports a bad one */
	if (!json_object_object_get_ex(parent, "kind", &kind_json) || !kind_json ||
	    sp_tuning_kind_from_name(json_object_get_string(kind_json), &t->kind) < 0)
		return 0;
	(void)f;
	if (strstr(path, "/../") || sp_tuning_from_path(t->kind, path, t) < 0)
		return sp_where_error(err, w, NULL, EINVAL, ": '%s' is not a sysfs path", path);
	return 0;
}

static struct json_object *tuning_path_write(const struct sp_field *f, const void *base)
{
	char path[SP_PATH_MAX];

	(void)f;
	sp_tuning_path(base, path, sizeof(path));
	return json_object_new_string(path);
}

static bool tuning_path_equal(const struct sp_field *f, const void *a, const void *b)
{
	const struct sp_tuning *x = a, *y = b;

	(void)f;
	return !strcmp(x->device, y->device) && !strcmp(x->attribute, y->attribute);
}

/* the path is two fields: say which differs ("tuning[1] device is ...") */
static int tuning_path_differ(const struct sp_field *f, const void *have, const void *want,
			      const struct sp_where *w, struct sp_error *err)
{
	const struct sp_tuning *x = have, *y = want;
	bool device = strcmp(x->device, y->device) != 0;

	(void)f;
	return sp_where_error(err, w->up, NULL, EINVAL,
			      " %s is '%s', but stripeplan plans '%s' from the file's own fields",
			      device ? "device" : "attribute", device ? x->device : x->attribute,
			      device ? y->device : y->attribute);
}

static const struct sp_custom tuning_path_custom = {
	.read = tuning_path_read,
	.write = tuning_path_write,
	.equal = tuning_path_equal,
	.differ = tuning_path_differ,
};

/*
 * The tuning entry's "value": read by the rules of its knob (path comes
 * first and says which), so a plan file's value is the number the kernel
 * will print back, in the knob's bounds, or a scheduler's name.
 */
static int tuning_value_read(const struct sp_field *f, struct json_object *v,
			     struct json_object *parent, void *base, const struct sp_where *w,
			     struct sp_error *err)
{
	/* a sysfs attribute stripeplan does not set: any number, the replan refuses it */
	static const struct sp_knob other = { "", SP_VALUE_NUMBER, SP_LIMIT_COUNT, false, false,
					      false };
	struct sp_tuning *t = base;
	const struct sp_knob *knob = NULL;
	struct sp_error why = { 0 };

	(void)f;
	(void)parent;
	if (!json_object_is_type(v, json_type_string))
		return sp_where_error(err, w, NULL, EINVAL, " must be a string");
	if (t->kind == SP_TUNING_SYSFS)
		knob = sp_knob_find(t->attribute) ?: &other;
	if (sp_value_parse(json_object_get_string(v), knob, &t->value, &why) < 0)
		return sp_where_error_from(err, w, &why);
	return 0;
}

static struct json_object *tuning_value_write(const struct sp_field *f, const void *base)
{
	(void)f;
	return json_object_new_string(SP_VALUE_TEXT(&((const struct sp_tuning *)base)->value));
}

static bool tuning_value_equal(const struct sp_field *f, const void *a, const void *b)
{
	(void)f;
	return sp_value_equal(&((const struct sp_tuning *)a)->value,
			      &((const struct sp_tuning *)b)->value);
}

static void tuning_value_format(const struct sp_field *f, const void *base, char *buf, size_t len)
{
	(void)f;
	sp_value_format(&((const struct sp_tuning *)base)->value, buf, len);
}

static const struct sp_custom tuning_value_custom = {
	.read = tuning_value_read,
	.write = tuning_value_write,
	.equal = tuning_value_equal,
	.format = tuning_value_format,
};

/* "kernel": the release the plan is for, parsed once here into its family
 * and version, which the replan and the judgments use */
static int kernel_read(const struct sp_field *f, struct json_object *v, struct json_object *parent,
		       void *base, const struct sp_where *w, struct sp_error *err)
{
	struct sp_error why = { 0 };

	(void)parent;
	if (!json_object_is_type(v, json_type_string))
		return sp_where_error(err, w, NULL, EINVAL, " must be a string");
	if (sp_parse_kernel(json_object_get_string(v), (struct sp_kernel *)((char *)base + f->offset),
			    &why) < 0)
		return sp_where_error_from(err, w, &why);
	return 0;
}

static struct json_object *kernel_write(const struct sp_field *f, const void *base)
{
	return json_object_new_string(((const struct sp_kernel *)((const char *)base + f->offset))->release);
}

static const struct sp_custom kernel_custom = { .read = kernel_read, .write = kernel_write };

/* "layers": the stack bottom up, ["luks", "lvm"]: each known, each once */
static int layers_read(const struct sp_field *f, struct json_object *v, struct json_object *parent,
		       void *base, const struct sp_where *w, struct sp_error *err)
{
	struct sp_plan *p = base;
	size_t n = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0;

	(void)f;
	(void)parent;
	if (!json_object_is_type(v, json_type_array))
		return sp_where_error(err, w, NULL, EINVAL, " must be a list of layers");
	if (n > SP_MAX_LAYERS)
		return sp_where_error(err, w, NULL, E2BIG, " has more than %u layers", SP_MAX_LAYERS);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		struct sp_where we = { .up = w, .index = i };

		if (!json_object_is_type(e, json_type_string) ||
		    sp_layer_from_name(json_object_get_string(e), &p->layers[i]) < 0)
			return sp_where_error(err, &we, NULL, EINVAL, " must be one of %s",
					      SP_NAMES_JOINED(&sp_layer_names));
		for (size_t j = 0; j < i; j++)
			if (p->layers[j] == p->layers[i])
				return sp_where_error(err, &we, NULL, EINVAL, " is named twice");
	}
	p->n_layers = n;
	return 0;
}

static struct json_object *layers_write(const struct sp_field *f, const void *base)
{
	const struct sp_plan *p = base;
	struct json_object *a = json_object_new_array();

	(void)f;
	for (size_t i = 0; a && i < p->n_layers; i++)
		json_object_array_add(a, json_object_new_string(sp_layer_name(p->layers[i])));
	return a;
}

static bool layers_equal(const struct sp_field *f, const void *a, const void *b)
{
	const struct sp_plan *x = a, *y = b;

	(void)f;
	return x->n_layers == y->n_layers &&
	       !memcmp(x->layers, y->layers, x->n_layers * sizeof(x->layers[0]));
}

static void layers_format(const struct sp_field *f, const void *base, char *buf, size_t len)
{
	const struct sp_plan *p = base;
	size_t used = 0;

	(void)f;
	buf[0] = 0;
	for (size_t i = 0; i < p->n_layers && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "",
					 sp_layer_name(p->layers[i]));
}

static const struct sp_custom layers_custom = {
	.read = layers_read,
	.write = layers_write,
	.equal = layers_equal,
	.format = layers_format,
};

/* "offset_sectors": the LUKS2 data offset in cryptsetup's --offset unit,
 * 512-byte sectors whatever the device's; written, never read back */
static struct json_object *luks_sectors_write(const struct sp_field *f, const void *base)
{
	(void)f;
	return u64_json(((const struct sp_luks_plan *)base)->offset_bytes / 512);
}

static const struct sp_custom luks_sectors_custom = { .read = sectors_read,
						      .write = luks_sectors_write };

static bool has_luks(const void *plan)
{
	return sp_plan_has_layer(plan, SP_LAYER_LUKS);
}

static bool has_lvm(const void *plan)
{
	return sp_plan_has_layer(plan, SP_LAYER_LVM);
}

static bool no_stack(const void *plan)
{
	return ((const struct sp_plan *)plan)->n_layers == 0;
}

/* ------------------------------------------------------------ tables */

/* a row that stands for no member of its own */
#define SP_VIRTUAL(N, CUSTOM, ...) { .name = (N), .type = SP_FIELD_CUSTOM, .custom = (CUSTOM), __VA_ARGS__ }

static const struct sp_field string_elem_name = SP_ELEM_STRING(SP_NAME_MAX);
static const struct sp_field string_elem_msg = SP_ELEM_STRING(SP_MSG_MAX);
static const struct sp_field argv_elem = SP_ELEM_STRING(sizeof(((struct sp_plan *)0)->mkfs_argv[0]));

/* a plan without a controller's report has none to name */
static bool string_empty(const void *member)
{
	return !*(const char *)member;
}

/* how each value of the request was given: a replan declares every one */
static const struct sp_field source_fields[] = {
	SP_ENUM(sp_plan, level_source, "level", &sp_source_names, .compare = SP_CMP_NOTE),
	SP_ENUM(sp_plan, disks_source, "disks", &sp_source_names, .compare = SP_CMP_NOTE),
	SP_ENUM(sp_plan, chunk_source, "chunk", &sp_source_names, .compare = SP_CMP_NOTE),
	SP_ENUM(sp_plan, layout_source, "layout", &sp_source_names, .compare = SP_CMP_NOTE,
		.present = has_layout, .null_when_absent = true),
	SP_ENUM(sp_plan, members_source, "members", &sp_source_names, .compare = SP_CMP_NOTE),
	SP_ENUM(sp_plan, table_source, "table", &sp_source_names, .compare = SP_CMP_NOTE),
	SP_STRING(sp_plan, geometry_report, "report", .flags = SP_FF_OMIT_EMPTY,
		  .empty = string_empty, .compare = SP_CMP_NOTE),
};
static const struct sp_schema source_schema = SP_SCHEMA(sp_plan, source_fields);

static const struct sp_field recognised_by_elem = SP_ELEM_STRING(SP_MSG_MAX / 2);

static const struct sp_field array_fields[] = {
	SP_STRING(sp_plan, controller, "controller", .flags = SP_FF_REQUIRED,
		  .compare = SP_CMP_REQUEST),
	/* the words of what the kernel said: only when it chose the controller */
	SP_LIST(sp_plan, recognised_by, n_recognised_by, "recognised_by", &recognised_by_elem,
		.flags = SP_FF_OMIT_EMPTY, .compare = SP_CMP_NOTE),
	SP_ENUM(sp_plan, level, "level", &sp_level_names, .flags = SP_FF_REQUIRED,
		.compare = SP_CMP_REQUEST),
	SP_UINT(sp_plan, disks, "disks", 0, SP_MAX_DISKS, .flags = SP_FF_REQUIRED,
		.compare = SP_CMP_REQUEST),
	SP_UINT(sp_plan, spans, "spans", 0, SP_MAX_DISKS, .flags = SP_FF_REQUIRED,
		.compare = SP_CMP_REQUEST),
	SP_UINT(sp_plan, data_disks, "data_disks", 0, SP_MAX_DISKS, .flags = SP_FF_REQUIRED,
		.compare = SP_CMP_GEOMETRY),
	SP_U64(sp_plan, chunk_bytes, "chunk_bytes", 0, SP_CHUNK_MAX_BYTES, .flags = SP_FF_REQUIRED,
	       .compare = SP_CMP_REQUEST),
	SP_U64(sp_plan, stripe_width_bytes, "stripe_width_bytes", 0,
	       SP_CHUNK_MAX_BYTES * SP_MAX_DISKS, .flags = SP_FF_REQUIRED,
	       .compare = SP_CMP_GEOMETRY),
	SP_CUSTOM(sp_plan, layout, "layout", &layout_custom, .compare = SP_CMP_REQUEST),
	SP_LIST(sp_plan, members, n_members, "members", &string_elem_name,
		.compare = SP_CMP_REQUEST),
	SP_INLINE("source", &source_schema, .compare = SP_CMP_NOTE),
};
static const struct sp_schema array_schema = SP_SCHEMA(sp_plan, array_fields);

static const struct sp_field partition_fields[] = {
	SP_ENUM(sp_plan, table, "table", &sp_table_names, .flags = SP_FF_REQUIRED,
		.compare = SP_CMP_REQUEST),
	SP_STRING(sp_plan, partition_path, "path", .flags = SP_FF_REQUIRED,
		  .compare = SP_CMP_GEOMETRY),
	SP_U64(sp_plan, start_bytes, "start_bytes", 0, SP_JSON_U64_MAX, .flags = SP_FF_REQUIRED,
	       .compare = SP_CMP_GEOMETRY),
	SP_U64(sp_plan, size_bytes, "size_bytes", 0, SP_JSON_U64_MAX, .flags = SP_FF_REQUIRED,
	       .compare = SP_CMP_GEOMETRY),
	SP_VIRTUAL("start_sector", &sectors_custom,
		   .compare = SP_CMP_DERIVED),
	SP_VIRTUAL("size_sectors", &sectors_custom,
		   .compare = SP_CMP_DERIVED),
	SP_U64(sp_plan, align_bytes, "align_bytes", 0, SP_JSON_U64_MAX, .flags = SP_FF_REQUIRED,
	       .compare = SP_CMP_GEOMETRY),
	SP_U64(sp_plan, reserved_tail_bytes, "reserved_tail_bytes", 0, SP_JSON_U64_MAX,
	       .flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
};
static const struct sp_schema partition_schema = SP_SCHEMA(sp_plan, partition_fields);

/* what LVM takes in a name (lvm2's _validate_name) */
#define LVM_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+_.-"
#define LVM_NAME_SAYS "a name of a-z A-Z 0-9 + _ . -"

static const struct sp_field luks_fields[] = {
	SP_STRING(sp_luks_plan, name, "name", .flags = SP_FF_REQUIRED | SP_FF_NONEMPTY,
		  .charset = LVM_NAME_CHARS, .charset_says = LVM_NAME_SAYS,
		  .compare = SP_CMP_REQUEST),
	SP_STRING(sp_luks_plan, path, "path", .flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
	SP_STRING(sp_luks_plan, below, "device", .flags = SP_FF_REQUIRED,
		  .compare = SP_CMP_GEOMETRY),
	/* dm-crypt's sectors: 512 to 4096 bytes */
	SP_UINT(sp_luks_plan, sector_bytes, "sector_bytes", 512, 4096,
		.flags = SP_FF_REQUIRED | SP_FF_POW2, .compare = SP_CMP_GEOMETRY),
	SP_U64(sp_luks_plan, align_bytes, "align_bytes", 1, SP_JSON_U64_MAX,
	       .flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
	SP_U64(sp_luks_plan, offset_bytes, "offset_bytes", 0, SP_JSON_U64_MAX,
	       .flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
	SP_VIRTUAL("offset_sectors", &luks_sectors_custom, .compare = SP_CMP_DERIVED),
	SP_U64(sp_luks_plan, size_bytes, "size_bytes", 0, SP_JSON_U64_MAX,
	       .flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
};
static const struct sp_schema luks_schema = SP_SCHEMA(sp_luks_plan, luks_fields);

static const struct sp_field lvm_fields[] = {
	SP_STRING(sp_lvm_plan, vg, "vg", .flags = SP_FF_REQUIRED | SP_FF_NONEMPTY,
		  .charset = LVM_NAME_CHARS, .charset_says = LVM_NAME_SAYS,
		  .compare = SP_CMP_REQUEST),
	SP_STRING(sp_lvm_plan, lv, "lv", .flags = SP_FF_REQUIRED | SP_FF_NONEMPTY,
		  .charset = LVM_NAME_CHARS, .charset_says = LVM_NAME_SAYS,
		  .compare = SP_CMP_REQUEST),
	SP_STRING(sp_lvm_plan, path, "path", .flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
	SP_STRING(sp_lvm_plan, below, "device", .flags = SP_FF_REQUIRED,
		  .compare = SP_CMP_GEOMETRY),
	SP_U64(sp_lvm_plan, data_alignment_bytes, "data_alignment_bytes", 1, SP_JSON_U64_MAX,
	       .flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
	SP_U64(sp_lvm_plan, pe_start_bytes, "pe_start_bytes", 0, SP_JSON_U64_MAX,
	       .flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
	SP_U64(sp_lvm_plan, extent_bytes, "extent_bytes", 1, SP_JSON_U64_MAX,
	       .flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
	/* lvm2 counts extents in 32 bits */
	SP_U64(sp_lvm_plan, extents, "extents", 1, UINT32_MAX, .flags = SP_FF_REQUIRED,
	       .compare = SP_CMP_GEOMETRY),
	SP_U64(sp_lvm_plan, size_bytes, "size_bytes", 0, SP_JSON_U64_MAX,
	       .flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
	/* lvcreate -r, from the device's read_ahead_kb when the LV is the
	 * top; absent when none is planned (LVM's auto) */
	SP_U64(sp_lvm_plan, read_ahead_sectors, "read_ahead_sectors", 0,
	       SP_LVM_READ_AHEAD_MAX_SECTORS, .flags = SP_FF_OMIT_EMPTY, .empty = sp_u64_zero),
};
static const struct sp_schema lvm_schema = SP_SCHEMA(sp_lvm_plan, lvm_fields);

/* the layers' count and list, which "layers" spells together */
#define LAYERS_ROW                                                                         \
	{ .name = "layers", .type = SP_FIELD_CUSTOM, .custom = &layers_custom,             \
	  .offset = offsetof(struct sp_plan, n_layers),                                    \
	  .size = offsetof(struct sp_plan, layers) + sizeof(((struct sp_plan *)0)->layers) - \
		  offsetof(struct sp_plan, n_layers),                                      \
	  .align = __alignof__(size_t), .flags = SP_FF_REQUIRED, .compare = SP_CMP_REQUEST }

/* the layers between the partition and the filesystem (stack.c), and
 * what the filesystem goes on; absent from a plan without them */
static const struct sp_field stack_fields[] = {
	LAYERS_ROW,
	SP_OBJECT(sp_plan, luks, "luks", &luks_schema, .flags = SP_FF_REQUIRED,
		  .present = has_luks),
	SP_OBJECT(sp_plan, lvm, "lvm", &lvm_schema, .flags = SP_FF_REQUIRED, .present = has_lvm),
	SP_STRING(sp_plan, fs_path, "path", .flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
	SP_U64(sp_plan, fs_offset_bytes, "offset_bytes", 0, SP_JSON_U64_MAX,
	       .flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
	SP_U64(sp_plan, fs_size_bytes, "size_bytes", 0, SP_JSON_U64_MAX, .flags = SP_FF_REQUIRED,
	       .compare = SP_CMP_GEOMETRY),
};
static const struct sp_schema stack_schema = SP_SCHEMA(sp_plan, stack_fields);

static const struct sp_field xfs_fields[] = {
	/* the stripe unit is the chunk */
	SP_U64(sp_plan, xfs_su_bytes, "su_bytes", 0, SP_CHUNK_MAX_BYTES, .flags = SP_FF_REQUIRED,
	       .compare = SP_CMP_GEOMETRY),
	SP_UINT(sp_plan, xfs_sw, "sw", 0, SP_MAX_DISKS, .flags = SP_FF_REQUIRED,
		.compare = SP_CMP_GEOMETRY),
	/* mkfs.xfs takes no log stripe unit above 256 KiB (XLOG_MAX_RECORD_BSIZE) */
	SP_U64(sp_plan, xfs_log_su_bytes, "log_su_bytes", 0, 256 * SP_KIB, .flags = SP_FF_REQUIRED,
	       .compare = SP_CMP_GEOMETRY),
	/* an AG holds at most 1 TiB (XFS_AG_MAX_BYTES) */
	SP_U64(sp_plan, xfs_agsize_bytes, "agsize_bytes", 0, SP_TIB, .flags = SP_FF_NULL_EMPTY,
	       .compare = SP_CMP_GEOMETRY),
};
static const struct sp_schema xfs_schema = SP_SCHEMA(sp_plan, xfs_fields);

static const struct sp_field ext_fields[] = {
	/* s_raid_stride is 16 bits on disk, s_raid_stripe_width 32 */
	SP_UINT(sp_plan, ext_stride_blocks, "stride_blocks", 0, UINT16_MAX,
		.flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
	SP_UINT(sp_plan, ext_stripe_width_blocks, "stripe_width_blocks", 0, UINT32_MAX,
		.flags = SP_FF_REQUIRED, .compare = SP_CMP_GEOMETRY),
};
static const struct sp_schema ext_schema = SP_SCHEMA(sp_plan, ext_fields);

static const struct sp_field filesystem_fields[] = {
	SP_ENUM(sp_plan, fs, "type", &sp_fs_names, .flags = SP_FF_REQUIRED,
		.compare = SP_CMP_REQUEST),
	SP_STRING(sp_plan, label, "label", .flags = SP_FF_NULL_EMPTY, .compare = SP_CMP_REQUEST),
	SP_UINT(sp_plan, block_bytes, "block_bytes", 0, 65536, .flags = SP_FF_REQUIRED,
		.compare = SP_CMP_GEOMETRY),
	SP_LIST(sp_plan, mkfs_argv, n_mkfs_argv, "mkfs_argv", &argv_elem, .flags = SP_FF_REQUIRED),
	SP_INLINE("xfs", &xfs_schema, .flags = SP_FF_REQUIRED, .present = is_xfs),
	SP_INLINE("ext", &ext_schema, .flags = SP_FF_REQUIRED, .present = is_ext),
};
static const struct sp_schema filesystem_schema = SP_SCHEMA(sp_plan, filesystem_fields);

static const struct sp_field mount_fields[] = {
	SP_STRING(sp_plan, mountpoint, "mountpoint", .flags = SP_FF_NULL_EMPTY,
		  .compare = SP_CMP_REQUEST),
	SP_LIST(sp_plan, mount_options, n_mount_options, "options", &string_elem_name,
		.flags = SP_FF_REQUIRED),
	SP_STRING(sp_plan, fstab_line, "fstab", .flags = SP_FF_NULL_EMPTY),
};
static const struct sp_schema mount_schema = SP_SCHEMA(sp_plan, mount_fields);

/* device and attribute, which "path" spells together */
#define TUNING_PATH_ROW                                                                    \
	{ .name = "path", .type = SP_FIELD_CUSTOM, .custom = &tuning_path_custom,          \
	  .offset = offsetof(struct sp_tuning, device),                                    \
	  .size = offsetof(struct sp_tuning, attribute) +                                  \
		  sizeof(((struct sp_tuning *)0)->attribute) -                             \
		  offsetof(struct sp_tuning, device),                                      \
	  .align = 1, .flags = SP_FF_REQUIRED }

static const struct sp_field tuning_fields[] = {
	TUNING_PATH_ROW,
	SP_CUSTOM(sp_tuning, value, "value", &tuning_value_custom, .flags = SP_FF_REQUIRED),
	SP_ENUM(sp_tuning, kind, "kind", &sp_tuning_kind_names, .flags = SP_FF_REQUIRED),
	/* it lands in the tune script and udev rule as a comment */
	SP_STRING(sp_tuning, why, "why"),
};
static const struct sp_schema tuning_schema = SP_SCHEMA(sp_tuning, tuning_fields);
static const struct sp_field tuning_elem = SP_ELEM_OBJECT(&tuning_schema);

static const struct sp_field left_out_fields[] = {
	SP_STRING(sp_left_out, what, "what", .flags = SP_FF_REQUIRED),
	SP_STRING(sp_left_out, why, "why", .flags = SP_FF_REQUIRED),
	SP_STRING(sp_left_out, reason, "reason", .flags = SP_FF_REQUIRED),
};
static const struct sp_schema left_out_schema = SP_SCHEMA(sp_left_out, left_out_fields);
static const struct sp_field left_out_elem = SP_ELEM_OBJECT(&left_out_schema);

static const struct sp_field warning_fields[] = {
	SP_STRING(sp_warning, code, "code", .flags = SP_FF_REQUIRED),
	SP_STRING(sp_warning, message, "message", .flags = SP_FF_REQUIRED),
};
static const struct sp_schema warning_schema = SP_SCHEMA(sp_warning, warning_fields);
static const struct sp_field warning_elem = SP_ELEM_OBJECT(&warning_schema);

static int plan_check(void *obj, const struct sp_where *w, struct sp_error *err);

static const struct sp_field plan_fields[] = {
	SP_VIRTUAL("format", &format_custom, .flags = SP_FF_REQUIRED, .compare = SP_CMP_DERIVED),
	SP_CUSTOM(sp_plan, kernel, "kernel", &kernel_custom, .flags = SP_FF_REQUIRED,
		  .compare = SP_CMP_REQUEST),
	SP_INLINE("array", &array_schema, .flags = SP_FF_REQUIRED),
	SP_OBJECT(sp_plan, device, "device", &sp_facts_schema, .flags = SP_FF_REQUIRED,
		  .compare = SP_CMP_FACT),
	SP_INLINE("partition", &partition_schema, .flags = SP_FF_REQUIRED),
	SP_INLINE("stack", &stack_schema, .empty = no_stack, .flags = SP_FF_OMIT_EMPTY),
	SP_INLINE("filesystem", &filesystem_schema, .flags = SP_FF_REQUIRED),
	SP_INLINE("mount", &mount_schema, .flags = SP_FF_REQUIRED),
	SP_LIST_GROWN(sp_plan, tuning, n_tuning, SP_MAX_TUNING, "tuning", &tuning_elem,
		      .flags = SP_FF_REQUIRED),
	/* entries x 4 KiB pages x member disks, at most the kernel's 32768 entries */
	SP_U64(sp_plan, md_stripe_cache_bytes, "md_stripe_cache_bytes", 0,
	       32768ULL * 4096 * SP_MAX_DISKS, .compare = SP_CMP_GEOMETRY),
	SP_ENUM(sp_plan, tuning_recipe, "tuning_recipe", &sp_tuning_recipe_names,
		.compare = SP_CMP_REQUEST),
	/* absent in plans made before --workload: general, what they planned */
	SP_ENUM(sp_plan, workload, "workload", &sp_workload_names, .compare = SP_CMP_REQUEST),
	/* 0 in plans made before --memory-budget: the default */
	SP_U64(sp_plan, memory_budget_bytes, "memory_budget_bytes", 0, SP_MEMORY_BUDGET_MAX,
	       .compare = SP_CMP_REQUEST),
	SP_LIST(sp_plan, left_out, n_left_out, "left_out", &left_out_elem,
		.compare = SP_CMP_NOTE),
	SP_LIST(sp_plan, advice, n_advice, "controller_advice", &string_elem_msg,
		.compare = SP_CMP_NOTE),
	SP_LIST_GROWN(sp_plan, warnings, n_warnings, SP_MAX_WARNINGS, "warnings", &warning_elem,
		      .compare = SP_CMP_NOTE),
};
static const struct sp_unlisted plan_unlisted[] = {
	SP_UNLISTED(sp_plan, xfs_ag, "how the planner chose the AGs (agsize_bytes is the plan's "
		    "choice): the text plan explains it, every replan computes it again"),
	SP_UNLISTED(sp_plan, warnings_out_of_memory, "a plan with it set is never made"),
};
const struct sp_schema sp_plan_schema = SP_SCHEMA(sp_plan, plan_fields, .check = plan_check,
						  .unlisted = plan_unlisted,
						  .n_unlisted = ARRAY_SIZE(plan_unlisted));

/*
 * A plan file is executed as root: its mkfs command must be the plan's own
 * mkfs on the plan's own partition, and the geometry must be whole sectors.
 */
static int plan_check(void *obj, const struct sp_where *w, struct sp_error *err)
{
	const struct sp_plan *p = obj;
	char part[SP_PATH_MAX];
	const char *tool = sp_mkfs_tool(p->fs);
	uint64_t sector = p->device.logical_sector_bytes;
	const char *fs_path = p->n_layers ? p->fs_path : p->partition_path;

	if ((p->stripe_width_bytes == 0) != sp_level_is_mirror(p->level))
		return sp_where_error(err, w, "array.stripe_width_bytes", EINVAL,
				      " is 0 for a mirror (it has no stripe), and only for a mirror");
	if (p->start_bytes % sector || p->size_bytes % sector || p->size_bytes == 0)
		return sp_where_error(err, w, "partition", EINVAL,
				      " is not whole %" PRIu64 "-byte sectors", sector);
	if (p->table == SP_TABLE_NONE) {
		if (strcmp(p->partition_path, p->device.path) != 0 || p->start_bytes != 0)
			return sp_where_error(err, w, "partition", EINVAL,
					      ": with table none, the path must be the device "
					      "'%s' and start at 0",
					      p->device.path);
	} else if (sp_partition_path(p->device.path, 1, part, sizeof(part)) < 0 ||
		   strcmp(part, p->partition_path) != 0) {
		return sp_where_error(err, w, "partition.path", EINVAL,
				      ": '%s' is not partition 1 of '%s'", p->partition_path,
				      p->device.path);
	}
	/* a stack's top is named by the replan check, which plans it again */
	if (p->n_mkfs_argv < 2 || strcmp(p->mkfs_argv[0], tool) != 0 ||
	    strcmp(p->mkfs_argv[p->n_mkfs_argv - 1], fs_path) != 0)
		return sp_where_error(err, w, "filesystem.mkfs_argv", EINVAL,
				      " must run %s on '%s'", tool, fs_path);
	return 0;
}

int sp_plan_from_json(const char *text, struct sp_plan *ret, struct sp_error *err)
{
	const struct sp_where root = { .name = "plan", .view = SP_VIEW_PLAN };
	struct sp_plan *p = calloc(1, sizeof(*p));
	struct json_object *obj = NULL;
	int r;

	if (!p)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	r = sp_json_parse_object(text, "plan", "plan", &obj, err);
	if (r == 0)
		r = sp_schema_read(&sp_plan_schema, obj, p, &root, err);
	if (r == 0)
		*ret = *p;
	else
		sp_plan_release(p);
	json_object_put(obj);
	free(p);
	return r;
}

struct json_object *sp_plan_to_json(const struct sp_plan *plan)
{
	return sp_schema_write(&sp_plan_schema, plan, SP_VIEW_PLAN);
}
