/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STRIPEPLAN_SCHEMA_SCAN_FILE_H
#define STRIPEPLAN_SCHEMA_SCAN_FILE_H

#include "schema.h"

/* struct sp_scan_row (audit/scan.h): the rows of 'scan --format json' */
extern const struct sp_schema sp_scan_row_schema;

#endif
