/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The probe against real block devices: loop devices this test attaches
 * to sparse images in its own temporary directory.  Runs as root.
 *
 * SAFETY: every destructive command (mkfs, parted, mount) goes through
 * ours(), which accepts only a loop device this test attached, or one of
 * its partitions.  Teardown runs after every test, failed or not, and
 * detaches a device only while its backing file is still our image; the
 * group teardown fails if any of our images is still attached.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "exec.h"
#include "probe.h"

#define IMAGE_BYTES (64U * 1024U * 1024U)
#define MAX_LOOPS 4U
#define MAX_MOUNTS 4U

struct loopdev {
	char dev[64];           /* /dev/loopN */
	char img[SP_PATH_MAX];  /* our sparse image */
};

/* Test-only state: where we work and what to undo. */
static char test_dir[256];
static struct {
	struct loopdev loops[MAX_LOOPS];
	size_t n_loops;
	char mounts[MAX_MOUNTS][SP_PATH_MAX];
	size_t n_mounts;
} ctx;

/* Runs argv; returns its exit status and, when asked, its output. */
static int run_argv(const char *const *argv, char *out, size_t len)
{
	struct sp_exec_result res;
	struct sp_error err = { 0 };
	int status;

	if (sp_exec(argv, &res, &err) < 0) {
		print_error("%s\n", err.message);
		return -1;
	}
	status = res.exit_status;
	if (status)
		print_message("'%s' exited %d: %s", argv[0], status, res.output);
	if (out)
		snprintf(out, len, "%s", res.output);
	sp_exec_result_free(&res);
	return status;
}

#define RUN(...) run_argv((const char *const[]){ __VA_ARGS__, NULL }, NULL, 0)

/* The backing file the kernel has for /dev/loopN, or "" when detached. */
static void loop_backing_file(const char *dev, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", dev + strlen("/dev/"));
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static bool is_our_image(const char *backing)
{
	size_t n = strlen(test_dir);

	return test_dir[0] && !strncmp(backing, test_dir, n) && backing[n] == '/';
}

/* Only our loop devices and their partitions may be written to. */
static const char *ours(const char *dev)
{
	size_t i, n;

	for (i = 0; i < ctx.n_loops; i++) {
		n = strlen(ctx.loops[i].dev);
		if (!strncmp(dev, ctx.loops[i].dev, n) &&
		    (dev[n] == '\0' || (dev[n] == 'p' && dev[n + 1] >= '1' && dev[n + 1] <= '9')))
			return dev;
	}
	fail_msg("refusing to touch '%s': not a loop device this test attached", dev);
	return NULL;
}

static const char *loop_attach(unsigned sector_bytes)
{
	struct loopdev *l;
	char out[256], sector[16];
	int fd, status;

	assert_true(ctx.n_loops < MAX_LOOPS);
	l = &ctx.loops[ctx.n_loops];
	snprintf(l->img, sizeof(l->img), "%s/img.XXXXXX", test_dir);
	fd = mkstemp(l->img);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, IMAGE_BYTES), 0);
	close(fd);

	snprintf(sector, sizeof(sector), "%u", sector_bytes);
	if (sector_bytes)
		status = run_argv((const char *const[]){ "losetup", "--partscan", "--find", "--show",
							 "--sector-size", sector, l->img, NULL },
				  out, sizeof(out));
	else
		status = run_argv((const char *const[]){ "losetup", "--partscan", "--find", "--show",
							 l->img, NULL },
				  out, sizeof(out));
	assert_int_equal(status, 0);
	out[strcspn(out, "\n")] = '\0';
	assert_true(!strncmp(out, "/dev/loop", 9) && strlen(out) < sizeof(l->dev));
	memcpy(l->dev, out, strlen(out) + 1);
	ctx.n_loops++;
	return l->dev;
}

static void unmount_all(void)
{
	while (ctx.n_mounts) {
		const char *dir = ctx.mounts[--ctx.n_mounts];

		if (RUN("umount", dir) != 0)
			RUN("umount", "-l", dir);
		rmdir(dir);
	}
}

static void detach_all(void)
{
	char backing[SP_PATH_MAX];

	while (ctx.n_loops) {
		struct loopdev *l = &ctx.loops[--ctx.n_loops];

		/* The number may have been reused if it went away already. */
		loop_backing_file(l->dev, backing, sizeof(backing));
		if (!strcmp(backing, l->img))
			RUN("losetup", "--detach", l->dev);
		unlink(l->img);
	}
}

static void cleanup(void)
{
	unmount_all();
	detach_all();
}

static int teardown_test(void **state)
{
	(void)state;
	unsetenv("SP_SYSFS_ROOT");
	cleanup();
	return 0;
}

static int group_setup(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		/* CI runs device tests as root: a skip would hide a broken test. */
		print_error("test-probe must run as root (it attaches loop devices)\n");
		return -1;
	}
	snprintf(test_dir, sizeof(test_dir), "%s/stripeplan-probe.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(test_dir))
		return -1;
	/* Also on exit() paths cmocka does not route through teardown. */
	atexit(cleanup);
	return 0;
}

/* Fails the group if any image of ours is still attached to a loop. */
static int group_teardown(void **state)
{
	char path[64], backing[SP_PATH_MAX];
	int i, leaked = 0;

	(void)state;
	cleanup();
	for (i = 0; i < 256; i++) {
		snprintf(path, sizeof(path), "/dev/loop%d", i);
		loop_backing_file(path, backing, sizeof(backing));
		if (is_our_image(backing)) {
			print_error("%s is still attached to %s\n", path, backing);
			leaked++;
		}
	}
	RUN("rm", "-rf", "--one-file-system", test_dir);
	return leaked ? -1 : 0;
}

static void probe(const char *dev, struct sp_facts *f)
{
	struct sp_error err = { 0 };

	if (sp_probe_facts(dev, f, &err) < 0)
		fail_msg("probe '%s': %s", dev, err.message);
}

static void usage_of(const struct sp_facts *f, struct sp_usage *u)
{
	struct sp_error err = { 0 };

	if (sp_probe_usage(f, u, &err) < 0)
		fail_msg("usage of '%s': %s", f->path, err.message);
}

/* parted asks the kernel to re-read; devtmpfs makes the node shortly. */
static void make_gpt_partition(const char *dev, char *part, size_t len)
{
	struct stat st;
	int i;

	assert_int_equal(RUN("parted", "-s", ours(dev), "mklabel", "gpt", "mkpart", "p", "1MiB",
			     "10MiB"),
			 0);
	snprintf(part, len, "%sp1", dev);
	for (i = 0; i < 100 && (stat(part, &st) < 0 || !S_ISBLK(st.st_mode)); i++) {
		if (i == 50)
			RUN("partx", "--update", ours(dev));
		usleep(100 * 1000);
	}
	assert_true(S_ISBLK(st.st_mode));
}

static void test_loop_512(void **state)
{
	const char *dev = loop_attach(0);
	struct sp_facts f;
	struct stat st;

	(void)state;
	probe(dev, &f);
	assert_string_equal(f.path, dev);
	assert_string_equal(f.kernel_name, dev + strlen("/dev/"));
	assert_int_equal(f.size_bytes, IMAGE_BYTES);
	assert_int_equal(f.logical_sector_bytes, 512);
	assert_int_equal(f.physical_sector_bytes % 512, 0);
	assert_int_equal(f.optimal_io_bytes, 0);
	assert_int_equal(f.alignment_offset_bytes, 0);
	assert_int_equal(f.read_only, 0);
	assert_false(f.is_partition);
	assert_false(f.is_scsi);
	assert_false(f.offline);
	assert_string_equal(f.driver, "");
	assert_int_equal(stat(dev, &st), 0);
	assert_int_equal(f.major, major(st.st_rdev));
	assert_int_equal(f.minor, minor(st.st_rdev));
	if (access("/sys/block/loop0/diskseq", F_OK) == 0)
		assert_true(f.diskseq > 0);
}

static void test_loop_4096(void **state)
{
	const char *dev = loop_attach(4096);
	struct sp_facts f;

	(void)state;
	probe(dev, &f);
	assert_int_equal(f.size_bytes, IMAGE_BYTES);
	assert_int_equal(f.logical_sector_bytes, 4096);
	assert_int_equal(f.physical_sector_bytes, 4096);
}

static void test_empty_has_no_signature(void **state)
{
	const char *dev = loop_attach(0);
	struct sp_facts f;
	struct sp_usage u;

	(void)state;
	probe(dev, &f);
	usage_of(&f, &u);
	assert_false(u.has_signature);
	assert_int_equal(u.n_partitions, 0);
	assert_int_equal(u.n_mounted, 0);
	assert_int_equal(u.n_swap, 0);
	assert_int_equal(u.n_held, 0);
}

static void test_ext4_signature(void **state)
{
	const char *dev = loop_attach(0);
	struct sp_facts f;
	struct sp_usage u;

	(void)state;
	assert_int_equal(RUN("mkfs.ext4", "-q", "-F", ours(dev)), 0);
	probe(dev, &f);
	usage_of(&f, &u);
	assert_true(u.has_signature);
	assert_string_equal(u.signature_type, "ext4");
	assert_string_equal(u.signature_usage, "filesystem");
	assert_int_equal(u.signature_offset_bytes, 1080); /* s_magic at 1024 + 0x38 */
}

static void test_gpt_partition(void **state)
{
	const char *dev = loop_attach(0);
	char part[64];
	struct sp_facts f, pf;
	struct sp_usage u;

	(void)state;
	make_gpt_partition(dev, part, sizeof(part));
	probe(dev, &f);
	usage_of(&f, &u);
	assert_int_equal(u.n_partitions, 1);
	assert_true(u.has_signature);
	assert_string_equal(u.signature_type, "gpt");
	assert_string_equal(u.signature_usage, "partition table");

	probe(part, &pf);
	assert_true(pf.is_partition);
	assert_string_equal(pf.kernel_name, part + strlen("/dev/"));
	assert_int_equal(pf.size_bytes, 9 * SP_MIB);
	assert_int_equal(pf.rotational, f.rotational); /* read from the whole disk */
}

static void test_mounted_partition(void **state)
{
	const char *dev = loop_attach(0);
	char part[64], *mnt;
	struct sp_facts f;
	struct sp_usage u;
	size_t i;

	(void)state;
	make_gpt_partition(dev, part, sizeof(part));
	assert_int_equal(RUN("mkfs.ext4", "-q", "-F", ours(part)), 0);
	/* A space, to see mountinfo's \040 unescaped. */
	mnt = ctx.mounts[ctx.n_mounts];
	snprintf(mnt, SP_PATH_MAX, "%s/mnt point", test_dir);
	assert_int_equal(mkdir(mnt, 0755), 0);
	ctx.n_mounts++; /* registered before mounting: teardown always tries */
	assert_int_equal(RUN("mount", ours(part), mnt), 0);

	probe(dev, &f);
	usage_of(&f, &u);
	assert_true(u.n_mounted >= 1);
	for (i = 0; i < u.n_mounted; i++)
		if (!strcmp(u.mounted[i].device, part + strlen("/dev/")))
			break;
	assert_true(i < u.n_mounted);
	assert_true(!strncmp(u.mounted[i].what, "mounted on ", 11));
	assert_string_equal(u.mounted[i].what + 11, mnt);
	assert_int_equal(u.n_partitions, 1);
}

static void expect_invalid(const char *path, int code, const char *needle)
{
	struct sp_error err = { 0 };
	struct sp_facts f;

	memset(&f, 0x5a, sizeof(f));
	assert_int_equal(sp_probe_facts(path, &f, &err), code);
	assert_int_equal(err.exit_code, SP_EXIT_INVALID);
	assert_string_equal(err.subject, path);
	if (!strstr(err.message, needle))
		fail_msg("message '%s' should say '%s'", err.message, needle);
	assert_int_equal((unsigned char)f.path[0], 0x5a);
}

static void test_not_block(void **state)
{
	char file[SP_PATH_MAX];
	FILE *fp;

	(void)state;
	expect_invalid("/dev/null", -ENOTBLK, "'/dev/null' is not a block device");
	expect_invalid(test_dir, -ENOTBLK, "is not a block device");
	snprintf(file, sizeof(file), "%s/regular", test_dir);
	fp = fopen(file, "w");
	assert_non_null(fp);
	fclose(fp);
	expect_invalid(file, -ENOTBLK, "is not a block device");
	unlink(file);
	expect_invalid("/dev/stripeplan-no-such-disk", -ENOENT,
		       "cannot stat '/dev/stripeplan-no-such-disk'");
}

/*
 * A fake sysfs under SP_SYSFS_ROOT gives our loop device the identity of
 * a Smart Array logical drive (cciss!c0d0, driver two levels up) with a
 * holder and one partition; sizes still come from the real device.
 */
static const char fake_cciss_sh[] =
	"set -e; r=\"$1/sys\"; d=devices/pci0000:00/0000:06:00.0\n"
	"mkdir -p \"$r/bus/pci/drivers/cciss\" \"$r/dev/block\"\n"
	"b=\"$r/$d/cciss0/c0d0/block/cciss!c0d0\"\n"
	"mkdir -p \"$b/queue\" \"$b/holders/md0\" \"$b/cciss!c0d0p1\"\n"
	"ln -s ../../../bus/pci/drivers/cciss \"$r/$d/driver\"\n"
	"ln -s ../.. \"$b/device\"\n"
	"printf '  P61630H9SVO1VN \\n' >\"$r/$d/cciss0/c0d0/serial\"\n"
	"echo 0 >\"$b/queue/rotational\"; echo 42 >\"$b/diskseq\"\n"
	"echo 1 >\"$b/cciss!c0d0p1/partition\"; echo 7:250 >\"$b/cciss!c0d0p1/dev\"\n"
	"ln -s \"../../$d/cciss0/c0d0/block/cciss!c0d0\" \"$r/dev/block/$2\"\n";

/* And of a LUN behind hpsa: the disk's own driver is the generic "sd". */
static const char fake_scsi_sh[] =
	"set -e; r=\"$1/sys\"; d=devices/pci0000:00/0000:03:00.0\n"
	"s=\"$r/$d/host0/target0:0:0/0:0:0:0\"; b=\"$s/block/sdb\"\n"
	"mkdir -p \"$r/bus/pci/drivers/hpsa\" \"$r/bus/scsi/drivers/sd\" \"$r/dev/block\"\n"
	"mkdir -p \"$b/queue\" \"$s/scsi_device/0:0:0:0\"\n"
	"ln -s ../../../bus/pci/drivers/hpsa \"$r/$d/driver\"\n"
	"ln -s ../../../../../../bus/scsi/drivers/sd \"$s/driver\"\n"
	"ln -s ../.. \"$b/device\"\n"
	"echo 'naa.600508b1001c5e8f3a2b4c6d7e8f9012' >\"$s/wwid\"\n"
	"echo 1 >\"$b/queue/rotational\"\n"
	"ln -s \"../../$d/host0/target0:0:0/0:0:0:0/block/sdb\" \"$r/dev/block/$2\"\n";

static void fake_sysfs(const char *script, const char *dev, char *root, size_t len)
{
	char devno[32];
	struct stat st;

	snprintf(root, len, "%s/fake-sysfs.XXXXXX", test_dir);
	assert_non_null(mkdtemp(root));
	assert_int_equal(stat(dev, &st), 0);
	snprintf(devno, sizeof(devno), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	assert_int_equal(RUN("sh", "-c", script, "sh", root, devno), 0);
	assert_int_equal(setenv("SP_SYSFS_ROOT", root, 1), 0);
}

static void test_fake_sysfs_cciss(void **state)
{
	const char *dev = loop_attach(0);
	char root[SP_PATH_MAX];
	struct sp_facts f;
	struct sp_usage u;

	(void)state;
	fake_sysfs(fake_cciss_sh, dev, root, sizeof(root));
	probe(dev, &f);
	assert_string_equal(f.kernel_name, "cciss!c0d0");
	assert_string_equal(f.serial, "P61630H9SVO1VN");
	assert_string_equal(f.driver, "cciss");
	assert_string_equal(f.wwn, "");
	assert_int_equal(f.rotational, 0);
	assert_int_equal(f.diskseq, 42);
	assert_false(f.is_scsi);
	assert_false(f.is_partition);
	assert_int_equal(f.size_bytes, IMAGE_BYTES);

	usage_of(&f, &u);
	assert_int_equal(u.n_partitions, 1);
	assert_int_equal(u.n_held, 1);
	assert_string_equal(u.held[0].device, "cciss!c0d0");
	assert_string_equal(u.held[0].what, "held by md0");
	assert_false(u.has_signature);
}

static void test_fake_sysfs_scsi(void **state)
{
	const char *dev = loop_attach(0);
	char root[SP_PATH_MAX];
	struct sp_facts f;

	(void)state;
	fake_sysfs(fake_scsi_sh, dev, root, sizeof(root));
	probe(dev, &f);
	assert_string_equal(f.kernel_name, "sdb");
	assert_string_equal(f.driver, "hpsa");
	assert_string_equal(f.wwn, "naa.600508b1001c5e8f3a2b4c6d7e8f9012");
	assert_string_equal(f.serial, "");
	assert_true(f.is_scsi);
	assert_int_equal(f.rotational, 1);
	/* no diskseq file in this tree: the BLKGETDISKSEQ ioctl answers */
	if (access("/sys/block/loop0/diskseq", F_OK) == 0)
		assert_true(f.diskseq > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_loop_512, teardown_test),
		cmocka_unit_test_teardown(test_loop_4096, teardown_test),
		cmocka_unit_test_teardown(test_empty_has_no_signature, teardown_test),
		cmocka_unit_test_teardown(test_ext4_signature, teardown_test),
		cmocka_unit_test_teardown(test_gpt_partition, teardown_test),
		cmocka_unit_test_teardown(test_mounted_partition, teardown_test),
		cmocka_unit_test_teardown(test_not_block, teardown_test),
		cmocka_unit_test_teardown(test_fake_sysfs_cciss, teardown_test),
		cmocka_unit_test_teardown(test_fake_sysfs_scsi, teardown_test),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
