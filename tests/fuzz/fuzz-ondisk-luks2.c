/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LUKS2 header reader (planner/ondisk/luks2.c) on arbitrary bytes: a
 * device's first bytes, as check reads them.  A mutated header fails its
 * SHA-256 checksum, and the JSON would never be reached, so the first
 * input byte says whether to seal the rest first (compute the checksum
 * over the mutated header and store it, as a forger or a buggy tool
 * would).  Oracles: an intact header has a size from LUKS2's list, a data
 * offset of whole sectors past both header copies and a known sector
 * size; a damaged one says why; nothing is read past the input (ASan).
 */
#include <inttypes.h>

#include "fuzz.h"
#include "ondisk/ondisk.h"

#define CSUM_AT 448U

static void seal(uint8_t *buf, size_t len)
{
	uint64_t hdr = 0;
	struct sp_sha256 s;

	if (len < SP_LUKS2_BIN_BYTES)
		return;
	for (int i = 0; i < 8; i++)
		hdr = hdr << 8 | buf[8 + i];
	if (hdr < SP_LUKS2_BIN_BYTES || hdr > len)
		return;
	memset(buf + CSUM_AT, 0, 64);
	sp_sha256_init(&s);
	sp_sha256_update(&s, buf, (size_t)hdr);
	sp_sha256_final(&s, buf + CSUM_AT);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sp_luks2_header h;
	char why[SP_MSG_MAX];
	enum sp_ondisk_verdict v;
	uint8_t *buf;

	if (size < 1 || size > SP_LUKS2_HDR_MAX_BYTES + 1)
		return 0;
	buf = malloc(size - 1 ? size - 1 : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	if (data[0] & 1)
		seal(buf, size - 1);
	v = sp_luks2_read(buf, size - 1, &h, why, sizeof(why));
	FUZZ_CHECK_TERMINATED(why);
	FUZZ_CHECK(v == SP_ONDISK_ABSENT || v == SP_ONDISK_INTACT || (v == SP_ONDISK_DAMAGED && why[0]),
		   "verdict %d", v);
	if (v == SP_ONDISK_INTACT) {
		FUZZ_CHECK(h.hdr_bytes >= 16384 && h.hdr_bytes <= SP_LUKS2_HDR_MAX_BYTES &&
			   h.hdr_bytes <= size - 1, "header of %" PRIu64 " bytes", h.hdr_bytes);
		FUZZ_CHECK(h.sector_bytes == 512 || h.sector_bytes == 1024 || h.sector_bytes == 2048 ||
			   h.sector_bytes == 4096, "sector %u", h.sector_bytes);
		FUZZ_CHECK(h.data_offset_bytes % h.sector_bytes == 0, "offset %" PRIu64,
			   h.data_offset_bytes);
		FUZZ_CHECK(!h.data_offset_bytes || h.data_offset_bytes >= 2 * h.hdr_bytes,
			   "offset %" PRIu64 " inside the headers", h.data_offset_bytes);
		FUZZ_CHECK(strlen(h.uuid) < SP_LUKS2_UUID_MAX, "uuid");
	}
	free(buf);
	return 0;
}
