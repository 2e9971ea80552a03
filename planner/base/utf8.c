/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strict UTF-8 and the \xNN escaping JSON output uses (utf8.h). */
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

static bool continuation(unsigned char c)
{
	return c >= 0x80 && c <= 0xbf;
}

size_t sp_utf8_char_len(const unsigned char *s, size_t len)
{
	/* the second byte's range depends on the first: that is what rules
	 * out overlong forms (E0, F0), surrogates (ED) and > U+10FFFF (F4) */
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (!len)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (len < n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (!continuation(s[i]))
			return 0;
	return n;
}

bool sp_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s), n;

	for (; left; p += n, left -= n)
		if (!(n = sp_utf8_char_len(p, left)))
			return false;
	return true;
}

static bool backslash_x(const unsigned char *p)
{
	return p[0] == '\\' && p[1] == 'x';
}

char *sp_utf8_escape(const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s), n;
	char *out = malloc(4 * left + 1), *o = out;

	if (!out)
		return NULL;
	for (; left; p += n, left -= n) {
		n = backslash_x(p) ? 0 : sp_utf8_char_len(p, left);
		if (n) {
			memcpy(o, p, n);
			o += n;
			continue;
		}
		*o++ = '\\';
		*o++ = 'x';
		*o++ = hex[*p >> 4];
		*o++ = hex[*p & 0xf];
		n = 1;
	}
	*o = '\0';
	return out;
}
