/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The knobs stripeplan sets: each one's kernel bounds, unit and clamping,
 * its values parsed once and compared as numbers, and a plan's tuning
 * entries: the sysfs file each one names and the characters it may hold.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "kernel.h"
#include "knob.h"
#include "limits/limit.h"

static const char *const sp_scheduler_table[] = {
	[SP_SCHED_NONE] = "none",   [SP_SCHED_MQ_DEADLINE] = "mq-deadline",
	[SP_SCHED_BFQ] = "bfq",     [SP_SCHED_KYBER] = "kyber",
	[SP_SCHED_NOOP] = "noop",   [SP_SCHED_DEADLINE] = "deadline",
	[SP_SCHED_CFQ] = "cfq",
};
SP_STRING_TABLE(sp_scheduler, enum sp_scheduler, "none")

/*
 * Each knob's bounds are its row in the limits table (limit.c), where the
 * kernel function that refuses a value outside them is named.  The bounds
 * that depend on the device (max_hw_sectors_kb, the tag depth, the host's
 * can_queue) or on the scheduler (2048 requests) are the planner's to
 * check; these are the widest any kernel takes.  kernel_may_lower: the
 * store succeeds with less than was asked (the SCSI midlayer lowers
 * queue_depth; 6.12 lowers max_sectors_kb to the hardware's).
 */
static const struct sp_knob knobs[] = {
	{ "queue/read_ahead_kb", SP_VALUE_NUMBER, SP_LIMIT_READ_AHEAD_KB, false, false, true },
	{ "queue/max_sectors_kb", SP_VALUE_NUMBER, SP_LIMIT_MAX_SECTORS_KB, true, false, true },
	{ "queue/nr_requests", SP_VALUE_NUMBER, SP_LIMIT_NR_REQUESTS, false, false, true },
	{ "device/queue_depth", SP_VALUE_NUMBER, SP_LIMIT_QUEUE_DEPTH, true, false, true },
	{ "md/stripe_cache_size", SP_VALUE_NUMBER, SP_LIMIT_MD_STRIPE_CACHE, false, true, true },
	{ "md/sync_speed_min", SP_VALUE_NUMBER, SP_LIMIT_MD_SYNC_SPEED, false, false, true },
	{ "md/sync_speed_max", SP_VALUE_NUMBER, SP_LIMIT_MD_SYNC_SPEED, false, false, true },
	{ "queue/scheduler", SP_VALUE_SCHEDULER, SP_LIMIT_COUNT, false, false, false },
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

/* A knob's value within its row; the message names the row's source. */
static int parse_knob_number(const char *text, const struct sp_knob *knob, uint64_t *ret,
			     struct sp_error *err)
{
	const struct sp_limit *l = sp_limit(knob->limit);
	struct sp_error why = { 0 };
	uint64_t v = 0; /* clang-tidy cannot see that sp_error_set() never returns 0 */
	int r;

	/* no row: a plan file's attribute stripeplan does not set (the replan refuses it) */
	if (!l)
		return parse_number(text, "a sysfs attribute", 0, (uint64_t)INT64_MAX - 1, ret, err);
	r = parse_number(text, knob->attribute, 0, UINT64_MAX, &v, err);
	if (r < 0)
		return r;
	r = sp_limit_check(knob->limit, v, knob->attribute, NULL, &why);
	if (r < 0)
		return sp_error_set(err, -r, SP_ERR_INVALID, "%" PRIu64 " is out of the kernel's "
				    "range for %s (%" PRIu64 "..%" PRIu64 " %s; %s)", v,
				    knob->attribute, l->min, l->max, l->unit, SP_LIMIT_CITED(knob->limit));
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
		r = parse_knob_number(text, knob, &v.number, err);
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

/* ------------------------------------------------------------ entries */

#define SYSFS_BLOCK "/sys/block/"
#define SYSFS_MODULE "/sys/module/"
#define MODULE_PARAMS "parameters/"
/* "cciss!c0d0": the kernel writes the '/' of a device name as '!' */
#define DEVICE_NAME_CHARS "._-!:"
#define ATTR_NAME_CHARS "._-"

static bool name_ok(const char *s, size_t n, const char *extra)
{
	if (n == 0 || n >= SP_NAME_MAX || (n == 1 && s[0] == '.') ||
	    (n == 2 && s[0] == '.' && s[1] == '.'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr(extra, s[i]))
			return false;
	return true;
}

/* "queue/read_ahead_kb": components of a relative path, no "." or "..". */
static bool attr_ok(const char *attr)
{
	const char *end;

	for (;;) {
		end = strchr(attr, '/');
		if (!name_ok(attr, end ? (size_t)(end - attr) : strlen(attr), ATTR_NAME_CHARS))
			return false;
		if (!end)
			return true;
		attr = end + 1;
	}
}

/*
 * A value is a number, a scheduler's name (queue/scheduler) or, for a
 * module parameter only, a word of [a-z0-9,]: text that needs no quoting
 * in sysfs, the udev rule, the tune script or modprobe.d.
 */
static bool value_ok(const struct sp_tuning *t)
{
	const struct sp_value *v = &t->value;

	switch (v->kind) {
	case SP_VALUE_NUMBER:
		return true;
	case SP_VALUE_SCHEDULER:
		return t->kind == SP_TUNING_SYSFS && !strcmp(t->attribute, "queue/scheduler");
	case SP_VALUE_WORD:
		return t->kind == SP_TUNING_MODULE && v->word[0] &&
		       strspn(v->word, "abcdefghijklmnopqrstuvwxyz0123456789,") == strlen(v->word);
	case SP_VALUE_UNSET:
	case SP_VALUE_AUTO:
		break;
	}
	return false;
}

static const char *const sp_tuning_kind_table[] = {
	[SP_TUNING_SYSFS] = "sysfs",
	[SP_TUNING_MODULE] = "module",
};
SP_STRING_TABLE(sp_tuning_kind, enum sp_tuning_kind, NULL)

int sp_tuning_path(const struct sp_tuning *t, char *buf, size_t len)
{
	int n = t->kind == SP_TUNING_MODULE ?
			snprintf(buf, len, SYSFS_MODULE "%s/" MODULE_PARAMS "%s", t->device,
				 t->attribute) :
			snprintf(buf, len, SYSFS_BLOCK "%s/%s", t->device, t->attribute);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int sp_tuning_from_path(enum sp_tuning_kind kind, const char *path, struct sp_tuning *ret)
{
	const char *prefix = kind == SP_TUNING_MODULE ? SYSFS_MODULE : SYSFS_BLOCK;
	const char *name, *slash, *attr;
	size_t n;

	if (strncmp(path, prefix, strlen(prefix)) != 0)
		return -EINVAL;
	name = path + strlen(prefix);
	slash = strchr(name, '/');
	if (!slash)
		return -EINVAL;
	n = (size_t)(slash - name);
	attr = slash + 1;
	if (kind == SP_TUNING_MODULE) {
		if (strncmp(attr, MODULE_PARAMS, strlen(MODULE_PARAMS)) != 0)
			return -EINVAL;
		attr += strlen(MODULE_PARAMS);
	}
	if (n >= sizeof(ret->device) || strlen(attr) >= sizeof(ret->attribute))
		return -EINVAL;
	ret->kind = kind;
	memcpy(ret->device, name, n);
	ret->device[n] = '\0';
	memcpy(ret->attribute, attr, strlen(attr) + 1);
	return 0;
}

int sp_tuning_check(const struct sp_tuning *t)
{
	bool module = t->kind == SP_TUNING_MODULE;

	if (!sp_tuning_kind_name(t->kind) || !value_ok(t))
		return -EINVAL;
	if (module && strchr(t->attribute, '/'))
		return -EINVAL;
	if (!name_ok(t->device, strlen(t->device), module ? ATTR_NAME_CHARS : DEVICE_NAME_CHARS) ||
	    !attr_ok(t->attribute))
		return -EINVAL;
	return 0;
}
