/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sizes and counts as people type them.  stripeplan's units are binary
 * (K = 1024) and it refuses the decimal spellings parted reads as powers
 * of 1000 ("kB", "MB"): report 003 lost an afternoon to exactly that.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "error.h"
#include "units.h"

bool sp_is_power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

uint64_t sp_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int sp_mul_overflows(uint64_t a, uint64_t b, uint64_t *ret)
{
	uint64_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return -EOVERFLOW;
	*ret = r;
	return 0;
}

int sp_lcm(uint64_t a, uint64_t b, uint64_t *ret)
{
	if (a == 0 || b == 0)
		return -EINVAL;
	return sp_mul_overflows(a / sp_gcd(a, b), b, ret);
}

struct suffix {
	const char *text;
	unsigned shift;
};

/* Binary suffixes, matched case-insensitively. */
static const struct suffix binary_suffixes[] = {
	{ "", 0 },    { "b", 0 },    { "k", 10 },   { "kib", 10 }, { "m", 20 },
	{ "mib", 20 }, { "g", 30 },   { "gib", 30 }, { "t", 40 },   { "tib", 40 },
	{ "p", 50 },  { "pib", 50 },
};

/* Spellings that mean powers of 1000 to parted, sfdisk and disk vendors. */
static const char *const decimal_suffixes[] = { "kb", "mb", "gb", "tb", "pb" };

int sp_parse_size(const char *text, const char *field, uint64_t *ret_bytes,
		  struct sp_error *err)
{
	const char *p = text;
	uint64_t value = 0;
	size_t i;

	if (!text || !*text)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "%s: empty size", field);
	if (*p == '-')
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s: '%s' is negative", field, text);
	if (!isdigit((unsigned char)*p))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s: '%s' is not a size (use e.g. 256K, 1M, 2T)", field, text);
	for (; isdigit((unsigned char)*p); p++) {
		if (__builtin_mul_overflow(value, 10, &value) ||
		    __builtin_add_overflow(value, (uint64_t)(*p - '0'), &value))
			return sp_error_set(err, ERANGE, SP_ERR_INVALID,
					    "%s: '%s' is too large", field, text);
	}
	if (*p == '.' || *p == ',')
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "%s: '%s' has a fraction; give a whole number of a smaller unit",
				    field, text);
	for (i = 0; i < ARRAY_SIZE(decimal_suffixes); i++) {
		if (!strcasecmp(p, decimal_suffixes[i])) {
			char unit = (char)toupper((unsigned char)p[0]);

			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "%s: '%s' is ambiguous (parted reads '%s' as powers of 1000); "
					    "use %.*s%c or %.*s%ciB",
					    field, text, p, (int)(p - text), text, unit,
					    (int)(p - text), text, unit);
		}
	}
	for (i = 0; i < ARRAY_SIZE(binary_suffixes); i++) {
		if (!strcasecmp(p, binary_suffixes[i].text)) {
			unsigned shift = binary_suffixes[i].shift;

			if (shift && value > (UINT64_MAX >> shift))
				return sp_error_set(err, ERANGE, SP_ERR_INVALID,
						    "%s: '%s' is too large", field, text);
			*ret_bytes = value << shift;
			return 0;
		}
	}
	return sp_error_set(err, EINVAL, SP_ERR_INVALID,
			    "%s: unknown unit '%s' in '%s' (use B, K, M, G, T, P or KiB, MiB, GiB, TiB, PiB)",
			    field, p, text);
}

int sp_parse_count(const char *text, const char *field, uint64_t min, uint64_t max,
		   uint64_t *ret_value, struct sp_error *err)
{
	uint64_t value = 0;
	const char *p;

	if (!text || !*text)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "%s: empty number", field);
	if (*text == '-')
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "%s: '%s' is negative", field, text);
	for (p = text; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "%s: '%s' is not a whole number", field, text);
		if (__builtin_mul_overflow(value, 10, &value) ||
		    __builtin_add_overflow(value, (uint64_t)(*p - '0'), &value))
			return sp_error_set(err, ERANGE, SP_ERR_INVALID,
					    "%s: '%s' is too large (at most %" PRIu64 ")", field,
					    text, max);
	}
	if (value < min || value > max)
		return sp_error_set(err, ERANGE, SP_ERR_INVALID,
				    "%s: %" PRIu64 " is out of range (%" PRIu64 "..%" PRIu64 ")",
				    field, value, min, max);
	*ret_value = value;
	return 0;
}

/* "256K", "1M", "1792K", "33553920": the form mkfs tools and our flags take */
static void size_short(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGTP";
	unsigned i = 0;
	uint64_t v = bytes;

	if (bytes == 0 || bytes % 1024) {
		snprintf(buf, len, "%" PRIu64, bytes);
		return;
	}
	v = bytes / 1024;
	while (i + 1 < sizeof(units) - 1 && v % 1024 == 0) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", v, units[i]);
}

/* "256 KiB", "1.75 MiB", "2.18 TiB": for people */
static void size_human(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned i = 0;
	uint64_t whole = bytes, rem = 0, div = 1;

	while (whole >= 1024 && i + 1 < ARRAY_SIZE(units)) {
		div *= 1024;
		whole = bytes / div;
		i++;
	}
	if (i == 0) {
		snprintf(buf, len, "%" PRIu64 " B", bytes);
		return;
	}
	rem = bytes % div;
	if (rem == 0) {
		snprintf(buf, len, "%" PRIu64 " %s", whole, units[i]);
		return;
	}
	/* two decimals, truncated so a size is never overstated */
	snprintf(buf, len, "%" PRIu64 ".%02" PRIu64 " %s", whole,
		 (uint64_t)((unsigned __int128)rem * 100 / div), units[i]);
}

const char *sp_format_size(uint64_t bytes, enum sp_size_style style, char *buf, size_t len)
{
	if (style == SP_SIZE_HUMAN) {
		size_human(bytes, buf, len);
		return buf;
	}
	size_short(bytes, buf, len);
	/* mkfs.xfs documents its sizes in lower case: "256k" */
	for (char *c = buf; style == SP_SIZE_MKFS && *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c - 'A' + 'a');
	return buf;
}
