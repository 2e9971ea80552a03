/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The planner's stages that live in their own files. */
#ifndef STRIPEPLAN_PLAN_INTERNAL_H
#define STRIPEPLAN_PLAN_INTERNAL_H

#include "stripeplan.h"

/* Level, disks, chunk, layout and the stripe, from the spec and (for a
 * probed md array) the kernel; fills plan's array fields and sources. */
int sp_plan_array(const struct sp_spec *spec, const struct sp_profile *profile,
		  const struct sp_facts *facts, struct sp_plan *plan, struct sp_error *err);

/* The member disks to tune: the probed md members' whole disks (each
 * once), else the declared --members. */
void sp_plan_members(const struct sp_spec *spec, const struct sp_facts *facts,
		     struct sp_plan *plan);

/* Whether the probe saw that member disk `disk` has no such knob
 * (device/queue_depth exists on SCSI disks only). */
bool sp_plan_member_lacks(const struct sp_facts *facts, const char *disk, const char *knob);

#endif
