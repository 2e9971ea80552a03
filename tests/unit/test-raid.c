/* Levels, spans and data disks; kernel-version rules. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stripeplan.h"

static unsigned data_disks(const char *level_text, unsigned disks, unsigned spans)
{
	struct sp_error err = { 0 };
	enum sp_level level;
	unsigned data = 0;

	assert_int_equal(sp_parse_level(level_text, &level, &err), 0);
	assert_int_equal(sp_raid_data_disks(level, disks, spans, &data, &err), 0);
	return data;
}

static const char *data_disks_error(const char *level_text, unsigned disks, unsigned spans)
{
	static struct sp_error err;
	enum sp_level level;
	unsigned data = 99;

	memset(&err, 0, sizeof(err));
	assert_int_equal(sp_parse_level(level_text, &level, &err), 0);
	assert_true(sp_raid_data_disks(level, disks, spans, &data, &err) < 0);
	assert_int_equal(data, 99);
	assert_int_equal(err.kind, SP_ERR_INVALID);
	return err.message;
}

static void test_every_level(void **state)
{
	(void)state;
	assert_int_equal(data_disks("0", 4, 0), 4);
	assert_int_equal(data_disks("1", 2, 0), 1);
	assert_int_equal(data_disks("raid5", 3, 0), 2);
	assert_int_equal(data_disks("5", 15, 0), 14); /* seed 003 wrote sw=15 */
	assert_int_equal(data_disks("RAID6", 8, 0), 6);
	assert_int_equal(data_disks("10", 8, 0), 4);
	assert_int_equal(data_disks("50", 12, 2), 10);
	assert_int_equal(data_disks("60", 12, 2), 8);
	assert_int_equal(data_disks("60", 24, 3), 18);
}

static void test_minimums_and_spans(void **state)
{
	(void)state;
	assert_non_null(strstr(data_disks_error("5", 2, 0), "at least 3 disks"));
	assert_non_null(strstr(data_disks_error("6", 3, 0), "at least 4 disks"));
	assert_non_null(strstr(data_disks_error("10", 6 - 1, 0), "even number"));
	assert_non_null(strstr(data_disks_error("10", 2, 0), "at least 4"));
	assert_non_null(strstr(data_disks_error("50", 12, 0), "needs --spans"));
	assert_non_null(strstr(data_disks_error("50", 12, 5), "cannot be split into 5"));
	assert_non_null(strstr(data_disks_error("60", 6, 2), "at least 4 disks"));
	assert_non_null(strstr(data_disks_error("5", 6, 2), "has no spans"));
	assert_non_null(strstr(data_disks_error("0", 2000, 0), "more than 1920"));
}

/* md's RAID10: the data chunks are what raid10_set_io_opt() exports. */
static unsigned md10(unsigned disks, const char *layout)
{
	static const struct sp_level_rule rule = {
		.level = SP_LEVEL_10, .min_disks = 2, .stripe = SP_STRIPE_NEAR_COPIES,
		.n_layouts = 6,
		.layouts = { { 2, 1, false }, { 3, 1, false }, { 1, 2, false },
			     { 1, 3, false }, { 1, 2, true }, { 1, 3, true } },
	};
	struct sp_error err = { 0 };
	struct sp_md_layout l = { 0 };
	unsigned data = 0;

	if (layout)
		assert_int_equal(sp_parse_md_layout(layout, &l, &err), 0);
	if (sp_raid_data_disks_rule(&rule, SP_LEVEL_10, disks, 0, &l, &data, &err) < 0)
		return 0;
	return data;
}

static void test_md_raid10(void **state)
{
	struct sp_md_layout l;
	char name[SP_MD_LAYOUT_NAME_MAX];

	(void)state;
	assert_int_equal(md10(4, NULL), 2);  /* n2 is the default */
	assert_int_equal(md10(3, "n2"), 3);  /* 3 % 2: every disk */
	assert_int_equal(md10(2, "n2"), 1);
	assert_int_equal(md10(5, "n2"), 5);
	assert_int_equal(md10(6, "n3"), 2);
	assert_int_equal(md10(4, "n3"), 4);
	assert_int_equal(md10(4, "f2"), 4);  /* near 1: every disk */
	assert_int_equal(md10(3, "o3"), 3);
	assert_int_equal(md10(2, "n3"), 0);  /* 3 copies on 2 disks */
	assert_int_equal(md10(1, "n2"), 0);
	/* md/layout numbers: near | far << 8 | offset << 16 */
	assert_int_equal(sp_md_layout_from_kernel(0x102, &l), 0);
	sp_md_layout_name(&l, name, sizeof(name));
	assert_string_equal(name, "n2");
	assert_int_equal(sp_md_layout_from_kernel(0x10201, &l), 0);
	sp_md_layout_name(&l, name, sizeof(name));
	assert_string_equal(name, "o2");
	assert_int_equal(sp_md_layout_from_kernel(0x301, &l), 0);
	sp_md_layout_name(&l, name, sizeof(name));
	assert_string_equal(name, "f3");
	assert_true(sp_md_layout_from_kernel(0, &l) < 0);
	assert_true(sp_parse_md_layout("n4", &l, NULL) < 0);
	assert_true(sp_parse_md_layout("near2", &l, NULL) < 0);
	/* the hardware rule is unchanged */
	assert_int_equal(data_disks("10", 8, 0), 4);
	assert_non_null(strstr(data_disks_error("10", 6 - 1, 0), "even number"));
	assert_true(sp_level_is_mirror(SP_LEVEL_1));
	assert_false(sp_level_is_mirror(SP_LEVEL_10));
}

static void test_unknown_level(void **state)
{
	struct sp_error err = { 0 };
	enum sp_level level;

	(void)state;
	assert_true(sp_parse_level("7", &level, &err) < 0);
	assert_non_null(strstr(err.message, "known: 0, 1, 4, 5, 6, 10, 50, 60"));
	assert_true(sp_parse_level("raid", &level, &err) < 0);
}

static struct sp_kernel kernel(const char *release)
{
	struct sp_kernel k;
	struct sp_error err = { 0 };

	assert_int_equal(sp_parse_kernel(release, &k, &err), 0);
	return k;
}

/* The enterprise kernels by release string: what each offers. */
static void test_kernel_families(void **state)
{
	static const struct {
		const char *release;
		enum sp_kernel_family family;
		unsigned vendor_major;
		const char *noop, *deadline, *kyber; /* NULL: the kernel has none */
		enum sp_xfs_barrier_opts nobarrier;
		enum sp_init_system init;
	} cases[] = {
		/* RHEL/CentOS/Rocky/Alma 8: blk-mq only in 4.18, never noop; its XFS
		 * has 4.19's removal of nobarrier (limits row rhel-xfs-barrier-removed) */
		{ "4.18.0-553.el8", SP_KERNEL_RHEL, 8, "none", "mq-deadline", "kyber", SP_XFS_BARRIER_REJECTED, SP_INIT_SYSTEMD },
		{ "4.18.0-553.el8_10.x86_64", SP_KERNEL_RHEL, 8, "none", "mq-deadline", "kyber", SP_XFS_BARRIER_REJECTED, SP_INIT_SYSTEMD },
		{ "3.10.0-1160.el7.x86_64", SP_KERNEL_RHEL, 7, "noop", "deadline", NULL, SP_XFS_BARRIER_EFFECTIVE, SP_INIT_SYSTEMD },
		{ "5.14.0-427.13.1.el9_4.x86_64", SP_KERNEL_RHEL, 9, "none", "mq-deadline", "kyber", SP_XFS_BARRIER_REJECTED, SP_INIT_SYSTEMD },
		{ "2.6.32-754.el6.x86_64", SP_KERNEL_RHEL, 6, "noop", "deadline", NULL, SP_XFS_BARRIER_EFFECTIVE, SP_INIT_BEFORE_SYSTEMD },
		/* SLES 12 SP5 (legacy queue by default), SLES 15 GA and SP5 */
		{ "4.12.14-122.37-default", SP_KERNEL_SLES, 12, "noop", "deadline", NULL, SP_XFS_BARRIER_IGNORED, SP_INIT_SYSTEMD },
		{ "4.12.14-150.47-default", SP_KERNEL_SLES, 15, "none", "mq-deadline", "kyber", SP_XFS_BARRIER_IGNORED, SP_INIT_SYSTEMD },
		{ "5.14.21-150500.55.19-default", SP_KERNEL_SLES, 15, "none", "mq-deadline", "kyber", SP_XFS_BARRIER_REJECTED, SP_INIT_SYSTEMD },
		/* Ubuntu GA and HWE kernels are mainline by version */
		{ "4.15.0-213-generic", SP_KERNEL_UBUNTU, 0, "noop", "deadline", NULL, SP_XFS_BARRIER_IGNORED, SP_INIT_SYSTEMD },
		{ "5.15.0-91-generic", SP_KERNEL_UBUNTU, 0, "none", "mq-deadline", "kyber", SP_XFS_BARRIER_REJECTED, SP_INIT_SYSTEMD },
		{ "6.8.0-45-generic", SP_KERNEL_UBUNTU, 0, "none", "mq-deadline", "kyber", SP_XFS_BARRIER_REJECTED, SP_INIT_SYSTEMD },
		{ "6.1.0-13-amd64", SP_KERNEL_DEBIAN, 0, "none", "mq-deadline", "kyber", SP_XFS_BARRIER_REJECTED, SP_INIT_SYSTEMD },
		{ "6.5.6-300.fc39.x86_64", SP_KERNEL_FEDORA, 0, "none", "mq-deadline", "kyber", SP_XFS_BARRIER_REJECTED, SP_INIT_SYSTEMD },
		{ "4.9.0", SP_KERNEL_MAINLINE, 0, "noop", "deadline", NULL, SP_XFS_BARRIER_EFFECTIVE, SP_INIT_SYSTEMD },
		/* x-systemd.* from 3.10 (limits row systemd), RHEL's by its major (rhel-systemd) */
		{ "3.9.11", SP_KERNEL_MAINLINE, 0, "noop", "deadline", NULL, SP_XFS_BARRIER_EFFECTIVE, SP_INIT_BEFORE_SYSTEMD },
		{ "3.10", SP_KERNEL_MAINLINE, 0, "noop", "deadline", NULL, SP_XFS_BARRIER_EFFECTIVE, SP_INIT_SYSTEMD },
		/* Ubuntu 14.04's kernels, GA 3.13 to HWE 4.4, may boot Upstart (ubuntu-systemd);
		 * 12.04's 3.2 boots it and is before systemd's 3.10 anyway */
		{ "3.2.0-126-generic", SP_KERNEL_UBUNTU, 0, "noop", "deadline", NULL, SP_XFS_BARRIER_EFFECTIVE, SP_INIT_BEFORE_SYSTEMD },
		{ "3.13.0-170-generic", SP_KERNEL_UBUNTU, 0, "noop", "deadline", NULL, SP_XFS_BARRIER_EFFECTIVE, SP_INIT_CANNOT_TELL },
		{ "4.4.0-210-generic", SP_KERNEL_UBUNTU, 0, "noop", "deadline", NULL, SP_XFS_BARRIER_EFFECTIVE, SP_INIT_CANNOT_TELL },
		{ "4.8.0-58-generic", SP_KERNEL_UBUNTU, 0, "noop", "deadline", NULL, SP_XFS_BARRIER_EFFECTIVE, SP_INIT_SYSTEMD },
		{ "6.1", SP_KERNEL_MAINLINE, 0, "none", "mq-deadline", "kyber", SP_XFS_BARRIER_REJECTED, SP_INIT_SYSTEMD },
		/* an unknown suffix: its version decides */
		{ "4.14.35-acme7", SP_KERNEL_UNKNOWN, 0, "noop", "deadline", NULL, SP_XFS_BARRIER_IGNORED, SP_INIT_SYSTEMD },
		{ "6.18.44-fc-v669", SP_KERNEL_UNKNOWN, 0, "none", "mq-deadline", "kyber", SP_XFS_BARRIER_REJECTED, SP_INIT_SYSTEMD },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sp_kernel k = kernel(cases[i].release);
		const char *kyber = sp_kernel_scheduler_name(&k, SP_QUEUE_SCSI, "kyber");

		if (k.family != cases[i].family || k.vendor_major != cases[i].vendor_major)
			fail_msg("%s: family %d/%u", cases[i].release, k.family, k.vendor_major);
		assert_string_equal(sp_kernel_scheduler_name(&k, SP_QUEUE_SCSI, "noop"), cases[i].noop);
		assert_string_equal(sp_kernel_scheduler_name(&k, SP_QUEUE_SCSI, "deadline"), cases[i].deadline);
		if (cases[i].kyber)
			assert_string_equal(kyber, cases[i].kyber);
		else
			assert_null(kyber);
		if (sp_kernel_xfs_barrier_opts(&k) != cases[i].nobarrier)
			fail_msg("%s: nobarrier %d", cases[i].release, sp_kernel_xfs_barrier_opts(&k));
		assert_int_equal(sp_kernel_init_system(&k), cases[i].init);
	}
}

/* The row that says why a release lacks a scheduler on a queue. */
static void test_scheduler_missing_row(void **state)
{
	struct sp_kernel k49 = kernel("4.9.0"), k411 = kernel("4.11.0"), k414 = kernel("4.14.0");
	struct sp_kernel k61 = kernel("6.1.0");

	(void)state;
	assert_int_equal(sp_kernel_scheduler_missing(&k49, SP_QUEUE_NVME, "deadline"), SP_LIMIT_MQ_DEADLINE);
	assert_int_equal(sp_kernel_scheduler_missing(&k49, SP_QUEUE_VIRTIO, "mq-deadline"),
			 SP_LIMIT_MQ_DEADLINE);
	assert_int_equal(sp_kernel_scheduler_missing(&k411, SP_QUEUE_NVME, "bfq"), SP_LIMIT_MQ_BFQ_KYBER);
	assert_int_equal(sp_kernel_scheduler_missing(&k411, SP_QUEUE_NVME, "cfq"), SP_LIMIT_MQ_BFQ_KYBER);
	/* kyber has no single-queue form: a SCSI disk before 4.19 */
	assert_int_equal(sp_kernel_scheduler_missing(&k414, SP_QUEUE_SCSI, "kyber"), SP_LIMIT_MQ_BFQ_KYBER);
	/* present, or no kernel's name: no row */
	assert_int_equal(sp_kernel_scheduler_missing(&k411, SP_QUEUE_NVME, "deadline"), SP_LIMIT_COUNT);
	assert_int_equal(sp_kernel_scheduler_missing(&k49, SP_QUEUE_NVME, "noop"), SP_LIMIT_COUNT);
	assert_int_equal(sp_kernel_scheduler_missing(&k61, SP_QUEUE_SCSI, "kyber"), SP_LIMIT_COUNT);
	assert_int_equal(sp_kernel_scheduler_missing(&k61, SP_QUEUE_SCSI, "anticipatory"), SP_LIMIT_COUNT);
	/* each row is the one sp_kernel_scheduler_name() follows */
	assert_null(sp_kernel_scheduler_name(&k49, SP_QUEUE_NVME, "deadline"));
	assert_null(sp_kernel_scheduler_name(&k414, SP_QUEUE_SCSI, "kyber"));
}

static void test_scheduler_list(void **state)
{
	char names[8][16];

	(void)state;
	assert_int_equal(sp_parse_scheduler_list("[mq-deadline] kyber bfq none\n", names, 8), 4);
	assert_string_equal(names[0], "mq-deadline");
	assert_string_equal(names[3], "none");
	assert_int_equal(sp_parse_scheduler_list("noop deadline [cfq]", names, 2), 2);
	assert_string_equal(names[1], "deadline");
	assert_int_equal(sp_parse_scheduler_list("none", names, 8), 1);
	assert_int_equal(sp_parse_scheduler_list("", names, 8), 0);
	assert_string_equal(sp_kernel_scheduler_alias("deadline"), "mq-deadline");
	assert_string_equal(sp_kernel_scheduler_alias("none"), "noop");
	assert_null(sp_kernel_scheduler_alias("anticipatory"));
}

static void test_kernel_rules(void **state)
{
	struct sp_kernel old = kernel("2.6.18-128.el5"), k419 = kernel("4.19.0"),
			 k418 = kernel("4.18.0-553.el8_10.x86_64"), now = kernel("6.1.0-13-amd64");
	struct sp_error err = { 0 };
	struct sp_kernel bad;

	(void)state;
	assert_int_equal(old.major, 2);
	assert_int_equal(old.minor, 6);
	assert_int_equal(old.patch, 18);
	assert_int_equal(sp_kernel_xfs_barrier_opts(&old), SP_XFS_BARRIER_EFFECTIVE);
	assert_int_equal(sp_kernel_xfs_barrier_opts(&k418), SP_XFS_BARRIER_REJECTED); /* el8 */
	assert_int_equal(sp_kernel_xfs_barrier_opts(&k419), SP_XFS_BARRIER_REJECTED);
	{
		struct sp_kernel k49 = kernel("4.9.0"), k410 = kernel("4.10.0"),
				 k418m = kernel("4.18.20");

		assert_int_equal(sp_kernel_xfs_barrier_opts(&k49), SP_XFS_BARRIER_EFFECTIVE);
		assert_int_equal(sp_kernel_xfs_barrier_opts(&k410), SP_XFS_BARRIER_IGNORED);
		assert_int_equal(sp_kernel_xfs_barrier_opts(&k418m), SP_XFS_BARRIER_IGNORED);
	}
	assert_string_equal(sp_kernel_scheduler_name(&old, SP_QUEUE_SCSI, "noop"), "noop");
	assert_string_equal(sp_kernel_scheduler_name(&old, SP_QUEUE_SCSI, "none"), "noop");
	assert_string_equal(sp_kernel_scheduler_name(&now, SP_QUEUE_SCSI, "noop"), "none");
	assert_string_equal(sp_kernel_scheduler_name(&now, SP_QUEUE_SCSI, "deadline"), "mq-deadline");
	assert_string_equal(sp_kernel_scheduler_name(&now, SP_QUEUE_SCSI, "cfq"), "bfq");
	assert_null(sp_kernel_scheduler_name(&now, SP_QUEUE_SCSI, "anticipatory"));
	/* SCSI is blk-mq by default from 4.19 (d5038a13eca7): noop is refused there */
	{
		struct sp_kernel k418m = kernel("4.18.20"), k420 = kernel("4.20.0");

		assert_string_equal(sp_kernel_scheduler_name(&k418m, SP_QUEUE_SCSI, "noop"), "noop");
		assert_string_equal(sp_kernel_scheduler_name(&k419, SP_QUEUE_SCSI, "noop"), "none");
		assert_string_equal(sp_kernel_scheduler_name(&k420, SP_QUEUE_SCSI, "deadline"),
				    "mq-deadline");
		assert_false(sp_kernel_queue_is_blk_mq(&k418m, SP_QUEUE_SCSI));
		assert_true(sp_kernel_queue_is_blk_mq(&k419, SP_QUEUE_SCSI));
		/* NVMe and virtio disks never offered the single-queue names */
		assert_string_equal(sp_kernel_scheduler_name(&old, SP_QUEUE_NVME, "noop"), "none");
		/* and blk-mq had none of its own before 4.11 (mq-deadline) and 4.12
		 * (bfq, kyber): nothing else is planned there */
		{
			struct sp_kernel k49 = kernel("4.9.0"), k411 = kernel("4.11.0"),
					 k412 = kernel("4.12.0"), el7 = kernel("3.10.0-1160.el7.x86_64");

			assert_null(sp_kernel_scheduler_name(&k49, SP_QUEUE_NVME, "deadline"));
			assert_null(sp_kernel_scheduler_name(&el7, SP_QUEUE_VIRTIO, "mq-deadline"));
			assert_string_equal(sp_kernel_scheduler_name(&k411, SP_QUEUE_NVME, "deadline"),
					    "mq-deadline");
			assert_null(sp_kernel_scheduler_name(&k411, SP_QUEUE_NVME, "cfq"));
			assert_null(sp_kernel_scheduler_name(&k411, SP_QUEUE_NVME, "kyber"));
			assert_string_equal(sp_kernel_scheduler_name(&k412, SP_QUEUE_NVME, "cfq"), "bfq");
			assert_string_equal(sp_kernel_scheduler_name(&k412, SP_QUEUE_VIRTIO, "kyber"),
					    "kyber");
			/* the legacy names stay on a 4.9 SCSI disk */
			assert_string_equal(sp_kernel_scheduler_name(&k49, SP_QUEUE_SCSI, "cfq"), "cfq");
		}
		assert_string_equal(sp_kernel_scheduler_name(&k418m, SP_QUEUE_VIRTIO, "deadline"),
				    "mq-deadline");
		assert_int_equal(sp_queue_family_of("nvme0n1"), SP_QUEUE_NVME);
		assert_int_equal(sp_queue_family_of("vdb"), SP_QUEUE_VIRTIO);
		assert_int_equal(sp_queue_family_of("sdb"), SP_QUEUE_SCSI);
	}
	assert_int_equal(now.family, SP_KERNEL_DEBIAN);
	assert_true(sp_parse_kernel("six", &bad, &err) < 0);
	assert_true(sp_parse_kernel("6", &bad, &err) < 0);
	assert_true(sp_parse_kernel("1.0", &bad, &err) < 0);
}

static void test_device_names(void **state)
{
	struct sp_error err = { 0 };
	char buf[64];

	(void)state;
	assert_int_equal(sp_kernel_name_from_path("/dev/cciss/c0d0", buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "cciss!c0d0");
	assert_int_equal(sp_kernel_name_from_path("/dev/sdb", buf, sizeof(buf), &err), 0);
	assert_string_equal(buf, "sdb");
	assert_true(sp_kernel_name_from_path("/dev/disk/by-id/wwn-0x5000", buf, sizeof(buf), &err) < 0);
	assert_true(sp_kernel_name_from_path("sdb", buf, sizeof(buf), &err) < 0);
	assert_int_equal(sp_partition_path("/dev/sdb", 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/dev/sdb1");
	assert_int_equal(sp_partition_path("/dev/loop7", 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/dev/loop7p1");
	assert_int_equal(sp_partition_path("/dev/nvme0n1", 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/dev/nvme0n1p1");
	assert_int_equal(sp_partition_path("/dev/cciss/c0d0", 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/dev/cciss/c0d0p1");
	assert_int_equal(sp_partition_path("/dev/md3", 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/dev/md3p1");
}

/* udev's names: "-part%n" after a stable link, whatever it ends in */
static void test_stable_link_partitions(void **state)
{
	static const char *const cases[][2] = {
		{ "/dev/disk/by-id/wwn-0x5000c500a1b2c3d4", "/dev/disk/by-id/wwn-0x5000c500a1b2c3d4-part1" },
		{ "/dev/disk/by-id/scsi-3600508b1001c5e3d", "/dev/disk/by-id/scsi-3600508b1001c5e3d-part1" },
		{ "/dev/disk/by-id/nvme-eui.0025388b71b0a5e1", "/dev/disk/by-id/nvme-eui.0025388b71b0a5e1-part1" },
		{ "/dev/disk/by-path/pci-0000:00:05.0-scsi-0:0:1:0",
		  "/dev/disk/by-path/pci-0000:00:05.0-scsi-0:0:1:0-part1" },
		{ "/dev/disk/by-diskseq/12", "/dev/disk/by-diskseq/12-part1" },
		/* a test's own tree has udev's shape too */
		{ "/tmp/t/dev/disk/by-id/wwn-0x5", "/tmp/t/dev/disk/by-id/wwn-0x5-part1" },
		/* not links udev names partitions after */
		{ "/dev/disk/wwn-0x5", "/dev/disk/wwn-0x5p1" },
		{ "/dev/by-id/x1", "/dev/by-id/x1p1" },
		{ "/dev/mapper/mpatha", "/dev/mapper/mpatha1" },
		{ "/dev/disk/by-/x", "/dev/disk/by-/x1" },
	};
	char buf[128];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(sp_partition_path(cases[i][0], 1, buf, sizeof(buf)), 0);
		assert_string_equal(buf, cases[i][1]);
	}
	assert_true(sp_is_stable_link("/dev/disk/by-id/wwn-0x5"));
	assert_false(sp_is_stable_link("/dev/disk/by-id/"));
	assert_false(sp_is_stable_link("/dev/disk/by-id"));
	assert_false(sp_is_stable_link("/dev/sdb"));
	assert_false(sp_is_stable_link("disk/by-id/x"));
	assert_int_equal(sp_partition_path("/dev/disk/by-id/wwn-0x5", 1, buf, 24), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_level),
		cmocka_unit_test(test_stable_link_partitions),
		cmocka_unit_test(test_minimums_and_spans),
		cmocka_unit_test(test_unknown_level),
		cmocka_unit_test(test_md_raid10),
		cmocka_unit_test(test_kernel_rules),
		cmocka_unit_test(test_kernel_families),
		cmocka_unit_test(test_scheduler_list),
		cmocka_unit_test(test_scheduler_missing_row),
		cmocka_unit_test(test_device_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
