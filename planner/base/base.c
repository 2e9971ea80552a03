/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base.h"

int sp_names_lookup(const struct sp_names *t, const char *s)
{
	for (size_t i = 0; s && i < t->n; i++)
		if (t->names[i] && !strcmp(t->names[i], s))
			return (int)i;
	return -EINVAL;
}

const char *sp_names_get(const struct sp_names *t, long v)
{
	return v >= 0 && (size_t)v < t->n ? t->names[v] : NULL;
}

const char *sp_names_join(const struct sp_names *t, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < t->n && used < len; i++)
		if (t->names[i])
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 t->names[i]);
	return buf;
}
