/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

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

/* A new name beside `name` that nobody else uses: O_EXCL, and never
 * through a link someone planted there. */
static int create_temp_at(int dirfd, const char *name, char *tmp, size_t len)
{
	static unsigned counter;

	for (unsigned tries = 0; tries < 100; tries++) {
		int fd, n = snprintf(tmp, len, ".%s.stripeplan-%ld-%u", name, (long)getpid(),
				     counter++);

		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

int sp_write_atomic_at(int dirfd, const char *name, const char *text, mode_t mode, uid_t uid,
		       gid_t gid, const char **ret_what)
{
	const char *what = "replace";
	char tmp[SP_NAME_MAX * 4];
	struct stat st;
	int fd, r = 0;

	/* only a regular file is ever replaced: a device node, FIFO, link or
	 * directory at the path is someone else's, not a stale output */
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode)) {
		*ret_what = "replace (it is not a regular file)";
		return -EEXIST;
	}
	if (strlen(name) >= SP_NAME_MAX * 3 || strchr(name, '/')) {
		*ret_what = "create a temporary file beside";
		return -ENAMETOOLONG;
	}
	fd = create_temp_at(dirfd, name, tmp, sizeof(tmp));
	if (fd < 0) {
		*ret_what = "create a temporary file beside";
		return fd;
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
	if (r == 0 && renameat(dirfd, tmp, dirfd, name) < 0) {
		what = "rename the new file over";
		r = -errno;
	}
	if (r < 0) {
		unlinkat(dirfd, tmp, 0);
		*ret_what = what;
		return r;
	}
	if (fsync(dirfd) < 0) {
		*ret_what = "sync the directory of";
		return -errno;
	}
	return 0;
}

int sp_write_atomic(const char *path, const char *text, mode_t mode, uid_t uid, gid_t gid,
		    const char **ret_what)
{
	char dir[SP_PATH_MAX];
	const char *base;
	int dirfd, r;

	split_path(path, dir, sizeof(dir), &base);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		*ret_what = "create a temporary file beside";
		return -errno;
	}
	r = sp_write_atomic_at(dirfd, base, text, mode, uid, gid, ret_what);
	close(dirfd);
	return r;
}

/* ------------------------------------------------- paths under a root */

int sp_root_open(const char *root)
{
	int fd = open(root && root[0] ? root : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* openat2 with the root as "/": absolute links and ".." stay inside it. */
static int open_in_root(int root_fd, const char *rel)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, root_fd, rel[0] ? rel : ".", &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

/* Without openat2 (before Linux 5.6, or filtered): one component at a
 * time and no links at all, which is stricter but never leaves root. */
static int open_walk(int root_fd, const char *rel)
{
	char buf[SP_PATH_MAX];
	char *save = NULL;
	int fd = openat(root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (snprintf(buf, sizeof(buf), "%s", rel) >= (int)sizeof(buf)) {
		if (fd >= 0)
			close(fd);
		return -ENAMETOOLONG;
	}
	for (char *c = strtok_r(buf, "/", &save); fd >= 0 && c; c = strtok_r(NULL, "/", &save)) {
		int next;

		if (!strcmp(c, "..")) {
			close(fd);
			return -EXDEV;
		}
		next = openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		fd = next < 0 ? -errno : next;
	}
	return fd < 0 ? (fd == -1 ? -errno : fd) : fd;
}

static int open_dir_below(int root_fd, const char *rel)
{
	static bool no_openat2;
	int fd;

	if (!no_openat2) {
		fd = open_in_root(root_fd, rel);
		if (fd != -ENOSYS && fd != -EPERM)
			return fd;
		no_openat2 = true;
	}
	return open_walk(root_fd, rel);
}

/* Makes the last component of path (relative to root) through its
 * parent's descriptor: nothing on the way is followed out of the root. */
static int make_last(int root_fd, char *path, mode_t mode)
{
	char *slash = strrchr(path, '/');
	const char *last = slash ? slash + 1 : path;
	int parent, d, r = 0;

	if (slash)
		*slash = '\0';
	parent = open_dir_below(root_fd, slash ? path : "");
	if (slash)
		*slash = '/';
	if (parent < 0)
		return parent;
	if (mkdirat(parent, last, mode) < 0) {
		r = errno == EEXIST ? 0 : -errno;
	} else {
		/* exactly mode, whatever the umask */
		d = openat(parent, last, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (d < 0 || fchmod(d, mode) < 0)
			r = -errno;
		if (d >= 0)
			close(d);
	}
	close(parent);
	return r;
}

/* rel below the root, without its leading slashes, into path. */
static int rel_path(const char *rel, char *path, size_t size)
{
	while (rel[0] == '/')
		rel++;
	return snprintf(path, size, "%s", rel) >= (int)size ? -ENAMETOOLONG : 0;
}

int sp_root_open_dir(int root_fd, const char *rel, bool create, mode_t mode)
{
	char path[SP_PATH_MAX];
	int fd;

	if (rel_path(rel, path, sizeof(path)) < 0)
		return -ENAMETOOLONG;
	fd = open_dir_below(root_fd, path);
	if (fd != -ENOENT || !create)
		return fd;
	/* mkdir -p: each missing directory, from the top, by descriptor */
	for (char *p = path;; p++) {
		bool end = *p == '\0';
		int r;

		if (!end && *p != '/')
			continue;
		if (p > path && p[-1] != '/') {
			*p = '\0';
			fd = open_dir_below(root_fd, path);
			r = fd >= 0 ? 0 : fd == -ENOENT ? make_last(root_fd, path, mode) : fd;
			if (fd >= 0)
				close(fd);
			if (!end)
				*p = '/';
			if (r < 0)
				return r;
		}
		if (end)
			break;
	}
	return open_dir_below(root_fd, path);
}

int sp_root_check_dir(int root_fd, const char *rel)
{
	char path[SP_PATH_MAX];
	int parent = -1, r = 0;

	if (rel_path(rel, path, sizeof(path)) < 0)
		return -ENAMETOOLONG;
	parent = open_dir_below(root_fd, "");
	if (parent < 0)
		return parent;
	/* walk down while the directories exist; at the first that does not,
	 * its name must be free and its parent writable */
	for (char *start = path, *p = path;; p++) {
		bool end = *p == '\0';
		struct stat st;
		int fd;

		if (!end && *p != '/')
			continue;
		if (p == start) { /* an empty component */
			start = p + 1;
			if (end)
				break;
			continue;
		}
		*p = '\0';
		fd = open_dir_below(root_fd, path);
		if (fd == -ENOENT) {
			/* the rest will be made: only the writable check below is left */
			r = fstatat(parent, start, &st, AT_SYMLINK_NOFOLLOW) == 0 ? -EEXIST :
			    errno != ENOENT					   ? -errno :
											     0;
			break;
		}
		if (fd < 0) {
			r = fd;
			break;
		}
		close(parent);
		parent = fd;
		if (end)
			break;
		*p = '/';
		start = p + 1;
	}
	if (r == 0)
		r = faccessat(parent, ".", W_OK, AT_EACCESS) < 0 ? -errno : 0;
	close(parent);
	return r;
}
