/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An LVM2 physical volume's label, as lvm2's label_scan and
 * _text_read() take it: "LABELONE" in one of the first four 512-byte
 * sectors at the sector it names, its CRC, the type "LVM2 001", then the
 * PV header: the PV's UUID and size, a list of data areas and one of
 * metadata areas, each ended by a zero entry.  pe_start is the first
 * data area's offset; that is all check needs to judge where the extents
 * start, without the text metadata and without running lvm.
 */
#include <inttypes.h>
#include <string.h>

#include "ondisk-internal.h"

#define SECTOR_BYTES 512U
#define LABEL_SECTORS 4U
/* lvm2's INITIAL_CRC */
#define LVM_CRC_SEED 0xf597a6cfU

enum {
	L_ID = 0, L_SECTOR = 8, L_CRC = 16, L_OFFSET = 20, L_TYPE = 24, L_BYTES = 32,
	P_UUID = 0, P_DEVICE_SIZE = 32, P_AREAS = 40, AREA_BYTES = 16,
};

#define CHECK(cond, ...)                                           \
	do {                                                       \
		if (!(cond))                                       \
			return damaged(why, why_len, __VA_ARGS__); \
	} while (0)

/* one list of disk locations ending in {0, 0}, inside the sector */
static bool read_list(const uint8_t *s, size_t *at, unsigned *n, uint64_t *first_offset,
		      uint64_t *first_size)
{
	*n = 0;
	for (; *at + AREA_BYTES <= SECTOR_BYTES; *at += AREA_BYTES) {
		uint64_t offset = get_le64(s + *at), size = get_le64(s + *at + 8);

		if (!offset) {
			*at += AREA_BYTES;
			return true;
		}
		if (!*n) {
			*first_offset = offset;
			*first_size = size;
		}
		++*n;
	}
	return false;
}

static enum sp_ondisk_verdict read_header(const uint8_t *s, unsigned sector,
					  struct sp_lvm_label *l, char *why, size_t why_len)
{
	uint32_t offset = get_le32(s + L_OFFSET);
	uint64_t mda_end;
	unsigned n_data;
	uint64_t data_size = 0;
	size_t at;

	CHECK(get_le64(s + L_SECTOR) == sector,
	      "the LVM label in sector %u says it is in sector %" PRIu64, sector,
	      get_le64(s + L_SECTOR));
	CHECK(get_le32(s + L_CRC) == sp_crc32_update(LVM_CRC_SEED, s + L_OFFSET, SECTOR_BYTES - L_OFFSET),
	      "the LVM label's CRC does not match its sector");
	CHECK(!memcmp(s + L_TYPE, "LVM2 001", 8), "the label's type is not 'LVM2 001'");
	/* in 64 bits: a 32-bit sum wraps for an offset near 2^32 */
	CHECK(offset >= L_BYTES && (uint64_t)offset + P_AREAS <= SECTOR_BYTES,
	      "the PV header's offset %" PRIu32 " is outside the label's sector", offset);
	memcpy(l->pv_uuid, s + offset + P_UUID, SP_LVM_UUID_BYTES);
	l->pv_uuid[SP_LVM_UUID_BYTES] = 0;
	for (char *p = l->pv_uuid; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
	l->device_bytes = get_le64(s + offset + P_DEVICE_SIZE);
	at = offset + P_AREAS;
	CHECK(read_list(s, &at, &n_data, &l->pe_start_bytes, &data_size),
	      "the PV's data area list does not end inside the label's sector");
	CHECK(n_data >= 1, "the PV has no data area");
	CHECK(read_list(s, &at, &l->n_metadata_areas, &l->mda_offset_bytes, &l->mda_size_bytes),
	      "the PV's metadata area list does not end inside the label's sector");
	CHECK(l->pe_start_bytes % SECTOR_BYTES == 0,
	      "pe_start %" PRIu64 " is not whole 512-byte sectors", l->pe_start_bytes);
	CHECK(!l->device_bytes || l->pe_start_bytes < l->device_bytes,
	      "pe_start %" PRIu64 " lies past the PV's %" PRIu64 " bytes", l->pe_start_bytes,
	      l->device_bytes);
	mda_end = l->mda_offset_bytes + l->mda_size_bytes;
	CHECK(!l->n_metadata_areas || mda_end < l->mda_offset_bytes ||
	      l->mda_offset_bytes >= l->pe_start_bytes || mda_end <= l->pe_start_bytes,
	      "the first metadata area (%" PRIu64 " bytes at %" PRIu64 ") runs into pe_start %"
	      PRIu64, l->mda_size_bytes, l->mda_offset_bytes, l->pe_start_bytes);
	return SP_ONDISK_INTACT;
}

enum sp_ondisk_verdict sp_lvm_label_read(const uint8_t *buf, size_t len, struct sp_lvm_label *label,
					 char *why, size_t why_len)
{
	if (why && why_len)
		why[0] = 0;
	for (unsigned sector = 0; buf && sector < LABEL_SECTORS; sector++) {
		const uint8_t *s = buf + (size_t)sector * SECTOR_BYTES;
		struct sp_lvm_label l = { 0 };
		enum sp_ondisk_verdict v;

		if ((size_t)(sector + 1) * SECTOR_BYTES > len)
			break;
		if (memcmp(s + L_ID, "LABELONE", 8))
			continue;
		l.sector = sector;
		v = read_header(s, sector, &l, why, why_len);
		if (v == SP_ONDISK_INTACT)
			*label = l;
		return v;
	}
	return SP_ONDISK_ABSENT;
}
