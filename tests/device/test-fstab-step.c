/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fstab step against a real XFS filesystem on a loop device this test
 * attaches to a sparse image in its own temporary directory, with scratch
 * target roots under that directory.  Runs as root.
 *
 * SAFETY: mkfs and parted go through loop_ours(), which accepts only the
 * loop device this test attached or its partition.  Every mount (the
 * tmpfs roots, the "does the line mount" check) is registered before it
 * is made and undone after every test, failed or not; the device is
 * detached in the group teardown, and also from atexit() (loopdev.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

#include "fstab-file.h"
#include "loopdev.h"
#include "steps.h"

#define IMAGE_BYTES (512U * 1024U * 1024U) /* mkfs.xfs wants 300 MiB */
#define OPTS "noatime,nofail,x-systemd.device-timeout=30s"

/* Test-only state: the group's one device, and scratch roots made. */
static struct {
	const char *dev;       /* /dev/loopN */
	char part[80];         /* /dev/loopNp1 */
	char uuid[SP_UUID_MAX];
	unsigned n_roots;
} g;

static int teardown_test(void **state)
{
	(void)state;
	loop_unmount_all();
	return 0;
}

/* One loop device, one GPT partition, one XFS filesystem for the group. */
static int make_device(void)
{
	char out[256];

	g.dev = loop_attach(IMAGE_BYTES, 0, LOOP_PARTSCAN);
	snprintf(g.part, sizeof(g.part), "%sp1", g.dev);
	if (RUN("parted", "-s", loop_ours(g.dev), "mklabel", "gpt", "mkpart", "p", "1MiB",
		"100%") != 0)
		return -1;
	loop_wait_partition(g.dev, g.part);
	if (RUN("mkfs.xfs", "-q", "-f", loop_ours(g.part)) != 0 ||
	    run_argv((const char *const[]){ "blkid", "-p", "-o", "value", "-s", "UUID", g.part,
					    NULL },
		     out, sizeof(out)) != 0)
		return -1;
	out[strcspn(out, "\n")] = '\0';
	snprintf(g.uuid, sizeof(g.uuid), "%s", out);
	return g.uuid[0] ? 0 : -1;
}

static int group_setup(void **state)
{
	(void)state;
	if (loop_group_setup("fstab-step") < 0)
		return -1;
	return make_device();
}

static int group_teardown(void **state)
{
	(void)state;
	return loop_group_teardown();
}

/* ------------------------------------------------------------ fixtures */

struct fixture {
	struct sp_plan plan;
	struct sp_ctx ctx;
	struct sp_step_result res;
	char root[SP_PATH_MAX];
	char fstab[SP_PATH_MAX + 16];
	char line[SP_PATH_MAX];
};

static void set_options(struct fixture *f, const char *options)
{
	char copy[SP_PATH_MAX], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", options);
	f->plan.n_mount_options = 0;
	for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save))
		snprintf(f->plan.mount_options[f->plan.n_mount_options++], SP_NAME_MAX, "%s", o);
	snprintf(f->plan.fstab_line, sizeof(f->plan.fstab_line), "UUID=%s /data xfs %s 0 0",
		 SP_FSTAB_UUID_PLACEHOLDER, options);
	snprintf(f->line, sizeof(f->line), "UUID=%s /data xfs %s 0 0", g.uuid, options);
}

/* A plan for our partition, and a scratch root (root_dir, or a new one). */
static struct fixture *fixture(const char *root_dir)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char etc[SP_PATH_MAX + 8];

	assert_non_null(f);
	if (root_dir) {
		snprintf(f->root, sizeof(f->root), "%s", root_dir);
	} else {
		snprintf(f->root, sizeof(f->root), "%s/root%u", loop_dir(), ++g.n_roots);
		assert_int_equal(mkdir(f->root, 0755), 0);
	}
	snprintf(etc, sizeof(etc), "%s/etc", f->root);
	assert_true(mkdir(etc, 0755) == 0 || errno == EEXIST);
	snprintf(f->fstab, sizeof(f->fstab), "%s/etc/fstab", f->root);

	f->plan.fs = SP_FS_XFS;
	snprintf(f->plan.partition_path, sizeof(f->plan.partition_path), "%s", g.part);
	snprintf(f->plan.mountpoint, sizeof(f->plan.mountpoint), "/data");
	set_options(f, OPTS);
	f->ctx.plan = &f->plan;
	f->ctx.root = f->root;
	snprintf(f->ctx.partition_path, sizeof(f->ctx.partition_path), "%s", loop_ours(g.part));
	snprintf(f->ctx.fs_uuid, sizeof(f->ctx.fs_uuid), "%s", g.uuid);
	f->res.name = "fstab";
	return f;
}

static void fixture_free(struct fixture *f)
{
	sp_step_fstab_release(&f->ctx);
	sp_step_result_clear(&f->res);
	free(f);
}

static char *slurp(const char *path)
{
	struct sp_fstab_file file;
	struct sp_error err = { 0 };
	char *text = NULL;

	if (sp_fstab_read(path, &text, &file, &err) < 0)
		fail_msg("%s", err.message);
	return text;
}

static void spit(const char *path, const char *text)
{
	FILE *fp = fopen(path, "we");

	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, strlen(text), fp), strlen(text));
	assert_int_equal(fclose(fp), 0);
}

static int apply(struct fixture *f)
{
	sp_step_result_clear(&f->res);
	return sp_step_fstab.apply(&f->ctx, &f->res);
}

static enum sp_step_status verify(struct fixture *f)
{
	sp_step_result_clear(&f->res);
	f->res.status = SP_STEP_UNCHANGED;
	if (sp_step_fstab.verify(&f->ctx, &f->res) < 0)
		fail_msg("verify could not look: %s", f->res.error.message);
	return f->res.status;
}

static void apply_ok(struct fixture *f)
{
	if (apply(f) < 0)
		fail_msg("apply failed: %s", f->res.error.message);
	if (verify(f) != SP_STEP_UNCHANGED)
		fail_msg("verify after apply: %s", f->res.n_lines ? f->res.lines[0] : "?");
}

static void assert_contains(const char *haystack, const char *needle)
{
	if (!strstr(haystack, needle))
		fail_msg("'%s' should contain '%s'", haystack, needle);
}

/* Nothing named prefix* in dir: no temp file, no mount directory left. */
static void assert_nothing_left(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix)))
			fail_msg("'%s/%s' was left behind", dir, de->d_name);
	closedir(d);
}

static void assert_not_mounted(void)
{
	char out[4096];

	/* findmnt exits 1 when it finds nothing */
	if (run_argv((const char *const[]){ "findmnt", "-rn", "-o", "TARGET", "-S", g.part, NULL },
		     out, sizeof(out)) == 0)
		fail_msg("'%s' is still mounted on %s", g.part, out);
	assert_nothing_left("/run", "stripeplan-mount.");
}

/* The fourth field of our line, as mount(8) gets it from fstab. */
static void line_options(const char *text, const char *uuid, char *buf, size_t len)
{
	struct sp_fstab_entry e;
	struct sp_error err = { 0 };
	size_t n = 0;

	assert_int_equal(sp_fstab_find_uuid(text, uuid, &e, 1, &n, &err), 0);
	assert_int_equal(n, 1);
	snprintf(buf, len, "%s", e.options);
}

/* --------------------------------------------------------------- tests */

static const char awkward_fstab[] =
	"# /etc/fstab: static file system information.\n"
	"#\n"
	"# <file system> <mount point>   <type>  <options>       <dump>  <pass>\n"
	"UUID=3e1a6c02-98b1-4b5a-9d3c-2f1e0a9b8c7d /               ext4    errors=remount-ro 0       1\n"
	"\n"
	"   # indented comment\n"
	"UUID=6b2f\t/boot/efi\tvfat\tumask=0077\t0\t1\n"
	"/dev/mapper/vg0-swap  none  swap  sw  0  0   \n"
	"LABEL=media /mnt/my\\040disk ext4 defaults 0 2\n"
	"/dev/sdz9 /two-fields-only\n"
	"# no final newline";

static void test_apply_awkward(void **state)
{
	struct fixture *f = fixture(NULL);
	char expected[8192], options[SP_PATH_MAX], mnt[SP_PATH_MAX + 8];
	struct stat st, again;
	char *text;

	(void)state;
	spit(f->fstab, awkward_fstab);
	assert_int_equal(verify(f), SP_STEP_DRIFT);
	apply_ok(f);
	assert_contains(f->res.summary, f->line);

	/* old lines intact, our line appended after the added newline */
	snprintf(expected, sizeof(expected), "%s\n# stripeplan: /data\n%s\n", awkward_fstab,
		 f->line);
	text = slurp(f->fstab);
	assert_string_equal(text, expected);

	/* the mount point exists, 0755 */
	snprintf(mnt, sizeof(mnt), "%s/data", f->root);
	assert_int_equal(stat(mnt, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_not_mounted();
	assert_nothing_left(f->root, ".fstab.stripeplan-");

	/* the options from the file really mount, with mount(8) */
	line_options(text, g.uuid, options, sizeof(options));
	assert_int_equal(RUN("mount", "-t", "xfs", "-o", options, loop_ours(g.part),
			     loop_mount_dir("line-mounts")),
			 0);
	loop_unmount_all();
	free(text);

	/* a re-run leaves the file alone: same inode, same bytes */
	assert_int_equal(stat(f->fstab, &st), 0);
	apply_ok(f);
	assert_int_equal(stat(f->fstab, &again), 0);
	assert_int_equal(st.st_ino, again.st_ino);
	text = slurp(f->fstab);
	assert_string_equal(text, expected);
	free(text);
	fixture_free(f);
}

static void test_rerun_replaces(void **state)
{
	struct fixture *f = fixture(NULL);
	char expected[1024];
	char *text;

	(void)state;
	spit(f->fstab, "# mine\n");
	apply_ok(f);
	set_options(f, "noatime,nofail");
	assert_int_equal(verify(f), SP_STEP_DRIFT);
	assert_contains(f->res.lines[0], "has options '" OPTS "', the plan says 'noatime,nofail'");
	apply_ok(f);
	snprintf(expected, sizeof(expected), "# mine\n# stripeplan: /data\n%s\n", f->line);
	text = slurp(f->fstab);
	assert_string_equal(text, expected);
	free(text);
	fixture_free(f);
}

static void test_mode_and_owner_kept(void **state)
{
	struct fixture *f = fixture(NULL);
	char etc[SP_PATH_MAX + 8];
	struct stat st;

	(void)state;
	spit(f->fstab, "# restricted\n");
	assert_int_equal(chmod(f->fstab, 0640), 0);
	assert_int_equal(chown(f->fstab, 1234, 4321), 0);
	apply_ok(f);
	assert_int_equal(stat(f->fstab, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(st.st_uid, 1234);
	assert_int_equal(st.st_gid, 4321);
	fixture_free(f);

	/* no fstab, no etc: both created, fstab root:root 0644 */
	f = fixture(NULL);
	snprintf(etc, sizeof(etc), "%s/etc", f->root);
	assert_int_equal(rmdir(etc), 0);
	apply_ok(f);
	assert_int_equal(stat(etc, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_int_equal(stat(f->fstab, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(st.st_uid, 0);
	assert_int_equal(st.st_gid, 0);
	fixture_free(f);
}

/*
 * ENOSPC: the root is a 16 KiB tmpfs (four pages) holding a two-page
 * fstab and a two-page filler, so the new fstab cannot be written.
 */
static void test_enospc_keeps_old(void **state)
{
	const char *root = loop_mount_dir("tiny");
	struct fixture *f;
	char old[6000], filler[SP_PATH_MAX + 16];
	char *text;
	int fd;

	(void)state;
	assert_int_equal(RUN("mount", "-t", "tmpfs", "-o", "size=16k,mode=0755", "stripeplan-test",
			     root),
			 0);
	f = fixture(root);
	memset(old, '#', sizeof(old) - 2);
	old[sizeof(old) - 2] = '\n';
	old[sizeof(old) - 1] = '\0';
	spit(f->fstab, old);
	snprintf(filler, sizeof(filler), "%s/filler", root);
	fd = open(filler, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	for (char page[4096] = { 0 }; write(fd, page, sizeof(page)) == (ssize_t)sizeof(page);)
		;
	close(fd);

	assert_true(apply(f) < 0);
	assert_int_equal(f->res.error.kind, SP_ERR_FAILED);
	assert_contains(f->res.error.message, "No space left on device");
	assert_contains(f->res.error.message, "unchanged");
	print_message("%s\n", f->res.error.message);
	text = slurp(f->fstab);
	assert_string_equal(text, old);
	free(text);
	snprintf(filler, sizeof(filler), "%s/etc", root);
	assert_nothing_left(filler, ".fstab.stripeplan-");
	assert_not_mounted();
	fixture_free(f);
}

/* XFS lost nobarrier in 4.19: the mount test finds it, fstab untouched. */
static void test_nobarrier_rejected(void **state)
{
	struct fixture *f = fixture(NULL);
	char mnt[SP_PATH_MAX + 8];
	struct stat st;
	char *text;

	(void)state;
	spit(f->fstab, "# before\n");
	set_options(f, "noatime,nobarrier,nofail");
	assert_true(apply(f) < 0);
	assert_int_equal(f->res.error.kind, SP_ERR_FAILED);
	assert_contains(f->res.error.message, "mount test of '");
	assert_contains(f->res.error.message, "the kernel rejects 'nobarrier'");
	print_message("%s\n", f->res.error.message);
	text = slurp(f->fstab);
	assert_string_equal(text, "# before\n");
	free(text);
	snprintf(mnt, sizeof(mnt), "%s/data", f->root);
	assert_int_equal(stat(mnt, &st), -1);
	assert_not_mounted();
	fixture_free(f);
}

static void test_conflict_and_dry_run_touch_nothing(void **state)
{
	struct fixture *f = fixture(NULL);
	const char *old = "LABEL=old /data ext4 defaults 0 2\n";
	char *text;

	(void)state;
	spit(f->fstab, old);
	assert_true(apply(f) < 0);
	assert_int_equal(f->res.error.kind, SP_ERR_INVALID);
	assert_contains(f->res.error.message, "line 1 already mounts '/data'");

	spit(f->fstab, "# dry\n");
	f->ctx.dry_run = true;
	assert_int_equal(apply(f), 0);
	assert_int_equal(f->res.n_lines, 3);
	assert_contains(f->res.lines[0], "mount-test ");
	assert_contains(f->res.lines[1], "create ");
	assert_contains(f->res.lines[2], "add '");
	text = slurp(f->fstab);
	assert_string_equal(text, "# dry\n");
	free(text);
	assert_not_mounted();
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_apply_awkward, teardown_test),
		cmocka_unit_test_teardown(test_rerun_replaces, teardown_test),
		cmocka_unit_test_teardown(test_mode_and_owner_kept, teardown_test),
		cmocka_unit_test_teardown(test_enospc_keeps_old, teardown_test),
		cmocka_unit_test_teardown(test_nobarrier_rejected, teardown_test),
		cmocka_unit_test_teardown(test_conflict_and_dry_run_touch_nothing, teardown_test),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
