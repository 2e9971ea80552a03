/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the LUKS2 and LVM steps share: libblkid's look at a layer's device,
 * the layer's own header through the on-disk readers, and running the
 * layer's tools (cryptsetup, lvm) through sp_exec with their output kept
 * in the step's result.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "exec.h"
#include "mkfs-check.h"
#include "steps.h"

int sp_layer_probe(const char *path, char *type, size_t type_len, char *uuid, size_t uuid_len,
		   char *what, size_t what_len)
{
	const char *v;
	blkid_probe pr;
	int rc;

	type[0] = uuid[0] = '\0';
	what[0] = '\0';
	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0 && blkid_probe_lookup_value(pr, "TYPE", &v, NULL) == 0)
		snprintf(type, type_len, "%s", v);
	if (rc == 0 && blkid_probe_lookup_value(pr, "UUID", &v, NULL) == 0)
		snprintf(uuid, uuid_len, "%s", v);
	blkid_free_probe(pr);
	if (rc == 1)
		return 0;
	if (rc == 0)
		snprintf(what, what_len, "%s%s%s%s", type[0] ? type : "a signature",
			 uuid[0] ? " (UUID " : "", uuid, uuid[0] ? ")" : "");
	else
		snprintf(what, what_len, "signatures libblkid cannot tell apart");
	return 1;
}

int sp_layer_header(const char *path, const char *type, struct sp_found_layer *ret,
		    struct sp_step_result *res)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), r;

	if (fd < 0)
		return sp_step_fail(res, errno, "cannot open '%s': %s", path, strerror(errno));
	r = sp_scan_layer(fd, type, ret);
	close(fd);
	if (r < 0)
		return sp_step_fail(res, -r, "cannot read the %s header of '%s': %s", type, path,
				    strerror(-r));
	return 0;
}

static void keep_output(struct sp_step_result *res, const char *output)
{
	size_t had = res->tool_output ? strlen(res->tool_output) : 0, add = strlen(output);
	char *p;

	if (!add)
		return;
	p = realloc(res->tool_output, had + add + 1);
	if (!p)
		return; /* the output is a courtesy; the exit status decides */
	memcpy(p + had, output, add + 1);
	res->tool_output = p;
}

/* The last non-empty line of output: what a tool says when it fails. */
static void last_line(const char *output, char *buf, size_t len)
{
	const char *end = output + strlen(output), *start;

	while (end > output && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	start = end;
	while (start > output && start[-1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
	if (!buf[0])
		snprintf(buf, len, "it printed nothing");
}

static int run(const struct sp_ctx *ctx, const char *const *argv, const void *stdin_bytes,
	       size_t stdin_len, struct sp_step_result *res, int *status)
{
	struct sp_exec_opts opts = { .program_dirs = ctx->program_dirs,
				     .deadline_s = ctx->program_deadline_s,
				     .stdin_bytes = stdin_bytes,
				     .stdin_len = stdin_len };
	struct sp_exec_result out = { 0 };
	int r = sp_exec(argv, &opts, &out, &res->error);

	if (r < 0) {
		res->status = SP_STEP_FAILED;
		sp_exec_result_free(&out);
		return r;
	}
	if (out.output)
		keep_output(res, out.output);
	*status = out.exit_status;
	if (out.exit_status)
		last_line(out.output ? out.output : "", res->error.message,
			  sizeof(res->error.message));
	sp_exec_result_free(&out);
	return 0;
}

int sp_layer_run(const struct sp_ctx *ctx, const char *const *argv, const void *stdin_bytes,
		 size_t stdin_len, struct sp_step_result *res)
{
	char said[SP_MSG_MAX];
	int status = 0, r = run(ctx, argv, stdin_bytes, stdin_len, res, &status);

	if (r < 0 || !status)
		return r;
	snprintf(said, sizeof(said), "%s", res->error.message);
	return sp_step_fail(res, EIO, "%s %s failed (exit %d): %s", argv[0], argv[1], status, said);
}

int sp_layer_status(const struct sp_ctx *ctx, const char *const *argv, struct sp_step_result *res)
{
	int status = 0, r = run(ctx, argv, NULL, 0, res, &status);

	res->error.message[0] = '\0';
	return r < 0 ? r : status;
}

int sp_layer_probe_below(const struct sp_ctx *ctx, const char *dev, const char *layer, char *what,
			 size_t len)
{
	const struct sp_plan *plan = ctx->plan;
	char type[SP_NAME_MAX], uuid[SP_UUID_MAX], found[SP_MSG_MAX];
	int r;

	/* the bottom layer: the partition's range of the disk, whether or not
	 * a partition points at it yet (the disk through the run's descriptor) */
	if (!strcmp(dev, sp_ctx_partition_path(ctx)))
		r = sp_step_probe_range(ctx, plan->table == SP_TABLE_NONE ? 0 : plan->start_bytes,
					plan->table == SP_TABLE_NONE ? 0 : plan->size_bytes, found,
					sizeof(found));
	else
		r = sp_layer_probe(dev, type, sizeof(type), uuid, sizeof(uuid), found, sizeof(found));
	if (r == -ENOENT || r == 0)
		return 0;
	if (r < 0)
		snprintf(found, sizeof(found), "unrecognised data (cannot be probed: %s)",
			 strerror(-r));
	snprintf(what, len, "%s on %s, where the plan's %s goes", found, dev, layer);
	return 1;
}
