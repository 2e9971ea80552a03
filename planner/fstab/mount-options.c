/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fstab options -> mount(2) flags and data, the split mount(8) makes. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mount.h>

#include "base/base.h"
#include "mount-options.h"

struct vfs_option {
	const char *name;
	unsigned long set, clear;
};

/* mount(8)'s generic options, from its FILESYSTEM-INDEPENDENT MOUNT OPTIONS */
static const struct vfs_option vfs_options[] = {
	{ "ro", MS_RDONLY, 0 },           { "rw", 0, MS_RDONLY },
	{ "nosuid", MS_NOSUID, 0 },       { "suid", 0, MS_NOSUID },
	{ "nodev", MS_NODEV, 0 },         { "dev", 0, MS_NODEV },
	{ "noexec", MS_NOEXEC, 0 },       { "exec", 0, MS_NOEXEC },
	{ "sync", MS_SYNCHRONOUS, 0 },    { "async", 0, MS_SYNCHRONOUS },
	{ "dirsync", MS_DIRSYNC, 0 },     { "mand", MS_MANDLOCK, 0 },
	{ "nomand", 0, MS_MANDLOCK },     { "noatime", MS_NOATIME, 0 },
	{ "atime", 0, MS_NOATIME },       { "nodiratime", MS_NODIRATIME, 0 },
	{ "diratime", 0, MS_NODIRATIME }, { "relatime", MS_RELATIME, 0 },
	{ "norelatime", 0, MS_RELATIME }, { "strictatime", MS_STRICTATIME, 0 },
	{ "nostrictatime", 0, MS_STRICTATIME }, { "lazytime", MS_LAZYTIME, 0 },
	{ "nolazytime", 0, MS_LAZYTIME }, { "silent", MS_SILENT, 0 },
	{ "loud", 0, MS_SILENT },
};

/* read by mount(8), systemd or udisks, never by the kernel */
static bool userspace_only(const char *opt, size_t len)
{
	static const char *const names[] = { "defaults", "auto", "noauto", "nofail", "user",
					     "nouser", "users", "owner", "group", "_netdev" };
	static const char *const prefixes[] = { "x-", "X-", "comment=", "uhelper=", "helper=" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == len && !memcmp(opt, names[i], len))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (len >= strlen(prefixes[i]) && !memcmp(opt, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

int sp_mount_options_split(const char *options, unsigned long *ret_flags, char *data,
			   size_t data_len)
{
	unsigned long flags = 0;
	size_t used = 0;
	const char *p = options;

	if (data_len == 0)
		return -ENAMETOOLONG;
	data[0] = '\0';
	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool known = false;

		if (len == 0)
			return -EINVAL;
		for (size_t i = 0; i < ARRAY_SIZE(vfs_options); i++) {
			if (strlen(vfs_options[i].name) == len && !memcmp(p, vfs_options[i].name, len)) {
				flags = (flags & ~vfs_options[i].clear) | vfs_options[i].set;
				known = true;
				break;
			}
		}
		if (!known && !userspace_only(p, len)) {
			if (used + (used ? 1 : 0) + len >= data_len)
				return -ENAMETOOLONG;
			if (used)
				data[used++] = ',';
			memcpy(data + used, p, len);
			used += len;
			data[used] = '\0';
		}
		p = end ? end + 1 : NULL;
	}
	*ret_flags = flags;
	return 0;
}
