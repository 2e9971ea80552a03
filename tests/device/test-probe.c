/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The probe against real block devices: loop devices this test attaches
 * to sparse images in its own temporary directory.  Runs as root.
 *
 * SAFETY: every destructive command (mkfs, parted, mount) goes through
 * loop_ours(), which accepts only a loop device this test attached, or one
 * of its partitions.  Teardown runs after every test, failed or not, and
 * detaches a device only while its backing file is still our image; the
 * group teardown fails if any of our images is still attached (loopdev.h).
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

#include "loopdev.h"
#include "probe.h"

#define IMAGE_BYTES (64U * 1024U * 1024U)

/* where the probe finds sysfs: the machine's, or a test's fake tree */
static struct sp_sysfs sysfs;
static char fake_root[SP_PATH_MAX];

static int teardown_test(void **state)
{
	(void)state;
	sysfs.root = NULL;
	loop_cleanup();
	return 0;
}

static int group_setup(void **state)
{
	(void)state;
	return loop_group_setup("probe");
}

static int group_teardown(void **state)
{
	(void)state;
	return loop_group_teardown();
}

static void probe(const char *dev, struct sp_facts *f)
{
	struct sp_error err = { 0 };

	if (sp_probe_facts(&sysfs, dev, f, &err) < 0)
		fail_msg("probe '%s': %s", dev, err.message);
}

static void usage_of(const struct sp_facts *f, struct sp_usage *u)
{
	struct sp_error err = { 0 };

	if (sp_probe_usage(&sysfs, f, getpid(), u, &err) < 0)
		fail_msg("usage of '%s': %s", f->path, err.message);
}

static void make_gpt_partition(const char *dev, char *part, size_t len)
{
	assert_int_equal(RUN("parted", "-s", loop_ours(dev), "mklabel", "gpt", "mkpart", "p",
			     "1MiB", "10MiB"),
			 0);
	snprintf(part, len, "%sp1", dev);
	loop_wait_partition(dev, part);
}

static void test_loop_512(void **state)
{
	const char *dev = loop_attach(IMAGE_BYTES, 0, LOOP_PARTSCAN);
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
	const char *dev = loop_attach(IMAGE_BYTES, 4096, LOOP_PARTSCAN);
	struct sp_facts f;

	(void)state;
	probe(dev, &f);
	assert_int_equal(f.size_bytes, IMAGE_BYTES);
	assert_int_equal(f.logical_sector_bytes, 4096);
	assert_int_equal(f.physical_sector_bytes, 4096);
}

static void test_empty_has_no_signature(void **state)
{
	const char *dev = loop_attach(IMAGE_BYTES, 0, LOOP_PARTSCAN);
	struct sp_facts f;
	struct sp_usage u;

	(void)state;
	probe(dev, &f);
	usage_of(&f, &u);
	assert_false(u.has_signature);
	assert_int_equal(u.n_partitions, 0);
	assert_int_equal(u.n, 0);
}

static void test_ext4_signature(void **state)
{
	const char *dev = loop_attach(IMAGE_BYTES, 0, LOOP_PARTSCAN);
	struct sp_facts f;
	struct sp_usage u;

	(void)state;
	assert_int_equal(RUN("mkfs.ext4", "-q", "-F", loop_ours(dev)), 0);
	probe(dev, &f);
	usage_of(&f, &u);
	assert_true(u.has_signature);
	assert_string_equal(u.signature_type, "ext4");
	assert_string_equal(u.signature_usage, "filesystem");
	assert_int_equal(u.signature_offset_bytes, 1080); /* s_magic at 1024 + 0x38 */
}

static void test_gpt_partition(void **state)
{
	const char *dev = loop_attach(IMAGE_BYTES, 0, LOOP_PARTSCAN);
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
	const char *dev = loop_attach(IMAGE_BYTES, 0, LOOP_PARTSCAN);
	const char *mnt;
	char part[64];
	struct sp_facts f;
	struct sp_usage u;
	size_t i;

	(void)state;
	make_gpt_partition(dev, part, sizeof(part));
	assert_int_equal(RUN("mkfs.ext4", "-q", "-F", loop_ours(part)), 0);
	/* A space, to see mountinfo's \040 unescaped. */
	mnt = loop_mount_dir("mnt point");
	assert_int_equal(RUN("mount", loop_ours(part), mnt), 0);

	probe(dev, &f);
	usage_of(&f, &u);
	assert_true(sp_usage_count(&u, SP_USE_MOUNTED) >= 1);
	for (i = 0; i < u.n; i++)
		if (u.e[i].use == SP_USE_MOUNTED && !strcmp(u.e[i].device, part + strlen("/dev/")))
			break;
	assert_true(i < u.n);
	assert_string_equal(u.e[i].node, part);
	assert_true(!strncmp(u.e[i].what, "is mounted on ", 14));
	assert_string_equal(u.e[i].what + 14, mnt);
	assert_string_equal(u.e[i].path, mnt);
	assert_int_equal(u.n_partitions, 1);
}

static void expect_invalid(const char *path, int code, const char *needle)
{
	struct sp_error err = { 0 };
	struct sp_facts f;

	memset(&f, 0x5a, sizeof(f));
	assert_int_equal(sp_probe_facts(&sysfs, path, &f, &err), code);
	assert_int_equal(err.kind, SP_ERR_INVALID);
	if (!strstr(err.message, path) || !strstr(err.message, needle))
		fail_msg("message '%s' should say '%s'", err.message, needle);
	assert_int_equal((unsigned char)f.path[0], 0x5a);
}

static void test_not_block(void **state)
{
	char file[SP_PATH_MAX];
	FILE *fp;

	(void)state;
	expect_invalid("/dev/null", -ENOTBLK, "'/dev/null' is not a block device");
	expect_invalid(loop_dir(), -ENOTBLK, "is not a block device");
	snprintf(file, sizeof(file), "%s/regular", loop_dir());
	fp = fopen(file, "w");
	assert_non_null(fp);
	fclose(fp);
	expect_invalid(file, -ENOTBLK, "is not a block device");
	unlink(file);
	expect_invalid("/dev/stripeplan-no-such-disk", -ENOENT,
		       "cannot stat '/dev/stripeplan-no-such-disk'");
}

/*
 * A fake sysfs (the probe's struct sp_sysfs) gives our loop device the identity of
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
	"echo 2048 >\"$b/cciss!c0d0p1/start\"; echo 8192 >\"$b/cciss!c0d0p1/size\"\n"
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

	snprintf(root, len, "%s/fake-sysfs.XXXXXX", loop_dir());
	assert_non_null(mkdtemp(root));
	assert_int_equal(stat(dev, &st), 0);
	snprintf(devno, sizeof(devno), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	assert_int_equal(RUN("sh", "-c", script, "sh", root, devno), 0);
	snprintf(fake_root, sizeof(fake_root), "%s", root);
	sysfs.root = fake_root;
}

static void test_fake_sysfs_cciss(void **state)
{
	const char *dev = loop_attach(IMAGE_BYTES, 0, LOOP_PARTSCAN);
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
	assert_int_equal(sp_usage_count(&u, SP_USE_HELD), 1);
	assert_int_equal(u.n, 1);
	assert_string_equal(u.e[0].device, "cciss!c0d0");
	assert_string_equal(u.e[0].what, "is held by md0");
	assert_false(u.has_signature);
}

static void test_fake_sysfs_scsi(void **state)
{
	const char *dev = loop_attach(IMAGE_BYTES, 0, LOOP_PARTSCAN);
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
	/* a fake tree stands in for the whole device, diskseq included: this
	 * one has no diskseq file, so none is known (the ioctl would answer
	 * for the real loop device behind the tree) */
	assert_int_equal(f.diskseq, 0);
}

/*
 * What the usage probe cannot read is a refusal where the error is made,
 * not relabelled by the pipeline: a disk the sysfs tree does not know
 * cannot be told unused, so apply exits 3 with nothing written.
 */
static void test_usage_unreadable_refuses(void **state)
{
	const char *dev = loop_attach(IMAGE_BYTES, 0, LOOP_PARTSCAN);
	struct sp_usage *u = calloc(1, sizeof(*u));
	struct sp_error err = { 0 };
	struct sp_facts f;

	(void)state;
	assert_non_null(u);
	probe(dev, &f);
	snprintf(fake_root, sizeof(fake_root), "%s/empty-sysfs.XXXXXX", loop_dir());
	assert_non_null(mkdtemp(fake_root));
	sysfs.root = fake_root;
	assert_true(sp_probe_usage(&sysfs, &f, getpid(), u, &err) < 0);
	assert_int_equal(err.code, -ENOENT);
	assert_int_equal(sp_error_exit_code(&err), SP_EXIT_REFUSED);
	if (!strstr(err.message, "cannot tell whether any is in use"))
		fail_msg("message '%s' should say why it refuses", err.message);
	rmdir(fake_root);
	free(u);
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
		cmocka_unit_test_teardown(test_usage_unreadable_refuses, teardown_test),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
