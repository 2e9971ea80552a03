/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LUKS2 step: a LUKS2 volume on the device below it, formatted with
 * the plan's data offset and sector size, opened under the plan's name.
 * verify reads back the header (libblkid's TYPE and UUID, the data
 * offset and sector size through the on-disk reader) and the mapping as
 * the kernel has it (sysfs: dm/name, dm/uuid, size, slaves), never
 * cryptsetup's words.  A volume whose header is the plan's but which is
 * closed is opened: that writes nothing to the device and is not a
 * difference from the plan (check says so and reads no further up).
 * The key comes from --key-file through cryptsetup's stdin, never argv.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dm-node.h"
#include "mkfs-check.h"
#include "steps.h"

#define STEP "luks"
#define LUKS_TYPE "crypto_LUKS"
/* the dm uuid cryptsetup gives a LUKS2 mapping: CRYPT-LUKS2-<uuid>-<name> */
#define LUKS2_DM_UUID_PREFIX "CRYPT-LUKS2-"

static const char *below(const struct sp_ctx *ctx)
{
	return sp_ctx_layer_below(ctx, ctx->plan->luks.below);
}

static void summarize(const struct sp_ctx *ctx, const char *uuid, struct sp_step_result *res)
{
	const struct sp_luks_plan *l = &ctx->plan->luks;

	snprintf(res->summary, sizeof(res->summary),
		 "LUKS2 %s on %s, data at %" PRIu64 " B, %u B sectors%s%s", l->name, below(ctx),
		 l->offset_bytes, l->sector_bytes, uuid && uuid[0] ? ", UUID " : "",
		 uuid ? uuid : "");
}

/* The header's numbers against the plan's: one line each that differs. */
static int judge_header(struct sp_ctx *ctx, const char *dev, bool *ok, struct sp_step_result *res)
{
	const struct sp_luks_plan *l = &ctx->plan->luks;
	struct sp_found_layer *h = calloc(1, sizeof(*h));
	int r;

	if (!h)
		return sp_step_fail(res, ENOMEM, "out of memory");
	r = sp_layer_header(dev, LUKS_TYPE, h, res);
	if (r == 0 && (h->unread || h->damaged)) {
		sp_step_line(res, "the LUKS header on '%s' cannot be used: %s", dev, h->damage);
		*ok = false;
	}
	if (r == 0 && !h->unread && !h->damaged) {
		if (h->data_offset_bytes != l->offset_bytes)
			sp_step_line(res, "the LUKS2 volume on '%s' starts its data at %" PRIu64
				     " B, the plan at %" PRIu64 " B",
				     dev, h->data_offset_bytes, l->offset_bytes);
		if (h->sector_bytes != l->sector_bytes)
			sp_step_line(res, "the LUKS2 volume on '%s' encrypts %u B sectors, the plan %u B",
				     dev, h->sector_bytes, l->sector_bytes);
		*ok = h->data_offset_bytes == l->offset_bytes && h->sector_bytes == l->sector_bytes;
	}
	free(h);
	return r;
}

/* The open mapping as the kernel has it: on the device below, the plan's
 * size, a LUKS2 mapping of this header's UUID. */
static int judge_mapping(struct sp_ctx *ctx, const char *dev, const char *uuid,
			 struct sp_step_result *res)
{
	const struct sp_luks_plan *l = &ctx->plan->luks;
	char below_name[SP_NAME_MAX] = "", want_uuid[SP_NAME_MAX];
	struct sp_dm_node m;
	size_t n = 0;
	int r = sp_dm_node_read(ctx->sysfs, l->path, &m);

	if (r < 0)
		return sp_step_fail(res, -r, "cannot read '%s' in sysfs: %s", l->path, strerror(-r));
	if (!m.exists) {
		ctx->luks_closed = true;
		/* check cannot say the stack matches what it did not read: a
		 * harmless finding, so only --strict (every finding) fails */
		if (ctx->auditing)
			sp_findings_add(&res->findings, SP_SEVERITY_DIFFERS, "luks-closed",
					"the LUKS2 volume on '%s' is closed: its header is the plan's, "
					"what is on it (LVM, the filesystem, its fstab line) was not read; "
					"nothing to fix: open it ('cryptsetup open %s %s') to check that",
					dev, dev, l->name);
		else
			sp_step_line(res, "the LUKS2 volume on '%s' is closed: apply opens it as '%s' "
				     "(nothing on the device is written)", dev, l->path);
		return 0;
	}
	(void)sp_dm_kernel_name(ctx->sysfs, dev, below_name, sizeof(below_name));
	/* cryptsetup's dm uuid carries the header's UUID without its dashes */
	for (const char *p = uuid; *p && n + 1 < sizeof(want_uuid); p++)
		if (*p != '-')
			want_uuid[n++] = *p;
	want_uuid[n] = '\0';
	if (!m.is_dm || strncmp(m.dm_uuid, LUKS2_DM_UUID_PREFIX, strlen(LUKS2_DM_UUID_PREFIX)) ||
	    !strstr(m.dm_uuid, want_uuid))
		sp_step_line(res, "'%s' is not the LUKS2 mapping of the volume on '%s' (dm uuid '%s')",
			     l->path, dev, m.dm_uuid);
	else if (m.n_slaves != 1 || strcmp(m.slave, below_name))
		sp_step_line(res, "'%s' maps '%s', not '%s'", l->path, m.slave, below_name);
	else if (m.size_bytes != l->size_bytes)
		sp_step_line(res, "'%s' holds %" PRIu64 " B, the plan %" PRIu64 " B", l->path,
			     m.size_bytes, l->size_bytes);
	return 0;
}

static int luks_verify(struct sp_ctx *ctx, struct sp_step_result *res)
{
	char type[SP_NAME_MAX], uuid[SP_UUID_MAX], what[SP_MSG_MAX];
	const char *dev;
	bool ok = false;
	int r;

	if (!ctx || !ctx->plan)
		return sp_step_fail(res, EINVAL, "no plan to verify against");
	dev = below(ctx);
	ctx->luks_closed = false;
	ctx->luks_uuid[0] = '\0';
	summarize(ctx, NULL, res);
	r = sp_layer_probe(dev, type, sizeof(type), uuid, sizeof(uuid), what, sizeof(what));
	if (r == -ENOENT) {
		sp_step_line(res, "'%s' does not exist yet: no LUKS2 volume", dev);
		res->status = SP_STEP_DRIFT;
		return 0;
	}
	if (r < 0)
		return sp_step_fail(res, -r, "cannot look at '%s': %s", dev, strerror(-r));
	if (r == 0)
		sp_step_line(res, "no LUKS2 volume on '%s' (it is blank)", dev);
	else if (strcmp(type, LUKS_TYPE))
		sp_step_line(res, "'%s' holds %s, not a LUKS2 volume", dev, what);
	else
		r = judge_header(ctx, dev, &ok, res);
	if (r >= 0 && ok) {
		snprintf(ctx->luks_uuid, sizeof(ctx->luks_uuid), "%s", uuid);
		summarize(ctx, uuid, res);
		r = judge_mapping(ctx, dev, uuid, res);
	}
	if (r < 0)
		return r;
	/* a closed volume whose header is the plan's: check reads no further
	 * and says so (a finding that costs nothing), apply opens it */
	if (ctx->auditing && ctx->luks_closed) {
		sp_step_take_findings(res);
		return 0;
	}
	res->status = res->n_lines ? SP_STEP_DRIFT : SP_STEP_UNCHANGED;
	return 0;
}

/* ---------------------------------------------------------------- apply */

static void format_argv(const struct sp_ctx *ctx, const char *dev, char offset[32],
			char sector[16], const char **argv)
{
	const struct sp_luks_plan *l = &ctx->plan->luks;
	size_t n = 0;

	/* --offset counts 512-byte sectors whatever the device's */
	snprintf(offset, 32, "%" PRIu64, l->offset_bytes / 512);
	snprintf(sector, 16, "%u", l->sector_bytes);
	argv[n++] = ctx->cryptsetup_path[0] ? ctx->cryptsetup_path : "cryptsetup";
	argv[n++] = "luksFormat";
	argv[n++] = "--batch-mode";
	argv[n++] = "--type";
	argv[n++] = "luks2";
	argv[n++] = "--offset";
	argv[n++] = offset;
	argv[n++] = "--sector-size";
	argv[n++] = sector;
	if (ctx->fast_pbkdf) {
		argv[n++] = "--pbkdf";
		argv[n++] = "pbkdf2";
		argv[n++] = "--pbkdf-force-iterations";
		argv[n++] = "1000";
	}
	argv[n++] = "--key-file";
	argv[n++] = "-";
	argv[n++] = dev;
	argv[n] = NULL;
}

static void open_argv(const struct sp_ctx *ctx, const char *dev, const char **argv)
{
	size_t n = 0;

	argv[n++] = ctx->cryptsetup_path[0] ? ctx->cryptsetup_path : "cryptsetup";
	argv[n++] = "open";
	argv[n++] = "--type";
	argv[n++] = "luks2";
	argv[n++] = "--key-file";
	argv[n++] = "-";
	argv[n++] = dev;
	argv[n++] = ctx->plan->luks.name;
	argv[n] = NULL;
}

static void join(const char *const *argv, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; argv[i] && n < len; i++) {
		int w = snprintf(buf + n, len - n, "%s%s", i ? " " : "", argv[i]);

		if (w < 0)
			break;
		n += (size_t)w;
	}
}

static void format_action(const struct sp_ctx *ctx, const char *dev, struct sp_step_result *res)
{
	const struct sp_luks_plan *l = &ctx->plan->luks;
	char type[SP_NAME_MAX], uuid[SP_UUID_MAX], what[SP_MSG_MAX] = "", after[SP_ACTION_VALUE_MAX];

	if (sp_layer_probe(dev, type, sizeof(type), uuid, sizeof(uuid), what, sizeof(what)) <= 0)
		what[0] = '\0';
	snprintf(after, sizeof(after), "LUKS2, data at %" PRIu64 " B, %u B sectors (a new UUID)",
		 l->offset_bytes, l->sector_bytes);
	sp_step_action(res, SP_ACTION_LUKS, dev, what, after);
}

static void open_action(const struct sp_ctx *ctx, const char *dev, struct sp_step_result *res)
{
	char after[SP_ACTION_VALUE_MAX];

	/* opening writes nothing to the device: no before, nothing destroyed */
	snprintf(after, sizeof(after), "opened on %s", dev);
	sp_step_action(res, SP_ACTION_LUKS, ctx->plan->luks.path, NULL, after);
}

static int dry_run(const struct sp_ctx *ctx, struct sp_step_result *res)
{
	const char *dev = below(ctx), *argv[24];
	char offset[32], sector[16], cmd[SP_MSG_MAX];

	if (!ctx->luks_closed) {
		format_action(ctx, dev, res);
		format_argv(ctx, dev, offset, sector, argv);
		join(argv, cmd, sizeof(cmd));
		sp_step_line(res, "run: %s (the key on stdin)", cmd);
	}
	open_action(ctx, dev, res);
	open_argv(ctx, dev, argv);
	join(argv, cmd, sizeof(cmd));
	sp_step_line(res, "run: %s (the key on stdin)", cmd);
	summarize(ctx, NULL, res);
	res->status = SP_STEP_DRY_RUN;
	return 0;
}

static int luks_apply(struct sp_ctx *ctx, struct sp_step_result *res)
{
	const char *dev, *argv[24];
	char offset[32], sector[16];
	int r = sp_step_apply_begin(ctx, res, dry_run);

	if (r <= 0)
		return r;
	if (!ctx->key)
		return sp_step_fail(res, EINVAL, "no key: --key-file is needed to format and open "
				    "a LUKS2 volume");
	dev = below(ctx);
	if (!ctx->luks_closed) {
		/* the bottom layer is the run's own partition node: wipe what is
		 * there through the identified node first, as before mkfs */
		if (!strcmp(dev, sp_ctx_partition_path(ctx)) && ctx->part_rdev)
			r = sp_step_wipe_signatures(ctx, dev, ctx->part_rdev, res);
		if (r == 0)
			format_action(ctx, dev, res);
		format_argv(ctx, dev, offset, sector, argv);
		if (r == 0)
			r = sp_layer_run(ctx, argv, ctx->key->bytes, ctx->key->len, res);
		if (r < 0)
			return r;
	}
	open_action(ctx, dev, res);
	open_argv(ctx, dev, argv);
	r = sp_layer_run(ctx, argv, ctx->key->bytes, ctx->key->len, res);
	if (r < 0)
		return r;
	summarize(ctx, NULL, res);
	res->status = SP_STEP_DONE;
	return 0;
}

/* ------------------------------------------------------------- refusals */

/*
 * Before any write: cryptsetup is there, a key was given, and the
 * mapping's name is free (or already the plan's own mapping).
 */
static int luks_preflight(struct sp_ctx *ctx, struct sp_step_result *res)
{
	const struct sp_luks_plan *l = &ctx->plan->luks;
	struct sp_dm_node m;
	int r = sp_step_find_program(ctx, "cryptsetup", ctx->cryptsetup_path,
				     sizeof(ctx->cryptsetup_path), res);

	if (r < 0)
		return r;
	if (!ctx->dry_run && !ctx->key)
		return sp_step_error(res, EINVAL, SP_ERR_INVALID,
				     "luks: the plan has a LUKS2 layer: give its key with --key-file "
				     "FILE (never on the command line); nothing was written");
	r = sp_dm_node_read(ctx->sysfs, l->path, &m);
	if (r == 0 && m.exists && !ctx->stack_open)
		return sp_step_error(res, EEXIST, SP_ERR_REFUSED,
				     "'%s' already exists (a mapping on %s) and is not the plan's "
				     "LUKS2 volume; close it ('cryptsetup close %s') or give another "
				     "--luks-name; nothing was written",
				     l->path, m.slave[0] ? m.slave : "another device", l->name);
	return 0;
}

/* What is on the device below that luksFormat would destroy: nothing to
 * say when the header there is the plan's own (a closed volume). */
static int luks_probe_existing(struct sp_ctx *ctx, char *what, size_t len)
{
	if (ctx->luks_closed)
		return 0;
	return sp_layer_probe_below(ctx, below(ctx), "LUKS2 volume", what, len);
}

const struct sp_step sp_step_luks = {
	.name = STEP,
	.verify = luks_verify,
	.apply = luks_apply,
	.probe_existing = luks_probe_existing,
	.preflight = luks_preflight,
};
