/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line: the only place that prints or exits.  Each command
 * parses flags into a spec, asks the library, and maps its error to an
 * exit code (0 ok, 1 drift, 2 invalid, 3 refused, 4 failed).
 */
#include <errno.h>
#include <sys/stat.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "fileio.h"
#include "textfile.h"
#include "format.h"

static const char usage_main[] =
	"Usage: stripeplan COMMAND [OPTIONS]\n"
	"\n"
	"Turn a RAID array's description into a stripe-aligned, tuned and verified\n"
	"partition, filesystem, mount and queue tuning.\n"
	"\n"
	"Commands:\n"
	"  plan          compute and print a plan (no device is touched)\n"
	"  controllers   list the controller profiles\n"
	"  apply         apply a plan: partition, tuning, filesystem, fstab; verified\n"
	"  check         compare with a plan; exit 1 unless harmless (any with --strict)\n"
	"  scan          list the machine's arrays and disks, each with check's verdict\n"
	"\n"
	"Options:\n"
	"  -h, --help     show this help\n"
	"  -V, --version  show the version\n"
	"\n"
	"Run 'stripeplan COMMAND --help' for a command's options; see stripeplan(8).\n"
	"Exit status: 0 ok, 1 check found a costly or suboptimal difference (with\n"
	"--strict: any difference), 2 invalid input, 3 refused for safety, 4 a step\n"
	"failed.\n";

/* One line per finding: a message may hold several, one per line. */
int sp_cli_fail(const struct sp_error *err)
{
	const char *msg = err->message[0] ? err->message : strerror(-err->code);

	for (const char *line = msg, *end; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		sp_cli_error("%.*s", (int)(end - line), line);
	}
	return sp_error_exit_code(err);
}

int sp_cli_usage_error(const char *fmt, const char *arg)
{
	char msg[SP_MSG_MAX];

	snprintf(msg, sizeof(msg), fmt, arg);
	sp_cli_error("%s\nTry 'stripeplan --help'.", msg);
	return SP_EXIT_INVALID;
}

int sp_cli_write_output(const char *path, const char *text, struct sp_error *err)
{
	const char *what = "write";
	struct stat st;
	mode_t mask;
	int r;

	if (!path || !strcmp(path, "-")) {
		/* a failure is kept and told once, by sp_cli_finish() */
		sp_cli_print(text);
		return 0;
	}
	/* -o /dev/full must not turn the device node into a file: only a
	 * regular file (or nothing) is replaced; the writer checks again */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return sp_error_set(err, EEXIST, SP_ERR_INVALID,
				    "output: '%s' is %s; -o writes only regular files", path,
				    sp_file_kind(st.st_mode));
	/* a half-written plan must never be mistaken for a reviewed one; it
	 * is for review, so readable as the umask allows */
	mask = umask(0);
	umask(mask);
	r = sp_write_atomic(path, text, 0666 & ~mask, (uid_t)-1, (gid_t)-1, &what);
	if (r < 0)
		return sp_error_set(err, -r, SP_ERR_FAILED, "cannot %s '%s': %s", what, path,
				    strerror(-r));
	return 0;
}

int sp_cli_running_kernel(struct sp_kernel *ret, struct sp_error *err)
{
	struct utsname u;

	if (uname(&u) < 0)
		return sp_error_set(err, errno, SP_ERR_FAILED, "uname: %s", strerror(errno));
	return sp_parse_kernel(u.release, ret, err);
}

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "plan", sp_cmd_plan },
	{ "controllers", sp_cmd_controllers },
	{ "apply", sp_cmd_apply },
	{ "check", sp_cmd_check },
	{ "scan", sp_cmd_scan },
};

static int run(int argc, char **argv)
{
	const char *names[ARRAY_SIZE(commands)], *near;
	char msg[SP_MSG_MAX];

	if (argc < 2)
		return sp_cli_usage_error("%s", "no command given");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		sp_cli_outcome("the help text", "nothing was done");
		sp_cli_print(usage_main);
		return SP_EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		sp_cli_outcome("the version", "nothing was done");
		sp_cli_print("stripeplan " STRIPEPLAN_VERSION "\n");
		return SP_EXIT_OK;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
		names[i] = commands[i].name;
	}
	near = sp_cli_nearest(argv[1], strlen(argv[1]), names, ARRAY_SIZE(names));
	snprintf(msg, sizeof(msg), "unknown command '%s'%s%s%s", argv[1],
		 near ? ": did you mean '" : "", near ? near : "", near ? "'?" : "");
	return sp_cli_usage_error("%s", msg);
}

int main(int argc, char **argv)
{
	/* before anything opens a file: see src/output.c */
	int rc = sp_cli_start();

	return sp_cli_finish(rc ? rc : run(argc, argv));
}
