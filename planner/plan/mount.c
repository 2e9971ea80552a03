/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The mount stage: the options the filesystem is mounted with (the log
 * buffers by workload, swalloc on parity arrays, barriers only where they
 * may go, nofail and the device timeout for a data array) and the fstab
 * line that carries them.
 */
#include <errno.h>
#include <stdio.h>

#include "base/error.h"
#include "fstab/line.h"
#include "fstab/mountpoint.h"
#include "kernel/kernel.h"
#include "limits/limit.h"
#include "plan-internal.h"

#define DEVICE_TIMEOUT "x-systemd.device-timeout=30s"

static void option_add(struct sp_plan *plan, const char *opt)
{
	if (plan->n_mount_options < SP_MAX_OPTIONS)
		snprintf(plan->mount_options[plan->n_mount_options++], SP_NAME_MAX, "%s", opt);
}

static int plan_barriers(const struct sp_spec *spec, const struct sp_profile *profile,
			 struct sp_plan *plan, struct sp_error *err)
{
	bool xfs = spec->fs == SP_FS_XFS;

	enum sp_xfs_barrier_opts xfs_opts = sp_kernel_xfs_barrier_opts(&spec->kernel);

	if (spec->barriers != SP_BARRIERS_OFF) {
		if (xfs && profile->protected_write_cache && xfs_opts == SP_XFS_BARRIER_REJECTED)
			sp_plan_add_warning(plan, "nobarrier-removed",
					    "seed recipes mount XFS with nobarrier; Linux %s rejects it "
					    "(removed in 4.19: 'xfs: Unknown parameter nobarrier' and the "
					    "server stops in emergency mode), so barriers stay on; with a "
					    "battery-backed cache flushes are cheap",
					    spec->kernel.release);
		else if (xfs && profile->protected_write_cache && xfs_opts == SP_XFS_BARRIER_IGNORED)
			sp_plan_add_warning(plan, "nobarrier-ignored",
					    "seed recipes mount XFS with nobarrier; Linux %s accepts it but "
					    "ignores it (a no-op since 4.10, removed in 4.19), so it is not "
					    "planned; with a battery-backed cache flushes are cheap",
					    spec->kernel.release);
		return 0;
	}
	if (!profile->protected_write_cache)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "barriers: the %s profile has no battery- or flash-backed write "
				    "cache; turning barriers off would lose data on power failure",
				    profile->name);
	if (xfs && xfs_opts != SP_XFS_BARRIER_EFFECTIVE)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "barriers: XFS on Linux %s %s; barriers cannot be turned off",
				    spec->kernel.release,
				    xfs_opts == SP_XFS_BARRIER_REJECTED ?
				    "has no nobarrier option (removed in 4.19)" :
				    "ignores nobarrier (a no-op since 4.10)");
	option_add(plan, xfs ? "nobarrier" : "barrier=0");
	sp_plan_add_warning(plan, "barriers-off",
			    "write barriers are off: safe only while the controller's write cache "
			    "is battery- or flash-backed and the disks' own caches are off; a failed "
			    "battery means lost writes on power failure");
	return 0;
}

int sp_plan_mount(const struct sp_spec *spec, const struct sp_profile *profile,
		  struct sp_plan *plan, struct sp_error *err)
{
	char opts[SP_MAX_OPTIONS * SP_NAME_MAX] = "";
	size_t used = 0;
	int r;

	option_add(plan, "noatime"); /* implies nodiratime, which the seeds also set */
	/*
	 * The log buffers, by workload: the seeds' logbufs=8,logbsize=256k
	 * against the kernel's 8 x 32 KiB, measured with the plan's one-block
	 * log stripe unit (bench/run --quick --parts log, 3 runs of each pair):
	 * - metadata (20 000 2 KiB files untarred, renamed, removed, no
	 *   fsync): 21 log-device requests against 163, member I/Os per MiB
	 *   lower in 8 of 9 pairs (1.28-1.79 against 1.33-2.20 on RAID10
	 *   8 x 256 KiB, 3.28 against 4.86 on RAID5 4 x 64 KiB), bytes equal;
	 * - smallfiles (64 KiB files, each fsynced): 4.52 against 4.27 member
	 *   bytes per byte on every RAID5 (2.26 against 2.13 on RAID10) in two
	 *   of three runs, equal in the third.
	 * One default cannot serve both: general keeps the kernel's buffers,
	 * as parted-default and mkfs-topology do; --workload metadata asks
	 * for the large ones (at least the log stripe unit, as XFS requires);
	 * small-sync keeps the kernel's, as general does.
	 */
	if (spec->fs == SP_FS_XFS && spec->workload == SP_WORKLOAD_METADATA) {
		option_add(plan, "logbufs=8");
		option_add(plan, "logbsize=256k");
	}
	/* with whole-stripe AGs, allocations that extend a file start on a
	 * full stripe: full-stripe writes stay full-stripe writes; without a
	 * stripe unit (small-sync, metadata) there is nothing for swalloc to
	 * round to */
	if (spec->fs == SP_FS_XFS && sp_level_rotates_parity(plan->level) &&
	    sp_workload_xfs_stripe(spec->workload))
		option_add(plan, "swalloc");
	/* before 3.7 XFS keeps inodes in the first TiB (inode32) unless told;
	 * Red Hat's RHEL 6 guide asks for inode64 above 2 TB */
	if (spec->fs == SP_FS_XFS && plan->fs_size_bytes > 2 * SP_TIB &&
	    !sp_kernel_from(&spec->kernel, SP_LIMIT_XFS_INODE64_DEFAULT))
		option_add(plan, "inode64");
	r = plan_barriers(spec, profile, plan, err);
	if (r < 0)
		return r;
	/* a data array that is missing at boot must not stop the boot; the
	 * device timeout is systemd's, and a pre-systemd mount(8) (RHEL 5/6,
	 * kernels before 3.10) would hand x-systemd.* to the filesystem */
	option_add(plan, "nofail");
	switch (sp_kernel_init_system(&spec->kernel)) {
	case SP_INIT_SYSTEMD:
		option_add(plan, DEVICE_TIMEOUT);
		break;
	case SP_INIT_CANNOT_TELL:
		sp_plan_add_warning(plan, "no-device-timeout",
				    "kernel %s may boot Ubuntu 14.04, whose mount(8) hands "
				    "x-systemd.* options to the filesystem (the mount fails): the "
				    "fstab line has no %s (limits row ubuntu-systemd); on 16.04 it "
				    "can be added by hand",
				    spec->kernel.release, DEVICE_TIMEOUT);
		break;
	case SP_INIT_BEFORE_SYSTEMD:
		break;
	}

	if (!spec->mountpoint[0]) {
		sp_plan_add_warning(plan, "no-mountpoint",
				    "no --mountpoint given: no fstab line is planned");
		return 0;
	}
	r = sp_mountpoint_check(spec->mountpoint, spec->force_mountpoint, plan->mountpoint,
				sizeof(plan->mountpoint), err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < plan->n_mount_options; i++)
		used += (size_t)snprintf(opts + used, sizeof(opts) - used, "%s%s", i ? "," : "",
					 plan->mount_options[i]);
	/* xfs has nothing for fsck to do at boot; ext gets the second pass */
	return sp_fstab_line_make(plan->mountpoint, sp_fs_name(spec->fs), opts,
				  spec->fs == SP_FS_XFS ? 0 : 2, plan->fstab_line,
				  sizeof(plan->fstab_line), err);
}

