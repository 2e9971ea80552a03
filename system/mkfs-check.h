/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The filesystem step's mkfs, proven before the first write: the program
 * found in the system directories by its absolute path, and the plan's
 * own command run as a dry run (mkfs.xfs -N, mke2fs -n: everything
 * computed and checked, nothing written) against a scratch file of the
 * partition's exact size.  A command mkfs would refuse is refused with
 * mkfs's own words while the disk is still untouched.
 */
#ifndef STRIPEPLAN_MKFS_CHECK_H
#define STRIPEPLAN_MKFS_CHECK_H

#include <stddef.h>

#include "steps.h"

/*
 * The filesystem step's preflight: ctx->mkfs_path found (refused, exit 3,
 * when no system directory has the program), then the dry run.  The
 * scratch file is an anonymous memory file (memfd: no name anywhere,
 * sparse up to the largest planned size, gone with the run), handed to
 * mkfs as /proc/PID/fd/N; mkfs.xfs gets the device's logical sector size
 * (-s size=) when the plan's command does not set one.  mkfs refusing
 * the command is invalid input (exit 2): the request asks for a
 * filesystem mkfs cannot make.  0, or -errno with res->error filled.
 */
int sp_mkfs_preflight(struct sp_ctx *ctx, struct sp_step_result *res);

/*
 * The program a step runs, found as apply runs it (sp_exec_find in
 * ctx->program_dirs): 0 with buf filled, or -ENOENT with res->error
 * filled ("cannot find 'mkfs.xfs' in /usr/local/sbin:...").
 */
int sp_step_find_program(const struct sp_ctx *ctx, const char *name, char *buf, size_t len,
			 struct sp_step_result *res);

/*
 * The line of a failed mkfs's output that says why.  Tools follow a bad
 * option with their usage text, so reading stops at "Usage:"; of what is
 * left, the last line that reads like an error wins, else the last line.
 * mke2fs's version banner ("mke2fs 1.47.0 (5-Feb-2023)") never does.
 */
void sp_mkfs_why(const char *out, const char *tool, char *buf, size_t len);

#endif
