/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The JSON objects stripeplan reads and writes, each described once by a
 * field table (schema.h): the plan file, a device facts file and its md
 * object, a controller profile.  Text in, structs out, and back: no file
 * is read here (system/inputs.c reads them).
 */
#ifndef STRIPEPLAN_SCHEMA_OBJECTS_H
#define STRIPEPLAN_SCHEMA_OBJECTS_H

#include "array/facts.h"
#include "array/md.h"
#include "array/profile.h"
#include "plan/plan.h"

struct json_object;
struct sp_error;

#define SP_PLAN_FORMAT_VERSION 1

/* Loads a plan written by sp_format_plan_json (apply --plan FILE).  The
 * loader is strict: a missing or mistyped field is an error naming it.
 * *ret is overwritten on success; release it (sp_plan_release). */
int sp_plan_from_json(const char *text, struct sp_plan *ret, struct sp_error *err);
/* The plan as the JSON object a plan file holds (NULL: out of memory);
 * sp_format_plan_json() prints it. */
struct json_object *sp_plan_to_json(const struct sp_plan *plan);

/* The same for a device facts file; origin names it in messages.  The
 * same field names as the plan's "device" object, so planning is
 * testable without a device. */
int sp_facts_from_json(const char *text, const char *origin, struct sp_facts *ret,
		       struct sp_error *err);  /* release *ret: sp_facts_release() */
/* The "md" object of a facts file or a plan's device: NULL when
 * md->present is false. */
struct json_object *sp_md_facts_to_json(const struct sp_md_facts *md);

/* A controller profile from its JSON text; origin names it in messages. */
int sp_profile_parse(const char *json_text, const char *origin, struct sp_profile *ret,
		     struct sp_error *err);

#endif
