/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STRIPEPLAN_FSTAB_MOUNT_OPTIONS_H
#define STRIPEPLAN_FSTAB_MOUNT_OPTIONS_H

#include <stddef.h>

/*
 * An fstab option string as mount(8) hands it to mount(2): the generic VFS
 * options become MS_* flags, the options only userspace reads (nofail,
 * x-systemd.*, noauto, _netdev, ...) are dropped, and everything else is
 * the filesystem's own and goes to the kernel as the data string, which is
 * where the kernel rejects what the filesystem no longer accepts.
 * Returns 0, -EINVAL for an empty option (",,"), or -ENAMETOOLONG when
 * data would not fit in data_len.  *ret_flags and data are written only
 * on success.
 */
int sp_mount_options_split(const char *options, unsigned long *ret_flags, char *data,
			   size_t data_len);

#endif
