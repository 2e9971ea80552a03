/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the cmocka device tests share: loop devices attached to sparse
 * images in the test's own temporary directory, mounts under it, and
 * undoing both.  Runs as root.
 *
 * SAFETY: loop_ours() is the gate for every command that writes: it
 * accepts only a loop device this process attached, or one of its
 * partitions.  loop_cleanup() unmounts what loop_mount_dir() registered
 * and detaches what loop_attach() attached; tests call it from their
 * teardown, loop_group_teardown() calls it, and so does atexit() for the
 * exit() paths cmocka does not route through teardown.  A device is
 * detached, and with LOOP_RESTORE_QUEUE its queue settings written back
 * first, only while its backing file is still our image.
 * loop_group_teardown() fails if one of our images is still attached, or
 * if a loop device attached before loop_group_setup() is gone.
 */
#ifndef STRIPEPLAN_TESTS_LOOPDEV_H
#define STRIPEPLAN_TESTS_LOOPDEV_H

#include <stddef.h>
#include <stdint.h>

/*
 * Runs argv through sp_exec (no shell) and returns its exit status, -1
 * when it could not be started.  With out, its output is copied there and
 * a failure is not printed (the caller expects it may fail); without, a
 * failure is printed with the output.
 */
int run_argv(const char *const *argv, char *out, size_t len);
#define RUN(...) run_argv((const char *const[]){ __VA_ARGS__, NULL }, NULL, 0)

/* loop_attach() flags */
#define LOOP_PARTSCAN 0x1U      /* losetup --partscan */
#define LOOP_RESTORE_QUEUE 0x2U /* queue/ settings outlive --detach: put them back */

/*
 * For the group setup: refuses unless root, makes the private directory
 * $TMPDIR/stripeplan-<name>.XXXXXX, notes `losetup -a`, and registers
 * loop_cleanup() with atexit().  0, or -1 with the reason printed.
 */
int loop_group_setup(const char *name);

/* For the group teardown: cleans up, checks, removes the directory. 0 or -1. */
int loop_group_teardown(void);

/* The private directory: images, mount points, scratch files. */
const char *loop_dir(void);

/* Attaches a new sparse image of image_bytes; sector_bytes 0 is losetup's default. */
const char *loop_attach(uint64_t image_bytes, unsigned sector_bytes, unsigned flags);

/* dev, when it is one of our loop devices or their partitions; else fails the test. */
const char *loop_ours(const char *dev);

/* The image behind one of our loop devices. */
const char *loop_image(const char *dev);

/* Waits for part, a partition of our dev, to appear in /dev; fails the test if not. */
void loop_wait_partition(const char *dev, const char *part);

/* Makes <dir>/<name> and registers it as a mount point before anything is mounted. */
const char *loop_mount_dir(const char *name);

void loop_unmount_all(void);

/* Unmounts everything registered, then detaches every device of ours. */
void loop_cleanup(void);

/* /sys/block/<dev>/queue/<knob>: the active value ("[mq-deadline]" gives "mq-deadline"). */
void loop_queue_read(const char *dev, const char *knob, char *buf, size_t len);
int loop_queue_write(const char *dev, const char *knob, const char *value);

#endif
