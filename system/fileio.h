/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STRIPEPLAN_FILEIO_H
#define STRIPEPLAN_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * Replaces path with text so that a crash leaves the old file or the new
 * one, never half of one: temp file in the same directory, mode and owner
 * set, write, fsync, rename, fsync of the directory.  uid/gid (uid_t)-1
 * keeps the caller's.  Returns 0 or -errno; on failure *ret_what says
 * which stage failed ("write", "rename the new file over", ...) and the
 * old file is untouched and no temp file is left.  A failure to sync the
 * directory after the rename returns -errno with *ret_what "sync the
 * directory of": the new file is in place.
 */
int sp_write_atomic(const char *path, const char *text, mode_t mode, uid_t uid, gid_t gid,
		    const char **ret_what);

/* The same, for name in the directory dirfd (no '/' in name).  A name
 * that is not a regular file (device node, FIFO, link, directory) is
 * never replaced: -EEXIST. */
int sp_write_atomic_at(int dirfd, const char *name, const char *text, mode_t mode, uid_t uid,
		       gid_t gid, const char **ret_what);

/*
 * Files under a target root (--root): every path is resolved as if root
 * were "/" (openat2 RESOLVE_IN_ROOT), so neither ".." nor a symbolic link,
 * absolute or relative, can lead a write out of it.
 *
 * sp_root_open() returns an O_PATH descriptor of root or -errno.
 * sp_root_open_dir() returns a directory descriptor of rel ("etc/udev/
 * rules.d") below it, or -errno; with create, missing directories are
 * made (mode exactly, whatever the umask), each one by descriptor.
 */
int sp_root_open(const char *root);
int sp_root_open_dir(int root_fd, const char *rel, bool create, mode_t mode);
/* Whether sp_root_open_dir(create) would succeed, creating nothing: 0
 * when rel is a writable directory or every missing component can be
 * made; -EEXIST when something not a directory (a file, a link leading
 * out of the root or nowhere) is in the way; -errno otherwise. */
int sp_root_check_dir(int root_fd, const char *rel);

/* write(2) until done, retrying EINTR. */
int sp_write_all(int fd, const char *buf, size_t len);


#endif
