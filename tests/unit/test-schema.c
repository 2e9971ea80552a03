/*
 * The field tables: every member of every struct they describe is in a
 * row or on the table's list of unlisted members (with why), checked
 * against clang's own layout of the structs (record-layouts.h); and the
 * one reader, writer and comparer they drive.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "record-layouts.h"
#include "schema/objects.h"
#include "schema/scan-file.h"
#include "schema/schema.h"

/* ---------------------------------------------------------- coverage */

#define MAX_SCHEMAS 64U
#define MAX_RANGES 512U

struct range {
	const char *record;
	size_t start, end;
};

struct coverage {
	const struct sp_schema *schemas[MAX_SCHEMAS];
	size_t n_schemas;
	struct range ranges[MAX_RANGES];
	size_t n_ranges;
};

static void cover(struct coverage *c, const char *record, size_t start, size_t size)
{
	assert_true(c->n_ranges < MAX_RANGES);
	c->ranges[c->n_ranges++] = (struct range){ record, start, start + size };
}

static bool seen(const struct coverage *c, const struct sp_schema *sch)
{
	for (size_t i = 0; i < c->n_schemas; i++)
		if (c->schemas[i] == sch)
			return true;
	return false;
}

/* A row's type is its member's: the reader writes that many bytes. */
static void check_row_size(const struct sp_schema *sch, const struct sp_field *f)
{
	static const size_t sizes[] = {
		[SP_FIELD_BOOL] = sizeof(bool),     [SP_FIELD_UINT] = sizeof(unsigned),
		[SP_FIELD_U64] = sizeof(uint64_t),  [SP_FIELD_I64] = sizeof(int64_t),
		[SP_FIELD_TRISTATE] = sizeof(int),  [SP_FIELD_ENUM] = sizeof(int),
	};

	if ((size_t)f->type < ARRAY_SIZE(sizes) && sizes[f->type] && f->size != sizes[f->type])
		fail_msg("%s.%s: a row of type %d for a member of %zu bytes", sch->c_struct,
			 f->name, (int)f->type, f->size);
	if (f->type == SP_FIELD_LIST && f->elem->type == SP_FIELD_STRING)
		assert_int_equal(f->elem->size, f->stride);
}

/* The rows of sch, at base within its struct (an inline object's rows are
 * the parent struct's own members). */
static void walk(struct coverage *c, const struct sp_schema *sch, size_t base)
{
	if (!seen(c, sch)) {
		assert_true(c->n_schemas < MAX_SCHEMAS);
		c->schemas[c->n_schemas++] = sch;
	}
	for (size_t i = 0; i < sch->n_fields; i++) {
		const struct sp_field *f = &sch->fields[i];

		check_row_size(sch, f);
		if (f->type == SP_FIELD_OBJECT && !strcmp(f->object->c_struct, sch->c_struct)) {
			walk(c, f->object, base + f->offset);
			continue;
		}
		if (f->size)
			cover(c, sch->c_struct, base + f->offset, f->size);
		if (f->type == SP_FIELD_LIST)
			cover(c, sch->c_struct, base + f->count_offset, sizeof(size_t));
		if (f->type == SP_FIELD_OBJECT)
			walk(c, f->object, 0);
		if (f->type == SP_FIELD_LIST && f->elem->type == SP_FIELD_OBJECT)
			walk(c, f->elem->object, 0);
	}
	for (size_t i = 0; i < sch->n_unlisted; i++) {
		assert_non_null(sch->unlisted[i].why);
		cover(c, sch->c_struct, sch->unlisted[i].offset, 1);
	}
}

static bool covered(const struct coverage *c, const char *record, size_t offset)
{
	for (size_t i = 0; i < c->n_ranges; i++)
		if (!strcmp(c->ranges[i].record, record) && offset >= c->ranges[i].start &&
		    offset < c->ranges[i].end)
			return true;
	return false;
}

static bool described(const struct coverage *c, const char *record)
{
	for (size_t i = 0; i < c->n_schemas; i++)
		if (!strcmp(c->schemas[i]->c_struct, record))
			return true;
	return false;
}

static void test_every_member_in_a_table(void **state)
{
	struct coverage *c = calloc(1, sizeof(*c));
	size_t missing = 0, checked = 0;

	(void)state;
	walk(c, &sp_plan_schema, 0);
	walk(c, &sp_facts_schema, 0);
	walk(c, &sp_profile_schema, 0);
	walk(c, &sp_scan_row_schema, 0);
	for (size_t i = 0; i < ARRAY_SIZE(record_members); i++) {
		const struct record_member *m = &record_members[i];

		if (!described(c, m->record))
			continue;
		checked++;
		if (!covered(c, m->record, m->offset)) {
			print_error("struct %s: member '%s' (offset %zu) is in no field table; add a "
				    "row, or list it as unlisted with why\n",
				    m->record, m->member, m->offset);
			missing++;
		}
	}
	assert_int_equal(missing, 0);
	/* the layouts were read: sp_plan alone has some 40 members */
	assert_true(checked > 100);
	/* every struct a table describes was laid out by clang */
	for (size_t s = 0; s < c->n_schemas; s++) {
		bool found = false;

		for (size_t i = 0; i < ARRAY_SIZE(record_members) && !found; i++)
			found = !strcmp(record_members[i].record, c->schemas[s]->c_struct);
		if (!found)
			fail_msg("struct %s has a table but no layout", c->schemas[s]->c_struct);
	}
	/* an unlisted member names a real member at its offset */
	for (size_t s = 0; s < c->n_schemas; s++) {
		const struct sp_schema *sch = c->schemas[s];

		for (size_t u = 0; u < sch->n_unlisted; u++) {
			bool found = false;

			for (size_t i = 0; i < ARRAY_SIZE(record_members) && !found; i++)
				found = !strcmp(record_members[i].record, sch->c_struct) &&
					!strcmp(record_members[i].member, sch->unlisted[u].member) &&
					record_members[i].offset == sch->unlisted[u].offset;
			if (!found)
				fail_msg("%s.%s is listed as unlisted but is no member", sch->c_struct,
					 sch->unlisted[u].member);
		}
	}
	free(c);
}

/* ------------------------------------------------------------ reader */

/* A small struct and table of every kind, to drive the reader alone. */
struct toy {
	char name[8];
	bool flag;
	unsigned count;
	uint64_t bytes;
	int64_t offset;
	enum sp_fs fs;
	size_t n_words;
	char words[2][8];
	struct sp_md_facts md;
};

static const struct sp_field word_elem = SP_ELEM_STRING(8);
static const struct sp_field toy_fields[] = {
	SP_STRING(toy, name, "name", .flags = SP_FF_REQUIRED | SP_FF_NAME),
	SP_BOOL(toy, flag, "flag"),
	SP_UINT(toy, count, "count", 1, 10),
	SP_U64(toy, bytes, "bytes", 512, 65536, .flags = SP_FF_POW2 | SP_FF_NULL_EMPTY),
	SP_I64(toy, offset, "offset", -1, 100),
	SP_ENUM(toy, fs, "fs", &sp_fs_names),
	SP_LIST(toy, words, n_words, "words", &word_elem),
	SP_OBJECT(toy, md, "md", &sp_md_schema, .empty = sp_md_absent),
};
static const struct sp_schema toy_schema = SP_SCHEMA(toy, toy_fields);

static int toy_read(const char *text, struct toy *t, struct sp_error *err)
{
	const struct sp_where root = { .name = "toy", .prefix = "test" };
	json_object *obj = NULL;
	int r;

	memset(t, 0, sizeof(*t));
	r = sp_json_parse_object(text, "test", "toy", &obj, err);
	if (r == 0)
		r = sp_schema_read(&toy_schema, obj, t, &root, err);
	json_object_put(obj);
	if (r < 0) /* a grown list read half-way is the reader's caller's to free */
		free(t->md.members);
	return r;
}

static void expect_toy_error(const char *text, int code, const char *message)
{
	struct sp_error err = { 0 };
	struct toy t;

	assert_int_equal(toy_read(text, &t, &err), code);
	assert_int_equal(err.code, code);
	assert_int_equal(err.kind, SP_ERR_INVALID);
	if (strcmp(err.message, message))
		fail_msg("'%s'\n  is not\n'%s'", err.message, message);
}

static void test_reader(void **state)
{
	struct sp_error err = { 0 };
	struct toy t;

	(void)state;
	assert_int_equal(toy_read("{\"name\": \"sdb\", \"flag\": true, \"count\": 3, \"bytes\": 4096,"
				  " \"offset\": -1, \"fs\": \"ext4\", \"words\": [\"a\", \"bc\"],"
				  " \"md\": {\"level\": \"raid5\"}}",
				  &t, &err),
			 0);
	assert_string_equal(t.name, "sdb");
	assert_true(t.flag);
	assert_int_equal(t.count, 3);
	assert_int_equal(t.bytes, 4096);
	assert_int_equal(t.offset, -1);
	assert_int_equal(t.fs, SP_FS_EXT4);
	assert_int_equal(t.n_words, 2);
	assert_string_equal(t.words[1], "bc");
	assert_true(t.md.present);
	assert_string_equal(t.md.level, "raid5");
	/* null is "not given" */
	assert_int_equal(toy_read("{\"name\": \"sdb\", \"bytes\": null, \"md\": null}", &t, &err), 0);
	assert_int_equal(t.bytes, 0);
	assert_false(t.md.present);

	expect_toy_error("{\"nme\": \"sdb\"}", -EINVAL, "test: toy.nme: unknown field (a typo?)");
	expect_toy_error("{\"flag\": true}", -EINVAL, "test: toy.name is missing");
	expect_toy_error("{\"name\": null}", -EINVAL, "test: toy.name is missing");
	expect_toy_error("{\"name\": 7}", -EINVAL, "test: toy.name must be a string");
	expect_toy_error("{\"name\": \"12345678\"}", -ENAMETOOLONG,
			 "test: toy.name is longer than 7 characters");
	expect_toy_error("{\"name\": \"a\\u0000b\"}", -EINVAL, "test: toy.name holds a NUL character");
	expect_toy_error("{\"name\": \"../sdb\"}", -EINVAL,
			 "test: toy.name holds a character that is not allowed (0x2f)");
	expect_toy_error("{\"name\": \"a\", \"flag\": 1}", -EINVAL,
			 "test: toy.flag must be true or false");
	expect_toy_error("{\"name\": \"a\", \"count\": 0}", -ERANGE, "test: toy.count: 0 is below 1");
	expect_toy_error("{\"name\": \"a\", \"count\": 11}", -ERANGE,
			 "test: toy.count: 11 is above 10");
	expect_toy_error("{\"name\": \"a\", \"count\": 2.5}", -EINVAL,
			 "test: toy.count must be an integer");
	expect_toy_error("{\"name\": \"a\", \"count\": \"3\"}", -EINVAL,
			 "test: toy.count must be an integer");
	expect_toy_error("{\"name\": \"a\", \"bytes\": 520}", -EINVAL,
			 "test: toy.bytes: 520 is not a power of two");
	/* json-c saturates at 2^63 - 1: never read as a number */
	expect_toy_error("{\"name\": \"a\", \"bytes\": 99999999999999999999}", -ERANGE,
			 "test: toy.bytes is too large (at most 65536)");
	expect_toy_error("{\"name\": \"a\", \"offset\": -2}", -ERANGE,
			 "test: toy.offset: -2 is below -1");
	expect_toy_error("{\"name\": \"a\", \"fs\": \"btrfs\"}", -EINVAL,
			 "test: toy.fs: 'btrfs' is not one of xfs, ext3, ext4");
	expect_toy_error("{\"name\": \"a\", \"words\": [\"a\", \"b\", \"c\"]}", -E2BIG,
			 "test: toy.words has more than 2 entries");
	expect_toy_error("{\"name\": \"a\", \"words\": [\"a\", 1]}", -EINVAL,
			 "test: toy.words[1] must be a string");
	expect_toy_error("{\"name\": \"a\", \"words\": \"a\"}", -EINVAL,
			 "test: toy.words must be a list");
	expect_toy_error("{\"name\": \"a\", \"md\": {\"level\": \"raid5\", \"members\": [{}]}}",
			 -EINVAL, "test: toy.md.members[0].name is missing");
	expect_toy_error("{\"name\": \"a\", \"md\": []}", -EINVAL, "test: toy.md must be an object");
	expect_toy_error("{\"name\": \"a\"", -EINVAL,
			 "test: the JSON ends early (an empty or truncated file?)");
	expect_toy_error("{\"name\": \"a\", }", -EINVAL,
			 "test: not a stripeplan toy (JSON error: unexpected character)");
	expect_toy_error("[]", -EINVAL,
			 "test: not a stripeplan toy (JSON error: the top level is not an object)");
}

static void test_writer(void **state)
{
	struct toy t = { .name = "sdb", .count = 2, .offset = -1, .fs = SP_FS_XFS, .n_words = 1,
			 .words = { "w" } };
	json_object *o;

	(void)state;
	o = sp_schema_write(&toy_schema, &t, 0);
	assert_non_null(o);
	/* table order; null for an empty optional field and an absent md */
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "{\"name\":\"sdb\",\"flag\":false,\"count\":2,\"bytes\":null,"
			    "\"offset\":-1,\"fs\":\"xfs\",\"words\":[\"w\"],\"md\":null}");
	json_object_put(o);
}

/* ----------------------------------------------------------- compare */

static struct sp_plan *load_golden(const char *name)
{
	const char *src = getenv("SRCDIR");
	struct sp_plan *p = calloc(1, sizeof(*p));
	struct sp_error err = { 0 };
	char path[1024], *text;
	FILE *f;
	long len;

	assert_non_null(src); /* set by ctest */
	snprintf(path, sizeof(path), "%s/tests/cli/golden/%s", src, name);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	if (sp_plan_from_json(text, p, &err) < 0)
		fail_msg("%s: %s", name, err.message);
	free(text);
	return p;
}

static const char *differ(const struct sp_plan *have, const struct sp_plan *want)
{
	static struct sp_error err;
	const struct sp_where root = { .name = "", .prefix = "plan", .view = SP_VIEW_PLAN };

	memset(&err, 0, sizeof(err));
	if (sp_schema_compare(&sp_plan_schema, have, want, &root, &err) == 0)
		return NULL;
	return err.message;
}

/* *have = a plan of its own like want's, to edit */
static void copy(struct sp_plan *have, const struct sp_plan *want)
{
	sp_plan_release(have);
	assert_int_equal(sp_plan_copy(have, want), 0);
}

static void test_compare(void **state)
{
	struct sp_plan *want = load_golden("p400.json"), *have = calloc(1, sizeof(*have));

	(void)state;
	copy(have, want);
	assert_null(differ(have, want));
	/* the request and the notes are not compared: the replan takes them */
	have->disks = 6;
	snprintf(have->warnings[0].message, SP_MSG_MAX, "edited");
	have->level_source = SP_SOURCE_KERNEL;
	assert_null(differ(have, want));
	/* a derived field is named, the geometry before the command lines */
	snprintf(have->mkfs_argv[4], sizeof(have->mkfs_argv[4]), "su=1m");
	have->xfs_sw = 9;
	assert_string_equal(differ(have, want), "plan: filesystem.xfs.sw is 9, but stripeplan "
						"plans 4 from the file's own fields");
	have->xfs_sw = want->xfs_sw;
	assert_string_equal(differ(have, want),
			    "plan: filesystem.mkfs_argv[4] is 'su=1m', but stripeplan plans "
			    "'su=256k,sw=4' from the file's own fields");
	copy(have, want);
	have->n_mount_options--;
	assert_non_null(strstr(differ(have, want), "plan: mount.options has "));
	copy(have, want);
	snprintf(have->tuning[0].device, sizeof(have->tuning[0].device), "sdc");
	assert_string_equal(differ(have, want), "plan: tuning[0] device is 'sdc', but stripeplan "
						"plans 'sdb' from the file's own fields");
	copy(have, want);
	have->tuning[0].kind = SP_TUNING_MODULE;
	assert_string_equal(differ(have, want), "plan: tuning[0].kind is 'module', but stripeplan "
						"plans 'sysfs' from the file's own fields");
	sp_plan_release(have);
	sp_plan_release(want);
	free(have);
	free(want);
}

/* text with the first `from` replaced by `to` (malloc'd) */
static char *replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t len = strlen(text) - strlen(from) + strlen(to) + 1;
	char *out = malloc(len);

	assert_non_null(at);
	assert_non_null(out);
	snprintf(out, len, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return out;
}

static void expect_plan_error(const char *text, const char *message)
{
	struct sp_plan *p = malloc(sizeof(*p));
	struct sp_error err = { 0 };

	assert_int_equal(sp_plan_from_json(text, p, &err), -EINVAL);
	if (strcmp(err.message, message))
		fail_msg("'%s'\n  is not\n'%s'", err.message, message);
	free(p);
}

/* A plan file's value is read by its knob's rules: one spelling, in bounds. */
static void test_plan_values(void **state)
{
	const char *src = getenv("SRCDIR");
	char path[1024], *text, *edited;
	FILE *f;
	long len;

	(void)state;
	assert_non_null(src);
	snprintf(path, sizeof(path), "%s/tests/cli/golden/p400.json", src);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	edited = replaced(text, "\"value\": \"4096\"", "\"value\": \"004096\"");
	expect_plan_error(edited, "plan.tuning[1].value: '004096' has a leading zero: write 4096 "
				  "(sh and C read a leading 0 as octal)");
	free(edited);
	edited = replaced(text, "\"value\": \"4096\"", "\"value\": \"  4096\"");
	expect_plan_error(edited, "plan.tuning[1].value: '  4096' is not a whole number");
	free(edited);
	/* a scheduler is a name of the scheduler table */
	edited = replaced(text, "\"value\": \"none\"", "\"value\": \"nope\"");
	expect_plan_error(edited, "plan.tuning[0].value: 'nope' is not a scheduler (known: none, "
				  "mq-deadline, bfq, kyber, noop, deadline, cfq)");
	free(edited);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_member_in_a_table),
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_writer),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_plan_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
