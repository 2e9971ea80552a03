/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Installer snippets: the same apply, run by Anaconda's %post --nochroot
 * against /mnt/sysimage (the installer binary, from an updates image), or
 * by debian-installer's late_command with in-target inside /target (the
 * package, installed there by pkgsel).  The device is probed again on the
 * machine being installed, so an offline plan's --size is never carried
 * into the snippet.  The text is templates/kickstart.in and preseed.in.
 *
 * A plan with a stack carries it the same way (apply --stack ...), and
 * names what the installed system needs to open it at boot: lvm2 and
 * cryptsetup, the package names on RHEL 9 and Debian 12 alike.  preseed
 * installs them with the package (apply runs lvm and cryptsetup in
 * /target); kickstart only says so, as a second %packages section would
 * reset the user's own section's options (pykickstart's PackageSection
 * sets --nocore, --excludedocs, --ignoremissing from every header).  A
 * LUKS2 key is never in the snippet, which is as readable as the plan: it
 * names the key file the admin puts where the installer sees it, and
 * checks that it is there before apply runs.
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
 * snippet would carry lines (%end, %pre) nobody planned.  A key file is
 * named when, and only when, the plan has a LUKS2 layer, by an absolute
 * path (the installer runs the snippet in a directory of its own). */
static bool snippet_values_ok(const struct sp_plan *p, const char *apply_command,
			      const char *key_file)
{
	const char *const values[] = { p->controller, p->device.path, p->device.kernel_name,
				       p->mountpoint, apply_command, key_file };

	for (size_t i = 0; i < ARRAY_SIZE(values); i++)
		if (sp_has_control_chars(values[i]))
			return false;
	if (sp_plan_has_layer(p, SP_LAYER_LUKS) != (key_file[0] != '\0'))
		return false;
	if (key_file[0] && key_file[0] != '/')
		return false;
	/* a kickstart line that starts with '%' opens or closes a section */
	return apply_command[0] && apply_command[0] != '%';
}

/* "lvm2 cryptsetup": the packages that open the plan's layers, bottom up */
static void stack_packages(const struct sp_plan *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->n_layers && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "",
					 p->layers[i] == SP_LAYER_LUKS ? "cryptsetup" : "lvm2");
}

/* "luks,lvm" */
static void stack_names(const struct sp_plan *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->n_layers && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "",
					 sp_layer_name(p->layers[i]));
}

/*
 * The shell test a snippet runs before apply: the key file is there, or
 * the install stops with a line saying which file (prefix runs the test
 * where apply will run: "in-target " for d-i).  "" without a key.
 */
static int key_check(const char *prefix, const char *key_file, char *buf, size_t len)
{
	char quoted[SP_PATH_MAX * 2];
	int n;

	buf[0] = '\0';
	if (!key_file[0])
		return 0;
	if (sp_shell_quote(key_file, quoted, sizeof(quoted)) < 0)
		return -ENAMETOOLONG;
	n = snprintf(buf, len,
		     "%stest -f %s || { echo stripeplan: the LUKS2 key file %s is not there >&2; "
		     "exit 1; }",
		     prefix, quoted, quoted);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
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

/* The kickstart's lines on the stack, before %post ("" without one). */
static void kickstart_stack(const struct sp_plan *p, char *buf, size_t len)
{
	char names[32], packages[32];
	int n;

	buf[0] = '\0';
	if (!p->n_layers)
		return;
	stack_names(p, names, sizeof(names));
	stack_packages(p, packages, sizeof(packages));
	n = snprintf(buf, len,
		     "# The stack (%s): the installed system opens it at boot with the\n"
		     "# packages %s (RHEL 9's names); list them in your own\n"
		     "# %%packages section.  Not here: a second %%packages header would set\n"
		     "# --nocore, --excludedocs and --ignoremissing anew.\n",
		     names, packages);
	if (n < 0 || (size_t)n >= len || !sp_plan_has_layer(p, SP_LAYER_LUKS))
		return;
	snprintf(buf + n, len - (size_t)n, "%s",
		 "# The LUKS2 key is never in this file: apply reads it from --key-file,\n"
		 "# a path in Anaconda's own root (e.g. under /run, put there by %pre or\n"
		 "# an updates image; mode 0600), and %post stops if it is not there.\n"
		 "# crypttab's key is 'none': the installed system asks for the key at\n"
		 "# boot, so the file holds a passphrase, byte for byte (no newline), and\n"
		 "# stays out of /mnt/sysimage.\n");
}

/* templates/kickstart.in */
char *sp_format_kickstart(const struct sp_plan *p, const char *apply_command, const char *key_file)
{
	char array[SP_PATH_MAX + 256], drives[SP_PATH_MAX + 64], stack[1024];
	char check[SP_PATH_MAX * 5];
	const char *path = p->device.path;
	bool in_dev_disk = sp_is_stable_link(path) && !strncmp(path, "/dev/disk/", 10);

	key_file = key_file ? key_file : "";
	if (!snippet_values_ok(p, apply_command, key_file)) {
		errno = EINVAL;
		return NULL;
	}
	if (key_check("", key_file, check, sizeof(check)) < 0) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	if (check[0])
		strcat(check, "\n");
	array_line(p, array, sizeof(array));
	kickstart_stack(p, stack, sizeof(stack));
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
						 { "@STACK@", stack },
						 { "@KEY_CHECK@", check },
						 { "@APPLY@", apply_command } },
		      5);
}

/* The preseed's lines on the stack, before its package line. */
static void preseed_stack(const struct sp_plan *p, char *buf, size_t len)
{
	char names[32], packages[32];
	int n;

	buf[0] = '\0';
	if (!p->n_layers)
		return;
	stack_names(p, names, sizeof(names));
	stack_packages(p, packages, sizeof(packages));
	n = snprintf(buf, len,
		     "# The stack (%s): its packages %s (Debian 12's names)\n"
		     "# go in with stripeplan: apply runs them in /target, and the installed\n"
		     "# system opens the stack at boot with them.\n",
		     names, packages);
	if (n < 0 || (size_t)n >= len || !sp_plan_has_layer(p, SP_LAYER_LUKS))
		return;
	snprintf(buf + n, len - (size_t)n, "%s",
		 "# The LUKS2 key is never in this file: apply reads it from --key-file,\n"
		 "# a path as in-target sees it; in-target binds the installer's /run\n"
		 "# there, so a key put under /run (e.g. by preseed/early_command; mode\n"
		 "# 0600) never reaches the disk.  late_command stops if it is not there.\n"
		 "# crypttab's key is 'none': the installed system asks for the key at\n"
		 "# boot, so the file holds a passphrase, byte for byte (no newline).\n");
}

/* templates/preseed.in */
char *sp_format_preseed(const struct sp_plan *p, const char *apply_command, const char *key_file)
{
	char array[SP_PATH_MAX + 256], stack[1024], packages[40] = "";
	char check[SP_PATH_MAX * 5];

	key_file = key_file ? key_file : "";
	if (!snippet_values_ok(p, apply_command, key_file)) {
		errno = EINVAL;
		return NULL;
	}
	if (key_check("in-target ", key_file, check, sizeof(check)) < 0) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	/* late_command is one line run by sh -c: the test, then apply */
	if (check[0])
		strcat(check, "; ");
	array_line(p, array, sizeof(array));
	preseed_stack(p, stack, sizeof(stack));
	if (p->n_layers) {
		packages[0] = ' ';
		stack_packages(p, packages + 1, sizeof(packages) - 1);
	}
	return render("preseed.in",
		      (const struct sp_subst[]){ { "@ARRAY@", array },
						 { "@STACK@", stack },
						 { "@PACKAGES@", packages },
						 { "@KEY_CHECK@", check },
						 { "@APPLY@", apply_command } },
		      5);
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
