/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fstab line a plan owns, as fstab(5) spells it: the mount point
 * escaped (a space would end the field), the filesystem named by the
 * UUID placeholder that apply fills in once mkfs has made it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "base/error.h"
#include "line.h"

int sp_fstab_escape(const char *in, char *out, size_t len, struct sp_error *err)
{
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		const char *esc = NULL;
		char one[2] = { (char)*p, '\0' };

		if (*p == ' ')
			esc = "\\040";
		else if (*p == '\t')
			esc = "\\011";
		else if (*p == '\\')
			esc = "\\134";
		else if (*p < 0x20 || *p == 0x7f)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "mountpoint: control character 0x%02x is not allowed in "
					    "an fstab path",
					    *p);
		if (!esc)
			esc = one;
		if (o + strlen(esc) >= len)
			return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
					    "mountpoint: path is too long");
		memcpy(out + o, esc, strlen(esc));
		o += strlen(esc);
	}
	out[o] = '\0';
	return 0;
}
int sp_fstab_line_make(const char *mountpoint, const char *fstype, const char *options,
		       int passno, char *buf, size_t len, struct sp_error *err)
{
	char escaped[SP_PATH_MAX];
	int r, w;

	r = sp_fstab_escape(mountpoint, escaped, sizeof(escaped), err);
	if (r < 0)
		return r;
	w = snprintf(buf, len, "UUID=%s %s %s %s 0 %d", SP_FSTAB_UUID_PLACEHOLDER, escaped,
		     fstype, options, passno);
	if (w < 0 || (size_t)w >= len)
		return sp_error_set(err, ENAMETOOLONG, SP_ERR_INVALID,
				    "mountpoint: the fstab line would be too long");
	return 0;
}
