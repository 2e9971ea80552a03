/* Embedded profiles carry the seeds' values; user profiles are parsed
 * strictly; a plan survives JSON and back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format.h"
#include "stripeplan.h"

/* the first value the profile gives knob `name`, as text */
static const char *knob(const struct sp_profile *p, const char *name)
{
	static char text[SP_VALUE_WORD_MAX];

	for (size_t i = 0; i < p->n_knobs; i++)
		if (!strcmp(p->knobs[i].knob, name))
			return sp_value_format(&p->knobs[i].value, text, sizeof(text));
	return NULL;
}

static void test_embedded_profiles(void **state)
{
	struct sp_profile_set *set = NULL;
	struct sp_error err = { 0 };
	const struct sp_profile *p;
	char names[512];

	(void)state;
	assert_int_equal(sp_profiles_embedded(&set, &err), 0);
	sp_profiles_names(set, names, sizeof(names));
	assert_string_equal(names, "broadcom-mr9460, broadcom-mr9560, broadcom-mr9660, dell-perc-h700, "
				   "dell-perc-h730p, "
				   "dell-perc-h740p, dell-perc-h755, dell-perc-h965i, dell-perc5e, "
				   "dell-perc6i, generic, hp-p400, hpe-mr416i, hpe-sr-p408i-p816i, "
				   "hpe-sr932i-p, intel-vroc, lsi-megaraid-475, md, "
				   "microchip-smartraid-3100");

	p = sp_profiles_find(set, "hp-p400");
	assert_true(p->protected_write_cache);
	assert_string_equal(p->scheduler, "noop");
	assert_string_equal(knob(p, "queue/read_ahead_kb"), "4096"); /* setra 8192 = 4 MiB */
	/* no source found gives the P400's or the PERC 5/E's stripe sizes: no
	 * list, stripeplan's own bounds, and the warning in every plan */
	assert_string_equal(p->warnings[0].code, "strips-not-documented");
	assert_string_equal(p->warnings[1].code, "p400-parity-raid");
	assert_int_equal(strncmp(p->strips_source, "not found", 9), 0);
	assert_int_equal(p->n_strip_sizes, 0);
	assert_int_equal(p->chunk_min_bytes, 4 * 1024);
	assert_int_equal(p->chunk_max_bytes, 64 * 1024 * 1024);
	p = sp_profiles_find(set, "dell-perc5e");
	assert_string_equal(p->warnings[0].code, "strips-not-documented");
	assert_int_equal(strncmp(p->strips_source, "not found", 9), 0);
	assert_int_equal(p->n_strip_sizes, 0);
	assert_int_equal(p->spans_max, 8);
	p = sp_profiles_find(set, "md");
	assert_true(p->is_md);
	assert_string_equal(knob(p, "queue/read_ahead_kb"), "32768"); /* setra 65536 */
	assert_string_equal(knob(p, "md/stripe_cache_size"), "auto"); /* sized by the planner */
	assert_string_equal(knob(p, "md/sync_speed_min"), "30000");
	assert_string_equal(knob(p, "queue/nr_requests"), "512");
	assert_string_equal(knob(p, "device/queue_depth"), "1");
	/* every shipped knob says where it holds; the 2007 workarounds are
	 * the field report's, not the default */
	for (size_t i = 0; i < p->n_knobs; i++) {
		assert_true(p->knobs[i].holds[0] != '\0');
		if (!strcmp(p->knobs[i].knob, "md/sync_speed_min") ||
		    !strcmp(p->knobs[i].knob, "device/queue_depth"))
			assert_false(p->knobs[i].on_by_default);
	}
	p = sp_profiles_find(set, "lsi-megaraid-475");
	assert_string_equal(p->module_options[0].module, "megaraid_mbox");
	assert_string_equal(SP_VALUE_TEXT(&p->module_options[0].value), "128");
	assert_string_equal(SP_VALUE_TEXT(&p->module_options[0].driver_default), "128");
	assert_true(sp_value_equal(&p->module_options[0].value, &p->module_options[0].driver_default));
	assert_int_equal(p->chunk_max_bytes, 128 * 1024);
	assert_false(p->protected_write_cache);
	/* the documented strip list, its ends the chunk bounds */
	assert_int_equal(p->n_strip_sizes, 7);
	assert_int_equal(p->strip_sizes_bytes[0], 2 * 1024);
	assert_true(sp_profile_offers_strip(p, 64 * 1024));
	assert_false(sp_profile_offers_strip(p, 96 * 1024));
	p = sp_profiles_find(set, "dell-perc6i");
	assert_int_equal(p->spans_max, 8);
	assert_int_equal(p->span_disks_max, 32);
	assert_non_null(strstr(p->spans_source, "1.3.3.2"));
	p = sp_profiles_find(set, "md");
	assert_int_equal(sp_profile_level_rule(p, SP_LEVEL_0)->chunk, SP_CHUNK_SECTOR_MULTIPLE);
	assert_int_equal(sp_profile_level_rule(p, SP_LEVEL_5)->min_disks, 2);
	assert_int_equal(sp_profile_level_rule(p, SP_LEVEL_6)->max_disks, 256);
	assert_int_equal(p->default_strip_bytes, 512 * 1024);
	/* every shipped profile says where its levels come from, or that it was not found */
	for (size_t i = 0; i < sp_profiles_count(set); i++) {
		const struct sp_profile *q = sp_profiles_get(set, i);

		assert_true(!strcmp(q->name, "generic") || q->levels_source[0]);
	}
	sp_profiles_free(set);
}

static bool warns(const struct sp_profile *p, const char *code)
{
	for (size_t i = 0; i < p->n_warnings; i++)
		if (!strcmp(p->warnings[i].code, code))
			return true;
	return false;
}

/*
 * Today's controllers (issue 25): every limit names its source, and a
 * profile whose strip list was not found in the vendor's documents says
 * so, offers no list of its own and warns in every plan.
 */
static void test_current_controller_profiles(void **state)
{
	static const char *const names[] = {
		"dell-perc-h700", "dell-perc-h730p", "dell-perc-h740p", "dell-perc-h755",
		"dell-perc-h965i", "broadcom-mr9460", "broadcom-mr9560", "broadcom-mr9660", "hpe-mr416i",
		"hpe-sr-p408i-p816i", "hpe-sr932i-p", "microchip-smartraid-3100", "intel-vroc",
	};
	struct sp_profile_set *set = NULL;
	struct sp_error err = { 0 };
	const struct sp_profile *p;

	(void)state;
	assert_int_equal(sp_profiles_embedded(&set, &err), 0);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		bool documented;

		p = sp_profiles_find(set, names[i]);
		assert_non_null(p);
		assert_true(p->source[0] && p->levels_source[0] && p->strips_source[0]);
		assert_true(p->n_advice > 0);
		/* protected only where a healthy battery is fitted: barriers stay on */
		assert_false(p->protected_write_cache);
		documented = strncmp(p->strips_source, "not found", 9) != 0;
		assert_true(documented == (p->n_strip_sizes > 0));
		assert_true(documented != warns(p, "strips-not-documented"));
		if (!documented) {
			assert_int_equal(p->chunk_min_bytes, 4 * 1024);
			assert_int_equal(p->chunk_max_bytes, 64 * 1024 * 1024);
			assert_int_equal(p->default_strip_bytes, 0);
		}
		for (size_t r = 0; r < p->n_level_rules; r++)
			assert_true(p->level_rules[r].source[0]);
		if (p->spans_max || p->span_disks_max)
			assert_true(p->spans_source[0]);
	}
	p = sp_profiles_find(set, "dell-perc-h730p");
	assert_string_equal(p->strip_name, "stripe element");
	assert_int_equal(p->n_strip_sizes, 5);
	assert_true(sp_profile_offers_strip(p, 64 * 1024));
	assert_false(sp_profile_offers_strip(p, 32 * 1024));
	assert_int_equal(sp_profile_level_rule(p, SP_LEVEL_60)->min_disks, 8);
	assert_int_equal(sp_profile_level_rule(p, SP_LEVEL_60)->max_disks, 192);
	p = sp_profiles_find(set, "dell-perc-h965i");
	assert_string_equal(p->driver, "mpi3mr");
	assert_int_equal(p->spans_max, 8);
	assert_int_equal(p->span_disks_max, 32);
	p = sp_profiles_find(set, "microchip-smartraid-3100");
	assert_string_equal(p->strip_name, "stripe-unit size");
	p = sp_profiles_find(set, "intel-vroc");
	assert_true(p->is_md);
	assert_int_equal(p->levels_mask, sp_level_bit(SP_LEVEL_0) | sp_level_bit(SP_LEVEL_1) |
					 sp_level_bit(SP_LEVEL_5) | sp_level_bit(SP_LEVEL_10));
	assert_int_equal(sp_profile_level_rule(p, SP_LEVEL_1)->max_disks, 2);
	assert_true(sp_profile_level_rule(p, SP_LEVEL_10)->even_disks);
	assert_int_equal(sp_profile_level_rule(p, SP_LEVEL_10)->n_layouts, 1);
	sp_profiles_free(set);
}

static const char *parse_error(const char *json)
{
	static struct sp_error err;
	struct sp_profile *p = malloc(sizeof(*p));

	memset(&err, 0, sizeof(err));
	assert_true(sp_profile_parse(json, "x.json", p, &err) < 0);
	assert_int_equal(err.kind, SP_ERR_INVALID);
	free(p);
	return err.message;
}

#define HEAD "{\"name\": \"areca\", \"description\": \"d\", \"levels\": [5], \"chunk_min\": \"4K\", \"chunk_max\": \"1M\""

static void test_user_profile_strictness(void **state)
{
	struct sp_profile *p = malloc(sizeof(*p));
	struct sp_error err = { 0 };

	(void)state;
	assert_int_equal(sp_profile_parse(HEAD ", \"tuning\": [{\"target\": \"device\", \"knob\": "
					  "\"queue/nr_requests\", \"value\": \"256\", \"why\": \"w\"}]}",
					  "areca.json", p, &err), 0);
	assert_string_equal(p->name, "areca");
	assert_int_equal(p->n_knobs, 1);
	free(p);
	assert_non_null(strstr(parse_error(HEAD ", \"schedulr\": {}}"), "profile 'x.json': schedulr: unknown field"));
	assert_non_null(strstr(parse_error(HEAD ", \"tuning\": [{\"target\": \"device\", \"knob\": "
					   "\"queue/rotational\", \"value\": \"0\", \"why\": \"w\"}]}"),
			       "tuning[0].knob: 'queue/rotational' is not a knob stripeplan sets"));
	assert_non_null(strstr(parse_error(HEAD ", \"tuning\": [{\"target\": \"device\", \"knob\": "
					   "\"md/stripe_cache_size\", \"value\": \"99999\", \"why\": \"w\"}]}"),
			       "tuning[0].value: 99999 is out of the kernel's range for md/stripe_cache_size (17..32768 "
			       "entries; Linux 6.1, drivers/md/raid5.c raid5_set_cache_size()"));
	/* one spelling of a number, the one the kernel prints back: "0004096"
	 * would be written and never read back equal (issue 21, rule 7) */
	assert_non_null(strstr(parse_error(HEAD ", \"tuning\": [{\"target\": \"device\", \"knob\": "
					   "\"queue/read_ahead_kb\", \"value\": \"0004096\", \"why\": \"w\"}]}"),
			       "tuning[0].value: '0004096' has a leading zero: write 4096"));
	assert_non_null(strstr(parse_error(HEAD ", \"tuning\": [{\"target\": \"device\", \"knob\": "
					   "\"queue/read_ahead_kb\", \"value\": \"+4096\", \"why\": \"w\"}]}"),
			       "tuning[0].value: '+4096' is not a whole number"));
	assert_non_null(strstr(parse_error(HEAD ", \"tuning\": [{\"target\": \"device\", \"knob\": "
					   "\"queue/read_ahead_kb\", \"value\": 4096, \"why\": \"w\"}]}"),
			       "tuning[0].value must be a string"));
	assert_non_null(strstr(parse_error(HEAD ", \"tuning\": [{\"target\": \"device\", \"knob\": "
					   "\"queue/nr_requests\", \"value\": \"auto\", \"why\": \"w\"}]}"),
			       "tuning[0].value: 'auto' is not a whole number"));
	assert_non_null(strstr(parse_error(HEAD ", \"module_options\": [{\"module\": \"m\", "
					   "\"param\": \"p\", \"value\": \"0128\", \"why\": \"w\"}]}"),
			       "module_options[0].value: '0128' has a leading zero: write 128"));
	assert_non_null(strstr(parse_error(HEAD ", \"module_options\": [{\"module\": \"m\", "
					   "\"param\": \"p\", \"value\": \"Y\", \"why\": \"w\"}]}"),
			       "module_options[0].value: 'Y' must be a number or [a-z0-9,]"));
	assert_non_null(strstr(parse_error(HEAD ", \"scheduler\": {\"name\": \"anticipatory\", \"why\": \"w\"}}"),
			       "scheduler.name: 'anticipatory' is an unknown I/O scheduler"));
	assert_non_null(strstr(parse_error(HEAD ", \"module_options\": [{\"module\": \"x; rm -rf /\", "
					   "\"param\": \"p\", \"value\": \"1\", \"why\": \"w\"}]}"),
			       "module_options[0].module must be a module name ([a-z0-9_-])"));
	assert_non_null(strstr(parse_error(HEAD ", \"level_rules\": [{\"level\": 5, \"layouts\": [\"n2\"]}]}"),
			       "level_rules[0].layouts apply to raid10 only"));
	assert_non_null(strstr(parse_error(HEAD ", \"level_rules\": [{\"level\": 10, \"layouts\": [\"z9\"]}]}"),
			       "level_rules[0].layouts lists an unknown layout"));
	assert_non_null(strstr(parse_error(HEAD ", \"level_rules\": [{\"level\": 10, \"stripe\": \"near-copies\"}]}"),
			       "level_rules[0].stripe: \"near-copies\" needs the layouts"));
	assert_non_null(strstr(parse_error(HEAD ", \"level_rules\": [{\"level\": 1, \"min_disks\": 0}]}"),
			       "level_rules[0].min_disks: 0 is below 1"));
	assert_non_null(strstr(parse_error(HEAD ", \"level_rules\": [{\"level\": 1, \"mindisks\": 1}]}"),
			       "level_rules[0].mindisks: unknown field"));
	assert_non_null(strstr(parse_error("{\"name\": \"a\"}"), "profile 'x.json': description is missing"));
	/* levels are numbers, looked up as numbers */
	assert_non_null(strstr(parse_error("{\"name\": \"a\", \"description\": \"d\", \"levels\": [5, 7], "
					   "\"chunk_min\": \"4K\", \"chunk_max\": \"1M\"}"),
			       "levels lists an unknown RAID level (7)"));
	assert_non_null(strstr(parse_error(HEAD ", \"level_rules\": [{\"level\": -10}]}"),
			       "level_rules[0].level: -10 is an unknown RAID level"));
	/* the controller's documented limits: whole, ordered, each with a source */
	assert_non_null(strstr(parse_error(HEAD ", \"strips\": {\"sizes\": [\"4K\", \"1M\"]}}"),
			       "strips.source is missing"));
	assert_non_null(strstr(parse_error(HEAD ", \"strips\": {\"sizes\": [\"8K\", \"4K\", \"1M\"], "
					   "\"source\": \"s\"}}"),
			       "strips.sizes must list each size once, smallest first ('4K')"));
	assert_non_null(strstr(parse_error(HEAD ", \"strips\": {\"sizes\": [\"4K\", \"512K\"], "
					   "\"source\": \"s\"}}"),
			       "strips: sizes must run from chunk_min to chunk_max"));
	assert_non_null(strstr(parse_error(HEAD ", \"strips\": {\"sizes\": [\"4K\", \"1M\"], "
					   "\"default\": \"64K\", \"source\": \"s\"}}"),
			       "strips: default is not one of sizes"));
	assert_non_null(strstr(parse_error(HEAD ", \"strips\": {\"sizes\": [], \"source\": \"s\"}}"),
			       "strips.sizes must be a list of 1 to 24 sizes"));
	assert_non_null(strstr(parse_error(HEAD ", \"spans\": {\"min\": 4, \"max\": 3, \"source\": \"s\"}}"),
			       "spans: max is below min"));
	assert_non_null(strstr(parse_error(HEAD ", \"spans\": {\"max\": 1, \"source\": \"s\"}}"),
			       "spans.max: 1 is below 2"));
	assert_non_null(strstr(parse_error(HEAD ", \"level_rules\": [{\"level\": 5, \"chunk\": "
					   "\"sector-multiple\"}]}"),
			       "level_rules[0].chunk: \"sector-multiple\" is md raid0's rule only"));
	assert_non_null(strstr(parse_error(HEAD ", \"level_rules\": [{\"level\": 6, \"min_disks\": 4, "
					   "\"max_disks\": 3}]}"),
			       "level_rules[0].max_disks is below min_disks"));
	assert_non_null(strstr(parse_error("[1, 2"), "the JSON ends early"));
	assert_non_null(strstr(parse_error("[1, 2]"), "not a stripeplan controller profile (JSON error: the top level is not an object)"));
}

static void test_plan_json_round_trip(void **state)
{
	struct sp_profile_set *set = NULL;
	struct sp_error err = { 0 };
	struct sp_spec spec = { .controller = "md", .level = SP_LEVEL_5, .disks = 4, .chunk_bytes = 65536,
				.fs = SP_FS_EXT4, .mountpoint = "/srv/a b", .n_members = 1,
				.members = { "sdb" } };
	struct sp_facts facts = { .path = "/dev/md0", .kernel_name = "md0", .size_bytes = 10ULL << 30,
				  .logical_sector_bytes = 512, .physical_sector_bytes = 4096,
				  .optimal_io_bytes = 196608, .wwn = "naa.5000", .diskseq = 7 };
	struct sp_plan *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char *json, *again;

	(void)state;
	assert_int_equal(sp_profiles_embedded(&set, &err), 0);
	assert_int_equal(sp_parse_kernel("6.1", &spec.kernel, &err), 0);
	assert_int_equal(sp_plan_make(&spec, sp_profiles_find(set, "md"), &facts, a, &err), 0);
	json = sp_format_plan_json(a);
	assert_non_null(json);
	assert_int_equal(sp_plan_from_json(json, b, &err), 0);
	again = sp_format_plan_json(b);
	assert_string_equal(json, again); /* nothing lost or changed on the way */
	assert_int_equal(b->start_bytes, a->start_bytes);
	assert_string_equal(b->device.wwn, "naa.5000");
	assert_int_equal(b->device.diskseq, 7);
	assert_string_equal(b->mkfs_argv[b->n_mkfs_argv - 1], "/dev/md0p1");
	free(again);
	free(json);

	/* an md array's plan: table none, kernel geometry and sources survive */
	facts.md.present = true;
	snprintf(facts.md.level, sizeof(facts.md.level), "raid10");
	facts.md.raid_disks = 3;
	facts.md.chunk_bytes = 65536;
	facts.md.layout = 0x102;
	assert_int_equal(sp_md_member_add(&facts.md, &(struct sp_md_member){ .name = "sdb1",
									    .disk = "sdb" }),
			 0);
	snprintf(facts.md.uuid, sizeof(facts.md.uuid), "0a1b2c3d:4e5f6071:8293a4b5:c6d7e8f9");
	spec.omitted = SP_FIELD_LEVEL | SP_FIELD_DISKS | SP_FIELD_CHUNK | SP_FIELD_TABLE;
	spec.n_members = 0;
	sp_plan_release(a);
	assert_int_equal(sp_plan_make(&spec, sp_profiles_find(set, "md"), &facts, a, &err), 0);
	json = sp_format_plan_json(a);
	sp_plan_release(b);
	assert_int_equal(sp_plan_from_json(json, b, &err), 0);
	again = sp_format_plan_json(b);
	assert_string_equal(json, again);
	assert_int_equal(b->table, SP_TABLE_NONE);
	assert_int_equal(b->level_source, SP_SOURCE_KERNEL);
	assert_int_equal(b->layout.near_copies, 2);
	assert_string_equal(b->device.md.uuid, facts.md.uuid);
	assert_string_equal(b->members[0], "sdb");
	free(again);

	/* a hand-edited plan with a tuning path outside sysfs is refused */
	{
		char *evil = strdup(json), *p = strstr(evil, "\"/sys/block/md0/queue/read_ahead_kb\"");

		assert_non_null(p);
		memcpy(p + 1, "/etc/", 5);
		assert_true(sp_plan_from_json(evil, b, &err) < 0);
		assert_non_null(strstr(err.message, "is not a sysfs path"));
		free(evil);
	}
	assert_true(sp_plan_from_json("{\"format\": 1}", b, &err) < 0);
	assert_non_null(strstr(err.message, "plan.kernel is missing"));
	assert_true(sp_plan_from_json("{\"format\": 9}", b, &err) < 0);
	assert_non_null(strstr(err.message, "format 9"));
	free(json);
	sp_plan_release(a);
	sp_plan_release(b);
	sp_facts_release(&facts);
	free(a);
	free(b);
	sp_profiles_free(set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_embedded_profiles),
		cmocka_unit_test(test_current_controller_profiles),
		cmocka_unit_test(test_user_profile_strictness),
		cmocka_unit_test(test_plan_json_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
