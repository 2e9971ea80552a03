/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One row of `stripeplan scan`: a block device that holds or could hold a
 * data array, what decided its controller and geometry, what is on it and
 * the check verdict.  Plain data, filled by the CLI from the probe, the
 * recognition and the check pipeline; its JSON is a field table
 * (planner/schema/scan-file.c), written, never read back.
 */
#ifndef STRIPEPLAN_AUDIT_SCAN_H
#define STRIPEPLAN_AUDIT_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"

#define SP_SCAN_FORMAT_VERSION 1

struct sp_scan_row {
	char device[SP_PATH_MAX];      /* "/dev/md0" */
	char kind[SP_NAME_MAX];        /* "disk", "md", "multipath" */
	uint64_t size_bytes;
	/* controller: the profile, and the facts that decided it, or what the
	 * kernel said when none did */
	char controller[SP_NAME_MAX];
	char controller_by[SP_MSG_MAX];
	/* geometry; level "" when unknown (geometry_from says what to give) */
	char level[SP_NAME_MAX];       /* "raid5" */
	unsigned disks;
	uint64_t chunk_bytes, stripe_bytes;
	char geometry_from[SP_MSG_MAX];
	/* what is on it */
	char table[SP_NAME_MAX];       /* "gpt", "dos", "" */
	unsigned partitions;
	char signature[SP_NAME_MAX];   /* on the whole device: "xfs", "crypto_LUKS", "" */
	char contents[SP_MSG_MAX];
	bool blank;
	/* who needs it */
	char member_of[SP_NAME_MAX];   /* an md or multipath device above it */
	bool system;                   /* the running system needs it */
	char system_use[SP_MSG_MAX];   /* "/ (sda2), swap (sda3)" */
	/* what else uses it: a mounted filesystem ("/data (sdc1)"), or for a
	 * blank device what apply's in-use rule finds (open in a process ...) */
	char in_use[SP_MSG_MAX];
	bool candidate;                /* blank and needed by nothing: apply may make an array's layout here */
	/* the check verdict, when the geometry is known and something is on it */
	bool checked;
	char not_checked[SP_MSG_MAX];  /* why not */
	unsigned costly, suboptimal, differs;
	char worst_severity[SP_NAME_MAX];
	char worst_code[SP_NAME_MAX];
	char worst[SP_MSG_MAX];
	/* what could not be read: the row is what was read before */
	char error[SP_MSG_MAX];
};

#endif
