/*
 * The controllers' own reports (--controller-report): storcli/perccli
 * "show all J" JSON and ssacli "show detail" text, each sample in
 * fixtures/reports/ and each field read from it made wrong in turn; and
 * the planner taking level, disks, spans and strip from a report, refusing
 * a flag, a device or an exported topology that says otherwise.
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

#include "stripeplan.h"
#include "array/report.h"
#include "schema/objects.h"

#define KiB 1024ULL

static char *slurp(const char *name)
{
	const char *dir = getenv("SRCDIR");
	char path[4096];
	FILE *f;
	char *buf = calloc(1, 1 << 20);
	size_t n;

	assert_non_null(dir);
	assert_non_null(buf);
	snprintf(path, sizeof(path), "%s/fixtures/reports/%s", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static struct sp_controller_report parse_ok(const char *text)
{
	struct sp_controller_report r;
	struct sp_error err = { 0 };

	memset(&r, 0, sizeof(r));
	if (sp_report_parse(text, strlen(text), &r, &err) < 0)
		fail_msg("unexpected refusal: %s", err.message);
	return r;
}

static void expect(const char *name, enum sp_report_kind kind, enum sp_level level,
		   unsigned disks, unsigned spans, uint64_t chunk, const char *drive,
		   const char *device)
{
	char *text = slurp(name);
	struct sp_controller_report r = parse_ok(text);

	assert_int_equal(r.kind, kind);
	assert_int_equal(r.level, level);
	assert_int_equal(r.disks, disks);
	assert_int_equal(r.spans, spans);
	assert_int_equal(r.chunk_bytes, chunk);
	assert_string_equal(r.drive, drive);
	assert_string_equal(r.device, device);
	free(text);
}

static void test_samples(void **state)
{
	(void)state;
	expect("storcli-raid5-vd1.json", SP_REPORT_STORCLI, SP_LEVEL_5, 4, 0, 256 * KiB, "VD 1",
	       "sdb");
	expect("perccli-raid60-vd0.json", SP_REPORT_STORCLI, SP_LEVEL_60, 12, 2, 128 * KiB,
	       "VD 0", "sdb");
	expect("ssacli-raid10-ld1.txt", SP_REPORT_SSACLI, SP_LEVEL_10, 4, 0, 256 * KiB,
	       "logical drive 1", "sdb");
	expect("ssacli-raid50-ld2.txt", SP_REPORT_SSACLI, SP_LEVEL_50, 8, 2, 128 * KiB,
	       "logical drive 2", "sdc");
	expect("ssacli-raid6-ld1.txt", SP_REPORT_SSACLI, SP_LEVEL_6, 6, 0, 64 * KiB,
	       "logical drive 1", "sdb");
}

/* text with the first `from` replaced by `to` (which must be there) */
static char *edited(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
	char *out = malloc(n);

	if (!at)
		fail_msg("'%s' is not in the sample", from);
	assert_non_null(out);
	snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return out;
}

struct bad {
	const char *from, *to, *message;
};

static void refuse_each(const char *sample, const struct bad *bad, size_t n)
{
	char *text = slurp(sample);

	for (size_t i = 0; i < n; i++) {
		char *t = edited(text, bad[i].from, bad[i].to);
		struct sp_controller_report r;
		struct sp_error err = { 0 };

		memset(&r, 0xa5, sizeof(r));
		if (sp_report_parse(t, strlen(t), &r, &err) == 0)
			fail_msg("%s: '%s' -> '%s' was taken", sample, bad[i].from, bad[i].to);
		assert_int_equal(err.kind, SP_ERR_INVALID);
		if (!strstr(err.message, bad[i].message))
			fail_msg("%s: '%s' -> '%s': '%s' does not say '%s'", sample, bad[i].from,
				 bad[i].to, err.message, bad[i].message);
		assert_int_equal(((unsigned char *)&r)[0], 0xa5); /* untouched */
		free(t);
	}
	free(text);
}

static void test_storcli_refused(void **state)
{
	static const struct bad bad[] = {
		{ "\"RAID5\"", "\"RAID00\"", "TYPE 'RAID00' is not a level" },
		{ "\"TYPE\"", "\"Type\"", "the drive's \"TYPE\" is missing" },
		{ "\"256 KB\"", "\"256 kB\"", "\"Strip Size\": '256 kB' is not a size" },
		{ "\"256 KB\"", "\"256KB\"", "is not a size" },
		{ "\"256 KB\"", "\"1.500 MB\"", "is not a size" },
		{ "\"256 KB\"", "\"2048 MB\"", "is no strip size (1 byte .. 1 GiB)" },
		{ "\"256 KB\"", "\"0 KB\"", "is no strip size" },
		{ "\"256 KB\"", "\"9999999999 KB\"", "is not a size" },
		{ "\"256 KB\"", "256", "\"Strip Size\" is missing" },
		{ "\"Strip Size\"", "\"Strip\"", "\"Strip Size\" is missing" },
		{ "\"Span Depth\" : 1", "\"Span Depth\" : 0", "\"Span Depth\" is 0, not a count" },
		{ "\"Span Depth\" : 1", "\"Span Depth\" : 2", "\"Span Depth\" 2 does not fit TYPE raid5" },
		{ "\"Span Depth\" : 1", "\"Span Depth\" : -1", "not a count of 1 to 1920" },
		{ "\"Span Depth\" : 1", "\"Span Depth\" : \"1\"", "not a count" },
		{ "\"Span Depth\" : 1", "\"Span Depth\" : 1.5", "not a count" },
		{ "Per Span\" : 4", "Per Span\" : 99999999999", "not a count of 1 to 1920" },
		{ "Per Span\" : 4", "Per Span\" : 5", "\"PDs for VD 1\" lists 4 drives, but" },
		{ "\"Number of Drives", "\"Drives", "Number of Drives Per Span is missing" },
		{ "\"Success\"", "\"Failure\"", "did not succeed (Status 'Failure')" },
		{ "\"/dev/sdb\"", "\"sdb\"", "'sdb' is not a block device" },
		{ "\"/dev/sdb\"", "\"/dev/../sdb\"", "is not a block device" },
		{ "\"6d0946602a1b3c002e4f5a6b7c8d9e0f\"", "\"6d0946602a1b3c002e4f5a6b7c8d9e0\"",
		  "\"SCSI NAA Id\": '6d0946602a1b3c002e4f5a6b7c8d9e0' is not an NAA identifier" },
		{ "\"6d0946602a1b3c002e4f5a6b7c8d9e0f\"", "\"5d0946602a1b3c002e4f5a6b7c8d9e0f\"",
		  "is not an NAA identifier" },
		{ "\"6d0946602a1b3c002e4f5a6b7c8d9e0f\"", "\"naa.6d0946602a1b3c002e4f5a6b7c8d9e0f\"",
		  "is not an NAA identifier" },
		{ "\"6d0946602a1b3c002e4f5a6b7c8d9e0f\"", "\"6d0946602a1b3c002e4f5a6b7c8d9e0g\"",
		  "is not an NAA identifier" },
		{ "\"6d0946602a1b3c002e4f5a6b7c8d9e0f\"", "\"\"", "is not an NAA identifier" },
		{ "\"/c0/v1\"", "\"/c0/v+1\"", "the virtual drive's table (\"/cX/vY\") is missing" },
		{ "\"/c0/v1\" : [", "\"/c0/v2\" : [{}], \"/c0/v1\" : [", "more than one virtual drive" },
		{ "\"VD1 Properties\"", "\"VD2 Properties\"", "VD1 Properties is missing" },
		{ "\"Response Data\"", "\"Response\"", "\"Response Data\" is missing" },
		{ "\"Controllers\"", "\"Controller\"", "\"Controllers\" (one controller) is missing" },
		{ "\"Cac\" : \"-\",", "\"Cac\" : \"-\"", "not one JSON object" },
		{ "}\n]\n}", "}\n]\n", "not one JSON object (it ends early)" },
		{ "}\n]\n}", "}\n]\n}\n{}", "not one JSON object (" },
	};

	(void)state;
	refuse_each("storcli-raid5-vd1.json", bad, sizeof(bad) / sizeof(bad[0]));
}

static void test_ssacli_refused(void **state)
{
	static const struct bad bad10[] = {
		{ "Fault Tolerance: 1+0", "Fault Tolerance: 1+0 (ADM)", "'Fault Tolerance: 1+0 (ADM)' is not a level" },
		{ "Fault Tolerance: 1+0", "Fault Tolerance: RAID 4", "is not a level" },
		{ "Fault Tolerance: 1+0", "Fault-Tolerance: 1+0", "'Fault Tolerance' is missing" },
		{ "Strip Size: 256 KB", "Strip: 256 KB", "'Strip Size' is missing" },
		{ "Strip Size: 256 KB", "Strip Size: 256KB", "'Strip Size': '256KB' is not a size" },
		{ "Strip Size: 256 KB", "Strip Size: 256 KB\nStrip Size: 256 KB", "'Strip Size' is given twice" },
		{ "Full Stripe Size: 512 KB", "Full Stripe Size: 768 KB", "it lists 4 physical drives, but a full stripe of 3 strips at fault tolerance 1+0 makes 6" },
		{ "Full Stripe Size: 512 KB", "Full Stripe Size: 500 KB", "is not 1 to 1920 strips" },
		{ "Full Stripe Size: 512 KB", "Full Stripe Size: 1024 MB", "is not 1 to 1920 strips" },
		{ "Full Stripe Size: 512 KB", "Full Stripe Size: 256 MB", "a full stripe of 1024 strips at fault tolerance 1+0 makes 2048 drives, more than 1920" },
		{ "Disk Name: /dev/sdb", "Disk Name: sdb", "'Disk Name': 'sdb' is not a block device" },
		{ "Disk Name: /dev/sdb", "Disk Name: /dev/sdb\nDisk Name: /dev/sdc", "'Disk Name' is given twice" },
		{ "Unique Identifier: 600508B1001C7A2B3C4D5E6F70819203", "Unique Identifier: 600508B1001C7A2B3C4D5E6F70819203\nUnique Identifier: 600508B1001C7A2B3C4D5E6F70819203", "'Unique Identifier' is given twice" },
		{ "Unique Identifier: 600508B1001C7A2B3C4D5E6F70819203", "Unique Identifier: 600508B1001C7A2B3C4D5E6F7081920", "'Unique Identifier': '600508B1001C7A2B3C4D5E6F7081920' is not an NAA identifier" },
		{ "Unique Identifier: 600508B1001C7A2B3C4D5E6F70819203", "Unique Identifier: 600508B1001C7A2B3C4D5E6F70819203 (LD)", "is not an NAA identifier" },
		{ "Logical Drive: 1", "Logical Drive: 1\nLogical Drive: 2", "more than one logical drive" },
		{ "Logical Drive: 1", "Logical Drive 1", "'Logical Drive' is missing" },
		{ "Logical Drive: 1", "Logical Drive: 1234567890123", "'Logical Drive: 1234567890123...' is too long" },
	};
	static const struct bad bad50[] = {
		{ "Number of Parity Groups: 2", "Number of Parity Groups: 4", "does not divide into 4 parity groups" },
		{ "Number of Parity Groups: 2", "Number of Parity Groups: 3", "it lists 8 physical drives, but a full stripe of 6 strips at fault tolerance RAID 50 makes 9" },
		{ "Number of Parity Groups: 2", "Number of Parity Groups: 0", "0 is out of range (1..1920)" },
		{ "Number of Parity Groups: 2", "Number of Parity Groups: two", "'two' is not a whole number" },
	};
	static const struct bad bad6[] = {
		{ "Full Stripe Size: 256 KB", "Full Stripe: 256 KB", "'Full Stripe Size' is missing" },
	};
	char *text = slurp("ssacli-raid50-ld2.txt"), *t, *u, *v, *w, *line;
	struct sp_controller_report r;
	struct sp_error err = { 0 };

	(void)state;
	refuse_each("ssacli-raid10-ld1.txt", bad10, sizeof(bad10) / sizeof(bad10[0]));
	refuse_each("ssacli-raid50-ld2.txt", bad50, sizeof(bad50) / sizeof(bad50[0]));
	refuse_each("ssacli-raid6-ld1.txt", bad6, sizeof(bad6) / sizeof(bad6[0]));
	/* RAID 50 with its groups told neither way */
	t = edited(text, "Number of Parity Groups: 2\n", "");
	r = parse_ok(t); /* the "Parity Group N:" headings still count them */
	assert_int_equal(r.spans, 2);
	u = edited(t, "Parity Group 0:", "Group 0:");
	v = edited(u, "Parity Group 1:", "Group 1:");
	assert_int_equal(sp_report_parse(v, strlen(v), &r, &err), -EINVAL);
	assert_non_null(strstr(err.message, "'Number of Parity Groups' is missing"));
	/* without the full stripe, the drives listed must split into the groups */
	{
		char *a = edited(text, "Full Stripe Size: 768 KB\n", "");
		char *b = edited(a, "Number of Parity Groups: 2", "Number of Parity Groups: 3");

		assert_int_equal(parse_ok(a).disks, 8);
		assert_int_equal(sp_report_parse(b, strlen(b), &r, &err), -EINVAL);
		assert_non_null(strstr(err.message, "lists 8 physical drives, which do not split into 3 parity groups"));
		free(b);
		free(a);
	}
	/* a line longer than any ssacli writes */
	line = calloc(1, 8192);
	assert_non_null(line);
	memset(line, 'x', 5000);
	w = edited(text, "Drive Type: Data", line);
	assert_int_equal(sp_report_parse(w, strlen(w), &r, &err), -E2BIG);
	assert_non_null(strstr(err.message, "a line of more than 4095 bytes"));
	free(line);
	free(w);
	free(v);
	free(u);
	free(t);
	free(text);
}

/*
 * A report is tied to its disk by the NAA identifier it gives and the
 * disk's wwid carries (naa.<id>, lowercase), else by the device name it
 * gives; the identifier decides when both are there.
 */
static void test_naa_and_disk(void **state)
{
	char *t = slurp("ssacli-raid10-ld1.txt"), *j = slurp("storcli-raid5-vd1.json"), *u;
	struct sp_controller_report r = parse_ok(t), s = parse_ok(j);
	struct sp_error err = { 0 };
	char naa[SP_REPORT_NAA_MAX];

	(void)state;
	assert_string_equal(r.naa_id, "600508b1001c7a2b3c4d5e6f70819203");
	assert_string_equal(s.naa_id, "6d0946602a1b3c002e4f5a6b7c8d9e0f");
	assert_true(sp_report_describes(&r, "naa.600508b1001c7a2b3c4d5e6f70819203", "sdx"));
	assert_false(sp_report_describes(&r, "naa.600508b1001c7a2b3c4d5e6f70819204", "sdb"));
	assert_true(sp_report_describes(&r, "", "sdb"));       /* no wwid: by name */
	assert_true(sp_report_describes(&r, "t10.ATA foo", "sdb"));
	assert_false(sp_report_describes(&r, "", "sdc"));
	assert_true(sp_report_describes(&s, "naa.6D0946602A1B3C002E4F5A6B7C8D9E0F", "sdq"));
	/* neither an identifier nor a name: of no disk */
	u = edited(t, "Unique Identifier: 600508B1001C7A2B3C4D5E6F70819203\n", "");
	free(t);
	t = edited(u, "Disk Name: /dev/sdb\n", "");
	r = parse_ok(t);
	assert_string_equal(r.naa_id, "");
	assert_string_equal(r.device, "");
	assert_false(sp_report_describes(&r, "naa.600508b1001c7a2b3c4d5e6f70819203", "sdb"));
	/* the NAA formats: 16 digits of types 2, 3, 5; 32 of type 6 */
	assert_int_equal(sp_report_naa_id("5000C500A1B2C3D4", "f", naa, &err), 0);
	assert_string_equal(naa, "5000c500a1b2c3d4");
	assert_int_equal(sp_report_naa_id("6000C500A1B2C3D4", "f", naa, &err), -EINVAL);
	assert_int_equal(sp_report_naa_id("1000C500A1B2C3D4", "f", naa, &err), -EINVAL);
	assert_int_equal(sp_report_naa_id("", "f", naa, &err), -EINVAL);
	free(u);
	free(t);
	free(j);
}

static void test_bounds(void **state)
{
	struct sp_controller_report r;
	struct sp_error err = { 0 };
	size_t big = SP_REPORT_MAX_BYTES + 1;
	char *text = malloc(big + 1), *deep;

	(void)state;
	assert_non_null(text);
	memset(text, ' ', big);
	text[big] = '\0';
	assert_int_equal(sp_report_parse(text, big, &r, &err), -EFBIG);
	assert_non_null(strstr(err.message, "more than a controller's report"));
	assert_int_equal(sp_report_parse(text, 100, &r, &err), -ENODATA);
	assert_non_null(strstr(err.message, "it is empty"));
	/* nesting past the tokener's bound is refused, not recursed into */
	deep = text;
	for (size_t i = 0; i < 40; i++)
		memcpy(deep + i * 6, "{\"a\":", 5), deep[i * 6 + 5] = ' ';
	deep[240] = '\0';
	assert_int_equal(sp_report_parse(deep, strlen(deep), &r, &err), -EINVAL);
	assert_non_null(strstr(err.message, "not one JSON object"));
	/* 1921 physical drives listed */
	{
		size_t n = 0, cap = 1 << 20;
		char *many = malloc(cap);

		assert_non_null(many);
		n += (size_t)snprintf(many, cap, "Logical Drive: 1\nFault Tolerance: 0\nStrip Size: 64 KB\n");
		for (unsigned i = 0; i < 1921; i++)
			n += (size_t)snprintf(many + n, cap - n, " physicaldrive 1I:1:%u (port 1I)\n", i);
		assert_int_equal(sp_report_parse(many, n, &r, &err), -E2BIG);
		assert_non_null(strstr(err.message, "more than 1920 physical drives"));
		free(many);
	}
	free(text);
}

/* ------------------------------------------------------------ planning */

#include "embedded-profiles.h"

struct req {
	const char *sample;
	unsigned omitted; /* SP_FIELD_*: flags not given */
	const char *level;
	unsigned disks;
	uint64_t chunk, min_io, optimal_io;
	const char *path;
	const char *wwn;
	bool md;
};

static int plan_with(const struct req *q, struct sp_plan *plan, struct sp_error *err)
{
	struct sp_spec spec = { 0 };
	struct sp_facts facts = { 0 };
	char *text = slurp(q->sample);
	int r;

	snprintf(spec.controller, sizeof(spec.controller), "generic");
	assert_int_equal(sp_parse_kernel("6.1.0", &spec.kernel, err), 0);
	if (q->level)
		assert_int_equal(sp_parse_level(q->level, &spec.level, err), 0);
	spec.disks = q->disks;
	spec.chunk_bytes = q->chunk;
	spec.omitted = q->omitted;
	snprintf(spec.mountpoint, sizeof(spec.mountpoint), "/data");
	assert_int_equal(sp_report_parse(text, strlen(text), &spec.report, err), 0);
	spec.have_report = true;
	snprintf(spec.report_name, sizeof(spec.report_name), "storcli report %s (%s)", q->sample,
		 spec.report.drive);
	snprintf(facts.path, sizeof(facts.path), "%s", q->path ? q->path : "/dev/sdb");
	snprintf(facts.kernel_name, sizeof(facts.kernel_name), "%s", facts.path + 5);
	facts.size_bytes = 4ULL << 40;
	facts.logical_sector_bytes = facts.physical_sector_bytes = 512;
	facts.min_io_bytes = q->min_io;
	facts.optimal_io_bytes = q->optimal_io;
	facts.is_scsi = true;
	facts.md.present = q->md;
	snprintf(facts.wwn, sizeof(facts.wwn), "%s", q->wwn ? q->wwn : "");
	free(text);
	r = sp_plan_make(&spec, sp_profiles_find(profiles, "generic"), &facts, plan, err);
	return r;
}

#define ALL (SP_FIELD_LEVEL | SP_FIELD_DISKS | SP_FIELD_CHUNK)

static void test_plan_takes_report(void **state)
{
	struct sp_plan *p = calloc(1, sizeof(*p)), *back = calloc(1, sizeof(*back));
	struct sp_error err = { 0 };
	const struct req q = { .sample = "perccli-raid60-vd0.json", .omitted = ALL };
	json_object *o;

	(void)state;
	assert_non_null(p);
	assert_non_null(back);
	if (plan_with(&q, p, &err) < 0)
		fail_msg("%s", err.message);
	assert_int_equal(p->level, SP_LEVEL_60);
	assert_int_equal(p->disks, 12);
	assert_int_equal(p->spans, 2);
	assert_int_equal(p->data_disks, 8);
	assert_int_equal(p->chunk_bytes, 128 * KiB);
	assert_int_equal(p->stripe_width_bytes, 1024 * KiB);
	assert_int_equal(p->level_source, SP_SOURCE_REPORT);
	assert_int_equal(p->disks_source, SP_SOURCE_REPORT);
	assert_int_equal(p->chunk_source, SP_SOURCE_REPORT);
	assert_string_equal(p->geometry_report, "storcli report perccli-raid60-vd0.json (VD 0)");
	/* the plan file keeps the source and reads back the same */
	o = sp_plan_to_json(p);
	assert_non_null(o);
	if (sp_plan_from_json(json_object_to_json_string(o), back, &err) < 0)
		fail_msg("%s", err.message);
	assert_int_equal(back->chunk_source, SP_SOURCE_REPORT);
	assert_string_equal(back->geometry_report, p->geometry_report);
	json_object_put(o);
	sp_plan_release(back);
	sp_plan_release(p);
	free(back);
	free(p);
}

static void refused(const struct req *q, const char *message)
{
	struct sp_plan *p = calloc(1, sizeof(*p));
	struct sp_error err = { 0 };

	assert_non_null(p);
	if (plan_with(q, p, &err) == 0)
		fail_msg("planned: %s", q->sample);
	assert_int_equal(err.kind, SP_ERR_INVALID);
	if (!strstr(err.message, message))
		fail_msg("'%s' does not say '%s'", err.message, message);
	sp_plan_release(p);
	free(p);
}

static void test_plan_refuses(void **state)
{
	const char *s = "storcli-raid5-vd1.json";
	const struct req agree = { .sample = s, .level = "5", .disks = 4, .chunk = 256 * KiB };
	struct sp_plan *p = calloc(1, sizeof(*p));
	struct sp_error err = { 0 };

	(void)state;
	assert_non_null(p);
	/* flags that agree are taken, and the values still say where they came from */
	assert_int_equal(plan_with(&agree, p, &err), 0);
	assert_int_equal(p->chunk_source, SP_SOURCE_REPORT);
	sp_plan_release(p);
	/* what the device exports agrees too */
	{
		const struct req q = { .sample = s, .omitted = ALL, .min_io = 256 * KiB, .optimal_io = 768 * KiB };

		assert_int_equal(plan_with(&q, p, &err), 0);
		assert_int_equal(p->chunk_bytes, 256 * KiB);
		sp_plan_release(p);
	}
	free(p);
	refused(&(struct req){ .sample = s, .omitted = SP_FIELD_DISKS | SP_FIELD_CHUNK, .level = "6" },
		"level: --level 6, but storcli report storcli-raid5-vd1.json (VD 1) says raid5");
	refused(&(struct req){ .sample = s, .omitted = SP_FIELD_LEVEL | SP_FIELD_CHUNK, .disks = 5 },
		"disks: --disks 5, but storcli report storcli-raid5-vd1.json (VD 1) says 4 disks");
	refused(&(struct req){ .sample = s, .omitted = SP_FIELD_LEVEL | SP_FIELD_DISKS, .chunk = 64 * KiB },
		"chunk: --chunk 64K, but storcli report storcli-raid5-vd1.json (VD 1) says a 256 KiB strip");
	refused(&(struct req){ .sample = s, .omitted = ALL, .path = "/dev/sdc" },
		"device: storcli report storcli-raid5-vd1.json (VD 1) is of /dev/sdb, not /dev/sdc");
	refused(&(struct req){ .sample = s, .omitted = ALL, .min_io = 64 * KiB, .optimal_io = 192 * KiB },
		"chunk: storcli report storcli-raid5-vd1.json (VD 1) says a 256 KiB strip, but /dev/sdb exports 64 KiB");
	refused(&(struct req){ .sample = s, .omitted = ALL, .min_io = 256 * KiB, .optimal_io = 1024 * KiB },
		"says 4 disks, 3 of data, but /dev/sdb exports a full stripe of 4 strips");
	refused(&(struct req){ .sample = s, .omitted = ALL, .md = true }, "is an md array, whose geometry the kernel tells");
	/* the NAA id decides when the disk has an naa. wwid: the name may be another boot's */
	refused(&(struct req){ .sample = s, .omitted = ALL, .wwn = "naa.6d0946602a1b3c002e4f5a6b7c8d9e00" },
		"device: storcli report storcli-raid5-vd1.json (VD 1) is of the drive with NAA id "
		"6d0946602a1b3c002e4f5a6b7c8d9e0f, but /dev/sdb's wwid is "
		"naa.6d0946602a1b3c002e4f5a6b7c8d9e00");
	p = calloc(1, sizeof(*p));
	assert_non_null(p);
	assert_int_equal(plan_with(&(struct req){ .sample = s, .omitted = ALL, .path = "/dev/sdc",
						  .wwn = "naa.6D0946602A1B3C002E4F5A6B7C8D9E0F" },
				   p, &err),
			 0);
	sp_plan_release(p);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_storcli_refused),
		cmocka_unit_test(test_ssacli_refused),
		cmocka_unit_test(test_naa_and_disk),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_plan_takes_report),
		cmocka_unit_test(test_plan_refuses),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
