/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fstab step's file I/O: bounded read, atomic replace. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "fstab-file.h"

static int read_all(int fd, const char *path, char **ret_text, struct sp_error *err)
{
	char *buf = malloc(SP_FSTAB_MAX_BYTES + 1);
	size_t used = 0;

	if (!buf)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "fstab", "out of memory");
	for (;;) {
		ssize_t got = read(fd, buf + used, SP_FSTAB_MAX_BYTES + 1 - used);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(buf);
			return sp_error_set(err, e, SP_ERR_FAILED, "fstab", "cannot read '%s': %s",
					    path, strerror(e));
		}
		if (got == 0)
			break;
		used += (size_t)got;
		if (used > SP_FSTAB_MAX_BYTES) {
			free(buf);
			return sp_error_set(err, EFBIG, SP_ERR_INVALID, "fstab",
					    "'%s' is larger than %u bytes; not editing it", path,
					    SP_FSTAB_MAX_BYTES);
		}
	}
	if (memchr(buf, '\0', used)) {
		size_t at = (size_t)((char *)memchr(buf, '\0', used) - buf);

		free(buf);
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "fstab",
				    "'%s' has a NUL byte at offset %zu; not editing it", path, at);
	}
	buf[used] = '\0';
	*ret_text = buf;
	return 0;
}

int sp_fstab_read(const char *path, char **ret_text, struct sp_fstab_file *ret_file,
		  struct sp_error *err)
{
	struct stat st;
	char *text = NULL;
	int fd, r;

	/* O_NOFOLLOW: a rename over a symlink would replace the link, so a
	 * linked fstab is refused here rather than silently unlinked later */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	if (fd < 0 && errno == ENOENT) {
		text = strdup("");
		if (!text)
			return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "fstab", "out of memory");
		*ret_text = text;
		*ret_file = (struct sp_fstab_file){ .exists = false, .mode = 0644 };
		return 0;
	}
	if (fd < 0) {
		int e = errno;

		return sp_error_set(err, e, e == ELOOP ? SP_ERR_INVALID : SP_ERR_FAILED, "fstab",
				    "cannot open '%s': %s", path,
				    e == ELOOP ? "it is a symbolic link; not replacing it" : strerror(e));
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "fstab",
				    "'%s' is not a regular file; not editing it", path);
	}
	r = read_all(fd, path, &text, err);
	close(fd);
	if (r < 0)
		return r;
	*ret_text = text;
	*ret_file = (struct sp_fstab_file){ .exists = true,
					     .mode = st.st_mode & 07777,
					     .uid = st.st_uid,
					     .gid = st.st_gid };
	return 0;
}

int sp_fstab_write_atomic(const char *path, const char *text, const struct sp_fstab_file *file,
			  struct sp_error *err)
{
	/* a new fstab is root's only when we are root: tests run unprivileged */
	bool chown_it = file->exists || geteuid() == 0;
	const char *what = "write";
	int r = sp_write_atomic(path, text, file->mode, chown_it ? file->uid : (uid_t)-1,
				chown_it ? file->gid : (gid_t)-1, &what);

	if (r == 0)
		return 0;
	if (!strcmp(what, "sync the directory of"))
		return sp_error_set(err, r, SP_ERR_FAILED, "fstab",
				    "'%s' was replaced, but syncing its directory failed: %s; the "
				    "change may not survive a crash",
				    path, strerror(-r));
	return sp_error_set(err, r, SP_ERR_FAILED, "fstab",
			    "cannot %s '%s': %s; the old '%s' is unchanged", what, path,
			    strerror(-r), path);
}
