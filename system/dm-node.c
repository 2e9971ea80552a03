/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a device-mapper node from sysfs (dm-node.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dm-node.h"

static int sysfs_dir(const struct sp_sysfs *sys, dev_t rdev, char *buf, size_t len)
{
	return sp_sysfs_path(sys, buf, len, "dev/block/%u:%u", major(rdev), minor(rdev));
}

/* The directory's own name, through the dev/block/MAJ:MIN link. */
static int name_of_dir(const char *dir, char *buf, size_t len)
{
	char target[SP_PATH_MAX];
	const char *base;
	ssize_t n = readlink(dir, target, sizeof(target) - 1);

	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	snprintf(buf, len, "%s", base ? base + 1 : target);
	return 0;
}

static void read_slaves(const char *dir, struct sp_dm_node *ret)
{
	char path[SP_PATH_MAX + 16];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/slaves", dir);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!ret->n_slaves++)
			snprintf(ret->slave, sizeof(ret->slave), "%s", de->d_name);
	}
	closedir(d);
}

int sp_dm_node_read(const struct sp_sysfs *sys, const char *path, struct sp_dm_node *ret)
{
	char dir[SP_PATH_MAX], attr[SP_PATH_MAX + 16];
	uint64_t sectors = 0;
	struct stat st;
	int r;

	memset(ret, 0, sizeof(*ret));
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISBLK(st.st_mode))
		return 0;
	ret->exists = true;
	ret->rdev = st.st_rdev;
	r = sysfs_dir(sys, st.st_rdev, dir, sizeof(dir));
	if (r < 0)
		return r;
	r = name_of_dir(dir, ret->kernel_name, sizeof(ret->kernel_name));
	if (r < 0)
		return r;
	snprintf(attr, sizeof(attr), "%s/size", dir);
	/* sysfs counts 512-byte sectors whatever the device's own */
	r = sp_sysfs_read_u64(attr, &sectors);
	if (r < 0)
		return r;
	ret->size_bytes = sectors * 512;
	snprintf(attr, sizeof(attr), "%s/queue/read_ahead_kb", dir);
	if (sp_sysfs_read_u64(attr, &ret->read_ahead_kib) < 0)
		ret->read_ahead_kib = 0;
	snprintf(attr, sizeof(attr), "%s/dm/name", dir);
	ret->is_dm = sp_sysfs_read(attr, ret->dm_name, sizeof(ret->dm_name)) == 0;
	snprintf(attr, sizeof(attr), "%s/dm/uuid", dir);
	if (ret->is_dm && sp_sysfs_read(attr, ret->dm_uuid, sizeof(ret->dm_uuid)) < 0)
		ret->dm_uuid[0] = '\0';
	read_slaves(dir, ret);
	return 0;
}

int sp_dm_kernel_name(const struct sp_sysfs *sys, const char *path, char *buf, size_t len)
{
	char dir[SP_PATH_MAX];
	struct stat st;
	int r;

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	r = sysfs_dir(sys, st.st_rdev, dir, sizeof(dir));
	return r < 0 ? r : name_of_dir(dir, buf, len);
}

void sp_dm_lvm_name(const char *vg, const char *lv, char *buf, size_t len)
{
	size_t n = 0;

	for (const char *p = vg; *p && n + 2 < len; p++) {
		buf[n++] = *p;
		if (*p == '-')
			buf[n++] = '-';
	}
	if (n + 1 < len)
		buf[n++] = '-';
	for (const char *p = lv; *p && n + 2 < len; p++) {
		buf[n++] = *p;
		if (*p == '-')
			buf[n++] = '-';
	}
	buf[n < len ? n : len - 1] = '\0';
}
