/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sp_report_parse_ssacli on arbitrary text: plan --controller-report FILE
 * reads a controller CLI's saved report, untrusted input.  Oracles:
 * fuzz-report.h.  Seeds: fixtures/reports' samples and broken ones.
 */
#include <errno.h>
#include <stdbool.h>

#include "fuzz-report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_report(data, size, sp_report_parse_ssacli, SP_REPORT_SSACLI);
}
