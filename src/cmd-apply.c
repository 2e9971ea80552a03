/* SPDX-License-Identifier: GPL-2.0-or-later */
/* apply and check: the commands that look at (and for apply, write) a disk. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "format.h"
#include "inputs.h"
#include "keyfile.h"
#include "pipeline.h"
#include "probe.h"
#include "runlog.h"

static const char usage_apply[] =
	"Usage: stripeplan apply (--plan FILE | PLAN OPTIONS) --device PATH [OPTIONS]\n"
	"\n"
	"Make the device match the plan, in four steps: partition (a table with one\n"
	"stripe-aligned partition), tuning (the queue knobs, live and as a udev rule\n"
	"and script under --root), filesystem (the planned geometry) and fstab (the\n"
	"line that mounts it, under --root); with --stack, a luks and an lvm step\n"
	"between tuning and filesystem make and open the plan's layers on the tuned\n"
	"device, and a crypttab step follows fstab.  Each step is verified by reading\n"
	"it back.  A device that already matches is left alone.\n"
	"\n"
	"      --plan FILE         apply exactly this reviewed plan (from 'plan --format json')\n"
	"      PLAN OPTIONS        or plan now: see 'stripeplan plan --help'\n"
	"      --device PATH       the whole disk or array to write\n"
	"      --root DIR          target root for files (fstab, udev rules); default /\n"
	"      --force             replace partition tables and filesystems found on the\n"
	"                          device; accept a system directory as --mountpoint\n"
	"      --dry-run           print every action and command; touch nothing\n"
	"      --key-file FILE     the key of the plan's LUKS2 layer (a regular file only\n"
	"                          its owner may read; '-' reads it from stdin)\n"
	"      --format text|json  report format\n"
	"  -h, --help              show this help\n"
	"\n"
	"Refused (exit 3, nothing written): a device or partition in use (mounted,\n"
	"swap, held by md/LVM/dm, backing a loop device, open in a process, locked,\n"
	"opened exclusively), even with --force; a read-only device or partition; a\n"
	"device that is not the one the plan was made for (size, sector sizes, WWN,\n"
	"serial, disk sequence); existing signatures without --force.  Whatever a\n"
	"later step would refuse (mkfs's dry run, fstab) is refused before the first\n"
	"write.\n"
	"Exit status: 0 done or unchanged, 2 invalid input, 3 refused, 4 a step failed.\n";

static const char usage_check[] =
	"Usage: stripeplan check (--plan FILE | ARRAY OPTIONS) --device PATH [OPTIONS]\n"
	"\n"
	"Read the device, the kernel and the target root back and judge what is\n"
	"there: partition table, start and alignment, filesystem geometry, the fstab\n"
	"line that mounts it (by UUID, LABEL, PARTUUID or device path), live tuning\n"
	"and its udev rule and script.  Works on arrays made by other tools: only\n"
	"--controller, --level, --disks and --chunk are needed; the filesystem\n"
	"(--fs) is taken from the device when not given.  Nothing is written.\n"
	"\n"
	"Every finding has a severity: costly (loses performance or stops the boot;\n"
	"misalignment comes with its cost from the array model), suboptimal (what\n"
	"the plan improves without breaking alignment) or differs (another choice\n"
	"than the plan's that costs nothing).  Each message names the device, the\n"
	"value found and the fix.\n"
	"\n"
	"      --plan FILE         compare with this plan\n"
	"      ARRAY OPTIONS       or plan now: see 'stripeplan plan --help'\n"
	"      --device PATH       the whole disk or array to check\n"
	"      --root DIR          target root for files (fstab, udev rules); default /\n"
	"      --force             accept a system directory as --mountpoint\n"
	"      --strict            exit 1 on any difference from the plan, even a harmless\n"
	"                          one (what tests of idempotency want)\n"
	"      --format text|json  report format\n"
	"  -h, --help              show this help\n"
	"\n"
	"Exit status: 0 nothing costly or suboptimal (harmless differences are still\n"
	"listed; with --strict: everything matches), 1 a costly or suboptimal finding\n"
	"(with --strict: any difference), 2 invalid input, 4 the device could not be\n"
	"read.\n";

static bool is_directory(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The race tests' hook (STRIPEPLAN_TEST_PAUSE_BEFORE_WRITE=DIR): apply has
 * locked and identified the device and passed every refusal; it creates
 * DIR/paused and waits (at most PAUSE_MAX_MS) for DIR/resume, while the
 * test swaps what the device is.
 */
#define PAUSE_MAX_MS 120000U

static void pause_before_write(const char *dir)
{
	char paused[SP_PATH_MAX + 16], resume[SP_PATH_MAX + 16];
	struct stat st;
	int fd;

	snprintf(paused, sizeof(paused), "%s/paused", dir);
	snprintf(resume, sizeof(resume), "%s/resume", dir);
	fd = open(paused, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		sp_cli_error("test pause: cannot create '%s': %s; not pausing", paused,
			     strerror(errno));
		return;
	}
	close(fd);
	for (unsigned waited = 0; stat(resume, &st) < 0; waited += 20) {
		if (waited >= PAUSE_MAX_MS) {
			sp_cli_error("test pause: no '%s' after %u s; going on", resume,
				     PAUSE_MAX_MS / 1000);
			return;
		}
		usleep(20 * 1000);
	}
}

struct progress {
	bool text;
	bool tty;      /* text to a terminal: the running step is shown */
	const char *pause_dir;
	bool writing; /* every refusal passed: apply went on to write */
	struct sp_ticker ticker;
};

static void before_write(void *data)
{
	struct progress *p = data;

	p->writing = true;
	if (p->pause_dir && p->pause_dir[0])
		pause_before_write(p->pause_dir);
}

/* On a terminal, the step's line as soon as it starts, with the time it
 * has run, until its own line replaces it. */
static void start_step(const char *name, size_t index, size_t total, void *userdata)
{
	struct progress *p = userdata;
	char head[sizeof(p->ticker.head)];

	if (!p->tty)
		return;
	snprintf(head, sizeof(head), "[%zu/%zu] %-11s", index + 1, total, name);
	sp_ticker_start(&p->ticker, head);
}

static void print_step(const struct sp_step_result *res, size_t index, size_t total, void *userdata)
{
	struct progress *p = userdata;
	char *line;

	sp_ticker_stop(&p->ticker);
	if (!p->text)
		return;
	line = sp_format_step_line(res, index, total);
	if (line)
		sp_cli_print(line);
	free(line);
}

static int load_plan(const struct sp_cli_args *args, struct sp_plan *plan, struct sp_error *err)
{
	char node[SP_PATH_MAX];

	if (args->plan_file[0]) {
		if (args->have_controller || args->have_level || args->have_disks || args->have_chunk ||
		    args->have_fs)
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "plan: give --plan FILE or the plan options, not both");
		if (!args->device[0])
			return sp_error_set(err, EINVAL, SP_ERR_INVALID,
					    "device: --device is required with --plan (it must name the "
					    "planned device)");
		if (sp_plan_load_file(args->plan_file, plan, err) < 0 ||
		    sp_cli_replan(args, plan, err) < 0)
			return -EINVAL;
		/* a link names the node it points to; a plan made through a
		 * stable link keeps it, and is applied through that link */
		if (sp_probe_resolve(args->device, node, sizeof(node), NULL) < 0)
			snprintf(node, sizeof(node), "%s", args->device);
		if (strcmp(plan->device.path, node) != 0 && strcmp(plan->device.path, args->device) != 0)
			return sp_error_set(err, EINVAL, SP_ERR_REFUSED,
					    "device: the plan was made for '%s', not '%s'%s%s%s",
					    plan->device.path, args->device,
					    strcmp(node, args->device) ? " (" : "",
					    strcmp(node, args->device) ? node : "",
					    strcmp(node, args->device) ? ")" : "");
		return 0;
	}
	if (args->facts_file[0])
		return sp_error_set(err, EINVAL, SP_ERR_INVALID,
				    "facts: apply and check probe the device itself");
	return sp_cli_make_plan(args, plan, err);
}

/*
 * check without --fs judges the filesystem that is there: the one on
 * partition 1, else on the whole disk; xfs when there is none.
 */
void sp_cli_fs_from_device(struct sp_cli_args *args)
{
	char part[SP_PATH_MAX], type[SP_NAME_MAX] = "";
	enum sp_fs fs;

	args->spec.fs = SP_FS_XFS;
	if (sp_sysfs_partition_node_of(&args->sysfs, args->device, 1, part, sizeof(part)) < 0 ||
	    sp_probe_fs_type(part, type, sizeof(type)) <= 0)
		if (sp_probe_fs_type(args->device, type, sizeof(type)) <= 0)
			return;
	if (sp_parse_fs(type, &fs, NULL) == 0)
		args->spec.fs = fs;
}

/*
 * An apply that writes keeps its report under --root (runlog.h), whatever
 * the outcome: what a run left on a disk must be on record even when
 * nobody read its output.  Keeping it is the run's last action, in its
 * own list (so also in the report it keeps); a dry run whose real run
 * would write lists the same action.  Returns whether where was decided.
 */
static bool list_kept_report(const struct sp_cli_args *args, const struct sp_plan *plan,
			     struct sp_report *report, struct sp_runlog *where)
{
	struct sp_error err = { 0 };
	char path[SP_PATH_MAX + SP_NAME_MAX * 2 + 1], after[SP_ACTION_VALUE_MAX];

	if (sp_runlog_where(args->root[0] ? args->root : "/", plan->device.kernel_name, where,
			    &err) < 0) {
		sp_cli_error("%s", err.message);
		return false;
	}
	snprintf(path, sizeof(path), "%s/%s", where->dir, where->name);
	if (where->n_pruned)
		snprintf(after, sizeof(after),
			 "this run's report; the %zu oldest there removed (the newest %u kept)",
			 where->n_pruned, SP_RUNLOG_KEEP);
	else
		snprintf(after, sizeof(after), "this run's report");
	report->kept.name = "report";
	sp_step_action(&report->kept, SP_ACTION_FILE, path, NULL, after);
	return true;
}

/* A real run keeps its report when it wrote; a dry run lists keeping it
 * when its real run would write (it lists an action). */
static bool keeps_report(const struct sp_cli_args *args, const struct progress *progress,
			 const struct sp_report *report)
{
	if (args->dry_run)
		return report->outcome == SP_OUTCOME_DRY_RUN && sp_report_n_actions(report) > 0;
	return progress->writing && report->outcome != SP_OUTCOME_REFUSED;
}

static void keep_report(const struct sp_cli_args *args, const struct sp_plan *plan,
			const struct sp_report *report, const struct sp_runlog *where, char *kept,
			size_t len)
{
	struct sp_error err = { 0 };
	char *json = sp_format_report_json(report, plan);

	kept[0] = '\0';
	if (!json) {
		sp_cli_error("cannot keep the report: out of memory");
		return;
	}
	if (sp_runlog_keep(args->root[0] ? args->root : "/", where, json, &err) < 0)
		sp_cli_error("%s", err.message);
	else
		snprintf(kept, len, "%s/%s", where->dir, where->name);
	free(json);
}

/* What the run did, for the message when its report cannot be printed. */
static void tell_outcome(const struct sp_report *report, const struct sp_plan *plan,
			 const char *kept)
{
	char *summary = sp_format_report_summary(report, plan);

	sp_cli_outcome("the report", "the run itself: %s%s%s%s", summary ? summary : report->command,
		       kept[0] ? "; the report is kept in '" : "", kept, kept[0] ? "'" : "");
	free(summary);
}

static int run(int argc, char **argv, bool apply)
{
	struct sp_cli_args *args = calloc(1, sizeof(*args));
	struct sp_plan *plan = calloc(1, sizeof(*plan));
	struct sp_report *report = calloc(1, sizeof(*report));
	struct sp_error err = { 0 };
	struct progress progress = { 0 };
	struct sp_run_opts opts = { 0 };
	unsigned allowed = SP_OPT_PLAN_FLAGS | SP_OPT_PLAN_FILE | SP_OPT_ROOT |
			   SP_OPT_FORCE | (apply ? SP_OPT_APPLY : SP_OPT_CHECK);
	char *text = NULL, kept[SP_PATH_MAX + SP_NAME_MAX * 2 + 1] = "";
	struct sp_runlog where;
	struct sp_key key = { 0 };
	bool done = false;
	int rc;

	if (!args || !plan || !report) {
		sp_cli_error("out of memory");
		rc = SP_EXIT_FAILED;
		goto out;
	}
	rc = sp_cli_parse(argc, argv, allowed, apply ? usage_apply : usage_check, args, &done);
	if (rc || done)
		goto out;
	if (args->root[0] && !is_directory(args->root)) {
		sp_error_set(&err, ENOTDIR, SP_ERR_INVALID, "root: '%s' is not a directory",
			     args->root);
		rc = sp_cli_fail(&err);
		goto out;
	}
	if (!apply && !args->plan_file[0] && !args->have_fs && args->device[0])
		sp_cli_fs_from_device(args);
	if (load_plan(args, plan, &err) < 0) {
		rc = sp_cli_fail(&err);
		goto out;
	}
	if (apply && args->key_file[0] && !sp_plan_has_layer(plan, SP_LAYER_LUKS)) {
		sp_error_set(&err, EINVAL, SP_ERR_INVALID,
			     "key-file: the plan has no LUKS2 layer (--stack luks) to use it");
		rc = sp_cli_fail(&err);
		goto out;
	}
	/* read (and judged) before the device is opened: a key file that is
	 * not the owner's alone is refused with nothing written */
	if (apply && args->key_file[0] && sp_key_read(args->key_file, STDIN_FILENO, &key, &err) < 0) {
		rc = sp_cli_fail(&err);
		goto out;
	}
	progress.text = args->format == SP_FORMAT_TEXT;
	progress.tty = apply && sp_ticker_wanted(progress.text);
	progress.pause_dir = args->pause_dir;
	opts.root = args->root[0] ? args->root : "/";
	opts.dry_run = args->dry_run;
	opts.force = args->force;
	opts.sysfs = &args->sysfs;
	opts.stop_after = args->stop_after;
	opts.program_dirs = args->program_dirs;
	opts.program_deadline_s = args->program_deadline_s;
	opts.key = key.bytes ? &key : NULL;
	opts.fast_pbkdf = args->fast_pbkdf;
	if (apply && !args->dry_run) {
		opts.before_write = before_write;
		opts.before_write_data = &progress;
	}
	opts.strict = args->strict;
	opts.on_step = print_step;
	opts.on_step_start = start_step;
	opts.userdata = &progress;
	rc = apply ? sp_pipeline_apply(plan, &opts, report) : sp_pipeline_check(plan, &opts, report);
	sp_ticker_stop(&progress.ticker);
	if (apply && keeps_report(args, &progress, report) &&
	    list_kept_report(args, plan, report, &where) && !args->dry_run)
		keep_report(args, plan, report, &where, kept, sizeof(kept));
	tell_outcome(report, plan, kept);
	text = args->format == SP_FORMAT_JSON ? sp_format_report_json(report, plan) :
						sp_format_report_text(report, plan);
	if (text)
		sp_cli_print(text);
	else
		sp_cli_error("cannot format the report: out of memory");
	if (report->outcome == SP_OUTCOME_REFUSED || report->outcome == SP_OUTCOME_FAILED)
		sp_cli_fail(&report->error);
	if (!text && rc == SP_EXIT_OK)
		rc = SP_EXIT_FAILED;
out:
	sp_key_wipe(&key);
	free(text);
	sp_report_free(report);
	free(report);
	sp_plan_release(plan);
	free(plan);
	free(args);
	return rc;
}

int sp_cmd_apply(int argc, char **argv)
{
	return run(argc, argv, true);
}

int sp_cmd_check(int argc, char **argv)
{
	return run(argc, argv, false);
}
