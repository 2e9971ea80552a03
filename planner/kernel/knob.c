/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "knob.h"
#include "stripeplan.h"

static const char *const sp_scheduler_table[] = {
	[SP_SCHED_NONE] = "none",   [SP_SCHED_MQ_DEADLINE] = "mq-deadline",
	[SP_SCHED_BFQ] = "bfq",     [SP_SCHED_KYBER] = "kyber",
	[SP_SCHED_NOOP] = "noop",   [SP_SCHED_DEADLINE] = "deadline",
	[SP_SCHED_CFQ] = "cfq",
};
SP_STRING_TABLE(sp_scheduler, enum sp_scheduler, "none")

/*
 * The kernel's bounds (block/blk-sysfs.c, drivers/md/md.c, raid5.c): a
 * value outside them is refused by the store, so a profile may not ask
 * for one.  nr_requests and max_sectors_kb are lowered by the kernel to
 * what the scheduler and hardware take; queue_depth by the SCSI driver.
 */
static const struct sp_knob knobs[] = {
	{ "queue/read_ahead_kb", SP_VALUE_NUMBER, "KiB", 0, 1048576, false, false, true },
	{ "queue/max_sectors_kb", SP_VALUE_NUMBER, "KiB", 4, 1048576, true, false, true },
	{ "queue/nr_requests", SP_VALUE_NUMBER, "requests", 4, 65536, true, false, true },
	{ "device/queue_depth", SP_VALUE_NUMBER, "commands", 1, 65536, true, false, true },
	{ "md/stripe_cache_size", SP_VALUE_NUMBER, "entries", 17, 32768, false, true, true },
	{ "md/sync_speed_min", SP_VALUE_NUMBER, "KiB/s", 1, 100000000, false, false, true },
	{ "md/sync_speed_max", SP_VALUE_NUMBER, "KiB/s", 1, 100000000, false, false, true },
	{ "queue/scheduler", SP_VALUE_SCHEDULER, "", 0, 0, false, false, false },
};

const struct sp_knob *sp_knob_find(const char *attribute)
{
	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++)
		if (!strcmp(knobs[i].attribute, attribute))
			return &knobs[i];
	return NULL;
}

const char *sp_knob_profile_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(knobs) && used < len; i++)
		if (knobs[i].in_profiles)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 knobs[i].attribute);
	return buf;
}

struct sp_value sp_value_number(uint64_t n)
{
	return (struct sp_value){ .kind = SP_VALUE_NUMBER, .number = n };
}

/* digits only, and no leading zero: the spelling the kernel prints */
static int parse_number(const char *text, const char *what, uint64_t min, uint64_t max,
			uint64_t *ret, struct sp_error *err)
{
	uint64_t v = 0;
	const char *p;

	for (p = text; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *p - '0', &v))
			return sp_error_set(err, ERANGE, SP_ERR_INVALID, "'%s' is too large", text);
	if (p == text || *p)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "'%s' is not a whole number", text);
	if (text[0] == '0' && text[1])
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "'%s' has a leading zero: write %" PRIu64
				    " (sh and C read a leading 0 as octal)",
				    text, v);
	if (v < min || v > max)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "%" PRIu64 " is out of the kernel's range for %s (%" PRIu64
				    "..%" PRIu64 ")",
				    v, what, min, max);
	*ret = v;
	return 0;
}

static int parse_module_value(const char *text, struct sp_value *v, struct sp_error *err)
{
	size_t len = strlen(text);

	if (len && strspn(text, "0123456789") == len) {
		v->kind = SP_VALUE_NUMBER;
		return parse_number(text, "a module parameter", 0, UINT32_MAX, &v->number, err);
	}
	if (!len || strspn(text, "abcdefghijklmnopqrstuvwxyz0123456789,") != len ||
	    len >= sizeof(v->word))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "'%s' must be a number or [a-z0-9,]", text);
	v->kind = SP_VALUE_WORD;
	memcpy(v->word, text, len + 1);
	return 0;
}

int sp_value_parse(const char *text, const struct sp_knob *knob, struct sp_value *ret,
		   struct sp_error *err)
{
	struct sp_value v = { 0 };
	int i, r;

	if (!knob)
		r = parse_module_value(text, &v, err);
	else if (knob->may_be_auto && !strcmp(text, "auto"))
		r = (v.kind = SP_VALUE_AUTO, 0);
	else if (knob->kind == SP_VALUE_SCHEDULER) {
		i = sp_names_lookup(&sp_scheduler_names, text);
		r = i < 0 ? sp_error_set(err, EINVAL, SP_ERR_INVALID,
					 "'%s' is not a scheduler (known: %s)", text,
					 SP_NAMES_JOINED(&sp_scheduler_names)) :
			    0;
		v.kind = SP_VALUE_SCHEDULER;
		v.scheduler = (enum sp_scheduler)(i < 0 ? 0 : i);
	} else {
		v.kind = SP_VALUE_NUMBER;
		r = parse_number(text, knob->attribute, knob->min, knob->max, &v.number, err);
	}
	if (r == 0)
		*ret = v;
	return r;
}

int sp_value_from_kernel(const char *text, const struct sp_knob *knob, struct sp_value *ret)
{
	char name[SP_VALUE_WORD_MAX];
	const char *open, *close;
	uint64_t n = 0;
	const char *p;
	int i;

	if (knob && knob->kind == SP_VALUE_SCHEDULER) {
		/* "mq-deadline [none]": the bracketed entry is the active one */
		open = strchr(text, '[');
		close = open ? strchr(open, ']') : NULL;
		if (open && close && (size_t)(close - open - 1) < sizeof(name))
			snprintf(name, sizeof(name), "%.*s", (int)(close - open - 1), open + 1);
		else
			snprintf(name, sizeof(name), "%s", text);
		if ((i = sp_names_lookup(&sp_scheduler_names, name)) < 0)
			return -EINVAL;
		*ret = (struct sp_value){ .kind = SP_VALUE_SCHEDULER, .scheduler = i };
		return 0;
	}
	if (!knob && (text[0] < '0' || text[0] > '9'))
		return parse_module_value(text, ret, NULL);
	for (p = text; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(n, 10, &n) || __builtin_add_overflow(n, *p - '0', &n))
			return -ERANGE;
	/* md says where sync_speed_min comes from: "30000 (local)", "1000 (system)" */
	if (p == text || (*p && strncmp(p, " (", 2)))
		return -EINVAL;
	*ret = sp_value_number(n);
	return 0;
}

const char *sp_value_format(const struct sp_value *v, char *buf, size_t len)
{
	switch (v->kind) {
	case SP_VALUE_NUMBER:
		snprintf(buf, len, "%" PRIu64, v->number);
		break;
	case SP_VALUE_SCHEDULER:
		snprintf(buf, len, "%s", sp_scheduler_name(v->scheduler));
		break;
	case SP_VALUE_AUTO:
		snprintf(buf, len, "auto");
		break;
	case SP_VALUE_WORD:
		snprintf(buf, len, "%s", v->word);
		break;
	case SP_VALUE_UNSET:
	default:
		snprintf(buf, len, "%s", "");
		break;
	}
	return buf;
}

bool sp_value_equal(const struct sp_value *a, const struct sp_value *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case SP_VALUE_NUMBER:
		return a->number == b->number;
	case SP_VALUE_SCHEDULER:
		return a->scheduler == b->scheduler;
	case SP_VALUE_WORD:
		return !strcmp(a->word, b->word);
	case SP_VALUE_AUTO:
	case SP_VALUE_UNSET:
		return true;
	}
	return false;
}
