/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The installer snippets (kickstart %post, preseed late_command) around
 * values an attacker controls.  The input is NUL-separated fields:
 *
 *	CONTROLLER \0 DEVICE \0 KERNEL-NAME \0 MOUNTPOINT \0 WORD \0 WORD ...
 *
 * The words are shell-quoted into the apply command as the CLI does.
 * Oracles:
 *  - a word is quoted unless it has a control character (or is too long);
 *    unquoting the result as sh does gives the word back;
 *  - a value with a control character, or a command that starts with '%'
 *    (a kickstart section line), gets no snippet at all;
 *  - otherwise the kickstart has exactly one %post line, ends with its
 *    only %end, and every other line is a comment or the command, whose
 *    words read back as sh would read them are exactly the input words;
 *  - the preseed is comments, the package line and one late_command line
 *    (run through in-target), likewise.
 */
#include <errno.h>
#include <stdbool.h>

#include "format.h"
#include "fuzz.h"
#include "stripeplan.h"

#define MAX_WORDS 16U
#define COMMAND_MAX 8192U

/* sh's reading of plain and single-quoted words (all sp_shell_quote makes). */
static size_t sh_words(const char *line, char words[][SP_PATH_MAX], size_t max)
{
	size_t n = 0;

	while (*line) {
		size_t o = 0;

		while (*line == ' ')
			line++;
		if (!*line)
			break;
		FUZZ_CHECK(n < max, "too many words");
		while (*line && *line != ' ') {
			if (*line == '\'') {
				const char *end = strchr(line + 1, '\'');

				FUZZ_CHECK(end, "unterminated quote in '%s'", line);
				FUZZ_CHECK(o + (size_t)(end - line - 1) < SP_PATH_MAX, "word too long");
				memcpy(words[n] + o, line + 1, (size_t)(end - line - 1));
				o += (size_t)(end - line - 1);
				line = end + 1;
			} else if (*line == '\\') {
				FUZZ_CHECK(line[1], "trailing backslash");
				words[n][o++] = line[1];
				line += 2;
			} else {
				FUZZ_CHECK(!strchr("\"$`;&|<>()*?[#~\t", *line),
					   "unquoted shell character '%c'", *line);
				words[n][o++] = *line++;
			}
			FUZZ_CHECK(o < SP_PATH_MAX, "word too long");
		}
		words[n++][o] = '\0';
	}
	return n;
}

static char words_back[MAX_WORDS + 4][SP_PATH_MAX];

static void check_command(const char *line, const char *prefix, const char *suffix,
			  char words[][SP_PATH_MAX], size_t n_words)
{
	size_t pl = strlen(prefix), sl = strlen(suffix), ll = strlen(line), n;
	char body[COMMAND_MAX + 64];

	FUZZ_CHECK(ll >= pl + sl && !strncmp(line, prefix, pl) && !strcmp(line + ll - sl, suffix),
		   "command line '%s'", line);
	snprintf(body, sizeof(body), "%.*s", (int)(ll - pl - sl), line + pl);
	n = sh_words(body, words_back, MAX_WORDS + 4);
	FUZZ_CHECK(n == n_words, "%zu words read back, %zu given: '%s'", n, n_words, body);
	for (size_t i = 0; i < n; i++)
		FUZZ_CHECK(!strcmp(words_back[i], words[i]), "word %zu '%s' reads back as '%s'", i,
			   words[i], words_back[i]);
}

static void check_kickstart(const char *out, char words[][SP_PATH_MAX], size_t n_words)
{
	char *copy = strdup(out), *save = NULL;
	size_t posts = 0, ends = 0, commands = 0;
	bool after_end = false;

	FUZZ_CHECK(copy, "out of memory");
	FUZZ_CHECK(out[strlen(out) - 1] == '\n', "no final newline");
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		FUZZ_CHECK(!after_end, "a line after %%end: '%s'", l);
		if (!strncmp(l, "%post ", 6)) {
			posts++;
		} else if (!strcmp(l, "%end")) {
			ends++;
			after_end = true;
		} else if (l[0] != '#') {
			FUZZ_CHECK(posts == 1 && l[0] != '%', "stray line '%s'", l);
			check_command(l, "", " --root /mnt/sysimage", words, n_words);
			commands++;
		}
	}
	FUZZ_CHECK(posts == 1 && ends == 1 && commands == 1, "%zu %%post, %zu %%end, %zu commands",
		   posts, ends, commands);
	free(copy);
}

static void check_preseed(const char *out, char words[][SP_PATH_MAX], size_t n_words)
{
	char *copy = strdup(out), *save = NULL;
	size_t commands = 0;

	FUZZ_CHECK(copy, "out of memory");
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		/* the package line (templates/preseed.in) carries no input */
		if (l[0] == '#' || !strcmp(l, "d-i pkgsel/include string stripeplan"))
			continue;
		check_command(l, "d-i preseed/late_command string in-target ", " --root /", words,
			      n_words);
		commands++;
		/* debconf would join a line that ends in a backslash with the next */
		FUZZ_CHECK(l[strlen(l) - 1] != '\\', "line ends in a backslash");
	}
	FUZZ_CHECK(commands == 1, "%zu late_command lines", commands);
	free(copy);
}

static char words[MAX_WORDS][SP_PATH_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sp_plan plan;
	char *fields[4 + MAX_WORDS] = { 0 };
	char command[COMMAND_MAX], quoted[SP_PATH_MAX * 2];
	size_t n_fields = 0, n_words = 0, used = 0;
	bool bad = false;
	char *ks, *ps;

	for (size_t at = 0; at < size && n_fields < 4 + MAX_WORDS; n_fields++) {
		fields[n_fields] = fuzz_strndup(data + at, size - at);
		FUZZ_CHECK(fields[n_fields], "out of memory");
		at += strlen(fields[n_fields]) + 1;
	}
	if (n_fields < 5)
		goto done;
	memset(&plan, 0, sizeof(plan));
	snprintf(plan.controller, sizeof(plan.controller), "%s", fields[0]);
	snprintf(plan.device.path, sizeof(plan.device.path), "%s", fields[1]);
	snprintf(plan.device.kernel_name, sizeof(plan.device.kernel_name), "%s", fields[2]);
	snprintf(plan.mountpoint, sizeof(plan.mountpoint), "%s", fields[3]);
	bad = sp_has_control_chars(plan.controller) || sp_has_control_chars(plan.device.path) ||
	      sp_has_control_chars(plan.device.kernel_name) || sp_has_control_chars(plan.mountpoint);
	command[0] = '\0';
	for (size_t i = 4; i < n_fields; i++) {
		int r = sp_shell_quote(fields[i], quoted, sizeof(quoted));

		if (sp_has_control_chars(fields[i])) {
			FUZZ_CHECK(r == -EINVAL, "'%s' with a control character quoted (%d)",
				   fields[i], r);
			continue;
		}
		if (r < 0 || strlen(fields[i]) >= SP_PATH_MAX || used + strlen(quoted) + 2 >= sizeof(command))
			continue;
		used += (size_t)snprintf(command + used, sizeof(command) - used, "%s%s",
					 used ? " " : "", quoted);
		snprintf(words[n_words++], SP_PATH_MAX, "%s", fields[i]);
	}
	if (!n_words)
		goto done;
	bad = bad || command[0] == '%';
	ks = sp_format_kickstart(&plan, command);
	ps = sp_format_preseed(&plan, command);
	if (bad) {
		FUZZ_CHECK(!ks && !ps, "a snippet with a control character in a value");
	} else {
		FUZZ_CHECK(ks && ps, "no snippet");
		check_kickstart(ks, words, n_words);
		check_preseed(ps, words, n_words);
	}
	free(ks);
	free(ps);
done:
	for (size_t i = 0; i < n_fields; i++)
		free(fields[i]);
	return 0;
}
