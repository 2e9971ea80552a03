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
/* A udev link that names the disk for good, .../disk/by-KIND/NAME
 * (/dev/disk/by-id/wwn-0x5000c500a1b2c3d4, by-path/pci-...-scsi-0:0:1:0):
 * it says nothing of the kernel's name, which the kernel may change. */
bool sp_is_stable_link(const char *path);
/* The node of partition number on disk_path: by the kernel's rule for a
 * kernel name (/dev/sdb -> /dev/sdb1, /dev/loop0 -> /dev/loop0p1,
 * /dev/nvme0n1 -> /dev/nvme0n1p1), by udev's for a stable link
 * (/dev/disk/by-id/wwn-0x5000c500a1b2c3d4 -> ...-part1).  The one place a
 * partition's name is derived. */
int sp_partition_path(const char *disk_path, unsigned number, char *buf, size_t len);

#endif
