/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sp_fstab_merge on an arbitrary existing fstab.  The input is
 *
 *	FLAG MOUNTPOINT '\n' FSTAB...
 *
 * FLAG 'U' merges with the filesystem's UUID known, anything else without
 * it (a dry run before mkfs); 'N' and 'n' do the same with names (a fake
 * resolver: PARTUUID=OURS, LABEL=ours, /dev/sdz1 and the UUID name what
 * apply writes; LABEL=other names /dev/other, anything else no device).
 * The owned line is a fixed entry for MOUNTPOINT.  Oracles, on success:
 *  - every original line is in the output, in order, except markers and
 *    the line right below one (an owned block the merge may replace);
 *  - the owned line is in the output exactly once, right below its marker;
 *  - libmount parses the whole output and finds exactly one entry for the
 *    mount point with our UUID;
 *  - merging the output again changes nothing (SP_FSTAB_KEEP);
 *  - with names: no entry but the owned one names what apply writes,
 *    and no line naming another device mounts MOUNTPOINT below a marker
 *    (a second device never takes it over).
 * On failure the error is filled and nothing is returned.
 */
#include <errno.h>
#include <stdbool.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libmount/libmount.h>

#include "fstab/fstab.h"
#include "fuzz.h"
#include "stripeplan.h"

#define UUID "0f5e8a9c-1b2d-4e3f-9a8b-7c6d5e4f3a21"
#define OUR_PARTUUID "OURS"

/* The fake resolver of the 'N' and 'n' modes. */
static bool fake_ours(const char *tag, const char *value, const char *source, void *userdata)
{
	(void)userdata;
	if (!strcmp(tag, "UUID"))
		return !strcasecmp(value, UUID);
	if (!strcmp(tag, "PARTUUID"))
		return !strcasecmp(value, OUR_PARTUUID);
	if (!strcmp(tag, "LABEL"))
		return !strcmp(value, "ours");
	return !tag[0] && !strcmp(source, "/dev/sdz1");
}

static void fake_node_of(const char *tag, const char *value, const char *source, char *buf,
			 size_t len, void *userdata)
{
	if (fake_ours(tag, value, source, userdata))
		snprintf(buf, len, "/dev/sdz1");
	else if (!strcmp(tag, "LABEL") && !strcmp(value, "other"))
		snprintf(buf, len, "/dev/other");
	else
		buf[0] = '\0';
}

static const struct sp_fstab_names fake_names = { fake_ours, fake_node_of, "/dev/sdz1", NULL };

struct lines {
	size_t n;
	const char **start;
	size_t *len;
};

static void split(const char *text, struct lines *l)
{
	size_t cap = 1;

	for (const char *p = text; *p; p++)
		cap += *p == '\n';
	l->n = 0;
	l->start = calloc(cap, sizeof(*l->start));
	l->len = calloc(cap, sizeof(*l->len));
	FUZZ_CHECK(l->start && l->len, "out of memory");
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		l->start[l->n] = p;
		l->len[l->n++] = len;
		p += len + (nl ? 1 : 0);
	}
}

static void lines_free(struct lines *l)
{
	free(l->start);
	free(l->len);
}

static bool is_marker(const char *s, size_t len)
{
	size_t i = strspn(s, " \t");

	return i < len && len - i >= strlen(SP_FSTAB_MARKER) &&
	       !strncmp(s + i, SP_FSTAB_MARKER, strlen(SP_FSTAB_MARKER));
}

static bool same_line(const struct lines *a, size_t i, const struct lines *b, size_t j)
{
	return a->len[i] == b->len[j] && !memcmp(a->start[i], b->start[j], a->len[i]);
}

static void check_lines_kept(const char *old, const char *out, const char *owned_line,
			     const char *marker)
{
	struct lines o, n;
	size_t j = 0, owned = 0;

	split(old, &o);
	split(out, &n);
	for (size_t i = 0; i < o.n; i++) {
		bool droppable = is_marker(o.start[i], o.len[i]) ||
				 (i > 0 && is_marker(o.start[i - 1], o.len[i - 1]));
		size_t k = j;

		/* the others must be a subsequence of the output */
		if (droppable)
			continue;
		while (k < n.n && !same_line(&o, i, &n, k))
			k++;
		FUZZ_CHECK(k < n.n, "line %zu '%.*s' is lost (or out of order)", i + 1,
			   (int)o.len[i], o.start[i]);
		j = k + 1;
	}
	for (size_t k = 0; k < n.n; k++) {
		/* a CRLF file gets a CRLF block */
		size_t len = n.len[k] - (n.len[k] && n.start[k][n.len[k] - 1] == '\r');
		size_t mlen = k ? n.len[k - 1] - (n.len[k - 1] && n.start[k - 1][n.len[k - 1] - 1] == '\r') : 0;

		if (len != strlen(owned_line) || memcmp(n.start[k], owned_line, len))
			continue;
		owned++;
		FUZZ_CHECK(k > 0 && mlen == strlen(marker) && !memcmp(n.start[k - 1], marker, mlen),
			   "owned line %zu is not below its marker", k + 1);
	}
	FUZZ_CHECK(owned == 1, "owned line %zu times in:\n%s", owned, out);
	lines_free(&o);
	lines_free(&n);
}

static int skip_bad_line(struct libmnt_table *tb, const char *filename, int line)
{
	(void)tb;
	(void)filename;
	(void)line;
	return 1;
}

/*
 * The whole output read the way mount(8) and systemd read /etc/fstab:
 * mnt_table_parse_fstab() on a file.  (mnt_table_parse_stream() would
 * guess the format from the first line and read a file that starts with
 * two numbers as mountinfo.)
 */
static void check_libmount(const char *out, const char *mountpoint, bool names)
{
	static int fd = -1;
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	char path[64];
	size_t ours = 0, len = strlen(out);
	int r;

	if (fd < 0)
		fd = memfd_create("fstab", MFD_CLOEXEC);
	FUZZ_CHECK(tb && it && fd >= 0, "out of memory");
	FUZZ_CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, out, len, 0) == (ssize_t)len, "memfd");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	mnt_table_set_parser_errcb(tb, skip_bad_line);
	r = mnt_table_parse_fstab(tb, path);
	FUZZ_CHECK(r == 0, "libmount cannot parse the output (%d):\n%s", r, out);
	while (mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *target = mnt_fs_get_target(fs), *name = NULL, *value = NULL;
		const char *source = mnt_fs_get_source(fs);
		bool tagged = mnt_fs_get_tag(fs, &name, &value) == 0, named;

		if (tagged && !strcmp(name, "UUID") && !strcasecmp(value, UUID) && target &&
		    !strcmp(target, mountpoint))
			ours++;
		else if (names) {
			named = tagged ? fake_ours(name, value, "", NULL) :
					 fake_ours("", "", source ? source : "", NULL);
			FUZZ_CHECK(!named, "an entry for '%s' names what apply writes:\n%s",
				   target ? target : "?", out);
		}
	}
	FUZZ_CHECK(ours == 1, "libmount finds %zu entries for '%s':\n%s", ours, mountpoint, out);
	mnt_free_iter(it);
	mnt_unref_table(tb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *input = fuzz_strndup(data, size), *mountpoint, *old, *nl;
	char escaped[SP_PATH_MAX], owned_line[SP_PATH_MAX + 128], marker[SP_PATH_MAX + 32];
	char *out = NULL, *again = NULL;
	const struct sp_fstab_names *names;
	const char *uuid;
	enum sp_fstab_action action;
	struct sp_error err = { 0 };
	int r;

	if (!input || !input[0] || !(nl = strchr(input, '\n')))
		goto done;
	*nl = '\0';
	uuid = input[0] == 'U' || input[0] == 'N' ? UUID : NULL;
	names = input[0] == 'N' || input[0] == 'n' ? &fake_names : NULL;
	mountpoint = input + 1;
	old = nl + 1;
	if (mountpoint[0] != '/' || sp_fstab_escape(mountpoint, escaped, sizeof(escaped), NULL) < 0)
		goto done;
	snprintf(owned_line, sizeof(owned_line), "UUID=%s %s xfs noatime,nofail 0 0", UUID, escaped);
	snprintf(marker, sizeof(marker), "%s %s", SP_FSTAB_MARKER, escaped);

	r = sp_fstab_merge_names(old, owned_line, mountpoint, uuid, names, &out, &action, &err);
	if (r < 0) {
		FUZZ_CHECK(err.code == r && err.message[0], "r %d, code %d, message '%s'", r,
			   err.code, err.message);
		FUZZ_CHECK(r == -EEXIST || r == -EINVAL || r == -EFBIG, "unexpected error %d: %s", r,
			   err.message);
		FUZZ_CHECK(out == NULL, "text returned on failure");
		goto done;
	}
	FUZZ_CHECK(out != NULL, "no text");
	FUZZ_CHECK((action == SP_FSTAB_KEEP) == !strcmp(out, old), "action %d", (int)action);
	check_lines_kept(old, out, owned_line, marker);
	check_libmount(out, mountpoint, names != NULL);

	r = sp_fstab_merge_names(out, owned_line, mountpoint, uuid, names, &again, &action, &err);
	FUZZ_CHECK(r == 0, "merging the output again fails: %s\n%s", err.message, out);
	FUZZ_CHECK(action == SP_FSTAB_KEEP && !strcmp(again, out),
		   "merging again changes the file (action %d):\n%s\n---\n%s", (int)action, out,
		   again);
done:
	free(again);
	free(out);
	free(input);
	return 0;
}
