/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What fuzz-report-storcli and fuzz-report-ssacli hold a controller's
 * report parser to, on arbitrary bytes: a report taken describes an array
 * (a level the planner knows, 1..SP_MAX_DISKS disks, spans for RAID50/60
 * only and dividing the disks, a strip of 1 byte..1 GiB, terminated names,
 * a device name that is a block device's, an NAA identifier of 32 or 16
 * lowercase hex digits of its type) and reads the same twice; a
 * refusal fills the error, names the parser ('storcli report: ...') and
 * leaves the out-parameter alone.
 */
#ifndef STRIPEPLAN_FUZZ_REPORT_H
#define STRIPEPLAN_FUZZ_REPORT_H

#include "array/report.h"
#include "base/devname.h"
#include "base/error.h"
#include "fuzz.h"

typedef int (*report_parser)(const char *text, size_t len, struct sp_controller_report *ret,
			     struct sp_error *err);

static void check_report(const struct sp_controller_report *r, enum sp_report_kind kind)
{
	static const enum sp_level levels[] = { SP_LEVEL_0,  SP_LEVEL_1,  SP_LEVEL_5, SP_LEVEL_6,
						SP_LEVEL_10, SP_LEVEL_50, SP_LEVEL_60 };
	bool known = false;

	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		known = known || r->level == levels[i];
	FUZZ_CHECK(known, "level %d", (int)r->level);
	FUZZ_CHECK(r->kind == kind, "kind %d", (int)r->kind);
	FUZZ_CHECK(r->disks >= 1 && r->disks <= SP_MAX_DISKS, "disks %u", r->disks);
	FUZZ_CHECK(sp_level_has_spans(r->level) ? r->spans >= 1 && r->disks % r->spans == 0 :
						  r->spans == 0,
		   "level %d, %u spans of %u disks", (int)r->level, r->spans, r->disks);
	FUZZ_CHECK(r->chunk_bytes >= 1 && r->chunk_bytes <= SP_CHUNK_MAX_BYTES, "strip %llu",
		   (unsigned long long)r->chunk_bytes);
	FUZZ_CHECK_TERMINATED(r->drive);
	FUZZ_CHECK_TERMINATED(r->device);
	FUZZ_CHECK(!r->device[0] || sp_block_name_ok(r->device), "device '%s'", r->device);
	FUZZ_CHECK_TERMINATED(r->naa_id);
	FUZZ_CHECK(!r->naa_id[0] ||
			   (strspn(r->naa_id, "0123456789abcdef") == strlen(r->naa_id) &&
			    (strlen(r->naa_id) == 32 ? r->naa_id[0] == '6' :
			     strlen(r->naa_id) == 16 && strchr("235", r->naa_id[0]))),
		   "NAA id '%s'", r->naa_id);
}

static int fuzz_report(const uint8_t *data, size_t size, report_parser parse,
		       enum sp_report_kind kind)
{
	char *text = fuzz_strndup(data, size);
	const char *prefix = kind == SP_REPORT_SSACLI ? "ssacli report: " : "storcli report: ";
	struct sp_controller_report r, again;
	struct sp_error err = { 0 };
	int rc;

	if (!text)
		return 0;
	memset(&r, 0xa5, sizeof(r));
	rc = parse(text, strlen(text), &r, &err);
	if (rc < 0) {
		const unsigned char *b = (const unsigned char *)&r;

		FUZZ_CHECK(err.code == rc, "r %d, code %d", rc, err.code);
		FUZZ_CHECK(err.kind == SP_ERR_INVALID || rc == -ENOMEM, "kind %d: %s", err.kind,
			   err.message);
		FUZZ_CHECK_TERMINATED(err.message);
		FUZZ_CHECK(!strncmp(err.message, prefix, strlen(prefix)), "message '%s'",
			   err.message);
		for (size_t i = 0; i < sizeof(r); i++)
			FUZZ_CHECK(b[i] == 0xa5, "report written on failure (byte %zu)", i);
		free(text);
		return 0;
	}
	check_report(&r, kind);
	memset(&again, 0, sizeof(again));
	FUZZ_CHECK(parse(text, strlen(text), &again, &err) == 0, "second parse failed: %s",
		   err.message);
	FUZZ_CHECK(again.level == r.level && again.disks == r.disks && again.spans == r.spans &&
			   again.chunk_bytes == r.chunk_bytes && !strcmp(again.device, r.device) &&
			   !strcmp(again.drive, r.drive) && !strcmp(again.naa_id, r.naa_id),
		   "the same text read differently");
	free(text);
	return 0;
}

#endif
