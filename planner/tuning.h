/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STRIPEPLAN_TUNING_H
#define STRIPEPLAN_TUNING_H

#include "stripeplan.h"

/*
 * The plan's tuning as persistence files (planner/tuning.c).  The
 * tune script is templates/stripeplan-tune.sh.in: POSIX sh that sets and
 * reads back every sysfs knob, honours SYSFS_ROOT, and takes an optional
 * kernel name (udev's %k) to tune one device only.  The udev rule sets
 * the sysfs knobs on add|change, matching the array device by WWN or
 * serial, else (and md members always) by kernel name: then `warning`
 * (may be NULL) says so, otherwise it is set to "".  The modprobe.d file
 * is "" when the plan has no module options.  Entries that fail
 * sp_tuning_check() are left out with a comment.
 */
char *sp_format_tuning_script(const struct sp_plan *plan);
char *sp_format_udev_rule(const struct sp_plan *plan, char *warning, size_t len);
char *sp_format_modprobe_conf(const struct sp_plan *plan);
/* File names for them: "60-stripeplan-sdb.rules", "stripeplan-tune-sdb"
 * (a '!' in the kernel name becomes '-').  0 or -errno. */
int sp_udev_rule_name(const struct sp_plan *plan, char *buf, size_t len);
int sp_tune_script_name(const struct sp_plan *plan, char *buf, size_t len);
/* Splits a tuning entry into device (or module) name and attribute
 * ("sdb", "queue/read_ahead_kb"; "megaraid_mbox", "max_sectors") and
 * checks that it is a path stripeplan may write: -EINVAL otherwise. */
int sp_tuning_check(const struct sp_tuning *t, char *disk, size_t len, const char **ret_attr);

#endif
