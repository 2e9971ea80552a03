/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Installer snippets: the same apply, run by Anaconda's %post --nochroot
 * against /mnt/sysimage (the installer binary, from an updates image), or
 * by debian-installer's late_command with in-target inside /target (the
 * package, installed there by pkgsel).  The device is probed again on the
 * machine being installed, so an offline plan's --size is never carried
 * into the snippet.  The text is templates/kickstart.in and preseed.in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/template.h"
#include "format.h"

bool sp_has_control_chars(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return true;
	return false;
}

int sp_shell_quote(const char *word, char *out, size_t len)
{
	size_t o = 0;
	bool plain = *word != '\0';

	/* a newline survives any quoting into a line-based file (a kickstart
	 * section, a preseed value): it would start a line of its own */
	if (sp_has_control_chars(word))
		return -EINVAL;

	for (const char *p = word; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_",
			       *p) != NULL;
	if (plain) {
		if (strlen(word) >= len)
			return -ENAMETOOLONG;
		memcpy(out, word, strlen(word) + 1);
		return 0;
	}
	/* 'it'\''s': close the quote, an escaped quote, reopen */
	if (o + 1 >= len)
		return -ENAMETOOLONG;
	out[o++] = '\'';
	for (const char *p = word; *p; p++) {
		const char *piece = *p == '\'' ? "'\\''" : NULL;
		size_t n = piece ? strlen(piece) : 1;

		if (o + n + 2 >= len)
			return -ENAMETOOLONG;
		if (piece)
			memcpy(out + o, piece, n);
		else
			out[o] = *p;
		o += n;
	}
	out[o++] = '\'';
	out[o] = '\0';
	return 0;
}

/* Every value that reaches the snippet is one line of text, or the
 * snippet would carry lines (%end, %pre) nobody planned. */
static bool snippet_values_ok(const struct sp_plan *p, const char *apply_command)
{
	const char *const values[] = { p->controller, p->device.path, p->device.kernel_name,
				       p->mountpoint, apply_command };

	for (size_t i = 0; i < ARRAY_SIZE(values); i++)
		if (sp_has_control_chars(values[i]))
			return false;
	/* a kickstart line that starts with '%' opens or closes a section */
	return apply_command[0] && apply_command[0] != '%';
}

/* "hp-p400 raid10, 8 disks, 256K chunk on /dev/sdb -> xfs on /data" */
static void array_line(const struct sp_plan *p, char *buf, size_t len)
{
	char chunk[32];

	sp_format_size(p->chunk_bytes, SP_SIZE_SHORT, chunk, sizeof(chunk));
	snprintf(buf, len, "%s %s, %u disks, %s chunk on %s -> %s%s%s", p->controller,
		 sp_level_name(p->level), p->disks, chunk, p->device.path, sp_fs_name(p->fs),
		 p->mountpoint[0] ? " on " : "", p->mountpoint);
}

static char *render(const char *name, const struct sp_subst *s, size_t n)
{
	const char *tpl = sp_embedded_template(name);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!tpl || !(f = open_memstream(&buf, &len)))
		return NULL;
	sp_fill_template(f, tpl, s, n);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* templates/kickstart.in */
char *sp_format_kickstart(const struct sp_plan *p, const char *apply_command)
{
	char array[SP_PATH_MAX + 256], drives[SP_PATH_MAX + 64];
	const char *path = p->device.path;
	bool in_dev_disk = sp_is_stable_link(path) && !strncmp(path, "/dev/disk/", 10);

	if (!snippet_values_ok(p, apply_command)) {
		errno = EINVAL;
		return NULL;
	}
	array_line(p, array, sizeof(array));
	/* Anaconda takes a /dev/disk link in ignoredisk as "disk/by-id/..."
	 * (RHEL 8-10 "Performing an advanced RHEL installation", ignoredisk:
	 * "ignoredisk --drives=disk/by-id/dm-uuid-mpath-2416CD96..."; the
	 * same form as --only-use), the name the tool was given */
	if (in_dev_disk && !strncmp(path, "/dev/disk/by-id/md-", 19))
		snprintf(drives, sizeof(drives), "<the member disks of %s>", path);
	else if (in_dev_disk)
		snprintf(drives, sizeof(drives), "%s", path + strlen("/dev/"));
	else if (!p->device.kernel_name[0])
		snprintf(drives, sizeof(drives), "%s", path);
	else if (!strncmp(p->device.kernel_name, "md", 2))
		snprintf(drives, sizeof(drives), "<the member disks of %s>", p->device.kernel_name);
	else
		snprintf(drives, sizeof(drives), "%s", p->device.kernel_name);
	return render("kickstart.in",
		      (const struct sp_subst[]){ { "@ARRAY@", array },
						 { "@DRIVES@", drives },
						 { "@APPLY@", apply_command } },
		      3);
}

/* templates/preseed.in */
char *sp_format_preseed(const struct sp_plan *p, const char *apply_command)
{
	char array[SP_PATH_MAX + 256];

	if (!snippet_values_ok(p, apply_command)) {
		errno = EINVAL;
		return NULL;
	}
	array_line(p, array, sizeof(array));
	return render("preseed.in",
		      (const struct sp_subst[]){ { "@ARRAY@", array }, { "@APPLY@", apply_command } },
		      2);
}

char *sp_format_fstab(const struct sp_plan *p)
{
	char *out;

	if (!p->fstab_line[0])
		return strdup("");
	out = malloc(strlen(p->fstab_line) + 2);
	if (out)
		sprintf(out, "%s\n", p->fstab_line);
	return out;
}
