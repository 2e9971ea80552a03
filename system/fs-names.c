/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one resolver of fstab's spellings of a filesystem (fs-names.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <blkid/blkid.h>

#include "fs-names.h"
#include "stripeplan.h"

#define BY_ID_DIR "/dev/disk/by-id/"

enum kind { K_UUID, K_LABEL, K_PARTUUID, K_PARTLABEL, K_KINDS };

/* fstab's tag, the /dev/disk directory udev keeps for it, and whether
 * its values compare without case (hex UUIDs do) */
static const struct {
	const char *tag, *dir;
	bool nocase;
} kinds[K_KINDS] = {
	[K_UUID] = { "UUID", "/dev/disk/by-uuid/", true },
	[K_LABEL] = { "LABEL", "/dev/disk/by-label/", false },
	[K_PARTUUID] = { "PARTUUID", "/dev/disk/by-partuuid/", true },
	[K_PARTLABEL] = { "PARTLABEL", "/dev/disk/by-partlabel/", false },
};

struct strings {
	char **v;
	size_t n;
};

struct sp_fs_names {
	dev_t *rdevs;
	size_t n_rdevs;
	struct strings s[K_KINDS];
};

struct sp_fs_names *sp_fs_names_new(void)
{
	return calloc(1, sizeof(struct sp_fs_names));
}

void sp_fs_names_free(struct sp_fs_names *n)
{
	if (!n)
		return;
	for (size_t k = 0; k < K_KINDS; k++) {
		for (size_t i = 0; i < n->s[k].n; i++)
			free(n->s[k].v[i]);
		free(n->s[k].v);
	}
	free(n->rdevs);
	free(n);
}

static int add_string(struct strings *s, const char *value)
{
	char **v;

	if (!value || !value[0])
		return 0;
	v = realloc(s->v, (s->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->v = v;
	s->v[s->n] = strdup(value);
	return s->v[s->n] ? (s->n++, 0) : -ENOMEM;
}

static int add_rdev(struct sp_fs_names *n, dev_t rdev)
{
	dev_t *v = realloc(n->rdevs, (n->n_rdevs + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	n->rdevs = v;
	n->rdevs[n->n_rdevs++] = rdev;
	return 0;
}

int sp_fs_names_add_fs(struct sp_fs_names *n, const char *uuid, const char *label)
{
	int r = add_string(&n->s[K_UUID], uuid);

	return r < 0 ? r : add_string(&n->s[K_LABEL], label);
}

/* One libblkid chain on path: the filesystem's names, or the partition
 * entry's. */
static int probe_names(struct sp_fs_names *n, const char *path, bool partition)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *v;
	int r = 0;

	if (!pr)
		return 0; /* unreadable: its device number still names it */
	blkid_probe_enable_superblocks(pr, !partition);
	blkid_probe_enable_partitions(pr, partition);
	if (partition)
		blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	else
		blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_UUID | BLKID_SUBLKS_LABEL);
	if (blkid_do_safeprobe(pr) == 0) {
		static const char *const keys[2][2] = { { "UUID", "LABEL" },
							{ "PART_ENTRY_UUID", "PART_ENTRY_NAME" } };
		enum kind k0 = partition ? K_PARTUUID : K_UUID;

		for (size_t i = 0; i < 2 && r == 0; i++)
			if (blkid_probe_lookup_value(pr, keys[partition][i], &v, NULL) == 0)
				r = add_string(&n->s[k0 + i], v);
	}
	blkid_free_probe(pr);
	return r;
}

int sp_fs_names_add_node(struct sp_fs_names *n, const char *path)
{
	struct stat st;
	int r;

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	r = add_rdev(n, st.st_rdev);
	if (r == 0)
		r = probe_names(n, path, false);
	if (r == 0)
		r = probe_names(n, path, true);
	return r;
}

static bool has_value(const struct sp_fs_names *n, enum kind k, const char *value)
{
	for (size_t i = 0; i < n->s[k].n; i++)
		if (kinds[k].nocase ? !strcasecmp(n->s[k].v[i], value) : !strcmp(n->s[k].v[i], value))
			return true;
	return false;
}

/* The block device a path leads to, without hanging on a dead NFS server
 * or triggering an automount; 0 when it is no block node. */
static dev_t rdev_of(const char *path)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, AT_STATX_DONT_SYNC | AT_NO_AUTOMOUNT, STATX_TYPE, &stx) < 0 ||
	    !S_ISBLK(stx.stx_mode))
		return 0;
	return makedev(stx.stx_rdev_major, stx.stx_rdev_minor);
}

static bool has_rdev(const struct sp_fs_names *n, dev_t rdev)
{
	for (size_t i = 0; rdev && i < n->n_rdevs; i++)
		if (n->rdevs[i] == rdev)
			return true;
	return false;
}

static int kind_of_tag(const char *tag)
{
	for (int k = 0; k < K_KINDS; k++)
		if (!strcmp(tag, kinds[k].tag))
			return k;
	return -1;
}

/* udev's link names escape what a file name cannot hold as \xHH
 * (blkid_encode_string): "my\x20data" is the label "my data". */
static void decode_link_name(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (; *in && o + 1 < len; o++) {
		if (in[0] == '\\' && in[1] == 'x' && isxdigit((unsigned char)in[2]) &&
		    isxdigit((unsigned char)in[3])) {
			char hex[3] = { in[2], in[3], '\0' };

			out[o] = (char)strtol(hex, NULL, 16);
			in += 4;
		} else {
			out[o] = *in++;
		}
	}
	out[o] = '\0';
}

/* A value that is a file name as it stands (udev would not escape it). */
static bool plain_link_name(const char *value)
{
	if (!value[0] || !strcmp(value, ".") || !strcmp(value, ".."))
		return false;
	for (const char *c = value; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("._-:+", *c))
			return false;
	return true;
}

static bool match_tag(const struct sp_fs_names *n, int k, const char *tag, const char *value)
{
	char link[SP_PATH_MAX];

	if (k >= 0 && has_value(n, (enum kind)k, value))
		return true;
	/* the udev link, when there is one: what the value names now */
	if (!plain_link_name(value))
		return false;
	if (k >= 0)
		snprintf(link, sizeof(link), "%s%s", kinds[k].dir, value);
	else if (!strcmp(tag, "ID"))
		snprintf(link, sizeof(link), "%s%s", BY_ID_DIR, value);
	else
		return false;
	return has_rdev(n, rdev_of(link));
}

bool sp_fs_names_match(const struct sp_fs_names *n, const char *tag, const char *value,
		       const char *source)
{
	char decoded[SP_PATH_MAX];

	if (!n)
		return false;
	if (tag[0])
		return match_tag(n, kind_of_tag(tag), tag, value);
	if (source[0] != '/')
		return false;
	if (has_rdev(n, rdev_of(source)))
		return true;
	/* /dev/disk/by-uuid/X where udev made no such link (a chroot, an
	 * installer): the name says what it means */
	for (int k = 0; k < K_KINDS; k++) {
		size_t dl = strlen(kinds[k].dir);

		if (strncmp(source, kinds[k].dir, dl) || !source[dl])
			continue;
		decode_link_name(source + dl, decoded, sizeof(decoded));
		return has_value(n, (enum kind)k, decoded);
	}
	return false;
}

void sp_fs_names_resolve(const char *tag, const char *value, const char *source, char *buf,
			 size_t len)
{
	char link[SP_PATH_MAX], *real = NULL;
	int k = tag[0] ? kind_of_tag(tag) : -1;

	buf[0] = '\0';
	if (!tag[0]) {
		if (source[0] == '/' && rdev_of(source))
			real = realpath(source, NULL);
	} else if ((k >= 0 || !strcmp(tag, "ID")) && plain_link_name(value)) {
		snprintf(link, sizeof(link), "%s%s", k >= 0 ? kinds[k].dir : BY_ID_DIR, value);
		if (rdev_of(link))
			real = realpath(link, NULL);
	}
	if (!real && tag[0] && strcmp(tag, "ID")) {
		blkid_cache cache = NULL;

		/* a cache on /dev/null: read the disks, write no cache file
		 * (the default is the machine's /run/blkid/blkid.tab) */
		if (blkid_get_cache(&cache, "/dev/null") == 0) {
			real = blkid_evaluate_tag(tag, value, &cache);
			blkid_put_cache(cache);
		}
	}
	if (real)
		snprintf(buf, len, "%s", real);
	free(real);
}
