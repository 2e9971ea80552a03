/* Paths under a target root never lead out of it: links, absolute or
 * relative, and ".." resolve inside the root (system/fileio.c). */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fileio.h"

static char top[PATH_MAX], root[PATH_MAX + 8], outside[PATH_MAX + 16];

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "%s/sp-rootfs.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(top));
	snprintf(root, sizeof(root), "%s/root", top);
	snprintf(outside, sizeof(outside), "%s/outside", top);
	assert_int_equal(mkdir(root, 0755), 0);
	assert_int_equal(mkdir(outside, 0755), 0);
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
	return nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static bool exists(const char *dir, const char *name)
{
	char path[PATH_MAX * 2];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) == 0;
}

static void test_links_stay_inside(void **state)
{
	char link[PATH_MAX * 2];
	int rfd, fd;

	(void)state;
	rfd = sp_root_open(root);
	assert_true(rfd >= 0);

	/* an absolute link to the outside is read as a path inside the root */
	snprintf(link, sizeof(link), "%s/etc", root);
	assert_int_equal(symlink(outside, link), 0);
	assert_int_equal(sp_root_open_dir(rfd, "etc", false, 0), -ENOENT);
	assert_int_equal(sp_root_check_dir(rfd, "etc/udev"), -EEXIST);
	fd = sp_root_open_dir(rfd, "etc/udev/rules.d", true, 0755);
	assert_true(fd < 0);
	assert_false(exists(outside, "udev"));
	unlink(link);

	/* so is a relative one that climbs */
	assert_int_equal(symlink("../../../../../../outside", link), 0);
	assert_true(sp_root_open_dir(rfd, "etc/x", true, 0755) < 0);
	assert_false(exists(outside, "x"));
	unlink(link);

	/* ".." stops at the root */
	fd = sp_root_open_dir(rfd, "a/../../../b", true, 0755);
	if (fd >= 0)
		close(fd);
	assert_false(exists(top, "b"));

	/* a link that stays inside is followed */
	assert_int_equal(mkdir(link, 0755), 0);
	snprintf(link, sizeof(link), "%s/etc2", root);
	assert_int_equal(symlink("/etc", link), 0);
	fd = sp_root_open_dir(rfd, "etc2/made", true, 0700);
	assert_true(fd >= 0);
	close(fd);
	snprintf(link, sizeof(link), "%s/etc", root);
	assert_true(exists(link, "made"));
	assert_int_equal(sp_root_check_dir(rfd, "etc/made"), 0);
	assert_int_equal(sp_root_check_dir(rfd, "etc/not/yet"), 0);
	close(rfd);
}

static void test_write_only_regular_files(void **state)
{
	const char *what = NULL;
	char path[PATH_MAX * 2];
	int dfd;

	(void)state;
	dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	snprintf(path, sizeof(path), "%s/fifo", root);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(sp_write_atomic_at(dfd, "fifo", "x\n", 0644, (uid_t)-1, (gid_t)-1, &what),
			 -EEXIST);
	snprintf(path, sizeof(path), "%s/link", root);
	assert_int_equal(symlink("/dev/null", path), 0);
	assert_int_equal(sp_write_atomic_at(dfd, "link", "x\n", 0644, (uid_t)-1, (gid_t)-1, &what),
			 -EEXIST);
	assert_int_equal(sp_write_atomic_at(dfd, "file", "x\n", 0644, (uid_t)-1, (gid_t)-1, &what), 0);
	assert_int_equal(sp_write_atomic_at(dfd, "file", "y\n", 0644, (uid_t)-1, (gid_t)-1, &what), 0);
	close(dfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_links_stay_inside),
		cmocka_unit_test(test_write_only_regular_files),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
