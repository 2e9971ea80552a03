/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sp_plan_from_json on arbitrary text: `apply --plan FILE` runs a plan
 * from a person's editor as root.  Oracles: a plan that loads is
 * consistent (its mkfs runs on its own partition 1, whole sectors, bounded
 * counts, terminated strings, sysfs-only tuning paths), and survives
 * sp_format_plan_json -> sp_plan_from_json -> sp_format_plan_json
 * unchanged; a refusal fills the error and leaves the out-parameter alone.
 * What apply really executes is the plan made again from the file's fields
 * (sp_plan_replan, with the embedded profiles): when that accepts, its
 * mkfs argv, tuning and fstab line are the file's, its tuning touches only
 * the plan's device, its md members and module parameters, and making it
 * again from itself changes nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>

#include "format.h"
#include "fuzz.h"
#include "stripeplan.h"

static void check_plan(const struct sp_plan *p)
{
	uint64_t sector = p->device.logical_sector_bytes;
	char part[SP_PATH_MAX];

	FUZZ_CHECK_TERMINATED(p->controller);
	FUZZ_CHECK_TERMINATED(p->device.path);
	FUZZ_CHECK_TERMINATED(p->device.kernel_name);
	FUZZ_CHECK_TERMINATED(p->partition_path);
	FUZZ_CHECK_TERMINATED(p->mountpoint);
	FUZZ_CHECK_TERMINATED(p->fstab_line);
	FUZZ_CHECK_TERMINATED(p->kernel.release);
	FUZZ_CHECK(sector >= 512 && sp_is_power_of_two(sector), "sector %" PRIu64, sector);
	FUZZ_CHECK(p->start_bytes % sector == 0 && p->size_bytes % sector == 0 && p->size_bytes,
		   "partition %" PRIu64 "+%" PRIu64, p->start_bytes, p->size_bytes);
	/* --table none: the filesystem on the device itself, from sector 0 */
	if (p->table == SP_TABLE_NONE)
		FUZZ_CHECK(!strcmp(p->partition_path, p->device.path) && p->start_bytes == 0,
			   "table none: '%s' at %" PRIu64 " on '%s'", p->partition_path,
			   p->start_bytes, p->device.path);
	else
		FUZZ_CHECK(sp_partition_path(p->device.path, 1, part, sizeof(part)) == 0 &&
				   !strcmp(part, p->partition_path),
			   "partition '%s' of '%s'", p->partition_path, p->device.path);
	FUZZ_CHECK(p->n_mkfs_argv >= 2 && p->n_mkfs_argv <= SP_MAX_ARGV, "argc %zu", p->n_mkfs_argv);
	for (size_t i = 0; i < p->n_mkfs_argv; i++)
		FUZZ_CHECK_TERMINATED(p->mkfs_argv[i]);
	/* mkfs writes the stack's top when the plan has one (plan-file.c) */
	FUZZ_CHECK(!strcmp(p->mkfs_argv[0], p->fs == SP_FS_XFS ? "mkfs.xfs" : "mke2fs") &&
			   !strcmp(p->mkfs_argv[p->n_mkfs_argv - 1],
				   p->n_layers ? p->fs_path : p->partition_path),
		   "mkfs '%s' ... '%s'", p->mkfs_argv[0], p->mkfs_argv[p->n_mkfs_argv - 1]);
	FUZZ_CHECK(p->n_mount_options <= SP_MAX_OPTIONS, "options %zu", p->n_mount_options);
	for (size_t i = 0; i < p->n_mount_options; i++)
		FUZZ_CHECK_TERMINATED(p->mount_options[i]);
	FUZZ_CHECK(p->n_tuning <= SP_MAX_TUNING, "tuning %zu", p->n_tuning);
	for (size_t i = 0; i < p->n_tuning; i++) {
		const struct sp_tuning *t = &p->tuning[i];
		char path[SP_PATH_MAX];

		FUZZ_CHECK_TERMINATED(t->device);
		FUZZ_CHECK_TERMINATED(t->attribute);
		FUZZ_CHECK(t->value.kind == SP_VALUE_NUMBER || t->value.kind == SP_VALUE_SCHEDULER ||
				   t->value.kind == SP_VALUE_WORD,
			   "tuning value kind %d", (int)t->value.kind);
		FUZZ_CHECK_TERMINATED(t->value.word);
		FUZZ_CHECK_TERMINATED(t->why);
		FUZZ_CHECK(sp_tuning_kind_name(t->kind) != NULL, "tuning kind %d", (int)t->kind);
		FUZZ_CHECK(sp_tuning_path(t, path, sizeof(path)) == 0 &&
				   !strncmp(path, "/sys/", 5) && !strstr(path, "/../"),
			   "tuning path '%s'", path);
	}
	FUZZ_CHECK(p->n_warnings <= SP_MAX_WARNINGS, "warnings %zu", p->n_warnings);
	for (size_t i = 0; i < p->n_warnings; i++) {
		FUZZ_CHECK_TERMINATED(p->warnings[i].code);
		FUZZ_CHECK_TERMINATED(p->warnings[i].message);
	}
}

/* Text that runs as root (tune script, udev rule, modprobe.d): a control
 * character other than newline or tab would mean a plan string got in raw. */
static void check_artifact(const char *what, const char *text)
{
	FUZZ_CHECK(text != NULL, "%s: out of memory?", what);
	for (const unsigned char *c = (const unsigned char *)text; *c; c++)
		FUZZ_CHECK(*c >= 0x20 || *c == '\n' || *c == '\t', "%s: byte 0x%02x at %zu:\n%s",
			   what, *c, (size_t)((const char *)c - text), text);
}

/* The files apply writes from a loaded plan (the tuning step) and what
 * plan prints: they must render whatever the loader let through. */
static void render(const struct sp_plan *p)
{
	char warning[SP_MSG_MAX], name[SP_PATH_MAX];
	struct sp_identities ids;
	char *s;

	sp_identities_of(&p->device, NULL, &ids);
	s = sp_format_tuning_script(p, &ids);
	check_artifact("tune script", s);
	free(s);
	s = sp_format_udev_rule(p, &ids, warning, sizeof(warning));
	check_artifact("udev rule", s);
	free(s);
	s = sp_format_modprobe_conf(p, &ids);
	check_artifact("modprobe.d", s);
	free(s);
	/* named from the plan's WWN, serial or md UUID: one component, no '/' */
	if (sp_udev_rule_name(p, &ids, name, sizeof(name)) == 0)
		FUZZ_CHECK(!strchr(name, '/') && name[0] != '.', "rule file name '%s'", name);
	if (sp_tune_script_name(p, &ids, name, sizeof(name)) == 0)
		FUZZ_CHECK(!strchr(name, '/') && name[0] != '.', "tune script name '%s'", name);
	free(sp_format_fstab(p));
	free(sp_format_plan_text(p));
}

static const struct sp_profile_set *profiles(void)
{
	static struct sp_profile_set *set;

	if (!set && sp_profiles_embedded(&set, NULL) < 0)
		abort();
	return set;
}

/* A tuning entry names the plan's device, one of its members, or a module. */
static bool tunes_only_its_own(const struct sp_plan *p, const struct sp_tuning *t)
{
	if (t->kind == SP_TUNING_MODULE || !strcmp(t->device, p->device.kernel_name))
		return true;
	for (size_t m = 0; m < p->n_members; m++)
		if (!strcmp(t->device, p->members[m]))
			return true;
	return false;
}

static void check_replan(const struct sp_plan *file)
{
	const struct sp_profile *profile = sp_profiles_find(profiles(), file->controller);
	struct sp_plan *again = calloc(1, sizeof(*again)), *twice = calloc(1, sizeof(*twice));
	struct sp_error err = { 0 };
	char *a = NULL, *b = NULL;

	if (!again || !twice || !profile)
		goto out;
	if (sp_plan_replan(file, profile, false, again, &err) < 0) {
		FUZZ_CHECK(err.kind == SP_ERR_INVALID, "replan exit %d: %s", err.kind,
			   err.message);
		goto out;
	}
	FUZZ_CHECK(again->n_mkfs_argv == file->n_mkfs_argv, "argc %zu", again->n_mkfs_argv);
	for (size_t i = 0; i < again->n_mkfs_argv; i++)
		FUZZ_CHECK(!strcmp(again->mkfs_argv[i], file->mkfs_argv[i]), "argv[%zu] '%s'", i,
			   file->mkfs_argv[i]);
	FUZZ_CHECK(!strcmp(again->fstab_line, file->fstab_line), "fstab '%s'", file->fstab_line);
	FUZZ_CHECK(again->n_tuning == file->n_tuning, "tuning %zu", file->n_tuning);
	for (size_t i = 0; i < again->n_tuning; i++) {
		const struct sp_tuning *t = &again->tuning[i], *u = &file->tuning[i];

		FUZZ_CHECK(t->kind == u->kind && !strcmp(t->device, u->device) &&
				   !strcmp(t->attribute, u->attribute) && sp_value_equal(&t->value, &u->value),
			   "tuning[%zu] '%s/%s'", i, u->device, u->attribute);
		FUZZ_CHECK(tunes_only_its_own(again, t), "tuning '%s/%s'", t->device, t->attribute);
	}
	FUZZ_CHECK(sp_plan_replan(again, profile, false, twice, &err) == 0, "replan of a replan: %s",
		   err.message);
	a = sp_format_plan_json(again);
	b = sp_format_plan_json(twice);
	FUZZ_CHECK(a != NULL && b != NULL, "sp_format_plan_json failed");
	FUZZ_CHECK(!strcmp(a, b), "replanning is not stable:\n%s\n---\n%s", a, b);
out:
	free(a);
	free(b);
	sp_plan_release(twice);
	sp_plan_release(again);
	free(twice);
	free(again);
}

static bool untouched(const void *buf, size_t len)
{
	const unsigned char *b = buf;

	return b[0] == 0xa5 && !memcmp(b, b + 1, len - 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size), *json = NULL, *again = NULL;
	struct sp_plan *p = malloc(sizeof(*p)), *q = malloc(sizeof(*q));
	struct sp_error err = { 0 };
	bool p_read = false, q_read = false;
	int r;

	if (!text || !p || !q)
		goto out;
	memset(p, 0xa5, sizeof(*p));
	r = sp_plan_from_json(text, p, &err);
	if (r < 0) {
		FUZZ_CHECK(err.code == r, "r %d, code %d", r, err.code);
		FUZZ_CHECK(err.message[0] != '\0', "empty message");
		FUZZ_CHECK_TERMINATED(err.message);
		FUZZ_CHECK(untouched(p, sizeof(*p)), "plan written on failure");
		goto out;
	}
	FUZZ_CHECK(r == 0, "r %d", r);
	p_read = true;
	check_plan(p);
	render(p);
	check_replan(p);

	json = sp_format_plan_json(p);
	FUZZ_CHECK(json != NULL, "sp_format_plan_json failed");
	r = sp_plan_from_json(json, q, &err);
	FUZZ_CHECK(r == 0, "the plan's own JSON does not load: %s\n%s", err.message, json);
	q_read = true;
	again = sp_format_plan_json(q);
	FUZZ_CHECK(again != NULL, "sp_format_plan_json failed");
	FUZZ_CHECK(!strcmp(json, again), "reloading changed the plan:\n%s\n---\n%s", json, again);
out:
	free(again);
	free(json);
	if (q_read)
		sp_plan_release(q);
	if (p_read)
		sp_plan_release(p);
	free(q);
	free(p);
	free(text);
	return 0;
}
