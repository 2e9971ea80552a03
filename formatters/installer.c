/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Installer snippets: the same apply, run by Anaconda's %post --nochroot
 * against /mnt/sysimage (the installer binary, from an updates image), or
 * by debian-installer's late_command with in-target inside /target (the
 * package, installed there by pkgsel).  The device is probed again on the machine being installed,
 * so an offline plan's --size is never carried into the snippet.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

int sp_shell_quote(const char *word, char *out, size_t len)
{
	size_t o = 0;
	bool plain = *word != '\0';

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

static void header(FILE *f, const struct sp_plan *p)
{
	char chunk[32];

	sp_format_size_short(p->chunk_bytes, chunk, sizeof(chunk));
	fprintf(f, "# stripeplan: %s %s, %u disks, %s chunk on %s -> %s%s%s\n", p->controller,
		sp_level_name(p->level), p->disks, chunk, p->device.path, sp_fs_name(p->fs),
		p->mountpoint[0] ? " on " : "", p->mountpoint);
}

char *sp_format_kickstart(const struct sp_plan *p, const char *apply_command)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	header(f, p);
	fprintf(f, "# Anaconda has no stripeplan: give it one in an updates image, booting with\n");
	fprintf(f, "#   inst.updates=http://YOUR-SERVER/stripeplan-updates.img\n");
	fprintf(f, "# that holds usr/sbin/stripeplan built with -DSTRIPEPLAN_STATIC_DEPS=ON on the\n");
	fprintf(f, "# target release (README: Installers).\n");
	fprintf(f, "# Keep Anaconda off the array (put this in the main section):\n");
	if (!strncmp(p->device.kernel_name, "md", 2))
		fprintf(f, "#   ignoredisk --drives=<the member disks of %s>\n", p->device.kernel_name);
	else
		fprintf(f, "#   ignoredisk --drives=%s\n", p->device.kernel_name);
	fprintf(f, "# %%post --nochroot runs after the installed system is at /mnt/sysimage,\n");
	fprintf(f, "# with the installer's /dev, so apply writes fstab and tuning into it.\n");
	fprintf(f, "%%post --nochroot --erroronfail --log=/mnt/sysimage/var/log/stripeplan.log\n");
	fprintf(f, "%s --root /mnt/sysimage\n", apply_command);
	fprintf(f, "%%end\n");
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *sp_format_preseed(const struct sp_plan *p, const char *apply_command)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	header(f, p);
	fprintf(f, "# The stripeplan package goes into the new system from a repository that\n");
	fprintf(f, "# carries it (add one with d-i apt-setup/local0/repository); d-i keeps the\n");
	fprintf(f, "# last pkgsel/include, so list your other packages on this line too.\n");
	fprintf(f, "d-i pkgsel/include string stripeplan\n");
	fprintf(f, "# Keep partman off the array: name only the system disk, e.g.\n");
	fprintf(f, "#   d-i partman-auto/disk string /dev/sda\n");
	fprintf(f, "# late_command runs after pkgsel; in-target runs stripeplan in /target with\n");
	fprintf(f, "# the installer's /dev, /proc and /sys, writing the new system's own /etc.\n");
	fprintf(f, "# d-i takes one late_command: chain others with ';'.\n");
	fprintf(f, "d-i preseed/late_command string in-target %s --root /\n", apply_command);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
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
