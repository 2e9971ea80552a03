/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RAID levels and what they leave for data. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/error.h"
#include "raid.h"

/* " (SOURCE)" as three %s arguments, or nothing when the rule names none */
#define CITE(source) (source)[0] ? " (" : "", (source), (source)[0] ? ")" : ""

/* indexed by the level's number (sparse) */
static const char *const sp_level_table[] = {
	[SP_LEVEL_0] = "raid0",   [SP_LEVEL_1] = "raid1",   [SP_LEVEL_4] = "raid4",
	[SP_LEVEL_5] = "raid5",
	[SP_LEVEL_6] = "raid6",   [SP_LEVEL_10] = "raid10", [SP_LEVEL_50] = "raid50",
	[SP_LEVEL_60] = "raid60",
};
SP_STRING_TABLE(sp_level, enum sp_level, "unknown")

struct level_info {
	enum sp_level level;
	unsigned min_disks;      /* whole array (per span for 50/60) */
	unsigned parity_disks;   /* per span */
	bool spans;
};

static const struct level_info levels[] = {
	{ SP_LEVEL_0, 2, 0, false },  { SP_LEVEL_1, 2, 0, false },  { SP_LEVEL_5, 3, 1, false },
	{ SP_LEVEL_6, 4, 2, false },  { SP_LEVEL_10, 4, 0, false }, { SP_LEVEL_50, 3, 1, true },
	{ SP_LEVEL_60, 4, 2, true },   { SP_LEVEL_4, 3, 1, false },
};

static const struct level_info *level_info(enum sp_level level)
{
	for (size_t i = 0; i < ARRAY_SIZE(levels); i++)
		if (levels[i].level == level)
			return &levels[i];
	return NULL;
}

unsigned sp_level_bit(enum sp_level level)
{
	for (size_t i = 0; i < ARRAY_SIZE(levels); i++)
		if (levels[i].level == level)
			return 1U << i;
	return 0;
}

/* "0, 1, 4, 5, 6, 10, 50, 60": the names without "raid", as people type them */
static const char *level_numbers(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sp_level_names.n && used < len; i++)
		if (sp_level_names.names[i])
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 sp_level_names.names[i] + strlen("raid"));
	return buf;
}

/* "10", "raid10", "RAID10" */
int sp_parse_level(const char *text, enum sp_level *ret_level, struct sp_error *err)
{
	const char *p = text ? text : "";
	char name[16], known[64];

	if (!strncasecmp(p, "raid", 4))
		p += 4;
	snprintf(name, sizeof(name), "raid%s", p);
	if (*p && strlen(p) < 3 && sp_level_from_name(name, ret_level) == 0)
		return 0;
	return sp_error_set(err, EINVAL, SP_ERR_INVALID, "level: unknown RAID level '%s' (known: %s)",
			    text ? text : "", level_numbers(known, sizeof(known)));
}

bool sp_level_has_spans(enum sp_level level)
{
	const struct level_info *li = level_info(level);

	return li && li->spans;
}

unsigned sp_level_parity_disks(enum sp_level level)
{
	const struct level_info *li = level_info(level);

	return li ? li->parity_disks : 0;
}

bool sp_level_has_parity(enum sp_level level)
{
	return sp_level_parity_disks(level) > 0;
}

bool sp_level_rotates_parity(enum sp_level level)
{
	return sp_level_has_parity(level) && level != SP_LEVEL_4;
}

static int check_spans(const struct level_info *li, unsigned disks, unsigned spans,
		       struct sp_error *err)
{
	if (spans == 0)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "spans: %s needs --spans (the number of %s sets striped together)",
				    sp_level_name(li->level), li->level == SP_LEVEL_50 ? "RAID5" : "RAID6");
	if (spans < 2)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "spans: %s needs at least 2 spans, not %u", sp_level_name(li->level), spans);
	if (disks % spans)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "disks: %u disks cannot be split into %u equal spans", disks, spans);
	if (disks / spans < li->min_disks)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "disks: each %s span needs at least %u disks, %u disks in %u spans gives %u",
				    sp_level_name(li->level), li->min_disks, disks, spans, disks / spans);
	return 0;
}

bool sp_level_is_mirror(enum sp_level level)
{
	return level == SP_LEVEL_1;
}

static const char *const sp_stripe_rule_table[] = {
	[SP_STRIPE_PAIRS] = "pairs",
	[SP_STRIPE_NEAR_COPIES] = "near-copies",
};
SP_STRING_TABLE(sp_stripe_rule, enum sp_stripe_rule, "pairs")

static const char *const sp_chunk_rule_table[] = {
	[SP_CHUNK_POWER_OF_TWO] = "power-of-two",
	[SP_CHUNK_SECTOR_MULTIPLE] = "sector-multiple",
};
SP_STRING_TABLE(sp_chunk_rule, enum sp_chunk_rule, "power-of-two")

/* What hardware controllers allow; md's own rules are in its profile. */
static const struct sp_level_rule default_rules[] = {
	{ .level = SP_LEVEL_0, .min_disks = 2 },
	{ .level = SP_LEVEL_1, .min_disks = 2 },
	{ .level = SP_LEVEL_5, .min_disks = 3 },
	{ .level = SP_LEVEL_6, .min_disks = 4 },
	{ .level = SP_LEVEL_10, .min_disks = 4, .even_disks = true },
	{ .level = SP_LEVEL_50, .min_disks = 3 },
	{ .level = SP_LEVEL_60, .min_disks = 4 },
	{ .level = SP_LEVEL_4, .min_disks = 3 },
};

const struct sp_level_rule *sp_level_default_rule(enum sp_level level)
{
	for (size_t i = 0; i < ARRAY_SIZE(default_rules); i++)
		if (default_rules[i].level == level)
			return &default_rules[i];
	return NULL;
}

int sp_parse_md_layout(const char *text, struct sp_md_layout *ret, struct sp_error *err)
{
	const char *t = text ? text : "";
	struct sp_md_layout l = { 0 };

	/* mdadm spells them n2, f2, o2 (and near2 ... in old man pages) */
	if ((t[0] == 'n' || t[0] == 'f' || t[0] == 'o') && (t[1] == '2' || t[1] == '3') && !t[2]) {
		unsigned copies = (unsigned)(t[1] - '0');

		l.near_copies = t[0] == 'n' ? copies : 1;
		l.far_copies = t[0] == 'n' ? 1 : copies;
		l.offset = t[0] == 'o';
		*ret = l;
		return 0;
	}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "layout: unknown md raid10 layout '%s' (known: n2, n3, f2, f3, o2, o3)",
			    t);
}

int sp_md_layout_from_kernel(uint64_t layout, struct sp_md_layout *ret)
{
	struct sp_md_layout l = {
		.near_copies = (unsigned)(layout & 0xff),
		.far_copies = (unsigned)((layout >> 8) & 0xff),
		.offset = (layout >> 16) & 1,
	};

	if (!l.near_copies || !l.far_copies || layout >> 18)
		return -EINVAL;
	*ret = l;
	return 0;
}

void sp_md_layout_name(const struct sp_md_layout *l, char *buf, size_t len)
{
	if (l->far_copies <= 1)
		snprintf(buf, len, "n%u", l->near_copies);
	else if (l->near_copies <= 1)
		snprintf(buf, len, "%c%u", l->offset ? 'o' : 'f', l->far_copies);
	else
		snprintf(buf, len, "n%u%c%u", l->near_copies, l->offset ? 'o' : 'f', l->far_copies);
}

bool sp_md_layout_equal(const struct sp_md_layout *a, const struct sp_md_layout *b)
{
	return a->near_copies == b->near_copies && a->far_copies == b->far_copies &&
	       a->offset == b->offset;
}

static int check_layout(const struct sp_level_rule *rule, unsigned disks,
			const struct sp_md_layout *l, struct sp_error *err)
{
	char name[SP_MD_LAYOUT_NAME_MAX];

	sp_md_layout_name(l, name, sizeof(name));
	/* raid10.c setup_geo(): every copy on a different device */
	if (!l->near_copies || !l->far_copies || l->near_copies * l->far_copies > disks)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "layout: %s keeps %u copies of each chunk, more than the %u disks",
				    name, l->near_copies * l->far_copies, disks);
	for (size_t i = 0; i < rule->n_layouts; i++)
		if (sp_md_layout_equal(&rule->layouts[i], l))
			return 0;
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "layout: %s is not a layout this profile allows for %s", name,
			    sp_level_name(rule->level));
}

static unsigned plain_data_disks(const struct sp_level_rule *rule, const struct level_info *li,
				 unsigned disks, const struct sp_md_layout *layout)
{
	switch (li->level) {
	case SP_LEVEL_1:
		return 1;
	case SP_LEVEL_10:
		if (rule->stripe == SP_STRIPE_NEAR_COPIES && layout->near_copies)
			return disks % layout->near_copies ? disks : disks / layout->near_copies;
		return disks / 2;
	default:
		return disks - li->parity_disks;
	}
}

int sp_raid_data_disks_rule(const struct sp_level_rule *rule, enum sp_level level,
			    unsigned disks, unsigned spans, const struct sp_md_layout *layout,
			    unsigned *ret_data_disks, struct sp_error *err)
{
	const struct level_info *li = level_info(level);
	struct sp_md_layout l = { 0 };
	unsigned data;
	int r;

	if (!li)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "level: unknown RAID level");
	if (!rule || rule->level != level)
		rule = sp_level_default_rule(level);
	if (disks > SP_MAX_DISKS)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "disks: %u is more than %u", disks, SP_MAX_DISKS);
	if (li->spans) {
		r = check_spans(li, disks, spans, err);
		if (r < 0)
			return r;
		*ret_data_disks = spans * (disks / spans - li->parity_disks);
		return 0;
	}
	if (spans > 1)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "spans: %s has no spans (spans apply to RAID50 and RAID60)",
				    sp_level_name(li->level));
	if (disks < rule->min_disks)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "disks: %s needs at least %u disk%s, not %u%s%s%s",
				    sp_level_name(li->level), rule->min_disks,
				    rule->min_disks == 1 ? "" : "s", disks, CITE(rule->source));
	if (rule->even_disks && disks % 2)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "disks: %s needs an even number of disks, not %u%s%s%s",
				    sp_level_name(li->level), disks, CITE(rule->source));
	if (rule->n_layouts) {
		l = layout && layout->near_copies ? *layout : rule->layouts[0];
		r = check_layout(rule, disks, &l, err);
		if (r < 0)
			return r;
	}
	data = plain_data_disks(rule, li, disks, &l);
	*ret_data_disks = data;
	return 0;
}

int sp_raid_data_disks(enum sp_level level, unsigned disks, unsigned spans,
		       unsigned *ret_data_disks, struct sp_error *err)
{
	return sp_raid_data_disks_rule(NULL, level, disks, spans, NULL, ret_data_disks, err);
}
