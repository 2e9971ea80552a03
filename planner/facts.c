/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device facts from a JSON file instead of a device (plan --facts, tests):
 * the same field names as the plan's "device" object, every one checked.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "stripeplan.h"
#include "textfile.h"

#define fail sp_error_set

enum field_kind {
	KIND_STRING,   /* char[size] */
	KIND_U64,      /* uint64_t, >= 0 */
	KIND_SECTOR,   /* unsigned, power of two 512..65536 */
	KIND_IO,       /* uint64_t, fits the kernel's unsigned int */
	KIND_OFFSET,   /* int64_t, -1 (misaligned) or >= 0 */
	KIND_TRISTATE, /* int: -1 unknown, 0, 1; or a boolean */
	KIND_BOOL,
	KIND_DEVNO,    /* unsigned */
	KIND_SCHEDULERS, /* list of names, as queue/scheduler offers them */
	KIND_MD,       /* struct sp_md_facts, from an object */
};

struct facts_field {
	const char *name;
	enum field_kind kind;
	size_t offset, size;
	bool required;
};

#define FIELD(n, k, req) { #n, k, offsetof(struct sp_facts, n), sizeof(((struct sp_facts *)0)->n), req }

static const struct facts_field facts_fields[] = {
	FIELD(path, KIND_STRING, true),
	FIELD(kernel_name, KIND_STRING, false),
	FIELD(offline, KIND_BOOL, false),
	FIELD(size_bytes, KIND_U64, true),
	FIELD(logical_sector_bytes, KIND_SECTOR, true),
	FIELD(physical_sector_bytes, KIND_SECTOR, true),
	FIELD(min_io_bytes, KIND_IO, false),
	FIELD(optimal_io_bytes, KIND_IO, false),
	FIELD(alignment_offset_bytes, KIND_OFFSET, false),
	FIELD(rotational, KIND_TRISTATE, false),
	FIELD(read_only, KIND_TRISTATE, false),
	FIELD(major, KIND_DEVNO, false),
	FIELD(minor, KIND_DEVNO, false),
	FIELD(diskseq, KIND_U64, false),
	FIELD(wwn, KIND_STRING, false),
	FIELD(serial, KIND_STRING, false),
	FIELD(driver, KIND_STRING, false),
	FIELD(is_scsi, KIND_BOOL, false),
	FIELD(is_partition, KIND_BOOL, false),
	FIELD(schedulers, KIND_SCHEDULERS, false),
	FIELD(md, KIND_MD, false),
};

static const struct facts_field *facts_field_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(facts_fields); i++)
		if (!strcmp(facts_fields[i].name, name))
			return &facts_fields[i];
	return NULL;
}


static int parse_json(const char *file, const char *text, struct json_object **ret,
		      struct sp_error *err)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *obj;
	enum json_tokener_error jerr;
	size_t end;

	if (!tok)
		return fail(err, ENOMEM, SP_ERR_FAILED, "cannot parse '%s': out of memory", file);
	obj = json_tokener_parse_ex(tok, text, (int)strlen(text));
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	while (obj && jerr == json_tokener_success && isspace((unsigned char)text[end]))
		end++;
	if (obj && jerr == json_tokener_success && text[end]) {
		json_object_put(obj);
		return fail(err, EINVAL, SP_ERR_INVALID,
			    "cannot parse '%s': unexpected text after the object", file);
	}
	if (!obj || jerr != json_tokener_success) {
		json_object_put(obj);
		return fail(err, EINVAL, SP_ERR_INVALID, "cannot parse '%s': %s", file,
			    json_tokener_error_desc(jerr == json_tokener_success ||
								    jerr == json_tokener_continue ?
							    json_tokener_error_parse_eof : jerr));
	}
	if (!json_object_is_type(obj, json_type_object)) {
		json_object_put(obj);
		return fail(err, EINVAL, SP_ERR_INVALID, "'%s' must hold a JSON object", file);
	}
	*ret = obj;
	return 0;
}

static int field_int(const char *file, const char *name, struct json_object *v, int64_t min,
		     int64_t max, int64_t *ret, struct sp_error *err)
{
	int64_t x;

	if (!json_object_is_type(v, json_type_int))
		return fail(err, EINVAL, SP_ERR_INVALID,
			    "'%s' in '%s' must be an integer", name, file);
	x = json_object_get_int64(v);
	if (x < min || x > max)
		return fail(err, ERANGE, SP_ERR_INVALID,
			    "'%s' in '%s' must be between %" PRId64 " and %" PRId64, name, file,
			    min, max);
	*ret = x;
	return 0;
}

static int set_string_field(const char *file, const struct facts_field *fd,
			    struct json_object *v, void *dst, struct sp_error *err)
{
	const char *s;

	if (!json_object_is_type(v, json_type_string))
		return fail(err, EINVAL, SP_ERR_INVALID,
			    "'%s' in '%s' must be a string", fd->name, file);
	s = json_object_get_string(v);
	if (strlen(s) != (size_t)json_object_get_string_len(v))
		return fail(err, EINVAL, SP_ERR_INVALID,
			    "'%s' in '%s' must not contain NUL characters", fd->name, file);
	if (strlen(s) >= fd->size)
		return fail(err, ENAMETOOLONG, SP_ERR_INVALID,
			    "'%s' in '%s' is longer than %zu characters", fd->name, file,
			    fd->size - 1);
	memcpy(dst, s, strlen(s) + 1);
	return 0;
}

/* "schedulers": ["mq-deadline", "none"]: at most 8 names of [a-z0-9-] */
static int set_schedulers(const char *file, struct json_object *v, struct sp_facts *f,
			  struct sp_error *err)
{
	size_t n, max = ARRAY_SIZE(f->schedulers);

	if (!json_object_is_type(v, json_type_array) || (n = json_object_array_length(v)) > max)
		return fail(err, EINVAL, SP_ERR_INVALID,
			    "'schedulers' in '%s' must be a list of at most %zu names", file, max);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		const char *name = json_object_is_type(e, json_type_string) ? json_object_get_string(e) : "";
		size_t len = strlen(name);

		if (!len || len >= sizeof(f->schedulers[0]) || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") != len)
			return fail(err, EINVAL, SP_ERR_INVALID,
				    "'schedulers' in '%s' must list scheduler names", file);
		memcpy(f->schedulers[i], name, len + 1);
	}
	f->n_schedulers = n;
	return 0;
}

static int set_field(const char *file, const struct facts_field *fd, struct json_object *v,
		     struct sp_facts *f, struct sp_error *err)
{
	void *dst = (char *)f + fd->offset;
	int64_t x = 0;
	int r = 0;

	switch (fd->kind) {
	case KIND_SCHEDULERS:
		return set_schedulers(file, v, f, err);
	case KIND_STRING:
		return set_string_field(file, fd, v, dst, err);
	case KIND_MD:
		return sp_md_facts_from_json(v, file, dst, err);
	case KIND_BOOL:
		if (!json_object_is_type(v, json_type_boolean))
			return fail(err, EINVAL, SP_ERR_INVALID,
				    "'%s' in '%s' must be true or false", fd->name, file);
		*(bool *)dst = json_object_get_boolean(v);
		return 0;
	case KIND_TRISTATE:
		if (json_object_is_type(v, json_type_boolean)) {
			*(int *)dst = json_object_get_boolean(v);
			return 0;
		}
		r = field_int(file, fd->name, v, -1, 1, &x, err);
		if (r == 0)
			*(int *)dst = (int)x;
		return r;
	case KIND_SECTOR:
	case KIND_DEVNO:
		r = field_int(file, fd->name, v, 0, UINT32_MAX, &x, err);
		if (r == 0)
			*(unsigned *)dst = (unsigned)x;
		return r;
	case KIND_IO:
		r = field_int(file, fd->name, v, 0, UINT32_MAX, &x, err);
		break;
	case KIND_U64:
		/* json-c saturates larger numbers at INT64_MAX: refuse them. */
		r = field_int(file, fd->name, v, 0, INT64_MAX - 1, &x, err);
		break;
	case KIND_OFFSET:
		r = field_int(file, fd->name, v, -1, UINT32_MAX, &x, err);
		if (r == 0)
			*(int64_t *)dst = x;
		return r;
	}
	if (r == 0)
		*(uint64_t *)dst = (uint64_t)x;
	return r;
}

static int check_sector(const char *file, const char *name, unsigned v, struct sp_error *err)
{
	if (v < 512 || v > 65536 || !sp_is_power_of_two(v))
		return fail(err, EINVAL, SP_ERR_INVALID,
			    "'%s' in '%s' must be a power of two from 512 to 65536, not %u", name,
			    file, v);
	return 0;
}

/* What a real device always satisfies; a fact file must too. */
static int check_facts(const char *file, const struct sp_facts *f, struct sp_error *err)
{
	int r;

	if (f->path[0] != '/')
		return fail(err, EINVAL, SP_ERR_INVALID,
			    "'path' in '%s' must be an absolute device path", file);
	r = check_sector(file, "logical_sector_bytes", f->logical_sector_bytes, err);
	if (r == 0)
		r = check_sector(file, "physical_sector_bytes", f->physical_sector_bytes, err);
	if (r < 0)
		return r;
	if (f->physical_sector_bytes < f->logical_sector_bytes)
		return fail(err, EINVAL, SP_ERR_INVALID,
			    "'physical_sector_bytes' in '%s' (%u) is smaller than "
			    "'logical_sector_bytes' (%u)",
			    file, f->physical_sector_bytes, f->logical_sector_bytes);
	if (!f->size_bytes || f->size_bytes % f->logical_sector_bytes)
		return fail(err, EINVAL, SP_ERR_INVALID,
			    "'size_bytes' in '%s' must be a positive multiple of %u, not %" PRIu64,
			    file, f->logical_sector_bytes, f->size_bytes);
	if (f->kernel_name[0] == '\0' || strchr(f->kernel_name, '/'))
		return fail(err, EINVAL, SP_ERR_INVALID,
			    "'kernel_name' in '%s' must be a name such as 'sdb', not a path",
			    file);
	return 0;
}

static int facts_from_object(const char *file, struct json_object *obj, struct sp_facts *f,
			     struct sp_error *err)
{
	const struct facts_field *fd;
	struct json_object *v;
	size_t i;
	int r;

	json_object_object_foreach(obj, key, val) {
		(void)val;
		if (!facts_field_find(key))
			return fail(err, EINVAL, SP_ERR_INVALID,
				    "unknown field '%s' in '%s'", key, file);
	}
	for (i = 0; i < ARRAY_SIZE(facts_fields); i++) {
		fd = &facts_fields[i];
		/* null is "not known", as the plan's device object writes it */
		if (!json_object_object_get_ex(obj, fd->name, &v) || !v) {
			if (fd->required)
				return fail(err, EINVAL, SP_ERR_INVALID,
					    "missing field '%s' in '%s'", fd->name, file);
			continue;
		}
		r = set_field(file, fd, v, f, err);
		if (r < 0)
			return r;
	}
	if (!f->kernel_name[0] && f->path[0] &&
	    sp_kernel_name_from_path(f->path, f->kernel_name, sizeof(f->kernel_name), NULL) < 0)
		return fail(err, EINVAL, SP_ERR_INVALID,
			    "cannot derive 'kernel_name' from 'path' '%s' in '%s'", f->path, file);
	return 0;
}

int sp_facts_load_json(const char *file, struct sp_facts *ret, struct sp_error *err)
{
	struct sp_facts f = { .rotational = -1, .read_only = -1 };
	struct json_object *obj = NULL;
	char *text = NULL;
	int r;

	if (!file || !file[0])
		return fail(err, EINVAL, SP_ERR_INVALID, "no facts file given");
	r = sp_read_input_at(AT_FDCWD, file, 0, NULL, file, &text, NULL, err);
	if (r == 0)
		r = parse_json(file, text, &obj, err);
	if (r == 0)
		r = facts_from_object(file, obj, &f, err);
	if (r == 0)
		r = check_facts(file, &f, err);
	json_object_put(obj);
	free(text);
	if (r < 0)
		return r;
	*ret = f;
	return 0;
}
