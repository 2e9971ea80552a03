/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The known name nearest to a mistyped one, for "did you mean": the
 * optimal string alignment distance (Levenshtein plus one swap of two
 * neighbours, the commonest typo: --chnuk), as git's help.autocorrect
 * and systemctl's verb suggestions weigh it.
 */
#include <string.h>

#include "cli.h"

/* Longer words are no option or command of ours: nothing to suggest. */
#define WORD_MAX 32

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

static size_t distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t d[WORD_MAX + 1][WORD_MAX + 1];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];

			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[la][lb];
}

const char *sp_cli_nearest(const char *word, size_t word_len, const char *const *names,
			   size_t n_names)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX, unique = 0;

	if (word_len == 0 || word_len > WORD_MAX)
		return NULL;
	for (size_t i = 0; i < n_names; i++) {
		size_t len = strlen(names[i]), d;

		if (len > WORD_MAX)
			continue;
		d = distance(word, word_len, names[i], len);
		if (d < best_d) {
			best = names[i];
			best_d = d;
			unique = 1;
		} else if (d == best_d) {
			unique++;
		}
	}
	/* two edits at most, and fewer than the word has letters left
	 * ('--x' is near nothing); a tie names no one */
	if (!best || unique != 1 || best_d > 2 || best_d * 2 >= word_len)
		return NULL;
	return best;
}
