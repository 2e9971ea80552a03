/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UTF-8 in JSON trees: refused in what is read, escaped in what is printed (json-utf8.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "json-utf8.h"

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

/*
 * Calls visit on every key (value NULL) and every string value (key NULL)
 * of root until it returns false.  Returns false when it did, or when
 * memory ran out.
 */
static bool each_string(json_object *root, bool (*visit)(const char *key, json_object *value,
							 void *data),
			void *data)
{
	struct walk w = { .ok = true };
	bool go_on = true;

	push(&w, root);
	while (go_on && w.ok && w.n) {
		json_object *o = w.items[--w.n].o;

		switch (json_object_get_type(o)) {
		case json_type_string:
			go_on = visit(NULL, o, data);
			break;
		case json_type_array:
			for (size_t i = 0; i < json_object_array_length(o); i++)
				push(&w, json_object_array_get_idx(o, i));
			break;
		case json_type_object: {
			json_object_object_foreach(o, key, value) {
				go_on = go_on && visit(key, NULL, data);
				push(&w, value);
			}
			break;
		}
		default:
			break;
		}
	}
	free(w.items);
	return go_on && w.ok;
}

static bool first_invalid(const char *key, json_object *value, void *data)
{
	const char *s = key ? key : json_object_get_string(value);

	if (sp_utf8_valid(s))
		return true;
	*(const char **)data = s;
	return false;
}

int sp_json_require_utf8(json_object *root, const char *what, struct sp_error *err)
{
	const char *bad = NULL;
	char *shown;

	if (each_string(root, first_invalid, &bad))
		return 0;
	if (!bad)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "%s: out of memory", what);
	shown = sp_utf8_escape(bad);
	sp_error_set(err, EILSEQ, SP_ERR_INVALID,
		     "%s: '%.80s' is not valid UTF-8 (shown with \\xNN for each byte that is not); "
		     "JSON input must be UTF-8", what, shown ? shown : "?");
	free(shown);
	return -EILSEQ;
}

static bool escape_value(const char *key, json_object *value, void *data)
{
	char *safe;
	bool ok;

	(void)data;
	if (key || sp_utf8_valid(json_object_get_string(value)))
		return true;
	safe = sp_utf8_escape(json_object_get_string(value));
	ok = safe && json_object_set_string(value, safe);
	free(safe);
	return ok;
}

bool sp_json_escape_utf8(json_object *root)
{
	return each_string(root, escape_value, NULL);
}
