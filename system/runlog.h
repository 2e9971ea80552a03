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

/* Where a run's report is kept, decided before the run's report is
 * written so that the report can list keeping itself as an action. */
struct sp_runlog {
	char dir[SP_PATH_MAX];       /* <root>/var/log/stripeplan, as seen from outside the root */
	char name[SP_NAME_MAX * 2];  /* apply-YYYYmmddTHHMMSSZ-NAME-PID.json: now, this process */
	size_t n_pruned;             /* reports there now that keeping one more removes */
};

/*
 * Fills where for a report of the device named kernel_name under root
 * ("/" or NULL: the machine's own), reading the directory (creating
 * nothing) to count what keeping it would prune.  Returns 0, or -errno
 * with err filled ("cannot keep the report in '/r/var/log/stripeplan': ...").
 */
int sp_runlog_where(const char *root, const char *kernel_name, struct sp_runlog *where,
		    struct sp_error *err);

/*
 * Writes json as where's report under root, then removes the oldest
 * reports beyond SP_RUNLOG_KEEP (best effort: a file that cannot be
 * removed stays).  Returns 0 or -errno with err filled.
 */
int sp_runlog_keep(const char *root, const struct sp_runlog *where, const char *json,
		   struct sp_error *err);

#endif
