/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STRIPEPLAN_EMBEDDED_H
#define STRIPEPLAN_EMBEDDED_H

#include <stddef.h>
#include <stdio.h>

/* Data files compiled into the binary (cmake/embed.cmake). */
struct sp_embedded {
	const char *name; /* file name, e.g. "hp-p400.json" */
	const char *text;
};

extern const struct sp_embedded sp_embedded_profiles[];
extern const struct sp_embedded sp_embedded_templates[];

/* NULL when absent. */
const char *sp_embedded_template(const char *name);

/* A template's @KEY@ and what replaces it. */
struct sp_subst {
	const char *key; /* "@SCRIPT@" */
	const char *value;
};

/* Writes tpl to f, replacing each @KEY@ of s[0..n); any other '@' is kept.
 * Values are written as they are, never scanned for keys themselves. */
void sp_fill_template(FILE *f, const char *tpl, const struct sp_subst *s, size_t n);

#endif
