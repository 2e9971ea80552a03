/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reads a reviewed plan back (apply --plan FILE).  A plan file is input
 * from a person's editor, so every field is checked for type and bounds;
 * apply re-derives nothing from it except what it verifies against the disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "stripeplan.h"
#include "textfile.h"
#include "tuning.h"

struct loader {
	struct sp_error *err;
	int r;
};

static json_object *member(struct loader *l, json_object *obj, const char *section,
			   const char *key, json_type type, bool required)
{
	json_object *v = NULL;

	if (l->r < 0)
		return NULL;
	if (!obj || !json_object_object_get_ex(obj, key, &v) || json_object_is_type(v, json_type_null)) {
		if (required)
			l->r = sp_error_set(l->err, EINVAL, SP_ERR_INVALID,
					    "plan: %s.%s is missing", section, key);
		return NULL;
	}
	if (!json_object_is_type(v, type)) {
		l->r = sp_error_set(l->err, EINVAL, SP_ERR_INVALID,
				    "plan: %s.%s has the wrong type (expected %s)", section, key,
				    json_type_to_name(type));
		return NULL;
	}
	return v;
}

static void get_u64(struct loader *l, json_object *obj, const char *section, const char *key,
		    uint64_t max, uint64_t *out)
{
	json_object *v = member(l, obj, section, key, json_type_int, true);
	int64_t n;

	if (!v)
		return;
	n = json_object_get_int64(v);
	if (n < 0 || (uint64_t)n > max) {
		l->r = sp_error_set(l->err, ERANGE, SP_ERR_INVALID,
				    "plan: %s.%s = %" PRId64 " is out of range", section, key, n);
		return;
	}
	*out = (uint64_t)n;
}

static void get_uint(struct loader *l, json_object *obj, const char *section, const char *key,
		     unsigned max, unsigned *out)
{
	uint64_t v = 0;

	get_u64(l, obj, section, key, max, &v);
	if (l->r == 0)
		*out = (unsigned)v;
}

static void get_str(struct loader *l, json_object *obj, const char *section, const char *key,
		    bool required, char *out, size_t len)
{
	json_object *v = member(l, obj, section, key, json_type_string, required);

	if (!v)
		return;
	if ((size_t)json_object_get_string_len(v) >= len) {
		l->r = sp_error_set(l->err, ENAMETOOLONG, SP_ERR_INVALID,
				    "plan: %s.%s is too long", section, key);
		return;
	}
	snprintf(out, len, "%s", json_object_get_string(v));
}

static void load_strings(struct loader *l, json_object *arr, const char *section, size_t max,
			 size_t width, char *out, size_t *count);

/* Where each value came from; plans written before it was recorded say nothing. */
static void load_sources(struct loader *l, json_object *o, struct sp_plan *p)
{
	static const char *const keys[] = { "level", "disks", "chunk", "layout", "members", "table" };
	enum sp_source *const dst[] = { &p->level_source,  &p->disks_source,
					&p->chunk_source,  &p->layout_source,
					&p->members_source, &p->table_source };
	char text[16];

	for (size_t i = 0; o && i < ARRAY_SIZE(keys) && l->r == 0; i++) {
		text[0] = '\0';
		get_str(l, o, "array.source", keys[i], false, text, sizeof(text));
		if (l->r == 0 && text[0] && sp_source_from_name(text, dst[i]) < 0)
			l->r = sp_error_set(l->err, EINVAL, SP_ERR_INVALID,
					    "plan: array.source.%s '%s' is not declared, kernel, default "
					    "or none", keys[i], text);
	}
}

static void load_array(struct loader *l, json_object *root, struct sp_plan *p)
{
	json_object *a = member(l, root, "plan", "array", json_type_object, true);
	char level[16] = "", layout[SP_MD_LAYOUT_NAME_MAX] = "";

	get_str(l, a, "array", "controller", true, p->controller, sizeof(p->controller));
	get_str(l, a, "array", "level", true, level, sizeof(level));
	if (l->r == 0)
		l->r = sp_parse_level(level, &p->level, l->err);
	get_uint(l, a, "array", "disks", SP_MAX_DISKS, &p->disks);
	get_uint(l, a, "array", "spans", SP_MAX_DISKS, &p->spans);
	get_uint(l, a, "array", "data_disks", SP_MAX_DISKS, &p->data_disks);
	get_u64(l, a, "array", "chunk_bytes", UINT32_MAX, &p->chunk_bytes);
	get_u64(l, a, "array", "stripe_width_bytes", INT64_MAX, &p->stripe_width_bytes);
	get_str(l, a, "array", "layout", false, layout, sizeof(layout));
	if (l->r == 0 && layout[0])
		l->r = sp_parse_md_layout(layout, &p->layout, l->err);
	load_strings(l, member(l, a, "array", "members", json_type_array, false), "array.members",
		     SP_MAX_MEMBERS, SP_NAME_MAX, &p->members[0][0], &p->n_members);
	load_sources(l, member(l, a, "array", "source", json_type_object, false), p);
}

static void load_device(struct loader *l, json_object *root, struct sp_facts *d)
{
	json_object *o = member(l, root, "plan", "device", json_type_object, true), *v;
	int64_t off;

	get_str(l, o, "device", "path", true, d->path, sizeof(d->path));
	get_str(l, o, "device", "kernel_name", true, d->kernel_name, sizeof(d->kernel_name));
	get_u64(l, o, "device", "size_bytes", INT64_MAX, &d->size_bytes);
	get_uint(l, o, "device", "logical_sector_bytes", 65536, &d->logical_sector_bytes);
	get_uint(l, o, "device", "physical_sector_bytes", 65536, &d->physical_sector_bytes);
	get_u64(l, o, "device", "min_io_bytes", INT64_MAX, &d->min_io_bytes);
	get_u64(l, o, "device", "optimal_io_bytes", INT64_MAX, &d->optimal_io_bytes);
	get_str(l, o, "device", "wwn", false, d->wwn, sizeof(d->wwn));
	get_str(l, o, "device", "serial", false, d->serial, sizeof(d->serial));
	if ((v = member(l, o, "device", "offline", json_type_boolean, true)))
		d->offline = json_object_get_boolean(v);
	if ((v = member(l, o, "device", "diskseq", json_type_int, false)))
		d->diskseq = (uint64_t)json_object_get_int64(v);
	if ((v = member(l, o, "device", "alignment_offset_bytes", json_type_int, false))) {
		off = json_object_get_int64(v);
		d->alignment_offset_bytes = off;
	}
	if ((v = member(l, o, "device", "md", json_type_object, false)) && l->r == 0)
		l->r = sp_md_facts_from_json(v, "the plan", &d->md, l->err);
	d->rotational = -1;
	d->read_only = -1;
}

static void load_partition(struct loader *l, json_object *root, struct sp_plan *p)
{
	json_object *o = member(l, root, "plan", "partition", json_type_object, true);
	char table[16] = "";

	get_str(l, o, "partition", "table", true, table, sizeof(table));
	if (l->r == 0)
		l->r = sp_parse_table(table, &p->table, l->err);
	get_str(l, o, "partition", "path", true, p->partition_path, sizeof(p->partition_path));
	get_u64(l, o, "partition", "start_bytes", INT64_MAX, &p->start_bytes);
	get_u64(l, o, "partition", "size_bytes", INT64_MAX, &p->size_bytes);
	get_u64(l, o, "partition", "align_bytes", INT64_MAX, &p->align_bytes);
	get_u64(l, o, "partition", "reserved_tail_bytes", INT64_MAX, &p->reserved_tail_bytes);
}

static void load_strings(struct loader *l, json_object *arr, const char *section, size_t max,
			 size_t width, char *out, size_t *count)
{
	size_t n;

	if (!arr || l->r < 0)
		return;
	n = json_object_array_length(arr);
	if (n > max) {
		l->r = sp_error_set(l->err, E2BIG, SP_ERR_INVALID,
				    "plan: %s has more than %zu entries", section, max);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(arr, i);

		if (!json_object_is_type(e, json_type_string) ||
		    (size_t)json_object_get_string_len(e) >= width) {
			l->r = sp_error_set(l->err, EINVAL, SP_ERR_INVALID,
					    "plan: %s[%zu] must be a string shorter than %zu", section,
					    i, width);
			return;
		}
		snprintf(out + i * width, width, "%s", json_object_get_string(e));
	}
	*count = n;
}

static void load_filesystem(struct loader *l, json_object *root, struct sp_plan *p)
{
	json_object *o = member(l, root, "plan", "filesystem", json_type_object, true), *sub;
	char type[16] = "";
	uint64_t v = 0;
	json_object *v_obj = NULL;

	get_str(l, o, "filesystem", "type", true, type, sizeof(type));
	get_str(l, o, "filesystem", "label", false, p->label, sizeof(p->label));
	if (l->r == 0)
		l->r = sp_parse_fs(type, &p->fs, l->err);
	get_uint(l, o, "filesystem", "block_bytes", 65536, &p->block_bytes);
	load_strings(l, member(l, o, "filesystem", "mkfs_argv", json_type_array, true),
		     "filesystem.mkfs_argv", SP_MAX_ARGV, sizeof(p->mkfs_argv[0]),
		     &p->mkfs_argv[0][0], &p->n_mkfs_argv);
	if (l->r < 0)
		return;
	if (p->fs == SP_FS_XFS) {
		sub = member(l, o, "filesystem", "xfs", json_type_object, true);
		get_u64(l, sub, "filesystem.xfs", "su_bytes", UINT32_MAX, &p->xfs_su_bytes);
		get_uint(l, sub, "filesystem.xfs", "sw", SP_MAX_DISKS, &p->xfs_sw);
		get_u64(l, sub, "filesystem.xfs", "log_su_bytes", UINT32_MAX, &p->xfs_log_su_bytes);
		if ((v_obj = member(l, sub, "filesystem.xfs", "agsize_bytes", json_type_int, false)))
			p->xfs_agsize_bytes = (uint64_t)json_object_get_int64(v_obj);
	} else {
		sub = member(l, o, "filesystem", "ext", json_type_object, true);
		get_uint(l, sub, "filesystem.ext", "stride_blocks", UINT16_MAX, &p->ext_stride_blocks);
		get_u64(l, sub, "filesystem.ext", "stripe_width_blocks", UINT32_MAX, &v);
		p->ext_stripe_width_blocks = (unsigned)v;
	}
}

static void load_mount(struct loader *l, json_object *root, struct sp_plan *p)
{
	json_object *o = member(l, root, "plan", "mount", json_type_object, true);

	get_str(l, o, "mount", "mountpoint", false, p->mountpoint, sizeof(p->mountpoint));
	load_strings(l, member(l, o, "mount", "options", json_type_array, true), "mount.options",
		     SP_MAX_OPTIONS, SP_NAME_MAX, &p->mount_options[0][0], &p->n_mount_options);
	get_str(l, o, "mount", "fstab", false, p->fstab_line, sizeof(p->fstab_line));
}

static void load_tuning(struct loader *l, json_object *root, struct sp_plan *p)
{
	json_object *a = member(l, root, "plan", "tuning", json_type_array, true);
	size_t n = a ? json_object_array_length(a) : 0;

	if (n > SP_MAX_TUNING) {
		l->r = sp_error_set(l->err, E2BIG, SP_ERR_INVALID,
				    "plan: tuning has more than %u entries", SP_MAX_TUNING);
		return;
	}
	for (size_t i = 0; i < n && l->r == 0; i++) {
		json_object *t = json_object_array_get_idx(a, i);
		struct sp_tuning *out = &p->tuning[i];
		char path[256], kind[16];

		if (!json_object_is_type(t, json_type_object)) {
			l->r = sp_error_set(l->err, EINVAL, SP_ERR_INVALID,
					    "plan: tuning[%zu] must be an object", i);
			return;
		}
		get_str(l, t, "tuning", "path", true, path, sizeof(path));
		get_str(l, t, "tuning", "value", true, out->value, sizeof(out->value));
		get_str(l, t, "tuning", "kind", true, kind, sizeof(kind));
		get_str(l, t, "tuning", "why", false, out->why, sizeof(out->why));
		if (l->r == 0 && sp_tuning_kind_from_name(kind, &out->kind) < 0)
			l->r = sp_error_set(l->err, EINVAL, SP_ERR_INVALID,
					    "plan: tuning[%zu].kind '%s' is not \"sysfs\" or \"module\"",
					    i, kind);
		/* these paths are written to as root: keep them inside sysfs */
		if (l->r == 0 && (strstr(path, "/../") ||
				  sp_tuning_from_path(out->kind, path, out) < 0))
			l->r = sp_error_set(l->err, EINVAL, SP_ERR_INVALID,
					    "plan: tuning[%zu].path '%s' is not a sysfs path", i,
					    path);
		if (l->r == 0)
			p->n_tuning = i + 1;
	}
}

static void load_warnings(struct loader *l, json_object *root, struct sp_plan *p)
{
	json_object *a = member(l, root, "plan", "warnings", json_type_array, false);
	size_t n = a ? json_object_array_length(a) : 0;

	for (size_t i = 0; i < n && i < SP_MAX_WARNINGS && l->r == 0; i++) {
		json_object *w = json_object_array_get_idx(a, i);

		get_str(l, w, "warnings", "code", true, p->warnings[i].code, sizeof(p->warnings[i].code));
		get_str(l, w, "warnings", "message", true, p->warnings[i].message,
			sizeof(p->warnings[i].message));
		if (l->r == 0)
			p->n_warnings = i + 1;
	}
}

/* What the plan left out of its tuning: for the reader, never executed. */
static void load_left_out(struct loader *l, json_object *root, struct sp_plan *p)
{
	json_object *a = member(l, root, "plan", "left_out", json_type_array, false);
	size_t n = a ? json_object_array_length(a) : 0;
	char recipe[32] = "", workload[32] = "";

	for (size_t i = 0; i < n && i < SP_MAX_LEFT_OUT && l->r == 0; i++) {
		json_object *w = json_object_array_get_idx(a, i);
		struct sp_left_out *o = &p->left_out[i];

		get_str(l, w, "left_out", "what", true, o->what, sizeof(o->what));
		get_str(l, w, "left_out", "why", true, o->why, sizeof(o->why));
		get_str(l, w, "left_out", "reason", true, o->reason, sizeof(o->reason));
		if (l->r == 0)
			p->n_left_out = i + 1;
	}
	get_str(l, root, "plan", "tuning_recipe", false, recipe, sizeof(recipe));
	if (l->r == 0 && recipe[0])
		l->r = sp_parse_tuning_recipe(recipe, &p->tuning_recipe, l->err);
	/* absent in plans made before --workload: general, what they planned */
	get_str(l, root, "plan", "workload", false, workload, sizeof(workload));
	if (l->r == 0 && workload[0])
		l->r = sp_parse_workload(workload, &p->workload, l->err);
}

/*
 * A plan file is executed as root: its mkfs command must be the plan's own
 * mkfs on the plan's own partition, and the geometry must be whole sectors.
 */
static int check_consistency(const struct sp_plan *p, struct sp_error *err)
{
	char part[SP_PATH_MAX];
	const char *tool = sp_mkfs_tool(p->fs);
	uint64_t sector = p->device.logical_sector_bytes;
	bool mirror = sp_level_is_mirror(p->level);

	if (sector < 512 || !sp_is_power_of_two(sector) || (p->stripe_width_bytes == 0) != mirror)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "plan: device.logical_sector_bytes must be set, and "
				    "array.stripe_width_bytes too unless the array is a mirror");
	if (p->start_bytes % sector || p->size_bytes % sector || p->size_bytes == 0)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "plan: the partition is not whole %" PRIu64 "-byte sectors", sector);
	if (p->table == SP_TABLE_NONE) {
		if (strcmp(p->partition_path, p->device.path) != 0 || p->start_bytes != 0)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "plan: with table none, partition.path must be the device "
					    "'%s' and start at 0", p->device.path);
	} else if (sp_partition_path(p->device.path, 1, part, sizeof(part)) < 0 ||
		   strcmp(part, p->partition_path) != 0) {
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "plan: partition.path '%s' is not partition 1 of '%s'",
				    p->partition_path, p->device.path);
	}
	if (p->n_mkfs_argv < 2 || strcmp(p->mkfs_argv[0], tool) != 0 ||
	    strcmp(p->mkfs_argv[p->n_mkfs_argv - 1], p->partition_path) != 0)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "plan: filesystem.mkfs_argv must run %s on '%s'", tool,
				    p->partition_path);
	return 0;
}

int sp_plan_from_json(const char *text, struct sp_plan *ret, struct sp_error *err)
{
	struct loader l = { err, 0 };
	struct sp_plan *p = calloc(1, sizeof(*p));
	json_tokener *tok = json_tokener_new();
	json_object *root = NULL, *v;

	if (!p || !tok) {
		l.r = sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
		goto out;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, (int)strlen(text));
	if (!root || json_tokener_get_error(tok) != json_tokener_success ||
	    !json_object_is_type(root, json_type_object)) {
		enum json_tokener_error jerr = json_tokener_get_error(tok);

		/* "continue" is json-c's word for input that stopped early */
		if (jerr == json_tokener_continue)
			l.r = sp_error_set(err, EINVAL, SP_ERR_INVALID,
					   "plan: the JSON ends early (an empty or truncated file?)");
		else
			l.r = sp_error_set(err, EINVAL, SP_ERR_INVALID,
					   "plan: not a stripeplan plan (JSON error: %s)",
					   jerr == json_tokener_success ?
						   "the top level is not an object" :
						   json_tokener_error_desc(jerr));
		goto out;
	}
	if ((v = member(&l, root, "plan", "format", json_type_int, true)) &&
	    json_object_get_int(v) != SP_PLAN_FORMAT_VERSION)
		l.r = sp_error_set(err, EINVAL, SP_ERR_INVALID,
				   "plan: format %d is not the %d this stripeplan reads",
				   json_object_get_int(v), SP_PLAN_FORMAT_VERSION);
	get_str(&l, root, "plan", "kernel", true, p->kernel_release, sizeof(p->kernel_release));
	load_array(&l, root, p);
	load_device(&l, root, &p->device);
	load_partition(&l, root, p);
	load_filesystem(&l, root, p);
	load_mount(&l, root, p);
	load_tuning(&l, root, p);
	load_warnings(&l, root, p);
	if ((v = member(&l, root, "plan", "md_stripe_cache_bytes", json_type_int, false)))
		p->md_stripe_cache_bytes = (uint64_t)json_object_get_int64(v);
	if ((v = member(&l, root, "plan", "memory_budget_bytes", json_type_int, false)))
		p->memory_budget_bytes = (uint64_t)json_object_get_int64(v);
	load_left_out(&l, root, p);
	if (l.r == 0)
		l.r = check_consistency(p, err);
	if (l.r == 0)
		*ret = *p;
out:
	json_object_put(root);
	if (tok)
		json_tokener_free(tok);
	free(p);
	return l.r;
}

int sp_plan_load_file(const char *path, struct sp_plan *ret, struct sp_error *err)
{
	char *text = NULL;
	int r = sp_read_input_at(AT_FDCWD, path, 0, "plan", path, &text, NULL, err);

	if (r < 0)
		return r;
	if (!text[strspn(text, " \t\r\n")])
		r = sp_error_set(err, ENODATA, SP_ERR_INVALID,
				 "plan: '%s' is empty; give the output of 'stripeplan plan "
				 "--format json'",
				 path);
	else
		r = sp_plan_from_json(text, ret, err);
	free(text);
	return r;
}
