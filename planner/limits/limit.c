/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The limits a plan respects, each with its source.  The versions are the
 * ones read (xfsprogs 6.1.0, e2fsprogs 1.47.0, Linux 6.1, mdadm 4.3) and
 * the release that introduced the rule where it is younger; for the mkfs
 * rows also xfsprogs 4.5.0 and 5.0.0, e2fsprogs 1.42 and 1.45.0 (RHEL 7's
 * and 8's), whose answers are in each row's releases; the mkfs rows
 * were also run against mkfs.xfs -N / mke2fs -n at both sides of the
 * bound (tests/cli/mkfs-sweep.sh), the sysfs rows written to a real
 * kernel's devices (tests/vm/guest/knobs.sh).
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "base/error.h"
#include "limit.h"

#define KIB 1024ULL
#define MIB (1024ULL * KIB)
#define TIB (1024ULL * 1024 * MIB)

static const struct sp_limit limits[SP_LIMIT_COUNT] = {
	[SP_LIMIT_XFS_SWIDTH] = {
		"xfs-swidth-max", "mkfs.xfs", "a stripe width (su x sw)", 0, 2147483647, "bytes",
		"xfsprogs 5.11",
		"libxfs/xfs_sb.c xfs_validate_stripe_geometry(), in mkfs since 060ea87af5d6; "
		"Linux mounts none since 7bc1fea9d36c",
		SP_LIMIT_REFUSED, NULL,
		"xfsprogs 4.5 (RHEL 7) and 5.0 (RHEL 8) take wider ones: 5.0 refuses only a width "
		"above INT_MAX 512-byte sectors (mkfs/xfs_mkfs.c 'too large of a multiple of the data "
		"stripe unit'), 4.5 checks none; the plan is never wider than 6.1 takes" },
	[SP_LIMIT_XFS_LOG_SU] = {
		"xfs-log-su-max", "mkfs.xfs", "a log stripe unit", 512, 256 * KIB, "bytes",
		"xfsprogs 6.1",
		"mkfs/xfs_mkfs.c lopts L_SU maxval XLOG_MAX_RECORD_BSIZE "
		"(libxfs/xfs_log_format.h)",
		SP_LIMIT_REFUSED, "a log su taken from a larger data su is replaced by 32 KiB",
		"the same 256 KiB, XLOG_MAX_RECORD_BSIZE, in xfsprogs 5.0 (RHEL 8: lopts L_SU maxval) "
		"and 4.5 (RHEL 7), which lowers a larger -l su to 32 KiB ('log stripe unit adjusted "
		"to 32KiB') where 5.0 refuses it; the plan's log su is one block" },
	[SP_LIMIT_XFS_SIZE] = {
		"xfs-min-size", "mkfs.xfs", "a filesystem", 300 * MIB, 0, "bytes", "xfsprogs 5.19",
		"mkfs/xfs_mkfs.c validate_supported() 'Filesystem must be larger than 300MB', "
		"6e0ed3d19c54",
		SP_LIMIT_REFUSED, NULL,
		"xfsprogs 4.5 (RHEL 7) and 5.0 (RHEL 8) have no such floor (validate_supported() came "
		"in 5.19): they take smaller filesystems than a plan asks for" },
	[SP_LIMIT_XFS_LOG_SIZE] = {
		"xfs-log-min", "mkfs.xfs", "a log", 64 * MIB, 0, "bytes", "xfsprogs 5.19",
		"mkfs/xfs_mkfs.c validate_supported() XFS_MIN_REALISTIC_LOG_BLOCKS "
		"'Log size must be at least 64MB', 6e0ed3d19c54",
		SP_LIMIT_REFUSED, "the internal log lies in one AG, so an AG is at least this",
		"xfsprogs 4.5 (RHEL 7) and 5.0 (RHEL 8) have no such floor (it came in 5.19): they "
		"take smaller logs than a plan asks for" },
	[SP_LIMIT_XFS_AGSIZE] = {
		"xfs-agsize", "mkfs.xfs", "an allocation group", 16 * MIB, TIB - 4 * KIB, "bytes",
		"xfsprogs 6.1",
		"include/xfs_multidisk.h XFS_AG_MIN_BYTES, XFS_AG_MAX_BLOCKS; "
		"mkfs/xfs_mkfs.c validate_ag_geometry()",
		SP_LIMIT_REFUSED, "the maximum is 1 TiB less one 4 KiB block",
		"the same in xfsprogs 4.5 (RHEL 7: mkfs/xfs_mkfs.h XFS_AG_MIN_BYTES, "
		"XFS_AG_MAX_BLOCKS from XFS_AG_BYTES(31)) and 5.0 (RHEL 8: include/xfs_multidisk.h)" },
	[SP_LIMIT_XFS_AGCOUNT] = {
		"xfs-agcount-min", "mkfs.xfs", "an allocation group count", 2, 0, "AGs", "xfsprogs 5.19",
		"mkfs/xfs_mkfs.c validate_supported() 'at least 2 superblocks for redundancy'",
		SP_LIMIT_REFUSED, NULL,
		"xfsprogs 4.5 (RHEL 7) and 5.0 (RHEL 8) have no such check (it came in 5.19): a "
		"plan's AG count is within what they take" },
	[SP_LIMIT_XFS_BLOCK] = {
		"xfs-block-size", "mkfs.xfs", "a block size", 1024, 64 * KIB, "bytes", "xfsprogs 6.1",
		"mkfs/xfs_mkfs.c bopts B_SIZE, XFS_MIN_CRC_BLOCKSIZE, XFS_MAX_BLOCKSIZE "
		"(libxfs/xfs_types.h)",
		SP_LIMIT_REFUSED, "a power of two; Linux mounts none above the page size",
		"the same XFS_MIN_CRC_BLOCKSIZE and XFS_MAX_BLOCKSIZE in xfsprogs 4.5 (RHEL 7) and "
		"5.0 (RHEL 8), libxfs/xfs_types.h" },
	[SP_LIMIT_XFS_SECTOR] = {
		"xfs-sector-size", "mkfs.xfs", "a sector size", 512, 32 * KIB, "bytes", "xfsprogs 6.1",
		"XFS_MIN_SECTORSIZE, XFS_MAX_SECTORSIZE (libxfs/xfs_types.h)",
		SP_LIMIT_REFUSED, "a power of two",
		"the same XFS_MIN_SECTORSIZE and XFS_MAX_SECTORSIZE in xfsprogs 4.5 (RHEL 7) and 5.0 "
		"(RHEL 8), libxfs/xfs_types.h" },
	[SP_LIMIT_XFS_INODE] = {
		"xfs-inode-size", "mkfs.xfs", "an inode size", 256, 2048, "bytes", "xfsprogs 6.1",
		"mkfs/xfs_mkfs.c iopts I_SIZE, XFS_DINODE_MIN_SIZE, XFS_DINODE_MAX_SIZE "
		"(libxfs/xfs_format.h)",
		SP_LIMIT_REFUSED, "a power of two, and with CRCs (-m crc=1) at least 512: mkfs.xfs "
		"refuses less (mkfs/xfs_mkfs.c 'Minimum inode size for CRCs'); no plan passes -i size",
		"the same XFS_DINODE_MIN_LOG 8 and XFS_DINODE_MAX_LOG 11, and the same CRC minimum, in "
		"xfsprogs 4.5 (RHEL 7) and 5.0 (RHEL 8), libxfs/xfs_format.h" },
	[SP_LIMIT_EXT_STRIDE] = {
		"ext-stride-max", "mke2fs", "a stride", 0, 65535, "blocks", "e2fsprogs 1.47",
		"misc/mke2fs.c parse_extended_opts() 'stride' into the 16-bit s_raid_stride "
		"(lib/ext2fs/ext2_fs.h)",
		SP_LIMIT_TRUNCATED, "mke2fs stores it modulo 65536 without a word",
		"the same in e2fsprogs 1.42 (RHEL 7) and 1.45 (RHEL 8): parse_extended_opts() reads "
		"'stride' into the __u16 s_raid_stride" },
	[SP_LIMIT_EXT_STRIPE_WIDTH] = {
		"ext-stripe-width-max", "mke2fs", "a stripe width", 0, 4294967295, "blocks",
		"e2fsprogs 1.47",
		"misc/mke2fs.c parse_extended_opts() 'stripe_width' into the 32-bit "
		"s_raid_stripe_width (lib/ext2fs/ext2_fs.h)",
		SP_LIMIT_TRUNCATED, "mke2fs stores it modulo 2^32 without a word",
		"the same in e2fsprogs 1.42 (RHEL 7) and 1.45 (RHEL 8): 'stripe-width' or "
		"'stripe_width' into the __u32 s_raid_stripe_width" },
	[SP_LIMIT_EXT3_BLOCKS] = {
		"ext3-blocks-max", "mke2fs", "an ext3 filesystem", 0, 4294967295, "blocks",
		"e2fsprogs 1.47",
		"misc/mke2fs.c PRS() MAX_32_NUM 'too big to be expressed in 32 bits' "
		"(ext3 has no 64bit feature)",
		SP_LIMIT_REFUSED, "16 TiB - 4 KiB with 4 KiB blocks",
		"the same MAX_32_NUM check in e2fsprogs 1.42 (RHEL 7) and 1.45 (RHEL 8)" },
	[SP_LIMIT_EXT4_STRIPE_USED] = {
		"ext4-stripe-used-max", "Linux", "an ext4 stripe width", 0, 32768, "blocks", "Linux 6.1",
		"fs/ext4/super.c ext4_get_stripe_size(): a stripe above the blocks per group "
		"(32768 with 4 KiB blocks) is not used",
		SP_LIMIT_IGNORED, "mballoc then falls back to the stride, or to none", NULL },
	[SP_LIMIT_READ_AHEAD_KB] = {
		"read-ahead-kb", "Linux", "a queue/read_ahead_kb", 0, 4294967295, "KiB", "Linux 6.1",
		"block/blk-sysfs.c queue_ra_store(), queue_var_store() (above UINT_MAX: -EINVAL)",
		SP_LIMIT_REFUSED, "kept in whole pages", NULL },
	[SP_LIMIT_MAX_SECTORS_KB] = {
		"max-sectors-kb", "Linux", "a queue/max_sectors_kb", 4, 2147483647, "KiB", "Linux 6.1",
		"block/blk-sysfs.c queue_max_sectors_store(): a page up to max_hw_sectors_kb, "
		"-EINVAL outside (6.12 lowers a larger value instead)",
		SP_LIMIT_REFUSED, "at most the device's max_hw_sectors_kb (a sector count in an "
		"unsigned int, so never above 2147483647 KiB)", NULL },
	[SP_LIMIT_NR_REQUESTS] = {
		"nr-requests", "Linux", "a queue/nr_requests", 4, 10240, "requests", "Linux 6.1",
		"block/blk-mq.c blk_mq_update_nr_requests() -> blk-mq-tag.c "
		"blk_mq_tag_update_depth(can_grow=false): -EINVAL above the tag depth, which "
		"blk_mq_alloc_tag_set() caps at BLK_MQ_MAX_DEPTH",
		SP_LIMIT_REFUSED, "with scheduler none at most the device's tag depth; below 4 "
		"raised to 4", NULL },
	[SP_LIMIT_NR_REQUESTS_SCHED] = {
		"nr-requests-sched", "Linux", "a queue/nr_requests with a scheduler", 4, 2048,
		"requests", "Linux 6.1",
		"block/blk-mq-tag.c blk_mq_tag_update_depth() 'tdepth > MAX_SCHED_RQ', "
		"block/blk-mq-sched.h MAX_SCHED_RQ (16 * BLKDEV_DEFAULT_RQ; 16 * BLKDEV_MAX_RQ "
		"in older blk-mq, the same 2048)",
		SP_LIMIT_REFUSED, "any blk-mq queue with mq-deadline, bfq or kyber", NULL },
	[SP_LIMIT_MAX_SECTORS_HW] = {
		"max-sectors-kb-hw", "Linux", "a queue/max_sectors_kb up to the disk's max_hw_sectors_kb",
		4, 0, "KiB", "Linux 6.1",
		"block/blk-sysfs.c queue_max_sectors_store(): 'max_sectors_kb > max_hw_sectors_kb || "
		"max_sectors_kb < page_kb' is -EINVAL, max_hw_sectors_kb the smaller of the queue's "
		"max_hw_sectors and max_dev_sectors",
		SP_LIMIT_REFUSED, "the bound is each disk's own, read from queue/max_hw_sectors_kb; "
		"a profile's value above it is planned at it", NULL },
	[SP_LIMIT_NR_REQUESTS_TAGS] = {
		"nr-requests-tag-depth", "Linux",
		"a queue/nr_requests with scheduler none up to the disk's tag depth", 4, 0, "requests",
		"Linux 6.1",
		"block/blk-mq.c blk_mq_update_nr_requests() -> block/blk-mq-tag.c "
		"blk_mq_tag_update_depth(hctx, &hctx->tags, nr, false): 'tdepth > tags->nr_tags' "
		"with !can_grow is -EINVAL (only a scheduler's sched_tags may grow)",
		SP_LIMIT_REFUSED, "the bound is each disk's own, the smallest of its mq/*/nr_tags; "
		"a profile's value above it is planned at it", NULL },
	[SP_LIMIT_QUEUE_DEPTH] = {
		"scsi-queue-depth", "Linux", "a device/queue_depth", 1, 4096, "commands", "Linux 6.1",
		"drivers/scsi/scsi_sysfs.c sdev_store_queue_depth() (-EINVAL above the host's "
		"can_queue), drivers/scsi/scsi.c scsi_change_queue_depth() (lowers to 4096)",
		SP_LIMIT_REFUSED, "and at most the host's can_queue", NULL },
	[SP_LIMIT_MD_STRIPE_CACHE] = {
		"md-stripe-cache", "Linux", "an md/stripe_cache_size", 17, 32768, "entries", "Linux 6.1",
		"drivers/md/raid5.c raid5_set_cache_size() 'size <= 16 || size > 32768'",
		SP_LIMIT_REFUSED, "RAID4/5/6 only; each entry holds a page per member", NULL },
	[SP_LIMIT_MD_SYNC_SPEED] = {
		"md-sync-speed", "Linux", "an md/sync_speed_min or _max", 1, 4294967295, "KiB/s",
		"Linux 6.1",
		"drivers/md/md.c sync_min_store(), sync_max_store() (0 is -EINVAL; 'system' "
		"follows dev.raid.speed_limit_*)",
		SP_LIMIT_REFUSED, NULL, NULL },
	[SP_LIMIT_XFS_LOGBUFS] = {
		"xfs-logbufs", "Linux", "an XFS logbufs", 2, 8, "buffers", "Linux 6.1",
		"fs/xfs/xfs_super.c xfs_fs_validate_params(), XLOG_MIN_ICLOGS, XLOG_MAX_ICLOGS",
		SP_LIMIT_REFUSED, "the mount fails", NULL },
	[SP_LIMIT_XFS_LOGBSIZE] = {
		"xfs-logbsize", "Linux", "an XFS logbsize", 16 * KIB, 256 * KIB, "bytes", "Linux 6.1",
		"fs/xfs/xfs_super.c xfs_fs_validate_params() XLOG_MIN_RECORD_BSIZE, "
		"XLOG_MAX_RECORD_BSIZE; xfs_finish_flags() 'logbuf size must be greater than or "
		"equal to log stripe size'",
		SP_LIMIT_REFUSED, "a power of two, and at least the log stripe unit", NULL },
	[SP_LIMIT_MD_RAID6_DISKS] = {
		"md-raid6-disks", "mdadm", "a RAID6 array", 4, 256, "devices", "mdadm 1.5.0",
		"Create.c 'no more than 256 raid-devices supported for level 6' (98c6faba80e6); "
		"'at least 4 raid-devices needed for level 6'",
		SP_LIMIT_REFUSED, NULL, NULL },
	[SP_LIMIT_MD_DEVICES] = {
		"md-devices", "mdadm", "an array with 1.x metadata", 1, 1920, "devices", "mdadm 3.2.4",
		"super1.c MAX_DEVS (4096 - 256) / 2 (911cead7f194 'super1: support superblocks up "
		"to 4K'); drivers/md/md.c super_1_load() max_disks",
		SP_LIMIT_REFUSED, "0.90 metadata holds 27 (md_p.h MD_SB_DISKS)", NULL },
	[SP_LIMIT_SCSI_MQ_DEFAULT] = {
		"scsi-mq-default", "Linux", "SCSI disks blk-mq by default", SP_LIMIT_RELEASE(4, 19), 0,
		"release", "Linux 4.19",
		"d5038a13eca7 'scsi: core: switch to scsi-mq by default'",
		SP_LIMIT_CHANGED,
		"SCSI disks offer none, mq-deadline, kyber, bfq; noop, deadline and cfq are refused "
		"(until 5.0 scsi_mod.use_blk_mq=0 brings them back); NVMe and virtio disks are "
		"blk-mq on every release", NULL },
	[SP_LIMIT_LEGACY_SCHED_REMOVED] = {
		"legacy-schedulers-removed", "Linux", "single-queue schedulers removed",
		SP_LIMIT_RELEASE(5, 0), 0, "release", "Linux 5.0",
		"f382fb0bcef4 'block: remove legacy IO schedulers'",
		SP_LIMIT_CHANGED, "every disk is blk-mq; noop and cfq are refused, deadline is "
		"mq-deadline's alias", NULL },
	[SP_LIMIT_XFS_BARRIER_REMOVED] = {
		"xfs-barrier-removed", "Linux", "XFS barrier and nobarrier removed",
		SP_LIMIT_RELEASE(4, 19), 0, "release", "Linux 4.19",
		"1c02d502c208 'xfs: remove deprecated barrier/nobarrier mount'; "
		"Documentation/admin-guide/xfs.rst 'Removed Mount Options': barrier, nobarrier v4.19; "
		"SUSE KB 000020240 (SLES 15 SP2's 5.3: 'unknown mount option [nobarrier]')",
		SP_LIMIT_CHANGED, "the mount fails: unknown parameter", NULL },
	[SP_LIMIT_XFS_INODE64_DEFAULT] = {
		"xfs-inode64-default", "Linux", "XFS inode64 the default", SP_LIMIT_RELEASE(3, 7), 0,
		"release", "Linux 3.7",
		"08bf540412ed 'xfs: make inode64 as the default allocation mode'; Red Hat Enterprise "
		"Linux 6 Storage Administration Guide 8.2 (inode64 above 2 TB)",
		SP_LIMIT_CHANGED, "before it, a filesystem above 2 TiB is planned with inode64", NULL },
	[SP_LIMIT_XFS_BARRIER_IGNORED] = {
		"xfs-barrier-ignored", "Linux", "XFS barrier and nobarrier ignored",
		SP_LIMIT_RELEASE(4, 10), 0, "release", "Linux 4.10",
		"4cf4573d899c 'xfs: deprecate barrier/nobarrier mount option' (fs/xfs/xfs_super.c "
		"xfs_parseargs(): 'option is deprecated, ignoring.'); SUSE KB 000020240 (SLES 12 SP4, "
		"12 SP5 and 15 SP1 log it and mount)",
		SP_LIMIT_CHANGED, "the mount succeeds and XFS flushes its cache as without it", NULL },
	[SP_LIMIT_MQ_DEADLINE] = {
		"mq-deadline", "Linux", "mq-deadline on blk-mq queues", SP_LIMIT_RELEASE(4, 11), 0,
		"release", "Linux 4.11",
		"945ffb60c11d 'mq-deadline: add blk-mq adaptation of the deadline IO scheduler'",
		SP_LIMIT_CHANGED, "before it a blk-mq queue (NVMe, virtio, scsi-mq) offers none only", NULL },
	[SP_LIMIT_MQ_BFQ_KYBER] = {
		"bfq-kyber", "Linux", "bfq and kyber on blk-mq queues", SP_LIMIT_RELEASE(4, 12), 0,
		"release", "Linux 4.12",
		"aee69d78dec0 'block, bfq: introduce the BFQ-v0 I/O scheduler as an extra scheduler'; "
		"00e043936e9a 'blk-mq: introduce Kyber multiqueue I/O scheduler'",
		SP_LIMIT_CHANGED, "bfq is where a blk-mq queue has cfq's place; before it, none", NULL },
	[SP_LIMIT_SYSTEMD] = {
		"systemd", "systemd", "x-systemd.* mount options (the system boots systemd)",
		SP_LIMIT_RELEASE(3, 10), 0, "release", "Linux 3.10",
		"systemd README, REQUIREMENTS 'Linux kernel >= 3.0' (systemd/systemd at 00180928); "
		"3.10 is the kernel of RHEL 7, the first Red Hat release to boot systemd (row "
		"rhel-systemd)",
		SP_LIMIT_CHANGED, "from it the plan mounts with x-systemd.device-timeout; a kernel "
		"release names no init system, and 3.10 is no requirement of systemd's but the release "
		"below which the distributions planned for (RHEL 6, SLES 11, Debian 7) boot Upstart or "
		"SysV init", NULL },
	[SP_LIMIT_UBUNTU_SYSTEMD] = {
		"ubuntu-systemd", "Ubuntu", "x-systemd.* mount options on an Ubuntu kernel",
		SP_LIMIT_RELEASE(4, 5), 0, "release", "Linux 4.5 (after 4.4, the last 14.04 kernel)",
		"Ubuntu wiki Kernel/LTSEnablementStack (14.04's kernels: 3.13, and HWE 3.16, 3.19, "
		"4.2, 4.4 'lts-xenial'); Martin Pitt, ubuntu-devel 2015-03-05 and Launchpad bug "
		"1427654 (15.04 'vivid' the first release to boot systemd); util-linux v2.20.1 "
		"configure.ac (the libmount mount(8) 'EXPERIMENTAL', off) and mount/mount.c "
		"parse_opt() (an option it does not know goes to the filesystem)",
		SP_LIMIT_CHANGED, "an Ubuntu kernel before it may boot 14.04 (Upstart), whose mount(8) "
		"hands x-systemd.device-timeout to XFS or ext4 and the mount fails: the plan leaves it "
		"out there (nofail alone keeps a systemd boot going)", NULL },
	[SP_LIMIT_RHEL_BLK_MQ_ONLY] = {
		"rhel-blk-mq-only", "Red Hat Enterprise Linux", "block devices multi-queue only", 8, 0,
		"RHEL", "RHEL 8.0",
		"Red Hat, RHEL 8 'Monitoring and managing system status and performance', 'Setting "
		"the disk scheduler', 'Disk scheduler changes in RHEL 8' ('The traditional, "
		"single-queue schedulers ... have been removed'); 'Considerations in adopting RHEL 8' "
		"12.2.4 (scsi-mq on by default)",
		SP_LIMIT_CHANGED, "its 4.18 offers none, mq-deadline, bfq, kyber on every disk, as "
		"mainline 5.0 does", NULL },
	[SP_LIMIT_RHEL_BARRIER_REMOVED] = {
		"rhel-xfs-barrier-removed", "Red Hat Enterprise Linux", "XFS barrier and nobarrier removed",
		8, 0, "RHEL", "RHEL 8.0",
		"Red Hat's leapp-repository, el7toel8 actor checkfstabxfsoptions "
		"(REMOVED_XFS_OPTIONS: barrier, nobarrier 'removed from kernel in 4.19'; 'not "
		"supported on RHEL 8 and prevent system from booting'), Bugzilla 1870813",
		SP_LIMIT_CHANGED, "its 4.18 carries the 4.19 removal: the mount fails", NULL },
	[SP_LIMIT_SLES_BLK_MQ_ONLY] = {
		"sles-blk-mq-only", "SUSE Linux Enterprise Server", "block devices multi-queue only",
		15, 0, "SLES", "SLES 15",
		"SUSE, SLES 15 SP2 System Analysis and Tuning Guide 13.1 'elevator boot parameter "
		"removed' ('The blk-mq I/O path replaces cfq'), 13.2 'Available I/O elevators with "
		"blk-mq I/O path'",
		SP_LIMIT_CHANGED, "none, mq-deadline, bfq, kyber; the guide read is SP2's (5.3), and "
		"15 GA and SP1 (4.12) are planned the same way", NULL },
	[SP_LIMIT_RHEL_SYSTEMD] = {
		"rhel-systemd", "Red Hat Enterprise Linux", "systemd the init system", 7, 0, "RHEL",
		"RHEL 7.0",
		"Red Hat, RHEL 7 System Administrator's Guide 10.1 'Introduction to systemd' ('In Red "
		"Hat Enterprise Linux 7, systemd replaces Upstart as the default init system')",
		SP_LIMIT_CHANGED, "RHEL 6 (2.6.32) boots Upstart: no x-systemd.* option", NULL },
};

const struct sp_limit *sp_limit(enum sp_limit_id id)
{
	return (unsigned)id < SP_LIMIT_COUNT ? &limits[id] : NULL;
}

const struct sp_limit *sp_limit_by_name(const char *text)
{
	for (size_t i = 0; i < ARRAY_SIZE(limits); i++)
		if (!strcmp(limits[i].id, text))
			return &limits[i];
	return NULL;
}

const char *sp_limit_cite(const struct sp_limit *l, char *buf, size_t len)
{
	snprintf(buf, len, "%s, %s", l->since, l->source);
	return buf;
}

static const char *action_verb(const struct sp_limit *l)
{
	switch (l->action) {
	case SP_LIMIT_IGNORED:
		return "ignores";
	case SP_LIMIT_TRUNCATED:
		return "cannot store";
	case SP_LIMIT_CHANGED:
		return "changed";
	case SP_LIMIT_REFUSED:
	default:
		return "refuses";
	}
}

int sp_limit_check(enum sp_limit_id id, uint64_t value, const char *field, const char *detail,
		   struct sp_error *err)
{
	const struct sp_limit *l = sp_limit(id);
	bool low = value < l->min;

	if (sp_limit_holds(id, value))
		return 0;
	return sp_error_set(err, ERANGE, SP_ERR_INVALID, "%s: %s %s %s %s %" PRIu64 " %s (%s)%s%s",
			    field, l->tool, action_verb(l), l->what, low ? "below" : "above",
			    low ? l->min : l->max, l->unit, SP_LIMIT_CITED(id),
			    detail && *detail ? ": " : "", detail ? detail : "");
}
