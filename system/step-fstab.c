/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fstab step: one UUID= line for the new filesystem in <root>/etc/fstab,
 * and its mount point directory under <root>.
 *
 * Before anything is written the filesystem is mounted once with exactly
 * the planned options on a temporary directory and unmounted again.  An
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
#include <sys/stat.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "fileio.h"
#include "fstab-file.h"
#include "mount-options.h"
#include "steps.h"

#define MAX_MATCHES 4U
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

/* Fills the step's error, naming the file or device it is about. */
#define fail(res, code, kind, subject, ...) \
	sp_error_set_at(&(res)->error, code, kind, "fstab", subject, __VA_ARGS__)

/* An error from fstab.c, prefixed with the file it is about. */
static int fail_with(struct sp_step_result *res, const struct sp_error *err, const char *path)
{
	return fail(res, err->code, err->kind, path,
		    "%s: %s", path, err->message);
}

/* ---------------------------------------------------------- mount test */

/* Unmounts dir if something is mounted there; lazily if it is busy. */
static int unmount_dir(const char *dir)
{
	if (umount2(dir, UMOUNT_NOFOLLOW) == 0 || errno == EINVAL)
		return 0;
	if (errno == EBUSY && umount2(dir, MNT_DETACH | UMOUNT_NOFOLLOW) == 0)
		return 0;
	return -errno;
}

/*
 * One mount(2) with the options split as mount(8) would split them; no
 * fstab, no helper, no utab entry (one for the userspace options would
 * outlive our umount2()).  Returns 0 or -errno with what failed in msg.
 */
static int try_mount(const char *source, const char *fstype, const char *options,
		     const char *dir, char *msg, size_t len)
{
	char data[OPTIONS_MAX];
	unsigned long flags;
	int r = sp_mount_options_split(options, &flags, data, sizeof(data));

	if (r < 0) {
		snprintf(msg, len, "cannot read the options: %s", strerror(-r));
		return r;
	}
	if (mount(source, dir, fstype, flags, data[0] ? data : NULL) == 0)
		return 0;
	r = -errno;
	snprintf(msg, len, "mount(2) said %s", strerror(-r));
	return r;
}

/*
 * mount(2) says only EINVAL for a bad option; which one it was is worth
 * the extra mounts: with no options first (the filesystem itself must
 * mount), then each planned option on its own.
 */
static void find_rejected(const struct sp_plan *plan, const char *source, const char *dir,
			  char *buf, size_t len)
{
	const char *fstype = sp_fs_name(plan->fs);
	char msg[SP_MSG_MAX];
	size_t used = 0;

	buf[0] = '\0';
	if (try_mount(source, fstype, "", dir, msg, sizeof(msg)) < 0 || unmount_dir(dir) < 0)
		return;
	for (size_t i = 0; i < plan->n_mount_options && used < len; i++) {
		const char *opt = plan->mount_options[i];
		bool rejected = try_mount(source, fstype, opt, dir, msg, sizeof(msg)) < 0;

		/* never stack a mount on one we could not take off */
		if (unmount_dir(dir) < 0)
			return;
		if (rejected)
			used += (size_t)snprintf(buf + used, len - used, "%s'%s'", used ? ", " : "",
						 opt);
	}
}

static int make_mount_dir(char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, len, "/run/stripeplan-mount.XXXXXX");
	if (mkdtemp(dir))
		return 0;
	snprintf(dir, len, "%s/stripeplan-mount.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	return mkdtemp(dir) ? 0 : -errno;
}

static int mount_test(const struct sp_ctx *ctx, struct sp_step_result *res)
{
	const struct sp_plan *plan = ctx->plan;
	const char *source = ctx->partition_path[0] ? ctx->partition_path : plan->partition_path;
	char dir[SP_PATH_MAX], options[OPTIONS_MAX], msg[SP_MSG_MAX], rejected[SP_MSG_MAX];
	int r, u;

	join_options(plan, options, sizeof(options));
	r = make_mount_dir(dir, sizeof(dir));
	if (r < 0)
		return fail(res, r, SP_ERR_FAILED, source,
			    "mount test of '%s': cannot create a temporary directory: %s", source,
			    strerror(-r));
	r = try_mount(source, sp_fs_name(plan->fs), options, dir, msg, sizeof(msg));
	u = unmount_dir(dir); /* always, the mount may half-succeed */
	if (r < 0) {
		find_rejected(plan, source, dir, rejected, sizeof(rejected));
		rmdir(dir);
		if (rejected[0])
			return fail(res, r, SP_ERR_FAILED, source,
				    "mount test of '%s' with '%s' failed: the kernel rejects %s (%s); "
				    "fstab was not changed",
				    source, options, rejected, msg);
		return fail(res, r, SP_ERR_FAILED, source,
			    "mount test of '%s' with '%s' failed: %s; fstab was not changed", source,
			    options, msg);
	}
	if (u < 0)
		return fail(res, u, SP_ERR_FAILED, dir,
			    "mount test: cannot unmount '%s' from '%s': %s; unmount it by hand",
			    source, dir, strerror(-u));
	rmdir(dir);
	return 0;
}

/* ---------------------------------------------------------- directories */

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* mkdir -p (sp_mkdir_p), failures named for the user. */
static int mkdir_p(const char *path, mode_t mode, struct sp_step_result *res)
{
	char at[SP_PATH_MAX];
	const char *what;
	int r = sp_mkdir_p(path, mode, at, sizeof(at), &what);

	if (r == -ENAMETOOLONG)
		return fail(res, ENAMETOOLONG, SP_ERR_FAILED, path, "'%s': path too long", path);
	if (r == -ENOTDIR)
		return fail(res, ENOTDIR, SP_ERR_FAILED, at,
			    "cannot create directory '%s': something else is in the way", at);
	if (r < 0)
		return fail(res, -r, SP_ERR_FAILED, at, "cannot %s '%s': %s", what, at,
			    strerror(-r));
	return 0;
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
		return fail(res, EINVAL, SP_ERR_FAILED, "fstab",
			    "cannot render the planned fstab line '%s' for UUID '%s'",
			    ctx->plan->fstab_line, ctx->fs_uuid);
	if (sp_fstab_find_uuid(f->planned_line, ctx->fs_uuid, &want, 1, &n, &err) < 0)
		return fail_with(res, &err, "fstab");
	if (n != 1)
		return fail(res, EINVAL, SP_ERR_FAILED, "fstab",
			    "the planned fstab line '%s' does not parse as one entry",
			    f->planned_line);
	copy_line(&want, &f->planned);
	f->have_planned = true;
	return 0;
}

static int find_lines(const struct sp_ctx *ctx, struct sp_found_fstab *f,
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
		return fail(res, ENOMEM, SP_ERR_FAILED, f->path, "out of memory");
	if (stat(f->fs_path, &st) == 0 && S_ISBLK(st.st_mode)) {
		names.rdev = st.st_rdev;
		names.have_rdev = true;
		partition_names(f->fs_path, &names);
	}
	if (sp_fstab_read(f->path, &text, &file, &err) < 0 ||
	    sp_fstab_find(text, names_match, &names, have, SP_FOUND_MAX_MOUNT_LINES, &f->n_lines,
			  &err) < 0)
		r = fail_with(res, &err, f->path);
	for (size_t i = 0; r == 0 && i < f->n_lines && i < SP_FOUND_MAX_MOUNT_LINES; i++)
		copy_line(&have[i], &f->lines[i]);
	free(text);
	free(have);
	return r;
}

static void check_mountpoint(const struct sp_ctx *ctx, struct sp_found_fstab *f)
{
	const char *target = ctx->plan->mountpoint[0] ? ctx->plan->mountpoint :
			     f->n_lines	       ? f->lines[0].target :
						 "";

	if (target[0] != '/' ||
	    under_root(ctx, target, f->mountpoint_dir, sizeof(f->mountpoint_dir)) < 0)
		return;
	f->mountpoint_checked = true;
	f->mountpoint_is_dir = is_dir(f->mountpoint_dir);
}

static int read_fstab(struct sp_ctx *ctx, struct sp_found_fstab *f, struct sp_step_result *res)
{
	int r;

	if (under_root(ctx, "/etc/fstab", f->path, sizeof(f->path)) < 0)
		return fail(res, ENAMETOOLONG, SP_ERR_FAILED, ctx->root, "'%s': path too long",
			    ctx->root);
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
		r = find_lines(ctx, f, res);
	if (r == 0)
		check_mountpoint(ctx, f);
	return r;
}

static int verify(struct sp_ctx *ctx, struct sp_step_result *res)
{
	struct sp_found_fstab *f = calloc(1, sizeof(*f));
	int r;

	if (!f)
		return fail(res, ENOMEM, SP_ERR_FAILED, "fstab", "out of memory");
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

static void dry_run_lines(const struct sp_ctx *ctx, const char *path, const char *line,
			  enum sp_fstab_action action, const char *mnt, struct sp_step_result *res)
{
	const char *source = ctx->partition_path[0] ? ctx->partition_path :
						      ctx->plan->partition_path;
	char options[OPTIONS_MAX];

	join_options(ctx->plan, options, sizeof(options));
	sp_step_line(res, "mount-test %s with %s on a temporary directory", source, options);
	if (!is_dir(mnt))
		sp_step_line(res, "create %s", mnt);
	sp_step_line(res, "write %s: %s '%s'", path, action_name(action, false), line);
	snprintf(res->summary, sizeof(res->summary), "would %s '%s' in %s",
		 action_name(action, false), line, path);
}

/* The line to write; before mkfs (dry run) the UUID is still the
 * placeholder, and the merge then checks the mount point only. */
static int render_line(const struct sp_ctx *ctx, char *line, size_t len,
		       struct sp_step_result *res)
{
	if (!ctx->fs_uuid[0]) {
		if (!ctx->dry_run)
			return fail(res, ENOENT, SP_ERR_FAILED, ctx->partition_path,
				    "the UUID of the filesystem on '%s' is unknown (the filesystem "
				    "step reported none); no fstab line written",
				    ctx->partition_path[0] ? ctx->partition_path :
							     ctx->plan->partition_path);
		snprintf(line, len, "%s", ctx->plan->fstab_line);
		return 0;
	}
	if (sp_fstab_line_render(ctx->plan, ctx->fs_uuid, line, len) < 0)
		return fail(res, EINVAL, SP_ERR_INVALID, "fstab",
			    "cannot put UUID '%s' into the planned fstab line '%s'", ctx->fs_uuid,
			    ctx->plan->fstab_line);
	return 0;
}

/* Reads and merges in memory: every refusal happens here, before the
 * mount test and before anything is written. */
static int prepare(const struct sp_ctx *ctx, const char *path, const char *line, char **ret_text,
		   struct sp_fstab_file *ret_file, enum sp_fstab_action *ret_action,
		   struct sp_step_result *res)
{
	struct sp_error err = { 0 };
	char *old = NULL;
	int r;

	r = sp_fstab_read(path, &old, ret_file, &err);
	if (r == 0)
		r = sp_fstab_merge_action(old, line, ctx->plan->mountpoint,
					  ctx->fs_uuid[0] ? ctx->fs_uuid : NULL, ret_text,
					  ret_action, &err);
	free(old);
	return r < 0 ? fail_with(res, &err, path) : 0;
}

static int write_fstab(const struct sp_ctx *ctx, const char *path, const char *text,
		       const struct sp_fstab_file *file, struct sp_step_result *res)
{
	struct sp_error err = { 0 };
	char etc[SP_PATH_MAX];
	int r;

	r = under_root(ctx, "/etc", etc, sizeof(etc));
	if (r < 0)
		return fail(res, -r, SP_ERR_FAILED, ctx->root, "'%s': path too long", ctx->root);
	r = mkdir_p(etc, 0755, res);
	if (r < 0)
		return r;
	if (sp_fstab_write_atomic(path, text, file, &err) < 0)
		return fail(res, err.code, SP_ERR_FAILED, path, "%s", err.message);
	return 0;
}

static int apply(struct sp_ctx *ctx, struct sp_step_result *res)
{
	char path[SP_PATH_MAX], mnt[SP_PATH_MAX], line[sizeof(ctx->plan->fstab_line) + SP_UUID_MAX];
	enum sp_fstab_action action = SP_FSTAB_KEEP;
	struct sp_fstab_file file;
	char *text = NULL;
	int r;

	if (!ctx->plan->mountpoint[0]) {
		no_mountpoint(res);
		return 0;
	}
	if (under_root(ctx, "/etc/fstab", path, sizeof(path)) < 0 ||
	    under_root(ctx, ctx->plan->mountpoint, mnt, sizeof(mnt)) < 0)
		return fail(res, ENAMETOOLONG, SP_ERR_FAILED, ctx->root, "'%s': path too long",
			    ctx->root);
	r = render_line(ctx, line, sizeof(line), res);
	if (r == 0)
		r = prepare(ctx, path, line, &text, &file, &action, res);
	if (r < 0)
		return r;
	if (ctx->dry_run) {
		dry_run_lines(ctx, path, line, action, mnt, res);
		goto out;
	}
	r = mount_test(ctx, res);
	if (r == 0)
		r = mkdir_p(mnt, 0755, res);
	if (r == 0 && action != SP_FSTAB_KEEP)
		r = write_fstab(ctx, path, text, &file, res);
	if (r == 0)
		snprintf(res->summary, sizeof(res->summary), "%s '%s' in %s; mount test passed",
			 action_name(action, true), line, path);
out:
	free(text);
	return r;
}

const struct sp_step sp_step_fstab = { "fstab", verify, apply, NULL };
