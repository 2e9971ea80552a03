/* The stack stage (planner/plan/stack.c): LUKS2 and LVM between the
 * partition and the filesystem, each layer on a full stripe; the names as
 * LVM and device-mapper take them; --stack parsed; the plan file's
 * "stack" object read, written and replanned. */
#include <errno.h>
#include <inttypes.h>
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

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)

#include "embedded-profiles.h"

struct req {
	const char *controller, *level, *stack, *path;
	const char *vg, *lv, *luks;
	unsigned disks, sector, physical;
	uint64_t chunk, size;
	enum sp_table table;
	bool whole; /* --table none */
};

static int make(const struct req *q, struct sp_plan *plan, struct sp_error *err)
{
	struct sp_spec spec = { 0 };
	struct sp_facts facts = { 0 };
	const struct sp_profile *profile = sp_profiles_find(profiles, q->controller);
	int r;

	assert_non_null(profile);
	snprintf(spec.controller, sizeof(spec.controller), "%s", q->controller);
	assert_int_equal(sp_parse_level(q->level, &spec.level, NULL), 0);
	assert_int_equal(sp_parse_kernel("6.1.0", &spec.kernel, NULL), 0);
	spec.disks = q->disks;
	spec.chunk_bytes = q->chunk;
	spec.fs = SP_FS_XFS;
	spec.table = q->whole ? SP_TABLE_NONE : SP_TABLE_GPT;
	snprintf(spec.mountpoint, sizeof(spec.mountpoint), "/data");
	snprintf(spec.vg_name, sizeof(spec.vg_name), "%s", q->vg ? q->vg : "");
	snprintf(spec.lv_name, sizeof(spec.lv_name), "%s", q->lv ? q->lv : "");
	snprintf(spec.luks_name, sizeof(spec.luks_name), "%s", q->luks ? q->luks : "");
	if (q->stack) {
		r = sp_parse_stack(q->stack, spec.layers, &spec.n_layers, err);
		if (r < 0)
			return r;
	}
	snprintf(facts.path, sizeof(facts.path), "%s", q->path ? q->path : "/dev/sdb");
	assert_int_equal(sp_kernel_name_from_path(facts.path, facts.kernel_name,
						  sizeof(facts.kernel_name), NULL), 0);
	facts.size_bytes = q->size ? q->size : 100 * GiB;
	facts.logical_sector_bytes = q->sector ? q->sector : 512;
	facts.physical_sector_bytes = q->physical ? q->physical : facts.logical_sector_bytes;
	sp_plan_release(plan);
	return sp_plan_make(&spec, profile, &facts, plan, err);
}

/* What holds for every stack: each layer on a full stripe, the
 * filesystem's geometry the array's, mkfs on the top of the stack. */
static struct sp_plan *plan_ok(const struct req *q)
{
	static struct sp_plan plan;
	struct sp_error err = { 0 };
	uint64_t stripe, at;

	if (make(q, &plan, &err) < 0)
		fail_msg("unexpected planner error: %s", err.message);
	stripe = plan.stripe_width_bytes ? plan.stripe_width_bytes : 1;
	at = plan.start_bytes;
	for (size_t i = 0; i < plan.n_layers; i++) {
		if (plan.layers[i] == SP_LAYER_LUKS) {
			assert_int_equal((at + plan.luks.offset_bytes) % stripe, 0);
			assert_true(plan.luks.offset_bytes >= 16 * MiB);
			assert_int_equal(plan.luks.offset_bytes % 4096, 0);
			at += plan.luks.offset_bytes;
		} else {
			assert_int_equal((at + plan.lvm.pe_start_bytes) % stripe, 0);
			assert_int_equal(plan.lvm.extent_bytes % stripe, 0);
			assert_true(plan.lvm.extent_bytes >= 4 * MiB);
			/* lvm2's vg_check_new_extent_size */
			assert_true(sp_is_power_of_two(plan.lvm.extent_bytes) ||
				    plan.lvm.extent_bytes % (128 * KiB) == 0);
			assert_int_equal(plan.lvm.size_bytes,
					 plan.lvm.extents * plan.lvm.extent_bytes);
			at += plan.lvm.pe_start_bytes;
		}
	}
	assert_int_equal(plan.start_bytes + plan.fs_offset_bytes, at);
	/* lvm2 keeps an LV's read-ahead in whole 4 KiB pages */
	assert_int_equal(plan.lvm.read_ahead_sectors % 8, 0);
	if (!q->whole)
		assert_int_equal(plan.fs_size_bytes % stripe, 0);
	assert_true(plan.fs_offset_bytes + plan.fs_size_bytes <= plan.size_bytes);
	assert_string_equal(plan.mkfs_argv[plan.n_mkfs_argv - 1], plan.fs_path);
	if (plan.stripe_width_bytes) {
		assert_int_equal(plan.xfs_su_bytes, plan.chunk_bytes);
		assert_int_equal(plan.xfs_sw, plan.data_disks);
	}
	return &plan;
}

/* The case: RAID5 4 x 64 KiB, a 192 KiB stripe, not a power of two. */
static void test_luks_lvm_on_192k(void **state)
{
	struct req q = { .controller = "dell-perc5e", .level = "5", .disks = 4, .chunk = 64 * KiB,
			 .stack = "luks,lvm" };
	struct sp_plan *p = plan_ok(&q);

	(void)state;
	assert_int_equal(p->start_bytes, 3 * MiB);
	/* 16 MiB is 85.33 stripes: the next whole one is 86 */
	assert_int_equal(p->luks.offset_bytes, 86 * 192 * KiB);
	assert_int_equal(p->luks.offset_bytes / 512, 33024);
	assert_int_equal(p->luks.sector_bytes, 512);
	assert_string_equal(p->luks.name, "sdb1_crypt");
	assert_string_equal(p->luks.below, "/dev/sdb1");
	assert_string_equal(p->luks.path, "/dev/mapper/sdb1_crypt");
	/* lcm(192 KiB, 1 MiB) = 3 MiB; 6 MiB is the least multiple >= 4 MiB */
	assert_int_equal(p->lvm.data_alignment_bytes, 3 * MiB);
	assert_int_equal(p->lvm.pe_start_bytes, 3 * MiB);
	assert_int_equal(p->lvm.extent_bytes, 6 * MiB);
	assert_string_equal(p->lvm.below, "/dev/mapper/sdb1_crypt");
	assert_string_equal(p->lvm.vg, "vg_sdb");
	assert_string_equal(p->lvm.lv, "data");
	assert_string_equal(p->fs_path, "/dev/vg_sdb/data");
	assert_int_equal(p->lvm.extents, (p->luks.size_bytes - 3 * MiB) / (6 * MiB));
	assert_int_equal(p->fs_offset_bytes, 86 * 192 * KiB + 3 * MiB);
	/* the LV on top reads ahead as the profile's sdb does: 4096 KiB */
	assert_int_equal(p->lvm.read_ahead_sectors, 8192);
}

static bool has_warning(const struct sp_plan *p, const char *code)
{
	for (size_t i = 0; i < p->n_warnings; i++)
		if (!strcmp(p->warnings[i].code, code))
			return true;
	return false;
}

static const char *warning_text(const struct sp_plan *p, const char *code)
{
	for (size_t i = 0; i < p->n_warnings; i++)
		if (!strcmp(p->warnings[i].code, code))
			return p->warnings[i].message;
	return "";
}

/* Every LV takes the device's read-ahead; a LUKS2 mapping on top is
 * neither tuned nor checked, and the plan says where its read-ahead comes
 * from and that an open one keeps its own; a plain partition has no such
 * warning. */
static void test_read_ahead_on_top(void **state)
{
	struct req q = { .controller = "dell-perc5e", .level = "5", .disks = 4, .chunk = 64 * KiB,
			 .stack = "lvm" };
	struct sp_plan *p = plan_ok(&q);

	(void)state;
	assert_int_equal(p->lvm.read_ahead_sectors, 8192);
	assert_false(has_warning(p, "read-ahead-not-on-top"));
	/* under a LUKS2 mapping the LV has it too: cryptsetup opens the
	 * mapping with the read-ahead of the device below it */
	q.stack = "lvm,luks";
	p = plan_ok(&q);
	assert_int_equal(p->lvm.read_ahead_sectors, 8192);
	assert_true(has_warning(p, "read-ahead-not-on-top"));
	assert_non_null(strstr(warning_text(p, "read-ahead-not-on-top"),
			       "the LV's planned 4096 KiB (lvcreate -r); a mapping opened before keeps "
			       "its own until it is opened again"));
	/* apply tunes the disk before it opens the mapping: no "not in
	 * apply's first run" any more */
	q.stack = "luks";
	p = plan_ok(&q);
	assert_non_null(strstr(warning_text(p, "read-ahead-not-on-top"),
			       "the planned 4096 KiB (the tuning sets it first, in apply and at "
			       "boot); a mapping opened before keeps its own until it is opened again"));
	assert_null(strstr(warning_text(p, "read-ahead-not-on-top"), "first run"));
	q.stack = NULL;
	p = plan_ok(&q);
	assert_int_equal(p->lvm.read_ahead_sectors, 0);
	assert_false(has_warning(p, "read-ahead-not-on-top"));
}

/* md RAID5 10 x 1 MiB on the whole device: 9 MiB stripes */
static void test_md_whole_device(void **state)
{
	struct req q = { .controller = "md", .level = "5", .disks = 10, .chunk = MiB,
			 .path = "/dev/md3", .whole = true, .stack = "lvm,luks",
			 .size = 1318680576 * KiB };
	struct sp_plan *p = plan_ok(&q);

	(void)state;
	assert_int_equal(p->lvm.pe_start_bytes, 9 * MiB);
	assert_int_equal(p->lvm.extent_bytes, 9 * MiB);
	assert_string_equal(p->lvm.below, "/dev/md3");
	assert_string_equal(p->lvm.vg, "vg_md3");
	/* LUKS2 on the LV: named after it, its offset 18 MiB = 2 stripes */
	assert_string_equal(p->luks.below, "/dev/vg_md3/data");
	assert_string_equal(p->luks.name, "vg_md3-data_crypt");
	assert_int_equal(p->luks.offset_bytes, 18 * MiB);
	assert_string_equal(p->fs_path, "/dev/mapper/vg_md3-data_crypt");
}

/* A mirror has no stripe: cryptsetup's and LVM's defaults, 1 MiB aligned. */
static void test_mirror(void **state)
{
	struct req q = { .controller = "hp-p400", .level = "1", .disks = 2, .stack = "luks,lvm" };
	struct sp_plan *p = plan_ok(&q);

	(void)state;
	assert_int_equal(p->luks.offset_bytes, 16 * MiB);
	assert_int_equal(p->lvm.pe_start_bytes, MiB);
	assert_int_equal(p->lvm.extent_bytes, 4 * MiB);
}

/* cryptsetup's sector: the physical one when larger (512e), else the logical */
static void test_luks_sector(void **state)
{
	struct req q = { .controller = "hp-p400", .level = "10", .disks = 8, .chunk = 256 * KiB,
			 .stack = "luks" };

	(void)state;
	assert_int_equal(plan_ok(&q)->luks.sector_bytes, 512);
	q.physical = 4096;
	assert_int_equal(plan_ok(&q)->luks.sector_bytes, 4096);
	q.sector = 4096;
	assert_int_equal(plan_ok(&q)->luks.sector_bytes, 4096);
	/* a 64 KiB "physical" sector is not one dm-crypt takes */
	q.sector = 512;
	q.physical = 65536;
	assert_int_equal(plan_ok(&q)->luks.sector_bytes, 512);
}

/* Every layer on a stripe for every stripe of RAID5 3..16 disks x 4 KiB..1 MiB. */
static void test_sweep(void **state)
{
	static const char *const stacks[] = { "luks", "lvm", "luks,lvm", "lvm,luks" };

	(void)state;
	for (unsigned disks = 3; disks <= 16; disks++)
		for (uint64_t chunk = 4 * KiB; chunk <= MiB; chunk *= 2)
			for (size_t s = 0; s < ARRAY_SIZE(stacks); s++) {
				struct req q = { .controller = "generic", .level = "5", .disks = disks,
						 .chunk = chunk, .stack = stacks[s],
						 .size = 64 * GiB };

				plan_ok(&q);
				q.whole = true;
				plan_ok(&q);
			}
}

static void expect_refused(const struct req *q, const char *words)
{
	struct sp_plan *p = calloc(1, sizeof(*p));
	struct sp_error err = { 0 };

	assert_non_null(p);
	assert_true(make(q, p, &err) < 0);
	assert_int_equal(err.kind, SP_ERR_INVALID);
	if (!strstr(err.message, words))
		fail_msg("'%s' does not say '%s'", err.message, words);
	sp_plan_release(p);
	free(p);
}

/* lvm2's and device-mapper's own rules, before anything is planned */
static void test_names(void **state)
{
	char long_name[200];
	struct req q = { .controller = "hp-p400", .level = "10", .disks = 8, .chunk = 256 * KiB,
			 .stack = "luks,lvm" };

	(void)state;
	q.vg = "-vg";
	expect_refused(&q, "starts with '-'");
	q.vg = "a b";
	expect_refused(&q, "holds ' '");
	q.vg = "..";
	expect_refused(&q, "is not a name");
	q.vg = "vg/x";
	expect_refused(&q, "holds '/'");
	q.vg = NULL;
	q.lv = "snapshot0";
	expect_refused(&q, "'snapshot' are LVM's own");
	q.lv = "my_tmeta";
	expect_refused(&q, "'_tmeta' are LVM's own");
	q.lv = NULL;
	q.luks = "control";
	expect_refused(&q, "/dev/mapper/control");
	/* 127 bytes is a name; the CLI and the plan file refuse a longer one */
	memset(long_name, 'a', 127);
	long_name[127] = 0;
	q.luks = long_name;
	assert_string_equal(plan_ok(&q)->luks.name, long_name);
	q.luks = NULL;
	/* 63 + 1 + 63 bytes, but each '-' doubled in the dm name */
	memset(long_name, '-', 63);
	long_name[0] = 'v';
	long_name[63] = 0;
	q.vg = long_name;
	q.lv = "lv";
	expect_refused(&q, "device-mapper name");
	q.vg = "ok-vg.1+x";
	q.lv = "lv_data";
	q.luks = "crypt-data";
	assert_string_equal(plan_ok(&q)->lvm.path, "/dev/ok-vg.1+x/lv_data");
	assert_string_equal(plan_ok(&q)->luks.path, "/dev/mapper/crypt-data");
	/* names of a layer the stack does not have */
	q.stack = "luks";
	expect_refused(&q, "the stack has no lvm");
	q.stack = "lvm";
	q.vg = NULL;
	q.lv = NULL;
	expect_refused(&q, "the stack has no luks");
	/* the default name on a long LV is never cut short */
	memset(long_name, 'v', 120);
	long_name[120] = 0;
	q.stack = "lvm,luks";
	q.vg = long_name;
	q.lv = "data";
	q.luks = NULL;
	expect_refused(&q, "give --luks-name");
	q.vg = NULL;
	q.lv = NULL;
	/* a cciss partition's '!' is not LVM's: the default name says '_' */
	q.luks = NULL;
	q.stack = "luks";
	q.path = "/dev/cciss/c0d0";
	assert_string_equal(plan_ok(&q)->luks.name, "cciss_c0d0p1_crypt");
}

static void test_parse_stack(void **state)
{
	static const char *const bad[] = { "", ",", "luks,", ",lvm", "luks,,lvm", "zfs",
					   "lvm,lvm", "luks,lvm,luks", "LUKS" };
	enum sp_layer l[SP_MAX_LAYERS];
	struct sp_error err = { 0 };
	size_t n = 9;

	(void)state;
	assert_int_equal(sp_parse_stack("luks,lvm", l, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(l[0], SP_LAYER_LUKS);
	assert_int_equal(l[1], SP_LAYER_LVM);
	assert_int_equal(sp_parse_stack("none", l, &n, &err), 0);
	assert_int_equal(n, 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		if (sp_parse_stack(bad[i], l, &n, &err) == 0)
			fail_msg("--stack '%s' was taken", bad[i]);
		assert_int_equal(err.kind, SP_ERR_INVALID);
	}
}

/* too small for the header and one stripe: refused, never a negative size */
static void test_too_small(void **state)
{
	struct req q = { .controller = "md", .level = "5", .disks = 10, .chunk = MiB,
			 .path = "/dev/md3", .whole = true, .stack = "luks", .size = 20 * MiB };

	(void)state;
	expect_refused(&q, "leaves no room for data after the LUKS2 header");
	q.stack = "lvm";
	q.size = 12 * MiB;
	expect_refused(&q, "holds no 9 MiB extent");
}

static struct sp_plan *from_json(const char *text, struct sp_error *err, int *r)
{
	struct sp_plan *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	*r = sp_plan_from_json(text, p, err);
	return p;
}

static char *edited(const struct sp_plan *p, const char *obj, const char *key, int64_t value)
{
	struct json_object *j = sp_plan_to_json(p), *stack, *o;
	char *text;

	assert_true(json_object_object_get_ex(j, "stack", &stack));
	if (obj)
		assert_true(json_object_object_get_ex(stack, obj, &o));
	else
		o = stack;
	json_object_object_add(o, key, json_object_new_int64(value));
	text = strdup(json_object_to_json_string(j));
	json_object_put(j);
	return text;
}

/* plan --format json, then apply --plan: the same plan; an edit is named */
static void test_plan_file(void **state)
{
	struct req q = { .controller = "dell-perc5e", .level = "5", .disks = 4, .chunk = 64 * KiB,
			 .stack = "luks,lvm", .vg = "data_vg" };
	const struct sp_profile *perc = sp_profiles_find(profiles, "dell-perc5e");
	struct sp_plan *p = plan_ok(&q), *again = calloc(1, sizeof(*again)), *read;
	struct json_object *j = sp_plan_to_json(p);
	struct sp_error err = { 0 };
	char *text;
	int r;

	(void)state;
	read = from_json(json_object_to_json_string(j), &err, &r);
	if (r < 0)
		fail_msg("%s", err.message);
	json_object_put(j);
	assert_int_equal(read->n_layers, 2);
	assert_string_equal(read->lvm.vg, "data_vg");
	assert_int_equal(sp_plan_replan(read, perc, false, again, &err), 0);
	assert_int_equal(again->luks.offset_bytes, p->luks.offset_bytes);
	sp_plan_release(read);
	free(read);

	text = edited(p, "lvm", "pe_start_bytes", (int64_t)MiB);
	read = from_json(text, &err, &r);
	assert_int_equal(r, 0);
	sp_plan_release(again);
	assert_int_equal(sp_plan_replan(read, perc, false, again, &err), -EINVAL);
	assert_non_null(strstr(err.message, "stack.lvm.pe_start_bytes"));
	sp_plan_release(read);
	free(read);
	free(text);

	/* the LV's read-ahead is compared too, and lvm2's 32 bits bound it */
	text = edited(p, "lvm", "read_ahead_sectors", 256);
	read = from_json(text, &err, &r);
	assert_int_equal(r, 0);
	sp_plan_release(again);
	assert_int_equal(sp_plan_replan(read, perc, false, again, &err), -EINVAL);
	assert_non_null(strstr(err.message, "stack.lvm.read_ahead_sectors"));
	sp_plan_release(read);
	free(read);
	free(text);
	text = edited(p, "lvm", "read_ahead_sectors", 4294967296LL);
	read = from_json(text, &err, &r);
	assert_int_equal(r, -ERANGE);
	sp_plan_release(read);
	free(read);
	free(text);

	text = edited(p, "luks", "sector_bytes", 3000);
	read = from_json(text, &err, &r);
	assert_int_equal(r, -EINVAL);
	sp_plan_release(read);
	free(read);
	free(text);

	/* a plan without a stack has no "stack" object, and one with an
	 * empty list is the same plan */
	q.stack = NULL;
	q.vg = NULL;
	j = sp_plan_to_json(plan_ok(&q));
	assert_false(json_object_object_get_ex(j, "stack", NULL));
	read = from_json(json_object_to_json_string(j), &err, &r);
	assert_int_equal(r, 0);
	sp_plan_release(again);
	assert_int_equal(sp_plan_replan(read, perc, false, again, &err), 0);
	assert_int_equal(again->n_layers, 0);
	assert_string_equal(again->fs_path, again->partition_path);
	json_object_put(j);
	sp_plan_release(read);
	free(read);
	sp_plan_release(again);
	free(again);
}

static size_t judged(const struct sp_plan *plan, const struct sp_found_layer *l,
		     struct sp_findings *out)
{
	memset(out, 0, sizeof(*out));
	sp_judge_layer(plan, l, out);
	return out->n;
}

/* check's judgment of a layer found on the disk (audit.c) */
static void test_judge_layer(void **state)
{
	struct req q = { .controller = "generic", .level = "5", .disks = 4, .chunk = 64 * KiB };
	struct sp_found_layer l = { .kind = SP_LAYER_LUKS, .device = "/dev/sdb1",
				    .device_start_bytes = 3 * MiB, .data_offset_bytes = 16 * MiB,
				    .sector_bytes = 512 };
	struct sp_findings out;
	struct sp_plan *p;

	(void)state;
	p = plan_ok(&q);
	/* cryptsetup's default on a LUN that exports no topology */
	assert_int_equal(judged(p, &l, &out), 1);
	assert_string_equal(out.f[0].code, "luks-offset-misaligned");
	assert_int_equal(out.f[0].severity, SP_SEVERITY_COSTLY);
	assert_true(out.f[0].cost.known);
	assert_true(out.f[0].cost.write_ratio > 1.5);
	assert_non_null(strstr(out.f[0].message, "--offset 33024"));
	assert_non_null(strstr(out.f[0].message, "101.33 stripes"));
	/* the plan's offset */
	l.data_offset_bytes = 86 * 192 * KiB;
	assert_int_equal(judged(p, &l, &out), 1);
	assert_string_equal(out.f[0].code, "luks-found");
	assert_int_equal(out.f[0].severity, SP_SEVERITY_DIFFERS);
	/* a partition off the stripe makes any offset costly: the sum counts */
	l.device_start_bytes = MiB;
	assert_int_equal(judged(p, &l, &out), 1);
	assert_string_equal(out.f[0].code, "luks-offset-misaligned");
	l.device_start_bytes = 3 * MiB;
	/* planned with --stack luks: the plan's offset says nothing, another aligned one differs */
	q.stack = "luks";
	p = plan_ok(&q);
	assert_int_equal(judged(p, &l, &out), 0);
	l.data_offset_bytes = 96 * 192 * KiB;
	assert_int_equal(judged(p, &l, &out), 1);
	assert_string_equal(out.f[0].code, "luks-offset");
	/* an LVM PV with pvcreate's defaults: 3 + 1 MiB is 21.33 stripes */
	l.kind = SP_LAYER_LVM;
	l.data_offset_bytes = MiB;
	assert_int_equal(judged(p, &l, &out), 1);
	assert_string_equal(out.f[0].code, "pv-start-misaligned");
	assert_non_null(strstr(out.f[0].message, "--dataalignment 3072k"));
	l.damaged = true;
	snprintf(l.damage, sizeof(l.damage), "the LVM label's CRC does not match its sector");
	assert_int_equal(judged(p, &l, &out), 1);
	assert_string_equal(out.f[0].code, "pv-damaged");
	l.damaged = false;
	l.unread = true;
	assert_int_equal(judged(p, &l, &out), 1);
	assert_string_equal(out.f[0].code, "layer-unread");
	assert_int_equal(out.f[0].severity, SP_SEVERITY_DIFFERS);
	/* a mirror has no stripe: no offset is misaligned */
	l.unread = false;
	q.level = "1";
	q.disks = 2;
	q.chunk = 0;
	q.controller = "hp-p400";
	assert_int_equal(judged(plan_ok(&q), &l, &out), 1);
	assert_int_equal(out.f[0].severity, SP_SEVERITY_DIFFERS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_luks_lvm_on_192k),
		cmocka_unit_test(test_md_whole_device),
		cmocka_unit_test(test_read_ahead_on_top),
		cmocka_unit_test(test_mirror),
		cmocka_unit_test(test_luks_sector),
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_parse_stack),
		cmocka_unit_test(test_too_small),
		cmocka_unit_test(test_plan_file),
		cmocka_unit_test(test_judge_layer),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
