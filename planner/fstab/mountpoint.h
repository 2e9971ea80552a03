/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Mount points: one spelling, and the ones that belong to the system
 * (fstab/mountpoint.c). */
#ifndef STRIPEPLAN_FSTAB_MOUNTPOINT_H
#define STRIPEPLAN_FSTAB_MOUNTPOINT_H

#include <stdbool.h>
#include <stddef.h>

struct sp_error;

/*
 * sp_path_normalize() writes the
 * canonical spelling of an absolute path: repeated slashes, "." and a
 * trailing slash dropped ("/./data//" is "/data"); -EINVAL for a relative
 * path, -EXDEV for a ".." component (never resolved: it would leave the
 * directory meant), -ENAMETOOLONG.
 * sp_mountpoint_check() normalizes a mount point into out and refuses
 * (SP_ERR_INVALID) control characters, "/" in any spelling, and, unless
 * force, the directories of the operating system and every path in the
 * trees it owns (/usr/..., /etc/..., /boot/..., /var/lib/..., below the
 * kernel filesystems; the table in mountpoint.c says which and why).
 */
int sp_path_normalize(const char *in, char *out, size_t len);
int sp_mountpoint_check(const char *in, bool force, char *out, size_t len, struct sp_error *err);
/* Why a normalized mount point belongs to the system, or NULL. */
const char *sp_mountpoint_system_use(const char *normalized);

#endif
