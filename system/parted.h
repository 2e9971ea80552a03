/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libparted, opened only when the partition step runs.  Loading libparted
 * runs its constructors; Debian's would start `sh -c "dmidecode ..."`
 * (parted.c says how that is stopped), and loading it costs `plan` and
 * `--version` time and memory they do not need.  So the binary does not
 * link it: sp_parted_load() dlopen()s it and fills
 * a table, and the macros below turn the step's ped_*() calls into calls
 * through that table (the prototypes come from <parted/parted.h>).
 * Include this after <parted/parted.h>, in the partition step only.
 */
#ifndef STRIPEPLAN_PARTED_H
#define STRIPEPLAN_PARTED_H

#include <parted/parted.h>

struct sp_parted {
	__typeof__(ped_constraint_destroy) *constraint_destroy;
	__typeof__(ped_constraint_exact) *constraint_exact;
	__typeof__(ped_device_destroy) *device_destroy;
	__typeof__(ped_device_get) *device_get;
	__typeof__(ped_disk_add_partition) *disk_add_partition;
	__typeof__(ped_disk_commit_to_dev) *disk_commit_to_dev;
	__typeof__(ped_disk_commit_to_os) *disk_commit_to_os;
	__typeof__(ped_disk_destroy) *disk_destroy;
	__typeof__(ped_disk_new) *disk_new;
	__typeof__(ped_disk_new_fresh) *disk_new_fresh;
	__typeof__(ped_disk_next_partition) *disk_next_partition;
	__typeof__(ped_disk_probe) *disk_probe;
	__typeof__(ped_disk_type_get) *disk_type_get;
	__typeof__(ped_exception_get_handler) *exception_get_handler;
	__typeof__(ped_exception_set_handler) *exception_set_handler;
	__typeof__(ped_partition_destroy) *partition_destroy;
	__typeof__(ped_partition_is_active) *partition_is_active;
	__typeof__(ped_partition_new) *partition_new;
};

extern struct sp_parted sp_parted;

/* Opens libparted once per process: NULL when every function is there,
 * else what the dynamic loader said. */
const char *sp_parted_load(void);

#define ped_constraint_destroy (sp_parted.constraint_destroy)
#define ped_constraint_exact (sp_parted.constraint_exact)
#define ped_device_destroy (sp_parted.device_destroy)
#define ped_device_get (sp_parted.device_get)
#define ped_disk_add_partition (sp_parted.disk_add_partition)
#define ped_disk_commit_to_dev (sp_parted.disk_commit_to_dev)
#define ped_disk_commit_to_os (sp_parted.disk_commit_to_os)
#define ped_disk_destroy (sp_parted.disk_destroy)
#define ped_disk_new (sp_parted.disk_new)
#define ped_disk_new_fresh (sp_parted.disk_new_fresh)
#define ped_disk_next_partition (sp_parted.disk_next_partition)
#define ped_disk_probe (sp_parted.disk_probe)
#define ped_disk_type_get (sp_parted.disk_type_get)
#define ped_exception_get_handler (sp_parted.exception_get_handler)
#define ped_exception_set_handler (sp_parted.exception_set_handler)
#define ped_partition_destroy (sp_parted.partition_destroy)
#define ped_partition_is_active (sp_parted.partition_is_active)
#define ped_partition_new (sp_parted.partition_new)

#endif
