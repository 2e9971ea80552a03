/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LUKS2 header, as cryptsetup's LUKS2_disk_hdr_read() and
 * LUKS2_hdr_validate() take it before they use a header: the magic and
 * version, a header size from the list of sizes LUKS2 has, the offset of
 * the copy equal to where it was read, the SHA-256 checksum over the
 * whole header with its checksum field zeroed, a NUL-terminated JSON area
 * that parses, and a data segment whose offset, sector size and size are
 * numbers in their bounds.  What it reads is untrusted: every field is
 * bounded before use, the JSON's depth is limited, and numbers (decimal
 * strings in LUKS2) are parsed strictly.
 */
#include <inttypes.h>
#include <string.h>

#include <json-c/json.h>

#include "ondisk-internal.h"

enum {
	B_MAGIC = 0, B_VERSION = 6, B_HDR_SIZE = 8, B_SEQID = 16, B_CSUM_ALG = 72, B_UUID = 168,
	B_HDR_OFFSET = 256, B_CSUM = 448,
};
#define MAGIC_BYTES 6U
#define CSUM_ALG_BYTES 32U
#define SHA256_BYTES 32U
#define CSUM_FIELD_BYTES 64U
/* json-c's own default is 32; a LUKS2 header nests 4 deep */
#define JSON_DEPTH 16

static const uint8_t primary_magic[MAGIC_BYTES] = { 'L', 'U', 'K', 'S', 0xba, 0xbe };

#define CHECK(cond, ...)                                           \
	do {                                                       \
		if (!(cond))                                       \
			return damaged(why, why_len, __VA_ARGS__); \
	} while (0)

/* LUKS2_HDR2_OFFSETS: the sizes a header may have */
static bool known_hdr_size(uint64_t bytes)
{
	for (uint64_t s = 16384; s <= SP_LUKS2_HDR_MAX_BYTES; s *= 2)
		if (bytes == s)
			return true;
	return false;
}

/* a LUKS2 number: a JSON string of decimal digits, at most 2^63 - 1 */
static bool json_u64(struct json_object *o, const char *key, uint64_t *ret)
{
	struct json_object *v;
	const char *s;
	uint64_t n = 0;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return false;
	s = json_object_get_string(v);
	if (!*s || strlen(s) > 19)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		n = n * 10 + (uint64_t)(*s - '0');
	}
	if (n > (uint64_t)INT64_MAX)
		return false;
	*ret = n;
	return true;
}

static bool checksum_ok(const uint8_t *buf, uint64_t hdr_bytes, uint8_t out[SHA256_BYTES])
{
	static const uint8_t zero[CSUM_FIELD_BYTES];
	struct sp_sha256 s;

	sp_sha256_init(&s);
	sp_sha256_update(&s, buf, B_CSUM);
	sp_sha256_update(&s, zero, sizeof(zero));
	sp_sha256_update(&s, buf + B_CSUM + CSUM_FIELD_BYTES,
			 (size_t)hdr_bytes - B_CSUM - CSUM_FIELD_BYTES);
	sp_sha256_final(&s, out);
	return !memcmp(out, buf + B_CSUM, SHA256_BYTES);
}

/* the segment with the lowest number: the data LUKS2_get_data_offset() names */
static struct json_object *data_segment(struct json_object *segments)
{
	struct json_object *best = NULL;
	uint64_t best_n = UINT64_MAX;

	json_object_object_foreach(segments, key, val) {
		uint64_t n = 0;
		const char *k = key;

		if (!*k || strlen(k) > 9)
			continue;
		for (; *k >= '0' && *k <= '9'; k++)
			n = n * 10 + (uint64_t)(*k - '0');
		if (*k || n >= best_n)
			continue;
		best_n = n;
		best = val;
	}
	return best;
}

static enum sp_ondisk_verdict read_segment(struct json_object *seg, uint64_t hdr_bytes,
					   struct sp_luks2_header *h, char *why, size_t why_len)
{
	struct json_object *v;
	int64_t sector;

	CHECK(json_object_is_type(seg, json_type_object), "the data segment is not an object");
	CHECK(json_u64(seg, "offset", &h->data_offset_bytes),
	      "the data segment's offset is not a number");
	CHECK(json_object_object_get_ex(seg, "size", &v) && json_object_is_type(v, json_type_string),
	      "the data segment's size is missing");
	h->size_dynamic = !strcmp(json_object_get_string(v), "dynamic");
	CHECK(h->size_dynamic || json_u64(seg, "size", &h->data_size_bytes),
	      "the data segment's size is neither 'dynamic' nor a number");
	if (json_object_object_get_ex(seg, "sector_size", &v)) {
		CHECK(json_object_is_type(v, json_type_int), "the data segment's sector_size is not a number");
		sector = json_object_get_int64(v);
		CHECK(sector == 512 || sector == 1024 || sector == 2048 || sector == 4096,
		      "the data segment's sector_size %" PRId64 " is not 512, 1024, 2048 or 4096",
		      sector);
		h->sector_bytes = (unsigned)sector;
	} else {
		h->sector_bytes = 512;
	}
	CHECK(h->data_offset_bytes % h->sector_bytes == 0,
	      "the data offset %" PRIu64 " is not whole %u-byte sectors", h->data_offset_bytes,
	      h->sector_bytes);
	CHECK(h->data_offset_bytes == 0 || h->data_offset_bytes >= 2 * hdr_bytes,
	      "the data offset %" PRIu64 " lies inside the two %" PRIu64 "-byte headers",
	      h->data_offset_bytes, hdr_bytes);
	if (json_object_object_get_ex(seg, "encryption", &v) &&
	    json_object_is_type(v, json_type_string))
		snprintf(h->encryption, sizeof(h->encryption), "%s", json_object_get_string(v));
	return SP_ONDISK_INTACT;
}

static enum sp_ondisk_verdict read_json(const uint8_t *area, size_t area_bytes, uint64_t hdr_bytes,
					struct sp_luks2_header *h, char *why, size_t why_len)
{
	const char *text = (const char *)area;
	size_t text_len = strnlen(text, area_bytes);
	struct json_tokener *tok;
	struct json_object *root, *segments = NULL, *config, *seg;
	enum sp_ondisk_verdict v;

	CHECK(text_len < area_bytes, "the JSON area has no terminating NUL");
	tok = json_tokener_new_ex(JSON_DEPTH);
	if (!tok)
		return damaged(why, why_len, "out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, (int)text_len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != text_len) {
		json_object_put(root);
		json_tokener_free(tok);
		return damaged(why, why_len, "the JSON area does not parse");
	}
	json_tokener_free(tok);
	v = SP_ONDISK_DAMAGED;
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "segments", &segments) ||
	    !json_object_is_type(segments, json_type_object)) {
		damaged(why, why_len, "the JSON has no segments");
	} else if (!(seg = data_segment(segments))) {
		damaged(why, why_len, "the JSON has no numbered segment");
	} else {
		v = read_segment(seg, hdr_bytes, h, why, why_len);
	}
	if (v == SP_ONDISK_INTACT && json_object_object_get_ex(root, "config", &config))
		json_u64(config, "keyslots_size", &h->keyslots_bytes);
	json_object_put(root);
	return v;
}

enum sp_ondisk_verdict sp_luks2_read(const uint8_t *buf, size_t len, struct sp_luks2_header *hdr,
				     char *why, size_t why_len)
{
	struct sp_luks2_header h = { 0 };
	uint8_t sum[SHA256_BYTES];
	char alg[CSUM_ALG_BYTES + 1];

	if (why && why_len)
		why[0] = 0;
	if (!buf || len < SP_LUKS2_BIN_BYTES || memcmp(buf + B_MAGIC, primary_magic, MAGIC_BYTES))
		return SP_ONDISK_ABSENT;
	h.version = get_be16(buf + B_VERSION);
	if (h.version != 2)
		return SP_ONDISK_ABSENT; /* LUKS1: a header of its own kind */
	h.hdr_bytes = get_be64(buf + B_HDR_SIZE);
	h.seqid = get_be64(buf + B_SEQID);
	h.hdr_offset = get_be64(buf + B_HDR_OFFSET);
	memcpy(h.uuid, buf + B_UUID, SP_LUKS2_UUID_MAX - 1);
	h.uuid[SP_LUKS2_UUID_MAX - 1] = 0;
	for (char *p = h.uuid; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
	CHECK(known_hdr_size(h.hdr_bytes),
	      "the header size %" PRIu64 " is none of LUKS2's (16 KiB to 4 MiB, powers of two)",
	      h.hdr_bytes);
	CHECK(h.hdr_offset == 0, "the primary header says it is at byte %" PRIu64 ", not 0",
	      h.hdr_offset);
	CHECK(len >= h.hdr_bytes, "the header is %" PRIu64 " bytes, only %zu were read",
	      h.hdr_bytes, len);
	memcpy(alg, buf + B_CSUM_ALG, CSUM_ALG_BYTES);
	alg[CSUM_ALG_BYTES] = 0;
	CHECK(!strcmp(alg, "sha256"), "the header's checksum is not sha256 (stripeplan reads no other)");
	CHECK(checksum_ok(buf, h.hdr_bytes, sum),
	      "the header's sha256 checksum does not match its contents");
	if (read_json(buf + SP_LUKS2_BIN_BYTES, (size_t)h.hdr_bytes - SP_LUKS2_BIN_BYTES,
		      h.hdr_bytes, &h, why, why_len) != SP_ONDISK_INTACT)
		return SP_ONDISK_DAMAGED;
	*hdr = h;
	return SP_ONDISK_INTACT;
}
