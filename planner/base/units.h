/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sizes and counts: binary units, parsing with bounds, the one size
 * formatter, and the arithmetic that must not overflow. */
#ifndef STRIPEPLAN_BASE_UNITS_H
#define STRIPEPLAN_BASE_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sp_error;

#define SP_KIB 1024ULL
#define SP_MIB (1024ULL * 1024ULL)
#define SP_GIB (1024ULL * 1024ULL * 1024ULL)
#define SP_TIB (1024ULL * SP_GIB)

/* The filesystem block every plan uses (mkfs.xfs's and mke2fs's default
 * on large filesystems, the page size of the machines stripeplan runs
 * on): strides, stripe units and AG sizes are whole blocks of it. */
#define SP_FS_BLOCK_BYTES 4096U

/*
 * Parses a size with a binary suffix: plain bytes, "B", K/KiB, M/MiB, G/GiB,
 * T/TiB, P/PiB (case-insensitive single letters).  Decimal suffixes such
 * as "kB" or "MB" are rejected because parted and friends read them as
 * powers of 1000.  Rejects signs, fractions, trailing junk and overflow.
 */
int sp_parse_size(const char *text, const char *field, uint64_t *ret_bytes,
		  struct sp_error *err);
/* Parses a decimal count within [min, max]. */
int sp_parse_count(const char *text, const char *field, uint64_t min, uint64_t max,
		   uint64_t *ret_value, struct sp_error *err);
/* The one size formatter, in three spellings; returns buf. */
enum sp_size_style {
	SP_SIZE_HUMAN, /* "256 KiB", "1.75 MiB", "2.18 TiB": for people (truncated, never overstated) */
	SP_SIZE_SHORT, /* "256K", "1M", "1792K", "33553920": what mkfs tools and our flags take */
	SP_SIZE_MKFS,  /* "256k": mkfs.xfs's documented spelling */
};
#define SP_SIZE_MAX 32U
const char *sp_format_size(uint64_t bytes, enum sp_size_style style, char *buf, size_t len);
/* The same into a buffer that lives until the end of the enclosing block,
 * for a printf argument: printf("%s", SP_SIZE_TEXT(bytes, SP_SIZE_HUMAN)). */
#define SP_SIZE_TEXT(bytes, style)                                                          \
	sp_format_size((bytes), (style), (char[SP_SIZE_MAX]){ 0 }, SP_SIZE_MAX)

bool sp_is_power_of_two(uint64_t v);
uint64_t sp_gcd(uint64_t a, uint64_t b);
/* lcm; returns -EOVERFLOW when it does not fit. */
int sp_lcm(uint64_t a, uint64_t b, uint64_t *ret);
int sp_mul_overflows(uint64_t a, uint64_t b, uint64_t *ret);

#endif
