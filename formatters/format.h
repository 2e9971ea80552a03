/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan -> text.  Every formatter returns a malloc'd NUL-terminated string
 * (NULL on out-of-memory) and never prints; the CLI decides where it goes.
 */
#ifndef STRIPEPLAN_FORMAT_H
#define STRIPEPLAN_FORMAT_H

#include "pipeline.h"
#include "stripeplan.h"

#define SP_PLAN_FORMAT_VERSION 1

char *sp_format_plan_json(const struct sp_plan *plan);
char *sp_format_plan_text(const struct sp_plan *plan);
char *sp_format_profiles_json(const struct sp_profile_set *set);
char *sp_format_profiles_text(const struct sp_profile_set *set);

/* apply/check reports: one progress line per step as it finishes, and the
 * whole report as text (tail after the progress lines) or JSON. */
char *sp_format_step_line(const struct sp_step_result *res, size_t index, size_t total);
char *sp_format_report_text(const struct sp_report *report, const struct sp_plan *plan);
char *sp_format_report_json(const struct sp_report *report, const struct sp_plan *plan);

/*
 * The plan's tuning as persistence files (formatters/tuning.c).  The
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

/* Installer snippets around an apply command line (already shell-quoted,
 * without --root): kickstart %post --nochroot, preseed late_command. */
char *sp_format_kickstart(const struct sp_plan *plan, const char *apply_command);
char *sp_format_preseed(const struct sp_plan *plan, const char *apply_command);
char *sp_format_fstab(const struct sp_plan *plan);
/* POSIX sh quoting: plain words unchanged, others in single quotes. */
int sp_shell_quote(const char *word, char *out, size_t len);

/* Loads a plan written by sp_format_plan_json (apply --plan FILE).  The
 * loader is strict: a missing or mistyped field is an error naming it. */
int sp_plan_from_json(const char *text, struct sp_plan *ret, struct sp_error *err);

#endif
