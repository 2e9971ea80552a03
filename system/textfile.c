/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the small files a user hands over (plan, profiles, facts,
 * fstab): bounded, regular files only, and never a blocking open.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stripeplan.h"
#include "textfile.h"

const char *sp_file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	case S_IFLNK:
		return "a symbolic link";
	default:
		return "not a regular file";
	}
}

static int read_bounded(int fd, size_t max_bytes, char **ret_text, char *why, size_t why_len)
{
	char *buf = malloc(max_bytes + 1);
	size_t used = 0;
	char *nul;

	if (!buf) {
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	for (;;) {
		ssize_t got = read(fd, buf + used, max_bytes + 1 - used);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			snprintf(why, why_len, "%s", strerror(e));
			free(buf);
			return -e;
		}
		if (got == 0)
			break;
		used += (size_t)got;
		if (used > max_bytes) {
			snprintf(why, why_len, "is larger than %zu bytes", max_bytes);
			free(buf);
			return -EFBIG;
		}
	}
	nul = memchr(buf, '\0', used);
	if (nul) {
		snprintf(why, why_len, "has a NUL byte at offset %zu", (size_t)(nul - buf));
		free(buf);
		return -EINVAL;
	}
	buf[used] = '\0';
	*ret_text = buf;
	return 0;
}

static int read_regular_at(int dirfd, const char *name, int extra_flags, char **ret_text,
			   struct stat *ret_st, char *why, size_t why_len)
{
	const size_t max_bytes = SP_INPUT_MAX_BYTES;
	struct stat st;
	int fd, r;

	fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | extra_flags);
	if (fd < 0) {
		int e = errno;

		if (e == ELOOP && (extra_flags & O_NOFOLLOW))
			snprintf(why, why_len, "is a symbolic link");
		else
			snprintf(why, why_len, "%s", strerror(e));
		return -e;
	}
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		snprintf(why, why_len, "%s", strerror(e));
		return -e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(why, why_len, "is %s, not a regular file", sp_file_kind(st.st_mode));
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	if ((uint64_t)st.st_size > max_bytes) {
		close(fd);
		snprintf(why, why_len, "is larger than %zu bytes", max_bytes);
		return -EFBIG;
	}
	r = read_bounded(fd, max_bytes, ret_text, why, why_len);
	close(fd);
	if (r == 0 && ret_st)
		*ret_st = st;
	return r;
}

int sp_read_input_at(int dirfd, const char *name, int extra_flags, const char *what,
		     const char *display, char **ret_text, struct stat *ret_st,
		     struct sp_error *err)
{
	char why[SP_MSG_MAX];
	int r = read_regular_at(dirfd, name, extra_flags, ret_text, ret_st, why, sizeof(why));

	if (r < 0)
		sp_error_set(err, -r, r == -ENOMEM || r == -EIO ? SP_ERR_FAILED : SP_ERR_INVALID,
			     "%s%scannot read '%s': %s",
			     what ? what : "", what ? ": " : "", display, why);
	return r;
}
