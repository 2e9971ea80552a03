/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "stripeplan.h"

int sp_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

static void split_path(const char *path, char *dir, size_t dir_len, const char **ret_base)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		snprintf(dir, dir_len, ".");
		*ret_base = path;
	} else {
		snprintf(dir, dir_len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
		*ret_base = slash + 1;
	}
}

int sp_write_atomic(const char *path, const char *text, mode_t mode, uid_t uid, gid_t gid,
		    const char **ret_what)
{
	char dir[SP_PATH_MAX], tmp[SP_PATH_MAX + 32];
	const char *base, *what = "create a temporary file beside";
	int fd, r = 0;

	split_path(path, dir, sizeof(dir), &base);
	if (snprintf(tmp, sizeof(tmp), "%s/.%s.stripeplan-XXXXXX", dir, base) >= (int)sizeof(tmp)) {
		*ret_what = what;
		return -ENAMETOOLONG;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		*ret_what = what;
		return -errno;
	}
	/* mode and owner first, so the fsync below makes them durable too */
	what = "set the mode and owner of";
	if (fchmod(fd, mode) < 0 || ((uid != (uid_t)-1 || gid != (gid_t)-1) && fchown(fd, uid, gid) < 0))
		r = -errno;
	if (r == 0) {
		what = "write";
		r = sp_write_all(fd, text, strlen(text));
	}
	if (r == 0 && fsync(fd) < 0) {
		what = "sync";
		r = -errno;
	}
	if (close(fd) < 0 && r == 0) {
		what = "write";
		r = -errno;
	}
	if (r == 0 && rename(tmp, path) < 0) {
		what = "rename the new file over";
		r = -errno;
	}
	if (r < 0) {
		unlink(tmp);
		*ret_what = what;
		return r;
	}
	r = fsync_dir(dir);
	if (r < 0)
		*ret_what = "sync the directory of";
	return r;
}

int sp_mkdir_p(const char *path, mode_t mode, char *at, size_t at_len, const char **ret_what)
{
	char buf[SP_PATH_MAX];
	struct stat st;
	int r = 0;

	*ret_what = "create directory";
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		snprintf(at, at_len, "%s", path);
		return -ENAMETOOLONG;
	}
	for (char *p = buf + 1;; p++) {
		bool last = *p == '\0';

		if (*p != '/' && !last)
			continue;
		*p = '\0';
		if (mkdir(buf, mode) == 0) {
			if (chmod(buf, mode) < 0) {
				*ret_what = "chmod";
				r = -errno;
			}
		} else if (errno != EEXIST) {
			r = -errno;
		} else if (stat(buf, &st) < 0 || !S_ISDIR(st.st_mode)) {
			r = -ENOTDIR;
		}
		if (r < 0) {
			snprintf(at, at_len, "%s", buf);
			return r;
		}
		if (last)
			return 0;
		*p = '/';
	}
}
