/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every string a formatter puts in JSON, as arbitrary bytes (a mount
 * point from an fstab, a serial number, mkfs's output).  The input, up to
 * its first NUL, becomes a string value and an array element, beside
 * nulls and another invalid string, in a tree that sp_json_to_text
 * prints.  Oracles:
 *  - a reference decoder written here (code points, not table 3-7's byte
 *    ranges) finds the whole text valid UTF-8;
 *  - json-c parses it back in strict mode with UTF-8 validation;
 *  - a valid string comes back unchanged, an invalid one as
 *    sp_utf8_escape's text, which decodes (\xNN -> byte) to the input.
 */
#include <stdbool.h>

#include <json-c/json.h>

#include "fuzz.h"
#include "json-out.h"
#include "base/utf8.h"

/* Decodes one character by value and judges it: shortest form, no
 * surrogate, at most U+10FFFF.  Returns its length, 0 when invalid. */
static size_t reference_char(const unsigned char *s, size_t len)
{
	static const uint32_t least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n = s[0] < 0x80 ? 1 : s[0] >> 5 == 0x6 ? 2 : s[0] >> 4 == 0xe ? 3 : s[0] >> 3 == 0x1e ? 4 : 0;
	uint32_t cp;

	if (!n || n > len)
		return 0;
	cp = n == 1 ? s[0] : s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < least[n] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

static bool reference_valid(const char *text)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t left = strlen(text), n;

	for (; left; p += n, left -= n)
		if (!(n = reference_char(p, left)))
			return false;
	return true;
}

/* the escape writes lowercase hex digits only */
static int hex_value(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* \xNN -> the byte; everything else as it is. */
static char *unescape(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;
	int hi, lo;

	FUZZ_CHECK(out, "out of memory");
	while (*s) {
		if (s[0] == '\\' && s[1] == 'x' && (hi = hex_value(s[2])) >= 0 &&
		    (lo = hex_value(s[3])) >= 0) {
			int v = hi * 16 + lo;

			FUZZ_CHECK(v >= 0x80 || v == '\\', "escape \\x%02x of a byte that is valid", v);
			*o++ = (char)v;
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

static const char *member(json_object *root, const char *key)
{
	json_object *v = NULL;

	FUZZ_CHECK(json_object_object_get_ex(root, key, &v), "no '%s'", key);
	return json_object_get_string(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *input = fuzz_strndup(data, size), *escaped, *text, *decoded;
	json_object *root = json_object_new_object(), *array = json_object_new_array(), *back;
	json_tokener *tok = json_tokener_new();
	bool valid;

	FUZZ_CHECK(input && root && array && tok, "out of memory");
	valid = sp_utf8_valid(input);
	FUZZ_CHECK(valid == reference_valid(input), "sp_utf8_valid says %d", valid);
	escaped = sp_utf8_escape(input);
	FUZZ_CHECK(escaped && reference_valid(escaped), "escaped text is not UTF-8");
	FUZZ_CHECK(strlen(escaped) <= 4 * strlen(input), "escape grew past 4x");
	decoded = unescape(escaped);
	FUZZ_CHECK(!strcmp(decoded, input), "\\xNN text does not decode to the input");

	/* nulls and nesting around the strings, as in a plan */
	json_object_object_add(root, "null", NULL);
	json_object_object_add(root, "s", json_object_new_string(input));
	json_object_array_add(array, NULL);
	json_object_array_add(array, json_object_new_string(input));
	json_object_array_add(array, json_object_new_string("\xff plain"));
	json_object_object_add(root, "a", array);
	text = sp_json_to_text(root); /* takes root */
	FUZZ_CHECK(text, "no text");
	FUZZ_CHECK(reference_valid(text), "the JSON text is not UTF-8:\n%s", text);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	back = json_tokener_parse_ex(tok, text, (int)strlen(text));
	FUZZ_CHECK(back && json_tokener_get_error(tok) == json_tokener_success,
		   "strict json-c refuses it: %s\n%s",
		   json_tokener_error_desc(json_tokener_get_error(tok)), text);
	FUZZ_CHECK(!strcmp(member(back, "s"), valid ? input : escaped), "'s' came back as '%s'",
		   member(back, "s"));
	FUZZ_CHECK(!strcmp(json_object_get_string(json_object_array_get_idx(
				   json_object_object_get(back, "a"), 1)),
			   valid ? input : escaped),
		   "the array element changed");

	json_object_put(back);
	json_tokener_free(tok);
	free(text);
	free(decoded);
	free(escaped);
	free(input);
	return 0;
}
