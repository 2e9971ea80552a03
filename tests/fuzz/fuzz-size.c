/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sp_parse_size and sp_parse_count on arbitrary text (--chunk, --size,
 * --disks, profile values).  Oracles: a parsed size survives
 * sp_format_size(SP_SIZE_SHORT) -> sp_parse_size unchanged; a parsed count is in
 * its bounds and equals strtoull's reading; a refusal fills the error.
 */
#include <errno.h>
#include <inttypes.h>

#include "fuzz.h"
#include "stripeplan.h"

static void check_refusal(int r, const struct sp_error *err, const char *field)
{
	FUZZ_CHECK(r < 0, "r = %d", r);
	FUZZ_CHECK(err->code == r, "code %d, r %d", err->code, r);
	FUZZ_CHECK(err->kind == SP_ERR_INVALID, "exit %d", err->kind);
	FUZZ_CHECK(!strncmp(err->message, field, strlen(field)) && err->message[strlen(field)] == ':',
		   "message '%s' does not start with '%s:'", err->message, field);
	FUZZ_CHECK(err->message[0] != '\0', "empty message");
	FUZZ_CHECK_TERMINATED(err->message);
}

static void fuzz_size(const char *text)
{
	struct sp_error err = { 0 };
	uint64_t bytes = 0xdeadbeef, again = 0;
	char buf[64];
	int r;

	r = sp_parse_size(text, "chunk", &bytes, &err);
	if (r < 0) {
		check_refusal(r, &err, "chunk");
		FUZZ_CHECK(bytes == 0xdeadbeef, "out-parameter written on failure");
		return;
	}
	sp_format_size(bytes, SP_SIZE_SHORT, buf, sizeof(buf));
	r = sp_parse_size(buf, "chunk", &again, &err);
	FUZZ_CHECK(r == 0 && again == bytes, "'%s' -> %" PRIu64 " -> '%s' -> %" PRIu64 " (r %d)",
		   text, bytes, buf, again, r);
	sp_format_size(bytes, SP_SIZE_HUMAN, buf, sizeof(buf));
	FUZZ_CHECK(buf[0] >= '0' && buf[0] <= '9', "human size '%s'", buf);
}

static void fuzz_count(const char *text, uint64_t min, uint64_t max)
{
	struct sp_error err = { 0 };
	uint64_t value = 0xdeadbeef;
	int r = sp_parse_count(text, "disks", min, max, &value, &err);

	if (r < 0) {
		check_refusal(r, &err, "disks");
		FUZZ_CHECK(value == 0xdeadbeef, "out-parameter written on failure");
		return;
	}
	FUZZ_CHECK(value >= min && value <= max, "%" PRIu64 " outside %" PRIu64 "..%" PRIu64,
		   value, min, max);
	/* only digits were accepted, so strtoull must read the same number */
	FUZZ_CHECK(text[0] >= '0' && text[0] <= '9', "'%s' accepted", text);
	errno = 0;
	FUZZ_CHECK(strtoull(text, NULL, 10) == value && errno == 0, "'%s' read as %" PRIu64, text,
		   value);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);

	if (!text)
		return 0;
	fuzz_size(text);
	fuzz_count(text, 0, UINT64_MAX);
	fuzz_count(text, 2, SP_MAX_DISKS);
	free(text);
	return 0;
}
