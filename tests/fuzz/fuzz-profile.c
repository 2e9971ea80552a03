/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sp_profile_parse on arbitrary text: a site's own controller profile in
 * /etc/stripeplan/controllers.d is read by every plan.  Oracles: a
 * profile that parses keeps the promises the planner relies on (bounded
 * counts, terminated strings, a safe name, power-of-two chunk bounds,
 * known knobs with in-range values); a refusal fills the error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>

#include "fuzz.h"
#include "limits/limit.h"
#include "stripeplan.h"

static void check_profile(const struct sp_profile *p)
{
	FUZZ_CHECK_TERMINATED(p->name);
	FUZZ_CHECK_TERMINATED(p->description);
	FUZZ_CHECK_TERMINATED(p->driver);
	FUZZ_CHECK_TERMINATED(p->device_naming);
	FUZZ_CHECK_TERMINATED(p->source);
	FUZZ_CHECK_TERMINATED(p->scheduler);
	FUZZ_CHECK_TERMINATED(p->scheduler_why);
	FUZZ_CHECK_TERMINATED(p->member_scheduler);
	FUZZ_CHECK(p->name[0] != '\0', "empty name");
	for (const char *c = p->name; *c; c++)
		FUZZ_CHECK((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-',
			   "name '%s'", p->name);
	FUZZ_CHECK(p->levels_mask != 0, "no levels");
	FUZZ_CHECK(sp_is_power_of_two(p->chunk_min_bytes) && sp_is_power_of_two(p->chunk_max_bytes) &&
			   p->chunk_min_bytes <= p->chunk_max_bytes,
		   "chunks %" PRIu64 "..%" PRIu64, p->chunk_min_bytes, p->chunk_max_bytes);
	FUZZ_CHECK(p->max_disks == 0 || (p->max_disks >= 2 && p->max_disks <= SP_MAX_DISKS),
		   "max_disks %u", p->max_disks);
	FUZZ_CHECK(p->n_knobs <= SP_PROFILE_MAX_KNOBS, "n_knobs %zu", p->n_knobs);
	FUZZ_CHECK(p->n_module_options <= SP_PROFILE_MAX_MODOPTS, "n_module_options %zu",
		   p->n_module_options);
	FUZZ_CHECK(p->n_warnings <= SP_PROFILE_MAX_WARNINGS, "n_warnings %zu", p->n_warnings);
	FUZZ_CHECK(p->n_advice <= SP_PROFILE_MAX_ADVICE, "n_advice %zu", p->n_advice);
	for (size_t i = 0; i < p->n_knobs; i++) {
		const struct sp_profile_knob *k = &p->knobs[i];
		const struct sp_knob *rule = sp_knob_find(k->knob);

		FUZZ_CHECK_TERMINATED(k->knob);
		FUZZ_CHECK_TERMINATED(k->why);
		FUZZ_CHECK(k->target == SP_TARGET_DEVICE || k->target == SP_TARGET_MEMBERS,
			   "target %d", (int)k->target);
		/* written to sysfs as root: a relative path under the device, digits only */
		FUZZ_CHECK(k->knob[0] != '/' && !strstr(k->knob, ".."), "knob '%s'", k->knob);
		FUZZ_CHECK_TERMINATED(k->holds);
		/* a knob stripeplan sets; a number in the kernel's bounds for it, or
		 * "auto" (sized by the planner from the array) where the knob allows */
		FUZZ_CHECK(rule && rule->in_profiles, "knob '%s'", k->knob);
		if (k->value.kind == SP_VALUE_AUTO)
			FUZZ_CHECK(rule->may_be_auto, "auto on '%s'", k->knob);
		else
			FUZZ_CHECK(k->value.kind == SP_VALUE_NUMBER &&
					   sp_limit_holds(rule->limit, k->value.number),
				   "knob value %d %" PRIu64 " on '%s'", (int)k->value.kind,
				   k->value.number, k->knob);
	}
	/* the documented limits: sources terminated, strips ordered within the
	 * chunk bounds, spans and level rules consistent */
	FUZZ_CHECK_TERMINATED(p->levels_source);
	FUZZ_CHECK_TERMINATED(p->strip_name);
	FUZZ_CHECK_TERMINATED(p->strips_source);
	FUZZ_CHECK_TERMINATED(p->spans_source);
	/* recognition rows: counts within their arrays, strings terminated, PCI
	 * ids four lowercase hex digits or none, a source whenever rows are there */
	{
		const struct sp_profile_recognition *r = &p->recognition;

		FUZZ_CHECK(r->n_proc_names <= SP_PROFILE_MAX_PROC_NAMES && r->n_inquiry <= SP_PROFILE_MAX_INQUIRY &&
				   r->n_pci <= SP_PROFILE_MAX_PCI && r->n_md_metadata <= SP_PROFILE_MAX_MD_METADATA,
			   "recognition counts %zu %zu %zu %zu", r->n_proc_names, r->n_inquiry, r->n_pci,
			   r->n_md_metadata);
		FUZZ_CHECK_TERMINATED(r->source);
		FUZZ_CHECK(!(r->n_proc_names || r->n_inquiry || r->n_pci || r->n_md_metadata) || r->source[0],
			   "recognition rows without a source");
		for (size_t i = 0; i < r->n_proc_names; i++)
			FUZZ_CHECK_TERMINATED(r->proc_names[i]);
		for (size_t i = 0; i < r->n_md_metadata; i++)
			FUZZ_CHECK_TERMINATED(r->md_metadata[i]);
		for (size_t i = 0; i < r->n_inquiry; i++) {
			FUZZ_CHECK_TERMINATED(r->inquiry[i].vendor);
			FUZZ_CHECK_TERMINATED(r->inquiry[i].model);
		}
		for (size_t i = 0; i < r->n_pci; i++) {
			const char *ids[] = { r->pci[i].vendor, r->pci[i].device, r->pci[i].subvendor,
					      r->pci[i].subdevice };

			FUZZ_CHECK_TERMINATED(r->pci[i].name);
			for (size_t j = 0; j < 4; j++)
				FUZZ_CHECK((j >= 2 && !ids[j][0]) ||
						   (strlen(ids[j]) == 4 && strspn(ids[j], "0123456789abcdef") == 4),
					   "pci id '%s'", ids[j]);
		}
	}
	FUZZ_CHECK(p->n_strip_sizes <= SP_PROFILE_MAX_STRIPS, "n_strip_sizes %zu", p->n_strip_sizes);
	for (size_t i = 0; i < p->n_strip_sizes; i++)
		FUZZ_CHECK(p->strip_sizes_bytes[i] >= p->chunk_min_bytes &&
				   p->strip_sizes_bytes[i] <= p->chunk_max_bytes &&
				   (i == 0 || p->strip_sizes_bytes[i] > p->strip_sizes_bytes[i - 1]),
			   "strip %zu: %" PRIu64, i, p->strip_sizes_bytes[i]);
	FUZZ_CHECK(!p->default_strip_bytes || sp_profile_offers_strip(p, p->default_strip_bytes),
		   "default strip %" PRIu64, p->default_strip_bytes);
	FUZZ_CHECK(!p->spans_max || p->spans_max >= (p->spans_min ? p->spans_min : 2),
		   "spans %u..%u", p->spans_min, p->spans_max);
	FUZZ_CHECK(p->n_level_rules <= SP_PROFILE_MAX_LEVEL_RULES, "n_level_rules %zu",
		   p->n_level_rules);
	for (size_t i = 0; i < p->n_level_rules; i++) {
		const struct sp_level_rule *r = &p->level_rules[i];

		FUZZ_CHECK_TERMINATED(r->source);
		FUZZ_CHECK(!r->max_disks || r->max_disks >= r->min_disks, "rule %zu: disks %u..%u", i,
			   r->min_disks, r->max_disks);
		FUZZ_CHECK(r->chunk == SP_CHUNK_POWER_OF_TWO ||
				   (r->chunk == SP_CHUNK_SECTOR_MULTIPLE && r->level == SP_LEVEL_0),
			   "rule %zu: chunk rule %d on level %d", i, (int)r->chunk, (int)r->level);
	}
	for (size_t i = 0; i < p->n_module_options; i++) {
		const struct sp_profile_module_option *m = &p->module_options[i];

		FUZZ_CHECK_TERMINATED(m->module);
		FUZZ_CHECK_TERMINATED(m->param);
		FUZZ_CHECK_TERMINATED(m->why);
		FUZZ_CHECK_TERMINATED(m->holds);
		FUZZ_CHECK_TERMINATED(m->value.word);
		FUZZ_CHECK_TERMINATED(m->driver_default.word);
		/* these go into modprobe.d and a shell script unquoted */
		FUZZ_CHECK(strspn(m->module, "abcdefghijklmnopqrstuvwxyz0123456789_-") ==
				   strlen(m->module),
			   "module '%s'", m->module);
		FUZZ_CHECK(strspn(m->param, "abcdefghijklmnopqrstuvwxyz0123456789_") ==
				   strlen(m->param),
			   "param '%s'", m->param);
		FUZZ_CHECK(m->value.kind == SP_VALUE_NUMBER ||
				   (m->value.kind == SP_VALUE_WORD &&
				    strspn(m->value.word, "abcdefghijklmnopqrstuvwxyz0123456789,") ==
					    strlen(m->value.word)),
			   "value %d '%s'", (int)m->value.kind, m->value.word);
	}
	for (size_t i = 0; i < p->n_warnings; i++) {
		FUZZ_CHECK_TERMINATED(p->warnings[i].code);
		FUZZ_CHECK_TERMINATED(p->warnings[i].message);
	}
	for (size_t i = 0; i < p->n_advice; i++)
		FUZZ_CHECK_TERMINATED(p->advice[i]);
}

static bool untouched(const void *buf, size_t len)
{
	const unsigned char *b = buf;

	return b[0] == 0xa5 && !memcmp(b, b + 1, len - 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	struct sp_profile *p = malloc(sizeof(*p));
	struct sp_error err = { 0 };
	int r;

	if (!text || !p)
		goto out;
	memset(p, 0xa5, sizeof(*p));
	r = sp_profile_parse(text, "fuzz.json", p, &err);
	if (r == 0) {
		check_profile(p);
	} else {
		FUZZ_CHECK(r < 0 && err.code == r, "r %d, code %d", r, err.code);
		FUZZ_CHECK(err.message[0] != '\0', "empty message");
		FUZZ_CHECK_TERMINATED(err.message);
		/* out-parameters are written only on success */
		FUZZ_CHECK(untouched(p, sizeof(*p)), "profile written on failure");
	}
out:
	free(p);
	free(text);
	return 0;
}
