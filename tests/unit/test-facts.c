/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device facts from files: the fixtures load with the values planning
 * tests rely on, and a bad file is refused with a message that names the
 * field, so a typo in a fact file can not silently become a default.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "inputs.h"
#include "stripeplan.h"

static void fixture_path(const char *name, char *buf, size_t len)
{
	const char *dir = getenv("FIXTURES");

	assert_non_null(dir); /* set by ctest; run the test through ctest */
	assert_true((size_t)snprintf(buf, len, "%s/facts/%s", dir, name) < len);
}

static void load_fixture(const char *name, struct sp_facts *f)
{
	struct sp_error err = { 0 };
	char path[SP_PATH_MAX];
	int r;

	fixture_path(name, path, sizeof(path));
	sp_facts_release(f);
	r = sp_facts_load_json(path, f, &err);
	if (r < 0)
		fail_msg("%s: %s", name, err.message);
}

/* Writes text to a temporary file and tries to load it as facts. */
static int load_text(const char *text, char *file, size_t len, struct sp_facts *f,
		     struct sp_error *err)
{
	int fd, r;

	assert_true(len > 32);
	snprintf(file, len, "/tmp/test-facts-XXXXXX");
	fd = mkstemp(file);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	r = sp_facts_load_json(file, f, err);
	unlink(file);
	return r;
}

static void expect_rejected(const char *text, const char *field, const char *needle)
{
	struct sp_facts f, untouched;
	struct sp_error err = { 0 };
	char file[64];

	memset(&f, 0xa5, sizeof(f));
	untouched = f;
	assert_true(load_text(text, file, sizeof(file), &f, &err) < 0);
	assert_true(err.code < 0);
	assert_int_equal(err.kind, SP_ERR_INVALID);
	if (!strstr(err.message, needle) || !strstr(err.message, file))
		fail_msg("message '%s' should name '%s' and the file", err.message, needle);
	/* the key at fault, where there is one ("facts": the file as a whole) */
	if (strcmp(field, "facts") && !strstr(err.message, field))
		fail_msg("message '%s' should name the key '%s'", err.message, field);
	/* out-parameters are written only on success */
	assert_memory_equal(&f, &untouched, sizeof(f));
}

static void test_p400_lun(void **state)
{
	struct sp_facts f = { 0 };

	(void)state;
	load_fixture("p400-lun.json", &f);
	assert_string_equal(f.path, "/dev/sdb");
	assert_string_equal(f.kernel_name, "sdb");
	assert_int_equal(f.size_bytes, 2576412314624ULL);
	assert_int_equal(f.logical_sector_bytes, 512);
	assert_int_equal(f.physical_sector_bytes, 512);
	assert_int_equal(f.optimal_io_bytes, 0);
	assert_int_equal(f.rotational, 1);
	assert_int_equal(f.read_only, 0);
	assert_string_equal(f.driver, "hpsa");
	assert_true(f.is_scsi);
	assert_false(f.is_partition);
	assert_false(f.offline);
}

static void test_md3(void **state)
{
	struct sp_facts f = { 0 };

	(void)state;
	load_fixture("md3.json", &f);
	assert_string_equal(f.kernel_name, "md3");
	assert_int_equal(f.size_bytes, 1350330220544ULL);
	assert_int_equal(f.min_io_bytes, 1048576);
	assert_int_equal(f.optimal_io_bytes, 9437184);
	assert_string_equal(f.driver, "");
	assert_false(f.is_scsi);
	sp_facts_release(&f);
}

/* The md object: what the probe reads from md/ and slaves/. */
static void test_md_kernel_geometry(void **state)
{
	struct sp_facts f = { 0 };

	(void)state;
	load_fixture("md-raid10-n2-3.json", &f);
	assert_true(f.md.present);
	assert_string_equal(f.md.level, "raid10");
	assert_int_equal(f.md.raid_disks, 3);
	assert_int_equal(f.md.chunk_bytes, 512 * 1024);
	assert_int_equal(f.md.layout, 0x102);
	assert_string_equal(f.md.sync_action, "idle");
	assert_int_equal(f.md.n_members, 3);
	assert_string_equal(f.md.members[2].name, "sdd");
	assert_string_equal(f.md.members[2].disk, "sdd");
	assert_string_equal(f.md.uuid, "0a1b2c3d:4e5f6071:8293a4b5:c6d7e8f9");
	load_fixture("md-partitions.json", &f);
	assert_string_equal(f.md.members[2].name, "sdb2");
	assert_string_equal(f.md.members[2].disk, "sdb");
	assert_false(f.md.members[0].has_queue_depth);
	load_fixture("md-degraded.json", &f);
	assert_int_equal(f.md.degraded, 1);
	assert_string_equal(f.md.sync_action, "recover");
	load_fixture("p400-lun.json", &f);
	assert_false(f.md.present);
	sp_facts_release(&f);
}

static void test_md_rejects(void **state)
{
	(void)state;
	expect_rejected("{\"path\":\"/dev/md0\",\"size_bytes\":4096,\"logical_sector_bytes\":512,"
			"\"physical_sector_bytes\":512,\"md\":{\"level\":\"raid5\",\"spare\":1}}",
			"spare", "md.spare: unknown field");
	expect_rejected("{\"path\":\"/dev/md0\",\"size_bytes\":4096,\"logical_sector_bytes\":512,"
			"\"physical_sector_bytes\":512,\"md\":{\"raid_disks\":3}}",
			"level", "md.level is missing");
	expect_rejected("{\"path\":\"/dev/md0\",\"size_bytes\":4096,\"logical_sector_bytes\":512,"
			"\"physical_sector_bytes\":512,\"md\":{\"level\":\"raid5\",\"raid_disks\":-1}}",
			"raid_disks", "md.raid_disks: -1 is below 0");
	expect_rejected("{\"path\":\"/dev/md0\",\"size_bytes\":4096,\"logical_sector_bytes\":512,"
			"\"physical_sector_bytes\":512,\"md\":{\"level\":\"raid5\","
			"\"members\":[{\"name\":\"../sdb\"}]}}",
			"name", "not allowed");
	expect_rejected("{\"path\":\"/dev/md0\",\"size_bytes\":4096,\"logical_sector_bytes\":512,"
			"\"physical_sector_bytes\":512,\"md\":{\"level\":\"raid5\","
			"\"members\":[{\"disk\":\"sdb\"}]}}",
			"members", "md.members[0].name is missing");
}

static void test_perc5e_lun(void **state)
{
	struct sp_facts f = { 0 };

	(void)state;
	load_fixture("perc5e-lun.json", &f);
	assert_string_equal(f.path, "/dev/sdc");
	assert_int_equal(f.size_bytes, 13999110307840ULL);
	assert_int_equal(f.size_bytes % 512, 0);
	assert_int_equal(f.optimal_io_bytes, 0);
	assert_string_equal(f.driver, "megaraid_sas");
}

/* The minimal file: kernel_name derived, the rest defaulted. */
static void test_lsi475_defaults(void **state)
{
	struct sp_facts f = { 0 };

	(void)state;
	load_fixture("lsi475.json", &f);
	assert_string_equal(f.path, "/dev/sda");
	assert_string_equal(f.kernel_name, "sda");
	assert_int_equal(f.size_bytes, 36420075520ULL);
	assert_int_equal(f.read_only, -1);
	assert_int_equal(f.alignment_offset_bytes, 0);
	assert_int_equal(f.diskseq, 0);
	assert_string_equal(f.wwn, "");
	assert_false(f.is_partition);
}

static void test_absurd_optio(void **state)
{
	struct sp_facts f = { 0 };

	(void)state;
	load_fixture("absurd-optio.json", &f);
	assert_string_equal(f.kernel_name, "sdd");
	/* 65535 sectors: loaded as is, so the planner can warn about it */
	assert_int_equal(f.optimal_io_bytes, 33553920);
}

static void test_4kn(void **state)
{
	struct sp_facts f = { 0 };

	(void)state;
	load_fixture("4kn.json", &f);
	assert_string_equal(f.path, "/dev/sde");
	assert_int_equal(f.logical_sector_bytes, 4096);
	assert_int_equal(f.physical_sector_bytes, 4096);
	assert_int_equal(f.size_bytes % 4096, 0);
}

static void test_derives_cciss_name(void **state)
{
	struct sp_error err = { 0 };
	struct sp_facts f = { 0 };
	char file[64];

	(void)state;
	assert_int_equal(load_text("{\"path\": \"/dev/cciss/c0d0\", \"size_bytes\": 1048576,"
				   " \"logical_sector_bytes\": 512,"
				   " \"physical_sector_bytes\": 4096}",
				   file, sizeof(file), &f, &err),
			 0);
	assert_string_equal(f.kernel_name, "cciss!c0d0");
	assert_int_equal(f.rotational, -1);
}

/* A "device" object copied from a plan loads: offline, and nulls. */
static void test_plan_device_object(void **state)
{
	struct sp_error err = { 0 };
	struct sp_facts f = { 0 };
	char file[64];

	(void)state;
	assert_int_equal(load_text("{\"path\": \"/dev/sdb\", \"kernel_name\": \"sdb\","
				   " \"offline\": true, \"size_bytes\": 1073741824,"
				   " \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512,"
				   " \"min_io_bytes\": 0, \"optimal_io_bytes\": 0,"
				   " \"alignment_offset_bytes\": 0, \"wwn\": null,"
				   " \"serial\": null, \"diskseq\": null}",
				   file, sizeof(file), &f, &err),
			 0);
	assert_true(f.offline);
	assert_string_equal(f.wwn, "");
	assert_int_equal(f.diskseq, 0);
}

/* A kernel name derived from the path is held to the rule a given one is:
 * it becomes a sysfs path and a udev match (found by fuzz-facts-json). */
static void test_rejects_derived_name(void **state)
{
	(void)state;
	expect_rejected("{\"path\": \"/dev/s d\\u0001b\", \"size_bytes\": 1048576,"
			" \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512}",
			"kernel_name", "kernel_name holds a character that is not allowed (0x20)");
}

/* The queue limits: read when there, unknown (0) when not, bounded by
 * what the kernel can hold, and written back only when known. */
static void test_queue_limits(void **state)
{
	struct sp_facts f = { 0 };
	struct sp_error err = { 0 };
	char file[64];

	(void)state;
	assert_int_equal(load_text("{\"path\": \"/dev/sdb\", \"size_bytes\": 1048576,"
				   " \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512,"
				   " \"max_hw_sectors_kib\": 256, \"tag_depth\": 64,"
				   " \"md\": {\"level\": \"raid1\", \"members\": [{\"name\": \"sdc\","
				   " \"max_hw_sectors_kib\": 512, \"tag_depth\": 31}]}}",
				   file, sizeof(file), &f, &err),
			 0);
	assert_int_equal(f.max_hw_sectors_kib, 256);
	assert_int_equal(f.tag_depth, 64);
	assert_int_equal(f.md.members[0].max_hw_sectors_kib, 512);
	assert_int_equal(f.md.members[0].tag_depth, 31);
	sp_facts_release(&f);
	memset(&f, 0, sizeof(f));
	/* a file from before: unknown */
	assert_int_equal(load_text("{\"path\": \"/dev/sdb\", \"size_bytes\": 1048576,"
				   " \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512}",
				   file, sizeof(file), &f, &err),
			 0);
	assert_int_equal(f.max_hw_sectors_kib, 0);
	assert_int_equal(f.tag_depth, 0);
	sp_facts_release(&f);
	expect_rejected("{\"path\": \"/dev/sdb\", \"size_bytes\": 1048576,"
			" \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512,"
			" \"tag_depth\": 10241}",
			"tag_depth", "10241 is above 10240");
	expect_rejected("{\"path\": \"/dev/sdb\", \"size_bytes\": 1048576,"
			" \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512,"
			" \"max_hw_sectors_kib\": 2147483648}",
			"max_hw_sectors_kib", "is above 2147483647");
}

static void test_rejects_unknown_field(void **state)
{
	(void)state;
	expect_rejected("{\"path\": \"/dev/sdb\", \"size_bytes\": 1048576,"
			" \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512,"
			" \"optimal_io_byte\": 65536}",
			"optimal_io_byte", "optimal_io_byte: unknown field");
}

static void test_rejects_missing_size(void **state)
{
	(void)state;
	expect_rejected("{\"path\": \"/dev/sdb\", \"logical_sector_bytes\": 512,"
			" \"physical_sector_bytes\": 512}",
			"size_bytes", "size_bytes is missing");
	expect_rejected("{\"path\": \"/dev/sdb\", \"size_bytes\": null,"
			" \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512}",
			"size_bytes", "size_bytes is missing");
}

static void test_rejects_wrong_types(void **state)
{
	(void)state;
	expect_rejected("{\"path\": \"/dev/sdb\", \"size_bytes\": \"1T\","
			" \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512}",
			"size_bytes", "size_bytes must be an integer");
	expect_rejected("{\"path\": \"/dev/sdb\", \"size_bytes\": 1048576.5,"
			" \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512}",
			"size_bytes", "must be an integer");
	expect_rejected("{\"path\": \"/dev/sdb\", \"size_bytes\": 1048576,"
			" \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512,"
			" \"is_scsi\": 1}",
			"is_scsi", "is_scsi must be true or false");
	expect_rejected("{\"path\": \"/dev/sdb\", \"size_bytes\": -512,"
			" \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512}",
			"size_bytes", "size_bytes: -512 is below 0");
	expect_rejected("{\"path\": 7, \"size_bytes\": 1048576,"
			" \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512}",
			"path", "must be a string");
}

static void test_rejects_bad_sectors(void **state)
{
	(void)state;
	expect_rejected("{\"path\": \"/dev/sdb\", \"size_bytes\": 1048576,"
			" \"logical_sector_bytes\": 520, \"physical_sector_bytes\": 4096}",
			"logical_sector_bytes", "logical_sector_bytes: 520 is not a power of two");
	expect_rejected("{\"path\": \"/dev/sdb\", \"size_bytes\": 1048576,"
			" \"logical_sector_bytes\": 4096, \"physical_sector_bytes\": 512}",
			"physical_sector_bytes", "physical_sector_bytes: 512 is smaller than logical_sector_bytes (4096)");
	expect_rejected("{\"path\": \"/dev/sdb\", \"size_bytes\": 1048576,"
			" \"logical_sector_bytes\": 131072, \"physical_sector_bytes\": 131072}",
			"logical_sector_bytes", "logical_sector_bytes: 131072 is above 65536");
	expect_rejected("{\"path\": \"/dev/sdb\", \"size_bytes\": 1000,"
			" \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512}",
			"size_bytes", "size_bytes: 1000 is not a positive multiple of 512");
}

static void test_rejects_bad_json(void **state)
{
	(void)state;
	expect_rejected("{\"path\": \"/dev/sdb\",", "facts", "the JSON ends early");
	expect_rejected("[1, 2]", "facts", "(JSON error: the top level is not an object)");
	expect_rejected("{\"path\": \"/dev/sdb\", \"size_bytes\": 1048576,"
			" \"logical_sector_bytes\": 512, \"physical_sector_bytes\": 512} x",
			"facts", "(JSON error: unexpected character)");
}

static void test_missing_file(void **state)
{
	struct sp_error err = { 0 };
	struct sp_facts f = { 0 };

	(void)state;
	assert_int_equal(sp_facts_load_json("/nonexistent/facts.json", &f, &err), -ENOENT);
	assert_int_equal(err.kind, SP_ERR_INVALID);
	assert_non_null(strstr(err.message, "'/nonexistent/facts.json'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_p400_lun),
		cmocka_unit_test(test_md3),
		cmocka_unit_test(test_md_kernel_geometry),
		cmocka_unit_test(test_md_rejects),
		cmocka_unit_test(test_perc5e_lun),
		cmocka_unit_test(test_lsi475_defaults),
		cmocka_unit_test(test_absurd_optio),
		cmocka_unit_test(test_4kn),
		cmocka_unit_test(test_derives_cciss_name),
		cmocka_unit_test(test_plan_device_object),
		cmocka_unit_test(test_rejects_derived_name),
		cmocka_unit_test(test_queue_limits),
		cmocka_unit_test(test_rejects_unknown_field),
		cmocka_unit_test(test_rejects_missing_size),
		cmocka_unit_test(test_rejects_wrong_types),
		cmocka_unit_test(test_rejects_bad_sectors),
		cmocka_unit_test(test_rejects_bad_json),
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
