/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The planner's stages, one file each, and what they share. */
#ifndef STRIPEPLAN_PLAN_INTERNAL_H
#define STRIPEPLAN_PLAN_INTERNAL_H

#include "plan.h"

/* The page of the machines stripeplan runs on: an entry of md's stripe
 * cache, and what an optimal I/O size that could be a stripe is made of. */
#define SP_PAGE_BYTES 4096U

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
/* The device exports a strip and a full stripe (queue/minimum_io_size >
 * the physical block, optimal_io_size); why they cannot be one, or NULL. */
bool sp_topology_exported(const struct sp_facts *f);
const char *sp_topology_implausible(const struct sp_facts *f, char *buf, size_t len);
bool sp_plan_member_lacks(const struct sp_facts *facts, const char *disk, const char *knob);

/*
 * The stages sp_plan_make() runs after the array's, in order; each fills
 * its part of the plan or returns -errno with err saying why (the spec is
 * the one the array stage settled: its level, disks and chunk).
 *   partition   alignment, table, start and size (planner/plan/partition.c)
 *   stack       LUKS2 and LVM between the partition and the filesystem,
 *               each on a full stripe; what the filesystem goes on (stack.c)
 *   filesystem  geometry and the mkfs argv (filesystem.c)
 *   mount       options and the fstab line (mount.c)
 *   tuning      knobs, module options, what is left out (tuning.c)
 */
int sp_plan_partition(const struct sp_spec *spec, const struct sp_profile *profile,
		      struct sp_plan *plan, struct sp_error *err);
int sp_plan_stack(const struct sp_spec *spec, const struct sp_profile *profile,
		  struct sp_plan *plan, struct sp_error *err);
int sp_plan_filesystem(const struct sp_spec *spec, const struct sp_profile *profile,
		       struct sp_plan *plan, struct sp_error *err);
int sp_plan_mount(const struct sp_spec *spec, const struct sp_profile *profile,
		  struct sp_plan *plan, struct sp_error *err);
/* After the tuning stage: the device's planned read-ahead carried to the
 * stack's top, which the filesystem reads through (stack.c). */
void sp_plan_stack_read_ahead(struct sp_plan *plan);
int sp_plan_tuning(const struct sp_spec *spec, const struct sp_profile *profile,
		   struct sp_plan *plan, struct sp_error *err);

#endif
