/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel rules by release string: whose kernel it is (vendors backport),
 * its schedulers, XFS's barrier options, whether it boots systemd.
 */
#ifndef STRIPEPLAN_KERNEL_KERNEL_H
#define STRIPEPLAN_KERNEL_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/base.h"
#include "limits/limit.h"

struct sp_error;

/* Whose kernel a release string names: the vendors backport, so the
 * version number alone misleads (RHEL 8's 4.18 is blk-mq only). */
enum sp_kernel_family {
	SP_KERNEL_MAINLINE = 0, /* "6.1", "6.1.0": kernel.org */
	SP_KERNEL_DEBIAN,       /* "6.1.0-13-amd64" */
	SP_KERNEL_UBUNTU,       /* "5.15.0-91-generic", HWE "6.8.0-45-generic" */
	SP_KERNEL_FEDORA,       /* "6.5.6-300.fc39.x86_64" */
	SP_KERNEL_RHEL,         /* RHEL, CentOS, Rocky, Alma, Oracle RHCK: ".el7", ".el8", ".el9" */
	SP_KERNEL_SLES,         /* "5.14.21-150500.55.19-default" */
	SP_KERNEL_UNKNOWN,      /* a suffix stripeplan does not know: judged by its version */
};

struct sp_kernel {
	unsigned major, minor, patch;
	char release[SP_NAME_MAX];
	enum sp_kernel_family family;
	unsigned vendor_major; /* RHEL 7, 8, 9; SLES 12, 15; 0 otherwise */
	char vendor[32];       /* "el8", "SLES 15", "Ubuntu", ... for messages */
};

int sp_parse_kernel(const char *release, struct sp_kernel *ret, struct sp_error *err);
int sp_kernel_cmp(const struct sp_kernel *k, unsigned major, unsigned minor);
/* No single-queue schedulers (noop, deadline, cfq): mainline >= 5.0,
 * RHEL >= 8, SLES >= 15 (limits rows legacy-schedulers-removed,
 * rhel-blk-mq-only, sles-blk-mq-only). */
bool sp_kernel_is_blk_mq_only(const struct sp_kernel *k);
/* Which queue a disk has, by its kernel name: the scheduler names depend on it. */
enum sp_queue_family {
	SP_QUEUE_SCSI = 0, /* sd: hpsa, megaraid_sas, mpt*, ahci, ... */
	SP_QUEUE_NVME,
	SP_QUEUE_VIRTIO,
};
enum sp_queue_family sp_queue_family_of(const char *kernel_name);
/* blk-mq schedulers on that queue: SCSI from 4.19 (scsi-mq by default,
 * d5038a13eca7) or a blk-mq-only vendor kernel; NVMe and virtio always. */
bool sp_kernel_queue_is_blk_mq(const struct sp_kernel *k, enum sp_queue_family family);

enum sp_xfs_barrier_opts {
	SP_XFS_BARRIER_EFFECTIVE = 0, /* before 4.10: nobarrier turns flushes off */
	SP_XFS_BARRIER_IGNORED,       /* 4.10 - 4.18: accepted, ignored, logged */
	SP_XFS_BARRIER_REJECTED,      /* 4.19 on, and RHEL 8: "unknown mount option", mount fails */
};
enum sp_xfs_barrier_opts sp_kernel_xfs_barrier_opts(const struct sp_kernel *k);
/* Which init system boots a release, for systemd's x-systemd.* mount
 * options: the distributions whose kernels are 3.10 or later boot systemd;
 * RHEL 6 (2.6.32) and older do not (limits rows systemd, rhel-systemd).
 * An Ubuntu kernel from 3.10 to before 4.5 cannot tell: 14.04 and its HWE
 * kernels boot Upstart, 15.04 on the same numbers systemd (ubuntu-systemd). */
enum sp_init_system {
	SP_INIT_SYSTEMD = 0,
	SP_INIT_BEFORE_SYSTEMD,
	SP_INIT_CANNOT_TELL,
};
enum sp_init_system sp_kernel_init_system(const struct sp_kernel *k);
/*
 * Translates a scheduler name from any era ("noop", "deadline", "cfq",
 * "none", "mq-deadline", "bfq", "kyber") into the name the given kernel
 * uses.  Returns NULL for unknown names and for names the kernel lacks
 * (kyber on a single queue; mq-deadline before 4.11, bfq and kyber before
 * 4.12 on a blk-mq queue).
 */
const char *sp_kernel_scheduler_name(const struct sp_kernel *k, enum sp_queue_family family,
				     const char *wanted);
/* Why sp_kernel_scheduler_name() gave NULL for a known name: the limits row
 * the kernel is before (mq-deadline, bfq-kyber on a blk-mq queue), or
 * bfq-kyber for kyber on a single queue; SP_LIMIT_COUNT when the kernel
 * has it or no kernel has that name. */
enum sp_limit_id sp_kernel_scheduler_missing(const struct sp_kernel *k, enum sp_queue_family family,
					     const char *wanted);
/* The other spellings of the same scheduler ("deadline" -> "mq-deadline"),
 * to find it in a list the running kernel offers; NULL when unknown. */
const char *sp_kernel_scheduler_alias(const char *name);
/* Parses queue/scheduler ("[mq-deadline] kyber bfq none") into names. */
size_t sp_parse_scheduler_list(const char *text, char (*names)[16], size_t max);

#endif
