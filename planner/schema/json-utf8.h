/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * UTF-8 in JSON trees (utf8.h has the rules).  What stripeplan reads as
 * JSON (plans, profiles, facts) must be UTF-8 throughout, keys and
 * strings alike, as strict parsers require -- json-c's own check lets
 * overlong forms through; what it prints has every string that is not
 * escaped first.  Together they keep a plan file reading back to exactly
 * the plan that was written.
 */
#ifndef STRIPEPLAN_SCHEMA_JSON_UTF8_H
#define STRIPEPLAN_SCHEMA_JSON_UTF8_H

#include <stdbool.h>

#include <json-c/json.h>

#include "base/error.h"

/* 0 when every key and string in root is valid UTF-8; else -EILSEQ with
 * err: "WHAT: '\xff...' is not valid UTF-8 ..." (invalid input, exit 2). */
int sp_json_require_utf8(json_object *root, const char *what, struct sp_error *err);
/* Escapes (sp_utf8_escape) every string value in root that is not valid
 * UTF-8.  false when memory ran out. */
bool sp_json_escape_utf8(json_object *root);

#endif
