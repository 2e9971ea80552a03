/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the step files share: result lines, failures that name the
 * device, and libblkid's view of signatures (describe them, wipe them).
 * Wiping lives here because both steps need it: the partition step on
 * the whole disk before a new label, the filesystem step inside the
 * partition before mkfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "steps.h"

/* A disk with more signatures than this is not one wipefs would loop on
 * forever either; it means a wipe did not stick. */
#define WIPE_MAX_SIGNATURES 64

int sp_step_fail(struct sp_step_result *res, int code, const char *field, const char *subject,
		 const char *fmt, ...)
{
	char msg[SP_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	code = sp_error_set_at(&res->error, code ? code : EIO, SP_EXIT_FAILED, field, subject, "%s",
			       msg);
	res->status = SP_STEP_FAILED;
	return code;
}

/* "an" before a vowel sound: "an ext4", "an xfs", "a gpt". */
static const char *article(const char *word)
{
	return word[0] && strchr("aeiouxAEIOUX", word[0]) ? "an" : "a";
}

static const char *lookup(blkid_probe pr, const char *name)
{
	const char *value = NULL;

	return blkid_probe_lookup_value(pr, name, &value, NULL) == 0 ? value : NULL;
}

/* Turns what a probe found into words: "an ext4 filesystem (UUID x)". */
static void describe(blkid_probe pr, char *what, size_t len)
{
	const char *type = lookup(pr, "TYPE"), *usage = lookup(pr, "USAGE");
	const char *uuid = lookup(pr, "UUID"), *pttype = lookup(pr, "PTTYPE");
	char id[SP_UUID_MAX + 16] = "";

	if (uuid)
		snprintf(id, sizeof(id), " (UUID %s)", uuid);
	if (type && usage && !strcmp(usage, "filesystem"))
		snprintf(what, len, "%s %s filesystem%s", article(type), type, id);
	else if (type)
		snprintf(what, len, "%s %s signature%s%s%s", article(type), type, id,
			 usage ? ", used for " : "", usage ? usage : "");
	else if (pttype)
		snprintf(what, len, "%s %s partition table", article(pttype), pttype);
	else
		snprintf(what, len, "unrecognised data");
}

int sp_step_probe_signature(const char *path, char *what, size_t len)
{
	blkid_probe pr;
	int rc;

	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return -(errno ? errno : EIO);
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
						      BLKID_SUBLKS_UUID | BLKID_SUBLKS_MAGIC);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_FORCE_GPT | BLKID_PARTS_MAGIC);

	/* A tool that destroys data must not read "not sure" as "empty". */
	rc = blkid_do_safeprobe(pr);
	if (rc == -2)
		snprintf(what, len, "unrecognised data (libblkid found conflicting signatures)");
	else if (rc < 0)
		snprintf(what, len, "unrecognised data (libblkid could not read it)");
	else if (rc == 0)
		describe(pr, what, len);
	blkid_free_probe(pr);
	return rc == 1 ? 0 : 1;
}

/* One probe-and-wipe round; libblkid steps back after each wipe, so the
 * next blkid_do_probe() finds the next signature (wipefs's own loop). */
static int wipe_one(blkid_probe pr, const char *path, const char *field,
		    struct sp_step_result *res)
{
	const char *type = lookup(pr, "TYPE"), *off = lookup(pr, "SBMAGIC_OFFSET");

	if (!type) {
		type = lookup(pr, "PTTYPE");
		off = lookup(pr, "PTMAGIC_OFFSET");
	}
	errno = 0;
	if (blkid_do_wipe(pr, 0) < 0)
		return sp_step_fail(res, errno ? errno : EIO, field, path,
				    "cannot wipe the %s signature at offset %s on '%s': %s",
				    type ? type : "unknown", off ? off : "?", path,
				    strerror(errno ? errno : EIO));
	sp_step_line(res, "wiped the %s signature at offset %s on %s", type ? type : "unknown",
		     off ? off : "?", path);
	return 0;
}

static int wipe_all(blkid_probe pr, int fd, const char *path, const char *field,
		    struct sp_step_result *res)
{
	int n, rc, r;

	blkid_probe_enable_superblocks(pr, 1);
	/* BADCSUM: a damaged superblock is still a signature to remove */
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_TYPE |
						      BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT);

	for (n = 0; n < WIPE_MAX_SIGNATURES; n++) {
		rc = blkid_do_probe(pr);
		if (rc == 1)
			break;
		if (rc < 0)
			return sp_step_fail(res, EIO, field, path,
					    "cannot look for signatures on '%s': libblkid failed",
					    path);
		r = wipe_one(pr, path, field, res);
		if (r < 0)
			return r;
	}
	if (n == WIPE_MAX_SIGNATURES)
		return sp_step_fail(res, EIO, field, path,
				    "'%s' still shows signatures after %d wipes; the writes do not stick",
				    path, n);
	if (fsync(fd) < 0)
		return sp_step_fail(res, errno, field, path, "cannot flush '%s' after wiping: %s",
				    path, strerror(errno));
	return 0;
}

int sp_step_wipe_signatures(const char *path, const char *field, struct sp_step_result *res)
{
	blkid_probe pr = NULL;
	int fd, r;

	/* O_EXCL: the kernel says EBUSY while the device is mounted or held */
	fd = open(path, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return sp_step_fail(res, errno, field, path, "cannot open '%s' to wipe it: %s%s",
				    path, strerror(errno),
				    errno == EBUSY ? " (mounted, or held by md, dm or swap?)" : "");
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, 0) < 0) {
		r = sp_step_fail(res, ENOMEM, field, path, "cannot set up libblkid on '%s'", path);
		goto out;
	}
	r = wipe_all(pr, fd, path, field, res);
out:
	blkid_free_probe(pr);
	close(fd);
	return r;
}

const char *sp_ctx_disk_path(const struct sp_ctx *ctx)
{
	return ctx->disk_path ? ctx->disk_path : ctx->plan->device.path;
}

const char *sp_ctx_partition_path(const struct sp_ctx *ctx)
{
	return ctx->partition_path[0] ? ctx->partition_path : ctx->plan->partition_path;
}
