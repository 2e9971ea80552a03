/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Controller profiles are data: JSON files in planner/profiles/, embedded
 * at build time, and a site's own, a later profile replacing an earlier
 * one of the same name (schema/profile-file.c reads one).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/embedded.h"
#include "base/error.h"
#include "base/units.h"
#include "profile.h"
#include "schema/objects.h"

#define MAX_PROFILES 64U

struct sp_profile_set {
	size_t n;
	struct sp_profile profiles[MAX_PROFILES];
};

static const char *const sp_knob_target_table[] = {
	[SP_TARGET_DEVICE] = "device",
	[SP_TARGET_MEMBERS] = "members",
};
SP_STRING_TABLE(sp_knob_target, enum sp_knob_target, "device")

bool sp_profile_offers_strip(const struct sp_profile *p, uint64_t bytes)
{
	if (!p->n_strip_sizes)
		return sp_is_power_of_two(bytes) && bytes >= p->chunk_min_bytes &&
		       bytes <= p->chunk_max_bytes;
	for (size_t i = 0; i < p->n_strip_sizes; i++)
		if (p->strip_sizes_bytes[i] == bytes)
			return true;
	return false;
}

const struct sp_level_rule *sp_profile_level_rule(const struct sp_profile *profile,
						  enum sp_level level)
{
	for (size_t i = 0; profile && i < profile->n_level_rules; i++)
		if (profile->level_rules[i].level == level)
			return &profile->level_rules[i];
	return sp_level_default_rule(level);
}

int sp_profiles_add(struct sp_profile_set *set, const char *text, const char *origin,
		    struct sp_error *err)
{
	struct sp_profile p;
	int r = sp_profile_parse(text, origin, &p, err);

	if (r < 0)
		return r;
	for (size_t i = 0; i < set->n; i++) {
		if (!strcmp(set->profiles[i].name, p.name)) {
			set->profiles[i] = p;
			return 0;
		}
	}
	if (set->n >= MAX_PROFILES)
		return sp_error_set(err, ENOSPC, SP_ERR_INVALID,
				    "too many profiles (at most %u)", MAX_PROFILES);
	set->profiles[set->n++] = p;
	return 0;
}

int sp_profiles_embedded(struct sp_profile_set **ret, struct sp_error *err)
{
	struct sp_profile_set *set = calloc(1, sizeof(*set));
	int r = 0;

	if (!set)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	for (const struct sp_embedded *e = sp_embedded_profiles; r == 0 && e->name; e++)
		r = sp_profiles_add(set, e->text, e->name, err);
	if (r < 0) {
		sp_profiles_free(set);
		return r;
	}
	*ret = set;
	return 0;
}

struct sp_profile_set *sp_profiles_free(struct sp_profile_set *set)
{
	free(set);
	return NULL;
}

size_t sp_profiles_count(const struct sp_profile_set *set)
{
	return set ? set->n : 0;
}

const struct sp_profile *sp_profiles_get(const struct sp_profile_set *set, size_t i)
{
	return set && i < set->n ? &set->profiles[i] : NULL;
}

const struct sp_profile *sp_profiles_find(const struct sp_profile_set *set, const char *name)
{
	for (size_t i = 0; set && i < set->n; i++)
		if (!strcmp(set->profiles[i].name, name))
			return &set->profiles[i];
	return NULL;
}

void sp_profiles_names(const struct sp_profile_set *set, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; set && i < set->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 set->profiles[i].name);
}
