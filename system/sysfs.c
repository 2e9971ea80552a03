/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int sp_sysfs_read_u64(const char *file, uint64_t *ret)
{
	char buf[64] = "", *end;
	unsigned long long v;
	int r = sp_sysfs_read(file, buf, sizeof(buf));

	if (r < 0)
		return r;
	if (!isdigit((unsigned char)buf[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*ret = v;
	return 0;
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
