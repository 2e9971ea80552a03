/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a key: the permission rule is cryptsetup's warning made a
 * refusal ("key file ... is world/group readable" is what any installer
 * log would otherwise carry past), and the file is judged on the
 * descriptor it is read from (fstat after open), so it cannot be swapped
 * between the check and the read.  A FIFO or device is opened
 * non-blocking and refused before anything is read from it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keyfile.h"

/* the first buffer: most keys are a passphrase or 64 random bytes */
#define KEY_FIRST_ALLOC_BYTES 4096U

/* A buffer for len bytes holding what k held, locked when the kernel lets
 * us; the old one is wiped.  0 or -ENOMEM (k unchanged). */
static int key_grow(struct sp_key *k, size_t len)
{
	unsigned char *p = calloc(1, len);

	if (!p)
		return -ENOMEM;
	if (k->bytes)
		memcpy(p, k->bytes, k->len);
	if (k->bytes) {
		explicit_bzero(k->bytes, k->alloc_len);
		if (k->locked)
			munlock(k->bytes, k->alloc_len);
		free(k->bytes);
	}
	k->bytes = p;
	k->alloc_len = len;
	k->locked = mlock(p, len) == 0;
	return 0;
}

void sp_key_wipe(struct sp_key *key)
{
	if (!key || !key->bytes)
		return;
	explicit_bzero(key->bytes, key->alloc_len);
	if (key->locked)
		munlock(key->bytes, key->alloc_len);
	free(key->bytes);
	memset(key, 0, sizeof(*key));
}

/* Reads fd to its end into k, at most SP_KEY_MAX_BYTES + 1 (one more
 * tells a key that is too long).  0 or -errno. */
static int read_all(int fd, struct sp_key *k)
{
	for (;;) {
		ssize_t n;

		if (k->len == k->alloc_len) {
			size_t want = k->alloc_len ? k->alloc_len * 2 : KEY_FIRST_ALLOC_BYTES;
			int r;

			if (k->len > SP_KEY_MAX_BYTES)
				break;
			if (want > SP_KEY_MAX_BYTES + 1)
				want = SP_KEY_MAX_BYTES + 1;
			r = key_grow(k, want);
			if (r < 0)
				return r;
		}
		n = read(fd, k->bytes + k->len, k->alloc_len - k->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		k->len += (size_t)n;
	}
	return 0;
}

static int check_file(const char *path, const struct stat *st, struct sp_error *err)
{
	if (!S_ISREG(st->st_mode))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "key file '%s' is not a regular file", path);
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return sp_error_set(err, EPERM, SP_ERR_REFUSED,
				    "key file '%s' belongs to user %u, not to root or the user "
				    "running stripeplan; whoever owns it can change the key",
				    path, (unsigned)st->st_uid);
	if (st->st_mode & (S_IRWXG | S_IRWXO))
		return sp_error_set(err, EPERM, SP_ERR_REFUSED,
				    "key file '%s' has mode %04o: its group or others may use it; "
				    "'chmod 0600 %s' (or 0400) first",
				    path, (unsigned)(st->st_mode & 07777), path);
	if (st->st_size == 0)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "key file '%s' is empty", path);
	if ((unsigned long long)st->st_size > SP_KEY_MAX_BYTES)
		return sp_error_set(err, EFBIG, SP_ERR_INVALID,
				    "key file '%s' has %lld bytes, more than the %u bytes cryptsetup reads",
				    path, (long long)st->st_size, SP_KEY_MAX_BYTES);
	return 0;
}

/* What was read, judged: never empty, never longer than cryptsetup
 * reads (a file may have changed since fstat). */
static int check_length(const char *path, const struct sp_key *k, struct sp_error *err)
{
	bool from_stdin = !strcmp(path, "-");

	if (!k->len)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "the key %s%s%s is empty",
				    from_stdin ? "on stdin" : "file '", from_stdin ? "" : path,
				    from_stdin ? "" : "'");
	if (k->len > SP_KEY_MAX_BYTES)
		return sp_error_set(err, EFBIG, SP_ERR_INVALID,
				    "the key %s%s%s has more than the %u bytes cryptsetup reads",
				    from_stdin ? "on stdin" : "file '", from_stdin ? "" : path,
				    from_stdin ? "" : "'", SP_KEY_MAX_BYTES);
	return 0;
}

static int open_key(const char *path, int stdin_fd, int *ret_fd, struct sp_error *err)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-")) {
		if (isatty(stdin_fd))
			return sp_error_set(err, ENOTTY, SP_ERR_INVALID,
					    "--key-file -: stdin is a terminal; stripeplan does not "
					    "prompt: pipe the key in, or give a key file");
		*ret_fd = stdin_fd;
		return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return sp_error_set(err, errno, SP_ERR_INVALID, "cannot open key file '%s': %s",
				    path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		return sp_error_set(err, e, SP_ERR_INVALID, "cannot stat key file '%s': %s", path,
				    strerror(e));
	}
	if (check_file(path, &st, err) < 0) {
		close(fd);
		return err->code;
	}
	*ret_fd = fd;
	return 0;
}

int sp_key_read(const char *path, int stdin_fd, struct sp_key *ret, struct sp_error *err)
{
	struct sp_key k = { 0 };
	bool from_stdin = path && !strcmp(path, "-");
	int fd = -1, r;

	if (!path || !path[0] || !ret)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID, "no key file given");
	r = open_key(path, stdin_fd, &fd, err);
	if (r < 0)
		return r;
	r = read_all(fd, &k);
	if (r < 0) {
		sp_error_set(err, -r, r == -ENOMEM ? SP_ERR_FAILED : SP_ERR_INVALID,
			     "cannot read the key from %s%s%s: %s", from_stdin ? "stdin" : "'",
			     from_stdin ? "" : path, from_stdin ? "" : "'", strerror(-r));
		goto out;
	}
	r = check_length(path, &k, err);
	if (r < 0)
		goto out;
	*ret = k;
	k.bytes = NULL;
out:
	sp_key_wipe(&k);
	if (fd >= 0 && !from_stdin)
		close(fd);
	return r;
}
