/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

size_t sp_array_room_for(size_t n)
{
	size_t room = 1;

	if (!n)
		return 0;
	while (room < n && room <= SIZE_MAX / 2)
		room *= 2;
	return room;
}

int sp_array_room(void *items, size_t n, size_t size)
{
	void **p = items;
	size_t room = sp_array_room_for(n), more = sp_array_room_for(n + 1);
	void *grown;

	if (!size)
		return -EINVAL;
	if (n < room)
		return 0;
	if (more < n + 1 || more > SIZE_MAX / size)
		return -ENOMEM;
	grown = realloc(*p, more * size);
	if (!grown)
		return -ENOMEM;
	memset((char *)grown + room * size, 0, (more - room) * size);
	*p = grown;
	return 0;
}

int sp_array_dup(void *dst, const void *src, size_t n, size_t size)
{
	void **d = dst;
	size_t room = sp_array_room_for(n);

	*d = NULL;
	if (!n)
		return 0;
	if (!size)
		return -EINVAL;
	if (size && room > SIZE_MAX / size)
		return -ENOMEM;
	*d = calloc(room, size);
	if (!*d)
		return -ENOMEM;
	memcpy(*d, src, n * size);
	return 0;
}
