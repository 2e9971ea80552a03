/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STRIPEPLAN_BASE_EMBEDDED_H
#define STRIPEPLAN_BASE_EMBEDDED_H

#include <stddef.h>

/* Data files compiled into the binary (cmake/embed.cmake). */
struct sp_embedded {
	const char *name; /* file name, e.g. "hp-p400.json" */
	const char *text;
};

extern const struct sp_embedded sp_embedded_profiles[];
extern const struct sp_embedded sp_embedded_templates[];

#endif
