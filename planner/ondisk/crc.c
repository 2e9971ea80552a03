/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CRC-32C and CRC-32, reflected, four bits at a time: a 16-entry table
 * per polynomial is small enough to read and check by eye, and the
 * buffers judged here are a few KiB (a superblock sector, a GPT entry
 * array), so speed does not matter.  Known answers (the check value of
 * "123456789"): ~crc32c(~0) 0xe3069283, ~crc32(~0) 0xcbf43926, tested in
 * tests/unit/test-ondisk.c.
 */
#include "ondisk.h"

/* entry i: i shifted through four rounds of the reflected polynomial */
static const uint32_t crc32c_nibble[16] = {
	0x00000000, 0x105ec76f, 0x20bd8ede, 0x30e349b1, 0x417b1dbc, 0x5125dad3,
	0x61c69362, 0x7198540d, 0x82f63b78, 0x92a8fc17, 0xa24bb5a6, 0xb21572c9,
	0xc38d26c4, 0xd3d3e1ab, 0xe330a81a, 0xf36e6f75,
};

static const uint32_t crc32_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
	0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

static uint32_t crc_update(const uint32_t table[16], uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		crc = (crc >> 4) ^ table[crc & 0xf];
		crc = (crc >> 4) ^ table[crc & 0xf];
	}
	return crc;
}

uint32_t sp_crc32c_update(uint32_t crc, const void *buf, size_t len)
{
	return crc_update(crc32c_nibble, crc, buf, len);
}

uint32_t sp_crc32_update(uint32_t crc, const void *buf, size_t len)
{
	return crc_update(crc32_nibble, crc, buf, len);
}
