/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report of every apply that wrote, kept under the target root:
 * <root>/var/log/stripeplan/apply-YYYYmmddTHHMMSSZ-NAME-PID.json (UTC, the
 * device's kernel name, the process), the same JSON `apply --format json`
 * prints, mode 0640 in a directory of mode 0750, written atomically and
 * reached only through the root (fileio.h).  The newest SP_RUNLOG_KEEP
 * are kept; older apply-*.json files there are removed, nothing else.
 */
#ifndef STRIPEPLAN_RUNLOG_H
#define STRIPEPLAN_RUNLOG_H

#include <stddef.h>

#include "stripeplan.h"

#define SP_RUNLOG_DIR "var/log/stripeplan"
#define SP_RUNLOG_KEEP 50U

/*
 * Writes json as a new report for the device named kernel_name under
 * root ("/" or NULL: the machine's own).  Returns 0 with the file's path
 * as seen from outside the root in ret_path, or -errno with err filled
 * ("cannot keep the report in '/r/var/log/stripeplan': ...").  Pruning
 * old reports is best effort: a file that cannot be removed stays.
 */
int sp_runlog_keep(const char *root, const char *kernel_name, const char *json, char *ret_path,
		   size_t len, struct sp_error *err);

#endif
