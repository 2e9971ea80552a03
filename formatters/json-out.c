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
#include "utf8.h"

static bool escape_string(json_object *o)
{
	char *safe;
	bool ok;

	if (sp_utf8_valid(json_object_get_string(o)))
		return true;
	safe = sp_utf8_escape(json_object_get_string(o));
	ok = safe && json_object_set_string(o, safe);
	free(safe);
	return ok;
}

/* What is left to visit, in a walk of the tree without recursion (a
 * tree's depth is then no concern).  A JSON null is a NULL pointer:
 * nothing to visit, and never on the list. */
struct walk {
	struct walk_item {
		json_object *o;
	} *items;
	size_t n, cap;
	bool ok;
};

static void push(struct walk *w, json_object *o)
{
	struct walk_item *grown;

	if (!o || !w->ok)
		return;
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;

		grown = realloc(w->items, cap * sizeof(struct walk_item));
		if (!grown) {
			w->ok = false;
			return;
		}
		w->items = grown;
		w->cap = cap;
	}
	w->items[w->n++].o = o;
}

static bool make_strings_utf8(json_object *root)
{
	struct walk w = { .ok = true };

	push(&w, root);
	while (w.ok && w.n) {
		json_object *o = w.items[--w.n].o;

		switch (json_object_get_type(o)) {
		case json_type_string:
			w.ok = escape_string(o);
			break;
		case json_type_array:
			for (size_t i = 0; i < json_object_array_length(o); i++)
				push(&w, json_object_array_get_idx(o, i));
			break;
		case json_type_object: {
			json_object_object_foreach(o, key, value) {
				(void)key;
				push(&w, value);
			}
			break;
		}
		default:
			break;
		}
	}
	free(w.items);
	return w.ok;
}

char *sp_json_to_text(json_object *root)
{
	const char *s;
	char *out = NULL;
	size_t len;

	if (!root || !make_strings_utf8(root))
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
