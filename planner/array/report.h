/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A RAID controller's own report of one logical drive, saved by its CLI
 * to a file (plan --controller-report): where the kernel exports no
 * geometry, the controller still knows its level, strip and disks.
 * Pure: the CLI reads the file, these parse its bytes (untrusted input:
 * bounded, strict about every field used, fuzzed in tests/fuzz).
 */
#ifndef STRIPEPLAN_ARRAY_REPORT_H
#define STRIPEPLAN_ARRAY_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "raid/raid.h"

struct sp_error;

/* what a report may hold: a saved CLI report is kilobytes */
#define SP_REPORT_MAX_BYTES (1024U * 1024U)
/* the longest line an ssacli report has is a mount point list */
#define SP_REPORT_LINE_MAX 4096U
/* an NAA identifier: 32 hex digits (NAA 6) or 16 (NAA 2, 3, 5), and the NUL */
#define SP_REPORT_NAA_MAX 33U

enum sp_report_kind {
	SP_REPORT_STORCLI = 0, /* storcli64 / perccli64 /cX/vY show all J */
	SP_REPORT_SSACLI,      /* ssacli ctrl slot=N ld N show detail */
};

/* "storcli" (perccli writes the same JSON), "ssacli" */
const char *sp_report_kind_name(enum sp_report_kind kind);

struct sp_controller_report {
	enum sp_report_kind kind;
	enum sp_level level;
	unsigned disks;       /* every disk, all spans */
	unsigned spans;       /* RAID50/60's spans (parity groups); 0 for other levels */
	uint64_t chunk_bytes; /* the strip: what one disk holds of a stripe */
	char drive[32];       /* "VD 0", "logical drive 1": the one reported */
	char device[SP_NAME_MAX]; /* the kernel name the report gives ("sdb"), or "" */
	/* the drive's NAA identifier in lowercase hex ("600508b1001c..."), as
	 * the disk's wwid has it after "naa.", or "" when the report has none */
	char naa_id[SP_REPORT_NAA_MAX];
};

/* The report in text[0..len), of either kind (JSON is storcli's). 0, or
 * -errno with err naming the field that is missing or wrong; *ret is
 * written only on success. */
int sp_report_parse(const char *text, size_t len, struct sp_controller_report *ret,
		    struct sp_error *err);
int sp_report_parse_storcli(const char *text, size_t len, struct sp_controller_report *ret,
			    struct sp_error *err);
int sp_report_parse_ssacli(const char *text, size_t len, struct sp_controller_report *ret,
			   struct sp_error *err);

/* shared by the two parsers (report.c) */
/* "256 KB", "1 MB", "1.000 MB", "65536 Bytes" (vendors' KB and MB are
 * KiB and MiB for a strip) into bytes, at most SP_CHUNK_MAX_BYTES */
int sp_report_size(const char *text, const char *field, uint64_t *ret_bytes,
		   struct sp_error *err);
/* "/dev/sdb" into "sdb" */
int sp_report_device(const char *text, const char *field, char *buf, size_t len,
		     struct sp_error *err);
/* "600508B1001C7A2B3C4D5E6F70819203" into lowercase, buf SP_REPORT_NAA_MAX
 * bytes: 32 hex digits of NAA type 6 or 16 of type 2, 3 or 5, nothing else */
int sp_report_naa_id(const char *text, const char *field, char *buf, struct sp_error *err);

/*
 * Whether the report is of the disk whose wwid attribute is wwid
 * ("naa.600508b1...", "" when it has none) and whose kernel name is
 * kernel_name: by the NAA identifier when the report and the wwid both
 * carry one (kernel names move between boots, identifiers do not), else
 * by the device name the report gives; a report naming neither is of no
 * disk.
 */
bool sp_report_describes(const struct sp_controller_report *r, const char *wwid,
			 const char *kernel_name);

#endif
