/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mkfs proven before the first write (mkfs-check.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec.h"
#include "mkfs-check.h"

static bool reads_like_error(const char *line, size_t len, const char *tool)
{
	static const char *const words[] = { "error",  "invalid", "illegal", "bad ",
					     "cannot", "can't",   "not ",    "failed",
					     "too large", "too small", "no such", "denied",
					     "busy",   "refus" };
	char copy[SP_MSG_MAX];
	size_t i, tn = strlen(tool);

	if (len > tn && !strncmp(line, tool, tn) && line[tn] == ':')
		return true;
	snprintf(copy, sizeof(copy), "%.*s", (int)len, line);
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (strcasestr(copy, words[i]))
			return true;
	return false;
}

void sp_mkfs_why(const char *out, const char *tool, char *buf, size_t len)
{
	const char *line = out, *end, *last = NULL, *err = NULL;
	size_t last_len = 0, err_len = 0, n, tn = strlen(tool);

	for (; line && *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		while (line < end && (*line == ' ' || *line == '\t'))
			line++;
		n = (size_t)(end - line);
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\r'))
			n--;
		if (!strncasecmp(line, "usage:", 6))
			break;
		if (!n || (n > tn + 1 && !strncmp(line, tool, tn) && line[tn] == ' ' &&
			   line[tn + 1] >= '0' && line[tn + 1] <= '9'))
			continue;
		last = line;
		last_len = n;
		if (reads_like_error(line, n, tool)) {
			err = line;
			err_len = n;
		}
	}
	if (err)
		snprintf(buf, len, "%.*s", (int)err_len, err);
	else if (last)
		snprintf(buf, len, "%.*s", (int)last_len, last);
	else
		snprintf(buf, len, "it printed nothing");
}

int sp_step_find_program(const struct sp_ctx *ctx, const char *name, char *buf, size_t len,
			 struct sp_step_result *res)
{
	const char *dirs = ctx->program_dirs ? ctx->program_dirs : SP_EXEC_SYSTEM_DIRS;
	int r = sp_exec_find(name, dirs, buf, len);

	if (r < 0)
		return sp_step_error(res, -r, SP_ERR_REFUSED,
				     "cannot find '%s' in %s; nothing was written%s", name, dirs,
				     r == -ENOENT ? " (stripeplan runs programs from the system "
						    "directories only, never from PATH)" :
						    "");
	return 0;
}

/* Whether the command already says the sector size ("-s size=4096"). */
static bool sets_sector_size(const struct sp_plan *plan)
{
	for (size_t i = 1; i + 1 < plan->n_mkfs_argv; i++)
		if (!strcmp(plan->mkfs_argv[i], "-s"))
			return true;
	return false;
}

/*
 * The dry-run argv: the found program, its -N or -n, the plan's options,
 * the device's sector size for mkfs.xfs, and the scratch file in place of
 * the partition.  argv must hold SP_MAX_ARGV + 4 entries.
 */
static void dry_run_argv(const struct sp_ctx *ctx, const char *scratch, char *sector,
			 size_t sector_len, const char **argv)
{
	const struct sp_plan *plan = ctx->plan;
	bool xfs = plan->fs == SP_FS_XFS;
	size_t n = 0;

	argv[n++] = ctx->mkfs_path;
	argv[n++] = xfs ? "-N" : "-n";
	for (size_t i = 1; i + 1 < plan->n_mkfs_argv; i++)
		argv[n++] = plan->mkfs_argv[i];
	if (xfs && !sets_sector_size(plan) && plan->device.logical_sector_bytes) {
		snprintf(sector, sector_len, "size=%u", plan->device.logical_sector_bytes);
		argv[n++] = "-s";
		argv[n++] = sector;
	}
	argv[n++] = scratch;
	argv[n] = NULL;
}

/* The plan's command as a person would type it, for messages. */
static void command_line(const struct sp_plan *plan, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < plan->n_mkfs_argv && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "",
					 plan->mkfs_argv[i]);
}

/* An anonymous file of the partition's size: sparse, on no filesystem
 * anyone can see, gone when the run closes it. */
static int scratch_file(const struct sp_plan *plan, char *path, size_t len,
			struct sp_step_result *res)
{
	int fd = memfd_create("stripeplan-mkfs-check", MFD_CLOEXEC);

	if (fd < 0 || ftruncate(fd, (off_t)plan->size_bytes) < 0) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return sp_step_error(res, e, SP_ERR_REFUSED,
				     "cannot make a scratch file of %llu bytes to try the mkfs "
				     "command on: %s; nothing was written",
				     (unsigned long long)plan->size_bytes, strerror(e));
	}
	/* mkfs is another process: it reaches our descriptor by our pid */
	snprintf(path, len, "/proc/%d/fd/%d", (int)getpid(), fd);
	return fd;
}

int sp_mkfs_preflight(struct sp_ctx *ctx, struct sp_step_result *res)
{
	const struct sp_plan *plan = ctx->plan;
	const char *argv[SP_MAX_ARGV + 4];
	struct sp_exec_opts opts = { .program_dirs = ctx->program_dirs,
				     .deadline_s = ctx->program_deadline_s };
	struct sp_exec_result out = { 0 };
	char scratch[64], sector[32], cmd[SP_MSG_MAX], why[SP_MSG_MAX], size[32];
	int fd, r;

	if (plan->n_mkfs_argv < 2 || plan->n_mkfs_argv > SP_MAX_ARGV)
		return sp_step_error(res, EINVAL, SP_ERR_INVALID,
				     "the plan's mkfs command has %zu arguments", plan->n_mkfs_argv);
	r = sp_step_find_program(ctx, plan->mkfs_argv[0], ctx->mkfs_path, sizeof(ctx->mkfs_path),
				 res);
	if (r < 0)
		return r;
	fd = scratch_file(plan, scratch, sizeof(scratch), res);
	if (fd < 0)
		return fd;
	dry_run_argv(ctx, scratch, sector, sizeof(sector), argv);
	r = sp_exec(argv, &opts, &out, &res->error);
	close(fd);
	if (r < 0) {
		res->error.kind = SP_ERR_REFUSED; /* it could not even try: nothing written */
		return r;
	}
	if (out.exit_status == 127 && !strncmp(out.output, "cannot run", 10)) {
		r = sp_step_error(res, ENOEXEC, SP_ERR_REFUSED, "%s; nothing was written",
				  strtok(out.output, "\n"));
	} else if (out.exit_status != 0) {
		sp_mkfs_why(out.output, plan->mkfs_argv[0], why, sizeof(why));
		command_line(plan, cmd, sizeof(cmd));
		sp_format_size(plan->size_bytes, SP_SIZE_HUMAN, size, sizeof(size));
		r = sp_step_error(res, EINVAL, SP_ERR_INVALID,
				  "%s would refuse this plan: %s (%s, on a %s %s); nothing was "
				  "written",
				  plan->mkfs_argv[0], why, cmd, size,
				  plan->table == SP_TABLE_NONE ? "device" : "partition");
	}
	sp_exec_result_free(&out);
	return r;
}
