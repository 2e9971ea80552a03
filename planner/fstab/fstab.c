/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fstab merging: the new text is the old text, byte for byte, with the
 * one block the tool owns (marker comment + entry) replaced or appended.
 *
 * Entries are parsed one line at a time, as fstab(5) and libmount read
 * them, so a conflict can be reported by line number and a line that is
 * no entry is still copied through untouched.  Nothing is re-serialised:
 * a writer would normalise spacing and drop what it does not understand.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fstab.h"

#define BY_UUID_PREFIX "/dev/disk/by-uuid/"
#define QUOTE_MAX 96U

/* What the merge needs to know about one entry. */
struct entry {
	char target[SP_PATH_MAX]; /* unescaped */
	char uuid[SP_NAME_MAX];   /* "" when the source is not by UUID */
	char fstype[SP_NAME_MAX];
	char options[SP_PATH_MAX];
	int passno;
	char source[SP_PATH_MAX]; /* as written (unescaped) */
	char tag[SP_NAME_MAX];    /* "LABEL" of LABEL=data; "" for a path */
	char tag_value[SP_PATH_MAX];
};

/* One line of the text, without its '\n'. */
struct line {
	const char *start;
	size_t len;
};

enum fate {
	KEEP = 0,
	DROP,  /* an owned block seen twice, or the marker of a replaced one */
	OURS,  /* the owned entry: our block goes here */
};

static void copy_field(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* fstab's field separators: blanks, as fstab(5) and libmount read them */
static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_octal(char c)
{
	return c >= '0' && c <= '7';
}

/*
 * The next whitespace-separated field of [*pos, end), unescaped the way
 * fstab(5) escapes (\ and three octal digits: \040 is a space), into buf,
 * cut to fit (a field that long still is one: libmount reads the line as
 * an entry, so must we).  Returns false at the end of the line.
 *
 * As libmount's unmangle_to_buffer(): any three octal digits, the value
 * cut to a byte, so \400 is a NUL that ends the field's string there
 * ("/dev/sdz1\400" is /dev/sdz1 to mount(8)).
 */
static bool next_field(const char **pos, const char *end, char *buf, size_t len)
{
	const char *p = *pos;
	size_t o = 0;

	while (p < end && is_blank(*p))
		p++;
	if (p >= end)
		return false;
	for (; p < end && !is_blank(*p); p++) {
		char c = *p;

		if (c == '\\' && end - p >= 4 && is_octal(p[1]) && is_octal(p[2]) &&
		    is_octal(p[3])) {
			c = (char)(((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0')) & 0xff);
			p += 3;
		}
		if (o + 1 < len)
			buf[o++] = c;
	}
	buf[o] = '\0';
	*pos = p;
	return true;
}

/* A dump or pass field: an optionally signed decimal number, nothing else.
 * One too large for a long is a number to libmount (next_s32(): strtol
 * saturates) only when nothing follows it on the line, not even a blank;
 * so it is here. */
static bool parse_number(const char *text, bool last_on_line, int *ret)
{
	char *endp;
	long v;

	errno = 0;
	v = strtol(text, &endp, 10);
	if (endp == text || *endp || (errno == ERANGE && !last_on_line))
		return false;
	*ret = v > 0x7fffffff ? 0x7fffffff : v < -0x7fffffff ? -0x7fffffff : (int)v;
	return true;
}

/*
 * A tag's value as libblkid reads it for libmount, and so mount(8)
 * (blkid_parse_tag_string): a value that opens with a quote runs to the
 * last such quote and what follows is dropped ('"x"junk' is x); one
 * whose quote never closes is no tag at all (false).  v is moved past
 * the opening quote, *ret_len is the value's length.
 */
static bool unquote(const char **v, size_t *ret_len)
{
	char q = (*v)[0];
	const char *end;

	if (q != '"' && q != '\'') {
		*ret_len = strlen(*v);
		return true;
	}
	end = strrchr(*v + 1, q);
	if (!end)
		return false;
	(*v)++;
	*ret_len = (size_t)(end - *v);
	return true;
}

/* UUID=value, the value possibly quoted; "" when the source names no UUID */
static void uuid_of(const char *source, char *buf, size_t len)
{
	const char *v;
	size_t n;

	buf[0] = '\0';
	if (!strncmp(source, BY_UUID_PREFIX, strlen(BY_UUID_PREFIX))) {
		snprintf(buf, len, "%s", source + strlen(BY_UUID_PREFIX));
		return;
	}
	if (strncmp(source, "UUID=", 5) != 0)
		return;
	v = source + 5;
	if (unquote(&v, &n) && n < len)
		snprintf(buf, len, "%.*s", (int)n, v);
}

/* LABEL=data, PARTUUID="..." -> tag and value (unquoted); "" for a path */
static void tag_of(const char *source, struct entry *e)
{
	static const char *const tags[] = { "UUID", "LABEL", "PARTUUID", "PARTLABEL", "ID" };
	const char *eq = strchr(source, '='), *v;
	size_t n;

	e->tag[0] = e->tag_value[0] = '\0';
	if (!eq || source[0] == '/')
		return;
	for (size_t i = 0; i < ARRAY_SIZE(tags); i++) {
		if (strlen(tags[i]) != (size_t)(eq - source) || strncmp(source, tags[i], strlen(tags[i])))
			continue;
		v = eq + 1;
		if (!unquote(&v, &n))
			return; /* mount(8) reads no tag there either */
		snprintf(e->tag, sizeof(e->tag), "%s", tags[i]);
		snprintf(e->tag_value, sizeof(e->tag_value), "%.*s", (int)n, v);
		return;
	}
}

/*
 * Parses one line as fstab(5) (and libmount, and so mount(8)) reads it:
 * source, target and type are required, options, dump and pass optional,
 * and a dump or pass that is not a number makes the line no entry.
 * Returns 1 for an entry, 0 for a line that is not one (comment, blank,
 * malformed, or a field longer than we keep); such lines are copied
 * through untouched.
 */
static int parse_entry(const struct line *l, struct entry *e)
{
	const char *nul = memchr(l->start, '\0', l->len);
	const char *p = l->start, *end = nul ? nul : l->start + l->len;
	char source[SP_PATH_MAX] = "", number[32] = "";
	int dump;

	/* a CRLF file: the '\r' is the line's end, not part of the pass number */
	if (end > p && end[-1] == '\r')
		end--;
	while (p < end && is_blank(*p))
		p++;
	if (p >= end || *p == '#')
		return 0;
	if (!next_field(&p, end, source, sizeof(source)) ||
	    !next_field(&p, end, e->target, sizeof(e->target)) ||
	    !next_field(&p, end, e->fstype, sizeof(e->fstype)))
		return 0;
	e->options[0] = '\0';
	e->passno = 0;
	if (next_field(&p, end, e->options, sizeof(e->options)) &&
	    next_field(&p, end, number, sizeof(number))) {
		if (!parse_number(number, p == end, &dump))
			return 0;
		if (next_field(&p, end, number, sizeof(number)) &&
		    !parse_number(number, p == end, &e->passno))
			return 0;
	}
	uuid_of(source, e->uuid, sizeof(e->uuid));
	copy_field(e->source, sizeof(e->source), source);
	tag_of(source, e);
	return 1;
}

static bool is_marker(const struct line *l)
{
	size_t i = 0, n = strlen(SP_FSTAB_MARKER);

	while (i < l->len && (l->start[i] == ' ' || l->start[i] == '\t'))
		i++;
	return l->len - i >= n && !memcmp(l->start + i, SP_FSTAB_MARKER, n);
}

static bool same_path(const char *a, const char *b);

/* Whether the marker line names this mount point ("# stripeplan: /data",
 * the path fstab-escaped as in the entry). */
static bool marker_names(const struct line *l, const char *target)
{
	size_t i = 0, n = strlen(SP_FSTAB_MARKER), end = l->len;
	char path[SP_PATH_MAX], escaped[SP_PATH_MAX];

	while (i < l->len && (l->start[i] == ' ' || l->start[i] == '\t'))
		i++;
	i += n;
	while (i < end && (l->start[i] == ' ' || l->start[i] == '\t'))
		i++;
	while (end > i && (l->start[end - 1] == ' ' || l->start[end - 1] == '\t' ||
			   l->start[end - 1] == '\r'))
		end--;
	if (end - i >= sizeof(path) || sp_fstab_escape(target, escaped, sizeof(escaped), NULL) < 0)
		return false;
	memcpy(path, l->start + i, end - i);
	path[end - i] = '\0';
	return same_path(path, escaped);
}

/* "/data//x/", "/./data/x" and "/data/x" are one mount point; a path
 * that cannot be normalized (relative, "..") only equals itself. */
static bool same_path(const char *a, const char *b)
{
	char na[SP_PATH_MAX], nb[SP_PATH_MAX];

	if (sp_path_normalize(a, na, sizeof(na)) < 0 || sp_path_normalize(b, nb, sizeof(nb)) < 0)
		return !strcmp(a, b);
	return !strcmp(na, nb);
}

static bool same_uuid(const char *a, const char *b)
{
	return a && b && a[0] && b[0] && !strcasecmp(a, b);
}

/* The line for a message: bounded, control characters shown as '?'. */
static void quote_line(const struct line *l, char *buf, size_t len)
{
	size_t n = l->len < QUOTE_MAX ? l->len : QUOTE_MAX, i;

	if (len < 4)
		return;
	if (n > len - 4)
		n = len - 4;
	for (i = 0; i < n; i++)
		buf[i] = (unsigned char)l->start[i] < 0x20 ? '?' : l->start[i];
	strcpy(buf + i, n < l->len ? "..." : "");
}

/* Splits text at '\n'; a last line without one still counts. */
static int split_lines(const char *text, struct line **ret, size_t *ret_n)
{
	size_t n = 0, cap = 64;
	struct line *v = malloc(cap * sizeof(*v));
	const char *p = text;

	if (!v)
		return -ENOMEM;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (n == cap) {
			struct line *bigger = realloc(v, 2 * cap * sizeof(*v));

			if (!bigger) {
				free(v);
				return -ENOMEM;
			}
			v = bigger;
			cap *= 2;
		}
		v[n++] = (struct line){ p, len };
		p += len + (nl ? 1 : 0);
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

static int check_text(const char *what, const char *s, struct sp_error *err)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "%s: control character 0x%02x is not allowed in fstab", what,
					    *p);
	return 0;
}

static bool uuid_is_valid(const char *uuid)
{
	if (!uuid[0] || strlen(uuid) >= SP_NAME_MAX)
		return false;
	for (const char *p = uuid; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z') || *p == '-'))
			return false;
	return true;
}

/* The caller's line must be one entry for the mount point and UUID it
 * claims, or the file would hold a line we cannot recognise next time. */
static int check_owned_line(const char *owned_line, const char *mountpoint, const char *uuid,
			    struct sp_error *err)
{
	struct line l = { owned_line, strlen(owned_line) };
	struct entry e;
	int r;

	r = check_text("fstab line", owned_line, err);
	if (r < 0)
		return r;
	if (uuid && uuid[0] && !uuid_is_valid(uuid))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "filesystem UUID '%s' has characters other than letters, digits "
				    "and '-'",
				    uuid);
	if (mountpoint[0] != '/')
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "mount point '%s' is not an absolute path", mountpoint);
	r = parse_entry(&l, &e);
	if (r < 0)
		return sp_error_set(err, -r, SP_ERR_FAILED, "out of memory");
	if (r == 0 || !same_path(e.target, mountpoint) ||
	    (uuid && uuid[0] && !same_uuid(e.uuid, uuid)))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "'%s' is not an fstab entry for '%s'", owned_line, mountpoint);
	return 0;
}

/* What one merge is about: the planned mount point and filesystem. */
struct want {
	const char *mountpoint;
	const char *uuid;                  /* NULL or "": not known yet */
	const struct sp_fstab_names *names; /* NULL: judged by uuid alone */
};

/* Whether the entry names what apply writes, in any spelling. */
static bool names_ours(const struct want *w, const struct entry *e)
{
	if (same_uuid(e->uuid, w->uuid))
		return true;
	return w->names && w->names->ours &&
	       w->names->ours(e->tag, e->tag_value, e->source, w->names->userdata);
}

/* " (/dev/sdc1)" for a source that names a node now, else "". */
static void node_note(const struct want *w, const struct entry *e, char *buf, size_t len)
{
	char node[SP_PATH_MAX] = "";

	buf[0] = '\0';
	if (w->names && w->names->node_of)
		w->names->node_of(e->tag, e->tag_value, e->source, node, sizeof(node),
				  w->names->userdata);
	if (node[0] && strcmp(node, e->source))
		snprintf(buf, len, " (%s)", node);
}

/*
 * A block the tool owns for our mount point: ours to replace when it
 * names what apply writes, or names no device present now (a run
 * stopped after re-making the filesystem left it); a refusal when it
 * names another device, so a second device never takes the first one's
 * mount point.
 */
static int judge_owned(const struct line *v, size_t i, const struct entry *e,
		       const struct want *w, struct sp_error *err)
{
	char quoted[QUOTE_MAX + 8], node[SP_PATH_MAX] = "";
	const char *device = w->names && w->names->device ? w->names->device : "this device";

	if (!w->names || !w->names->node_of || names_ours(w, e))
		return 1;
	w->names->node_of(e->tag, e->tag_value, e->source, node, sizeof(node), w->names->userdata);
	if (!node[0])
		return 1;
	quote_line(&v[i], quoted, sizeof(quoted));
	return sp_error_set(err, EEXIST, SP_ERR_INVALID,
			    "mount point '%s' is %s's (line %zu: '%s'); stripeplan will not give it "
			    "to %s as well: choose another --mountpoint, or remove that line and "
			    "the marker above it",
			    w->mountpoint, node, i + 1, quoted, device);
}

/*
 * An entry that names our mount point, or what apply writes, is ours (1)
 * when it sits directly below a marker, and a conflict (-EEXIST)
 * otherwise; any other entry is unrelated (0).
 */
static int judge(const struct line *v, size_t i, const struct entry *e, const struct want *w,
		 struct sp_error *err)
{
	bool mp = same_path(e->target, w->mountpoint), id = names_ours(w, e);
	char quoted[QUOTE_MAX + 8], node[SP_PATH_MAX + 8];
	const char *device = w->names && w->names->device ? w->names->device : NULL;

	if (!mp && !id)
		return 0;
	if (i > 0 && is_marker(&v[i - 1])) {
		if (marker_names(&v[i - 1], e->target) && e->uuid[0])
			return mp ? judge_owned(v, i, e, w, err) : 1;
		/* below our marker, but not a line we write: someone's own */
		quote_line(&v[i], quoted, sizeof(quoted));
		return sp_error_set(err, EEXIST, SP_ERR_INVALID,
				    "line %zu is below a '%s' marker but is not one stripeplan wrote "
				    "(a UUID= entry for the marker's mount point): '%s'; edit or remove "
				    "it by hand",
				    i + 1, SP_FSTAB_MARKER, quoted);
	}
	quote_line(&v[i], quoted, sizeof(quoted));
	node_note(w, e, node, sizeof(node));
	if (mp && device)
		return sp_error_set(err, EEXIST, SP_ERR_INVALID,
				    "line %zu already mounts '%s': '%s'%s; stripeplan does not give it "
				    "to %s as well, nor edit lines it did not write",
				    i + 1, w->mountpoint, quoted, node, device);
	if (mp)
		return sp_error_set(err, EEXIST, SP_ERR_INVALID,
				    "line %zu already mounts '%s': '%s'%s; stripeplan does not edit "
				    "lines it did not write",
				    i + 1, w->mountpoint, quoted, node);
	if (e->uuid[0])
		return sp_error_set(err, EEXIST, SP_ERR_INVALID,
				    "line %zu already uses UUID=%s: '%s'%s; stripeplan does not edit "
				    "lines it did not write",
				    i + 1, e->uuid, quoted, node);
	return sp_error_set(err, EEXIST, SP_ERR_INVALID,
			    "line %zu mounts %s%s, which is %s or on it, on '%s': '%s'; two lines "
			    "would mount one filesystem, or one would name what apply replaces; "
			    "stripeplan does not edit lines it did not write",
			    i + 1, e->source, node, device ? device : "what apply writes", e->target,
			    quoted);
}

/* Decides each line's fate: the first owned block becomes ours, any
 * further one is dropped, everything else is kept. */
static int decide(const struct line *v, size_t n, const struct want *w, enum fate *fate,
		  size_t *ret_owned, struct sp_error *err)
{
	struct entry *e = malloc(sizeof(*e));
	size_t owned = 0;
	int r = 0;

	if (!e)
		return sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	for (size_t i = 0; i < n; i++) {
		r = parse_entry(&v[i], e);
		if (r < 0)
			r = sp_error_set(err, -r, SP_ERR_FAILED, "out of memory");
		else if (r > 0)
			r = judge(v, i, e, w, err);
		if (r < 0)
			break;
		if (r == 1) {
			fate[i - 1] = DROP; /* its marker: our block brings its own */
			fate[i] = owned++ ? DROP : OURS;
		}
	}
	free(e);
	if (r < 0)
		return r;
	*ret_owned = owned;
	return 0;
}

/* Appends len bytes; the buffer was sized for the worst case. */
static void put(char **o, const char *s, size_t len)
{
	memcpy(*o, s, len);
	*o += len;
}

static void put_block(char **o, const char *marker, const char *owned_line, const char *eol)
{
	put(o, marker, strlen(marker));
	put(o, eol, strlen(eol));
	put(o, owned_line, strlen(owned_line));
	put(o, eol, strlen(eol));
}

static bool ends_in_cr(const struct line *l)
{
	return l->len && l->start[l->len - 1] == '\r';
}

/* Our block keeps the line ends of the file: CRLF where the line it
 * replaces, or the last line of the file, had them. */
static char *build(const char *old_text, const struct line *v, size_t n, const enum fate *fate,
		   size_t owned, const char *marker, const char *owned_line)
{
	size_t old_len = strlen(old_text);
	char *out = malloc(old_len + 2 * (strlen(marker) + strlen(owned_line)) + 8), *o = out;
	const char *file_eol = n && ends_in_cr(&v[n - 1]) ? "\r\n" : "\n";

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (fate[i] == OURS) {
			put_block(&o, marker, owned_line, ends_in_cr(&v[i]) ? "\r\n" : "\n");
		} else if (fate[i] == KEEP) {
			put(&o, v[i].start, v[i].len);
			/* the old last line may lack its '\n': keep that too */
			if (v[i].start + v[i].len < old_text + old_len)
				put(&o, "\n", 1);
		}
	}
	if (!owned) {
		if (o > out && o[-1] != '\n') {
			if (o[-1] == '\r')
				o--; /* the '\r' of a CRLF file's unfinished last line */
			put(&o, file_eol, strlen(file_eol));
		}
		put_block(&o, marker, owned_line, file_eol);
	}
	*o = '\0';
	return out;
}

int sp_fstab_merge_names(const char *old_text, const char *owned_line, const char *mountpoint,
			 const char *uuid, const struct sp_fstab_names *names, char **ret_text,
			 enum sp_fstab_action *ret_action, struct sp_error *err)
{
	char escaped[SP_PATH_MAX], marker[SP_PATH_MAX + 32];
	const struct want w = { mountpoint, uuid, names };
	struct line *v = NULL;
	enum fate *fate = NULL;
	size_t n = 0, owned = 0, len;
	char *text;
	int r;

	r = sp_fstab_escape(mountpoint, escaped, sizeof(escaped), err);
	if (r < 0)
		return r;
	r = check_owned_line(owned_line, mountpoint, uuid, err);
	if (r < 0)
		return r;
	snprintf(marker, sizeof(marker), "%s %s", SP_FSTAB_MARKER, escaped);
	r = split_lines(old_text, &v, &n);
	if (r < 0)
		return sp_error_set(err, -r, SP_ERR_FAILED, "out of memory");
	fate = calloc(n + 1, sizeof(*fate));
	if (!fate) {
		r = sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
		goto out;
	}
	r = decide(v, n, &w, fate, &owned, err);
	if (r < 0)
		goto out;
	text = build(old_text, v, n, fate, owned, marker, owned_line);
	if (!text) {
		r = sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
		goto out;
	}
	/* a file the next run could not read back would be refused forever */
	len = strlen(text);
	if (len > SP_INPUT_MAX_BYTES) {
		free(text);
		r = sp_error_set(err, EFBIG, SP_ERR_INVALID,
				 "with the line for '%s', it would be %zu bytes, more than the %u "
				 "stripeplan reads back",
				 mountpoint, len, SP_INPUT_MAX_BYTES);
		goto out;
	}
	if (ret_action)
		*ret_action = !owned		       ? SP_FSTAB_ADD :
			      strcmp(text, old_text) ? SP_FSTAB_REPLACE :
						      SP_FSTAB_KEEP;
	*ret_text = text;
out:
	free(fate);
	free(v);
	return r;
}

int sp_fstab_merge_action(const char *old_text, const char *owned_line, const char *mountpoint,
			  const char *uuid, char **ret_text, enum sp_fstab_action *ret_action,
			  struct sp_error *err)
{
	return sp_fstab_merge_names(old_text, owned_line, mountpoint, uuid, NULL, ret_text,
				    ret_action, err);
}

int sp_fstab_merge(const char *old_text, const char *owned_line, const char *mountpoint,
		   const char *uuid, char **ret_text, struct sp_error *err)
{
	return sp_fstab_merge_action(old_text, owned_line, mountpoint, uuid, ret_text, NULL, err);
}

int sp_fstab_line_render(const struct sp_plan *plan, const char *uuid, char *buf, size_t len)
{
	const char *at = strstr(plan->fstab_line, SP_FSTAB_UUID_PLACEHOLDER);
	int w;

	if (!at || !uuid_is_valid(uuid))
		return -EINVAL;
	w = snprintf(buf, len, "%.*s%s%s", (int)(at - plan->fstab_line), plan->fstab_line, uuid,
		     at + strlen(SP_FSTAB_UUID_PLACEHOLDER));
	if (w < 0 || (size_t)w >= len)
		return -ENAMETOOLONG;
	return 0;
}

int sp_fstab_find(const char *text, sp_fstab_match_fn match, void *userdata,
		  struct sp_fstab_entry *ret, size_t max, size_t *ret_n, struct sp_error *err)
{
	struct line *v = NULL;
	struct entry *e = malloc(sizeof(*e));
	size_t n = 0, found = 0;
	int r = -ENOMEM;

	if (!e || split_lines(text, &v, &n) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		r = parse_entry(&v[i], e);
		if (r < 0)
			goto out;
		if (r == 0 || !match(e->tag, e->tag_value, e->source, userdata))
			continue;
		if (found < max) {
			struct sp_fstab_entry *f = &ret[found];

			f->line = (unsigned)(i + 1);
			f->owned = i > 0 && is_marker(&v[i - 1]);
			copy_field(f->source, sizeof(f->source), e->source);
			copy_field(f->target, sizeof(f->target), e->target);
			copy_field(f->fstype, sizeof(f->fstype), e->fstype);
			copy_field(f->options, sizeof(f->options), e->options);
			f->passno = e->passno;
		}
		found++;
	}
	*ret_n = found;
	r = 0;
out:
	if (r < 0)
		sp_error_set(err, ENOMEM, SP_ERR_FAILED, "out of memory");
	free(v);
	free(e);
	return r;
}

static bool matches_uuid(const char *tag, const char *value, const char *source, void *userdata)
{
	const char *uuid = userdata;

	if (!strcmp(tag, "UUID"))
		return same_uuid(value, uuid);
	return !strncmp(source, BY_UUID_PREFIX, strlen(BY_UUID_PREFIX)) &&
	       same_uuid(source + strlen(BY_UUID_PREFIX), uuid);
}

int sp_fstab_find_uuid(const char *text, const char *uuid, struct sp_fstab_entry *ret, size_t max,
		       size_t *ret_n, struct sp_error *err)
{
	return sp_fstab_find(text, matches_uuid, (void *)uuid, ret, max, ret_n, err);
}
