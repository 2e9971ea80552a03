/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "stripeplan.h"
#include "sysfs.h"

int sp_sysfs_path(const struct sp_sysfs *sys, char *buf, size_t len, const char *fmt, ...)
{
	const char *root = sys && sys->root ? sys->root : "";
	char rel[SP_PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	n = snprintf(buf, len, "%s/sys/%s", root, rel);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int sp_sysfs_read(const char *file, char *buf, size_t len)
{
	size_t i = 0, n;
	ssize_t got;
	int fd;

	if (len == 0)
		return -EINVAL;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	got = read(fd, buf, len - 1);
	if (got < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	n = (size_t)got;
	buf[n] = '\0';
	n = strcspn(buf, "\n");
	while (n && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	while (isspace((unsigned char)buf[i]))
		i++;
	memmove(buf, buf + i, n - i + 1);
	return 0;
}

static int parse_u64(const char *text, uint64_t *ret)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)text[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*ret = v;
	return 0;
}

int sp_sysfs_parse_devno(const char *text, unsigned *ret_major, unsigned *ret_minor)
{
	char buf[64], *minor;
	uint64_t ma, mi;

	if (snprintf(buf, sizeof(buf), "%s", text) >= (int)sizeof(buf))
		return -EINVAL;
	minor = strchr(buf, ':');
	if (!minor)
		return -EINVAL;
	*minor++ = '\0';
	if (parse_u64(buf, &ma) < 0 || parse_u64(minor, &mi) < 0 || ma > UINT32_MAX ||
	    mi > UINT32_MAX)
		return -EINVAL;
	*ret_major = (unsigned)ma;
	*ret_minor = (unsigned)mi;
	return 0;
}

int sp_sysfs_read_u64(const char *file, uint64_t *ret)
{
	char buf[64] = "";
	int r = sp_sysfs_read(file, buf, sizeof(buf));

	return r < 0 ? r : parse_u64(buf, ret);
}

int sp_sysfs_write(const char *file, const char *value)
{
	char line[SP_NAME_MAX + 2];
	int fd, n = snprintf(line, sizeof(line), "%s\n", value);
	ssize_t w;

	if (n < 0 || (size_t)n >= sizeof(line))
		return -EINVAL;
	fd = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write(fd, line, (size_t)n);
	if (w < 0) {
		w = -errno;
		close(fd);
		return (int)w;
	}
	if (close(fd) < 0)
		return -errno;
	return w == n ? 0 : -EIO;
}

/* disk_dir/name/attr, read as sp_sysfs_read() does. */
static int read_below(const char *disk_dir, const char *name, const char *attr, char *buf,
		      size_t len)
{
	char file[SP_PATH_MAX];
	int n = snprintf(file, sizeof(file), "%s/%s/%s", disk_dir, name, attr);

	if (n < 0 || (size_t)n >= sizeof(file))
		return -ENAMETOOLONG;
	return sp_sysfs_read(file, buf, len);
}

/* A partition is a subdirectory of its disk with a `partition` file. */
static int read_partition(const char *disk_dir, const char *name, struct sp_sysfs_partition *ret)
{
	struct sp_sysfs_partition p = { 0 };
	char number[32] = "", start[32] = "", size[32] = "", devno[64] = "";
	uint64_t num;

	if (snprintf(p.name, sizeof(p.name), "%s", name) >= (int)sizeof(p.name) ||
	    read_below(disk_dir, name, "partition", number, sizeof(number)) < 0 ||
	    parse_u64(number, &num) < 0 || num == 0 || num > UINT32_MAX ||
	    read_below(disk_dir, name, "start", start, sizeof(start)) < 0 ||
	    parse_u64(start, &p.start_512) < 0 ||
	    read_below(disk_dir, name, "size", size, sizeof(size)) < 0 ||
	    parse_u64(size, &p.size_512) < 0 ||
	    read_below(disk_dir, name, "dev", devno, sizeof(devno)) < 0 ||
	    sp_sysfs_parse_devno(devno, &p.major, &p.minor) < 0)
		return -ENOENT;
	p.number = (unsigned)num;
	*ret = p;
	return 0;
}

static int by_number(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

int sp_sysfs_partitions(const struct sp_sysfs *sys, unsigned major, unsigned minor,
			struct sp_sysfs_partitions *ret)
{
	struct sp_sysfs_partition p;
	char dir[SP_PATH_MAX];
	struct dirent *e;
	DIR *d;
	int r = 0;

	ret->n = 0;
	if (sp_sysfs_path(sys, dir, sizeof(dir), "dev/block/%u:%u", major, minor) < 0)
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || read_partition(dir, e->d_name, &p) < 0)
			continue;
		if (ret->n == SP_SYSFS_MAX_PARTITIONS) {
			r = -E2BIG;
			break;
		}
		ret->p[ret->n++] = p;
	}
	closedir(d);
	/* in order, so messages name them so; by_number relies on `number`
	 * being the first member of each entry */
	qsort(ret->p, ret->n, sizeof(ret->p[0]), by_number);
	return r;
}

static bool is_node_of(const char *path, const struct sp_sysfs_partition *p)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISBLK(st.st_mode) && major(st.st_rdev) == p->major &&
	       minor(st.st_rdev) == p->minor;
}

int sp_sysfs_partition_node(const char *name, const char *dev_dir,
			    const struct sp_sysfs_partition *p, char *buf, size_t len)
{
	char node[SP_PATH_MAX];
	int w;

	if (name && is_node_of(name, p))
		return snprintf(buf, len, "%s", name) < (int)len ? 0 : -ENAMETOOLONG;
	/* sysfs spells a '/' of the name as '!': cciss!c0d0p1 is /dev/cciss/c0d0p1 */
	w = snprintf(node, sizeof(node), "%s/%s", dev_dir ? dev_dir : "/dev", p->name);
	if (w < 0 || (size_t)w >= sizeof(node))
		return -ENAMETOOLONG;
	for (char *c = node; *c; c++)
		if (*c == '!')
			*c = '/';
	if (!is_node_of(node, p))
		return -ENOENT;
	return snprintf(buf, len, "%s", node) < (int)len ? 0 : -ENAMETOOLONG;
}

int sp_sysfs_partition_node_of(const struct sp_sysfs *sys, const char *disk_path,
			       unsigned number, char *buf, size_t len)
{
	struct sp_sysfs_partitions *list;
	char name[SP_PATH_MAX];
	struct stat st;
	int r = -ENOENT;

	if (stat(disk_path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	list = calloc(1, sizeof(*list));
	if (!list)
		return -ENOMEM;
	if (sp_partition_path(disk_path, number, name, sizeof(name)) < 0)
		name[0] = '\0';
	if (sp_sysfs_partitions(sys, major(st.st_rdev), minor(st.st_rdev), list) == 0)
		for (size_t i = 0; i < list->n && r == -ENOENT; i++)
			if (list->p[i].number == number)
				r = sp_sysfs_partition_node(name[0] ? name : NULL, NULL, &list->p[i],
							    buf, len);
	free(list);
	return r;
}
