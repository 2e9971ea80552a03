/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LVM2 label reader (planner/ondisk/lvm.c) on arbitrary bytes: a
 * device's first 2 KiB.  The first input byte says whether to fix the
 * CRC of each LABELONE sector first, so the PV header behind it is
 * reached.  Oracles: an intact label has a pe_start of whole sectors,
 * before the PV's end, and a terminated UUID; a damaged one says why;
 * nothing is read past the input (ASan).
 */
#include <inttypes.h>

#include "fuzz.h"
#include "ondisk/ondisk.h"

static void seal(uint8_t *buf, size_t len)
{
	for (size_t at = 0; at + 512 <= len && at < SP_LVM_LABEL_SCAN_BYTES; at += 512) {
		uint32_t crc;

		if (memcmp(buf + at, "LABELONE", 8))
			continue;
		crc = sp_crc32_update(0xf597a6cfU, buf + at + 20, 512 - 20);
		for (int i = 0; i < 4; i++)
			buf[at + 16 + (size_t)i] = (uint8_t)(crc >> (8 * i));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sp_lvm_label l;
	char why[SP_MSG_MAX];
	enum sp_ondisk_verdict v;
	uint8_t buf[SP_LVM_LABEL_SCAN_BYTES];
	size_t len;

	if (size < 1)
		return 0;
	len = size - 1 < sizeof(buf) ? size - 1 : sizeof(buf);
	memcpy(buf, data + 1, len);
	if (data[0] & 1)
		seal(buf, len);
	v = sp_lvm_label_read(buf, len, &l, why, sizeof(why));
	FUZZ_CHECK_TERMINATED(why);
	FUZZ_CHECK(v == SP_ONDISK_ABSENT || v == SP_ONDISK_INTACT || (v == SP_ONDISK_DAMAGED && why[0]),
		   "verdict %d", v);
	if (v == SP_ONDISK_INTACT) {
		FUZZ_CHECK(l.sector < 4 && (l.sector + 1) * 512 <= len, "sector %u", l.sector);
		FUZZ_CHECK(l.pe_start_bytes % 512 == 0, "pe_start %" PRIu64, l.pe_start_bytes);
		FUZZ_CHECK(!l.device_bytes || l.pe_start_bytes < l.device_bytes, "pe_start %" PRIu64,
			   l.pe_start_bytes);
		FUZZ_CHECK(strlen(l.pv_uuid) <= SP_LVM_UUID_BYTES, "uuid");
	}
	return 0;
}
