/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rows of `stripeplan scan --format json`: one table, written only
 * (scan's output is for people and playbooks; nothing reads it back).
 */
#include <stddef.h>

#include "audit/scan.h"
#include "raid/raid.h"
#include "schema.h"
#include "scan-file.h"

#define NOTE(M, N) SP_STRING(sp_scan_row, M, N, .flags = SP_FF_NULL_EMPTY)

static const struct sp_field scan_row_fields[] = {
	SP_STRING(sp_scan_row, device, "device", .flags = SP_FF_REQUIRED),
	SP_STRING(sp_scan_row, kind, "kind", .flags = SP_FF_REQUIRED),
	SP_U64(sp_scan_row, size_bytes, "size_bytes", 0, SP_JSON_U64_MAX),
	NOTE(controller, "controller"),
	NOTE(controller_by, "controller_by"),
	NOTE(level, "level"),
	SP_UINT(sp_scan_row, disks, "disks", 0, SP_MAX_DISKS, .flags = SP_FF_NULL_EMPTY),
	SP_U64(sp_scan_row, chunk_bytes, "chunk_bytes", 0, SP_JSON_U64_MAX, .flags = SP_FF_NULL_EMPTY),
	SP_U64(sp_scan_row, stripe_bytes, "stripe_width_bytes", 0, SP_JSON_U64_MAX,
	       .flags = SP_FF_NULL_EMPTY),
	NOTE(geometry_from, "geometry_from"),
	NOTE(table, "table"),
	SP_UINT(sp_scan_row, partitions, "partitions", 0, 1U << 20),
	NOTE(signature, "signature"),
	NOTE(contents, "contents"),
	SP_BOOL(sp_scan_row, blank, "blank"),
	NOTE(member_of, "member_of"),
	SP_BOOL(sp_scan_row, system, "system"),
	NOTE(system_use, "system_use"),
	NOTE(in_use, "in_use"),
	SP_BOOL(sp_scan_row, candidate, "candidate"),
	SP_BOOL(sp_scan_row, checked, "checked"),
	NOTE(not_checked, "not_checked"),
	SP_UINT(sp_scan_row, costly, "costly", 0, 1U << 20),
	SP_UINT(sp_scan_row, suboptimal, "suboptimal", 0, 1U << 20),
	SP_UINT(sp_scan_row, differs, "differs", 0, 1U << 20),
	NOTE(worst_severity, "worst_severity"),
	NOTE(worst_code, "worst_code"),
	NOTE(worst, "worst"),
	NOTE(error, "error"),
};

const struct sp_schema sp_scan_row_schema = SP_SCHEMA(sp_scan_row, scan_row_fields);
