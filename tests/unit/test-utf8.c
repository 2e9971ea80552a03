/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Strict UTF-8 (what Python's json, jq and Go accept) and the \xNN
 * escaping of strings that are not: each edge of Unicode's table 3-7,
 * and escaped text that reads back to the same bytes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/utf8.h"
#include "schema/json-utf8.h"

static void test_valid(void **state)
{
	static const char *const good[] = {
		"", "/data", "\xc3\xa9t\xc3\xa9",       /* été */
		"\xc2\x80", "\xdf\xbf",                  /* U+0080, U+07FF */
		"\xe0\xa0\x80", "\xed\x9f\xbf",          /* U+0800, U+D7FF */
		"\xee\x80\x80", "\xef\xbf\xbf",          /* U+E000, U+FFFF */
		"\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf",  /* U+10000, U+10FFFF */
		"a\\xff",                                /* text that looks like an escape */
	};
	static const char *const bad[] = {
		"\xff", "\xfe", "\x80", "/data\xbf",      /* never a first byte */
		"\xc0\x80", "\xc1\xbf",                  /* overlong 2-byte */
		"\xe0\x80\x80", "\xe0\x9f\xbf",          /* overlong 3-byte */
		"\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf",  /* overlong 4-byte */
		"\xed\xa0\x80", "\xed\xbf\xbf",          /* surrogates */
		"\xf4\x90\x80\x80", "\xf5\x80\x80\x80",  /* above U+10FFFF */
		"\xc3", "\xe2\x82", "\xf0\x9f\x98",      /* cut short */
		"\xc3(", "\xe2\x28\xa1",                 /* continuation missing */
		"latin-1 \xe9t\xe9",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(sp_utf8_valid(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(sp_utf8_valid(bad[i]));
}

static void test_char_len(void **state)
{
	(void)state;
	assert_int_equal(sp_utf8_char_len((const unsigned char *)"a", 1), 1);
	assert_int_equal(sp_utf8_char_len((const unsigned char *)"\xc3\xa9", 2), 2);
	/* never reads past len, even when the next byte would complete it */
	assert_int_equal(sp_utf8_char_len((const unsigned char *)"\xc3\xa9", 1), 0);
	assert_int_equal(sp_utf8_char_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
	assert_int_equal(sp_utf8_char_len((const unsigned char *)"\xf0\x9f\x98\x80", 3), 0);
	assert_int_equal(sp_utf8_char_len((const unsigned char *)"", 0), 0);
}

static void expect_escape(const char *in, const char *want)
{
	char *out = sp_utf8_escape(in);

	assert_non_null(out);
	assert_string_equal(out, want);
	assert_true(sp_utf8_valid(out));
	assert_true(strlen(out) <= 4 * strlen(in));
	free(out);
}

static void test_escape(void **state)
{
	(void)state;
	expect_escape("/data\xff", "/data\\xff");
	expect_escape("latin-1 \xe9t\xe9", "latin-1 \\xe9t\\xe9");
	/* valid characters beside invalid bytes stay as they are */
	expect_escape("\xc3\xa9\xc3", "\xc3\xa9\\xc3");
	/* each byte of an overlong form or a surrogate on its own */
	expect_escape("\xc0\x80", "\\xc0\\x80");
	expect_escape("\xed\xa0\x80", "\\xed\\xa0\\x80");
	/* a backslash before 'x' cannot pass for an escape: \x5c */
	expect_escape("\\xff\xff", "\\x5cxff\\xff");
	expect_escape("a\\b\\", "a\\b\\");
	expect_escape("", "");
}

static json_object *parse(const char *text)
{
	json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	return o;
}

/* Input JSON: every key and string must be UTF-8 (json-c itself lets an
 * overlong form through); output JSON: strings that are not get escaped. */
static void test_json_trees(void **state)
{
	struct sp_error err = { 0 };
	json_object *o;

	(void)state;
	o = parse("{\"a\": [null, 1, {\"b\": \"\xc3\xa9t\xc3\xa9\"}], \"c\": null}");
	assert_int_equal(sp_json_require_utf8(o, "plan", &err), 0);
	json_object_put(o);

	o = parse("{\"a\": [null, {\"b\": \"x\xc0\x80\"}], \"c\": \"\xff\"}");
	assert_int_equal(sp_json_require_utf8(o, "plan", &err), -EILSEQ);
	assert_int_equal(err.kind, SP_ERR_INVALID);
	assert_non_null(strstr(err.message, "is not valid UTF-8"));
	assert_true(sp_json_escape_utf8(o));
	assert_string_equal(json_object_get_string(json_object_object_get(o, "c")), "\\xff");
	assert_string_equal(json_object_get_string(json_object_object_get(
				    json_object_array_get_idx(json_object_object_get(o, "a"), 1), "b")),
			    "x\\xc0\\x80");
	assert_int_equal(sp_json_require_utf8(o, "plan", &err), 0);
	json_object_put(o);

	o = parse("{\"k\xff\": 1}");
	assert_int_equal(sp_json_require_utf8(o, "facts.json", &err), -EILSEQ);
	assert_string_equal(err.message, "facts.json: 'k\\xff' is not valid UTF-8 (shown with "
					 "\\xNN for each byte that is not); JSON input must be UTF-8");
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_char_len),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_json_trees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
