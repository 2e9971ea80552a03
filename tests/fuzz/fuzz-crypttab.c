/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sp_crypttab_merge on arbitrary text (an untrusted <root>/etc/crypttab):
 * the result has exactly one line naming the volume, the planned one;
 * every other line is the input's, in order; and merging the result again
 * changes nothing and finds the one line.
 */
#include "fuzz.h"

#include "base/error.h"
#include "fstab/crypttab.h"

#define NAME "md5_crypt"
#define LINE NAME " UUID=2d97a0c3-ad07-4b3a-9972-bde87aa9b61b none luks"

/* Whether [q, stop) names the volume, as crypttab(5) reads a line: its
 * first field (after blanks) is NAME; said here again, apart from the
 * merge's own reading. */
static bool names_volume(const char *q, const char *stop)
{
	const char *field;

	while (q < stop && (*q == ' ' || *q == '\t'))
		q++;
	if ((size_t)(stop - q) > SP_CRYPTTAB_LINE_MAX)
		return false;
	for (field = q; field < stop && *field != ' ' && *field != '\t' && *field != '\r'; field++)
		;
	return (size_t)(field - q) == strlen(NAME) && !memcmp(q, NAME, strlen(NAME));
}

/* The input's lines that do not name the volume, each ended by '\n'. */
static char *others(const char *text)
{
	size_t len = strlen(text), n = 0;
	char *out = malloc(len + 2);
	const char *p = text, *end = text + len;

	FUZZ_CHECK(out, "out of memory");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *stop = nl ? nl : end;

		if (!names_volume(p, stop)) {
			memcpy(out + n, p, (size_t)(stop - p));
			n += (size_t)(stop - p);
			out[n++] = '\n';
		}
		p = nl ? nl + 1 : end;
	}
	out[n] = '\0';
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sp_error err = { 0 };
	char *text = fuzz_strndup(data, size), *out = NULL, *again = NULL, *a, *b;
	size_t found = 0, found2 = 0;
	char old[256];

	if (!text)
		return 0;
	if (sp_crypttab_merge(text, NAME, LINE, &out, &found, old, sizeof(old), &err) < 0) {
		FUZZ_CHECK(err.code && err.message[0], "a refusal without a message");
		free(text);
		return 0;
	}
	a = others(text);
	b = others(out);
	FUZZ_CHECK(!strcmp(a, b), "lines other than the volume's changed:\n%s\n--\n%s", a, b);
	FUZZ_CHECK(strstr(out, LINE "\n"), "the planned line is missing");
	FUZZ_CHECK(sp_crypttab_merge(out, NAME, LINE, &again, &found2, NULL, 0, &err) == 0,
		   "the merged text is refused: %s", err.message);
	FUZZ_CHECK(found2 == 1, "%zu lines name the volume after the merge", found2);
	FUZZ_CHECK(!strcmp(out, again), "a second merge changed the text");
	free(a);
	free(b);
	free(again);
	free(out);
	free(text);
	return 0;
}
