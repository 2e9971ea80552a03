/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device names without touching a device: the kernel's name of a /dev
 * path, the names that may become a sysfs path or a udev match, and the
 * node of a disk's first partition.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base.h"
#include "devname.h"
#include "error.h"

int sp_kernel_name_from_path(const char *path, char *buf, size_t len, struct sp_error *err)
{
	const char *name;
	size_t i;

	if (strncmp(path, "/dev/", 5) != 0 || !path[5])
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "device: '%s' is not a /dev path", path);
	name = path + 5;
	if (!strncmp(name, "disk/", 5) || !strncmp(name, "mapper/", 7))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "device: cannot tell the kernel name of '%s' without probing it; "
				    "name the device as /dev/sdX or /dev/disk/by-id/NAME, or let "
				    "stripeplan probe it",
				    path);
	if (strlen(name) >= len || strlen(name) >= SP_NAME_MAX)
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
				    "device: '%s' is too long", path);
	/* the kernel spells '/' in block device names as '!' in sysfs */
	for (i = 0; name[i]; i++)
		buf[i] = name[i] == '/' ? '!' : name[i];
	buf[i] = '\0';
	return 0;
}

bool sp_block_name_ok(const char *name)
{
	if (!name[0] || strlen(name) >= SP_NAME_MAX)
		return false;
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '!' ||
		      *c == '-' || *c == '_'))
			return false;
	return true;
}

bool sp_is_stable_link(const char *path)
{
	const char *name = strrchr(path, '/'), *dir;

	/* .../disk/by-KIND/NAME: NAME's directory is by-KIND, in one named disk */
	if (!name || !name[1] || name == path)
		return false;
	for (dir = name - 1; dir > path && *dir != '/'; dir--)
		;
	return *dir == '/' && !strncmp(dir + 1, "by-", 3) && dir + 4 < name &&
	       dir - path >= 5 && !strncmp(dir - 5, "/disk", 5);
}

int sp_partition_path(const char *disk_path, unsigned number, char *buf, size_t len)
{
	size_t n = strlen(disk_path);
	/* the kernel inserts 'p' when the disk name ends in a digit (loop0p1,
	 * nvme0n1p1); udev's 60-persistent-storage.rules names a partition's
	 * by-id, by-path and by-diskseq links after the disk's with "-part%n"
	 * whatever it ends in (wwn-0x5000c500a1b2c3d4-part1) */
	bool link = sp_is_stable_link(disk_path);
	bool needs_p = !link && n && disk_path[n - 1] >= '0' && disk_path[n - 1] <= '9';
	int w = snprintf(buf, len, "%s%s%u", disk_path, link ? "-part" : needs_p ? "p" : "", number);

	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}
