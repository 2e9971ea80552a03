/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text templates (templates/NAME.in, embedded at build time) and filling them. */
#ifndef STRIPEPLAN_RENDER_TEMPLATE_H
#define STRIPEPLAN_RENDER_TEMPLATE_H

#include <stddef.h>
#include <stdio.h>

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
