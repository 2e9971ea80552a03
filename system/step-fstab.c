/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fstab step: one UUID= line for the new filesystem in <root>/etc/fstab,
 * and its mount point directory under <root>.
 *
 * Before anything is written the filesystem is mounted once with exactly
 * the planned options (mount-test.h: a detached mount nobody else sees)
 * and unmounted again.  An
 * option the running kernel rejects (XFS nobarrier since 4.19) fails
 * here, not at the next boot in emergency mode.  All refusals (a mount
 * point or UUID used by a line we did not write) happen before that
 * mount, so a refused run touches nothing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mount.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "fileio.h"
#include "fstab-file.h"
#include "mount-test.h"
#include "probe.h"
#include "steps.h"

#define OPTIONS_MAX (SP_MAX_OPTIONS * SP_NAME_MAX)

/* <root> + an absolute path, without a doubled slash. */
static int under_root(const struct sp_ctx *ctx, const char *abs, char *buf, size_t len)
{
	const char *root = ctx->root && ctx->root[0] ? ctx->root : "/";
	size_t n = strlen(root);
	int w;

	while (n > 0 && root[n - 1] == '/')
		n--;
	w = snprintf(buf, len, "%.*s%s", (int)n, root, abs);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

static void join_options(const struct sp_plan *plan, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < plan->n_mount_options && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "",
					 plan->mount_options[i]);
}

/* Fills the step's error; the message names the file or device. */
#define fail(res, code, kind, ...) sp_error_set(&(res)->error, code, kind, __VA_ARGS__)

/* An error from fstab.c, prefixed with the file it is about. */
static int fail_with(struct sp_step_result *res, const struct sp_error *err, const char *path)
{
	return fail(res, -err->code, err->kind, "%s: %s", path, err->message);
}

/* ---------------------------------------------------------- mount test */

/* Mounts the filesystem once with exactly the planned options, seen by
 * nobody and gone whatever happens to the run (mount-test.h). */
static int mount_test(const struct sp_ctx *ctx, struct sp_step_result *res)
{
	const struct sp_plan *plan = ctx->plan;
	char options[OPTIONS_MAX], msg[SP_MSG_MAX] = "";
	int r;

	join_options(plan, options, sizeof(options));
	r = sp_mount_test(sp_ctx_partition_path(ctx), sp_fs_name(plan->fs), options, msg,
			  sizeof(msg));
	if (r < 0)
		return fail(res, -r, SP_ERR_FAILED, "%s; fstab was not changed", msg);
	return 0;
}

/* ------------------------------------------------- the files under root */

/*
 * Where the step writes, opened once: every file below --root is reached
 * through root_fd (sp_root_open_dir), so neither a ".." nor a symlinked
 * etc/ or mount point can lead a write out of the root.  The paths are
 * for messages only.
 */
struct where {
	int root_fd;
	char fstab[SP_PATH_MAX];
	char lock[SP_PATH_MAX];
	char mnt[SP_PATH_MAX];
};

static void where_close(struct where *w)
{
	if (w->root_fd >= 0)
		close(w->root_fd);
	w->root_fd = -1;
}

static int where_open(const struct sp_ctx *ctx, struct where *w, struct sp_step_result *res)
{
	const char *root = ctx->root && ctx->root[0] ? ctx->root : "/";
	struct stat st;

	w->root_fd = -1;
	if (under_root(ctx, "/etc/fstab", w->fstab, sizeof(w->fstab)) < 0 ||
	    under_root(ctx, "/etc/" SP_FSTAB_LOCK_NAME, w->lock, sizeof(w->lock)) < 0 ||
	    under_root(ctx, ctx->plan->mountpoint, w->mnt, sizeof(w->mnt)) < 0)
		return fail(res, ENAMETOOLONG, SP_ERR_INVALID, "'%s': path too long", root);
	w->root_fd = sp_root_open(root);
	if (w->root_fd < 0 || fstat(w->root_fd, &st) < 0 || !S_ISDIR(st.st_mode)) {
		int e = w->root_fd < 0 ? -w->root_fd : ENOTDIR;

		where_close(w);
		return fail(res, e, SP_ERR_INVALID, "the target root '%s' is not a directory: %s",
			    root, strerror(e));
	}
	return 0;
}

/* <root>/etc: -ENOENT when it does not exist (and !create). */
static int open_etc(const struct where *w, bool create, int *ret_fd, struct sp_step_result *res)
{
	int fd = sp_root_open_dir(w->root_fd, "etc", create, 0755);

	if (fd == -ENOENT && !create)
		return -ENOENT;
	if (fd < 0)
		return fail(res, -fd, SP_ERR_INVALID,
			    "cannot reach the directory of '%s' inside the target root: %s", w->fstab,
			    strerror(-fd));
	*ret_fd = fd;
	return 0;
}

/* The fstab as it is; a missing <root>/etc reads as a missing fstab. */
static int read_current(const struct where *w, char **ret_text, struct sp_fstab_file *ret_file,
			struct sp_step_result *res)
{
	struct sp_error err = { 0 };
	int etc_fd = -1, r;

	r = open_etc(w, false, &etc_fd, res);
	if (r == -ENOENT) {
		*ret_text = strdup("");
		*ret_file = (struct sp_fstab_file){ .exists = false, .mode = 0644 };
		return *ret_text ? 0 : fail(res, ENOMEM, SP_ERR_FAILED, "out of memory");
	}
	if (r < 0)
		return r;
	r = sp_fstab_read_at(etc_fd, "fstab", w->fstab, ret_text, ret_file, &err);
	close(etc_fd);
	return r < 0 ? fail_with(res, &err, w->fstab) : 0;
}

enum mnt_state { MNT_MISSING, MNT_DIR, MNT_MOUNTED };

/* What is at the mount point now; -errno (res filled) when it is not a
 * directory stripeplan may create or use. */
static int mount_point_state(const struct sp_ctx *ctx, const struct where *w, bool create,
			     enum mnt_state *ret, struct sp_step_result *res)
{
	struct statx stx;
	int fd = sp_root_open_dir(w->root_fd, ctx->plan->mountpoint, create, 0755);

	if (fd == -ENOENT && !create) {
		*ret = MNT_MISSING;
		return 0;
	}
	if (fd < 0)
		return fail(res, -fd, SP_ERR_INVALID,
			    "mount point '%s' cannot be %s inside the target root: %s", w->mnt,
			    create ? "created" : "reached",
			    fd == -ENOTDIR || fd == -EEXIST ? "something else is in the way" :
							      strerror(-fd));
	*ret = MNT_DIR;
	if (statx(fd, "", AT_EMPTY_PATH, 0, &stx) == 0 &&
	    (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
	    (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
		*ret = MNT_MOUNTED;
	close(fd);
	return 0;
}

static int refuse_mounted(const struct where *w, struct sp_step_result *res)
{
	return fail(res, EBUSY, SP_ERR_REFUSED,
		    "mount point '%s' already has a filesystem mounted on it", w->mnt);
}

/* ---------------------------------------------------------------- verify */

/*
 * verify reads <root>/etc/fstab and collects every line that mounts the
 * filesystem, however it is named, into a struct sp_found_fstab;
 * sp_judge_fstab() in the core judges them.
 */

static void no_mountpoint(struct sp_step_result *res)
{
	res->status = SP_STEP_UNCHANGED;
	snprintf(res->summary, sizeof(res->summary), "no mount point planned");
}

/* How the filesystem can be named in fstab. */
struct names {
	const char *uuid, *label;
	char partuuid[SP_NAME_MAX], partlabel[SP_NAME_MAX];
	dev_t rdev;
	bool have_rdev;
	bool uuid_only; /* apply: only the lines it may own or must not duplicate */
};

/* PARTUUID and PARTLABEL of the partition node, from its table entry. */
static void partition_names(const char *path, struct names *n)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *v;

	if (!pr)
		return;
	blkid_probe_enable_superblocks(pr, 0);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	if (blkid_do_safeprobe(pr) == 0) {
		if (blkid_probe_lookup_value(pr, "PART_ENTRY_UUID", &v, NULL) == 0)
			snprintf(n->partuuid, sizeof(n->partuuid), "%s", v);
		if (blkid_probe_lookup_value(pr, "PART_ENTRY_NAME", &v, NULL) == 0)
			snprintf(n->partlabel, sizeof(n->partlabel), "%s", v);
	}
	blkid_free_probe(pr);
}

static bool same(const char *a, const char *b)
{
	return a && b && a[0] && !strcasecmp(a, b);
}

/* /dev/sdb1, /dev/disk/by-id/..., /dev/mapper/... all lead to the node. */
static bool names_match(const char *tag, const char *value, const char *source, void *userdata)
{
	const struct names *n = userdata;
	struct stat st;

	if (!strcmp(tag, "UUID"))
		return same(value, n->uuid);
	if (n->uuid_only)
		return !strncmp(source, "/dev/disk/by-uuid/", 18) && same(source + 18, n->uuid);
	if (!strcmp(tag, "LABEL"))
		return n->label && n->label[0] && !strcmp(value, n->label);
	if (!strcmp(tag, "PARTUUID"))
		return same(value, n->partuuid);
	if (!strcmp(tag, "PARTLABEL"))
		return n->partlabel[0] && !strcmp(value, n->partlabel);
	if (tag[0] || source[0] != '/')
		return false;
	return n->have_rdev && stat(source, &st) == 0 && S_ISBLK(st.st_mode) &&
	       st.st_rdev == n->rdev;
}

static void copy_line(const struct sp_fstab_entry *e, struct sp_found_mount_line *l)
{
	l->line = e->line;
	l->owned = e->owned;
	snprintf(l->source, sizeof(l->source), "%s", e->source);
	snprintf(l->target, sizeof(l->target), "%s", e->target);
	snprintf(l->fstype, sizeof(l->fstype), "%s", e->fstype);
	snprintf(l->options, sizeof(l->options), "%s", e->options);
	l->passno = e->passno;
}

/* The plan's line for this UUID, parsed the way the file's lines are. */
static int planned_entry(const struct sp_ctx *ctx, struct sp_found_fstab *f,
			 struct sp_step_result *res)
{
	struct sp_fstab_entry want;
	struct sp_error err = { 0 };
	size_t n = 0;

	if (!ctx->plan->mountpoint[0] || !ctx->fs_uuid[0])
		return 0;
	if (sp_fstab_line_render(ctx->plan, ctx->fs_uuid, f->planned_line,
				 sizeof(f->planned_line)) < 0)
		return fail(res, EINVAL, SP_ERR_FAILED,
			    "cannot render the planned fstab line '%s' for UUID '%s'",
			    ctx->plan->fstab_line, ctx->fs_uuid);
	if (sp_fstab_find_uuid(f->planned_line, ctx->fs_uuid, &want, 1, &n, &err) < 0)
		return fail_with(res, &err, "fstab");
	if (n != 1)
		return fail(res, EINVAL, SP_ERR_FAILED,
			    "the planned fstab line '%s' does not parse as one entry",
			    f->planned_line);
	copy_line(&want, &f->planned);
	f->have_planned = true;
	return 0;
}

static int find_lines(const struct sp_ctx *ctx, const struct where *w, struct sp_found_fstab *f,
		      struct sp_step_result *res)
{
	struct sp_fstab_entry *have = calloc(SP_FOUND_MAX_MOUNT_LINES, sizeof(*have));
	struct names names = { .uuid = ctx->fs_uuid, .label = ctx->found_fs.label,
				.uuid_only = !ctx->auditing };
	struct sp_fstab_file file;
	struct sp_error err = { 0 };
	struct stat st;
	char *text = NULL;
	int r = 0;

	if (!have)
		return fail(res, ENOMEM, SP_ERR_FAILED, "out of memory");
	if (stat(f->fs_path, &st) == 0 && S_ISBLK(st.st_mode)) {
		names.rdev = st.st_rdev;
		names.have_rdev = true;
		partition_names(f->fs_path, &names);
	}
	r = read_current(w, &text, &file, res);
	if (r == 0 && sp_fstab_find(text, names_match, &names, have, SP_FOUND_MAX_MOUNT_LINES,
				    &f->n_lines, &err) < 0)
		r = fail_with(res, &err, f->path);
	for (size_t i = 0; r == 0 && i < f->n_lines && i < SP_FOUND_MAX_MOUNT_LINES; i++)
		copy_line(&have[i], &f->lines[i]);
	free(text);
	free(have);
	return r;
}

static void look_at_mountpoint(const struct sp_ctx *ctx, const struct where *w,
			       struct sp_found_fstab *f)
{
	int fd;

	const char *target = ctx->plan->mountpoint[0] ? ctx->plan->mountpoint :
			     f->n_lines	       ? f->lines[0].target :
						 "";

	if (target[0] != '/' ||
	    under_root(ctx, target, f->mountpoint_dir, sizeof(f->mountpoint_dir)) < 0)
		return;
	f->mountpoint_checked = true;
	/* through the root, as apply would reach it: a symlink out is no directory */
	fd = sp_root_open_dir(w->root_fd, target, false, 0);
	f->mountpoint_is_dir = fd >= 0;
	if (fd >= 0)
		close(fd);
}

static int read_fstab(struct sp_ctx *ctx, struct sp_found_fstab *f, struct sp_step_result *res)
{
	struct where w = { .root_fd = -1 };
	int r;

	if (under_root(ctx, "/etc/fstab", f->path, sizeof(f->path)) < 0)
		return fail(res, ENAMETOOLONG, SP_ERR_FAILED, "'%s': path too long", ctx->root);
	snprintf(f->fs_path, sizeof(f->fs_path), "%s",
		 ctx->have_found_fs ? ctx->found_fs.path : sp_ctx_partition_path(ctx));
	if (ctx->have_found_fs && !ctx->found_fs.blank && !ctx->found_fs.ambivalent) {
		snprintf(f->fs_type, sizeof(f->fs_type), "%s", ctx->found_fs.type);
		f->fs_log_su_bytes = ctx->found_fs.xfs_logsunit_bytes;
	} else if (!ctx->have_found_fs && ctx->fs_uuid[0]) {
		/* run alone (tests): the filesystem is the plan's */
		snprintf(f->fs_type, sizeof(f->fs_type), "%s", sp_fs_name(ctx->plan->fs));
	}
	snprintf(f->fs_uuid, sizeof(f->fs_uuid), "%s", ctx->fs_uuid);
	if (!f->fs_type[0] || (!ctx->auditing && !ctx->plan->mountpoint[0]))
		return 0;
	r = planned_entry(ctx, f, res);
	if (r == 0)
		r = where_open(ctx, &w, res);
	if (r == 0)
		r = find_lines(ctx, &w, f, res);
	if (r == 0)
		look_at_mountpoint(ctx, &w, f);
	where_close(&w);
	return r;
}

static int verify(struct sp_ctx *ctx, struct sp_step_result *res)
{
	struct sp_found_fstab *f = calloc(1, sizeof(*f));
	int r;

	if (!f)
		return fail(res, ENOMEM, SP_ERR_FAILED, "out of memory");
	r = read_fstab(ctx, f, res);
	if (r == 0) {
		sp_judge_fstab(ctx->plan, f, &res->findings);
		sp_step_take_findings(res);
		if (!ctx->plan->mountpoint[0] && !f->n_lines)
			snprintf(res->summary, sizeof(res->summary), "no mount point planned");
		else if (res->status == SP_STEP_UNCHANGED && f->planned_line[0])
			snprintf(res->summary, sizeof(res->summary), "%s in %s", f->planned_line,
				 f->path);
		else if (f->n_lines)
			snprintf(res->summary, sizeof(res->summary), "%s line %u: %s %s %s",
				 f->path, f->lines[0].line, f->lines[0].source, f->lines[0].target,
				 f->lines[0].options);
	}
	free(f);
	return r;
}

/* ----------------------------------------------------------------- apply */

static const char *action_name(enum sp_fstab_action a, bool done)
{
	if (a == SP_FSTAB_ADD)
		return done ? "added" : "add";
	if (a == SP_FSTAB_REPLACE)
		return done ? "replaced" : "replace";
	return done ? "kept" : "keep";
}

static void dry_run_lines(const struct sp_ctx *ctx, const struct where *w, const char *line,
			  enum sp_fstab_action action, enum mnt_state mnt,
			  struct sp_step_result *res)
{
	const char *source = ctx->partition_path[0] ? ctx->partition_path :
						      ctx->plan->partition_path;
	char options[OPTIONS_MAX];

	join_options(ctx->plan, options, sizeof(options));
	sp_step_line(res, "mount-test %s with %s on a temporary directory", source, options);
	if (mnt == MNT_MISSING)
		sp_step_line(res, "create %s", w->mnt);
	sp_step_line(res, "write %s: %s '%s'", w->fstab, action_name(action, false), line);
	snprintf(res->summary, sizeof(res->summary), "would %s '%s' in %s",
		 action_name(action, false), line, w->fstab);
}

/* The line to write; before mkfs (dry run, preflight) the UUID is still
 * the placeholder, and the merge then checks the mount point only. */
static int render_line(const struct sp_ctx *ctx, bool placeholder_ok, char *line, size_t len,
		       struct sp_step_result *res)
{
	if (!ctx->fs_uuid[0]) {
		if (!placeholder_ok)
			return fail(res, ENOENT, SP_ERR_FAILED,
				    "the UUID of the filesystem on '%s' is unknown (the filesystem "
				    "step reported none); no fstab line written",
				    ctx->partition_path[0] ? ctx->partition_path :
							     ctx->plan->partition_path);
		snprintf(line, len, "%s", ctx->plan->fstab_line);
		return 0;
	}
	if (sp_fstab_line_render(ctx->plan, ctx->fs_uuid, line, len) < 0)
		return fail(res, EINVAL, SP_ERR_INVALID,
			    "cannot put UUID '%s' into the planned fstab line '%s'", ctx->fs_uuid,
			    ctx->plan->fstab_line);
	return 0;
}

/* Reads and merges in memory: every refusal happens here, before the
 * mount test and before anything is written. */
static int prepare(const struct sp_ctx *ctx, const struct where *w, const char *line,
		   const char *uuid, char **ret_text, struct sp_fstab_file *ret_file,
		   enum sp_fstab_action *ret_action, struct sp_step_result *res)
{
	struct sp_error err = { 0 };
	char *old = NULL;
	int r;

	r = read_current(w, &old, ret_file, res);
	if (r < 0)
		return r;
	r = sp_fstab_merge_action(old, line, ctx->plan->mountpoint, uuid, ret_text, ret_action,
				  &err);
	free(old);
	return r < 0 ? fail_with(res, &err, w->fstab) : 0;
}

/* The plan's mount point must be the one the planner would write: a plan
 * file is untrusted, and a spelling like "/data/.." is "/". */
static int check_mountpoint(const struct sp_ctx *ctx, struct sp_step_result *res)
{
	char normalized[SP_PATH_MAX];
	struct sp_error err = { 0 };

	if (sp_mountpoint_check(ctx->plan->mountpoint, ctx->force, normalized, sizeof(normalized),
				&err) < 0)
		return fail(res, -err.code, SP_ERR_INVALID, "%s", err.message);
	if (strcmp(normalized, ctx->plan->mountpoint))
		return fail(res, EINVAL, SP_ERR_INVALID,
			    "mountpoint: the plan spells it '%s'; plans name it '%s'",
			    ctx->plan->mountpoint, normalized);
	return 0;
}

/* The root must take the new files: <root>/etc and the mount point are
 * (or can be made) writable directories inside it.  A read-only target,
 * or a symlinked etc/ that leads out of the root, fails here, before the
 * disk is touched, not after mkfs. */
static int check_writable(const struct where *w, const char *rel, const char *display,
			  struct sp_step_result *res)
{
	int r = sp_root_check_dir(w->root_fd, rel);

	if (r < 0)
		return fail(res, -r, SP_ERR_REFUSED,
			    "cannot write '%s' inside the target root: %s; nothing was written",
			    display,
			    r == -EEXIST ? "something that is not a directory there (a file, or a "
					   "link that leads out of the root) is in the way" :
					   strerror(-r));
	return 0;
}

/* Everything apply could refuse, checked before any step writes. */
static int preflight(struct sp_ctx *ctx, struct sp_step_result *res)
{
	char line[sizeof(ctx->plan->fstab_line) + SP_UUID_MAX];
	enum sp_fstab_action action;
	struct sp_fstab_file file;
	enum mnt_state mnt;
	struct where w = { .root_fd = -1 };
	char *text = NULL;
	int r;

	if (!ctx->plan->mountpoint[0])
		return 0;
	r = check_mountpoint(ctx, res);
	if (r == 0)
		r = where_open(ctx, &w, res);
	if (r < 0)
		return r;
	/* the filesystem may still be re-made: check the mount point only */
	snprintf(line, sizeof(line), "%s", ctx->plan->fstab_line);
	r = prepare(ctx, &w, line, NULL, &text, &file, &action, res);
	free(text);
	if (r == 0)
		r = mount_point_state(ctx, &w, false, &mnt, res);
	if (r == 0 && mnt == MNT_MOUNTED)
		r = refuse_mounted(&w, res);
	if (r == 0 && !ctx->dry_run)
		r = check_writable(&w, "etc", w.fstab, res);
	if (r == 0 && !ctx->dry_run)
		r = check_writable(&w, ctx->plan->mountpoint, w.mnt, res);
	where_close(&w);
	return r;
}

static int write_fstab(const struct where *w, const char *text, const struct sp_fstab_file *file,
		       int etc_fd, struct sp_step_result *res)
{
	struct sp_error err = { 0 };

	if (sp_fstab_write_atomic_at(etc_fd, "fstab", w->fstab, text, file, &err) < 0)
		return fail(res, -err.code, SP_ERR_FAILED, "%s", err.message);
	return 0;
}

/* How long a run waits for another one on the same root to finish its
 * fstab (its mount test included). */
#define FSTAB_LOCK_WAIT_MS 60000U

static int apply(struct sp_ctx *ctx, struct sp_step_result *res)
{
	char line[sizeof(ctx->plan->fstab_line) + SP_UUID_MAX];
	enum sp_fstab_action action = SP_FSTAB_KEEP;
	enum mnt_state mnt = MNT_MISSING;
	struct sp_fstab_file file;
	struct sp_error err = { 0 };
	int etc_fd = -1, lock_fd = -1, r;
	struct where w = { .root_fd = -1 };
	char *text = NULL;

	if (!ctx->plan->mountpoint[0]) {
		no_mountpoint(res);
		return 0;
	}
	r = check_mountpoint(ctx, res);
	if (r == 0)
		r = render_line(ctx, ctx->dry_run, line, sizeof(line), res);
	if (r == 0)
		r = where_open(ctx, &w, res);
	if (r < 0)
		return r;
	if (ctx->dry_run) {
		r = prepare(ctx, &w, line, ctx->fs_uuid[0] ? ctx->fs_uuid : NULL, &text, &file,
			    &action, res);
		if (r == 0)
			r = mount_point_state(ctx, &w, false, &mnt, res);
		if (r == 0)
			dry_run_lines(ctx, &w, line, action, mnt, res);
		goto out;
	}
	/* read, merge and replace under the root's fstab lock: a second run
	 * on the same root waits, then merges into what this one wrote */
	r = open_etc(&w, true, &etc_fd, res);
	if (r == 0 && sp_fstab_lock(etc_fd, w.lock, FSTAB_LOCK_WAIT_MS, &lock_fd, &err) < 0)
		r = fail_with(res, &err, w.fstab);
	if (r == 0)
		r = prepare(ctx, &w, line, ctx->fs_uuid, &text, &file, &action, res);
	if (r == 0)
		r = mount_test(ctx, res);
	if (r == 0)
		r = mount_point_state(ctx, &w, true, &mnt, res);
	if (r == 0 && mnt == MNT_MOUNTED)
		r = refuse_mounted(&w, res);
	if (r == 0 && action != SP_FSTAB_KEEP)
		r = write_fstab(&w, text, &file, etc_fd, res);
	if (r == 0)
		snprintf(res->summary, sizeof(res->summary), "%s '%s' in %s; mount test passed",
			 action_name(action, true), line, w.fstab);
out:
	if (lock_fd >= 0)
		close(lock_fd);
	if (etc_fd >= 0)
		close(etc_fd);
	where_close(&w);
	free(text);
	return r;
}

const struct sp_step sp_step_fstab = { "fstab", verify, apply, NULL, preflight };
