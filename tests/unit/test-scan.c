/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What scan lists and which disks the system needs (system/scan.c), on a
 * fake sysfs tree laid out as the kernel does: disks with partitions, an
 * md RAID1 under an LVM volume that holds /, a multipath map and its two
 * paths, a disk with /data mounted, and the devices scan never lists
 * (loop, ram, zram, sr, an md container, an empty drive, an LVM volume).
 * And the scan rows' JSON (formatters/scan.c, planner/schema/scan-file.c).
 * The tree is built in a temporary directory; nothing else is touched.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "format.h"
#include "scan.h"
#include "stripeplan.h"

static char root[PATH_MAX];

static void mkdirs(const char *path)
{
	char buf[PATH_MAX];

	assert_true(strlen(path) < sizeof(buf));
	strcpy(buf, path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		assert_true(mkdir(buf, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	assert_true(mkdir(buf, 0755) == 0 || errno == EEXIST);
}

/* root/sys/REL holding text, its directories made first */
static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/%s", root, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	mkdirs(path);
	*slash = '/';
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* a link at root/sys/REL, as holders/ and slaves/ entries and dev/block are */
static void link_at(const char *target, const char *rel)
{
	char path[PATH_MAX], *slash;

	snprintf(path, sizeof(path), "%s/sys/%s", root, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	mkdirs(path);
	*slash = '/';
	assert_int_equal(symlink(target, path), 0);
}

/* block/NAME with dev and size, and dev/block/MAJ:MIN pointing at it */
static void disk(const char *name, unsigned major, unsigned minor, const char *size_512)
{
	char rel[PATH_MAX], text[64];

	snprintf(rel, sizeof(rel), "block/%s/dev", name);
	snprintf(text, sizeof(text), "%u:%u\n", major, minor);
	put(rel, text);
	snprintf(rel, sizeof(rel), "block/%s/size", name);
	put(rel, size_512);
	snprintf(rel, sizeof(rel), "dev/block/%u:%u", major, minor);
	snprintf(text, sizeof(text), "../../block/%s", name);
	link_at(text, rel);
}

static void partition(const char *disk_name, const char *name, unsigned number, unsigned major,
		      unsigned minor)
{
	char rel[PATH_MAX], text[64];

	snprintf(rel, sizeof(rel), "block/%s/%s/partition", disk_name, name);
	snprintf(text, sizeof(text), "%u\n", number);
	put(rel, text);
	snprintf(rel, sizeof(rel), "block/%s/%s/dev", disk_name, name);
	snprintf(text, sizeof(text), "%u:%u\n", major, minor);
	put(rel, text);
	snprintf(rel, sizeof(rel), "block/%s/%s/start", disk_name, name);
	put(rel, "2048\n");
	snprintf(rel, sizeof(rel), "block/%s/%s/size", disk_name, name);
	put(rel, "1000\n");
}

/* upper sits on lower: lower/holders/upper and upper/slaves/lower */
static void stacked(const char *upper, const char *lower)
{
	char rel[PATH_MAX], target[PATH_MAX];

	snprintf(rel, sizeof(rel), "block/%s/holders/%s", lower, upper);
	snprintf(target, sizeof(target), "../../%s", upper);
	link_at(target, rel);
	snprintf(rel, sizeof(rel), "block/%s/slaves/%s", upper, lower);
	snprintf(target, sizeof(target), "../../%s", lower);
	link_at(target, rel);
}

/*
 * sda: sda1 /boot's partition is not mounted here, sda2 swap
 * sdb, sdc: md0 (raid1) under dm-0 (LVM), which holds /
 * sdd, sde: the paths of dm-1 (multipath)
 * sdf: sdf1 mounted on /data
 * never listed: loop0, ram0, zram0, sr0, md127 (container), sdg (empty), dm-0
 */
static void machine(struct sp_scan_needed *needed)
{
	disk("sda", 8, 0, "4000\n");
	partition("sda", "sda1", 1, 8, 1);
	partition("sda", "sda2", 2, 8, 2);
	disk("sdb", 8, 16, "4000\n");
	disk("sdc", 8, 32, "4000\n");
	disk("md0", 9, 0, "3900\n");
	put("block/md0/md/level", "raid1\n");
	stacked("md0", "sdb");
	stacked("md0", "sdc");
	disk("dm-0", 253, 0, "3000\n");
	put("block/dm-0/dm/uuid", "LVM-abc\n");
	stacked("dm-0", "md0");
	disk("sdd", 8, 48, "4000\n");
	disk("sde", 8, 64, "4000\n");
	disk("dm-1", 253, 1, "4000\n");
	put("block/dm-1/dm/uuid", "mpath-3600a098038303053\n");
	stacked("dm-1", "sdd");
	stacked("dm-1", "sde");
	disk("sdf", 8, 80, "4000\n");
	partition("sdf", "sdf1", 1, 8, 81);
	disk("sdg", 8, 96, "0\n");
	disk("loop0", 7, 0, "2048\n");
	disk("ram0", 1, 0, "2048\n");
	disk("zram0", 252, 0, "2048\n");
	disk("sr0", 11, 0, "2048\n");
	disk("md127", 9, 127, "0\n");
	put("block/md127/md/level", "container\n");

	memset(needed, 0, sizeof(*needed));
	needed->n = 3;
	needed->e[0].major = 253;
	needed->e[0].minor = 0;
	needed->e[0].system = true;
	strcpy(needed->e[0].what, "/");
	needed->e[1].major = 8;
	needed->e[1].minor = 2;
	needed->e[1].system = true;
	strcpy(needed->e[1].what, "swap");
	needed->e[2].major = 8;
	needed->e[2].minor = 81;
	strcpy(needed->e[2].what, "/data");
}

static const struct sp_scan_device *find(const struct sp_scan_device *list, size_t n,
					 const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i].name, name))
			return &list[i];
	return NULL;
}

static void test_list(void **state)
{
	static const char *const listed[] = { "dm-1", "md0", "sda", "sdb", "sdc", "sdd", "sde", "sdf" };
	struct sp_scan_device *list = calloc(SP_SCAN_MAX_DEVICES, sizeof(*list));
	struct sp_sysfs sys = { root };
	struct sp_scan_needed needed;
	const struct sp_scan_device *d;
	size_t n = 0;

	(void)state;
	assert_non_null(list);
	machine(&needed);
	assert_int_equal(sp_scan_list(&sys, &needed, list, SP_SCAN_MAX_DEVICES, &n), 0);
	assert_int_equal(n, ARRAY_SIZE(listed));
	for (size_t i = 0; i < n; i++)
		assert_string_equal(list[i].name, listed[i]); /* sorted by name */

	d = find(list, n, "md0");
	assert_int_equal(d->kind, SP_SCAN_MD);
	/* / is on dm-0, which is on md0: md0 and both its members are needed */
	assert_string_equal(d->system_use, "/ (dm-0 on it)");
	assert_string_equal(d->held_by, "");
	d = find(list, n, "sdb");
	assert_int_equal(d->kind, SP_SCAN_DISK);
	assert_string_equal(d->held_by, "md0");
	assert_string_equal(d->system_use, "/ (dm-0 on it)");
	assert_string_equal(find(list, n, "sdc")->system_use, "/ (dm-0 on it)");
	/* swap on a partition marks its disk */
	assert_string_equal(find(list, n, "sda")->system_use, "swap (sda2)");
	/* a data mount is not the system's, but the disk is in use */
	d = find(list, n, "sdf");
	assert_string_equal(d->system_use, "");
	assert_string_equal(d->mounted, "/data (sdf1)");
	/* multipath: the map is listed, its paths are its members */
	d = find(list, n, "dm-1");
	assert_int_equal(d->kind, SP_SCAN_MULTIPATH);
	assert_string_equal(d->system_use, "");
	assert_string_equal(find(list, n, "sdd")->held_by, "dm-1");
	assert_string_equal(find(list, n, "sde")->held_by, "dm-1");
	/* the size is sysfs's 512-byte sectors, for a row whose node cannot be opened */
	assert_int_equal(find(list, n, "sde")->size_bytes, 4000 * 512);
	free(list);
}

static void test_classify(void **state)
{
	struct sp_sysfs sys = { root };
	struct sp_scan_needed needed;
	struct sp_scan_device d;

	(void)state;
	machine(&needed);
	/* never listed on their own ... */
	assert_int_equal(sp_scan_classify(&sys, "loop0", false, &needed, &d), 0);
	assert_int_equal(sp_scan_classify(&sys, "zram0", false, &needed, &d), 0);
	assert_int_equal(sp_scan_classify(&sys, "sdg", false, &needed, &d), 0);
	/* ... a loop device when --device names it (tests) */
	assert_int_equal(sp_scan_classify(&sys, "loop0", true, &needed, &d), 1);
	assert_string_equal(d.name, "loop0");
	assert_string_equal(d.system_use, "");
	/* never an array, even when named: a container, an LVM volume */
	assert_int_equal(sp_scan_classify(&sys, "md127", true, &needed, &d), 0);
	assert_int_equal(sp_scan_classify(&sys, "dm-0", true, &needed, &d), 0);
	assert_int_equal(sp_scan_classify(&sys, "nosuch", true, &needed, &d), -ENOENT);
	/* without the mounts, nothing is the system's */
	assert_int_equal(sp_scan_classify(&sys, "sdb", false, NULL, &d), 1);
	assert_string_equal(d.system_use, "");
}

/* a loop in a tree (md0 on dm-0 on md0) ends; it does not recurse for ever */
static void test_slaves_loop(void **state)
{
	struct sp_sysfs sys = { root };
	struct sp_scan_needed needed;
	struct sp_scan_device d;

	(void)state;
	machine(&needed);
	link_at("../../dm-0", "block/md0/slaves/dm-0");
	assert_int_equal(sp_scan_classify(&sys, "sdb", false, &needed, &d), 1);
	assert_string_equal(d.system_use, "/ (dm-0 on it)");
	assert_int_equal(sp_scan_classify(&sys, "sdf", false, &needed, &d), 1);
	assert_string_equal(d.system_use, "");
}

static void test_json(void **state)
{
	struct sp_scan_row rows[2] = { 0 };
	char *text;

	(void)state;
	strcpy(rows[0].device, "/dev/md0");
	strcpy(rows[0].kind, "md");
	rows[0].size_bytes = 3ULL << 40;
	strcpy(rows[0].level, "raid5");
	rows[0].disks = 4;
	rows[0].chunk_bytes = 65536;
	rows[0].stripe_bytes = 196608;
	rows[0].checked = true;
	rows[0].costly = 1;
	strcpy(rows[0].worst_severity, "costly");
	strcpy(rows[0].worst_code, "start-misaligned");
	strcpy(rows[1].device, "/dev/sda");
	strcpy(rows[1].kind, "disk");
	rows[1].system = true;
	strcpy(rows[1].system_use, "/ (sda2)");
	text = sp_format_scan_json(rows, 2, NULL, 0, 1);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"format_version\": 1"));
	assert_non_null(strstr(text, "\"exit_code\": 1"));
	assert_non_null(strstr(text, "\"stripe_width_bytes\": 196608"));
	assert_non_null(strstr(text, "\"worst_code\": \"start-misaligned\""));
	assert_non_null(strstr(text, "\"system_use\": \"/ (sda2)\""));
	/* an unknown geometry is null, not 0 or "" */
	assert_non_null(strstr(text, "\"level\": null"));
	free(text);
	text = sp_format_scan_text(rows, 2, NULL, 0);
	assert_non_null(text);
	assert_non_null(strstr(text, "1 costly, 0 suboptimal, 0 differs"));
	assert_non_null(strstr(text, "system disk: holds / (sda2); never a candidate for apply"));
	free(text);
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(root, sizeof(root), "%s/sp-scan.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	(void)state;
	/* only the directory mkdtemp made for this test; links are removed, never followed */
	assert_int_equal(strncmp(strrchr(root, '/'), "/sp-scan.", 9), 0);
	assert_int_equal(nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_list, setup, teardown),
		cmocka_unit_test_setup_teardown(test_classify, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slaves_loop, setup, teardown),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
