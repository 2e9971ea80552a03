/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The installer snippets (kickstart %post, preseed late_command) around
 * values an attacker controls.  The input is NUL-separated fields:
 *
 *	CONTROLLER \0 DEVICE \0 KERNEL-NAME \0 MOUNTPOINT \0 STACK \0 KEY-FILE \0
 *	WORD \0 WORD ...
 *
 * STACK is --stack's text (the plan's layers; none when it does not
 * parse), KEY-FILE the --key-file path ("" none).  The words are
 * shell-quoted into the apply command as the CLI does.  Oracles:
 *  - a word is quoted unless it has a control character (or is too long);
 *    unquoting the result as sh does gives the word back;
 *  - a value with a control character, a command that starts with '%'
 *    (a kickstart section line), a key file with no LUKS2 layer, a LUKS2
 *    layer with no key file, or a key file that is not an absolute path
 *    gets no snippet at all;
 *  - otherwise the kickstart has exactly one %post line, ends with its
 *    only %end, and every other line is a comment, the key file's test
 *    (with a LUKS2 layer: before the command, naming the key file twice
 *    as sh reads it) or the command, whose words read back as sh would
 *    read them are exactly the input words;
 *  - the preseed is comments, the package line (stripeplan and each
 *    layer's package) and one late_command line (the key file's test
 *    through in-target, then the command through in-target), likewise.
 */
#include <errno.h>
#include <stdbool.h>

#include "format.h"
#include "fuzz.h"
#include "stripeplan.h"

#define MAX_WORDS 16U
#define COMMAND_MAX 8192U

/* sh's reading of one plain or single-quoted word (all sp_shell_quote
 * makes) at line, up to the next space or the end: where it ends. */
static const char *sh_word(const char *line, char word[SP_PATH_MAX])
{
	size_t o = 0;

	while (*line && *line != ' ') {
		if (*line == '\'') {
			const char *end = strchr(line + 1, '\'');

			FUZZ_CHECK(end, "unterminated quote in '%s'", line);
			FUZZ_CHECK(o + (size_t)(end - line - 1) < SP_PATH_MAX, "word too long");
			memcpy(word + o, line + 1, (size_t)(end - line - 1));
			o += (size_t)(end - line - 1);
			line = end + 1;
		} else if (*line == '\\') {
			FUZZ_CHECK(line[1], "trailing backslash");
			word[o++] = line[1];
			line += 2;
		} else {
			FUZZ_CHECK(!strchr("\"$`;&|<>()*?[#~\t{}", *line),
				   "unquoted shell character '%c'", *line);
			word[o++] = *line++;
		}
		FUZZ_CHECK(o < SP_PATH_MAX, "word too long");
	}
	word[o] = '\0';
	return line;
}

static size_t sh_words(const char *line, char words[][SP_PATH_MAX], size_t max)
{
	size_t n = 0;

	while (*line) {
		while (*line == ' ')
			line++;
		if (!*line)
			break;
		FUZZ_CHECK(n < max, "too many words");
		line = sh_word(line, words[n++]);
	}
	return n;
}

/* Skips text, which must be at *line. */
static const char *expect_text(const char *line, const char *text)
{
	FUZZ_CHECK(!strncmp(line, text, strlen(text)), "'%s' where '%s' was expected", line, text);
	return line + strlen(text);
}

/* The key file's test at line (prefix: "" or "in-target "): where it ends. */
static const char *check_key_test(const char *line, const char *prefix, const char *key)
{
	static char word[SP_PATH_MAX];

	line = expect_text(line, prefix);
	line = sh_word(expect_text(line, "test -f "), word);
	FUZZ_CHECK(!strcmp(word, key), "the test names '%s', not the key file '%s'", word, key);
	line = sh_word(expect_text(line, " || { echo stripeplan: the LUKS2 key file "), word);
	FUZZ_CHECK(!strcmp(word, key), "the message names '%s', not the key file '%s'", word, key);
	return expect_text(line, " is not there >&2; exit 1; }");
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

static void check_kickstart(const char *out, const char *key, char words[][SP_PATH_MAX],
			    size_t n_words)
{
	char *copy = strdup(out), *save = NULL;
	size_t posts = 0, ends = 0, commands = 0, tests = 0;
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
			if (key[0] && !tests && !commands) {
				FUZZ_CHECK(*check_key_test(l, "", key) == '\0', "more after the test: '%s'",
					   l);
				tests++;
				continue;
			}
			check_command(l, "", " --root /mnt/sysimage", words, n_words);
			commands++;
		}
	}
	FUZZ_CHECK(posts == 1 && ends == 1 && commands == 1, "%zu %%post, %zu %%end, %zu commands",
		   posts, ends, commands);
	FUZZ_CHECK(tests == (key[0] != '\0'), "%zu key file tests", tests);
	free(copy);
}

static void check_preseed(const char *out, const struct sp_plan *plan, const char *key,
			  char words[][SP_PATH_MAX], size_t n_words)
{
	char *copy = strdup(out), *save = NULL, packages[64] = "d-i pkgsel/include string stripeplan";
	size_t commands = 0, package_lines = 0;

	FUZZ_CHECK(copy, "out of memory");
	for (size_t i = 0; i < plan->n_layers; i++)
		strcat(packages, plan->layers[i] == SP_LAYER_LUKS ? " cryptsetup" : " lvm2");
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const char *command;

		if (l[0] == '#')
			continue;
		/* the package line (templates/preseed.in) carries no input */
		if (!strncmp(l, "d-i pkgsel/", 11)) {
			FUZZ_CHECK(!strcmp(l, packages), "package line '%s', not '%s'", l, packages);
			package_lines++;
			continue;
		}
		if (key[0]) {
			command = expect_text(l, "d-i preseed/late_command string ");
			command = expect_text(check_key_test(command, "in-target ", key), "; ");
			check_command(command, "in-target ", " --root /", words, n_words);
		} else {
			check_command(l, "d-i preseed/late_command string in-target ", " --root /",
				      words, n_words);
		}
		commands++;
		/* debconf would join a line that ends in a backslash with the next */
		FUZZ_CHECK(l[strlen(l) - 1] != '\\', "line ends in a backslash");
	}
	FUZZ_CHECK(commands == 1 && package_lines == 1, "%zu late_command lines, %zu package lines",
		   commands, package_lines);
	free(copy);
}

static char words[MAX_WORDS][SP_PATH_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sp_plan plan;
	static char key[SP_PATH_MAX];
	char *fields[6 + MAX_WORDS] = { 0 };
	char command[COMMAND_MAX], quoted[SP_PATH_MAX * 2];
	size_t n_fields = 0, n_words = 0, used = 0;
	bool bad = false, long_key;
	char *ks, *ps;
	int ks_errno, ps_errno;

	for (size_t at = 0; at < size && n_fields < 6 + MAX_WORDS; n_fields++) {
		fields[n_fields] = fuzz_strndup(data + at, size - at);
		FUZZ_CHECK(fields[n_fields], "out of memory");
		at += strlen(fields[n_fields]) + 1;
	}
	if (n_fields < 7)
		goto done;
	memset(&plan, 0, sizeof(plan));
	snprintf(plan.controller, sizeof(plan.controller), "%s", fields[0]);
	snprintf(plan.device.path, sizeof(plan.device.path), "%s", fields[1]);
	snprintf(plan.device.kernel_name, sizeof(plan.device.kernel_name), "%s", fields[2]);
	snprintf(plan.mountpoint, sizeof(plan.mountpoint), "%s", fields[3]);
	if (sp_parse_stack(fields[4], plan.layers, &plan.n_layers, NULL) < 0)
		plan.n_layers = 0;
	snprintf(key, sizeof(key), "%s", fields[5]);
	bad = sp_has_control_chars(plan.controller) || sp_has_control_chars(plan.device.path) ||
	      sp_has_control_chars(plan.device.kernel_name) || sp_has_control_chars(plan.mountpoint) ||
	      sp_has_control_chars(key);
	bad = bad || sp_plan_has_layer(&plan, SP_LAYER_LUKS) != (key[0] != '\0') ||
	      (key[0] && key[0] != '/');
	long_key = !bad && sp_shell_quote(key, quoted, sizeof(quoted)) < 0;
	command[0] = '\0';
	for (size_t i = 6; i < n_fields; i++) {
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
	errno = 0;
	ks = sp_format_kickstart(&plan, command, key);
	ks_errno = errno;
	errno = 0;
	ps = sp_format_preseed(&plan, command, key);
	ps_errno = errno;
	if (bad) {
		FUZZ_CHECK(!ks && !ps && ks_errno == EINVAL && ps_errno == EINVAL,
			   "a snippet with a control character in a value, or a key file with no "
			   "LUKS2 layer, no key file for one, or a relative one");
	} else if (long_key) {
		FUZZ_CHECK(!ks && !ps && ks_errno == ENAMETOOLONG && ps_errno == ENAMETOOLONG,
			   "a snippet with a key file too long to quote");
	} else {
		FUZZ_CHECK(ks && ps, "no snippet");
		check_kickstart(ks, key, words, n_words);
		check_preseed(ps, &plan, key, words, n_words);
	}
	free(ks);
	free(ps);
done:
	for (size_t i = 0; i < n_fields; i++)
		free(fields[i]);
	return 0;
}
