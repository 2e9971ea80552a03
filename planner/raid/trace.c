/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bench's trace text: one block request event a line, already reduced
 * from tracefs by bench/lib/trace.bash, so this parser stays strict and
 * small.  Anything unexpected is an error with its line number: a trace
 * that half-parses would give figures that look right and are not.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "base/error.h"
#include "model.h"

#define LINE_MAX_BYTES 256

/* Reads a decimal field; *p is advanced past it and the blanks after it. */
static bool read_u64(const char **p, uint64_t max, uint64_t *ret)
{
	const char *s = *p;
	uint64_t v = 0;

	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s)) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (max - d) / 10)
			return false;
		v = v * 10 + d;
		s++;
	}
	if (*s && !isspace((unsigned char)*s))
		return false;
	while (*s && isspace((unsigned char)*s))
		s++;
	*p = s;
	*ret = v;
	return true;
}

static int parse_line(const char *line, char *ret_what, enum rm_dir *ret_dir,
		      uint64_t *ret_sector, uint64_t *ret_nr)
{
	const char *p = line;
	char what, dir;
	uint64_t sector, nr;

	what = *p++;
	if ((what != 'I' && what != 'C') || *p != ' ')
		return -EINVAL;
	p++;
	dir = *p++;
	if ((dir != 'R' && dir != 'W') || *p != ' ')
		return -EINVAL;
	p++;
	if (!read_u64(&p, UINT64_MAX / 4, &sector) || !read_u64(&p, UINT32_MAX, &nr) || *p)
		return -EINVAL;
	*ret_what = what;
	*ret_dir = dir == 'W' ? RM_WRITE : RM_READ;
	*ret_sector = sector;
	*ret_nr = nr;
	return 0;
}

int rm_trace_replay(struct rm_model *m, FILE *in, const char *name, struct sp_error *err)
{
	char line[LINE_MAX_BYTES];
	unsigned long lineno = 0;

	while (fgets(line, sizeof(line), in)) {
		size_t len = strlen(line);
		enum rm_dir dir;
		uint64_t sector, nr;
		char what;
		int r;

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		else if (!feof(in))
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "%s:%lu: line longer than %d bytes", name, lineno,
					    LINE_MAX_BYTES - 2);
		if (len == 0 || line[0] == '#')
			continue;
		if (parse_line(line, &what, &dir, &sector, &nr) < 0)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "%s:%lu: expected 'I|C R|W SECTOR SECTORS', got '%s'",
					    name, lineno, line);
		if (what == 'I')
			r = rm_model_issue(m, dir, sector, nr, err);
		else
			r = rm_model_complete(m, dir, sector, nr, err);
		if (r < 0) {
			/* say where, keep what the model said */
			char msg[SP_MSG_MAX];

			snprintf(msg, sizeof(msg), "%s", err ? err->message : "");
			return sp_error_set(err, -r, SP_ERR_INVALID, "%s:%lu: %s", name,
					    lineno, msg);
		}
	}
	if (ferror(in))
		return sp_error_set(err, EIO, SP_ERR_FAILED, "%s: read error", name);
	return 0;
}
