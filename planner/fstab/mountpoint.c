/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Mount points as fstab and mount(8) will see them.  The kernel resolves
 * "/data/.." to "/" and "//" is "/": a mount point is compared and
 * written in one canonical spelling, and every spelling that could leave
 * the place the user meant is refused instead of guessed at.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "base/error.h"
#include "mountpoint.h"

/*
 * Where the running system lives: an array mounted there, or anywhere in
 * a tree the system owns, hides what the system needs, so it takes
 * --force.  The trees are the ones systemd's mount requirements
 * (docs/MOUNT_REQUIREMENTS.md) say must be there before the host boots or
 * before local-fs.target (/usr with /usr/local, /etc, /var's system
 * parts), what the boot needs (/boot, the ESP), the usrmerge links, and
 * the kernel's filesystems.  Data trees stay open: /srv, /home, /mnt,
 * /media, /opt, /data, and the parts of /var that hold a site's data
 * (FHS: /var/mail, /var/spool/<queue>, /var/www, /var/opt), which a
 * small-sync array is made for.
 */
static const struct {
	const char *path;
	bool tree; /* every path below it too, not the directory alone */
	const char *use;
} system_paths[] = {
	{ "/bin", true, "holds the operating system" },
	{ "/boot", true, "holds the kernel and the boot loader" },
	{ "/efi", true, "holds the boot loader (the EFI system partition)" },
	{ "/etc", true, "holds the system's configuration" },
	{ "/lib", true, "holds the operating system" },
	{ "/lib32", true, "holds the operating system" },
	{ "/lib64", true, "holds the operating system" },
	{ "/libx32", true, "holds the operating system" },
	{ "/sbin", true, "holds the operating system" },
	{ "/usr", true, "holds the operating system" },
	{ "/root", false, "is root's home (its ssh keys)" },
	{ "/tmp", false, "is the system's temporary directory" },
	{ "/var", false, "holds the system's variable data" },
	{ "/var/spool", false, "holds the system's spools (cron, at)" },
	{ "/var/lib", true, "holds the state of the system and its packages (dpkg, systemd)" },
	{ "/var/cache", true, "holds the system's caches" },
	{ "/var/log", true, "holds the system's logs" },
	{ "/var/tmp", true, "is the system's temporary directory" },
	{ "/var/run", true, "is /run, a kernel filesystem" },
	{ "/var/lock", true, "is below /run, a kernel filesystem" },
	{ "/dev", true, "is a kernel filesystem or below one" },
	{ "/proc", true, "is a kernel filesystem or below one" },
	{ "/run", true, "is a kernel filesystem or below one" },
	{ "/sys", true, "is a kernel filesystem or below one" },
};

int sp_path_normalize(const char *in, char *out, size_t len)
{
	size_t o = 0;

	if (len < 2 || in[0] != '/')
		return -EINVAL;
	out[o++] = '/';
	for (const char *p = in; *p;) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n == 2 && !memcmp(p, "..", 2))
			return -EXDEV;
		if (!(n == 1 && p[0] == '.')) {
			if (o + (o > 1) + n >= len)
				return -ENAMETOOLONG;
			if (o > 1)
				out[o++] = '/';
			memcpy(out + o, p, n);
			o += n;
		}
		p += n;
	}
	out[o] = '\0';
	return 0;
}

const char *sp_mountpoint_system_use(const char *normalized)
{
	for (size_t i = 0; i < ARRAY_SIZE(system_paths); i++) {
		const char *p = system_paths[i].path;
		size_t n = strlen(p);

		if (!strncmp(normalized, p, n) &&
		    (!normalized[n] || (system_paths[i].tree && normalized[n] == '/')))
			return system_paths[i].use;
	}
	return NULL;
}

int sp_mountpoint_check(const char *in, bool force, char *out, size_t len, struct sp_error *err)
{
	const char *use;
	int r;

	for (const unsigned char *p = (const unsigned char *)in; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "mountpoint: control character 0x%02x is not allowed",
					    *p);
	r = sp_path_normalize(in, out, len);
	if (r == -EINVAL)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "mountpoint: '%s' is not an absolute path", in);
	if (r == -EXDEV)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "mountpoint: '%s' has a '..' component; give the directory "
				    "itself",
				    in);
	if (r < 0)
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
				    "mountpoint: path is too long");
	if (!strcmp(out, "/"))
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "mountpoint: '%s' is the root filesystem, not a data array", in);
	use = sp_mountpoint_system_use(out);
	if (use && !force)
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "mountpoint: '%s' %s; give --force to mount the array there", out,
				    use);
	return 0;
}
