/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The probe's md reader against fake sysfs trees (fixtures/sysfs/md-*):
 * what it reads from /sys/block/mdN/md/ and slaves/ is exactly the "md"
 * object of the matching facts file (fixtures/facts/md-*.json), so the
 * plans made from those files in tests/cli are the plans a real probe of
 * such an array makes.  Reads only; needs no device.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "inputs.h"
#include "probe.h"
#include "sysfs.h"

static const struct {
	const char *tree, *array;
} arrays[] = {
	{ "md-raid5", "md3" },       { "md-raid6", "md4" },       { "md-raid10-n2-3", "md0" },
	{ "md-raid10-f2-4", "md1" }, { "md-raid1", "md2" },       { "md-degraded", "md5" },
	{ "md-partitions", "md6" },
};

static char *md_json(const struct sp_md_facts *md)
{
	json_object *o = sp_md_facts_to_json(md);
	char *s;

	assert_non_null(o);
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
	json_object_put(o);
	return s;
}

static void test_trees_match_facts(void **state)
{
	const char *fixtures = getenv("FIXTURES");
	char root[1024], file[1024];

	(void)state;
	assert_non_null(fixtures);
	for (size_t i = 0; i < ARRAY_SIZE(arrays); i++) {
		struct sp_md_facts *probed = calloc(1, sizeof(*probed));
		struct sp_facts *want = calloc(1, sizeof(*want));
		struct sp_error err = { 0 };
		char *a, *b;

		snprintf(root, sizeof(root), "%s/sysfs/%s", fixtures, arrays[i].tree);
		snprintf(file, sizeof(file), "%s/facts/%s.json", fixtures, arrays[i].tree);
		if (sp_probe_md(&(struct sp_sysfs){ .root = root }, arrays[i].array, probed, &err) < 0)
			fail_msg("%s: %s", arrays[i].tree, err.message);
		if (sp_facts_load_json(file, want, &err) < 0)
			fail_msg("%s: %s", file, err.message);
		a = md_json(probed);
		b = md_json(&want->md);
		if (strcmp(a, b))
			fail_msg("%s: the probe read\n%s\nbut %s says\n%s", arrays[i].tree, a, file, b);
		free(a);
		free(b);
		free(probed->members);
		free(probed);
		sp_facts_release(want);
		free(want);
	}
}

static void test_partition_members_and_identity(void **state)
{
	const char *fixtures = getenv("FIXTURES");
	struct sp_md_facts *md = calloc(1, sizeof(*md));
	struct sp_error err = { 0 };
	char root[1024];

	(void)state;
	snprintf(root, sizeof(root), "%s/sysfs/md-partitions", fixtures);
	assert_int_equal(sp_probe_md(&(struct sp_sysfs){ .root = root }, "md6", md, &err), 0);
	assert_true(md->present);
	assert_int_equal(md->n_members, 3);
	/* sorted by name, each partition mapped to its whole disk */
	assert_string_equal(md->members[0].name, "nvme0n1p1");
	assert_string_equal(md->members[0].disk, "nvme0n1");
	assert_false(md->members[0].has_queue_depth);
	assert_string_equal(md->members[0].wwn, "eui.0025388b91b2c3d4");
	assert_string_equal(md->members[1].name, "sdb1");
	assert_string_equal(md->members[1].disk, "sdb");
	assert_string_equal(md->members[2].disk, "sdb");
	assert_true(md->members[2].has_queue_depth);
	assert_string_equal(md->members[2].wwn, "naa.50014ee2b0000062");
	/* md/uuid in udev's MD_UUID spelling */
	assert_string_equal(md->uuid, "5a5a5a5a:a5a5a5a5:0f0f0f0f:f0f0f0f0");

	/* a device without md/ is not md (a probe fills a record: the caller frees what it held) */
	free(md->members);
	md->members = NULL;
	assert_int_equal(sp_probe_md(&(struct sp_sysfs){ .root = root }, "sdb", md, &err), 0);
	assert_false(md->present);
	free(md->members);
	free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trees_match_facts),
		cmocka_unit_test(test_partition_members_and_identity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
