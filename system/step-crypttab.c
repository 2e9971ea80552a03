/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The crypttab step: the plan's LUKS2 volume in <root>/etc/crypttab by
 * its UUID (sp_crypttab_line), so the installed system opens it at boot
 * before the fstab line mounts what is on it.  Read and replaced as the
 * fstab is (sp_fstab_read_at, sp_fstab_write_atomic_at: bounded, no
 * link, mode and owner kept, renamed over), every file reached through
 * the root's descriptor; only the volume's own line is changed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "fstab-file.h"
#include "fstab/crypttab.h"
#include "steps.h"

#define STEP "crypttab"

struct where {
	int root_fd;
	int etc_fd;
	char path[SP_PATH_MAX]; /* for messages */
};

static void where_close(struct where *w)
{
	if (w->etc_fd >= 0)
		close(w->etc_fd);
	if (w->root_fd >= 0)
		close(w->root_fd);
	w->etc_fd = w->root_fd = -1;
}

/* <root>/etc, created when create; -ENOENT (nothing filled) when it is
 * missing and not created. */
static void crypttab_path(const struct sp_ctx *ctx, char *buf, size_t len)
{
	const char *root = ctx->root && ctx->root[0] ? ctx->root : "/";
	size_t n = strlen(root);

	while (n > 0 && root[n - 1] == '/')
		n--;
	snprintf(buf, len, "%.*s/etc/crypttab", (int)n, root);
}

static int where_open(const struct sp_ctx *ctx, bool create, struct where *w,
		      struct sp_step_result *res)
{
	const char *root = ctx->root && ctx->root[0] ? ctx->root : "/";

	w->root_fd = w->etc_fd = -1;
	crypttab_path(ctx, w->path, sizeof(w->path));
	w->root_fd = sp_root_open(root);
	if (w->root_fd < 0)
		return sp_step_error(res, -w->root_fd, SP_ERR_INVALID,
				     "the target root '%s' cannot be opened: %s", root,
				     strerror(-w->root_fd));
	w->etc_fd = sp_root_open_dir(w->root_fd, "etc", create, 0755);
	if (w->etc_fd == -ENOENT && !create) {
		where_close(w);
		return -ENOENT;
	}
	if (w->etc_fd < 0) {
		int e = -w->etc_fd;

		where_close(w);
		return sp_step_error(res, e, SP_ERR_INVALID,
				     "cannot reach the directory of '%s' inside the target root: %s",
				     w->path, strerror(e));
	}
	return 0;
}

/* The file's text now ("" when it or <root>/etc is missing) and the
 * merged text with the plan's line. */
struct state {
	char *text, *merged;
	struct sp_fstab_file file;
	size_t found;
	char old[SP_CRYPTTAB_LINE_MAX];
	char line[SP_CRYPTTAB_LINE_MAX];
};

static void state_free(struct state *s)
{
	free(s->text);
	free(s->merged);
	s->text = s->merged = NULL;
}

static int read_state(const struct sp_ctx *ctx, struct state *s, struct sp_step_result *res)
{
	struct sp_error err = { 0 };
	struct where w;
	int r = where_open(ctx, false, &w, res);

	memset(s, 0, sizeof(*s));
	if (r == -ENOENT) {
		s->text = strdup("");
		s->file = (struct sp_fstab_file){ .exists = false, .mode = 0644 };
	} else if (r < 0) {
		return r;
	} else {
		r = sp_fstab_read_at(w.etc_fd, "crypttab", w.path, &s->text, &s->file, &err);
		where_close(&w);
		if (r < 0)
			return sp_step_error(res, -err.code, err.kind, "%s", err.message);
	}
	if (!s->text)
		return sp_step_fail(res, ENOMEM, "out of memory");
	/* before the LUKS2 volume exists its UUID is not known: the line is
	 * checked for the name alone (dry run, preflight) */
	r = sp_crypttab_line(ctx->plan, ctx->luks_uuid[0] ? ctx->luks_uuid : NULL, s->line,
			     sizeof(s->line), &err);
	if (r == 0)
		r = sp_crypttab_merge(s->text, ctx->plan->luks.name, s->line, &s->merged, &s->found,
				      s->old, sizeof(s->old), &err);
	if (r < 0) {
		state_free(s);
		return sp_step_error(res, -err.code, err.kind, "%s", err.message);
	}
	return 0;
}

static void summarize(const struct sp_ctx *ctx, const struct state *s, struct sp_step_result *res)
{
	char path[SP_PATH_MAX];

	crypttab_path(ctx, path, sizeof(path));
	snprintf(res->summary, sizeof(res->summary), "%s in %s", s->line, path);
}

static int crypttab_verify(struct sp_ctx *ctx, struct sp_step_result *res)
{
	struct state s;
	int r;

	if (!ctx || !ctx->plan)
		return sp_step_fail(res, EINVAL, "no plan to verify against");
	r = read_state(ctx, &s, res);
	if (r < 0)
		return r;
	summarize(ctx, &s, res);
	if (!ctx->luks_uuid[0])
		sp_step_line(res, "no LUKS2 volume of the plan's yet: its crypttab line names its UUID");
	else if (!s.found)
		sp_step_line(res, "no crypttab line for '%s' (the plan's: '%s')", ctx->plan->luks.name,
			     s.line);
	else if (s.found > 1 || strcmp(s.text, s.merged))
		sp_step_line(res, "the crypttab line for '%s' is '%s'%s, the plan's '%s'",
			     ctx->plan->luks.name, s.old, s.found > 1 ? " (and more lines for it)" : "",
			     s.line);
	res->status = res->n_lines ? SP_STEP_DRIFT : SP_STEP_UNCHANGED;
	state_free(&s);
	return 0;
}

static void action(const struct state *s, const char *path, struct sp_step_result *res)
{
	sp_step_action(res, SP_ACTION_FILE, path, s->found ? s->old : NULL, s->line);
}

static int crypttab_apply(struct sp_ctx *ctx, struct sp_step_result *res)
{
	struct sp_error err = { 0 };
	struct where w;
	struct state s;
	int r;

	if (!ctx || !ctx->plan)
		return sp_step_fail(res, EINVAL, "no plan to apply");
	r = read_state(ctx, &s, res);
	if (r < 0)
		return r;
	summarize(ctx, &s, res);
	if (ctx->dry_run && s.found == 1 && !strcmp(s.text, s.merged)) {
		/* the volume's line is there already (its UUID known): nothing to write */
		res->status = SP_STEP_DRY_RUN;
		state_free(&s);
		return 0;
	}
	if (ctx->dry_run) {
		crypttab_path(ctx, w.path, sizeof(w.path));
		action(&s, w.path, res);
		sp_step_line(res, "write %s: '%s'%s", w.path, s.line,
			     ctx->luks_uuid[0] ? "" : " (" SP_CRYPTTAB_UUID_PLACEHOLDER
						      ": the UUID luksFormat gives the volume)");
		res->status = SP_STEP_DRY_RUN;
		state_free(&s);
		return 0;
	}
	if (!ctx->luks_uuid[0]) {
		state_free(&s);
		return sp_step_fail(res, ENOENT, "the UUID of the LUKS2 volume on '%s' is unknown (the "
				    "luks step reported none); no crypttab line written",
				    ctx->plan->luks.below);
	}
	r = where_open(ctx, true, &w, res);
	if (r == 0) {
		action(&s, w.path, res);
		r = sp_fstab_write_atomic_at(w.etc_fd, "crypttab", w.path, s.merged, &s.file, &err);
		if (r < 0)
			r = sp_step_fail(res, -err.code, "%s", err.message);
		where_close(&w);
	}
	state_free(&s);
	if (r < 0)
		return r;
	res->status = SP_STEP_DONE;
	return 0;
}

/* Before any write: the file can be read and merged. */
static int crypttab_preflight(struct sp_ctx *ctx, struct sp_step_result *res)
{
	struct state s;
	int r = read_state(ctx, &s, res);

	if (r < 0)
		return r;
	state_free(&s);
	return 0;
}

const struct sp_step sp_step_crypttab = {
	.name = STEP,
	.verify = crypttab_verify,
	.apply = crypttab_apply,
	.preflight = crypttab_preflight,
};
