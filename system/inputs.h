/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files a user hands over: a plan file, a device facts file, the
 * directories of a site's controller profiles.  Each is read here as
 * untrusted input (sp_read_input_at: a regular file, bounded, never a
 * blocking open) and its text given to the core, which never reads a
 * file itself.
 */
#ifndef STRIPEPLAN_INPUTS_H
#define STRIPEPLAN_INPUTS_H

#include "stripeplan.h"

/* sp_plan_from_json() on the file at path; an empty file is refused with
 * a hint. */
int sp_plan_load_file(const char *path, struct sp_plan *ret, struct sp_error *err);
/* sp_facts_from_json() on the file at path. */
int sp_facts_load_json(const char *path, struct sp_facts *ret, struct sp_error *err);
/* The embedded profiles, then *.json from each directory in dirs in name
 * order (NULL-terminated; a missing directory is fine, a bad file is an
 * error). */
int sp_profiles_load(const char *const *dirs, struct sp_profile_set **ret, struct sp_error *err);

#endif
