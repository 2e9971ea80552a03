/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device facts, read once and read-only: ioctls on the device node,
 * attributes from sysfs, and the one reader of /proc/self/mountinfo.
 * Nothing here writes to a device, and nothing opens with O_EXCL: probing
 * a disk in use must work so that we can tell the user it is in use
 * (usage.c says who uses it).
 *
 * Every sysfs path starts from sp_sysfs_path() with the caller's struct
 * sp_sysfs, so tests can point the probe at a fake tree (cciss!c0d0, md, ...).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid/blkid.h>
#include <linux/fs.h>

#include "probe.h"
#include "sysfs.h"

#define SP_SYSFS_CLIMB_MAX 8

#define fail sp_error_set

static int copy_string(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(dst, src, n + 1);
	return 0;
}

/* ---------------------------------------------------------------- sysfs */

/* A path below a sysfs directory already found (dir from sp_sysfs_path()). */
static int __attribute__((format(printf, 3, 4)))
sys_join(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static bool path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* First line of a sysfs attribute, whitespace trimmed; "" is -ENODATA. */
static int read_attr(const char *path, char *buf, size_t len)
{
	int r = sp_sysfs_read(path, buf, len);

	return r == 0 && !buf[0] ? -ENODATA : r;
}

static int link_basename(const char *path, char *buf, size_t len)
{
	char target[SP_PATH_MAX];
	const char *base;
	ssize_t n;

	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	return copy_string(buf, len, base ? base + 1 : target);
}

/* --------------------------------------------------------------- facts */

static int read_sizes(int fd, const char *path, struct sp_facts *f, struct sp_error *err)
{
	unsigned int pbsz = 0, iomin = 0, ioopt = 0;
	int lbsz = 0, alignoff = 0, ro = 0;
	uint64_t size = 0;

	if (ioctl(fd, BLKGETSIZE64, &size) < 0)
		return fail(err, errno, SP_ERR_INVALID,
			    "cannot read the size of '%s': %s", path, strerror(errno));
	if (ioctl(fd, BLKSSZGET, &lbsz) < 0 || lbsz <= 0)
		return fail(err, errno ? errno : EINVAL, SP_ERR_INVALID,
			    "cannot read the logical sector size of '%s': %s", path,
			    strerror(errno ? errno : EINVAL));
	/* Topology ioctls exist since 2.6.32; without them, assume none. */
	if (ioctl(fd, BLKPBSZGET, &pbsz) < 0 || pbsz < (unsigned)lbsz)
		pbsz = (unsigned)lbsz;
	if (ioctl(fd, BLKIOMIN, &iomin) < 0)
		iomin = 0;
	if (ioctl(fd, BLKIOOPT, &ioopt) < 0)
		ioopt = 0;
	if (ioctl(fd, BLKALIGNOFF, &alignoff) < 0)
		alignoff = 0;
	f->size_bytes = size;
	f->logical_sector_bytes = (unsigned)lbsz;
	f->physical_sector_bytes = pbsz;
	f->min_io_bytes = iomin;
	f->optimal_io_bytes = ioopt;
	f->alignment_offset_bytes = alignoff;
	f->read_only = ioctl(fd, BLKROGET, &ro) < 0 ? -1 : !!ro;
	return 0;
}

/*
 * The ioctl first: it answers for the device behind this descriptor,
 * while sysfs answers for whatever the number names by now (a loop
 * device re-attached between our open and our read).  A fake sysfs tree
 * stands in for the whole device, so there sysfs wins.
 */
static uint64_t read_diskseq(const struct sp_sysfs *sys, int fd, const char *sys_dev)
{
	bool fake = sys && sys->root && sys->root[0];
	char path[SP_PATH_MAX];
	uint64_t seq = 0;

#ifdef BLKGETDISKSEQ
	if (!fake && ioctl(fd, BLKGETDISKSEQ, &seq) == 0 && seq)
		return seq;
	seq = 0;
#else
	(void)fd;
	(void)fake;
#endif
	if (sys_join(path, sizeof(path), "%s/diskseq", sys_dev) == 0 &&
	    sp_sysfs_read_u64(path, &seq) == 0)
		return seq;
	return 0;
}

/* First of the given attributes (relative to sys_disk) that has a value. */
static void read_first_attr(const char *sys_disk, const char *const *names, char *buf,
			    size_t len)
{
	char path[SP_PATH_MAX], val[SP_PATH_MAX];

	for (; *names; names++) {
		if (sys_join(path, sizeof(path), "%s/%s", sys_disk, *names) < 0)
			continue;
		if (read_attr(path, val, sizeof(val)) == 0 && copy_string(buf, len, val) == 0)
			return;
	}
}

static bool is_generic_driver(const char *name)
{
	/* Upper-level SCSI drivers say nothing about the controller. */
	return !strcmp(name, "sd") || !strcmp(name, "sr") || !strcmp(name, "sg");
}

/*
 * The driver of the device, or of its nearest ancestor when the device's
 * own driver is a generic one: /sys/block/sdb/device is a scsi_device
 * bound to "sd", while the controller (hpsa, megaraid_sas, mpt3sas) sits
 * a few levels up.  Virtual devices (loop, md) have none: "".
 */
static void read_driver(const char *sys_disk, char *buf, size_t len)
{
	char dir[SP_PATH_MAX], link[SP_PATH_MAX + 16], name[SP_NAME_MAX], *real, *slash;
	size_t n;
	int i;

	if (sys_join(dir, sizeof(dir), "%s/device", sys_disk) < 0)
		return;
	real = realpath(dir, NULL);
	if (!real)
		return;
	for (i = 0; i < SP_SYSFS_CLIMB_MAX; i++) {
		snprintf(link, sizeof(link), "%s/driver", real);
		if (link_basename(link, name, sizeof(name)) == 0 && !is_generic_driver(name)) {
			copy_string(buf, len, name);
			break;
		}
		/* Climb, but never above .../sys/devices. */
		slash = strrchr(real, '/');
		if (!slash || slash == real)
			break;
		*slash = '\0';
		n = strlen(real);
		if (n >= 12 && !strcmp(real + n - 12, "/sys/devices"))
			break;
	}
	free(real);
}

/* "0x1000" (a PCI id attribute) as "1000"; "" for anything else */
static void read_pci_id(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[SP_PATH_MAX], val[32];
	size_t n;

	buf[0] = '\0';
	if (sys_join(path, sizeof(path), "%s/%s", dir, attr) < 0 || read_attr(path, val, sizeof(val)) < 0)
		return;
	if (strncmp(val, "0x", 2) != 0 || strlen(val) != 6 || len < 5)
		return;
	for (n = 2; n < 6; n++)
		if (!isxdigit((unsigned char)val[n]))
			return;
	for (n = 0; n < 4; n++)
		buf[n] = (char)tolower((unsigned char)val[n + 2]);
	buf[4] = '\0';
}

/* A SCSI host's directory is "hostN" with scsi_host/hostN/proc_name in it. */
static void read_proc_name(const char *dir, const char *base, char *buf, size_t len)
{
	char path[SP_PATH_MAX], val[SP_NAME_MAX];

	if (strncmp(base, "host", 4) != 0 || !base[4] || strspn(base + 4, "0123456789") != strlen(base + 4))
		return;
	if (sys_join(path, sizeof(path), "%s/scsi_host/%s/proc_name", dir, base) == 0 &&
	    read_attr(path, val, sizeof(val)) == 0)
		copy_string(buf, len, val);
}

/* What reaches messages must print: a byte outside printable ASCII (a
 * device's INQUIRY is its own to fill) becomes '?'. */
static void printable(char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = '?';
}

void sp_probe_controller_at(const char *sys_disk, struct sp_controller_facts *ret)
{
	char dir[SP_PATH_MAX], path[SP_PATH_MAX], *real, *slash;
	struct sp_controller_facts c = { 0 };

	*ret = c;
	if (sys_join(dir, sizeof(dir), "%s/device", sys_disk) < 0)
		return;
	real = realpath(dir, NULL);
	if (!real)
		return; /* md, loop, dm: no device below them */
	/* INQUIRY strings belong to a SCSI device, never to what is above it */
	if (sys_join(path, sizeof(path), "%s/scsi_device", real) == 0 && path_exists(path)) {
		static const char *const vendor[] = { "vendor", NULL }, *const model[] = { "model", NULL },
					 *const rev[] = { "rev", NULL };

		const char *base = strrchr(real, '/');

		read_first_attr(real, vendor, c.vendor, sizeof(c.vendor));
		read_first_attr(real, model, c.model, sizeof(c.model));
		read_first_attr(real, rev, c.revision, sizeof(c.revision));
		/* the scsi_device's directory is its address, "0:2:0:0" */
		if (base && strspn(base + 1, "0123456789:") == strlen(base + 1))
			copy_string(c.scsi_address, sizeof(c.scsi_address), base + 1);
	}
	for (int i = 0; i < SP_SYSFS_CLIMB_MAX + 4; i++) {
		size_t n;

		slash = strrchr(real, '/');
		if (!slash || slash == real)
			break;
		if (!c.proc_name[0])
			read_proc_name(real, slash + 1, c.proc_name, sizeof(c.proc_name));
		/* the first PCI function above the disk: it has subsystem ids */
		if (sys_join(path, sizeof(path), "%s/subsystem_device", real) == 0 && path_exists(path)) {
			read_pci_id(real, "vendor", c.pci_vendor, sizeof(c.pci_vendor));
			read_pci_id(real, "device", c.pci_device, sizeof(c.pci_device));
			read_pci_id(real, "subsystem_vendor", c.pci_subvendor, sizeof(c.pci_subvendor));
			read_pci_id(real, "subsystem_device", c.pci_subdevice, sizeof(c.pci_subdevice));
			break;
		}
		*slash = '\0';
		n = strlen(real);
		if (n >= 12 && !strcmp(real + n - 12, "/sys/devices"))
			break;
	}
	free(real);
	printable(c.proc_name);
	printable(c.vendor);
	printable(c.model);
	printable(c.revision);
	*ret = c;
}

static bool is_scsi_device(const char *sys_disk)
{
	char path[SP_PATH_MAX];

	if (sys_join(path, sizeof(path), "%s/device/scsi_device", sys_disk) == 0 &&
	    path_exists(path))
		return true;
	return sys_join(path, sizeof(path), "%s/device/queue_depth", sys_disk) == 0 &&
	       path_exists(path);
}

static int read_rotational(const char *sys_disk)
{
	char path[SP_PATH_MAX];
	uint64_t v;

	if (sys_join(path, sizeof(path), "%s/queue/rotational", sys_disk) < 0 ||
	    sp_sysfs_read_u64(path, &v) < 0 || v > 1)
		return -1;
	return (int)v;
}

/*
 * The bounds of max_sectors_kb and nr_requests (facts.h says which kernel
 * code holds them).  md devices and partitions have neither: md's queue
 * is bio-based (no mq/).  A value that does
 * not parse or is out of the kernel's range stays 0, unknown: the plan
 * then bounds nothing, as before.
 */
static uint64_t read_max_hw_sectors_kib(const char *sys_disk)
{
	char path[SP_PATH_MAX];
	uint64_t v;

	if (sys_join(path, sizeof(path), "%s/queue/max_hw_sectors_kb", sys_disk) < 0 ||
	    sp_sysfs_read_u64(path, &v) < 0 || v > SP_MAX_HW_SECTORS_KIB_MAX)
		return 0;
	return v;
}

/* Every hardware queue has the tag set's depth; the smallest is the bound. */
static unsigned read_tag_depth(const char *sys_disk)
{
	char dir[SP_PATH_MAX], path[SP_PATH_MAX + SP_NAME_MAX];
	unsigned depth = 0;
	struct dirent *de;
	uint64_t v;
	DIR *d;

	if (sys_join(dir, sizeof(dir), "%s/mq", sys_disk) < 0 || !(d = opendir(dir)))
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    sys_join(path, sizeof(path), "%s/%s/nr_tags", dir, de->d_name) < 0 ||
		    sp_sysfs_read_u64(path, &v) < 0 || v == 0 || v > SP_TAG_DEPTH_MAX)
			continue;
		if (!depth || v < depth)
			depth = (unsigned)v;
	}
	closedir(d);
	return depth;
}

/* What queue/scheduler offers; md devices and partitions have none. */
static void read_schedulers(const char *sys_disk, struct sp_facts *f)
{
	char path[SP_PATH_MAX], text[256];

	f->n_schedulers = 0;
	if (sys_join(path, sizeof(path), "%s/queue/scheduler", sys_disk) < 0 ||
	    read_attr(path, text, sizeof(text)) < 0)
		return;
	f->n_schedulers = sp_parse_scheduler_list(text, f->schedulers,
						  ARRAY_SIZE(f->schedulers));
}

/* ------------------------------------------------------------------ md */

/*
 * md/uuid is "%pU" (8-4-4-4-12) of the bytes the kernel keeps; udev's
 * MD_UUID, from mdadm --detail --export, is four groups of eight hex
 * digits with ':'.  For v1 metadata they are the same bytes in order; for
 * 0.90 the kernel keeps four little-endian words, which mdadm prints as
 * numbers, so each group's bytes are reversed.
 */
static void md_uuid_for_udev(const char *in, bool words, char *out, size_t len)
{
	char hex[33];
	size_t n = 0;

	out[0] = '\0';
	for (const char *c = in; *c && n < 32; c++)
		if (isxdigit((unsigned char)*c))
			hex[n++] = (char)tolower((unsigned char)*c);
	hex[n] = '\0';
	if (n != 32 || len < 36)
		return;
	for (size_t g = 0; words && g < 32; g += 8) {
		for (size_t i = 0; i < 4; i += 2) {
			char a = hex[g + i], b = hex[g + i + 1];

			hex[g + i] = hex[g + 6 - i];
			hex[g + i + 1] = hex[g + 7 - i];
			hex[g + 6 - i] = a;
			hex[g + 7 - i] = b;
		}
	}
	snprintf(out, len, "%.8s:%.8s:%.8s:%.8s", hex, hex + 8, hex + 16, hex + 24);
}

/* An md attribute as a number; "none" (chunk_size of raid1 reads 0) is 0. */
static uint64_t md_number(const char *sys_dev, const char *attr)
{
	char path[SP_PATH_MAX];
	uint64_t v = 0;

	if (sys_join(path, sizeof(path), "%s/md/%s", sys_dev, attr) < 0 ||
	    sp_sysfs_read_u64(path, &v) < 0)
		return 0;
	return v;
}

static void md_text(const char *sys_dev, const char *attr, char *buf, size_t len)
{
	char path[SP_PATH_MAX], val[SP_NAME_MAX];

	buf[0] = '\0';
	if (sys_join(path, sizeof(path), "%s/md/%s", sys_dev, attr) == 0 &&
	    read_attr(path, val, sizeof(val)) == 0)
		copy_string(buf, len, val);
}

/*
 * One entry of slaves/: a disk, or a partition whose queue and identity
 * belong to its disk (the partition's sysfs directory sits inside the
 * disk's, so the link's parent is the disk).
 */
static void md_member(const struct sp_sysfs *sys, const char *sys_dev, const char *name,
		      struct sp_md_member *m)
{
	static const char *const wwn_attrs[] = { "wwid", "device/wwid", NULL };
	static const char *const serial_attrs[] = { "device/serial", "serial", NULL };
	char p[SP_PATH_MAX], disk_dir[SP_PATH_MAX], *real;

	copy_string(m->name, sizeof(m->name), name);
	copy_string(m->disk, sizeof(m->disk), name);
	if (sys_join(p, sizeof(p), "%s/slaves/%s/partition", sys_dev, name) == 0 &&
	    path_exists(p) && sys_join(p, sizeof(p), "%s/slaves/%s/..", sys_dev, name) == 0 &&
	    (real = realpath(p, NULL))) {
		const char *base = strrchr(real, '/');

		copy_string(m->disk, sizeof(m->disk), base ? base + 1 : real);
		free(real);
	}
	if (sp_sysfs_path(sys, disk_dir, sizeof(disk_dir), "block/%s", m->disk) < 0)
		return;
	read_first_attr(disk_dir, wwn_attrs, m->wwn, sizeof(m->wwn));
	read_first_attr(disk_dir, serial_attrs, m->serial, sizeof(m->serial));
	m->has_queue_depth = sys_join(p, sizeof(p), "%s/device/queue_depth", disk_dir) == 0 &&
			     path_exists(p);
	m->max_hw_sectors_kib = read_max_hw_sectors_kib(disk_dir);
	m->tag_depth = read_tag_depth(disk_dir);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(((const struct sp_md_member *)a)->name, ((const struct sp_md_member *)b)->name);
}

static int md_members(const struct sp_sysfs *sys, const char *sys_dev, struct sp_md_facts *md)
{
	char dir[SP_PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (sys_join(dir, sizeof(dir), "%s/slaves", sys_dev) < 0)
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= SP_NAME_MAX)
			continue;
		struct sp_md_member m = { 0 };
		int r;

		md_member(sys, sys_dev, de->d_name, &m);
		r = sp_md_member_add(md, &m);
		if (r < 0) {
			closedir(d);
			return r;
		}
	}
	closedir(d);
	/* directory order is the kernel's whim; plans must not depend on it */
	qsort(md->members, md->n_members, sizeof(md->members[0]), compare_names);
	return 0;
}

/* An md array whose members could not be read: more than md's version-1
 * superblock holds (SP_MAX_MEMBERS) is not an array stripeplan plans. */
static int md_members_failed(struct sp_error *err, int r, const char *array)
{
	if (r == -E2BIG)
		return fail(err, E2BIG, SP_ERR_INVALID,
			    "md array '%s' has more than %u members, the most md's version-1 "
			    "superblock holds",
			    array, SP_MAX_MEMBERS);
	return fail(err, -r, r == -ENOMEM ? SP_ERR_FAILED : SP_ERR_INVALID,
		    "cannot read the members of md array '%s': %s", array, strerror(-r));
}

/*
 * The superblock format: metadata_version itself, or for a volume of an
 * external container ("external:/md127/0", mdadm's text_version for an
 * IMSM or DDF member array) the container's ("external:imsm").
 */
static void md_format(const struct sp_sysfs *sys, const char *version, char *buf, size_t len)
{
	char container[SP_NAME_MAX], dev[SP_PATH_MAX], text[SP_NAME_MAX] = "", *slash;

	copy_string(buf, len, version);
	if (strncmp(version, "external:/", 10) != 0 ||
	    copy_string(container, sizeof(container), version + 10) < 0)
		return;
	slash = strchr(container, '/');
	if (slash)
		*slash = '\0';
	if (!sp_block_name_ok(container) ||
	    sp_sysfs_path(sys, dev, sizeof(dev), "block/%s", container) < 0)
		return;
	md_text(dev, "metadata_version", text, sizeof(text));
	if (!strncmp(text, "external:", 9) && text[9] != '/')
		copy_string(buf, len, text);
}

/* /sys/.../mdN/md/ as facts; md->present stays false for anything else. */
static int read_md(const struct sp_sysfs *sys, const char *sys_dev, struct sp_md_facts *md)
{
	char path[SP_PATH_MAX], uuid[SP_NAME_MAX], metadata[SP_NAME_MAX];

	memset(md, 0, sizeof(*md));
	if (sys_join(path, sizeof(path), "%s/md/level", sys_dev) < 0 || !path_exists(path))
		return 0;
	md->present = true;
	md_text(sys_dev, "level", md->level, sizeof(md->level));
	md->raid_disks = (unsigned)md_number(sys_dev, "raid_disks");
	md->chunk_bytes = md_number(sys_dev, "chunk_size");
	md->layout = md_number(sys_dev, "layout");
	md->degraded = (unsigned)md_number(sys_dev, "degraded");
	md_text(sys_dev, "sync_action", md->sync_action, sizeof(md->sync_action));
	md_text(sys_dev, "uuid", uuid, sizeof(uuid));
	md_text(sys_dev, "metadata_version", metadata, sizeof(metadata));
	md_uuid_for_udev(uuid, !strncmp(metadata, "0.", 2), md->uuid, sizeof(md->uuid));
	md_format(sys, metadata, md->metadata, sizeof(md->metadata));
	return md_members(sys, sys_dev, md);
}

int sp_probe_md(const struct sp_sysfs *sys, const char *kernel_name, struct sp_md_facts *ret,
		struct sp_error *err)
{
	struct sp_md_facts *md = calloc(1, sizeof(*md));
	char sys_dev[SP_PATH_MAX];
	int r;

	if (!md)
		return fail(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	r = sp_sysfs_path(sys, sys_dev, sizeof(sys_dev), "block/%s", kernel_name);
	if (r == 0)
		r = read_md(sys, sys_dev, md);
	if (r < 0) {
		free(md->members);
		r = md_members_failed(err, r, kernel_name);
	} else {
		*ret = *md;
	}
	free(md);
	return r;
}

/*
 * Names, identity and queue attributes.  Identity and the queue belong to
 * the whole disk, so for a partition they are read from its parent
 * directory (the partition's sysfs directory sits inside the disk's).
 */
static int read_sysfs_facts(const struct sp_sysfs *sys, int fd, const char *path, struct sp_facts *f,
			    struct sp_error *err)
{
	static const char *const wwn_attrs[] = { "wwid", "device/wwid", NULL };
	static const char *const serial_attrs[] = { "device/serial", "serial", NULL };
	char sys_dev[SP_PATH_MAX], sys_disk[SP_PATH_MAX + 4], p[SP_PATH_MAX];
	int r;

	r = sp_sysfs_path(sys, sys_dev, sizeof(sys_dev), "dev/block/%u:%u", f->major, f->minor);
	if (r == 0)
		r = sys_join(p, sizeof(p), "%s", sys_dev);
	if (r == 0)
		r = link_basename(p, f->kernel_name, sizeof(f->kernel_name));
	if (r < 0) {
		/* No sysfs (a bare container): fall back to the node's name. */
		r = sp_kernel_name_from_path(path, f->kernel_name, sizeof(f->kernel_name), err);
		if (r < 0)
			return r;
	}
	f->is_partition = sys_join(p, sizeof(p), "%s/partition", sys_dev) == 0 &&
			  path_exists(p);
	snprintf(sys_disk, sizeof(sys_disk), "%s%s", sys_dev, f->is_partition ? "/.." : "");

	f->diskseq = read_diskseq(sys, fd, sys_dev);
	f->rotational = read_rotational(sys_disk);
	read_schedulers(sys_disk, f);
	f->max_hw_sectors_kib = read_max_hw_sectors_kib(sys_disk); /* a partition's: its disk's */
	f->tag_depth = read_tag_depth(sys_disk);
	read_first_attr(sys_disk, wwn_attrs, f->wwn, sizeof(f->wwn));
	read_first_attr(sys_disk, serial_attrs, f->serial, sizeof(f->serial));
	read_driver(sys_disk, f->driver, sizeof(f->driver));
	sp_probe_controller_at(sys_disk, &f->controller);
	f->is_scsi = is_scsi_device(sys_disk);
	r = read_md(sys, sys_dev, &f->md);
	if (r < 0)
		return md_members_failed(err, r, path);
	return 0;
}

int sp_probe_facts_fd(const struct sp_sysfs *sys, int fd, const char *path, struct sp_facts *ret,
		      struct sp_error *err)
{
	struct sp_facts f = { 0 };
	struct stat st;
	int r;

	if (copy_string(f.path, sizeof(f.path), path) < 0)
		return fail(err, ENAMETOOLONG, SP_ERR_INVALID, "device path is too long");
	if (fstat(fd, &st) < 0)
		return fail(err, errno, SP_ERR_INVALID, "cannot stat '%s': %s",
			    path, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return fail(err, ENOTBLK, SP_ERR_INVALID, "'%s' is not a block device", path);
	f.major = major(st.st_rdev);
	f.minor = minor(st.st_rdev);
	r = read_sizes(fd, path, &f, err);
	if (r == 0)
		r = read_sysfs_facts(sys, fd, path, &f, err);
	if (r < 0) {
		sp_facts_release(&f);
		return r;
	}
	*ret = f;
	return 0;
}

int sp_probe_resolve(const char *path, char *buf, size_t len, struct sp_error *err)
{
	struct stat st;
	char *real;
	int r;

	if (!path || !path[0])
		return fail(err, EINVAL, SP_ERR_INVALID, "no device given");
	if (lstat(path, &st) < 0)
		return fail(err, errno, SP_ERR_INVALID, "cannot stat '%s': %s%s",
			    path, strerror(errno),
			    errno == ENOENT ? " (no such device: it vanished, or was never there)" :
					      "");
	if (!S_ISLNK(st.st_mode))
		return copy_string(buf, len, path) < 0 ?
			       fail(err, ENAMETOOLONG, SP_ERR_INVALID, "device path is too long") :
			       0;
	/* /dev/disk/by-id/... names a node; partitions are named after the node */
	real = realpath(path, NULL);
	if (!real)
		return fail(err, errno, SP_ERR_INVALID,
			    "cannot resolve the link '%s': %s", path, strerror(errno));
	r = copy_string(buf, len, real);
	free(real);
	if (r < 0)
		return fail(err, ENAMETOOLONG, SP_ERR_INVALID,
			    "'%s' resolves to a path that is too long", path);
	return 0;
}

int sp_probe_facts(const struct sp_sysfs *sys, const char *path, struct sp_facts *ret,
		   struct sp_error *err)
{
	char node[SP_PATH_MAX];
	struct stat st;
	int fd, r;

	r = sp_probe_resolve(path, node, sizeof(node), err);
	if (r < 0)
		return r;
	if (stat(node, &st) < 0)
		return fail(err, errno, SP_ERR_INVALID, "cannot stat '%s': %s",
			    node, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return fail(err, ENOTBLK, SP_ERR_INVALID, "'%s' is not a block device", node);
	fd = open(node, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errno, SP_ERR_INVALID, "cannot open '%s': %s",
			    node, strerror(errno));
	r = sp_probe_facts_fd(sys, fd, node, ret, err);
	close(fd);
	/* a stable link is the name the plan, its snippets and reports carry:
	 * the partition is named after it by udev's rule, and found through
	 * the kernel where no udev made that name (sp_sysfs_partition_node) */
	if (r == 0 && sp_is_stable_link(path))
		snprintf(ret->path, sizeof(ret->path), "%s", path);
	return r;
}

/* ---------------------------------------------------------- mountinfo */

void sp_proc_unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* Field 3 of mountinfo is major:minor, field 4 the mounted directory or
 * file inside its filesystem, field 5 the mount point, and the fstype and
 * source follow " - ".  0, or -EINVAL. */
static int parse_mountinfo_line(char *line, struct sp_mount *m)
{
	char *save = NULL, *tok, *devno = NULL, *root = NULL, *target = NULL, *fstype, *source;
	char *sep = strstr(line, " - ");
	int i;

	if (!sep)
		return -EINVAL;
	*sep = '\0';
	for (i = 0, tok = strtok_r(line, " ", &save); tok && i < 5;
	     i++, tok = strtok_r(NULL, " ", &save)) {
		if (i == 2)
			devno = tok;
		else if (i == 3)
			root = tok;
		else if (i == 4)
			target = tok;
	}
	save = NULL;
	fstype = strtok_r(sep + 3, " \n", &save);
	source = fstype ? strtok_r(NULL, " \n", &save) : NULL;
	if (!devno || !root || !target || !source ||
	    sp_sysfs_parse_devno(devno, &m->major, &m->minor) < 0)
		return -EINVAL;
	sp_proc_unescape(root);
	sp_proc_unescape(target);
	sp_proc_unescape(fstype);
	sp_proc_unescape(source);
	if (copy_string(m->root, sizeof(m->root), root) < 0 ||
	    copy_string(m->target, sizeof(m->target), target) < 0 ||
	    copy_string(m->fstype, sizeof(m->fstype), fstype) < 0 ||
	    copy_string(m->source, sizeof(m->source), source) < 0)
		return -EINVAL;
	return 0;
}

int sp_mountinfo_each(void (*each)(const struct sp_mount *m, void *userdata), void *userdata)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	struct sp_mount *m;
	size_t cap = 0;
	char *line = NULL;

	if (!f)
		return -errno;
	m = malloc(sizeof(*m));
	if (!m) {
		fclose(f);
		return -ENOMEM;
	}
	while (getline(&line, &cap, f) > 0)
		if (parse_mountinfo_line(line, m) == 0)
			each(m, userdata);
	free(line);
	free(m);
	fclose(f);
	return 0;
}

int sp_probe_fs_type(const char *path, char *type, size_t len)
{
	const char *v = NULL;
	blkid_probe pr;
	int rc, found = 0;

	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0 && blkid_probe_lookup_value(pr, "TYPE", &v, NULL) == 0 && v) {
		snprintf(type, len, "%s", v);
		found = 1;
	}
	blkid_free_probe(pr);
	return rc < 0 && rc != -2 ? -EIO : found;
}
