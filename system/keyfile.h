/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The key a LUKS2 layer is formatted and opened with.  It comes from a
 * file (unattended installs) or from stdin ("-"), is held in locked
 * memory, goes to cryptsetup through its stdin (sp_exec_opts.stdin_bytes,
 * --key-file -) and is wiped when done: never in argv, the plan, a report
 * or a log.
 */
#ifndef STRIPEPLAN_KEYFILE_H
#define STRIPEPLAN_KEYFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "stripeplan.h"

/*
 * At most what cryptsetup reads from a key file by default (its
 * --keyfile-size limit, 8 MiB: DEFAULT_KEYFILE_SIZE_MAXKB in its
 * configure): a longer key would be cut short by cryptsetup, and a
 * volume formatted with part of a key is opened with none.
 */
#define SP_KEY_MAX_BYTES (8192U * 1024U)

struct sp_key {
	unsigned char *bytes; /* exactly as read: a trailing newline is part of the key */
	size_t len;
	size_t alloc_len;
	bool locked;          /* mlock() took it: it is never written to swap */
};

/*
 * Reads the key from path, or from stdin_fd when path is "-".  A file must
 * be a regular file owned by the caller (or root) that neither its group
 * nor others may read, write or run (cryptsetup only warns; stripeplan
 * refuses: SP_ERR_REFUSED), 1 .. SP_KEY_MAX_BYTES bytes (SP_ERR_INVALID
 * otherwise).  stdin must not be a terminal (stripeplan does not prompt):
 * a key there is piped.  0 with *ret filled, or -errno with err filled
 * and *ret untouched; nothing of the key is ever in err.
 */
int sp_key_read(const char *path, int stdin_fd, struct sp_key *ret, struct sp_error *err);

/* Wipes and frees the key; NULL and a wiped key are fine. */
void sp_key_wipe(struct sp_key *key);

#endif
