/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Device names, without touching a device (base/devname.c). */
#ifndef STRIPEPLAN_BASE_DEVNAME_H
#define STRIPEPLAN_BASE_DEVNAME_H

#include <stdbool.h>
#include <stddef.h>

struct sp_error;

/* Derives the kernel's name from a /dev path without touching it:
 * /dev/sdb -> sdb, /dev/cciss/c0d0 -> cciss!c0d0. */
int sp_kernel_name_from_path(const char *path, char *buf, size_t len, struct sp_error *err);
/* A kernel block device name that may become a sysfs path and a udev
 * match: [a-z0-9!_-]+ ("sdb", "cciss!c0d0", "nvme0n1"). */
bool sp_block_name_ok(const char *name);
/* /dev/sdb -> /dev/sdb1, /dev/loop0 -> /dev/loop0p1, /dev/nvme0n1 -> /dev/nvme0n1p1 */
int sp_partition_path(const char *disk_path, unsigned number, char *buf, size_t len);

#endif
