/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A JSON object described once: one row per field with its JSON name,
 * type, bounds, place in the C struct (offsetof), whether it must be
 * there, and what the replan check does with it.  One reader, one writer
 * and one comparer walk every table (plan, device facts, md facts,
 * controller profile), as systemd's sd_json_dispatch_field tables and
 * xfs_mkfs's opt_params do.  Adding a field to a JSON object is a row.
 *
 * The reader is strict: an unknown key, a missing required field, a value
 * of the wrong type or out of its bounds is an error naming the field's
 * path ("plan.array.disks: 5000 is above 1024").  null is the same
 * as an absent key (facts files say "not known" so, and the writer writes
 * it for empty optional fields).  Numbers above 2^63 - 2 are never read:
 * json-c saturates larger ones at 2^63 - 1.
 */
#ifndef STRIPEPLAN_SCHEMA_SCHEMA_H
#define STRIPEPLAN_SCHEMA_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "base/error.h"

struct json_object;

/* The largest number a table reads: json-c saturates larger ones at 2^63 - 1. */
#define SP_JSON_U64_MAX ((uint64_t)INT64_MAX - 1)

enum sp_field_type {
	SP_FIELD_STRING,   /* char[size], no NUL inside */
	SP_FIELD_BOOL,     /* bool */
	SP_FIELD_UINT,     /* unsigned */
	SP_FIELD_U64,      /* uint64_t */
	SP_FIELD_I64,      /* int64_t */
	SP_FIELD_TRISTATE, /* int: -1 not known, 0, 1; read from a number or a boolean */
	SP_FIELD_ENUM,     /* an enum, written by its name in `names` */
	SP_FIELD_OBJECT,   /* a nested object described by `object` */
	SP_FIELD_LIST,     /* a JSON array of `elem`, counted in a size_t */
	SP_FIELD_CUSTOM,   /* read, written and compared by `custom` */
};

/* What the replan check (sp_plan_replan) does with a plan field. */
enum sp_compare {
	/* the planner computes it: the file's must be what stripeplan plans */
	SP_CMP_COMPARED = 0,
	/* the same, checked first: the geometry every command line is made
	 * from, so a differing number names the cause, not its effect */
	SP_CMP_GEOMETRY,
	/* the request: the plan is made again from it, so an edit is a new
	 * request, planned whole */
	SP_CMP_REQUEST,
	/* what the device is: the plan is made again for these facts, and
	 * apply probes the device again and refuses one that differs */
	SP_CMP_FACT,
	/* words for the reviewer, never executed; they depend on what the
	 * planner saw when the plan was made (the running kernel) */
	SP_CMP_NOTE,
	/* computed from other fields when written, never read back */
	SP_CMP_DERIVED,
};

/* Where a row applies: the device facts object is a facts file of its
 * own, and the plan's "device" (which holds less). */
enum sp_view {
	SP_VIEW_FACTS = 1U << 0,
	SP_VIEW_PLAN = 1U << 1,
	SP_VIEW_ALL = SP_VIEW_FACTS | SP_VIEW_PLAN,
};

/* The first byte of s that a SP_FF_NAME string may not hold (a space, a
 * control byte, '"', '\\', '/'), or 0. */
unsigned char sp_name_bad_char(const char *s);

enum sp_field_flags {
	SP_FF_REQUIRED = 1U << 0,   /* in every view the row has */
	SP_FF_NULL_EMPTY = 1U << 1, /* written as null when "" or 0 */
	SP_FF_POW2 = 1U << 2,       /* a number that is a power of two */
	SP_FF_NAME = 1U << 3,       /* a string that becomes a sysfs path or udev
				     * match: no space, control byte, quote, backslash or slash */
	SP_FF_NONEMPTY = 1U << 4,   /* a string that is not "" */
	SP_FF_OMIT_EMPTY = 1U << 5, /* left out when empty -- a list without an
				     * element, another field when empty() says so --
				     * and not compared when both plans have it empty:
				     * what most plans, or plans made before it, do not
				     * have (a note, a plan's "stack"); read when there */
};

struct sp_field;
struct sp_schema;
struct sp_where;

/* A field the generic types cannot say (a layout "n2", a size "64K", a
 * typed tuning value).  read gets the field's JSON value and the object it
 * is in; write returns a new JSON value (or NULL for null); equal and
 * format serve the comparer. */
struct sp_custom {
	int (*read)(const struct sp_field *f, struct json_object *value, struct json_object *parent,
		    void *base, const struct sp_where *w, struct sp_error *err);
	struct json_object *(*write)(const struct sp_field *f, const void *base);
	bool (*equal)(const struct sp_field *f, const void *a, const void *b);
	void (*format)(const struct sp_field *f, const void *base, char *buf, size_t len);
	/* for sp_plan_replan's first difference, when it is not "is X, but Y" */
	int (*differ)(const struct sp_field *f, const void *have, const void *want,
		      const struct sp_where *w, struct sp_error *err);
};

struct sp_field {
	const char *name;
	enum sp_field_type type;
	size_t offset, size, align; /* of the C member (for a list: its array) */
	unsigned flags;
	unsigned views;             /* 0: every view */
	unsigned required_views;    /* required in these views (SP_FF_REQUIRED: in all) */
	enum sp_compare compare;
	int64_t min;
	uint64_t max;
	const char *charset;                   /* STRING: the only characters it may hold */
	const char *charset_says;              /* ... as a message says it: "a module name ([a-z0-9_-])" */
	const struct sp_names *names;          /* ENUM */
	const struct sp_schema *object;        /* OBJECT, and a LIST of objects */
	const struct sp_field *elem;           /* LIST: one element, at offset 0 */
	size_t count_offset, stride, max_items; /* LIST */
	/* LIST: the member is a pointer to elements that grow as needed
	 * (sp_array_room), not an array of max_items; the struct's own
	 * release (sp_plan_release, sp_facts_release) frees them */
	bool grown;
	const struct sp_custom *custom;        /* CUSTOM */
	/* written and read only when it says so (filesystem.xfs for XFS);
	 * NULL: always */
	bool (*present)(const void *base);
	/* when present() is false: write null rather than leave the key out */
	bool null_when_absent;
	/* written as null when it says so (an md object of a device that is
	 * not md); read as absent when null */
	bool (*empty)(const void *field);
};

/* A member of the struct that no row holds, and why (unit/test-schema
 * fails on a member that is in no row and not on such a list). */
struct sp_unlisted {
	size_t offset;
	const char *member;
	const char *why;
};

struct sp_schema {
	const char *c_struct; /* "sp_plan": the struct the rows' offsets are into */
	size_t size;
	const struct sp_field *fields;
	size_t n_fields;
	const struct sp_unlisted *unlisted;
	size_t n_unlisted;
	/* before reading: defaults (a facts file's unknown rotational is -1) */
	void (*init)(void *obj);
	/* after reading every field: what holds between fields */
	int (*check)(void *obj, const struct sp_where *w, struct sp_error *err);
};

/* Where a field is, for messages: "plan.tuning[3].value". */
struct sp_where {
	const struct sp_where *up;
	const char *name; /* NULL with index: a list element */
	size_t index;
	const char *prefix; /* the root only: "facts file '/tmp/f.json'", or NULL */
	unsigned view;      /* the root only: enum sp_view (0: SP_VIEW_ALL) */
};

/* "plan.tuning[3].value" into buf; returns buf. */
const char *sp_where_path(const struct sp_where *w, const char *leaf, char *buf, size_t len);
/* An error (SP_ERR_INVALID) about the field leaf of w: "PREFIX: PATH<fmt>",
 * fmt starting with " is ..." or ": ..."; returns -code. */
int sp_where_error(struct sp_error *err, const struct sp_where *w, const char *leaf, int code,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The same for an error a parser put in why (its code kept; a leading
 * "NAME: " that repeats the field's name dropped). */
int sp_where_error_from(struct sp_error *err, const struct sp_where *w, const struct sp_error *why);

/* Parses text as one JSON object and nothing after it (json-c's strict
 * mode) whose keys and strings are all valid UTF-8; errors say "PREFIX:
 * not a stripeplan NOUN (JSON error: ...)", or for a string that is not
 * UTF-8 "PREFIX: '\xff...' is not valid UTF-8 ..." (-EILSEQ). */
int sp_json_parse_object(const char *text, const char *prefix, const char *noun,
			 struct json_object **ret, struct sp_error *err);

/* .empty of a number that is 0 when unknown (with SP_FF_OMIT_EMPTY: left
 * out of the JSON, and a file without it reads as unknown) */
bool sp_u64_zero(const void *member);
bool sp_uint_zero(const void *member);

/* Fills obj (sch->size bytes, zeroed by the caller) from a JSON object;
 * on failure obj may be half-filled: callers read into a scratch copy,
 * and release what its grown lists hold whether the read worked or not. */
int sp_schema_read(const struct sp_schema *sch, struct json_object *json, void *obj,
		   const struct sp_where *w, struct sp_error *err);
/* The JSON object of obj, keys in table order (NULL: out of memory). */
struct json_object *sp_schema_write(const struct sp_schema *sch, const void *obj, unsigned view);
/*
 * The first field in which have differs from want, among those the table
 * compares (SP_CMP_GEOMETRY first, then SP_CMP_COMPARED, each in table
 * order): -EINVAL with "plan: PATH is X, but stripeplan plans Y from the
 * file's own fields"; 0 when none does.
 */
int sp_schema_compare(const struct sp_schema *sch, const void *have, const void *want,
		      const struct sp_where *w, struct sp_error *err);

/* Rows, by type.  S is the struct, M the member, N the JSON name. */
#define SP_ROW_(S, M, N, T)                                                                \
	.name = (N), .type = (T), .offset = offsetof(struct S, M),                         \
	.size = sizeof(((struct S *)0)->M), .align = __alignof__(((struct S *)0)->M)
#define SP_STRING(S, M, N, ...) { SP_ROW_(S, M, N, SP_FIELD_STRING), __VA_ARGS__ }
#define SP_BOOL(S, M, N, ...) { SP_ROW_(S, M, N, SP_FIELD_BOOL), __VA_ARGS__ }
#define SP_TRISTATE(S, M, N, ...) { SP_ROW_(S, M, N, SP_FIELD_TRISTATE), .min = -1, .max = 1, __VA_ARGS__ }
#define SP_UINT(S, M, N, MIN, MAX, ...)                                                    \
	{ SP_ROW_(S, M, N, SP_FIELD_UINT), .min = (MIN), .max = (MAX), __VA_ARGS__ }
#define SP_U64(S, M, N, MIN, MAX, ...)                                                     \
	{ SP_ROW_(S, M, N, SP_FIELD_U64), .min = (MIN), .max = (MAX), __VA_ARGS__ }
#define SP_I64(S, M, N, MIN, MAX, ...)                                                     \
	{ SP_ROW_(S, M, N, SP_FIELD_I64), .min = (MIN), .max = (MAX), __VA_ARGS__ }
#define SP_ENUM(S, M, N, NAMES, ...)                                                       \
	{ SP_ROW_(S, M, N, SP_FIELD_ENUM), .names = (NAMES), __VA_ARGS__ }
/* a nested struct at member M, or (SP_INLINE) more fields of S itself */
#define SP_OBJECT(S, M, N, SCHEMA, ...)                                                    \
	{ SP_ROW_(S, M, N, SP_FIELD_OBJECT), .object = (SCHEMA), __VA_ARGS__ }
#define SP_INLINE(N, SCHEMA, ...)                                                          \
	{ .name = (N), .type = SP_FIELD_OBJECT, .object = (SCHEMA), __VA_ARGS__ }
/* array member M of MAX elements, counted in member C */
#define SP_LIST(S, M, C, N, ELEM, ...)                                                     \
	{ SP_ROW_(S, M, N, SP_FIELD_LIST), .elem = (ELEM),                                 \
	  .count_offset = offsetof(struct S, C), .stride = sizeof(((struct S *)0)->M[0]),  \
	  .max_items = ARRAY_SIZE(((struct S *)0)->M), __VA_ARGS__ }
/* pointer member M to elements that grow as needed, counted in member C,
 * at most MAX of them read from a file */
#define SP_LIST_GROWN(S, M, C, MAX, N, ELEM, ...)                                          \
	{ SP_ROW_(S, M, N, SP_FIELD_LIST), .elem = (ELEM), .grown = true,                  \
	  .count_offset = offsetof(struct S, C), .stride = sizeof(*((struct S *)0)->M),    \
	  .max_items = (MAX), __VA_ARGS__ }
#define SP_CUSTOM(S, M, N, CUSTOM, ...)                                                    \
	{ SP_ROW_(S, M, N, SP_FIELD_CUSTOM), .custom = (CUSTOM), __VA_ARGS__ }
/* a list element: one string of W bytes, one object */
#define SP_ELEM_STRING(W, ...)                                                             \
	{ .name = NULL, .type = SP_FIELD_STRING, .size = (W), .align = 1, __VA_ARGS__ }
#define SP_ELEM_OBJECT(SCHEMA) { .name = NULL, .type = SP_FIELD_OBJECT, .object = (SCHEMA) }
#define SP_SCHEMA(S, FIELDS, ...)                                                          \
	{ .c_struct = #S, .size = sizeof(struct S), .fields = (FIELDS),                    \
	  .n_fields = ARRAY_SIZE(FIELDS), __VA_ARGS__ }
#define SP_UNLISTED(S, M, WHY) { offsetof(struct S, M), #M, (WHY) }

/* The tables: schema/plan-file.c, facts-file.c, md-facts.c, profile-file.c. */
extern const struct sp_schema sp_plan_schema, sp_facts_schema, sp_md_schema,
	sp_profile_schema;
/* the "empty" of the md object: not an md array */
bool sp_md_absent(const void *md);

#endif
