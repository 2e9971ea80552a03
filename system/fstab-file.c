/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fstab step's file I/O: bounded read, atomic replace. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "textfile.h"
#include "fstab-file.h"

int sp_fstab_read_at(int dirfd, const char *name, const char *display, char **ret_text,
		     struct sp_fstab_file *ret_file, struct sp_error *err)
{
	char *text = NULL;
	struct stat st;
	int r;

	/* O_NOFOLLOW: a rename over a symlink would replace the link, so a
	 * linked fstab is refused here rather than silently unlinked later */
	r = sp_read_input_at(dirfd, name, O_NOFOLLOW, "fstab", display, &text, &st, err);
	if (r == -ENOENT) {
		sp_error_clear(err);
		text = strdup("");
		if (!text)
			return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
		*ret_text = text;
		*ret_file = (struct sp_fstab_file){ .exists = false, .mode = 0644 };
		return 0;
	}
	if (r < 0)
		return r;
	*ret_text = text;
	*ret_file = (struct sp_fstab_file){ .exists = true,
					     .mode = st.st_mode & 07777,
					     .uid = st.st_uid,
					     .gid = st.st_gid };
	return 0;
}

int sp_fstab_read(const char *path, char **ret_text, struct sp_fstab_file *ret_file,
		  struct sp_error *err)
{
	return sp_fstab_read_at(AT_FDCWD, path, path, ret_text, ret_file, err);
}

int sp_fstab_write_atomic_at(int dirfd, const char *name, const char *display, const char *text,
			     const struct sp_fstab_file *file, struct sp_error *err)
{
	/* a new fstab is root's only when we are root: tests run unprivileged */
	bool chown_it = file->exists || geteuid() == 0;
	const char *what = "write";
	int r = sp_write_atomic_at(dirfd, name, text, file->mode, chown_it ? file->uid : (uid_t)-1,
				   chown_it ? file->gid : (gid_t)-1, &what);

	if (r == 0)
		return 0;
	if (!strcmp(what, "sync the directory of"))
		return sp_error_set(err, -r, SP_ERR_FAILED,
				    "'%s' was replaced, but syncing its directory failed: %s; the "
				    "change may not survive a crash",
				    display, strerror(-r));
	return sp_error_set(err, -r, SP_ERR_FAILED,
			    "cannot %s '%s': %s; the old '%s' is unchanged", what, display,
			    strerror(-r), display);
}

int sp_fstab_write_atomic(const char *path, const char *text, const struct sp_fstab_file *file,
			  struct sp_error *err)
{
	char dir[SP_PATH_MAX];
	const char *slash = strrchr(path, '/');
	int dirfd, r;

	snprintf(dir, sizeof(dir), "%.*s", !slash ? 1 : slash == path ? 1 : (int)(slash - path),
		 !slash ? "." : path);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return sp_error_set(err, errno, SP_ERR_FAILED,
				    "cannot %s '%s': %s; the old '%s' is unchanged",
				    "create a temporary file beside", path, strerror(errno), path);
	r = sp_fstab_write_atomic_at(dirfd, slash ? slash + 1 : path, path, text, file, err);
	close(dirfd);
	return r;
}

static int not_regular(const char *display, mode_t mode, struct sp_error *err)
{
	return sp_error_set(err, S_ISDIR(mode) ? EISDIR : EINVAL, SP_ERR_INVALID,
			    "the fstab lock '%s' is %s, not a regular file", display,
			    sp_file_kind(mode));
}

int sp_fstab_lock_check(int etc_fd, const char *display, struct sp_error *err)
{
	struct stat st;

	/* lstat, not open: a device node there is never opened */
	if (fstatat(etc_fd, SP_FSTAB_LOCK_NAME, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 :
					 sp_error_set(err, errno, SP_ERR_REFUSED,
						      "cannot look at the fstab lock '%s': %s",
						      display, strerror(errno));
	return S_ISREG(st.st_mode) ? 0 : not_regular(display, st.st_mode, err);
}

int sp_fstab_lock(int etc_fd, const char *display, unsigned wait_ms, int *ret_fd,
		  struct sp_error *err)
{
	struct stat st;
	int fd, r;

	r = sp_fstab_lock_check(etc_fd, display, err);
	if (r < 0)
		return r;
	fd = openat(etc_fd, SP_FSTAB_LOCK_NAME,
		    O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
	if (fd < 0 && errno == ELOOP)
		return not_regular(display, S_IFLNK, err);
	if (fd < 0)
		return sp_error_set(err, errno, SP_ERR_FAILED,
				    "cannot open the lock file '%s': %s", display, strerror(errno));
	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return sp_error_set(err, -r, SP_ERR_FAILED, "cannot stat the lock file '%s': %s",
				    display, strerror(-r));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return not_regular(display, st.st_mode, err);
	}
	for (unsigned waited = 0;; waited += 20) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			break;
		if ((errno != EWOULDBLOCK && errno != EINTR) || waited >= wait_ms) {
			int e = errno;

			close(fd);
			return sp_error_set(err, e, SP_ERR_FAILED, "cannot lock '%s': %s", display,
					    e == EWOULDBLOCK ? "another run still holds it" :
							       strerror(e));
		}
		usleep(20 * 1000);
	}
	*ret_fd = fd;
	return 0;
}
