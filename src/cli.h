/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STRIPEPLAN_CLI_H
#define STRIPEPLAN_CLI_H

#include <pthread.h>

#include "stripeplan.h"
#include "sysfs.h"

enum sp_output_format {
	SP_FORMAT_TEXT = 0,
	SP_FORMAT_JSON,
	SP_FORMAT_KICKSTART, /* plan only: the artifacts below */
	SP_FORMAT_PRESEED,
	SP_FORMAT_FSTAB,
	SP_FORMAT_SCRIPT,
	SP_FORMAT_UDEV,
};

/* Everything a command line can say; each command accepts a subset. */
struct sp_cli_args {
	struct sp_spec spec;
	bool have_controller, have_level, have_disks, have_chunk, have_fs, have_kernel, have_table;
	char device[SP_PATH_MAX];
	/* scan: every --device given, in order (device holds the last) */
#define SP_CLI_MAX_DEVICES 64U
	size_t n_devices;
	char devices[SP_CLI_MAX_DEVICES][SP_PATH_MAX];
	uint64_t size_bytes;        /* 0 = probe the device */
	unsigned sector_bytes;      /* 0 = not given */
	char facts_file[SP_PATH_MAX];
	char report_file[SP_PATH_MAX]; /* --controller-report */
	/* scan: every --controller-report given, in order */
#define SP_CLI_MAX_REPORTS 64U
	size_t n_reports;
	char reports[SP_CLI_MAX_REPORTS][SP_PATH_MAX];
	char profiles_dir[SP_PATH_MAX];
	char plan_file[SP_PATH_MAX];
	char root[SP_PATH_MAX];
	char output[SP_PATH_MAX];
	enum sp_output_format format;
	bool force, dry_run;
	/* from the environment, for tests only (stripeplan(8), ENVIRONMENT):
	 * SP_SYSFS_ROOT, a fake sysfs tree; STRIPEPLAN_TEST_STOP_AFTER, a step
	 * after which apply stops as if killed; STRIPEPLAN_TEST_PAUSE_BEFORE_WRITE,
	 * a directory where apply says it is about to write and waits;
	 * STRIPEPLAN_TEST_PROGRAM_DIRS, where apply looks for mkfs instead of
	 * the system directories; STRIPEPLAN_TEST_DEADLINE, seconds a program
	 * may run; STRIPEPLAN_TEST_FAST_PBKDF=1, luksFormat with PBKDF2 and
	 * 1000 iterations (argon2's default needs a gigabyte and seconds) */
	struct sp_sysfs sysfs;
	const char *stop_after;
	const char *pause_dir;
	const char *program_dirs;
	unsigned program_deadline_s;
	bool fast_pbkdf;
	/* apply: a LUKS2 layer's key ("" none); plan --format kickstart or
	 * preseed: where the installer will find it, never read here */
	char key_file[SP_PATH_MAX];
	bool strict;                /* check: any difference is drift */
};

/* Which options a command takes. */
enum {
	SP_OPT_PLAN_FLAGS = 1 << 0, /* controller, level, disks, ... */
	SP_OPT_OUTPUT = 1 << 1,     /* -o FILE */
	SP_OPT_PLAN_FILE = 1 << 2,  /* --plan FILE */
	SP_OPT_APPLY = 1 << 3,      /* --force, --dry-run */
	SP_OPT_ROOT = 1 << 4,       /* --root DIR */
	SP_OPT_CHECK = 1 << 5,      /* --strict; --fs may be left to the device */
	SP_OPT_FORCE = 1 << 6,      /* --force */
	SP_OPT_SCAN = 1 << 7,       /* --device repeated; the array's flags, no --fs */
	SP_OPT_KEY_PATH = 1 << 8,   /* --key-file as a path an installer snippet names */
};

/* Parses argv into args; prints help and returns 0 with *done set for
 * --help; returns an exit code > 0 on bad usage (message printed). */
int sp_cli_parse(int argc, char **argv, unsigned allowed, const char *help,
		 struct sp_cli_args *args, bool *done);
/* The apply command that re-creates this plan on the machine being
 * installed (shell-quoted; no --size: the device is probed there). */
int sp_cli_apply_command(const struct sp_cli_args *args, char *buf, size_t len);
/* scan: the arguments check would have for one device (its --level,
 * --disks, --chunk as given, the running kernel unless --kernel). */
int sp_cli_args_for_device(const struct sp_cli_args *scan, const char *device,
			   struct sp_cli_args *ret, struct sp_error *err);
/* A controller CLI's saved report: read (a regular file, bounded) and
 * parsed; name is what a plan calls it ("storcli report FILE (VD 1)"). */
int sp_cli_load_report(const char *file, struct sp_controller_report *ret, char *name,
		       size_t name_len, struct sp_error *err);
/* check without --fs: the filesystem found on the device (cmd-apply.c). */
void sp_cli_fs_from_device(struct sp_cli_args *args);
/* Loads profiles, facts (probe, file or offline) and makes the plan. */
int sp_cli_make_plan(const struct sp_cli_args *args, struct sp_plan *ret, struct sp_error *err);
/* The same with the array's stage alone (sp_plan_make_geometry()). */
int sp_cli_make_geometry(const struct sp_cli_args *args, struct sp_plan *ret,
			 struct sp_error *err);
/* A plan read from a file, replaced by the same plan made here from its
 * fields with the controller profile it names (sp_plan_replan): an
 * edited file is refused (exit 2), never executed. */
int sp_cli_replan(const struct sp_cli_args *args, struct sp_plan *plan, struct sp_error *err);

/*
 * Standard input, output and error (src/output.c).  sp_cli_start() runs
 * first in main(): a closed 0, 1 or 2 gets /dev/null, SIGPIPE is ignored;
 * it returns 2 (message printed) when output or error is a block device.
 * Everything the CLI prints goes through sp_cli_print() (standard output)
 * and sp_cli_error() (one "stripeplan: " line on standard error); both are
 * checked.  sp_cli_outcome() says what the run did, in words for the
 * message sp_cli_finish() prints when standard output was lost ("the
 * report", "the run itself: apply '/dev/sdb': done: ..."); sp_cli_finish()
 * returns the exit status: rc, or 4 when the output was lost.
 */
int sp_cli_start(void);
int sp_cli_print(const char *text);
void sp_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sp_cli_outcome(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int sp_cli_finish(int rc);

/* The one of names within two edits of word (its first word_len bytes),
 * for "did you mean"; NULL when none is, or two are equally near. */
const char *sp_cli_nearest(const char *word, size_t word_len, const char *const *names,
			   size_t n_names);

int sp_cli_fail(const struct sp_error *err);
int sp_cli_usage_error(const char *fmt, const char *arg);
int sp_cli_write_output(const char *path, const char *text, struct sp_error *err);
int sp_cli_running_kernel(struct sp_kernel *ret, struct sp_error *err);

int sp_cmd_plan(int argc, char **argv);
int sp_cmd_controllers(int argc, char **argv);
int sp_cmd_apply(int argc, char **argv);
int sp_cmd_check(int argc, char **argv);
int sp_cmd_scan(int argc, char **argv);

/*
 * The running step's line with its elapsed time, rewritten each second
 * on a terminal (src/progress.c).  sp_ticker_wanted: text output to a
 * terminal (not TERM=dumb).  stop wipes the line; safe without a start.
 */
struct sp_ticker {
	char head[96];
	bool stop, running;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
};
bool sp_ticker_wanted(bool text);
void sp_ticker_start(struct sp_ticker *t, const char *head);
void sp_ticker_stop(struct sp_ticker *t);

#endif
