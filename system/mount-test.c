/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The mount test (mount-test.h): a detached mount, or a private one. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exec.h"
#include "fstab/mount-options.h"
#include "mount-test.h"
#include "stripeplan.h"

#define OPTIONS_MAX (SP_MAX_OPTIONS * SP_NAME_MAX)

/* The new mount API's ABI (linux/mount.h), spelled here: glibc's
 * <sys/mount.h> and <linux/mount.h> do not mix, and older glibc has
 * neither wrapper. */
#define SP_FSOPEN_CLOEXEC 0x1U
#define SP_FSCONFIG_SET_FLAG 0U
#define SP_FSCONFIG_SET_STRING 1U
#define SP_FSCONFIG_CMD_CREATE 6U
#define SP_FSMOUNT_CLOEXEC 0x1U
#define SP_MOUNT_ATTR_RDONLY 0x1U
#define SP_MOUNT_ATTR_NOSUID 0x2U
#define SP_MOUNT_ATTR_NODEV 0x4U
#define SP_MOUNT_ATTR_NOEXEC 0x8U
#define SP_MOUNT_ATTR_NOATIME 0x10U
#define SP_MOUNT_ATTR_STRICTATIME 0x20U
#define SP_MOUNT_ATTR_NODIRATIME 0x80U

static int sys_fsopen(const char *fstype)
{
#ifdef SYS_fsopen
	return (int)syscall(SYS_fsopen, fstype, SP_FSOPEN_CLOEXEC);
#else
	(void)fstype;
	errno = ENOSYS;
	return -1;
#endif
}

static int sys_fsconfig(int fd, unsigned cmd, const char *key, const char *value)
{
#ifdef SYS_fsconfig
	return (int)syscall(SYS_fsconfig, fd, cmd, key, value, 0);
#else
	(void)fd, (void)cmd, (void)key, (void)value;
	errno = ENOSYS;
	return -1;
#endif
}

static int sys_fsmount(int fd, unsigned attrs)
{
#ifdef SYS_fsmount
	return (int)syscall(SYS_fsmount, fd, SP_FSMOUNT_CLOEXEC, attrs);
#else
	(void)fd, (void)attrs;
	errno = ENOSYS;
	return -1;
#endif
}

/* What the filesystem said into the context's log ("e xfs: Unknown
 * parameter 'nobarrier'"), its last error line, without the "e ". */
static void context_log(int fsfd, char *buf, size_t len)
{
	char line[512];
	ssize_t n;

	buf[0] = '\0';
	while ((n = read(fsfd, line, sizeof(line) - 1)) > 0) {
		line[n] = '\0';
		line[strcspn(line, "\n")] = '\0';
		if (n > 2 && line[0] == 'e' && line[1] == ' ')
			snprintf(buf, len, "%s", line + 2);
	}
}

/* ------------------------------------------------------- detached mount */

/* The superblock flags fsconfig takes by name; the rest of mount(8)'s
 * VFS flags are per-mount attributes. */
static const struct {
	unsigned long ms;
	const char *name;
} sb_flags[] = {
	{ MS_RDONLY, "ro" }, { MS_SYNCHRONOUS, "sync" }, { MS_DIRSYNC, "dirsync" },
	{ MS_LAZYTIME, "lazytime" }, { MS_MANDLOCK, "mand" },
};
static const struct {
	unsigned long ms;
	unsigned attr;
} mount_attrs[] = {
	{ MS_RDONLY, SP_MOUNT_ATTR_RDONLY },	     { MS_NOSUID, SP_MOUNT_ATTR_NOSUID },
	{ MS_NODEV, SP_MOUNT_ATTR_NODEV },	     { MS_NOEXEC, SP_MOUNT_ATTR_NOEXEC },
	{ MS_NOATIME, SP_MOUNT_ATTR_NOATIME },	     { MS_STRICTATIME, SP_MOUNT_ATTR_STRICTATIME },
	{ MS_NODIRATIME, SP_MOUNT_ATTR_NODIRATIME },
};

/* One of the filesystem's own options: "logbufs=8" or "inode64". */
static int set_option(int fsfd, char *opt)
{
	char *eq = strchr(opt, '=');

	if (!eq)
		return sys_fsconfig(fsfd, SP_FSCONFIG_SET_FLAG, opt, NULL);
	*eq = '\0';
	return sys_fsconfig(fsfd, SP_FSCONFIG_SET_STRING, opt, eq + 1);
}

/*
 * Mounts detached and closes it again: 0, -ENOSYS without the new mount
 * API, or -errno with why (the option fsconfig refused, or the
 * filesystem's own words from the context's log).
 */
static int detached_mount(const char *source, const char *fstype, const char *options,
			  char *why, size_t len)
{
	char data[OPTIONS_MAX], said[SP_MSG_MAX], *save = NULL;
	unsigned long flags;
	unsigned attrs = 0;
	int fsfd, mfd, r;

	r = sp_mount_options_split(options, &flags, data, sizeof(data));
	if (r < 0) {
		snprintf(why, len, "cannot read the options: %s", strerror(-r));
		return r;
	}
	fsfd = sys_fsopen(fstype);
	if (fsfd < 0) {
		r = -errno;
		snprintf(why, len, "fsopen(2) of %s said %s", fstype, strerror(-r));
		return r;
	}
	if (sys_fsconfig(fsfd, SP_FSCONFIG_SET_STRING, "source", source) < 0) {
		r = -errno;
		snprintf(why, len, "cannot give the source: %s", strerror(-r));
		goto out;
	}
	for (char *o = strtok_r(data, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		char name[SP_NAME_MAX];

		snprintf(name, sizeof(name), "%s", o);
		if (set_option(fsfd, o) < 0) {
			r = -errno;
			context_log(fsfd, said, sizeof(said));
			snprintf(why, len, "the kernel rejects '%s' (%s)", name,
				 said[0] ? said : strerror(-r));
			goto out;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(sb_flags); i++) {
		if ((flags & sb_flags[i].ms) &&
		    sys_fsconfig(fsfd, SP_FSCONFIG_SET_FLAG, sb_flags[i].name, NULL) < 0) {
			r = -errno;
			snprintf(why, len, "the kernel rejects '%s' (%s)", sb_flags[i].name,
				 strerror(-r));
			goto out;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(mount_attrs); i++)
		if (flags & mount_attrs[i].ms)
			attrs |= mount_attrs[i].attr;
	if (sys_fsconfig(fsfd, SP_FSCONFIG_CMD_CREATE, NULL, NULL) < 0) {
		r = -errno;
		context_log(fsfd, said, sizeof(said));
		snprintf(why, len, "mounting said %s%s%s", strerror(-r), said[0] ? ": " : "", said);
		goto out;
	}
	mfd = sys_fsmount(fsfd, attrs);
	if (mfd < 0) {
		r = -errno;
		snprintf(why, len, "fsmount(2) said %s", strerror(-r));
		goto out;
	}
	close(mfd); /* the detached mount goes with its last reference */
	r = 0;
out:
	close(fsfd);
	return r;
}

/* ------------------------------------------- old kernels: mount(2) */

/*
 * Inside sp_run_in_private_mounts: a directory made here, on the private
 * tmpfs on /run, recorded by its inode and removed only while the name
 * still leads to it; mount(2) with the options split as mount(8) splits
 * them.  Only in a namespace whose mounts are private.
 */
static int private_mount(const char *source, const char *fstype, const char *options,
			 char *why, size_t len)
{
	char dir[] = "/run/stripeplan-mount-test.XXXXXX", data[OPTIONS_MAX];
	unsigned long flags;
	struct stat made, now;
	int r;

	/* again, here: in a chroot whose root is no mount point this fails,
	 * and a mount would propagate to the machine's namespace */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		r = -errno;
		snprintf(why, len, "this kernel has no detached mounts (fsopen(2): Linux 5.2) and "
			 "the mounts here cannot be made private (%s: a chroot?), so a test mount "
			 "would be seen outside", strerror(-r));
		return r;
	}
	r = sp_mount_options_split(options, &flags, data, sizeof(data));
	if (r < 0) {
		snprintf(why, len, "cannot read the options: %s", strerror(-r));
		return r;
	}
	if (!mkdtemp(dir) || stat(dir, &made) < 0) {
		r = -errno;
		snprintf(why, len, "cannot make a directory on the private /run: %s", strerror(-r));
		return r;
	}
	r = mount(source, dir, fstype, flags, data[0] ? data : NULL) == 0 ? 0 : -errno;
	if (r < 0)
		snprintf(why, len, "mount(2) said %s", strerror(-r));
	else if (umount2(dir, UMOUNT_NOFOLLOW) < 0)
		umount2(dir, MNT_DETACH | UMOUNT_NOFOLLOW); /* ours, in our namespace */
	if (stat(dir, &now) == 0 && now.st_dev == made.st_dev && now.st_ino == made.st_ino)
		rmdir(dir);
	return r;
}

/* --------------------------------------------------------------- the test */

struct job {
	const char *source, *fstype, *options;
};

static int try_mount(const struct job *job, const char *options, char *why, size_t len)
{
	int r = detached_mount(job->source, job->fstype, options, why, len);

	if (r == -ENOSYS)
		r = private_mount(job->source, job->fstype, options, why, len);
	return r;
}

/*
 * mount(2), and fsconfig's CREATE, say only EINVAL for some bad options;
 * which one it was is worth the extra mounts: with no options first (the
 * filesystem itself must mount), then each option on its own.
 */
static void find_rejected(const struct job *job, char *buf, size_t len)
{
	char copy[OPTIONS_MAX], why[SP_MSG_MAX], *save = NULL;
	size_t used = 0;

	buf[0] = '\0';
	if (try_mount(job, "", why, sizeof(why)) < 0)
		return;
	snprintf(copy, sizeof(copy), "%s", job->options);
	for (char *o = strtok_r(copy, ",", &save); o && used < len; o = strtok_r(NULL, ",", &save))
		if (try_mount(job, o, why, sizeof(why)) < 0)
			used += (size_t)snprintf(buf + used, len - used, "%s'%s'", used ? ", " : "",
						 o);
}

/* Runs in the child with its own mount namespace. */
static int job_run(void *arg, char *msg, size_t len)
{
	const struct job *job = arg;
	char why[SP_MSG_MAX], rejected[SP_MSG_MAX];
	int r = try_mount(job, job->options, why, sizeof(why));

	if (r == 0)
		return 0;
	if (strstr(why, "the kernel rejects") || r == -ENOSYS || r == -EPERM) {
		snprintf(msg, len, "mount test of '%s' with '%s' failed: %s", job->source,
			 job->options, why);
		return r;
	}
	find_rejected(job, rejected, sizeof(rejected));
	if (rejected[0])
		snprintf(msg, len, "mount test of '%s' with '%s' failed: the kernel rejects %s (%s)",
			 job->source, job->options, rejected, why);
	else
		snprintf(msg, len, "mount test of '%s' with '%s' failed: %s", job->source,
			 job->options, why);
	return r;
}

int sp_mount_test(const char *source, const char *fstype, const char *options, char *msg,
		  size_t len)
{
	struct job job = { source, fstype, options };

	msg[0] = '\0';
	return sp_run_in_private_mounts(job_run, &job, msg, len);
}

/* In the child: the detached API exists (fsopen of no filesystem says
 * ENODEV, not ENOSYS), or the namespace's mounts can be made private. */
static int possible_run(void *arg, char *msg, size_t len)
{
	int fd = sys_fsopen("stripeplan-no-such-filesystem");

	(void)arg;
	if (fd >= 0)
		close(fd);
	if (fd >= 0 || errno != ENOSYS)
		return 0;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0)
		return 0;
	snprintf(msg, len, "the mount test cannot run here: this kernel has no detached mounts "
		 "(fsopen(2): Linux 5.2) and the mounts here cannot be made private (%s: a "
		 "chroot?), so a test mount would be seen outside", strerror(errno));
	return -EPERM;
}

int sp_mount_test_possible(char *msg, size_t len)
{
	msg[0] = '\0';
	return sp_run_in_private_mounts(possible_run, NULL, msg, len);
}
