/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sp_facts_from_json on arbitrary text: plan --facts FILE reads a device's
 * facts (and an md array's members, whose names become sysfs paths and
 * udev matches) from a file instead of a probe, and the plan's own
 * "device" object is read by the same table.  Oracles: facts that load are
 * what a real device satisfies (sector sizes, a size of whole sectors, a
 * kernel name that is a name, bounded and terminated lists and strings,
 * member names without '/'), and survive the table's writer and reader
 * unchanged; a refusal fills the error and leaves the out-parameter alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>

#include <json-c/json.h>

#include "array/facts.h"
#include "base/units.h"
#include "fuzz.h"
#include "schema/objects.h"
#include "schema/schema.h"

static void check_name(const char *what, const char *s, size_t size)
{
	FUZZ_CHECK(memchr(s, '\0', size) != NULL, "%s not terminated", what);
	for (const char *c = s; *c; c++)
		FUZZ_CHECK((unsigned char)*c > 0x20 && *c != 0x7f && *c != '/' && *c != '"' &&
				   *c != '\\',
			   "%s '%s'", what, s);
}

static void check_facts(const struct sp_facts *f)
{
	FUZZ_CHECK_TERMINATED(f->path);
	FUZZ_CHECK_TERMINATED(f->wwn);
	FUZZ_CHECK_TERMINATED(f->serial);
	FUZZ_CHECK_TERMINATED(f->driver);
	FUZZ_CHECK(f->path[0] == '/', "path '%s'", f->path);
	check_name("kernel_name", f->kernel_name, sizeof(f->kernel_name));
	FUZZ_CHECK(f->kernel_name[0], "empty kernel_name");
	FUZZ_CHECK(f->logical_sector_bytes >= 512 && f->logical_sector_bytes <= 65536 &&
			   sp_is_power_of_two(f->logical_sector_bytes) &&
			   f->physical_sector_bytes >= f->logical_sector_bytes &&
			   f->physical_sector_bytes <= 65536 &&
			   sp_is_power_of_two(f->physical_sector_bytes),
		   "sectors %u/%u", f->logical_sector_bytes, f->physical_sector_bytes);
	FUZZ_CHECK(f->size_bytes && f->size_bytes % f->logical_sector_bytes == 0 &&
			   f->size_bytes < INT64_MAX,
		   "size %" PRIu64, f->size_bytes);
	FUZZ_CHECK(f->min_io_bytes <= UINT32_MAX && f->optimal_io_bytes <= UINT32_MAX,
		   "io %" PRIu64 "/%" PRIu64, f->min_io_bytes, f->optimal_io_bytes);
	FUZZ_CHECK(f->alignment_offset_bytes >= -1 && f->alignment_offset_bytes <= UINT32_MAX,
		   "alignment offset %" PRId64, f->alignment_offset_bytes);
	FUZZ_CHECK(f->rotational >= -1 && f->rotational <= 1 && f->read_only >= -1 &&
			   f->read_only <= 1,
		   "tristates %d %d", f->rotational, f->read_only);
	FUZZ_CHECK(f->max_hw_sectors_kib <= SP_MAX_HW_SECTORS_KIB_MAX && f->tag_depth <= SP_TAG_DEPTH_MAX,
		   "queue limits %" PRIu64 "/%u", f->max_hw_sectors_kib, f->tag_depth);
	FUZZ_CHECK(f->n_schedulers <= ARRAY_SIZE(f->schedulers), "schedulers %zu", f->n_schedulers);
	for (size_t i = 0; i < f->n_schedulers; i++)
		check_name("scheduler", f->schedulers[i], sizeof(f->schedulers[i]));
	if (!f->md.present)
		return;
	check_name("md.level", f->md.level, sizeof(f->md.level));
	FUZZ_CHECK(f->md.level[0], "empty md level");
	check_name("md.uuid", f->md.uuid, sizeof(f->md.uuid));
	check_name("md.sync_action", f->md.sync_action, sizeof(f->md.sync_action));
	FUZZ_CHECK(f->md.raid_disks <= SP_MAX_DISKS && f->md.degraded <= SP_MAX_DISKS &&
			   f->md.chunk_bytes <= SP_CHUNK_MAX_BYTES,
		   "md %u disks, %u degraded, chunk %" PRIu64, f->md.raid_disks, f->md.degraded,
		   f->md.chunk_bytes);
	FUZZ_CHECK(f->md.n_members <= SP_MAX_MEMBERS, "md members %zu", f->md.n_members);
	for (size_t i = 0; i < f->md.n_members; i++) {
		const struct sp_md_member *m = &f->md.members[i];

		check_name("member name", m->name, sizeof(m->name));
		check_name("member disk", m->disk, sizeof(m->disk));
		check_name("member wwn", m->wwn, sizeof(m->wwn));
		check_name("member serial", m->serial, sizeof(m->serial));
		FUZZ_CHECK(m->name[0] && m->disk[0], "member %zu unnamed", i);
		FUZZ_CHECK(m->max_hw_sectors_kib <= SP_MAX_HW_SECTORS_KIB_MAX &&
				   m->tag_depth <= SP_TAG_DEPTH_MAX,
			   "member %zu queue limits %" PRIu64 "/%u", i, m->max_hw_sectors_kib,
			   m->tag_depth);
	}
}

static char *facts_json(const struct sp_facts *f)
{
	json_object *o = sp_schema_write(&sp_facts_schema, f, SP_VIEW_FACTS);
	char *s;

	FUZZ_CHECK(o != NULL, "the writer failed");
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	FUZZ_CHECK(s != NULL, "out of memory");
	return s;
}

static bool untouched(const void *buf, size_t len)
{
	const unsigned char *b = buf;

	return b[0] == 0xa5 && !memcmp(b, b + 1, len - 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size), *a = NULL, *b = NULL;
	struct sp_facts *f = malloc(sizeof(*f)), *g = malloc(sizeof(*g));
	struct sp_error err = { 0 };
	bool f_read = false, g_read = false;
	int r;

	if (!text || !f || !g)
		goto out;
	memset(f, 0xa5, sizeof(*f));
	r = sp_facts_from_json(text, "fuzz.json", f, &err);
	if (r < 0) {
		FUZZ_CHECK(err.code == r, "r %d, code %d", r, err.code);
		FUZZ_CHECK(err.kind == SP_ERR_INVALID || r == -ENOMEM, "kind %d: %s", err.kind,
			   err.message);
		FUZZ_CHECK(err.message[0] != '\0', "empty message");
		FUZZ_CHECK_TERMINATED(err.message);
		FUZZ_CHECK(untouched(f, sizeof(*f)), "facts written on failure");
		goto out;
	}
	f_read = true;
	check_facts(f);
	/* what the table writes, the table reads back the same */
	a = facts_json(f);
	FUZZ_CHECK(sp_facts_from_json(a, "again.json", g, &err) == 0, "written facts do not load: %s\n%s",
		   err.message, a);
	g_read = true;
	b = facts_json(g);
	FUZZ_CHECK(!strcmp(a, b), "reloading changed the facts:\n%s\n---\n%s", a, b);
out:
	free(b);
	free(a);
	if (g_read)
		sp_facts_release(g);
	if (f_read)
		sp_facts_release(f);
	free(g);
	free(f);
	free(text);
	return 0;
}
