/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan -> text.  Every formatter returns a malloc'd NUL-terminated string
 * (NULL on out-of-memory) and never prints; the CLI decides where it goes.
 */
#ifndef STRIPEPLAN_FORMAT_H
#define STRIPEPLAN_FORMAT_H

#include "stripeplan.h"

#define SP_PLAN_FORMAT_VERSION 1

char *sp_format_plan_json(const struct sp_plan *plan);
char *sp_format_plan_text(const struct sp_plan *plan);
char *sp_format_profiles_json(const struct sp_profile_set *set);
char *sp_format_profiles_text(const struct sp_profile_set *set);

/* Loads a plan written by sp_format_plan_json (apply --plan FILE).  The
 * loader is strict: a missing or mistyped field is an error naming it. */
int sp_plan_from_json(const char *text, struct sp_plan *ret, struct sp_error *err);

#endif
