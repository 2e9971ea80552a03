/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tuning step: writes each sysfs knob of the plan now and reads it
 * back, then makes it stay: a udev rule that sets the knobs again on
 * every add/change event, the same knobs as a sh script for people and
 * recovery, and modprobe.d options for module parameters.  Module
 * parameters are never changed live (reloading a disk driver under a
 * running system is not tuning).
 *
 * The kernel has the last word on a knob: it may lower nr_requests or
 * max_sectors_kb, and a device may lack a knob altogether (loop devices
 * have no device/queue_depth).  Both are reported, neither is a failure.
 *
 * Every /sys path is found with the run's struct sp_sysfs, as the probe's
 * are, so tests run this step against a copy of a fake tree (fixtures/sysfs/).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/tuning-files.h"
#include "fileio.h"
#include "textfile.h"
#include "steps.h"
#include "sysfs.h"

#define STEP "tuning"
#define RULES_DIR "etc/udev/rules.d"
#define SCRIPT_DIR "usr/local/sbin"
#define MODPROBE_DIR "etc/modprobe.d"
#define MODPROBE_NAME "stripeplan.conf"
/* sysfs attributes are a page at most; scheduler lists are far shorter */
#define KNOB_VALUE_MAX 256U
#define MAX_ARTIFACTS 3U

/* ------------------------------------------------------------- lines */

/*
 * Lines for one run.  An md plan has dozens of knobs and the result has
 * SP_STEP_MAX_LINES slots: past them, the last says "... and N more".
 */
struct run {
	struct sp_ctx *ctx;
	struct sp_step_result *res;
	bool verifying;
	struct sp_found_tuning *found; /* verify: what is live and on disk, for the judge */
	unsigned set, same, missing, lowered;
};

static void __attribute__((format(printf, 2, 3))) say(struct run *run, const char *fmt, ...)
{
	char msg[SP_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sp_step_line(run->res, "%s", msg);
}

/* ------------------------------------------------------------- sysfs */

/* "mq-deadline [none]": the bracketed entry is the active scheduler, for messages. */
static const char *active_value(char *have)
{
	char *open = strchr(have, '['), *close;

	if (!open || !(close = strchr(open, ']')))
		return have;
	*close = '\0';
	return open + 1;
}

/* ------------------------------------------------------------- knobs */

enum knob_state {
	KNOB_MATCHES,
	KNOB_DIFFERS,
	KNOB_LOWERED, /* lower than planned, where the kernel clamps */
	KNOB_MISSING,
};

struct knob {
	const struct sp_tuning *t;
	const struct sp_knob *rule; /* its kernel rules; NULL for a module parameter */
	const char *disk;  /* t->device */
	const char *attr;  /* t->attribute */
	char want[SP_VALUE_WORD_MAX]; /* t->value as sysfs takes it */
	char path[SP_PATH_MAX]; /* "/sys/block/sdb/queue/read_ahead_kb", for messages */
	char file[SP_PATH_MAX];
	char raw[KNOB_VALUE_MAX];
	const char *have; /* inside raw, for messages */
	struct sp_value have_value; /* raw, parsed once (have_known) */
	bool have_known;
	enum knob_state state;
};

/* Below the plan where the kernel (or the SCSI driver) lowers the knob to
 * what the hardware takes: the kernel's last word, not drift. */
static bool lowered(const struct knob *k)
{
	return k->rule && k->rule->kernel_may_lower && k->t->value.kind == SP_VALUE_NUMBER &&
	       k->have_value.kind == SP_VALUE_NUMBER && k->have_value.number < k->t->value.number;
}

static int knob_init(const struct sp_ctx *ctx, const struct sp_tuning *t, struct knob *k,
		     struct sp_step_result *res)
{
	memset(k, 0, sizeof(*k));
	k->t = t;
	k->disk = t->device;
	k->attr = t->attribute;
	k->rule = t->kind == SP_TUNING_SYSFS ? sp_knob_find(t->attribute) : NULL;
	sp_value_format(&t->value, k->want, sizeof(k->want));
	if (sp_tuning_path(t, k->path, sizeof(k->path)) < 0 || sp_tuning_check(t) < 0)
		return sp_step_error(res, EINVAL, SP_ERR_INVALID,
				     "tuning entry '%s' = '%s' is not a /sys/block or /sys/module "
				     "path stripeplan writes",
				     k->path, k->want);
	/* k->path is "/sys/...": the same file below the run's sysfs root */
	if (sp_sysfs_path(ctx->sysfs, k->file, sizeof(k->file), "%s", k->path + strlen("/sys/")) < 0)
		return sp_step_fail(res, ENAMETOOLONG,
				    "the path of '%s' under the sysfs root is too long", k->path);
	return 0;
}

/* Reads the knob and classifies it against the plan. */
static int knob_look(struct knob *k, struct sp_step_result *res)
{
	int r;

	if (access(k->file, F_OK) < 0) {
		k->state = KNOB_MISSING;
		return 0;
	}
	r = sp_sysfs_read(k->file, k->raw, sizeof(k->raw));
	if (r < 0)
		return sp_step_fail(res, -r, "cannot read '%s' on '%s': %s", k->attr,
				    k->disk, strerror(-r));
	/* the kernel's text, parsed once: compared as numbers (or schedulers) */
	k->have_known = sp_value_from_kernel(k->raw, k->rule, &k->have_value) == 0;
	k->have = active_value(k->raw);
	if (k->have_known && sp_value_equal(&k->t->value, &k->have_value))
		k->state = KNOB_MATCHES;
	else if (k->have_known && lowered(k))
		k->state = KNOB_LOWERED;
	else
		k->state = KNOB_DIFFERS;
	return 0;
}

static const char *missing_hint(const char *attr)
{
	if (!strcmp(attr, "device/queue_depth"))
		return "only SCSI disks have device/queue_depth; loop devices do not";
	if (!strncmp(attr, "md/", 3))
		return "md/ knobs exist while the array runs";
	if (!strncmp(attr, "queue/", 6))
		return "no such device, or a partition: partitions have no queue/";
	return "the device has no such knob";
}

static void say_missing(struct run *run, const struct knob *k)
{
	run->missing++;
	if (run->verifying)
		say(run, "%s is not present (%s): not checked", k->path, missing_hint(k->attr));
	else
		say(run, "skip %s: not present (%s)", k->path, missing_hint(k->attr));
}

static void say_lowered(struct run *run, const struct knob *k)
{
	run->lowered++;
	say(run, "kernel clamped %s on %s to %s (asked %s)", k->attr, k->disk, k->have,
	    k->want);
}

/* Writes one knob and reads it back; the verify after apply judges. */
static int knob_apply(struct run *run, struct knob *k)
{
	int r = knob_look(k, run->res);

	if (r < 0)
		return r;
	if (k->state == KNOB_MISSING) {
		say_missing(run, k);
		return 0;
	}
	if (k->state == KNOB_MATCHES) {
		run->same++;
		return 0;
	}
	sp_step_action(run->res, SP_ACTION_KNOB, k->path, k->have, k->want);
	if (run->ctx->dry_run) {
		say(run, "write %s to %s (now %s)", k->want, k->path, k->have);
		return 0;
	}
	r = sp_sysfs_write(k->file, k->want);
	if (r < 0)
		return sp_step_fail(run->res, -r,
				    "cannot set '%s' on '%s' to %s: %s", k->attr, k->disk,
				    k->want, strerror(-r));
	run->set++;
	r = knob_look(k, run->res);
	if (r < 0)
		return r;
	if (k->state == KNOB_LOWERED)
		say_lowered(run, k);
	else if (k->state == KNOB_DIFFERS)
		say(run, "%s on %s reads '%s' after writing %s", k->attr, k->disk, k->have,
		    k->want);
	return 0;
}

/* Module parameters: reported, never changed live. */
static void module_note(struct run *run, const struct knob *k, bool applying)
{
	char raw[KNOB_VALUE_MAX];
	struct sp_value have;

	if (applying)
		say(run, "module option %s %s=%s takes effect when the module loads", k->disk,
		    k->attr, k->want);
	if (sp_sysfs_read(k->file, raw, sizeof(raw)) < 0)
		return;
	if (sp_value_from_kernel(raw, NULL, &have) == 0 && sp_value_equal(&k->t->value, &have)) {
		if (applying)
			say(run, "module %s is loaded with %s=%s already", k->disk, k->attr, raw);
	} else {
		say(run, "module %s is loaded with %s=%s; %s takes effect when it is reloaded "
			 "or at the next boot",
		    k->disk, k->attr, raw, k->want);
	}
}

static bool is_module(const struct sp_tuning *t)
{
	return t->kind == SP_TUNING_MODULE;
}

/* Every entry is checked before the first write: a bad plan touches nothing. */
static int check_entries(const struct sp_ctx *ctx, struct sp_step_result *res)
{
	struct knob k;
	int r;

	for (size_t i = 0; i < ctx->plan->n_tuning; i++) {
		r = knob_init(ctx, &ctx->plan->tuning[i], &k, res);
		if (r < 0)
			return r;
	}
	return 0;
}

static int verify_knob(struct run *run, struct knob *k, bool *ret_drift);

/* Each planned knob in plan order, written (apply) or read back (verify);
 * a module option is only noted: it takes effect when the module loads. */
static int run_knobs(struct run *run, bool *ret_drift)
{
	const struct sp_plan *plan = run->ctx->plan;
	struct knob k;
	int r = 0;

	for (size_t i = 0; r == 0 && i < plan->n_tuning; i++) {
		r = knob_init(run->ctx, &plan->tuning[i], &k, run->res);
		if (r < 0)
			break;
		if (is_module(k.t))
			module_note(run, &k, !run->verifying);
		else if (run->verifying)
			r = verify_knob(run, &k, ret_drift);
		else
			r = knob_apply(run, &k);
	}
	return r;
}

/* --------------------------------------------------------- artifacts */

struct artifact {
	const char *dir; /* relative to the target root */
	char name[SP_NAME_MAX + 32];
	mode_t mode;
	char *content;   /* malloc'd */
	char path[SP_PATH_MAX];
};

struct artifacts {
	size_t n;
	struct artifact a[MAX_ARTIFACTS];
	char warning[SP_MSG_MAX];
};

static void artifacts_free(struct artifacts *as)
{
	for (size_t i = 0; i < as->n; i++)
		free(as->a[i].content);
	as->n = 0;
}

static size_t count_kind(const struct sp_plan *plan, enum sp_tuning_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < plan->n_tuning; i++)
		n += plan->tuning[i].kind == kind;
	return n;
}

/* "/" + "etc/udev/rules.d" + name, without doubling the slash */
static int artifact_path(const char *root, struct artifact *a)
{
	size_t rl = strlen(root);
	int n;

	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	n = snprintf(a->path, sizeof(a->path), "%.*s/%s/%s", (int)(rl == 1 ? 0 : rl), root, a->dir,
		     a->name);
	return n < 0 || (size_t)n >= sizeof(a->path) ? -ENAMETOOLONG : 0;
}

static struct artifact *artifact_add(struct artifacts *as, const char *dir, mode_t mode,
				     char *content)
{
	struct artifact *a = &as->a[as->n++];

	a->dir = dir;
	a->mode = mode;
	a->content = content;
	return a;
}

static int render_sysfs_files(const struct sp_plan *plan, const struct sp_identities *ids,
			      struct artifacts *as)
{
	struct artifact *rule, *script;

	rule = artifact_add(as, RULES_DIR, 0644,
			    sp_format_udev_rule(plan, ids, as->warning, sizeof(as->warning)));
	script = artifact_add(as, SCRIPT_DIR, 0755, sp_format_tuning_script(plan, ids));
	if (!rule->content || !script->content)
		return -ENOMEM;
	if (sp_udev_rule_name(plan, ids, rule->name, sizeof(rule->name)) < 0 ||
	    sp_tune_script_name(plan, ids, script->name, sizeof(script->name)) < 0)
		return -EINVAL;
	return 0;
}

/* What the plan wants on disk: rule + script when it has sysfs knobs,
 * modprobe.d options when it has module parameters.  The rule matches
 * devices by identity, and an md array's identities are what the probe
 * sees now (sp_identities_of). */
static int render_artifacts(const struct sp_ctx *ctx, struct artifacts *as,
			    struct sp_step_result *res)
{
	const struct sp_plan *plan = ctx->plan;
	struct sp_identities ids;
	int r = 0;

	memset(as, 0, sizeof(*as));
	sp_identities_of(&plan->device, ctx->facts, &ids);
	if (count_kind(plan, SP_TUNING_SYSFS))
		r = render_sysfs_files(plan, &ids, as);
	if (r == 0 && count_kind(plan, SP_TUNING_MODULE)) {
		struct artifact *conf = artifact_add(as, MODPROBE_DIR, 0644,
						     sp_format_modprobe_conf(plan, &ids));

		snprintf(conf->name, sizeof(conf->name), "%s", MODPROBE_NAME);
		r = conf->content ? 0 : -ENOMEM;
	}
	for (size_t i = 0; r == 0 && i < as->n; i++)
		r = artifact_path(ctx->root ? ctx->root : "/", &as->a[i]);
	if (r < 0) {
		artifacts_free(as);
		return sp_step_fail(res, -r, "cannot render the persistence files for '%s': %s",
				    plan->device.path, strerror(-r));
	}
	return 0;
}

/* Every artifact is reached through the target root's descriptor
 * (sp_root_open_dir): a symlinked etc/ or usr/ cannot lead out of it. */
static int open_root(const struct sp_ctx *ctx, int *ret_fd, struct sp_step_result *res)
{
	const char *root = ctx->root && ctx->root[0] ? ctx->root : "/";
	int fd = sp_root_open(root);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return sp_step_error(res, ENOTDIR, SP_ERR_INVALID,
				     "the target root '%s' is not a directory", root);
	}
	*ret_fd = fd;
	return 0;
}

/* The file as it is: 0 with *ret (malloc'd), -ENOENT, or -errno. */
static int read_artifact(int root_fd, const struct artifact *a, char **ret, struct stat *st)
{
	int dir = sp_root_open_dir(root_fd, a->dir, false, 0), r;

	if (dir < 0)
		return dir;
	/* anything that is not a regular file of ours reads as "differs" */
	r = sp_read_input_at(dir, a->name, O_NOFOLLOW, NULL, a->name, ret, st, NULL);
	close(dir);
	return r;
}

enum artifact_state {
	ARTIFACT_MATCHES,
	ARTIFACT_MISSING,
	ARTIFACT_DIFFERS,
	ARTIFACT_WRONG_MODE,
};

static enum artifact_state artifact_look(int root_fd, const struct artifact *a, mode_t *ret_mode)
{
	enum artifact_state s;
	struct stat st;
	char *have = NULL;
	int r = read_artifact(root_fd, a, &have, &st);

	if (r == -ENOENT)
		return ARTIFACT_MISSING;
	if (r < 0)
		return ARTIFACT_DIFFERS;
	*ret_mode = st.st_mode & 07777;
	if (strcmp(have, a->content) != 0)
		s = ARTIFACT_DIFFERS;
	else
		s = *ret_mode == a->mode ? ARTIFACT_MATCHES : ARTIFACT_WRONG_MODE;
	free(have);
	return s;
}

/* A crash leaves the old file or the new one, never half of one. */
static int install_artifact(struct run *run, int root_fd, const struct artifact *a)
{
	static const char *const was[] = {
		[ARTIFACT_MISSING] = "", [ARTIFACT_DIFFERS] = "other content",
		[ARTIFACT_WRONG_MODE] = "other mode",
	};
	const char *what = "write";
	mode_t mode = 0;
	int dir, r, state = artifact_look(root_fd, a, &mode);

	if (state == ARTIFACT_MATCHES)
		return 0;
	sp_step_action(run->res, SP_ACTION_FILE, a->path,
		       state >= 0 && (size_t)state < ARRAY_SIZE(was) ? was[state] : "", "written");
	if (run->ctx->dry_run) {
		say(run, "write %s", a->path);
		return 0;
	}
	dir = sp_root_open_dir(root_fd, a->dir, true, 0755);
	r = dir;
	if (dir >= 0) {
		r = sp_write_atomic_at(dir, a->name, a->content, a->mode, (uid_t)-1, (gid_t)-1,
				       &what);
		close(dir);
	}
	if (r < 0)
		return sp_step_fail(run->res, -r, "cannot %s '%s': %s", what, a->path,
				    strerror(-r));
	say(run, "wrote %s", a->path);
	return 0;
}

static int install_artifacts(struct run *run)
{
	struct artifacts as = { .n = 0 };
	int root_fd = -1, r;

	r = open_root(run->ctx, &root_fd, run->res);
	if (r < 0 || (r = render_artifacts(run->ctx, &as, run->res)) < 0)
		goto out;
	if (as.warning[0])
		say(run, "udev rule: %s", as.warning);
	for (size_t i = 0; r == 0 && i < as.n; i++)
		r = install_artifact(run, root_fd, &as.a[i]);
	artifacts_free(&as);
out:
	if (root_fd >= 0)
		close(root_fd);
	return r;
}

/* An artifact's place must be one apply can write: its directory reachable
 * inside the root (or not there yet), writable, and the file itself, if
 * any, a regular file. */
static int preflight_artifact(int root_fd, const struct artifact *a, struct sp_step_result *res)
{
	int dir = sp_root_open_dir(root_fd, a->dir, false, 0), r = 0;
	struct stat st;

	if (dir == -ENOENT) {
		dir = sp_root_check_dir(root_fd, a->dir);
		if (dir == 0)
			return 0; /* it will be made */
	}
	if (dir < 0)
		return sp_step_error(res, -dir, SP_ERR_REFUSED,
				     "cannot reach the directory of '%s' inside the target root: %s",
				    a->path,
				    dir == -EEXIST ? "something that is not a directory (a file, or a "
						     "link that leads out of the root) is in the way" :
						     strerror(-dir));
	if (fstatat(dir, a->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode))
		r = sp_step_error(res, EEXIST, SP_ERR_REFUSED, "'%s' is %s; not replacing it",
				  a->path, sp_file_kind(st.st_mode));
	else if (faccessat(dir, ".", W_OK, AT_EACCESS) < 0)
		r = sp_step_error(res, errno, SP_ERR_REFUSED, "cannot write '%s': %s", a->path,
				  strerror(errno));
	close(dir);
	return r;
}

static int tuning_preflight(struct sp_ctx *ctx, struct sp_step_result *res)
{
	struct artifacts as = { .n = 0 };
	int root_fd = -1, r;

	r = check_entries(ctx, res);
	if (r == 0)
		r = open_root(ctx, &root_fd, res);
	if (r == 0 && (r = render_artifacts(ctx, &as, res)) == 0) {
		for (size_t i = 0; r == 0 && !ctx->dry_run && i < as.n; i++)
			r = preflight_artifact(root_fd, &as.a[i], res);
		artifacts_free(&as);
	}
	if (root_fd >= 0)
		close(root_fd);
	return r;
}

/* "udev rule + script + modprobe.d options in /" */
static void describe_artifacts(const struct sp_plan *plan, const char *root, char *buf,
			       size_t len)
{
	bool sysfs = count_kind(plan, SP_TUNING_SYSFS), module = count_kind(plan, SP_TUNING_MODULE);

	if (!sysfs && !module)
		snprintf(buf, len, "nothing to persist");
	else
		snprintf(buf, len, "%s%s%s in %s", sysfs ? "udev rule + script" : "",
			 sysfs && module ? " + " : "", module ? "modprobe.d options" : "", root);
}

/* ------------------------------------------------------------- apply */

static int tuning_apply(struct sp_ctx *ctx, struct sp_step_result *res)
{
	struct run run = { .ctx = ctx, .res = res };
	char files[SP_MSG_MAX];
	bool drift = false; /* verify's; apply writes what differs */
	int r;

	r = check_entries(ctx, res);
	if (r == 0)
		r = run_knobs(&run, &drift);
	if (r == 0)
		r = install_artifacts(&run);
	if (r < 0)
		return r;
	describe_artifacts(ctx->plan, ctx->root ? ctx->root : "/", files, sizeof(files));
	snprintf(res->summary, sizeof(res->summary),
		 "%s%u knobs set, %u already right, %u not present; %s",
		 ctx->dry_run ? "dry run: " : "", run.set, run.same, run.missing, files);
	res->status = ctx->dry_run ? SP_STEP_DRY_RUN : SP_STEP_DONE;
	return 0;
}

/* ------------------------------------------------------------ verify */

static int found_knob(struct sp_found_tuning *f, const struct knob *k, struct sp_step_result *res)
{
	struct sp_found_knob *fk;

	if (sp_array_room(&f->knobs, f->n_knobs, sizeof(*f->knobs)) < 0)
		return sp_step_fail(res, ENOMEM, "out of memory");
	fk = &f->knobs[f->n_knobs++];
	snprintf(fk->disk, sizeof(fk->disk), "%s", k->disk);
	snprintf(fk->attr, sizeof(fk->attr), "%s", k->attr);
	snprintf(fk->file, sizeof(fk->file), "%s", k->file);
	snprintf(fk->want, sizeof(fk->want), "%s", k->want);
	snprintf(fk->have, sizeof(fk->have), "%s", k->have ? k->have : "");
	fk->want_value = k->t->value;
	fk->have_value = k->have_value;
	fk->have_known = k->have_known;
	fk->state = SP_KNOB_DIFFERS;
	return 0;
}

static void found_artifact(struct sp_found_tuning *f, const struct artifact *a,
			   enum sp_artifact_state state, mode_t mode)
{
	struct sp_found_artifact *fa;

	if (f->n_artifacts >= SP_FOUND_MAX_ARTIFACTS)
		return;
	fa = &f->artifacts[f->n_artifacts++];
	snprintf(fa->path, sizeof(fa->path), "%s", a->path);
	fa->state = state;
	fa->mode = (unsigned)mode;
	fa->want_mode = (unsigned)a->mode;
}

static int verify_knob(struct run *run, struct knob *k, bool *ret_drift)
{
	int r = knob_look(k, run->res);

	if (r < 0)
		return r;
	switch (k->state) {
	case KNOB_MATCHES:
		run->same++;
		break;
	case KNOB_MISSING:
		say_missing(run, k);
		break;
	case KNOB_LOWERED:
		say_lowered(run, k);
		break;
	case KNOB_DIFFERS:
		*ret_drift = true;
		return found_knob(run->found, k, run->res);
	}
	return 0;
}

static void verify_artifact(struct run *run, int root_fd, const struct artifact *a,
			    bool *ret_drift)
{
	mode_t mode = 0;

	switch (artifact_look(root_fd, a, &mode)) {
	case ARTIFACT_MATCHES:
		return;
	case ARTIFACT_MISSING:
		found_artifact(run->found, a, SP_ARTIFACT_MISSING, mode);
		break;
	case ARTIFACT_DIFFERS:
		found_artifact(run->found, a, SP_ARTIFACT_DIFFERS, mode);
		break;
	case ARTIFACT_WRONG_MODE:
		found_artifact(run->found, a, SP_ARTIFACT_WRONG_MODE, mode);
		break;
	}
	*ret_drift = true;
}

static void found_free(struct sp_found_tuning *f)
{
	if (f)
		free(f->knobs);
	free(f);
}

static int tuning_verify(struct sp_ctx *ctx, struct sp_step_result *res)
{
	struct run run = { .ctx = ctx, .res = res, .verifying = true };
	const char *root = ctx->root ? ctx->root : "/";
	char files[SP_MSG_MAX];
	struct artifacts as = { .n = 0 };
	bool differs = false;
	int root_fd = -1, r;

	run.found = calloc(1, sizeof(*run.found));
	if (!run.found)
		return sp_step_fail(res, ENOMEM, "out of memory");
	r = run_knobs(&run, &differs);
	if (r == 0)
		r = render_artifacts(ctx, &as, res);
	if (r < 0) {
		found_free(run.found);
		return r;
	}
	if (open_root(ctx, &root_fd, res) < 0) {
		artifacts_free(&as);
		found_free(run.found);
		return -ENOTDIR;
	}
	for (size_t i = 0; i < as.n; i++)
		verify_artifact(&run, root_fd, &as.a[i], &differs);
	close(root_fd);
	artifacts_free(&as);
	sp_judge_tuning(ctx->plan, run.found, &res->findings);
	found_free(run.found);
	sp_step_take_findings(res);
	describe_artifacts(ctx->plan, root, files, sizeof(files));
	if (run.missing)
		snprintf(res->summary, sizeof(res->summary), "%u knobs live, %u not present; %s",
			 run.same + run.lowered, run.missing, files);
	else
		snprintf(res->summary, sizeof(res->summary), "%u knobs live; %s",
			 run.same + run.lowered, files);
	res->status = differs || res->findings.n ? SP_STEP_DRIFT : SP_STEP_UNCHANGED;
	return 0;
}

const struct sp_step sp_step_tuning = {
	.name = STEP,
	.verify = tuning_verify,
	.apply = tuning_apply,
	.preflight = tuning_preflight,
};
