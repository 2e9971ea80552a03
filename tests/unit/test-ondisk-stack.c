/* The readers of what a stack's layers leave on a disk (planner/ondisk/
 * luks2.c, lvm.c, sha256.c) on headers cryptsetup 2.6.1 (luksFormat on a
 * file, the default offset and --offset 33024 --sector-size 4096) and
 * pvcreate 2.03.16 (on a loop device, by default and with
 * --dataalignment 192k) wrote (fixtures/ondisk/), and each check failing
 * with its own words when one field is damaged. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ondisk/ondisk.h"

#define MAX_FIXTURE (64U * 1024U)
#define CSUM_AT 448U

static size_t load(const char *name, uint8_t *buf)
{
	const char *dir = getenv("FIXTURES");
	char path[4096];
	size_t n;
	FILE *f;

	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/ondisk/%s", dir, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	n = fread(buf, 1, MAX_FIXTURE, f);
	fclose(f);
	return n;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static void sha256_hex(const char *msg, size_t repeat, char out[65])
{
	struct sp_sha256 s;
	uint8_t sum[32];

	sp_sha256_init(&s);
	for (size_t i = 0; i < repeat; i++)
		sp_sha256_update(&s, msg, strlen(msg));
	sp_sha256_final(&s, sum);
	hex(sum, sizeof(sum), out);
}

/* FIPS 180-2's examples */
static void test_sha256(void **state)
{
	char h[65];

	(void)state;
	sha256_hex("", 1, h);
	assert_string_equal(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha256_hex("abc", 1, h);
	assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1, h);
	assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	sha256_hex("a", 1000000, h);
	assert_string_equal(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* the header's checksum made right again after an edit */
static void reseal(uint8_t *buf, size_t hdr_bytes)
{
	struct sp_sha256 s;

	memset(buf + CSUM_AT, 0, 64);
	sp_sha256_init(&s);
	sp_sha256_update(&s, buf, hdr_bytes);
	sp_sha256_final(&s, buf + CSUM_AT);
}

/* replace the first `from` in the JSON area by `to` (same length) */
static void json_edit(uint8_t *buf, const char *from, const char *to)
{
	char *at = memmem(buf + 4096, 16384 - 4096, from, strlen(from));

	assert_non_null(at);
	assert_int_equal(strlen(from), strlen(to));
	for (size_t i = 0; to[i]; i++) /* bytes in place, not a string */
		at[i] = to[i];
}

static void expect_damaged(const uint8_t *buf, size_t len, const char *words)
{
	struct sp_luks2_header h;
	char why[SP_MSG_MAX];

	assert_int_equal(sp_luks2_read(buf, len, &h, why, sizeof(why)), SP_ONDISK_DAMAGED);
	if (!strstr(why, words))
		fail_msg("'%s' does not say '%s'", why, words);
}

static void test_luks2(void **state)
{
	uint8_t *buf = malloc(MAX_FIXTURE), *copy = malloc(MAX_FIXTURE);
	struct sp_luks2_header h;
	char why[SP_MSG_MAX];
	size_t n;

	(void)state;
	n = load("luks2-default.bin", buf);
	assert_int_equal(n, 16384);
	assert_int_equal(sp_luks2_read(buf, n, &h, why, sizeof(why)), SP_ONDISK_INTACT);
	assert_int_equal(h.hdr_bytes, 16384);
	/* cryptsetup's default: 16 MiB, 85.33 stripes of 192 KiB */
	assert_int_equal(h.data_offset_bytes, 16777216);
	assert_int_equal(h.keyslots_bytes, 16744448);
	assert_true(h.size_dynamic);
	assert_string_equal(h.encryption, "aes-xts-plain64");
	assert_int_equal(strlen(h.uuid), 36);
	n = load("luks2-offset.bin", buf);
	assert_int_equal(sp_luks2_read(buf, n, &h, why, sizeof(why)), SP_ONDISK_INTACT);
	assert_int_equal(h.data_offset_bytes, 33024ULL * 512);
	assert_int_equal(h.sector_bytes, 4096);

	/* what is not LUKS2 */
	memcpy(copy, buf, n);
	copy[0] = 'X';
	assert_int_equal(sp_luks2_read(copy, n, &h, why, sizeof(why)), SP_ONDISK_ABSENT);
	memcpy(copy, buf, n);
	copy[7] = 1; /* LUKS1 */
	assert_int_equal(sp_luks2_read(copy, n, &h, why, sizeof(why)), SP_ONDISK_ABSENT);
	assert_int_equal(sp_luks2_read(buf, 4095, &h, why, sizeof(why)), SP_ONDISK_ABSENT);
	/* each check */
	expect_damaged(buf, 8192, "only 8192 were read");
	memcpy(copy, buf, n);
	copy[4096 + 100] ^= 1;
	expect_damaged(copy, n, "sha256 checksum does not match");
	memcpy(copy, buf, n);
	copy[8 + 5] = 0x30; /* hdr_size 0x304000 */
	expect_damaged(copy, n, "is none of LUKS2's");
	memcpy(copy, buf, n);
	copy[256 + 7] = 1;
	reseal(copy, 16384);
	expect_damaged(copy, n, "says it is at byte 1, not 0");
	memcpy(copy, buf, n);
	json_edit(copy, "\"offset\":\"16908288\"", "\"offset\":\"16908289\"");
	reseal(copy, 16384);
	expect_damaged(copy, n, "is not whole 4096-byte sectors");
	memcpy(copy, buf, n);
	json_edit(copy, "\"offset\":\"16908288\"", "\"offset\":\"00004096\"");
	reseal(copy, 16384);
	expect_damaged(copy, n, "lies inside the two 16384-byte headers");
	memcpy(copy, buf, n);
	json_edit(copy, "\"offset\":\"16908288\"", "\"offset\":\"1690828x\"");
	reseal(copy, 16384);
	expect_damaged(copy, n, "offset is not a number");
	memcpy(copy, buf, n);
	json_edit(copy, "\"segments\"", "\"segmentz\"");
	reseal(copy, 16384);
	expect_damaged(copy, n, "has no segments");
	memcpy(copy, buf, n);
	json_edit(copy, "\"sector_size\":4096", "\"sector_size\":4097");
	reseal(copy, 16384);
	expect_damaged(copy, n, "sector_size 4097");
	memcpy(copy, buf, n);
	json_edit(copy, "{\"keyslots\"", "[\"keyslots\"");
	reseal(copy, 16384);
	expect_damaged(copy, n, "does not parse");
	memcpy(copy, buf, n);
	memset(copy + 4096, 'x', 16384 - 4096);
	reseal(copy, 16384);
	expect_damaged(copy, n, "no terminating NUL");
	free(buf);
	free(copy);
}

static void lvm_reseal(uint8_t *sector)
{
	uint32_t crc = sp_crc32_update(0xf597a6cfU, sector + 20, 512 - 20);

	for (int i = 0; i < 4; i++)
		sector[16 + i] = (uint8_t)(crc >> (8 * i));
}

static void expect_lvm_damaged(const uint8_t *buf, size_t len, const char *words)
{
	struct sp_lvm_label l;
	char why[SP_MSG_MAX];

	assert_int_equal(sp_lvm_label_read(buf, len, &l, why, sizeof(why)), SP_ONDISK_DAMAGED);
	if (!strstr(why, words))
		fail_msg("'%s' does not say '%s'", why, words);
}

static void test_lvm(void **state)
{
	uint8_t buf[4096], copy[4096];
	struct sp_lvm_label l;
	char why[SP_MSG_MAX];

	(void)state;
	assert_int_equal(load("pv-default.bin", buf), sizeof(buf));
	assert_int_equal(sp_lvm_label_read(buf, sizeof(buf), &l, why, sizeof(why)), SP_ONDISK_INTACT);
	assert_int_equal(l.sector, 1);
	assert_int_equal(l.pe_start_bytes, 1048576);
	assert_int_equal(l.device_bytes, 64ULL << 20);
	assert_int_equal(l.n_metadata_areas, 1);
	assert_int_equal(l.mda_offset_bytes, 4096);
	assert_int_equal(strlen(l.pv_uuid), 32);
	assert_int_equal(load("pv-192k.bin", buf), sizeof(buf));
	assert_int_equal(sp_lvm_label_read(buf, sizeof(buf), &l, why, sizeof(why)), SP_ONDISK_INTACT);
	/* pvcreate --dataalignment 192k: the first multiple past 1 MiB */
	assert_int_equal(l.pe_start_bytes, 6 * 192 * 1024);

	assert_int_equal(sp_lvm_label_read(buf, 1000, &l, why, sizeof(why)), SP_ONDISK_ABSENT);
	memcpy(copy, buf, sizeof(buf));
	copy[512] = 'X';
	assert_int_equal(sp_lvm_label_read(copy, sizeof(copy), &l, why, sizeof(why)), SP_ONDISK_ABSENT);
	memcpy(copy, buf, sizeof(buf));
	copy[512 + 0x48] ^= 1;
	expect_lvm_damaged(copy, sizeof(copy), "CRC does not match");
	memcpy(copy, buf, sizeof(buf));
	copy[512 + 8] = 2;
	lvm_reseal(copy + 512);
	expect_lvm_damaged(copy, sizeof(copy), "says it is in sector 2");
	memcpy(copy, buf, sizeof(buf));
	copy[512 + 0x48] = 1; /* pe_start + 1 */
	lvm_reseal(copy + 512);
	expect_lvm_damaged(copy, sizeof(copy), "is not whole 512-byte sectors");
	memcpy(copy, buf, sizeof(buf));
	copy[512 + 0x4b] = 0x10; /* pe_start 256 MiB + 1152 KiB, past 64 MiB */
	lvm_reseal(copy + 512);
	expect_lvm_damaged(copy, sizeof(copy), "lies past the PV's");
	memcpy(copy, buf, sizeof(buf));
	copy[512 + 0x48] = 0;
	copy[512 + 0x49] = 0;
	copy[512 + 0x4a] = 0;
	copy[512 + 0x4b] = 0; /* no data area at all */
	lvm_reseal(copy + 512);
	expect_lvm_damaged(copy, sizeof(copy), "has no data area");
	/* a PV header offset near 2^32: a 32-bit sum would wrap (fuzz-ondisk-lvm found it) */
	memcpy(copy, buf, sizeof(buf));
	copy[512 + 20] = 0xf0;
	copy[512 + 21] = copy[512 + 22] = copy[512 + 23] = 0xff;
	lvm_reseal(copy + 512);
	expect_lvm_damaged(copy, sizeof(copy), "is outside the label's sector");
	memcpy(copy, buf, sizeof(buf));
	memset(copy + 512 + 0x48, 0xff, 512 - 0x48); /* lists that never end */
	lvm_reseal(copy + 512);
	expect_lvm_damaged(copy, sizeof(copy), "does not end inside");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_luks2),
		cmocka_unit_test(test_lvm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
