/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who is using a disk: everything the kernel can say about the disk and
 * each of its partitions, read-only.  A disk is in use when a filesystem
 * on it is mounted, it is swap, md/dm/bcache sit on it (holders/), a loop
 * device reads and writes through it, its node is bind-mounted somewhere,
 * a process has it open, or someone holds a lock on its node.  Exclusive
 * holders this cannot see (a mount in another mount namespace) are found
 * by the pipeline's O_EXCL opens; both are one rule there
 * (refuse_if_in_use).
 *
 * Every comparison is by device number, never by name: a node may be
 * spelled /dev/sdb1, /dev/disk/by-id/..., or live in a container's /dev.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <blkid/blkid.h>
#include <linux/loop.h>

#include "probe.h"
#include "sysfs.h"

#define fail sp_error_set

/* loop devices' block major (linux/major.h LOOP_MAJOR) */
#define SP_LOOP_MAJOR 7U

/* One node: the disk or a partition, as the kernel numbers it. */
struct blockdev {
	char name[SP_NAME_MAX];
	char node[SP_PATH_MAX];
	unsigned major, minor;
	/* the node's own inode, for what names it by inode (loop, locks);
	 * have_inode false when /dev has no such node */
	bool have_inode;
	dev_t inode_dev;
	ino_t inode_ino;
};

struct devlist {
	struct blockdev *devs;
	size_t n;
};

int sp_node_of(const char *name, char *buf, size_t len)
{
	int w = snprintf(buf, len, "/dev/%s", name);

	if (w < 0 || (size_t)w >= len)
		return -ENAMETOOLONG;
	/* sysfs spells a '/' in a device name as '!' (cciss!c0d0) */
	for (char *c = buf; *c; c++)
		if (*c == '!')
			*c = '/';
	return 0;
}

size_t sp_usage_count(const struct sp_usage *u, enum sp_use use)
{
	size_t n = 0;

	for (size_t i = 0; i < u->n && i < SP_USAGE_MAX; i++)
		n += u->e[i].use == use;
	return n;
}

static int devlist_add(struct devlist *l, const char *name, unsigned ma, unsigned mi)
{
	struct blockdev *p = realloc(l->devs, (l->n + 1) * sizeof(*p)), *d;
	struct stat st;

	if (!p)
		return -ENOMEM;
	l->devs = p;
	d = &p[l->n];
	memset(d, 0, sizeof(*d));
	if (snprintf(d->name, sizeof(d->name), "%s", name) >= (int)sizeof(d->name) ||
	    sp_node_of(name, d->node, sizeof(d->node)) < 0)
		return -ENAMETOOLONG;
	d->major = ma;
	d->minor = mi;
	if (stat(d->node, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == makedev(ma, mi)) {
		d->have_inode = true;
		d->inode_dev = st.st_dev;
		d->inode_ino = st.st_ino;
	}
	l->n++;
	return 0;
}

static const struct blockdev *devlist_find(const struct devlist *l, dev_t rdev)
{
	for (size_t i = 0; i < l->n; i++)
		if (makedev(l->devs[i].major, l->devs[i].minor) == rdev)
			return &l->devs[i];
	return NULL;
}

static const struct blockdev *devlist_find_inode(const struct devlist *l, dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->devs[i].have_inode && l->devs[i].inode_dev == dev &&
		    l->devs[i].inode_ino == ino)
			return &l->devs[i];
	return NULL;
}

/* The disk itself first (its node as the caller opened it), then each
 * partition the kernel knows of. */
static int list_devices(const struct sp_sysfs *sys, const struct sp_facts *facts,
			struct devlist *l, size_t *ret_parts)
{
	struct sp_sysfs_partitions *parts = calloc(1, sizeof(*parts));
	int r;

	if (!parts)
		return -ENOMEM;
	r = devlist_add(l, facts->kernel_name, facts->major, facts->minor);
	if (r == 0 && snprintf(l->devs[0].node, sizeof(l->devs[0].node), "%s", facts->path) >=
			      (int)sizeof(l->devs[0].node))
		r = -ENAMETOOLONG;
	if (r == 0)
		r = sp_sysfs_partitions(sys, facts->major, facts->minor, parts);
	for (size_t i = 0; r == 0 && i < parts->n; i++)
		r = devlist_add(l, parts->p[i].name, parts->p[i].major, parts->p[i].minor);
	if (r == 0)
		*ret_parts = parts->n;
	free(parts);
	return r;
}

static void __attribute__((format(printf, 5, 6)))
add_entry(struct sp_usage *u, enum sp_use use, const struct blockdev *bd, const char *path,
	  const char *fmt, ...)
{
	struct sp_usage_entry *e;
	va_list ap;

	/* the cap only limits the list; one entry is enough to refuse */
	if (u->n++ >= SP_USAGE_MAX)
		return;
	e = &u->e[u->n - 1];
	e->use = use;
	snprintf(e->device, sizeof(e->device), "%s", bd->name);
	snprintf(e->node, sizeof(e->node), "%s", bd->node);
	snprintf(e->path, sizeof(e->path), "%s", path ? path : "");
	va_start(ap, fmt);
	vsnprintf(e->what, sizeof(e->what), fmt, ap);
	va_end(ap);
}

/* --------------------------------------------------------------- mounts */

struct mount_scan {
	const struct devlist *l;
	struct sp_usage *u;
};

/*
 * A filesystem on one of the nodes, by the device number mountinfo
 * gives; and a node itself bind-mounted (a file bind mount of
 * /dev/sdb1 into a container): its mount root is a file, not "/", and
 * what is mounted there is the block node.  statx without sync and
 * without automount: a dead NFS server or an autofs point never hangs
 * the scan.
 */
static void add_mount(const struct sp_mount *m, void *userdata)
{
	struct mount_scan *s = userdata;
	const struct blockdev *bd = devlist_find(s->l, makedev(m->major, m->minor));
	struct statx stx;

	if (bd) {
		add_entry(s->u, SP_USE_MOUNTED, bd, m->target, "is mounted on %s", m->target);
		return;
	}
	if (!strcmp(m->root, "/"))
		return;
	if (statx(AT_FDCWD, m->target, AT_STATX_DONT_SYNC | AT_NO_AUTOMOUNT | AT_SYMLINK_NOFOLLOW,
		  STATX_TYPE, &stx) < 0 || !S_ISBLK(stx.stx_mode))
		return;
	bd = devlist_find(s->l, makedev(stx.stx_rdev_major, stx.stx_rdev_minor));
	if (bd)
		add_entry(s->u, SP_USE_BOUND, bd, m->target, "is bind-mounted on %s", m->target);
}

static int scan_mounts(const struct devlist *l, struct sp_usage *u, struct sp_error *err)
{
	struct mount_scan s = { l, u };
	int r = sp_mountinfo_each(add_mount, &s);

	if (r < 0)
		return fail(err, -r, SP_ERR_REFUSED,
			    "cannot read '/proc/self/mountinfo': %s; cannot tell whether the disk is "
			    "mounted",
			    strerror(-r));
	return 0;
}

/* ----------------------------------------------------------------- swap */

/* /proc/swaps names a path; compare what it is, not how it is spelled. */
static void scan_swaps(const struct devlist *l, struct sp_usage *u)
{
	FILE *f = fopen("/proc/swaps", "re");
	const struct blockdev *bd;
	size_t cap = 0;
	char *line = NULL, *save, *name;
	struct stat st;

	if (!f)
		return; /* no swap support compiled in: nothing is swap */
	while (getline(&line, &cap, f) > 0) {
		save = NULL;
		name = strtok_r(line, " \t\n", &save);
		if (!name || name[0] != '/')
			continue; /* the header line */
		sp_proc_unescape(name);
		if (stat(name, &st) < 0 || !S_ISBLK(st.st_mode))
			continue;
		bd = devlist_find(l, st.st_rdev);
		if (bd)
			add_entry(u, SP_USE_SWAP, bd, NULL, "is swap");
	}
	free(line);
	fclose(f);
}

/* ------------------------------------------------------ holders, ro */

/* md, dm and bcache list themselves in holders/ of what they sit on. */
static void scan_holders(const struct sp_sysfs *sys, const struct blockdev *bd,
			 struct sp_usage *u)
{
	char dir[SP_PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (sp_sysfs_path(sys, dir, sizeof(dir), "dev/block/%u:%u/holders", bd->major,
			  bd->minor) < 0)
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			add_entry(u, SP_USE_HELD, bd, NULL, "is held by %s", de->d_name);
	closedir(d);
}

/* A partition can be read-only on a writable disk (blockdev --setro on
 * the partition alone); the disk's own flag is in the facts. */
static void scan_read_only(const struct sp_sysfs *sys, const struct blockdev *bd,
			   struct sp_usage *u)
{
	char path[SP_PATH_MAX];
	uint64_t ro = 0;

	if (sp_sysfs_path(sys, path, sizeof(path), "dev/block/%u:%u/ro", bd->major, bd->minor) ==
		    0 &&
	    sp_sysfs_read_u64(path, &ro) == 0 && ro)
		add_entry(u, SP_USE_READ_ONLY, bd, NULL, "is read-only");
}

/* ----------------------------------------------------------------- loop */

/* LOOP_GET_STATUS64 gives the backing inode's numbers in the kernel's
 * huge_encode_dev() form. */
static dev_t decode_huge_dev(uint64_t v)
{
	return makedev((unsigned)((v & 0xfff00) >> 8), (unsigned)((v & 0xff) | ((v >> 12) & 0xfff00)));
}

/*
 * What the loop device `name` reads and writes through, as the kernel
 * has it: LOOP_GET_STATUS64 on its node gives the backing inode's own
 * device number (lo_rdevice) and where that inode lives (lo_device,
 * lo_inode), which hold even when the path in backing_file was deleted
 * or cannot be reached from here; without the node, backing_file is
 * resolved and stat'ed.
 */
static const struct blockdev *loop_backing(const struct devlist *l, const char *sys_loop,
					   const char *name)
{
	const struct blockdev *bd = NULL;
	struct loop_info64 info;
	char node[SP_PATH_MAX], path[SP_PATH_MAX + 32], file[SP_PATH_MAX];
	struct stat st;
	int fd;

	if (sp_node_of(name, node, sizeof(node)) == 0 &&
	    (fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) >= 0) {
		if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && major(st.st_rdev) == SP_LOOP_MAJOR &&
		    ioctl(fd, LOOP_GET_STATUS64, &info) == 0) {
			bd = devlist_find(l, decode_huge_dev(info.lo_rdevice));
			if (!bd)
				bd = devlist_find_inode(l, decode_huge_dev(info.lo_device),
							(ino_t)info.lo_inode);
		}
		close(fd);
		if (bd)
			return bd;
	}
	snprintf(path, sizeof(path), "%s/loop/backing_file", sys_loop);
	if (sp_sysfs_read(path, file, sizeof(file)) < 0)
		return NULL;
	sp_proc_unescape(file);
	if (stat(file, &st) == 0 && S_ISBLK(st.st_mode))
		return devlist_find(l, st.st_rdev);
	return NULL;
}

static void scan_loops(const struct sp_sysfs *sys, const struct devlist *l, struct sp_usage *u)
{
	char dir[SP_PATH_MAX], sys_loop[SP_PATH_MAX + SP_NAME_MAX];
	const struct blockdev *bd;
	struct dirent *de;
	DIR *d;

	if (sp_sysfs_path(sys, dir, sizeof(dir), "block") < 0 || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4) || !isdigit((unsigned char)de->d_name[4]))
			continue;
		snprintf(sys_loop, sizeof(sys_loop), "%s/%s", dir, de->d_name);
		bd = loop_backing(l, sys_loop, de->d_name);
		if (bd)
			add_entry(u, SP_USE_LOOP, bd, NULL, "backs loop device /dev/%s", de->d_name);
	}
	closedir(d);
}

/* ------------------------------------------------- processes and locks */

static void process_name(const char *pid, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%s/comm", pid);
	if (sp_sysfs_read(path, buf, len) < 0)
		snprintf(buf, len, "?");
}

static bool may_be_a_node(const char *link)
{
	return strncmp(link, "socket:", 7) && strncmp(link, "pipe:", 5) &&
	       strncmp(link, "anon_inode:", 11);
}

/* The block device descriptor FD_PATH (/proc/PID/fd/N) is open on now, or 0. */
static dev_t descriptor_rdev(const char *fd_path)
{
	char target[16];
	struct statx stx;
	ssize_t n;

	/* sockets, pipes and anon inodes ("socket:[...]") are no node;
	 * anything else may be, under whatever name it was opened */
	n = readlink(fd_path, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	if (!may_be_a_node(target))
		return 0;
	if (statx(AT_FDCWD, fd_path, AT_STATX_DONT_SYNC | AT_NO_AUTOMOUNT, STATX_TYPE, &stx) < 0 ||
	    !S_ISBLK(stx.stx_mode))
		return 0;
	return makedev(stx.stx_rdev_major, stx.stx_rdev_minor);
}

#define HELD_CHECKS 5
#define HELD_CHECK_NS (50L * 1000 * 1000)

/*
 * Whether the descriptor still holds RDEV a quarter of a second on.  A
 * probe opens every disk for milliseconds (blkid, udev's workers, another
 * stripeplan resolving an fstab UUID= no /dev/disk link names); a scan
 * that caught one mid-read would call the disk in use.  Finding it gone
 * later is what a scan made later would find; a user (dd, a virtual
 * machine, a database) keeps the disk open and is still found.
 */
static bool still_held(const char *fd_path, dev_t rdev)
{
	const struct timespec step = { .tv_nsec = HELD_CHECK_NS };

	for (int i = 0; i < HELD_CHECKS; i++) {
		nanosleep(&step, NULL);
		if (descriptor_rdev(fd_path) != rdev)
			return false;
	}
	return true;
}

/* Each descriptor of one process that is one of the nodes. */
static void scan_process(const struct devlist *l, const char *pid, struct sp_usage *u)
{
	char dir[64], fd_path[96], comm[64] = "";
	const struct blockdev *bd;
	struct dirent *de;
	dev_t rdev;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%s/fd", pid);
	d = opendir(dir);
	if (!d)
		return; /* gone, or a kernel thread */
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(fd_path, sizeof(fd_path), "%s/%s", dir, de->d_name);
		rdev = descriptor_rdev(fd_path);
		bd = rdev ? devlist_find(l, rdev) : NULL;
		if (!bd || !still_held(fd_path, rdev))
			continue;
		if (!comm[0])
			process_name(pid, comm, sizeof(comm));
		add_entry(u, SP_USE_OPEN, bd, NULL, "is open in process %s (%s)", pid, comm);
	}
	closedir(d);
}

/*
 * /proc/PID/fd of every process, as fuser(1) reads it: a process that
 * opened the node without O_EXCL (dd, a virtual machine's raw disk, a
 * database) is a user O_EXCL cannot see.
 */
static void scan_processes(const struct devlist *l, pid_t self, struct sp_usage *u)
{
	char me[32];
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d)
		return;
	snprintf(me, sizeof(me), "%d", (int)self);
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]) || (self && !strcmp(de->d_name, me)))
			continue;
		scan_process(l, de->d_name, u);
	}
	closedir(d);
}

/* "MAJ:MIN:INODE", the device in hex, the inode in decimal.  0 or -EINVAL. */
static int parse_lock_inode(const char *text, unsigned *ret_major, unsigned *ret_minor,
			    unsigned long long *ret_ino)
{
	char *end;
	unsigned long ma, mi;

	ma = strtoul(text, &end, 16);
	if (end == text || *end != ':')
		return -EINVAL;
	text = end + 1;
	mi = strtoul(text, &end, 16);
	if (end == text || *end != ':')
		return -EINVAL;
	text = end + 1;
	*ret_ino = strtoull(text, &end, 10);
	if (end == text || *end)
		return -EINVAL;
	*ret_major = (unsigned)ma;
	*ret_minor = (unsigned)mi;
	return 0;
}

/*
 * /proc/locks names the locked inode as "MAJ:MIN:INODE" (hex device of
 * its filesystem): a lock on one of the nodes (a virtual machine's OFD
 * lock on its raw disk, an flock) says someone uses it.  Lines for
 * waiters carry a "->" field first.
 */
static void scan_locks(const struct devlist *l, pid_t self, struct sp_usage *u)
{
	FILE *f = fopen("/proc/locks", "re");
	char *line = NULL, *save, *tok, *fields[8];
	size_t cap = 0;

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		unsigned ma, mi;
		unsigned long long ino;
		const struct blockdev *bd;
		size_t n = 0;

		save = NULL;
		for (tok = strtok_r(line, " \t\n", &save); tok && n < 8;
		     tok = strtok_r(NULL, " \t\n", &save))
			if (strcmp(tok, "->"))
				fields[n++] = tok;
		/* 1: FLOCK ADVISORY WRITE 1234 00:05:448 0 EOF */
		if (n < 6 || parse_lock_inode(fields[5], &ma, &mi, &ino) < 0)
			continue;
		bd = devlist_find_inode(l, makedev(ma, mi), (ino_t)ino);
		if (!bd || (self && strtol(fields[4], NULL, 10) == (long)self))
			continue;
		if (!strcmp(fields[4], "-1"))
			add_entry(u, SP_USE_LOCKED, bd, NULL, "is locked (%s %s, an open file "
				  "description: a virtual machine's disk?)", fields[1], fields[3]);
		else
			add_entry(u, SP_USE_LOCKED, bd, NULL, "is locked by process %s (%s %s)",
				  fields[4], fields[1], fields[3]);
	}
	free(line);
	fclose(f);
}

/* ----------------------------------------------------------- signatures */

static void set_signature(struct sp_usage *u, const char *type, const char *usage,
			  const char *offset)
{
	u->has_signature = true;
	snprintf(u->signature_type, sizeof(u->signature_type), "%s", type);
	snprintf(u->signature_usage, sizeof(u->signature_usage), "%s", usage ? usage : "");
	u->signature_offset_bytes = offset ? strtoull(offset, NULL, 10) : 0;
}

/*
 * libblkid's safe probe with both chains on.  Anything it cannot decide
 * (two signatures disagreeing, an I/O error) counts as a signature: a
 * tool that destroys data must not read "not sure" as "empty".
 */
static int scan_signatures(const char *path, struct sp_usage *u, struct sp_error *err)
{
	const char *type = NULL, *usage = NULL, *off = NULL;
	blkid_probe pr;
	int rc;

	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return fail(err, errno ? errno : EIO, SP_ERR_REFUSED,
			    "cannot probe signatures on '%s': %s", path,
			    strerror(errno ? errno : EIO));
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
						      BLKID_SUBLKS_MAGIC);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_FORCE_GPT | BLKID_PARTS_MAGIC);

	rc = blkid_do_safeprobe(pr);
	if (rc < 0) {
		set_signature(u, "unknown", rc == -2 ? "ambivalent" : "probe error", NULL);
	} else if (rc == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			blkid_probe_lookup_value(pr, "SBMAGIC_OFFSET", &off, NULL);
			set_signature(u, type, usage, off);
		} else if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0) {
			blkid_probe_lookup_value(pr, "PTMAGIC_OFFSET", &off, NULL);
			set_signature(u, type, "partition table", off);
		} else {
			set_signature(u, "unknown", "", NULL);
		}
	}
	blkid_free_probe(pr);
	return 0;
}

/* ---------------------------------------------------------------- usage */

int sp_probe_usage(const struct sp_sysfs *sys, const struct sp_facts *facts, pid_t self,
		   struct sp_usage *ret, struct sp_error *err)
{
	struct devlist l = { 0 };
	struct sp_usage *u;
	size_t i, parts = 0;
	int r;

	if (!facts || facts->offline || (!facts->major && !facts->minor))
		return fail(err, EINVAL, SP_ERR_INVALID,
			    "cannot probe usage of '%s': no device was probed",
			    facts ? facts->path : "");
	u = calloc(1, sizeof(*u));
	if (!u)
		return fail(err, ENOMEM, SP_ERR_FAILED,
			    "cannot probe usage of '%s': out of memory", facts->path);

	r = list_devices(sys, facts, &l, &parts);
	if (r < 0) {
		r = fail(err, -r, SP_ERR_REFUSED,
			 "cannot list partitions of '%s': %s; cannot tell whether any is in use",
			 facts->path, strerror(-r));
		goto out;
	}
	u->n_partitions = parts;
	/* partitions first: a read-only partition says why, before its use */
	for (i = 1; i < l.n; i++)
		scan_read_only(sys, &l.devs[i], u);
	r = scan_mounts(&l, u, err);
	if (r < 0)
		goto out;
	scan_swaps(&l, u);
	for (i = 0; i < l.n; i++)
		scan_holders(sys, &l.devs[i], u);
	scan_loops(sys, &l, u);
	scan_processes(&l, self, u);
	scan_locks(&l, self, u);
	r = scan_signatures(facts->path, u, err);
	if (r < 0)
		goto out;
	*ret = *u;
out:
	free(l.devs);
	free(u);
	return r;
}
