/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The GPT and MBR readers (planner/ondisk/gpt.c) on arbitrary bytes.  The
 * input is a disk's first sectors as the scan reads them: sector 0 (MBR),
 * sector 1 (the header), then the entry array from LBA 2; the disk's size
 * in sectors comes from the first bytes of the MBR's boot code, so the
 * fuzzer can move the end.  Oracles: an intact header sits where it was
 * read, inside the disk, with 128-byte entries of a bounded array; an
 * intact array has the CRC the header stores; every partition listed is
 * a used entry of it; nothing is read past the input (ASan).
 */
#include <inttypes.h>

#include "fuzz.h"
#include "ondisk/ondisk.h"

#define SECTOR 512U

static void fuzz_entries(const struct sp_gpt_header *h, const uint8_t *entries, size_t len)
{
	struct sp_gpt_partition parts[SP_GPT_MAX_PARTITIONS];
	char why[SP_MSG_MAX];
	enum sp_ondisk_verdict v = sp_gpt_entries_check(h, entries, len, why, sizeof(why));
	size_t n = sp_gpt_partitions(h, entries, len, parts, SP_GPT_MAX_PARTITIONS);

	FUZZ_CHECK(v == SP_ONDISK_INTACT || (v == SP_ONDISK_DAMAGED && why[0]), "verdict %d", v);
	FUZZ_CHECK(n <= h->n_entries && n <= SP_GPT_MAX_PARTITIONS, "%zu partitions of %u", n,
		   h->n_entries);
	for (size_t i = 0; i < n; i++)
		FUZZ_CHECK(parts[i].number >= 1 && parts[i].number <= h->n_entries, "number %u",
			   parts[i].number);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sp_gpt_header h;
	struct sp_mbr mbr;
	char why[SP_MSG_MAX];
	uint64_t disk = 0;
	enum sp_ondisk_verdict v;

	if (sp_mbr_read(data, size, &mbr))
		FUZZ_CHECK(mbr.n_partitions <= 4, "%u MBR partitions", mbr.n_partitions);
	if (size < 2 * SECTOR)
		return 0;
	memcpy(&disk, data, 4); /* boot code: the disk's sectors */
	v = sp_gpt_header_read(data + SECTOR, SECTOR, 1, disk, &h, why, sizeof(why));
	FUZZ_CHECK_TERMINATED(why);
	if (v == SP_ONDISK_ABSENT)
		return 0;
	FUZZ_CHECK(v == SP_ONDISK_INTACT || (v == SP_ONDISK_DAMAGED && why[0]), "verdict %d", v);
	if (v == SP_ONDISK_INTACT) {
		FUZZ_CHECK(h.my_lba == 1 && h.last_usable_lba < disk, "LBA %" PRIu64 "..%" PRIu64
			   " of %" PRIu64, h.my_lba, h.last_usable_lba, disk);
		FUZZ_CHECK(sp_gpt_entries_bytes(&h) > 0 &&
				   sp_gpt_entries_bytes(&h) <= SP_GPT_ENTRIES_MAX_BYTES,
			   "%zu-byte array", sp_gpt_entries_bytes(&h));
	}
	fuzz_entries(&h, data + 2 * SECTOR, size - 2 * SECTOR);
	return 0;
}
