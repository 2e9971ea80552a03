/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The devices scan lists and what the running system needs of them.  The
 * system disk is found by what the kernel says, never by its name: every
 * mounted filesystem and swap area is a device number (mountinfo,
 * /proc/swaps); its device, the disk a partition is on, and every device
 * below it (slaves/ of md and dm, recursively) are needed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <blkid.h>

#include "fstab/mountpoint.h"
#include "probe.h"
#include "scan.h"

/* the devices below a mounted one that are looked at: md members, dm
 * tables, their disks (a wider stack is cut short, never followed forever) */
#define MAX_BELOW 256U

static int attr(const struct sp_sysfs *sys, const char *name, const char *a, char *buf, size_t len)
{
	char path[SP_PATH_MAX];

	if (sp_sysfs_path(sys, path, sizeof(path), "block/%s/%s", name, a) < 0)
		return -ENAMETOOLONG;
	return sp_sysfs_read(path, buf, len);
}

static bool has_attr(const struct sp_sysfs *sys, const char *name, const char *a)
{
	char path[SP_PATH_MAX];
	struct stat st;

	return sp_sysfs_path(sys, path, sizeof(path), "block/%s/%s", name, a) == 0 &&
	       stat(path, &st) == 0;
}

/* ------------------------------------------------ device numbers -> disk */

/* The device whose number is major:minor, as a whole device name (the
 * disk a partition is on): 0, or -ENOENT. */
static int disk_of_devno(const struct sp_sysfs *sys, unsigned major, unsigned minor, char *disk,
			 size_t len, char *dev, size_t dev_len)
{
	struct sp_sysfs_partitions *parts = malloc(sizeof(*parts));
	char dir[SP_PATH_MAX], text[32];
	struct dirent *e;
	unsigned ma, mi;
	int r = -ENOENT;
	DIR *d;

	if (!parts || sp_sysfs_path(sys, dir, sizeof(dir), "block") < 0 || !(d = opendir(dir))) {
		free(parts);
		return -ENOENT;
	}
	while (r < 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.' || attr(sys, e->d_name, "dev", text, sizeof(text)) < 0 ||
		    sp_sysfs_parse_devno(text, &ma, &mi) < 0)
			continue;
		if (ma == major && mi == minor) {
			snprintf(disk, len, "%s", e->d_name);
			snprintf(dev, dev_len, "%s", e->d_name);
			r = 0;
			break;
		}
		if (sp_sysfs_partitions(sys, ma, mi, parts) < 0)
			continue;
		for (size_t i = 0; i < parts->n; i++)
			if (parts->p[i].major == major && parts->p[i].minor == minor) {
				snprintf(disk, len, "%s", e->d_name);
				snprintf(dev, dev_len, "%s", parts->p[i].name);
				r = 0;
			}
	}
	closedir(d);
	free(parts);
	return r;
}

/* The disk of a slaves/ entry, which names a disk or a partition. */
static int disk_of_name(const struct sp_sysfs *sys, const char *name, char *disk, size_t len)
{
	char text[32], dev[SP_NAME_MAX];
	unsigned ma, mi;
	char path[SP_PATH_MAX];
	struct stat st;

	if (sp_sysfs_path(sys, path, sizeof(path), "block/%s", name) == 0 && stat(path, &st) == 0) {
		snprintf(disk, len, "%s", name);
		return 0;
	}
	if (sp_sysfs_path(sys, path, sizeof(path), "class/block/%s/dev", name) < 0 ||
	    sp_sysfs_read(path, text, sizeof(text)) < 0 ||
	    sp_sysfs_parse_devno(text, &ma, &mi) < 0)
		return -ENOENT;
	return disk_of_devno(sys, ma, mi, disk, len, dev, sizeof(dev));
}

/* Whether `target` is disk or below it, following slaves/ breadth first;
 * each device once, so a loop in a (fake) tree ends. */
static bool reaches(const struct sp_sysfs *sys, const char *disk, const char *target)
{
	char (*seen)[SP_NAME_MAX] = calloc(MAX_BELOW, sizeof(*seen));
	char dir[SP_PATH_MAX], below[SP_NAME_MAX];
	size_t head = 0, n = 0;
	bool found = false;
	struct dirent *e;
	DIR *d;

	if (!seen)
		return false;
	snprintf(seen[n++], sizeof(seen[0]), "%s", disk);
	while (!found && head < n) {
		const char *cur = seen[head++];

		found = !strcmp(cur, target);
		if (found || sp_sysfs_path(sys, dir, sizeof(dir), "block/%s/slaves", cur) < 0 ||
		    !(d = opendir(dir)))
			continue;
		while ((e = readdir(d)) && n < MAX_BELOW) {
			bool known = false;

			if (e->d_name[0] == '.' || disk_of_name(sys, e->d_name, below, sizeof(below)) < 0)
				continue;
			for (size_t i = 0; i < n && !known; i++)
				known = !strcmp(seen[i], below);
			if (!known)
				snprintf(seen[n++], sizeof(seen[0]), "%s", below);
		}
		closedir(d);
	}
	free(seen);
	return found;
}

static void append(char *buf, size_t len, const char *fmt, const char *a, const char *b,
		   const char *c) __attribute__((format(printf, 3, 0)));
static void append(char *buf, size_t len, const char *fmt, const char *a, const char *b,
		   const char *c)
{
	size_t used = strlen(buf);

	if (used + 2 >= len)
		return;
	if (used)
		used += (size_t)snprintf(buf + used, len - used, ", ");
	if (used < len)
		snprintf(buf + used, len - used, fmt, a, b, c);
}

static void mark_needed(const struct sp_sysfs *sys, const struct sp_scan_needed *needed,
			struct sp_scan_device *ret)
{
	for (size_t i = 0; i < needed->n; i++) {
		char disk[SP_NAME_MAX], dev[SP_NAME_MAX];
		char *to;

		if (disk_of_devno(sys, needed->e[i].major, needed->e[i].minor, disk, sizeof(disk), dev,
				  sizeof(dev)) < 0 ||
		    !reaches(sys, disk, ret->name))
			continue;
		to = needed->e[i].system ? ret->system_use : ret->mounted;
		append(to, SP_MSG_MAX, "%s (%s%s)", needed->e[i].what, dev,
		       strcmp(disk, ret->name) ? " on it" : "");
	}
}

/* -------------------------------------------------------------- classify */

static bool skipped_name(const char *name)
{
	static const char *const prefixes[] = { "loop", "ram", "zram", "sr", "fd" };

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* md and multipath list themselves in holders/ of what they sit on */
static void find_holder(const struct sp_sysfs *sys, const char *name, char *buf, size_t len)
{
	char dir[SP_PATH_MAX], uuid[128];
	struct dirent *e;
	DIR *d;

	buf[0] = '\0';
	if (sp_sysfs_path(sys, dir, sizeof(dir), "block/%s/holders", name) < 0 || !(d = opendir(dir)))
		return;
	while (!buf[0] && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (has_attr(sys, e->d_name, "md/level") ||
		    (attr(sys, e->d_name, "dm/uuid", uuid, sizeof(uuid)) == 0 &&
		     !strncmp(uuid, "mpath-", 6)))
			snprintf(buf, len, "%s", e->d_name);
	}
	closedir(d);
}

int sp_scan_classify(const struct sp_sysfs *sys, const char *name, bool listed_anyway,
		     const struct sp_scan_needed *needed, struct sp_scan_device *ret)
{
	char text[128], dir[SP_PATH_MAX];
	struct sp_scan_device dev = { 0 };
	uint64_t size_512 = 0;
	struct stat st;

	if (snprintf(dev.name, sizeof(dev.name), "%s", name) >= (int)sizeof(dev.name))
		return -ENAMETOOLONG;
	if (sp_sysfs_path(sys, dir, sizeof(dir), "block/%s", name) < 0)
		return -ENAMETOOLONG;
	if (stat(dir, &st) < 0)
		return -errno;
	if (!listed_anyway && skipped_name(name))
		return 0;
	/* an NVMe multipath controller path (nvme0c1n1): its namespace head
	 * (nvme0n1) is the device */
	if (attr(sys, name, "hidden", text, sizeof(text)) == 0 && !strcmp(text, "1"))
		return 0;
	if (attr(sys, name, "md/level", text, sizeof(text)) == 0) {
		/* an IMSM or DDF container holds the metadata, its arrays the data */
		if (!strcmp(text, "container"))
			return 0;
		dev.kind = SP_SCAN_MD;
	} else if (has_attr(sys, name, "dm")) {
		if (attr(sys, name, "dm/uuid", text, sizeof(text)) < 0 || strncmp(text, "mpath-", 6))
			return 0; /* LVM, dm-crypt: layers on an array, shown on it */
		dev.kind = SP_SCAN_MULTIPATH;
	}
	if (sp_sysfs_path(sys, dir, sizeof(dir), "block/%s/size", name) == 0)
		sp_sysfs_read_u64(dir, &size_512);
	if (!size_512 && !listed_anyway)
		return 0; /* a card reader without a card, an md array not started */
	/* sysfs counts 512-byte sectors whatever the logical sector size */
	dev.size_bytes = size_512 * 512;
	find_holder(sys, name, dev.held_by, sizeof(dev.held_by));
	if (needed)
		mark_needed(sys, needed, &dev);
	*ret = dev;
	return 1;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct sp_scan_device *)a)->name,
		      ((const struct sp_scan_device *)b)->name);
}

int sp_scan_list(const struct sp_sysfs *sys, const struct sp_scan_needed *needed,
		 struct sp_scan_device *ret, size_t max, size_t *ret_n)
{
	char dir[SP_PATH_MAX];
	struct dirent *e;
	size_t n = 0;
	DIR *d;
	int r = 0;

	if (sp_sysfs_path(sys, dir, sizeof(dir), "block") < 0)
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == max) {
			r = -E2BIG;
			break;
		}
		if (sp_scan_classify(sys, e->d_name, false, needed, &ret[n]) == 1)
			n++;
	}
	closedir(d);
	qsort(ret, n, sizeof(ret[0]), by_name);
	*ret_n = n;
	return r;
}

int sp_scan_name_of(const struct sp_sysfs *sys, const char *path, char *name, size_t len,
		    char *disk, size_t disk_len)
{
	char dev[SP_NAME_MAX], whole[SP_NAME_MAX];
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	if (disk_of_devno(sys, major(st.st_rdev), minor(st.st_rdev), whole, sizeof(whole), dev,
			  sizeof(dev)) < 0)
		return -ENODEV;
	snprintf(name, len, "%s", dev);
	snprintf(disk, disk_len, "%s", whole);
	return strcmp(dev, whole) ? -EISDIR : 0;
}

/* ------------------------------------------------------------- needed */

static void add_needed(struct sp_scan_needed *n, unsigned major, unsigned minor, bool system,
		       const char *what)
{
	if (!major || n->n == SP_SCAN_MAX_NEEDED)
		return; /* 0: tmpfs, proc, overlay: no block device */
	for (size_t i = 0; i < n->n; i++)
		if (n->e[i].major == major && n->e[i].minor == minor && n->e[i].system == system)
			return; /* the same filesystem bound elsewhere: said once */
	n->e[n->n].major = major;
	n->e[n->n].minor = minor;
	n->e[n->n].system = system;
	snprintf(n->e[n->n].what, sizeof(n->e[0].what), "%s", what);
	n->n++;
}

static void each_mount(const struct sp_mount *m, void *userdata)
{
	struct sp_scan_needed *n = userdata;
	char norm[SP_PATH_MAX];
	bool system = !strcmp(m->target, "/") ||
		      (sp_path_normalize(m->target, norm, sizeof(norm)) == 0 &&
		       sp_mountpoint_system_use(norm) != NULL);

	add_needed(n, m->major, m->minor, system, m->target);
}

static void read_swaps(struct sp_scan_needed *n)
{
	FILE *f = fopen("/proc/swaps", "re");
	char *line = NULL, *save, *name;
	size_t cap = 0;
	struct stat st;

	if (!f)
		return; /* no swap support: nothing is swap */
	while (getline(&line, &cap, f) > 0) {
		save = NULL;
		name = strtok_r(line, " \t\n", &save);
		if (!name || name[0] != '/')
			continue;
		sp_proc_unescape(name);
		if (stat(name, &st) == 0 && S_ISBLK(st.st_mode))
			add_needed(n, major(st.st_rdev), minor(st.st_rdev), true, "swap");
	}
	free(line);
	fclose(f);
}

int sp_scan_needed_read(struct sp_scan_needed *ret)
{
	int r;

	ret->n = 0;
	r = sp_mountinfo_each(each_mount, ret);
	if (r < 0)
		return r;
	read_swaps(ret);
	return 0;
}

/* ------------------------------------------------------------ contents */

static void value(blkid_probe pr, const char *tag, char *buf, size_t len)
{
	const char *v = NULL;

	buf[0] = '\0';
	if (blkid_probe_lookup_value(pr, tag, &v, NULL) == 0 && v)
		snprintf(buf, len, "%s", v);
}

static void partition_types(const struct sp_sysfs *sys, blkid_partlist pl, const char *node,
			    struct sp_scan_contents *ret)
{
	int n = blkid_partlist_numof_partitions(pl);
	size_t used = strlen(ret->summary);

	for (int i = 0; i < n && i < 8 && used + 1 < sizeof(ret->summary); i++) {
		blkid_partition p = blkid_partlist_get_partition(pl, i);
		char part[SP_PATH_MAX], type[SP_NAME_MAX] = "";
		unsigned number;

		if (!p)
			continue;
		number = (unsigned)blkid_partition_get_partno(p);
		if (sp_sysfs_partition_node_of(sys, node, number, part, sizeof(part)) == 0)
			sp_probe_fs_type(part, type, sizeof(type));
		used += (size_t)snprintf(ret->summary + used, sizeof(ret->summary) - used,
					 "%s%u at sector %lld%s%s", i ? ", " : ": ", number,
					 (long long)blkid_partition_get_start(p), type[0] ? " " : "",
					 type);
	}
	if (n > 8 && used + 1 < sizeof(ret->summary))
		snprintf(ret->summary + used, sizeof(ret->summary) - used, ", ... %d in all", n);
}

int sp_scan_contents_read(const struct sp_sysfs *sys, const char *node, struct sp_scan_contents *ret, struct sp_error *err)
{
	struct sp_scan_contents c = { 0 };
	blkid_probe pr = blkid_new_probe_from_filename(node);
	blkid_partlist pl;
	int r;

	if (!pr)
		return sp_error_set(err, errno ? errno : EIO, SP_ERR_FAILED,
				    "cannot read '%s': %s", node, strerror(errno ? errno : EIO));
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	r = blkid_do_safeprobe(pr);
	if (r < 0) {
		blkid_free_probe(pr);
		return sp_error_set(err, EIO, SP_ERR_FAILED, "cannot read the signatures of '%s'",
				    node);
	}
	if (r == -2)
		snprintf(c.signature, sizeof(c.signature), "ambivalent");
	value(pr, "PTTYPE", c.table, sizeof(c.table));
	if (!c.signature[0])
		value(pr, "TYPE", c.signature, sizeof(c.signature));
	if (c.table[0]) {
		pl = blkid_probe_get_partitions(pr);
		c.n_partitions = pl ? (unsigned)blkid_partlist_numof_partitions(pl) : 0;
		snprintf(c.summary, sizeof(c.summary), "%s, %u partition%s", c.table, c.n_partitions,
			 c.n_partitions == 1 ? "" : "s");
		if (pl)
			partition_types(sys, pl, node, &c);
	} else if (c.signature[0]) {
		snprintf(c.summary, sizeof(c.summary), "%s on the whole device", c.signature);
	} else {
		snprintf(c.summary, sizeof(c.summary), "blank: no partition table, no signature");
		c.blank = true;
	}
	blkid_free_probe(pr);
	*ret = c;
	return 0;
}
