/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan -> text.  Every formatter returns a malloc'd NUL-terminated string
 * (NULL on out-of-memory) and never prints; the CLI decides where it goes.
 */
#ifndef STRIPEPLAN_FORMAT_H
#define STRIPEPLAN_FORMAT_H

#include "audit/result.h"
#include "audit/scan.h"
#include "stripeplan.h"
#include "render/tuning-files.h"

char *sp_format_plan_json(const struct sp_plan *plan);
char *sp_format_plan_text(const struct sp_plan *plan);
char *sp_format_profiles_json(const struct sp_profile_set *set);
char *sp_format_profiles_text(const struct sp_profile_set *set);

/* apply/check reports: one progress line per step as it finishes, and the
 * whole report as text (tail after the progress lines) or JSON. */
char *sp_format_step_line(const struct sp_step_result *res, size_t index, size_t total);
char *sp_format_report_text(const struct sp_report *report, const struct sp_plan *plan);
char *sp_format_report_json(const struct sp_report *report, const struct sp_plan *plan);
/* The run in one line, for when its report could not be shown: "apply
 * '/dev/sdb': done: the device now matches the plan", with the error and
 * what was left behind when it failed. */
char *sp_format_report_summary(const struct sp_report *report, const struct sp_plan *plan);

/* scan: a table and a paragraph per device, or {"format_version",
 * "exit_code", "devices": [rows]} (planner/schema/scan-file.c). */
/* warnings: what the scan says beside the rows (a report of no disk) */
char *sp_format_scan_text(const struct sp_scan_row *rows, size_t n,
			  const char (*warnings)[SP_MSG_MAX], size_t n_warnings);
char *sp_format_scan_json(const struct sp_scan_row *rows, size_t n,
			  const char (*warnings)[SP_MSG_MAX], size_t n_warnings, int exit_code);

/* Installer snippets around an apply command line (already shell-quoted,
 * without --root): kickstart %post --nochroot, preseed late_command.
 * key_file (NULL or "" for none) is the --key-file path the command
 * carries, which the snippet tests for before apply runs: absolute, and
 * given exactly when the plan has a LUKS2 layer.  NULL with errno EINVAL
 * when a value has a control character or the key file is not so,
 * ENAMETOOLONG when the test line would be too long. */
char *sp_format_kickstart(const struct sp_plan *plan, const char *apply_command, const char *key_file);
char *sp_format_preseed(const struct sp_plan *plan, const char *apply_command, const char *key_file);
char *sp_format_fstab(const struct sp_plan *plan);
/* POSIX sh quoting: plain words unchanged, others in single quotes;
 * -EINVAL for a control character (no quoting keeps a newline inside a
 * line-based file), -ENAMETOOLONG when out is too small. */
int sp_shell_quote(const char *word, char *out, size_t len);
/* A byte below 0x20 or 0x7f: refused in anything that becomes a line. */
bool sp_has_control_chars(const char *s);

#endif
