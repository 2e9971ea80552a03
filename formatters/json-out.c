/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON text that strict parsers accept.  json-c copies a string's bytes
 * into the text as they are, so a mount point, fstab line, serial number
 * or tool message with a byte that is not UTF-8 would make the whole
 * document invalid for Python's json, jq and Go; each such string is
 * escaped in the tree before it is printed, in one place for every
 * formatter.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "json-out.h"
#include "schema/json-utf8.h"

char *sp_json_to_text(json_object *root)
{
	const char *s;
	char *out = NULL;
	size_t len;

	if (!root || !sp_json_escape_utf8(root))
		goto out;
	s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							 JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s)
		goto out;
	len = strlen(s);
	out = malloc(len + 2);
	if (out) {
		memcpy(out, s, len);
		out[len] = '\n';
		out[len + 1] = '\0';
	}
out:
	json_object_put(root);
	return out;
}
