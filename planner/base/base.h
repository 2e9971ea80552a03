/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers every library shares (util-linux keeps its own in
 * include/c.h): the sizes of names, paths and messages, the length of an
 * array, and enum <-> name tables.
 */
#ifndef STRIPEPLAN_BASE_H
#define STRIPEPLAN_BASE_H

#include <stddef.h>

#define SP_NAME_MAX 64
#define SP_PATH_MAX 4096
#define SP_MSG_MAX 512

/*
 * Every file read as input (plan, profile, facts, fstab, our own tuning
 * files under --root) is at most this: the largest plan with every
 * tuning entry is well under 100 KiB, and one cap means one rule to
 * document and to fuzz.  The system library's reader enforces it
 * (system/textfile.h); the core keeps what it writes within it.
 */
#define SP_INPUT_MAX_BYTES (1024U * 1024U)

/* 0, and a compile error when a is a pointer rather than an array (a
 * pointer's sizeof would make ARRAY_SIZE quietly wrong). */
#define SP_MUST_BE_ARRAY(a)                                                                \
	(0 * sizeof(struct {                                                               \
		int not_an_array : 1 - 2 * __builtin_types_compatible_p(__typeof__(a),     \
									  __typeof__(&(a)[0])); \
	}))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + SP_MUST_BE_ARRAY(a))

/*
 * Growing arrays.  A list the program does not bound (a plan's knobs, an
 * md array's members: md takes 1920 of them) is a pointer and a count;
 * its room is the count rounded up to a power of two, so appending is
 * amortized constant time and the room needs no member of its own.
 */
/* The room an array of n elements has: 0, or the next power of two. */
size_t sp_array_room_for(size_t n);
/* Room for element n (the (n+1)-th) in the array *items points to, of
 * elements of size bytes, grown when it is full; new room is zeroed.  0,
 * or -ENOMEM with *items unchanged (-EINVAL for elements of no size). */
int sp_array_room(void *items, size_t n, size_t size);
/* *dst = a copy of the n elements at src, with the room sp_array_room
 * keeps (NULL for none).  0, or -ENOMEM with *dst NULL. */
int sp_array_dup(void *dst, const void *src, size_t n, size_t size);

/*
 * An enum's names, indexed by its values (holes are NULL, so sparse enums
 * work).  SP_STRING_TABLE(sp_fs, enum sp_fs, "unknown") after a
 * `static const char *const sp_fs_table[]` defines
 *   const struct sp_names sp_fs_names;         the table, for messages and the JSON schema
 *   const char *sp_fs_name(enum sp_fs v);       the name, or the fallback out of range
 *   int sp_fs_from_name(const char *s, enum sp_fs *ret);  0, or -EINVAL
 * as systemd's DEFINE_STRING_TABLE_LOOKUP does; SP_STRING_TABLE_DECLARE
 * declares them in a header.
 */
struct sp_names {
	const char *const *names;
	size_t n;
};

/* The value named s: its index, or -EINVAL. */
int sp_names_lookup(const struct sp_names *t, const char *s);
/* The name of value v, NULL when there is none. */
const char *sp_names_get(const struct sp_names *t, long v);
/* "xfs, ext3, ext4": every name, for "(known: ...)" in messages. */
const char *sp_names_join(const struct sp_names *t, char *buf, size_t len);
/* The same into a buffer that lives until the end of the enclosing block. */
#define SP_NAMES_JOINED(t) sp_names_join((t), (char[SP_NAMES_JOINED_MAX]){ 0 }, SP_NAMES_JOINED_MAX)
#define SP_NAMES_JOINED_MAX 256U

/* `type` names a type: a declaration cannot put it in parentheses */
/* NOLINTBEGIN(bugprone-macro-parentheses) */
#define SP_STRING_TABLE_DECLARE(name, type)                                                \
	extern const struct sp_names name##_names;                                         \
	const char *name##_name(type v);                                                   \
	int name##_from_name(const char *s, type *ret)

#define SP_STRING_TABLE(name, type, fallback)                                              \
	const struct sp_names name##_names = { name##_table, ARRAY_SIZE(name##_table) };   \
	const char *name##_name(type v)                                                    \
	{                                                                                  \
		const char *s = sp_names_get(&name##_names, (long)v);                      \
		return s ? s : (fallback);                                                 \
	}                                                                                  \
	int name##_from_name(const char *s, type *ret)                                     \
	{                                                                                  \
		int i = sp_names_lookup(&name##_names, s);                                 \
		if (i < 0)                                                                 \
			return i;                                                          \
		*ret = (type)i;                                                            \
		return 0;                                                                  \
	}
/* NOLINTEND(bugprone-macro-parentheses) */

#endif
