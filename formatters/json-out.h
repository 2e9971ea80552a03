/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STRIPEPLAN_JSON_OUT_H
#define STRIPEPLAN_JSON_OUT_H

#include <json-c/json.h>

/*
 * The one way a formatter turns a JSON tree into text: every string value
 * in it is made valid UTF-8 first (planner/utf8.h: \xNN for a byte that is
 * not), then it is printed pretty, with "/" unescaped and a final newline.
 * Keys are the formatters' own ASCII names and are left as they are.
 * Takes root (json_object_put) and returns malloc'd text, NULL when out
 * of memory.
 */
char *sp_json_to_text(json_object *root);

#endif
