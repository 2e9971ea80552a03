/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * UTF-8 as strict decoders take it (Unicode 15, table 3-7; RFC 3629): no
 * overlong forms, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF.
 * What the user types must be valid UTF-8; what is read from the system
 * (fstab lines, tool output, serial numbers) may not be, so a string
 * JSON carries that is not valid UTF-8 is escaped first, the way
 * util-linux's lsblk and findmnt escape names they print: each byte that
 * is not part of valid UTF-8 becomes the four characters \xNN (two
 * lowercase hex digits), and a backslash that is followed by 'x' becomes
 * \x5c, so the escaped text reads back to the same bytes and no original
 * "\x" passes for an escape.  A valid string is never escaped: a plan
 * file must read back as exactly what was planned.
 */
#ifndef STRIPEPLAN_BASE_UTF8_H
#define STRIPEPLAN_BASE_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* The length (1..4) of the one valid UTF-8 character at s, whose len
 * bytes are readable; 0 when those bytes are not one. */
size_t sp_utf8_char_len(const unsigned char *s, size_t len);
/* The NUL-terminated s is valid UTF-8 throughout. */
bool sp_utf8_valid(const char *s);
/* s escaped as above, malloc'd (NULL when out of memory); for a string
 * that is not valid UTF-8.  The result is valid UTF-8 and at most
 * 4 x strlen(s) + 1 bytes. */
char *sp_utf8_escape(const char *s);

#endif
