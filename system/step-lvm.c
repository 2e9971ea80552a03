/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LVM step: a PV on the device below it with the plan's data
 * alignment, its VG alone on it with the plan's extent size, and one
 * linear LV of the plan's extents.  verify reads back the PV's pe_start
 * from its own header (the on-disk reader) and the LV as the kernel has
 * it (sysfs: its dm name, its one slave, its size = extents x extent
 * size).  Every lvm command is told to see only the PV (--devices) and
 * to keep no backup or archive of the VG, so the host's LVM neither
 * scans other disks for it nor records it in /etc/lvm.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dm-node.h"
#include "mkfs-check.h"
#include "steps.h"

#define STEP "lvm"
#define LVM_TYPE "LVM2_member"
#define LVM_CONFIG "backup{backup=0 archive=0}"
#define LVM_ARGV_MAX 24U

/* what verify found, for apply: which of PV, VG and LV are there */
struct lvm_found {
	bool pv_ok;  /* a PV with the plan's pe_start */
};

static const char *below(const struct sp_ctx *ctx)
{
	return sp_ctx_layer_below(ctx, ctx->plan->lvm.below);
}

static void summarize(const struct sp_ctx *ctx, struct sp_step_result *res)
{
	const struct sp_lvm_plan *v = &ctx->plan->lvm;

	snprintf(res->summary, sizeof(res->summary),
		 "PV %s, pe_start %" PRIu64 " B, VG %s of %" PRIu64 " B extents, LV %s of %" PRIu64
		 " extents",
		 below(ctx), v->pe_start_bytes, v->vg, v->extent_bytes, v->lv, v->extents);
}

static int judge_pv(const struct sp_ctx *ctx, const char *dev, bool *ok, struct sp_step_result *res)
{
	struct sp_found_layer *h = calloc(1, sizeof(*h));
	int r;

	if (!h)
		return sp_step_fail(res, ENOMEM, "out of memory");
	r = sp_layer_header(dev, LVM_TYPE, h, res);
	*ok = false;
	if (r == 0 && (h->unread || h->damaged))
		sp_step_line(res, "the LVM label on '%s' cannot be used: %s", dev, h->damage);
	else if (r == 0 && h->data_offset_bytes != ctx->plan->lvm.pe_start_bytes)
		sp_step_line(res, "the PV on '%s' starts its extents (pe_start) at %" PRIu64
			     " B, the plan at %" PRIu64 " B", dev, h->data_offset_bytes,
			     ctx->plan->lvm.pe_start_bytes);
	else if (r == 0)
		*ok = true;
	free(h);
	return r;
}

/* check judges the LV's read-ahead as the tuning step judges a disk's: the
 * filesystem reads through the LV, so less than planned costs sequential
 * reads, more is a choice */
static void judge_lv_read_ahead(const struct sp_lvm_plan *v, uint64_t have_kib,
				struct sp_step_result *res)
{
	uint64_t want_kib = v->read_ahead_sectors / 2;

	if (have_kib < want_kib)
		sp_findings_add(&res->findings, SP_SEVERITY_SUBOPTIMAL, "read-ahead-below-plan",
				"the LV '%s' reads ahead %" PRIu64 " KiB, the plan says %" PRIu64
				" KiB; fix: lvchange -r %" PRIu64 " %s/%s (or stripeplan apply)",
				v->path, have_kib, want_kib, v->read_ahead_sectors, v->vg, v->lv);
	else
		sp_findings_add(&res->findings, SP_SEVERITY_DIFFERS, "read-ahead-above-plan",
				"the LV '%s' reads ahead %" PRIu64 " KiB, more than the plan's %" PRIu64
				" KiB: nothing to fix", v->path, have_kib, want_kib);
}

/* The LV as the kernel has it: LVM's dm name for VG/LV, on the PV alone,
 * the plan's extents and read-ahead. */
static int judge_lv(struct sp_ctx *ctx, const char *dev, struct sp_step_result *res)
{
	const struct sp_lvm_plan *v = &ctx->plan->lvm;
	char want[SP_NAME_MAX], pv_name[SP_NAME_MAX] = "";
	struct sp_dm_node m;
	int r = sp_dm_node_read(ctx->sysfs, v->path, &m);

	if (r < 0)
		return sp_step_fail(res, -r, "cannot read '%s' in sysfs: %s", v->path, strerror(-r));
	if (!m.exists) {
		sp_step_line(res, "no active LV '%s' on the PV '%s'", v->path, dev);
		return 0;
	}
	sp_dm_lvm_name(v->vg, v->lv, want, sizeof(want));
	(void)sp_dm_kernel_name(ctx->sysfs, dev, pv_name, sizeof(pv_name));
	if (!m.is_dm || strcmp(m.dm_name, want) || strncmp(m.dm_uuid, "LVM-", 4))
		sp_step_line(res, "'%s' is not LVM's '%s' (dm name '%s')", v->path, want, m.dm_name);
	else if (m.n_slaves != 1 || strcmp(m.slave, pv_name))
		sp_step_line(res, "the LV '%s' lies on %zu device(s) ('%s'), the plan on '%s' alone",
			     v->path, m.n_slaves, m.slave, pv_name);
	else if (m.size_bytes != v->size_bytes)
		sp_step_line(res, "the LV '%s' holds %" PRIu64 " B, the plan %" PRIu64 " extents of %"
			     PRIu64 " B (%" PRIu64 " B)", v->path, m.size_bytes, v->extents,
			     v->extent_bytes, v->size_bytes);
	else if (v->read_ahead_sectors && m.read_ahead_kib != v->read_ahead_sectors / 2) {
		ctx->lv_read_ahead_only = true;
		sp_step_line(res, "the LV '%s' (%s) reads ahead %" PRIu64 " KiB (queue/read_ahead_kb), "
			     "the plan %" PRIu64 " KiB (lvcreate -r %" PRIu64 ")", v->path,
			     m.kernel_name, m.read_ahead_kib, v->read_ahead_sectors / 2,
			     v->read_ahead_sectors);
		judge_lv_read_ahead(v, m.read_ahead_kib, res);
	}
	return 0;
}

static int lvm_verify(struct sp_ctx *ctx, struct sp_step_result *res)
{
	char type[SP_NAME_MAX], uuid[SP_UUID_MAX], what[SP_MSG_MAX];
	const char *dev;
	bool ok = false;
	int r;

	if (!ctx || !ctx->plan)
		return sp_step_fail(res, EINVAL, "no plan to verify against");
	dev = below(ctx);
	summarize(ctx, res);
	ctx->lv_read_ahead_only = false;
	r = sp_layer_probe(dev, type, sizeof(type), uuid, sizeof(uuid), what, sizeof(what));
	if (r == -ENOENT) {
		sp_step_line(res, ctx->luks_closed ? "'%s' is not open: the PV on it is not read" :
						     "'%s' does not exist yet: no LVM PV", dev);
		res->status = ctx->auditing && ctx->luks_closed ? SP_STEP_UNCHANGED : SP_STEP_DRIFT;
		return 0;
	}
	if (r < 0)
		return sp_step_fail(res, -r, "cannot look at '%s': %s", dev, strerror(-r));
	if (r == 0)
		sp_step_line(res, "no LVM PV on '%s' (it is blank)", dev);
	else if (strcmp(type, LVM_TYPE))
		sp_step_line(res, "'%s' holds %s, not an LVM PV", dev, what);
	else
		r = judge_pv(ctx, dev, &ok, res);
	if (r == 0 && ok)
		r = judge_lv(ctx, dev, res);
	if (r < 0)
		return r;
	res->status = res->n_lines ? SP_STEP_DRIFT : SP_STEP_UNCHANGED;
	return 0;
}

/* ---------------------------------------------------------------- apply */

/* argv: the lvm program, the command, what is given, then --devices PV
 * and --config: every command sees the PV alone and keeps no backup. */
struct lvm_cmd {
	const char *argv[LVM_ARGV_MAX + 1];
	size_t n;
};

static void cmd_start(const struct sp_ctx *ctx, struct lvm_cmd *c, const char *command)
{
	c->n = 0;
	c->argv[c->n++] = ctx->lvm_path[0] ? ctx->lvm_path : "lvm";
	c->argv[c->n++] = command;
}

static void cmd_add(struct lvm_cmd *c, const char *arg)
{
	if (c->n < LVM_ARGV_MAX - 4)
		c->argv[c->n++] = arg;
}

static const char *const *cmd_end(struct lvm_cmd *c, const char *dev)
{
	c->argv[c->n++] = "--devices";
	c->argv[c->n++] = dev;
	c->argv[c->n++] = "--config";
	c->argv[c->n++] = LVM_CONFIG;
	c->argv[c->n] = NULL;
	return c->argv;
}

static void join(const char *const *argv, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; argv[i] && n < len; i++) {
		bool quote = strchr(argv[i], ' ') != NULL;
		int w = snprintf(buf + n, len - n, "%s%s%s%s", i ? " " : "", quote ? "'" : "", argv[i],
				 quote ? "'" : "");

		if (w < 0)
			break;
		n += (size_t)w;
	}
}

/* The three commands, each to res as a line (and in a real run, run). */
struct lvm_numbers {
	char align[32], extent[32], extents[32], read_ahead[32], vg_lv[2 * SP_NAME_MAX];
};

static void numbers(const struct sp_lvm_plan *v, struct lvm_numbers *n)
{
	/* every size the stack plans is whole KiB: lvm's own 'k' */
	snprintf(n->align, sizeof(n->align), "%" PRIu64 "k", v->data_alignment_bytes / 1024);
	snprintf(n->extent, sizeof(n->extent), "%" PRIu64 "k", v->extent_bytes / 1024);
	snprintf(n->extents, sizeof(n->extents), "%" PRIu64, v->extents);
	/* 512-byte sectors, lvm's unit for -r */
	snprintf(n->read_ahead, sizeof(n->read_ahead), "%" PRIu64, v->read_ahead_sectors);
	snprintf(n->vg_lv, sizeof(n->vg_lv), "%s/%s", v->vg, v->lv);
}

static int step_cmd(struct sp_ctx *ctx, const char *const *argv, struct sp_step_result *res)
{
	char cmd[SP_MSG_MAX];

	join(argv, cmd, sizeof(cmd));
	sp_step_line(res, "run: %s", cmd);
	return ctx->dry_run ? 0 : sp_layer_run(ctx, argv, NULL, 0, res);
}

static int make_pv(struct sp_ctx *ctx, const char *dev, const struct lvm_numbers *n,
		   struct sp_step_result *res)
{
	char type[SP_NAME_MAX], uuid[SP_UUID_MAX], what[SP_MSG_MAX] = "", after[SP_ACTION_VALUE_MAX];
	struct lvm_cmd c;
	int r = 0;

	if (sp_layer_probe(dev, type, sizeof(type), uuid, sizeof(uuid), what, sizeof(what)) <= 0)
		what[0] = '\0';
	if (!ctx->dry_run && !strcmp(dev, sp_ctx_partition_path(ctx)) && ctx->part_rdev)
		r = sp_step_wipe_signatures(ctx, dev, ctx->part_rdev, res);
	if (r < 0)
		return r;
	snprintf(after, sizeof(after), "LVM PV, pe_start %" PRIu64 " B",
		 ctx->plan->lvm.pe_start_bytes);
	sp_step_action(res, SP_ACTION_LVM, dev, what, after);
	cmd_start(ctx, &c, "pvcreate");
	cmd_add(&c, "--dataalignment");
	cmd_add(&c, n->align);
	cmd_add(&c, "--dataalignmentoffset");
	cmd_add(&c, "0");
	cmd_add(&c, dev);
	return step_cmd(ctx, cmd_end(&c, dev), res);
}

/* The plan's one linear LV in its VG (lvcreate -l EXTENTS). */
static int make_lv(struct sp_ctx *ctx, const char *dev, const struct lvm_numbers *n,
		   struct sp_step_result *res)
{
	const struct sp_lvm_plan *v = &ctx->plan->lvm;
	char after[SP_ACTION_VALUE_MAX];
	struct lvm_cmd c;

	snprintf(after, sizeof(after), "linear LV of %" PRIu64 " extents (%" PRIu64 " B)", v->extents,
		 v->size_bytes);
	sp_step_action(res, SP_ACTION_LVM, v->path, NULL, after);
	cmd_start(ctx, &c, "lvcreate");
	cmd_add(&c, "-l");
	cmd_add(&c, n->extents);
	cmd_add(&c, "-n");
	cmd_add(&c, v->lv);
	cmd_add(&c, "-y");
	cmd_add(&c, "-Wy");
	cmd_add(&c, "-Zy");
	if (v->read_ahead_sectors) {
		/* kept in the VG's metadata: set at every activation */
		cmd_add(&c, "-r");
		cmd_add(&c, n->read_ahead);
	}
	cmd_add(&c, v->vg);
	return step_cmd(ctx, cmd_end(&c, dev), res);
}

static int make_vg_lv(struct sp_ctx *ctx, const char *dev, const struct lvm_numbers *n,
		      struct sp_step_result *res)
{
	const struct sp_lvm_plan *v = &ctx->plan->lvm;
	char after[SP_ACTION_VALUE_MAX];
	struct lvm_cmd c;
	int r;

	snprintf(after, sizeof(after), "VG %s of %" PRIu64 " B extents on %s alone", v->vg,
		 v->extent_bytes, dev);
	sp_step_action(res, SP_ACTION_LVM, v->vg, NULL, after);
	cmd_start(ctx, &c, "vgcreate");
	cmd_add(&c, "-s");
	cmd_add(&c, n->extent);
	cmd_add(&c, v->vg);
	cmd_add(&c, dev);
	r = step_cmd(ctx, cmd_end(&c, dev), res);
	return r < 0 ? r : make_lv(ctx, dev, n, res);
}

/* Whether the VG (or VG/LV) is on the PV: lvm's exit status, 0 yes. */
static int lvm_has(struct sp_ctx *ctx, const char *command, const char *name, const char *dev,
		   struct sp_step_result *res)
{
	struct lvm_cmd c;

	cmd_start(ctx, &c, command);
	cmd_add(&c, "--readonly");
	cmd_add(&c, name);
	return sp_layer_status(ctx, cmd_end(&c, dev), res);
}

/* Whether the active LV reads ahead as the plan says (sysfs). */
static bool lv_reads_ahead_as_planned(const struct sp_ctx *ctx)
{
	const struct sp_lvm_plan *v = &ctx->plan->lvm;
	struct sp_dm_node m;

	return sp_dm_node_read(ctx->sysfs, v->path, &m) == 0 && m.exists &&
	       m.read_ahead_kib == v->read_ahead_sectors / 2;
}

/*
 * The plan's LV is there but differs: inactive, or another read-ahead
 * (LVM's auto, a value changed by hand).  An inactive LV is activated,
 * then its read-ahead, which LVM set from the VG's metadata, read: only
 * one that differs is set (lvchange -r, which also keeps it in the
 * metadata, refuses a value the metadata has already: exit 5).
 */
static int fix_lv(struct sp_ctx *ctx, const char *dev, const struct lvm_numbers *n,
		  struct sp_step_result *res)
{
	const struct sp_lvm_plan *v = &ctx->plan->lvm;
	char after[SP_ACTION_VALUE_MAX];
	struct lvm_cmd c;
	int r = 0;

	if (!ctx->lv_read_ahead_only) {
		sp_step_action(res, SP_ACTION_LVM, v->path, NULL, "activated (it was inactive)");
		cmd_start(ctx, &c, "lvchange");
		cmd_add(&c, "-ay");
		cmd_add(&c, n->vg_lv);
		r = step_cmd(ctx, cmd_end(&c, dev), res);
	}
	if (r < 0 || !v->read_ahead_sectors)
		return r;
	if (ctx->dry_run ? !ctx->lv_read_ahead_only : lv_reads_ahead_as_planned(ctx))
		return 0;
	snprintf(after, sizeof(after), "read-ahead %" PRIu64 " sectors (%" PRIu64 " KiB)",
		 v->read_ahead_sectors, v->read_ahead_sectors / 2);
	sp_step_action(res, SP_ACTION_LVM, v->path, NULL, after);
	cmd_start(ctx, &c, "lvchange");
	cmd_add(&c, "-r");
	cmd_add(&c, n->read_ahead);
	cmd_add(&c, n->vg_lv);
	return step_cmd(ctx, cmd_end(&c, dev), res);
}

static int lvm_apply(struct sp_ctx *ctx, struct sp_step_result *res)
{
	char type[SP_NAME_MAX], uuid[SP_UUID_MAX], what[SP_MSG_MAX];
	const struct sp_lvm_plan *v;
	struct lvm_numbers n = { 0 };
	bool pv_ok = false;
	const char *dev;
	int r;

	if (!ctx || !ctx->plan)
		return sp_step_fail(res, EINVAL, "no plan to apply");
	v = &ctx->plan->lvm;
	dev = below(ctx);
	numbers(v, &n);
	/* what is there now: a PV of the plan's (a run stopped half-way, a
	 * VG not activated) is kept, not made again */
	r = sp_layer_probe(dev, type, sizeof(type), uuid, sizeof(uuid), what, sizeof(what));
	if (r > 0 && !strcmp(type, LVM_TYPE)) {
		struct sp_step_result tmp = { .name = STEP };

		(void)judge_pv(ctx, dev, &pv_ok, &tmp);
		sp_step_result_clear(&tmp);
	}
	if (!pv_ok)
		r = make_pv(ctx, dev, &n, res);
	else
		r = 0;
	if (r == 0 && (ctx->dry_run || !pv_ok || lvm_has(ctx, "vgs", v->vg, dev, res) != 0))
		r = make_vg_lv(ctx, dev, &n, res);
	else if (r == 0 && lvm_has(ctx, "lvs", n.vg_lv, dev, res) != 0)
		r = make_lv(ctx, dev, &n, res);
	else if (r == 0)
		r = fix_lv(ctx, dev, &n, res);
	if (r < 0)
		return r;
	summarize(ctx, res);
	res->status = ctx->dry_run ? SP_STEP_DRY_RUN : SP_STEP_DONE;
	return 0;
}

/* ------------------------------------------------------------- refusals */

/*
 * Before any write: lvm is there, and the VG's name is free on this
 * machine.  `vgs` with --devices cannot see another disk's VG of the same
 * name, so the name is looked for as the machine has it: /dev/VG (an
 * active VG) and lvm's own read-only list of every VG it can see
 * (without --devices: a VG on another disk, active or not).
 */
static int lvm_preflight(struct sp_ctx *ctx, struct sp_step_result *res)
{
	const struct sp_lvm_plan *v = &ctx->plan->lvm;
	char dir[SP_PATH_MAX];
	struct lvm_cmd c;
	int r = sp_step_find_program(ctx, "lvm", ctx->lvm_path, sizeof(ctx->lvm_path), res);

	if (r < 0 || ctx->stack_open)
		return r;
	/* the plan's own VG on the PV (a run stopped before its LV) */
	if (access(below(ctx), F_OK) == 0 && lvm_has(ctx, "vgs", v->vg, below(ctx), res) == 0) {
		sp_step_result_clear(res);
		return 0;
	}
	sp_step_result_clear(res);
	snprintf(dir, sizeof(dir), "/dev/%s", v->vg);
	if (access(dir, F_OK) == 0)
		return sp_step_error(res, EEXIST, SP_ERR_REFUSED,
				     "a VG named '%s' is active ('%s' exists) and is not the plan's; "
				     "give another --vg, or deactivate it ('vgchange -an %s'); nothing "
				     "was written", v->vg, dir, v->vg);
	cmd_start(ctx, &c, "vgs");
	cmd_add(&c, "--readonly");
	cmd_add(&c, v->vg);
	c.argv[c.n++] = "--config";
	c.argv[c.n++] = LVM_CONFIG;
	c.argv[c.n] = NULL;
	r = sp_layer_status(ctx, c.argv, res);
	sp_step_result_clear(res);
	if (r == 0)
		return sp_step_error(res, EEXIST, SP_ERR_REFUSED,
				     "a VG named '%s' already exists on this machine (vgs sees it); "
				     "give another --vg; nothing was written", v->vg);
	return r < 0 ? r : 0;
}

static int lvm_probe_existing(struct sp_ctx *ctx, char *what, size_t len)
{
	return sp_layer_probe_below(ctx, below(ctx), "LVM PV", what, len);
}

const struct sp_step sp_step_lvm = {
	.name = STEP,
	.verify = lvm_verify,
	.apply = lvm_apply,
	.probe_existing = lvm_probe_existing,
	.preflight = lvm_preflight,
};
