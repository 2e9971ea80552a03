/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the on-disk readers share: fields in a stated byte order, and the
 * one way a check's failure is put into words. */
#ifndef STRIPEPLAN_ONDISK_INTERNAL_H
#define STRIPEPLAN_ONDISK_INTERNAL_H

#include <stdarg.h>
#include <stdio.h>

#include "ondisk.h"

static inline uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

static inline uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[1] << 8 | p[0]);
}

static inline uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static inline uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p + 4) << 32 | get_le32(p);
}

/* Says why (when the caller wants to know) and returns DAMAGED. */
static inline enum sp_ondisk_verdict damaged(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline enum sp_ondisk_verdict damaged(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return SP_ONDISK_DAMAGED;
}

#endif
