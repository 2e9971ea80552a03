/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RAID levels and what they leave for data. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stripeplan.h"

struct level_info {
	enum sp_level level;
	const char *name;
	unsigned min_disks;      /* whole array (per span for 50/60) */
	unsigned parity_disks;   /* per span */
	bool spans;
};

static const struct level_info levels[] = {
	{ SP_LEVEL_0, "raid0", 2, 0, false },  { SP_LEVEL_1, "raid1", 2, 0, false },
	{ SP_LEVEL_5, "raid5", 3, 1, false },  { SP_LEVEL_6, "raid6", 4, 2, false },
	{ SP_LEVEL_10, "raid10", 4, 0, false }, { SP_LEVEL_50, "raid50", 3, 1, true },
	{ SP_LEVEL_60, "raid60", 4, 2, true },
};

static const struct level_info *level_info(enum sp_level level)
{
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (levels[i].level == level)
			return &levels[i];
	return NULL;
}

unsigned sp_level_bit(enum sp_level level)
{
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (levels[i].level == level)
			return 1U << i;
	return 0;
}

int sp_parse_level(const char *text, enum sp_level *ret_level, struct sp_error *err)
{
	const char *p = text ? text : "";

	if (!strncasecmp(p, "raid", 4))
		p += 4;
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		if (!strcmp(p, levels[i].name + 4)) {
			*ret_level = levels[i].level;
			return 0;
		}
	}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID, "level",
			    "level: unknown RAID level '%s' (known: 0, 1, 5, 6, 10, 50, 60)",
			    text ? text : "");
}

const char *sp_level_name(enum sp_level level)
{
	const struct level_info *li = level_info(level);

	return li ? li->name : "unknown";
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

static int check_spans(const struct level_info *li, unsigned disks, unsigned spans,
		       struct sp_error *err)
{
	if (spans == 0)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "spans",
				    "spans: %s needs --spans (the number of %s sets striped together)",
				    li->name, li->level == SP_LEVEL_50 ? "RAID5" : "RAID6");
	if (spans < 2)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "spans",
				    "spans: %s needs at least 2 spans, not %u", li->name, spans);
	if (disks % spans)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "disks",
				    "disks: %u disks cannot be split into %u equal spans", disks, spans);
	if (disks / spans < li->min_disks)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "disks",
				    "disks: each %s span needs at least %u disks, %u disks in %u spans gives %u",
				    li->name, li->min_disks, disks, spans, disks / spans);
	return 0;
}

int sp_raid_data_disks(enum sp_level level, unsigned disks, unsigned spans,
		       unsigned *ret_data_disks, struct sp_error *err)
{
	const struct level_info *li = level_info(level);
	unsigned data;
	int r;

	if (!li)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "level", "level: unknown RAID level");
	if (disks > SP_MAX_DISKS)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID, "disks",
				    "disks: %u is more than %u", disks, SP_MAX_DISKS);
	if (li->spans) {
		r = check_spans(li, disks, spans, err);
		if (r < 0)
			return r;
		data = spans * (disks / spans - li->parity_disks);
	} else {
		if (spans > 1)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID, "spans",
					    "spans: %s has no spans (spans apply to RAID50 and RAID60)",
					    li->name);
		if (disks < li->min_disks)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID, "disks",
					    "disks: %s needs at least %u disks, not %u", li->name,
					    li->min_disks, disks);
		if (level == SP_LEVEL_10 && disks % 2)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID, "disks",
					    "disks: raid10 needs an even number of disks, not %u", disks);
		switch (level) {
		case SP_LEVEL_1:
			data = 1;
			break;
		case SP_LEVEL_10:
			data = disks / 2;
			break;
		default:
			data = disks - li->parity_disks;
			break;
		}
	}
	*ret_data_disks = data;
	return 0;
}
