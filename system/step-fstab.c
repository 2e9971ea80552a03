/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fstab step: one UUID= line for the new filesystem in <root>/etc/fstab,
 * and its mount point directory under <root>.
 *
 * Before anything is written the filesystem is mounted once with exactly
 * the planned options (mount-test.h: a detached mount nobody else sees)
 * and unmounted again.  An option the running kernel rejects (XFS
 * nobarrier since 4.19) fails here, not at the next boot in emergency
 * mode.  Everything the step could refuse is refused by its preflight,
 * before the first step writes: a line that names what apply writes in
 * any spelling (fs-names.h), a mount point another device has, an fstab
 * the reader would not take back, a lock that is no regular file, a mount
 * point in a system directory (also through a link).  The lock is taken
 * before the first write (reserve) and held through this step, so no
 * other run's line can appear between the preflight and the write.
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
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fileio.h"
#include "fs-names.h"
#include "fstab-file.h"
#include "mount-test.h"
#include "probe.h"
#include "steps.h"

#define OPTIONS_MAX (SP_MAX_OPTIONS * SP_NAME_MAX)
/* The longest UUID mkfs.xfs or mke2fs gives a filesystem (8-4-4-4-12):
 * what the preflight puts in the line it measures the merged fstab with. */
#define LONGEST_UUID "00000000-0000-0000-0000-000000000000"

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
	r = sp_mount_test(sp_ctx_fs_path(ctx), sp_fs_name(plan->fs), options, msg,
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

/* How verify looks for the filesystem's lines. */
struct names {
	const char *uuid;
	bool uuid_only; /* apply: only the lines it may own or must not duplicate */
	struct sp_fs_names *set; /* check: every spelling (fs-names.h) */
};

static bool same(const char *a, const char *b)
{
	return a && b && a[0] && !strcasecmp(a, b);
}

static bool names_match(const char *tag, const char *value, const char *source, void *userdata)
{
	const struct names *n = userdata;

	if (!strcmp(tag, "UUID"))
		return same(value, n->uuid);
	if (n->uuid_only)
		return !strncmp(source, "/dev/disk/by-uuid/", 18) && same(source + 18, n->uuid);
	return sp_fs_names_match(n->set, tag, value, source);
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
	struct names names = { .uuid = ctx->fs_uuid, .uuid_only = !ctx->auditing,
				.set = sp_fs_names_new() };
	struct sp_fstab_file file;
	struct sp_error err = { 0 };
	char *text = NULL;
	int r = 0;

	if (!have || !names.set) {
		free(have);
		sp_fs_names_free(names.set);
		return fail(res, ENOMEM, SP_ERR_FAILED, "out of memory");
	}
	/* the node (a missing one still leaves the names known) */
	if (sp_fs_names_add_node(names.set, f->fs_path) == -ENOMEM ||
	    sp_fs_names_add_fs(names.set, ctx->fs_uuid, ctx->found_fs.label) < 0)
		r = fail(res, ENOMEM, SP_ERR_FAILED, "out of memory");
	if (r == 0)
		r = read_current(w, &text, &file, res);
	if (r == 0 && sp_fstab_find(text, names_match, &names, have, SP_FOUND_MAX_MOUNT_LINES,
				    &f->n_lines, &err) < 0)
		r = fail_with(res, &err, f->path);
	for (size_t i = 0; r == 0 && i < f->n_lines && i < SP_FOUND_MAX_MOUNT_LINES; i++)
		copy_line(&have[i], &f->lines[i]);
	sp_fs_names_free(names.set);
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
	/* check over a closed LUKS2 volume of the plan's: the filesystem the
	 * line names is not readable, so the line is not judged (the luks
	 * step says the volume is closed) */
	if (ctx->auditing && ctx->luks_closed && ctx->have_found_fs && ctx->found_fs.no_node) {
		sp_step_line(res, "'%s' is not open: the fstab line of the filesystem on it is not "
			     "judged", ctx->plan->luks.path);
		free(f);
		return 0;
	}
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
	const char *source = sp_ctx_fs_path(ctx);
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
				    sp_ctx_fs_path(ctx));
		snprintf(line, len, "%s", ctx->plan->fstab_line);
		return 0;
	}
	if (sp_fstab_line_render(ctx->plan, ctx->fs_uuid, line, len) < 0)
		return fail(res, EINVAL, SP_ERR_INVALID,
			    "cannot put UUID '%s' into the planned fstab line '%s'", ctx->fs_uuid,
			    ctx->plan->fstab_line);
	return 0;
}

/* ------------------------------------------ what apply writes, by name */

static bool merge_ours(const char *tag, const char *value, const char *source, void *userdata)
{
	return sp_fs_names_match(userdata, tag, value, source);
}

static void merge_node_of(const char *tag, const char *value, const char *source, char *buf,
			  size_t len, void *userdata)
{
	(void)userdata;
	sp_fs_names_resolve(tag, value, source, buf, len);
}

/* One node's names; a node that is not there (yet) has none. */
static int add_node(struct sp_fs_names *set, const char *path)
{
	int r = path && path[0] ? sp_fs_names_add_node(set, path) : 0;

	return r == -ENOMEM ? r : 0;
}

static int add_partitions(const struct sp_ctx *ctx, struct sp_fs_names *set)
{
	struct sp_sysfs_partitions *parts;
	char node[SP_PATH_MAX];
	struct stat st;
	int r = 0;

	if (stat(sp_ctx_disk_path(ctx), &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	parts = calloc(1, sizeof(*parts));
	if (!parts)
		return -ENOMEM;
	if (sp_sysfs_partitions(ctx->sysfs, major(st.st_rdev), minor(st.st_rdev), parts) == 0)
		for (size_t i = 0; r == 0 && i < parts->n; i++)
			if (sp_node_of(parts->p[i].name, node, sizeof(node)) == 0)
				r = add_node(set, node);
	free(parts);
	return r;
}

/*
 * Every name the disk, each partition on it and their filesystems have
 * before the first write, and the label the new filesystem gets: a line
 * naming any of them is about what apply writes.  Read once, by the
 * preflight, and kept for the apply that comes after mkfs, when the old
 * names are gone from the disk.
 */
static int read_names(struct sp_ctx *ctx, struct sp_step_result *res)
{
	struct sp_fs_names *set;
	int r;

	if (ctx->names)
		return 0;
	set = sp_fs_names_new();
	if (!set)
		return fail(res, ENOMEM, SP_ERR_FAILED, "out of memory");
	r = add_node(set, sp_ctx_disk_path(ctx));
	if (r == 0)
		r = add_partitions(ctx, set);
	if (r == 0)
		r = add_node(set, sp_ctx_partition_path(ctx));
	/* the top of a stack, once there (a line naming /dev/VG/LV is ours) */
	if (r == 0 && ctx->plan->n_layers && access(ctx->plan->fs_path, F_OK) == 0)
		r = add_node(set, ctx->plan->fs_path);
	if (r == 0)
		r = sp_fs_names_add_fs(set, ctx->fs_uuid, ctx->plan->label);
	if (r < 0) {
		sp_fs_names_free(set);
		return fail(res, ENOMEM, SP_ERR_FAILED, "out of memory");
	}
	ctx->names = set;
	return 0;
}

/* Reads and merges in memory: every refusal happens here, before the
 * mount test and before anything is written. */
/* Whether text holds this exact line (without its newline). */
static bool has_line(const char *text, const char *line, size_t len)
{
	for (const char *p = text; p && *p;) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n == len && !memcmp(p, line, len))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

/* Each line of `from` that `to` lacks, as an action of kind. */
static void lines_missing(const char *from, const char *to, enum sp_action_kind kind,
			  const char *path, struct sp_step_result *res)
{
	char line[SP_ACTION_VALUE_MAX];

	for (const char *p = from; p && *p;) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n && !has_line(to, p, n)) {
			snprintf(line, sizeof(line), "%.*s", (int)n, p);
			if (kind == SP_ACTION_FSTAB_REMOVE)
				sp_step_action(res, kind, path, line, NULL);
			else
				sp_step_action(res, kind, path, NULL, line);
		}
		p = end ? end + 1 : NULL;
	}
}

/*
 * The merge as actions: every line it drops, then every line it adds,
 * by comparing the text before and after, so a line replaced, moved to
 * another mount point or left naming a filesystem mkfs replaces is said
 * as it is.
 */
static void fstab_actions(const char *old, const char *text, const char *path,
			  struct sp_step_result *res)
{
	lines_missing(old, text, SP_ACTION_FSTAB_REMOVE, path, res);
	lines_missing(text, old, SP_ACTION_FSTAB_ADD, path, res);
}

/* The merged fstab; with ret_old, the text it replaces too (the caller
 * frees it). */
static int prepare(const struct sp_ctx *ctx, const struct where *w, const char *line,
		   const char *uuid, char **ret_text, struct sp_fstab_file *ret_file,
		   enum sp_fstab_action *ret_action, char **ret_old, struct sp_step_result *res)
{
	const struct sp_fstab_names names = { merge_ours, merge_node_of,
					      sp_ctx_fs_path(ctx), ctx->names };
	struct sp_error err = { 0 };
	char *old = NULL;
	int r;

	r = read_current(w, &old, ret_file, res);
	if (r < 0)
		return r;
	r = sp_fstab_merge_names(old, line, ctx->plan->mountpoint, uuid,
				 ctx->names ? &names : NULL, ret_text, ret_action, &err);
	if (r == 0 && ret_old)
		*ret_old = old;
	else
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

/* Where a descriptor's file is, from the machine's root. */
static int fd_path(int fd, char *buf, size_t len)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, len - 1);
	if (n < 0 || (size_t)n >= len - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

/*
 * Where the mount point really is inside the root: its deepest existing
 * directory, reached as apply reaches it (links followed inside the
 * root), and the rest of the path.  mount(8) and systemd follow the
 * same links, so a /data that is a link to /usr/share mounts there.
 */
static int resolve_mountpoint(const struct where *w, const char *mountpoint, char *buf,
			      size_t len)
{
	char path[SP_PATH_MAX], rest[SP_PATH_MAX] = "", real[SP_PATH_MAX], root[SP_PATH_MAX], *slash;
	size_t rl;
	int fd, r;

	snprintf(path, sizeof(path), "%s", mountpoint);
	for (;;) {
		fd = path[1] ? sp_root_open_dir(w->root_fd, path, false, 0) : dup(w->root_fd);
		if (fd != -ENOENT)
			break;
		slash = strrchr(path, '/');
		snprintf(real, sizeof(real), "%s%s", slash, rest);
		snprintf(rest, sizeof(rest), "%s", real);
		slash[slash == path ? 1 : 0] = '\0';
	}
	if (fd < 0)
		return fd;
	r = fd_path(fd, real, sizeof(real));
	close(fd);
	if (r == 0)
		r = fd_path(w->root_fd, root, sizeof(root));
	if (r < 0)
		return r;
	rl = !strcmp(root, "/") ? 0 : strlen(root);
	if (strncmp(real, root, rl) || (real[rl] && real[rl] != '/'))
		return -EXDEV;
	snprintf(path, sizeof(path), "%s%s", real[rl] ? real + rl : "/", rest);
	return sp_path_normalize(path, buf, len);
}

/* A mount point that leads through a link into a system directory needs
 * --force like the system directory itself. */
static int check_resolved_mountpoint(const struct sp_ctx *ctx, const struct where *w,
				     struct sp_step_result *res)
{
	char resolved[SP_PATH_MAX];
	const char *use;

	if (ctx->force || resolve_mountpoint(w, ctx->plan->mountpoint, resolved,
					      sizeof(resolved)) < 0 ||
	    !strcmp(resolved, ctx->plan->mountpoint))
		return 0;
	use = sp_mountpoint_system_use(resolved);
	if (!strcmp(resolved, "/"))
		use = "is the root filesystem";
	if (!use)
		return 0;
	return fail(res, EINVAL, SP_ERR_INVALID,
		    "mountpoint: '%s' leads to '%s' inside the target root (a symbolic link on "
		    "the way), which %s; give --force to mount the array there",
		    ctx->plan->mountpoint, resolved, use);
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

/* The lock file as it is now, creating nothing: absent, or a regular
 * file (never opened here: a device node in its place is not touched). */
static int check_lock(const struct where *w, struct sp_step_result *res)
{
	struct sp_error err = { 0 };
	int etc_fd = -1, r;

	r = open_etc(w, false, &etc_fd, res);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	r = sp_fstab_lock_check(etc_fd, w->lock, &err);
	close(etc_fd);
	return r < 0 ? fail(res, -err.code, err.kind, "%s; nothing was written", err.message) : 0;
}

/* The fstab as this run would leave it, measured with the longest UUID a
 * filesystem gets (the real one is not known before mkfs). */
static int check_merge(const struct sp_ctx *ctx, const struct where *w,
		       struct sp_step_result *res)
{
	char line[sizeof(ctx->plan->fstab_line) + SP_UUID_MAX];
	enum sp_fstab_action action;
	struct sp_fstab_file file;
	char *text = NULL;
	int r;

	if (sp_fstab_line_render(ctx->plan, ctx->fs_uuid[0] ? ctx->fs_uuid : LONGEST_UUID, line,
				 sizeof(line)) < 0)
		snprintf(line, sizeof(line), "%s", ctx->plan->fstab_line);
	/* the filesystem may still be re-made: its UUID is not checked here,
	 * every name it and the disk have now is (ctx->names) */
	r = prepare(ctx, w, line, NULL, &text, &file, &action, NULL, res);
	free(text);
	if (r < 0 && res->error.kind != SP_ERR_FAILED)
		snprintf(res->error.message + strlen(res->error.message),
			 sizeof(res->error.message) - strlen(res->error.message),
			 "; nothing was written");
	return r;
}

/* Everything apply could refuse, checked before any step writes; a dry
 * run checks the same. */
static int preflight(struct sp_ctx *ctx, struct sp_step_result *res)
{
	char msg[SP_MSG_MAX];
	enum mnt_state mnt;
	struct where w = { .root_fd = -1 };
	int r;

	if (!ctx->plan->mountpoint[0])
		return 0;
	r = check_mountpoint(ctx, res);
	if (r == 0)
		r = where_open(ctx, &w, res);
	if (r < 0)
		return r;
	r = check_resolved_mountpoint(ctx, &w, res);
	if (r == 0)
		r = read_names(ctx, res);
	if (r == 0)
		r = check_lock(&w, res);
	if (r == 0)
		r = check_merge(ctx, &w, res);
	if (r == 0)
		r = mount_point_state(ctx, &w, false, &mnt, res);
	if (r == 0 && mnt == MNT_MOUNTED)
		r = refuse_mounted(&w, res);
	if (r == 0 && !ctx->dry_run)
		r = check_writable(&w, "etc", w.fstab, res);
	if (r == 0 && !ctx->dry_run)
		r = check_writable(&w, ctx->plan->mountpoint, w.mnt, res);
	if (r == 0 && sp_mount_test_possible(msg, sizeof(msg)) < 0)
		r = fail(res, EPERM, SP_ERR_REFUSED, "%s; nothing was written", msg);
	where_close(&w);
	return r;
}

/* How long a run waits for another one on the same root to finish its
 * fstab step: another run holds the lock from before its first write. */
#define FSTAB_LOCK_WAIT_MS 120000U

/* The root's fstab lock, created when missing; kept in ctx. */
static int take_lock(struct sp_ctx *ctx, const struct where *w, struct sp_step_result *res)
{
	struct sp_error err = { 0 };
	int etc_fd = -1, lock_fd = -1, r;

	if (ctx->have_fstab_lock)
		return 0;
	r = open_etc(w, true, &etc_fd, res);
	if (r < 0)
		return r;
	r = sp_fstab_lock(etc_fd, w->lock, FSTAB_LOCK_WAIT_MS, &lock_fd, &err);
	close(etc_fd);
	if (r < 0)
		return fail(res, -err.code, err.kind, "%s", err.message);
	ctx->fstab_lock_fd = lock_fd;
	ctx->have_fstab_lock = true;
	return 0;
}

void sp_step_fstab_release(struct sp_ctx *ctx)
{
	if (ctx->have_fstab_lock)
		close(ctx->fstab_lock_fd);
	ctx->have_fstab_lock = false;
	ctx->fstab_lock_fd = -1;
	sp_fs_names_free(ctx->names);
	ctx->names = NULL;
}

/*
 * Right before the first write: the lock, held through this step, so no
 * other run adds a line between this check and our write; then the
 * check again, under it (another run may have written while we waited).
 */
static int reserve(struct sp_ctx *ctx, struct sp_step_result *res)
{
	struct where w = { .root_fd = -1 };
	int r;

	if (!ctx->plan->mountpoint[0])
		return 0;
	r = where_open(ctx, &w, res);
	if (r == 0)
		r = take_lock(ctx, &w, res);
	if (r == 0)
		r = check_merge(ctx, &w, res);
	if (r < 0 && res->error.kind == SP_ERR_FAILED)
		res->error.kind = SP_ERR_REFUSED; /* nothing was written yet */
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

static int dry_run(const struct sp_ctx *ctx, const struct where *w, const char *line,
		   struct sp_step_result *res)
{
	enum sp_fstab_action action = SP_FSTAB_KEEP;
	enum mnt_state mnt = MNT_MISSING;
	struct sp_fstab_file file;
	char *text = NULL, *old = NULL;
	int r;

	r = prepare(ctx, w, line, ctx->fs_uuid[0] ? ctx->fs_uuid : NULL, &text, &file, &action,
		    &old, res);
	if (r == 0)
		r = mount_point_state(ctx, w, false, &mnt, res);
	if (r == 0 && mnt == MNT_MISSING)
		sp_step_action(res, SP_ACTION_FILE, w->mnt, NULL, "directory");
	if (r == 0 && action != SP_FSTAB_KEEP)
		fstab_actions(old, text, w->fstab, res);
	if (r == 0)
		dry_run_lines(ctx, w, line, action, mnt, res);
	free(old);
	free(text);
	return r;
}

static int apply(struct sp_ctx *ctx, struct sp_step_result *res)
{
	char line[sizeof(ctx->plan->fstab_line) + SP_UUID_MAX];
	enum sp_fstab_action action = SP_FSTAB_KEEP;
	enum mnt_state mnt = MNT_MISSING;
	struct sp_fstab_file file;
	int etc_fd = -1, r;
	struct where w = { .root_fd = -1 };
	char *text = NULL, *old = NULL;

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
		r = dry_run(ctx, &w, line, res);
		goto out;
	}
	/* read, merge and replace under the root's fstab lock (taken before
	 * the first write when the pipeline runs us): a second run on the
	 * same root waits, then merges into what this one wrote */
	r = read_names(ctx, res);
	if (r == 0 && sp_fs_names_add_fs(ctx->names, ctx->fs_uuid, NULL) < 0)
		r = fail(res, ENOMEM, SP_ERR_FAILED, "out of memory");
	if (r == 0)
		r = take_lock(ctx, &w, res);
	if (r == 0)
		r = open_etc(&w, true, &etc_fd, res);
	if (r == 0)
		r = prepare(ctx, &w, line, ctx->fs_uuid, &text, &file, &action, &old, res);
	if (r == 0)
		r = mount_test(ctx, res);
	if (r == 0)
		r = mount_point_state(ctx, &w, false, &mnt, res);
	if (r == 0 && mnt == MNT_MISSING)
		sp_step_action(res, SP_ACTION_FILE, w.mnt, NULL, "directory");
	if (r == 0)
		r = mount_point_state(ctx, &w, true, &mnt, res);
	if (r == 0 && mnt == MNT_MOUNTED)
		r = refuse_mounted(&w, res);
	if (r == 0 && action != SP_FSTAB_KEEP) {
		fstab_actions(old, text, w.fstab, res);
		r = write_fstab(&w, text, &file, etc_fd, res);
	}
	if (r == 0)
		snprintf(res->summary, sizeof(res->summary), "%s '%s' in %s; mount test passed",
			 action_name(action, true), line, w.fstab);
out:
	if (etc_fd >= 0)
		close(etc_fd);
	/* the lock is ours until the file is replaced, not longer */
	if (ctx->have_fstab_lock) {
		close(ctx->fstab_lock_fd);
		ctx->have_fstab_lock = false;
		ctx->fstab_lock_fd = -1;
	}
	where_close(&w);
	free(old);
	free(text);
	return r;
}

const struct sp_step sp_step_fstab = {
	.name = "fstab",
	.verify = verify,
	.apply = apply,
	.preflight = preflight,
	.reserve = reserve,
};
