/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Mount points as fstab and mount(8) will see them.  The kernel resolves
 * "/data/.." to "/" and "//" is "/": a mount point is compared and
 * written in one canonical spelling, and every spelling that could leave
 * the place the user meant is refused instead of guessed at.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "stripeplan.h"

/* Where the running system lives: an array mounted there hides it. */
static const char *const system_dirs[] = {
	"/bin", "/boot", "/boot/efi", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32",
	"/proc", "/run", "/sbin", "/sys", "/tmp", "/usr", "/var",
};
/* Kernel filesystems: nothing of the array's belongs below them. */
static const char *const virtual_dirs[] = { "/dev/", "/proc/", "/run/", "/sys/" };

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
	for (size_t i = 0; i < ARRAY_SIZE(system_dirs); i++)
		if (!strcmp(normalized, system_dirs[i]))
			return "holds the operating system";
	for (size_t i = 0; i < ARRAY_SIZE(virtual_dirs); i++)
		if (!strncmp(normalized, virtual_dirs[i], strlen(virtual_dirs[i])))
			return "is below a kernel filesystem";
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
