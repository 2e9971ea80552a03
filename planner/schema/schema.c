/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one reader, writer and comparer of the JSON objects described in
 * field tables (schema.h).  Pure: text and structs in, structs and JSON out.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/error.h"
#include "base/units.h"
#include "json-utf8.h"
#include "schema.h"

/* ------------------------------------------------------------- where */

static size_t where_put(const struct sp_where *w, char *buf, size_t len)
{
	size_t used;

	if (!w)
		return 0;
	used = where_put(w->up, buf, len);
	if (used >= len)
		return used;
	if (!w->name)
		used += (size_t)snprintf(buf + used, len - used, "[%zu]", w->index);
	else if (w->name[0])
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "." : "", w->name);
	return used;
}

const char *sp_where_path(const struct sp_where *w, const char *leaf, char *buf, size_t len)
{
	size_t used;

	buf[0] = '\0';
	used = where_put(w, buf, len);
	if (leaf && used < len)
		snprintf(buf + used, len - used, "%s%s", used ? "." : "", leaf);
	return buf;
}

static const struct sp_where *where_root(const struct sp_where *w)
{
	while (w && w->up)
		w = w->up;
	return w;
}

static unsigned where_view(const struct sp_where *w)
{
	const struct sp_where *root = where_root(w);

	return root && root->view ? root->view : SP_VIEW_ALL;
}

int sp_where_error(struct sp_error *err, const struct sp_where *w, const char *leaf, int code,
		   const char *fmt, ...)
{
	const struct sp_where *root = where_root(w);
	const char *prefix = root ? root->prefix : NULL;
	char path[SP_MSG_MAX / 2], what[SP_MSG_MAX];
	va_list ap;

	sp_where_path(w, leaf, path, sizeof(path));
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return sp_error_set(err, code, SP_ERR_INVALID, "%s%s%s%s", prefix ? prefix : "",
			    prefix ? ": " : "", path, what);
}

int sp_where_error_from(struct sp_error *err, const struct sp_where *w, const struct sp_error *why)
{
	const char *m = why->message;
	size_t n = w && w->name ? strlen(w->name) : 0;

	/* "kernel: ..." from a parser that names its flag: the path says it */
	if (n && !strncmp(m, w->name, n) && !strncmp(m + n, ": ", 2))
		m += n + 2;
	return sp_where_error(err, w, NULL, why->code < 0 ? -why->code : EINVAL, ": %s", m);
}

/* ------------------------------------------------------------- rows */

static bool visible(const struct sp_field *f, unsigned view)
{
	return !f->views || (f->views & view);
}

static bool required(const struct sp_field *f, unsigned view)
{
	return (f->flags & SP_FF_REQUIRED) || (f->required_views & view);
}

static const struct sp_field *row_find(const struct sp_schema *sch, const char *name,
				       unsigned view)
{
	for (size_t i = 0; i < sch->n_fields; i++)
		if (!strcmp(sch->fields[i].name, name) && visible(&sch->fields[i], view))
			return &sch->fields[i];
	return NULL;
}

static void *at(void *base, size_t offset)
{
	return (char *)base + offset;
}

static const void *cat(const void *base, size_t offset)
{
	return (const char *)base + offset;
}

/* A list's elements: the array in the struct, or where a grown list's
 * pointer points. */
static void *list_items(const struct sp_field *f, void *base)
{
	return f->grown ? *(void **)at(base, f->offset) : at(base, f->offset);
}

static const void *list_citems(const struct sp_field *f, const void *base)
{
	return f->grown ? *(void *const *)cat(base, f->offset) : cat(base, f->offset);
}

/* ------------------------------------------------------------- parse */

int sp_json_parse_object(const char *text, const char *prefix, const char *noun,
			 struct json_object **ret, struct sp_error *err)
{
	json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;
	json_object *obj;
	const char *why = NULL;
	size_t end;
	int r;

	if (!tok)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "%s: out of memory", prefix);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	obj = json_tokener_parse_ex(tok, text, (int)strlen(text));
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	/* "continue" is json-c's word for input that stopped early */
	if (jerr == json_tokener_continue) {
		json_object_put(obj);
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s: the JSON ends early (an empty or truncated file?)", prefix);
	}
	if (jerr != json_tokener_success)
		why = json_tokener_error_desc(jerr);
	else if (!json_object_is_type(obj, json_type_object))
		why = "the top level is not an object";
	while (!why && isspace((unsigned char)text[end]))
		end++;
	if (!why && text[end])
		why = "unexpected text after the object";
	if (why) {
		json_object_put(obj);
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s: not a stripeplan %s (JSON error: %s)", prefix, noun, why);
	}
	/* Keys and strings must be UTF-8 as strict parsers want them, and as
	 * the writer makes them (json-utf8.h): a plan then reads back as it
	 * was written, and json-c's own check would let overlong forms by. */
	r = sp_json_require_utf8(obj, prefix, err);
	if (r < 0) {
		json_object_put(obj);
		return r;
	}
	*ret = obj;
	return 0;
}

/* -------------------------------------------------------------- read */

static int read_object(const struct sp_schema *sch, json_object *json, void *obj,
		       const struct sp_where *w, struct sp_error *err);

unsigned char sp_name_bad_char(const char *s)
{
	/* names become sysfs paths and udev matches: printable, no quotes or slashes */
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if (*c < 0x21 || *c == 0x7f || *c == '"' || *c == '\\' || *c == '/')
			return *c;
	return 0;
}

static int read_string(const struct sp_field *f, json_object *v, char *dst, size_t size,
		       const struct sp_where *w, struct sp_error *err)
{
	unsigned char c;
	const char *s;
	size_t len;

	if (!json_object_is_type(v, json_type_string))
		return sp_where_error(err, w, NULL, EINVAL, " must be a string");
	s = json_object_get_string(v);
	len = (size_t)json_object_get_string_len(v);
	if (strlen(s) != len)
		return sp_where_error(err, w, NULL, EINVAL, " holds a NUL character");
	if (len >= size)
		return sp_where_error(err, w, NULL, ENAMETOOLONG, " is longer than %zu characters",
				      size - 1);
	if ((f->flags & SP_FF_NONEMPTY) && !len)
		return sp_where_error(err, w, NULL, EINVAL, " is empty");
	if (f->charset && strspn(s, f->charset) != len)
		return sp_where_error(err, w, NULL, EINVAL, " must be %s", f->charset_says);
	if ((f->flags & SP_FF_NAME) && (c = sp_name_bad_char(s)))
		return sp_where_error(err, w, NULL, EINVAL,
				      " holds a character that is not allowed (0x%02x)", c);
	memcpy(dst, s, len + 1);
	return 0;
}

static int read_number(const struct sp_field *f, json_object *v, const struct sp_where *w,
		       int64_t *ret, struct sp_error *err)
{
	int64_t x;

	if (!json_object_is_type(v, json_type_int))
		return sp_where_error(err, w, NULL, EINVAL, " must be an integer");
	x = json_object_get_int64(v);
	/* json-c saturates what int64_t cannot hold at INT64_MAX */
	if (x == INT64_MAX)
		return sp_where_error(err, w, NULL, ERANGE, " is too large (at most %" PRIu64 ")",
				      f->max);
	if (x >= 0 && (uint64_t)x > f->max)
		return sp_where_error(err, w, NULL, ERANGE, ": %" PRId64 " is above %" PRIu64, x,
				      f->max);
	if (x < f->min)
		return sp_where_error(err, w, NULL, ERANGE, ": %" PRId64 " is below %" PRId64, x,
				      f->min);
	if ((f->flags & SP_FF_POW2) && !sp_is_power_of_two((uint64_t)x))
		return sp_where_error(err, w, NULL, EINVAL, ": %" PRId64 " is not a power of two",
				      x);
	*ret = x;
	return 0;
}

static int read_enum(const struct sp_field *f, json_object *v, int *dst,
		     const struct sp_where *w, struct sp_error *err)
{
	const char *s;
	int i;

	if (!json_object_is_type(v, json_type_string))
		return sp_where_error(err, w, NULL, EINVAL, " must be a string");
	s = json_object_get_string(v);
	i = sp_names_lookup(f->names, s);
	if (i < 0)
		return sp_where_error(err, w, NULL, EINVAL, ": '%s' is not one of %s", s,
				      SP_NAMES_JOINED(f->names));
	*dst = i;
	return 0;
}

static int read_list(const struct sp_field *f, json_object *v, void *base,
		     const struct sp_where *w, struct sp_error *err)
{
	size_t n;
	int r;

	if (!json_object_is_type(v, json_type_array))
		return sp_where_error(err, w, NULL, EINVAL, " must be a list");
	n = json_object_array_length(v);
	if (n > f->max_items)
		return sp_where_error(err, w, NULL, E2BIG, " has more than %zu entries",
				      f->max_items);
	if (f->grown) {
		void **items = at(base, f->offset);

		free(*items);
		*items = NULL;
		*(size_t *)at(base, f->count_offset) = 0;
		if (n && !(*items = calloc(sp_array_room_for(n), f->stride)))
			return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
		/* the elements read so far are released with the object on failure */
	}
	for (size_t i = 0; i < n; i++) {
		struct sp_where we = { .up = w, .name = NULL, .index = i };
		json_object *e = json_object_array_get_idx(v, i);
		void *dst = (char *)list_items(f, base) + i * f->stride;

		if (!e)
			return sp_where_error(err, &we, NULL, EINVAL, " is null");
		if (f->elem->type == SP_FIELD_STRING)
			r = read_string(f->elem, e, dst, f->elem->size, &we, err);
		else
			r = read_object(f->elem->object, e, dst, &we, err);
		if (r < 0)
			return r;
		if (f->grown)
			*(size_t *)at(base, f->count_offset) = i + 1;
	}
	*(size_t *)at(base, f->count_offset) = n;
	return 0;
}

static int read_field(const struct sp_field *f, json_object *v, json_object *parent, void *base,
		      const struct sp_where *w, struct sp_error *err)
{
	void *dst = at(base, f->offset);
	int64_t x = 0;
	int r;

	switch (f->type) {
	case SP_FIELD_STRING:
		return read_string(f, v, dst, f->size, w, err);
	case SP_FIELD_BOOL:
		if (!json_object_is_type(v, json_type_boolean))
			return sp_where_error(err, w, NULL, EINVAL, " must be true or false");
		*(bool *)dst = json_object_get_boolean(v);
		return 0;
	case SP_FIELD_TRISTATE:
		if (json_object_is_type(v, json_type_boolean)) {
			*(int *)dst = json_object_get_boolean(v);
			return 0;
		}
		r = read_number(f, v, w, &x, err);
		if (r == 0)
			*(int *)dst = (int)x;
		return r;
	case SP_FIELD_UINT:
		r = read_number(f, v, w, &x, err);
		if (r == 0)
			*(unsigned *)dst = (unsigned)x;
		return r;
	case SP_FIELD_U64:
		r = read_number(f, v, w, &x, err);
		if (r == 0)
			*(uint64_t *)dst = (uint64_t)x;
		return r;
	case SP_FIELD_I64:
		r = read_number(f, v, w, &x, err);
		if (r == 0)
			*(int64_t *)dst = x;
		return r;
	case SP_FIELD_ENUM:
		return read_enum(f, v, dst, w, err);
	case SP_FIELD_OBJECT:
		return read_object(f->object, v, dst, w, err);
	case SP_FIELD_LIST:
		return read_list(f, v, base, w, err);
	case SP_FIELD_CUSTOM:
		return f->custom->read(f, v, parent, base, w, err);
	}
	return sp_where_error(err, w, NULL, EINVAL, " has a type stripeplan does not read");
}

static int read_object(const struct sp_schema *sch, json_object *json, void *obj,
		       const struct sp_where *w, struct sp_error *err)
{
	unsigned view = where_view(w);
	int r;

	if (!json_object_is_type(json, json_type_object))
		return sp_where_error(err, w, NULL, EINVAL, " must be an object");
	/* an unknown key is a typo that would silently drop a value */
	json_object_object_foreach(json, key, val) {
		(void)val;
		if (!row_find(sch, key, view))
			return sp_where_error(err, w, key, EINVAL, ": unknown field (a typo?)");
	}
	if (sch->init)
		sch->init(obj);
	for (size_t i = 0; i < sch->n_fields; i++) {
		const struct sp_field *f = &sch->fields[i];
		struct sp_where wf = { .up = w, .name = f->name };
		json_object *v = NULL;
		bool there;

		if (!visible(f, view))
			continue;
		/* null is "not known", as the writer writes an empty optional field */
		there = json_object_object_get_ex(json, f->name, &v) && v;
		if (f->present && !f->present(obj)) {
			if (there)
				return sp_where_error(err, &wf, NULL, EINVAL,
						      " does not go with the other fields");
			continue;
		}
		if (!there) {
			if (required(f, view))
				return sp_where_error(err, &wf, NULL, EINVAL, " is missing");
			continue;
		}
		r = read_field(f, v, json, obj, &wf, err);
		if (r < 0)
			return r;
	}
	return sch->check ? sch->check(obj, w, err) : 0;
}

bool sp_u64_zero(const void *member)
{
	return *(const uint64_t *)member == 0;
}

bool sp_uint_zero(const void *member)
{
	return *(const unsigned *)member == 0;
}

int sp_schema_read(const struct sp_schema *sch, json_object *json, void *obj,
		   const struct sp_where *w, struct sp_error *err)
{
	return read_object(sch, json, obj, w, err);
}

/* ------------------------------------------------------------- write */

static json_object *write_object(const struct sp_schema *sch, const void *obj, unsigned view);

/* A row flagged SP_FF_OMIT_EMPTY whose value in obj is empty: a list
 * without an element, another field when its empty() says so. */
static bool omitted_when_empty(const struct sp_field *f, const void *obj)
{
	if (!(f->flags & SP_FF_OMIT_EMPTY))
		return false;
	if (f->type == SP_FIELD_LIST)
		return *(const size_t *)cat(obj, f->count_offset) == 0;
	return f->empty && f->empty(cat(obj, f->offset));
}

static json_object *write_list(const struct sp_field *f, const void *base, unsigned view)
{
	json_object *a = json_object_new_array();
	size_t n = *(const size_t *)cat(base, f->count_offset);

	for (size_t i = 0; a && i < n && (f->grown || i < f->max_items); i++) {
		const void *src = (const char *)list_citems(f, base) + i * f->stride;

		json_object_array_add(a, f->elem->type == SP_FIELD_STRING ?
						 json_object_new_string(src) :
						 write_object(f->elem->object, src, view));
	}
	return a;
}

static json_object *write_field(const struct sp_field *f, const void *base, unsigned view)
{
	const void *src = cat(base, f->offset);
	bool null_empty = f->flags & SP_FF_NULL_EMPTY;
	const char *name;
	uint64_t u;

	switch (f->type) {
	case SP_FIELD_STRING:
		return null_empty && !*(const char *)src ? NULL : json_object_new_string(src);
	case SP_FIELD_BOOL:
		return json_object_new_boolean(*(const bool *)src);
	case SP_FIELD_TRISTATE:
		return json_object_new_int(*(const int *)src);
	case SP_FIELD_UINT:
	case SP_FIELD_U64:
		u = f->type == SP_FIELD_UINT ? *(const unsigned *)src : *(const uint64_t *)src;
		/* bounded below 2^63 by every table */
		return null_empty && !u ? NULL : json_object_new_int64((int64_t)u);
	case SP_FIELD_I64:
		return json_object_new_int64(*(const int64_t *)src);
	case SP_FIELD_ENUM:
		name = sp_names_get(f->names, *(const int *)src);
		return json_object_new_string(name ? name : "");
	case SP_FIELD_OBJECT:
		return write_object(f->object, src, view);
	case SP_FIELD_LIST:
		return write_list(f, base, view);
	case SP_FIELD_CUSTOM:
		return f->custom->write(f, base);
	}
	return NULL;
}

static json_object *write_object(const struct sp_schema *sch, const void *obj, unsigned view)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; o && i < sch->n_fields; i++) {
		const struct sp_field *f = &sch->fields[i];

		if (!visible(f, view))
			continue;
		if (f->present && !f->present(obj)) {
			if (f->null_when_absent)
				json_object_object_add(o, f->name, NULL);
			continue;
		}
		if (omitted_when_empty(f, obj))
			continue;
		json_object_object_add(o, f->name,
				       f->empty && f->empty(cat(obj, f->offset)) ?
					       NULL :
					       write_field(f, obj, view));
	}
	return o;
}

json_object *sp_schema_write(const struct sp_schema *sch, const void *obj, unsigned view)
{
	return write_object(sch, obj, view ? view : SP_VIEW_ALL);
}

/* ----------------------------------------------------------- compare */

#define FROM_FILE " from the file's own fields"

static int differ_text(const struct sp_where *w, const char *have, const char *want,
		       struct sp_error *err)
{
	return sp_where_error(err, w, NULL, EINVAL, " is '%s', but stripeplan plans '%s'" FROM_FILE,
			      have, want);
}

static int differ_number(const struct sp_where *w, uint64_t have, uint64_t want,
			 struct sp_error *err)
{
	return sp_where_error(err, w, NULL, EINVAL,
			      " is %" PRIu64 ", but stripeplan plans %" PRIu64 FROM_FILE, have, want);
}

static int compare_leaf(const struct sp_field *f, const void *have, const void *want,
			const struct sp_where *w, struct sp_error *err)
{
	const void *a = cat(have, f->offset), *b = cat(want, f->offset);
	char ta[SP_PATH_MAX], tb[SP_PATH_MAX];

	switch (f->type) {
	case SP_FIELD_STRING:
		return strcmp(a, b) ? differ_text(w, a, b, err) : 0;
	case SP_FIELD_BOOL:
		return *(const bool *)a == *(const bool *)b ?
			       0 :
			       differ_text(w, *(const bool *)a ? "true" : "false",
					   *(const bool *)b ? "true" : "false", err);
	case SP_FIELD_TRISTATE:
	case SP_FIELD_I64:
		/* facts only, never compared */
		break;
	case SP_FIELD_UINT:
		return *(const unsigned *)a == *(const unsigned *)b ?
			       0 : differ_number(w, *(const unsigned *)a, *(const unsigned *)b, err);
	case SP_FIELD_U64:
		return *(const uint64_t *)a == *(const uint64_t *)b ?
			       0 : differ_number(w, *(const uint64_t *)a, *(const uint64_t *)b, err);
	case SP_FIELD_ENUM:
		return *(const int *)a == *(const int *)b ?
			       0 :
			       differ_text(w, sp_names_get(f->names, *(const int *)a) ?: "?",
					   sp_names_get(f->names, *(const int *)b) ?: "?", err);
	case SP_FIELD_CUSTOM:
		if (f->custom->equal(f, have, want))
			return 0;
		if (f->custom->differ)
			return f->custom->differ(f, have, want, w, err);
		f->custom->format(f, have, ta, sizeof(ta));
		f->custom->format(f, want, tb, sizeof(tb));
		return differ_text(w, ta, tb, err);
	case SP_FIELD_OBJECT:
	case SP_FIELD_LIST:
		break;
	}
	return 0;
}

static int compare_object(const struct sp_schema *sch, const void *have, const void *want,
			  const struct sp_where *w, enum sp_compare pass, struct sp_error *err);

static int compare_list(const struct sp_field *f, const void *have, const void *want,
			const struct sp_where *w, enum sp_compare pass, struct sp_error *err)
{
	size_t n_have = *(const size_t *)cat(have, f->count_offset);
	size_t n_want = *(const size_t *)cat(want, f->count_offset);
	int r = 0;

	if (n_have != n_want)
		return sp_where_error(err, w, NULL, EINVAL,
				      " has %zu entries, but stripeplan plans %zu" FROM_FILE, n_have,
				      n_want);
	for (size_t i = 0; r == 0 && i < n_want && (f->grown || i < f->max_items); i++) {
		struct sp_where we = { .up = w, .name = NULL, .index = i };
		const void *a = (const char *)list_citems(f, have) + i * f->stride;
		const void *b = (const char *)list_citems(f, want) + i * f->stride;

		if (f->elem->type == SP_FIELD_STRING)
			r = strcmp(a, b) ? differ_text(&we, a, b, err) : 0;
		else
			r = compare_object(f->elem->object, a, b, &we, pass, err);
	}
	return r;
}

static bool compared(enum sp_compare c)
{
	return c == SP_CMP_COMPARED || c == SP_CMP_GEOMETRY;
}

static int compare_object(const struct sp_schema *sch, const void *have, const void *want,
			  const struct sp_where *w, enum sp_compare pass, struct sp_error *err)
{
	unsigned view = where_view(w);
	int r = 0;

	for (size_t i = 0; r == 0 && i < sch->n_fields; i++) {
		const struct sp_field *f = &sch->fields[i];
		struct sp_where wf = { .up = w, .name = f->name };

		if (!visible(f, view) || !compared(f->compare) || (f->present && !f->present(want)))
			continue;
		if (omitted_when_empty(f, want) && omitted_when_empty(f, have))
			continue;
		if (f->type == SP_FIELD_OBJECT)
			r = compare_object(f->object, cat(have, f->offset), cat(want, f->offset), &wf,
					   pass, err);
		else if (f->compare == pass && f->type == SP_FIELD_LIST)
			r = compare_list(f, have, want, &wf, pass, err);
		else if (f->compare == pass)
			r = compare_leaf(f, have, want, &wf, err);
	}
	return r;
}

int sp_schema_compare(const struct sp_schema *sch, const void *have, const void *want,
		      const struct sp_where *w, struct sp_error *err)
{
	int r = compare_object(sch, have, want, w, SP_CMP_GEOMETRY, err);

	return r < 0 ? r : compare_object(sch, have, want, w, SP_CMP_COMPARED, err);
}
