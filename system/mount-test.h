/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The mount test: the new filesystem mounted once with exactly the
 * planned options, so an option the running kernel rejects (XFS
 * nobarrier since 4.19) fails now, not at the next boot.
 *
 * Nothing of it can be seen outside the run or outlive it.  It mounts a
 * detached mount (fsopen/fsconfig/fsmount, Linux 5.2): attached to no
 * directory and in no mount namespace's tree, gone when its descriptor
 * closes, in a child that dies with the run.  On an older kernel it
 * mounts on a directory it makes itself on the private tmpfs of a private
 * mount namespace (sp_run_in_private_mounts), and only when that
 * namespace's mounts could be made private: in a chroot whose root is no
 * mount point they could not, and a mount there would propagate to the
 * machine's namespace, so the test is refused instead.
 */
#ifndef STRIPEPLAN_MOUNT_TEST_H
#define STRIPEPLAN_MOUNT_TEST_H

#include <stddef.h>

/*
 * Mounts source (fstype) with options, as fstab(5) spells them, and
 * unmounts it.  0, or -errno with msg naming the option the kernel
 * rejected when it can tell ("the kernel rejects 'nobarrier' (xfs:
 * Unknown parameter 'nobarrier')").
 */
int sp_mount_test(const char *source, const char *fstype, const char *options, char *msg,
		  size_t len);

/*
 * Whether sp_mount_test can run here without anything of it being seen
 * outside: 0, or -errno with msg saying why not.  For preflight: a run
 * that could not test the mount is refused before the first write.
 */
int sp_mount_test_possible(char *msg, size_t len);

#endif
