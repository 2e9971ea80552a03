/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * GPT headers and entry arrays (UEFI 2.x, 5.3), judged as the kernel's
 * block/partitions/efi.c is_gpt_valid() judges a copy before it uses it;
 * and the MBR, protective or not, for the partitions a msdos label
 * points at.  Little-endian throughout; the CRCs are CRC-32 (IEEE),
 * seeded ~0 and inverted.
 */
#include <inttypes.h>
#include <string.h>

#include "ondisk-internal.h"

/* the header */
enum {
	H_SIGNATURE = 0, H_REVISION = 8, H_HEADER_SIZE = 12, H_HEADER_CRC = 16, H_MY_LBA = 24,
	H_ALTERNATE_LBA = 32, H_FIRST_USABLE = 40, H_LAST_USABLE = 48, H_DISK_GUID = 56,
	H_ENTRIES_LBA = 72, H_N_ENTRIES = 80, H_ENTRY_SIZE = 84, H_ENTRIES_CRC = 88,
};
/* an entry */
enum { E_TYPE_GUID = 0, E_FIRST_LBA = 32, E_LAST_LBA = 40, E_GUID_BYTES = 16 };
/* the kernel reads 128-byte entries only (sizeof(gpt_entry)) */
#define ENTRY_BYTES 128U

#define MBR_SIGNATURE_AT 510U
#define MBR_ENTRIES_AT 446U
#define MBR_ENTRY_BYTES 16U
#define MBR_TYPE_GPT 0xeeU

#define CHECK(cond, ...)                                  \
	do {                                              \
		if (!(cond))                              \
			return damaged(why, why_len, __VA_ARGS__); \
	} while (0)

static uint32_t gpt_crc(const uint8_t *buf, size_t len)
{
	return ~sp_crc32_update(~0U, buf, len);
}

static void parse(const uint8_t *b, struct sp_gpt_header *h)
{
	memset(h, 0, sizeof(*h));
	h->revision = get_le32(b + H_REVISION);
	h->header_size = get_le32(b + H_HEADER_SIZE);
	h->header_crc_stored = get_le32(b + H_HEADER_CRC);
	h->my_lba = get_le64(b + H_MY_LBA);
	h->alternate_lba = get_le64(b + H_ALTERNATE_LBA);
	h->first_usable_lba = get_le64(b + H_FIRST_USABLE);
	h->last_usable_lba = get_le64(b + H_LAST_USABLE);
	memcpy(h->disk_guid, b + H_DISK_GUID, sizeof(h->disk_guid));
	h->entries_lba = get_le64(b + H_ENTRIES_LBA);
	h->n_entries = get_le32(b + H_N_ENTRIES);
	h->entry_bytes = get_le32(b + H_ENTRY_SIZE);
	h->entries_crc_stored = get_le32(b + H_ENTRIES_CRC);
}

static uint32_t header_crc(const uint8_t *sector, uint32_t header_size)
{
	static const uint8_t zero[4];
	uint32_t crc = sp_crc32_update(~0U, sector, H_HEADER_CRC);

	crc = sp_crc32_update(crc, zero, sizeof(zero));
	crc = sp_crc32_update(crc, sector + H_HEADER_CRC + 4, header_size - H_HEADER_CRC - 4);
	return ~crc;
}

size_t sp_gpt_entries_bytes(const struct sp_gpt_header *hdr)
{
	uint64_t bytes = (uint64_t)hdr->n_entries * hdr->entry_bytes;

	if (hdr->entry_bytes != ENTRY_BYTES || !hdr->n_entries || bytes > SP_GPT_ENTRIES_MAX_BYTES)
		return 0;
	return (size_t)bytes;
}

enum sp_ondisk_verdict sp_gpt_header_read(const uint8_t *sector, size_t sector_bytes,
					  uint64_t read_lba, uint64_t disk_sectors,
					  struct sp_gpt_header *ret, char *why, size_t why_len)
{
	struct sp_gpt_header h;
	uint64_t entries_sectors, last_lba = disk_sectors ? disk_sectors - 1 : 0;

	if (why && why_len)
		why[0] = '\0';
	if (sector_bytes < SP_GPT_HEADER_MIN_BYTES ||
	    memcmp(sector + H_SIGNATURE, SP_GPT_SIGNATURE, 8) != 0)
		return SP_ONDISK_ABSENT;
	parse(sector, &h);
	*ret = h;
	CHECK(h.header_size >= SP_GPT_HEADER_MIN_BYTES && h.header_size <= sector_bytes,
	      "header size %u is not %u to the %zu-byte sector", h.header_size,
	      SP_GPT_HEADER_MIN_BYTES, sector_bytes);
	ret->header_crc_computed = h.header_crc_computed = header_crc(sector, h.header_size);
	CHECK(h.header_crc_stored == h.header_crc_computed,
	      "header CRC is 0x%08x, its contents give 0x%08x", h.header_crc_stored,
	      h.header_crc_computed);
	CHECK(h.my_lba == read_lba, "it says it is at LBA %" PRIu64 ", it was read at LBA %" PRIu64,
	      h.my_lba, read_lba);
	CHECK(h.first_usable_lba <= h.last_usable_lba && h.last_usable_lba <= last_lba,
	      "usable LBAs %" PRIu64 "..%" PRIu64 " are not inside the disk's %" PRIu64 " sectors",
	      h.first_usable_lba, h.last_usable_lba, disk_sectors);
	CHECK(h.entry_bytes == ENTRY_BYTES, "%u-byte entries (the kernel reads %u-byte ones)",
	      h.entry_bytes, ENTRY_BYTES);
	CHECK(sp_gpt_entries_bytes(&h) > 0, "%u entries: none, or more than %u KiB of them",
	      h.n_entries, SP_GPT_ENTRIES_MAX_BYTES / 1024);
	entries_sectors = (sp_gpt_entries_bytes(&h) + sector_bytes - 1) / sector_bytes;
	CHECK(h.entries_lba > 0 && h.entries_lba <= last_lba &&
		      entries_sectors <= disk_sectors - h.entries_lba,
	      "its entry array (LBA %" PRIu64 ", %" PRIu64 " sectors) is not inside the disk",
	      h.entries_lba, entries_sectors);
	return SP_ONDISK_INTACT;
}

enum sp_ondisk_verdict sp_gpt_entries_check(const struct sp_gpt_header *hdr, const uint8_t *entries,
					    size_t len, char *why, size_t why_len)
{
	size_t bytes = sp_gpt_entries_bytes(hdr);
	uint32_t crc;

	if (why && why_len)
		why[0] = '\0';
	CHECK(bytes && len >= bytes, "its entry array could not be read whole (%zu of %zu bytes)",
	      len, bytes);
	crc = gpt_crc(entries, bytes);
	CHECK(crc == hdr->entries_crc_stored,
	      "entry array CRC is 0x%08x, its %u entries give 0x%08x", hdr->entries_crc_stored,
	      hdr->n_entries, crc);
	return SP_ONDISK_INTACT;
}

size_t sp_gpt_partitions(const struct sp_gpt_header *hdr, const uint8_t *entries, size_t len,
			 struct sp_gpt_partition *ret, size_t max)
{
	static const uint8_t unused[E_GUID_BYTES];
	size_t bytes = sp_gpt_entries_bytes(hdr), n = 0;

	if (!bytes || len < bytes)
		return 0;
	for (uint32_t i = 0; i < hdr->n_entries && n < max; i++) {
		const uint8_t *e = entries + (size_t)i * hdr->entry_bytes;

		if (!memcmp(e + E_TYPE_GUID, unused, sizeof(unused)))
			continue;
		ret[n].number = i + 1;
		ret[n].first_lba = get_le64(e + E_FIRST_LBA);
		ret[n].last_lba = get_le64(e + E_LAST_LBA);
		n++;
	}
	return n;
}

bool sp_mbr_read(const uint8_t *buf, size_t len, struct sp_mbr *mbr)
{
	if (len < 512 || buf[MBR_SIGNATURE_AT] != 0x55 || buf[MBR_SIGNATURE_AT + 1] != 0xaa)
		return false;
	memset(mbr, 0, sizeof(*mbr));
	for (unsigned i = 0; i < 4; i++) {
		const uint8_t *e = buf + MBR_ENTRIES_AT + i * MBR_ENTRY_BYTES;

		mbr->part[i].type = e[4];
		mbr->part[i].start_lba = get_le32(e + 8);
		mbr->part[i].n_sectors = get_le32(e + 12);
		if (!e[4])
			continue;
		mbr->n_partitions++;
		if (e[4] == MBR_TYPE_GPT)
			mbr->protective = true;
	}
	return true;
}
