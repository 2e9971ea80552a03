/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crypttab(5) as systemd-cryptsetup-generator reads it: one volume a
 * line, fields split by spaces and tabs, '#' starting a comment line;
 * the first field names the volume.  Only the plan's volume's lines are
 * touched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "crypttab.h"

#define UUID_MAX_CHARS 36U

static bool has_nofail(const struct sp_plan *plan)
{
	for (size_t i = 0; i < plan->n_mount_options && i < SP_MAX_OPTIONS; i++)
		if (!strcmp(plan->mount_options[i], "nofail"))
			return true;
	return false;
}

int sp_crypttab_line(const struct sp_plan *plan, const char *uuid, char *buf, size_t len,
		     struct sp_error *err)
{
	size_t n = uuid ? strlen(uuid) : 0;
	int w;

	if (!uuid)
		uuid = SP_CRYPTTAB_UUID_PLACEHOLDER;
	else if (!n || n > UUID_MAX_CHARS || strspn(uuid, "0123456789abcdefABCDEF-") != n)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "crypttab: '%.40s' is not a LUKS2 UUID", uuid);
	w = snprintf(buf, len, "%s UUID=%s none luks%s", plan->luks.name, uuid,
		     has_nofail(plan) ? ",nofail" : "");
	if (w < 0 || (size_t)w >= len)
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID, "crypttab: the line is too long");
	return 0;
}

/* Whether the line [p, end) names the volume: its first field is name. */
static bool names_volume(const char *p, const char *end, const char *name)
{
	size_t n = strlen(name);

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p == '#' || (size_t)(end - p) > SP_CRYPTTAB_LINE_MAX)
		return false;
	return (size_t)(end - p) >= n && !memcmp(p, name, n) &&
	       (p + n == end || p[n] == ' ' || p[n] == '\t' || p[n] == '\r');
}

struct out {
	char *buf;
	size_t len;
};

static void put(struct out *o, const char *s, size_t n)
{
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

int sp_crypttab_merge(const char *text, const char *name, const char *line, char **ret_text,
		      size_t *ret_found, char *old, size_t old_len, struct sp_error *err)
{
	size_t text_len = text ? strlen(text) : 0, line_len = strlen(line), found = 0;
	const char *p = text ? text : "", *end = p + text_len;
	struct out o = { 0 };

	if (old && old_len)
		old[0] = '\0';
	if (text_len > SP_INPUT_MAX_BYTES)
		return sp_error_set(err, EFBIG, SP_ERR_INVALID, "crypttab: more than %u bytes",
				    SP_INPUT_MAX_BYTES);
	/* at most the text, a newline it lacks, the line and its newline */
	o.buf = malloc(text_len + line_len + 3);
	if (!o.buf)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;

		if (!names_volume(p, stop, name)) {
			put(&o, p, (size_t)(stop - p) + (nl ? 1 : 0));
		} else if (!found++) {
			if (old && old_len)
				snprintf(old, old_len, "%.*s", (int)(stop - p), p);
			put(&o, line, line_len);
			put(&o, "\n", 1);
		}
		p = nl ? nl + 1 : end;
	}
	if (!found) {
		if (o.len && o.buf[o.len - 1] != '\n')
			put(&o, "\n", 1);
		put(&o, line, line_len);
		put(&o, "\n", 1);
	}
	o.buf[o.len] = '\0';
	*ret_text = o.buf;
	*ret_found = found;
	return 0;
}
