/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * md arrays as facts: the personality names md/level uses, and the "md"
 * object of a facts file or a plan's device (both read with the same
 * bounds, because both are input somebody may have edited).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "stripeplan.h"

int sp_md_level(const struct sp_md_facts *md, const char *array, enum sp_level *ret,
		struct sp_error *err)
{
	static const struct {
		const char *name;
		enum sp_level level;
	} known[] = {
		{ "raid0", SP_LEVEL_0 }, { "raid1", SP_LEVEL_1 },   { "raid5", SP_LEVEL_5 },
		{ "raid6", SP_LEVEL_6 }, { "raid10", SP_LEVEL_10 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
		if (!strcmp(md->level, known[i].name)) {
			*ret = known[i].level;
			return 0;
		}
	}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "level: %s is md '%s', which stripeplan does not plan (it plans raid0, "
			    "raid1, raid5, raid6 and raid10)",
			    array, md->level[0] ? md->level : "(none)");
}

/* ------------------------------------------------------------- JSON in */

struct md_reader {
	const char *origin;
	struct sp_error *err;
	int r;
};

static json_object *get(struct md_reader *rd, json_object *obj, const char *key, json_type type)
{
	json_object *v = NULL;

	if (rd->r < 0 || !json_object_object_get_ex(obj, key, &v) ||
	    json_object_is_type(v, json_type_null))
		return NULL;
	if (!json_object_is_type(v, type)) {
		rd->r = sp_error_set(rd->err, EINVAL, SP_ERR_INVALID,
				     "'md.%s' in '%s' must be %s", key, rd->origin,
				     type == json_type_int ? "a number" :
				     type == json_type_boolean ? "true or false" :
				     type == json_type_array ? "a list" : "a string");
		return NULL;
	}
	return v;
}

static void get_text(struct md_reader *rd, json_object *obj, const char *key, char *out,
		     size_t len)
{
	json_object *v = get(rd, obj, key, json_type_string);
	const char *s;

	if (!v)
		return;
	s = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) >= len || strlen(s) != (size_t)json_object_get_string_len(v)) {
		rd->r = sp_error_set(rd->err, ENAMETOOLONG, SP_ERR_INVALID,
				     "'md.%s' in '%s' is longer than %zu characters or holds NUL",
				     key, rd->origin, len - 1);
		return;
	}
	/* names become sysfs paths and udev matches: printable, no quotes or slashes */
	for (const char *c = s; *c; c++) {
		if ((unsigned char)*c < 0x21 || *c == 0x7f || *c == '"' || *c == '\\' || *c == '/') {
			rd->r = sp_error_set(rd->err, EINVAL, SP_ERR_INVALID,
					     "'md.%s' in '%s' holds a character that is not allowed",
					     key, rd->origin);
			return;
		}
	}
	memcpy(out, s, strlen(s) + 1);
}

static void get_number(struct md_reader *rd, json_object *obj, const char *key, uint64_t max,
		       uint64_t *out)
{
	json_object *v = get(rd, obj, key, json_type_int);
	int64_t n;

	if (!v)
		return;
	n = json_object_get_int64(v);
	if (n < 0 || (uint64_t)n > max) {
		rd->r = sp_error_set(rd->err, ERANGE, SP_ERR_INVALID,
				     "'md.%s' in '%s' must be between 0 and %" PRIu64, key,
				     rd->origin, max);
		return;
	}
	*out = (uint64_t)n;
}

static void get_member(struct md_reader *rd, json_object *e, struct sp_md_member *m)
{
	json_object *v;

	if (!json_object_is_type(e, json_type_object)) {
		rd->r = sp_error_set(rd->err, EINVAL, SP_ERR_INVALID,
				     "'md.members' in '%s' must list objects", rd->origin);
		return;
	}
	get_text(rd, e, "name", m->name, sizeof(m->name));
	get_text(rd, e, "disk", m->disk, sizeof(m->disk));
	get_text(rd, e, "wwn", m->wwn, sizeof(m->wwn));
	get_text(rd, e, "serial", m->serial, sizeof(m->serial));
	if ((v = get(rd, e, "has_queue_depth", json_type_boolean)))
		m->has_queue_depth = json_object_get_boolean(v);
	if (rd->r == 0 && !m->name[0])
		rd->r = sp_error_set(rd->err, EINVAL, SP_ERR_INVALID,
				     "'md.members' in '%s': every member needs a name", rd->origin);
	if (rd->r == 0 && !m->disk[0])
		memcpy(m->disk, m->name, sizeof(m->disk));
}

/* An unknown key is a typo that would silently drop a fact. */
static int check_keys(json_object *obj, const char *const *keys, const char *where,
		      const char *origin, struct sp_error *err)
{
	json_object_object_foreach(obj, key, val) {
		bool ok = false;

		(void)val;
		for (size_t i = 0; keys[i]; i++)
			ok = ok || !strcmp(key, keys[i]);
		if (!ok)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "unknown field '%s%s' in '%s'", where, key, origin);
	}
	return 0;
}

static void get_members(struct md_reader *rd, json_object *list, struct sp_md_facts *md)
{
	static const char *const member_keys[] = { "name", "disk", "wwn", "serial",
						   "has_queue_depth", NULL };

	if (json_object_array_length(list) > SP_MAX_MEMBERS) {
		rd->r = sp_error_set(rd->err, E2BIG, SP_ERR_INVALID,
				     "'md.members' in '%s' lists more than %u members", rd->origin,
				     SP_MAX_MEMBERS);
		return;
	}
	for (size_t i = 0; rd->r == 0 && i < json_object_array_length(list); i++) {
		json_object *e = json_object_array_get_idx(list, i);

		if (json_object_is_type(e, json_type_object))
			rd->r = check_keys(e, member_keys, "md.members[].", rd->origin, rd->err);
		if (rd->r == 0)
			get_member(rd, e, &md->members[i]);
		if (rd->r == 0)
			md->n_members = i + 1;
	}
}

int sp_md_facts_from_json(struct json_object *obj, const char *origin, struct sp_md_facts *ret,
			  struct sp_error *err)
{
	static const char *const keys[] = { "level", "raid_disks", "chunk_bytes", "layout",
					    "sync_action", "degraded", "uuid", "members", NULL };
	struct md_reader rd = { origin, err, 0 };
	struct sp_md_facts md = { .present = true };
	uint64_t n = 0;
	json_object *list;

	if (!json_object_is_type(obj, json_type_object))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "'md' in '%s' must be an object", origin);
	rd.r = check_keys(obj, keys, "md.", origin, err);
	get_text(&rd, obj, "level", md.level, sizeof(md.level));
	get_number(&rd, obj, "raid_disks", SP_MAX_DISKS, &n);
	md.raid_disks = (unsigned)n;
	get_number(&rd, obj, "chunk_bytes", SP_GIB, &md.chunk_bytes);
	get_number(&rd, obj, "layout", UINT32_MAX, &md.layout);
	get_text(&rd, obj, "sync_action", md.sync_action, sizeof(md.sync_action));
	n = 0;
	get_number(&rd, obj, "degraded", SP_MAX_DISKS, &n);
	md.degraded = (unsigned)n;
	get_text(&rd, obj, "uuid", md.uuid, sizeof(md.uuid));
	if ((list = get(&rd, obj, "members", json_type_array)))
		get_members(&rd, list, &md);
	if (rd.r == 0 && !md.level[0])
		rd.r = sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "missing field 'md.level' in '%s'", origin);
	if (rd.r < 0)
		return rd.r;
	*ret = md;
	return 0;
}

/* ------------------------------------------------------------ JSON out */

static json_object *text_or_null(const char *s)
{
	return s[0] ? json_object_new_string(s) : NULL;
}

struct json_object *sp_md_facts_to_json(const struct sp_md_facts *md)
{
	json_object *o, *members;

	if (!md->present)
		return NULL;
	o = json_object_new_object();
	members = json_object_new_array();
	json_object_object_add(o, "level", json_object_new_string(md->level));
	json_object_object_add(o, "raid_disks", json_object_new_int((int)md->raid_disks));
	json_object_object_add(o, "chunk_bytes", json_object_new_int64((int64_t)md->chunk_bytes));
	json_object_object_add(o, "layout", json_object_new_int64((int64_t)md->layout));
	json_object_object_add(o, "sync_action", text_or_null(md->sync_action));
	json_object_object_add(o, "degraded", json_object_new_int((int)md->degraded));
	json_object_object_add(o, "uuid", text_or_null(md->uuid));
	for (size_t i = 0; i < md->n_members; i++) {
		const struct sp_md_member *m = &md->members[i];
		json_object *e = json_object_new_object();

		json_object_object_add(e, "name", json_object_new_string(m->name));
		json_object_object_add(e, "disk", json_object_new_string(m->disk));
		json_object_object_add(e, "wwn", text_or_null(m->wwn));
		json_object_object_add(e, "serial", text_or_null(m->serial));
		json_object_object_add(e, "has_queue_depth", json_object_new_boolean(m->has_queue_depth));
		json_object_array_add(members, e);
	}
	json_object_object_add(o, "members", members);
	return o;
}
