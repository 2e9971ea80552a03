/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Standard input, output and error, as a tool that writes disks needs
 * them.
 *
 * Started with one of them closed (`>&-`, as some init scripts and
 * daemons leave them), the first file opened would get that number: the
 * disk apply opens would become standard output and receive the report
 * over its label.  So before anything is opened, a closed 0, 1 or 2 gets
 * /dev/null, as gnulib's stdopen() and util-linux do.
 *
 * Standard output or error open on a block device is refused the same
 * way: nothing stripeplan prints belongs on a disk.
 *
 * SIGPIPE is ignored, so a reader that goes away (`apply | head -1`) makes
 * a write fail with EPIPE instead of killing apply between two steps.
 * Every write to standard output and error is checked; output is written
 * with write(2), not stdio, so the first error and its errno are what the
 * final message says.  After standard output fails nothing more is sent
 * there, and sp_cli_finish() turns the run's exit status into 4 with one
 * line on standard error saying what the run itself did; lines standard
 * error could not take go to standard output at the end, when it still
 * works.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"

/* what the messages of one run can lose to a broken standard error */
#define LOST_MAX_BYTES 4096U

static struct {
	int out_errno;             /* first error writing standard output */
	int err_errno;             /* first error writing standard error */
	char lost[LOST_MAX_BYTES + 1]; /* the lines standard error did not take */
	size_t lost_len;
	char what[64];             /* what standard output carries: "the report" */
	char did[SP_PATH_MAX + 2 * SP_MSG_MAX]; /* what the run did, for the message */
} out = { .what = "the output", .did = "nothing was touched" };

/* /dev/null, checked to be the kernel's null device: in a chroot it could
 * be anything, and a block device there is what this is meant to avoid. */
static int open_null(void)
{
	struct stat st;
	int fd = open("/dev/null", O_RDWR | O_NOCTTY);

	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) &&
	    st.st_rdev == makedev(1, 3))
		return fd;
	if (fd >= 0)
		close(fd);
	/* no usable /dev/null: a descriptor nothing can be written through
	 * (write fails with EBADF), so output is lost loudly, not to a disk */
	return open("/", O_PATH | O_DIRECTORY);
}

/*
 * Output that lands on a disk: `apply ... > /dev/sdb` is one slip away
 * from `--device /dev/sdb`, and the report would go over the new label.
 * Nothing stripeplan prints is meant for a block device, so such a
 * descriptor is replaced by /dev/null and the run refused before it
 * starts.  Returns 0, or the exit status when refused.
 */
static int refuse_block_devices(void)
{
	static const char *const names[] = { [STDOUT_FILENO] = "standard output",
					     [STDERR_FILENO] = "standard error" };
	const char *which = NULL;
	bool err_is_block = false;
	char msg[SP_MSG_MAX];

	for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++) {
		struct stat st;
		int null_fd;

		if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode))
			continue;
		null_fd = open_null();
		if (null_fd < 0 || dup2(null_fd, fd) < 0)
			_exit(SP_EXIT_INVALID);
		close(null_fd);
		which = which ? "standard output and error" : names[fd];
		err_is_block = fd == STDERR_FILENO;
	}
	if (!which)
		return 0;
	snprintf(msg, sizeof(msg),
		 "%s is a block device; stripeplan writes its output to no disk: refused, nothing "
		 "was done", which);
	/* told where it can still be read */
	if (err_is_block) {
		sp_cli_print("stripeplan: ");
		sp_cli_print(msg);
		sp_cli_print("\n");
	} else {
		sp_cli_error("%s", msg);
	}
	return SP_EXIT_INVALID;
}

int sp_cli_start(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		int got;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		got = open_null();
		if (got != fd) {
			/* cannot happen when every lower number is open, as it is
			 * here; never go on with a hole at 0, 1 or 2 */
			if (got < 0 || dup2(got, fd) < 0)
				_exit(SP_EXIT_FAILED);
			close(got);
		}
	}
	signal(SIGPIPE, SIG_IGN);
	return refuse_block_devices();
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			/* an inherited non-blocking descriptor: wait for room */
			struct pollfd p = { .fd = fd, .events = POLLOUT };

			if (poll(&p, 1, -1) < 0 && errno != EINTR)
				return -errno;
			continue;
		}
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int sp_cli_print(const char *text)
{
	int r;

	if (out.out_errno)
		return -out.out_errno;
	r = write_all(STDOUT_FILENO, text, strlen(text));
	if (r < 0)
		out.out_errno = -r;
	return r;
}

static void keep_lost(const char *line, size_t len)
{
	size_t room = LOST_MAX_BYTES - out.lost_len;

	if (len > room)
		len = room;
	memcpy(out.lost + out.lost_len, line, len);
	out.lost_len += len;
}

void sp_cli_error(const char *fmt, ...)
{
	char line[SP_PATH_MAX + 3 * SP_MSG_MAX];
	va_list ap;
	int n;

	memcpy(line, "stripeplan: ", 12);
	va_start(ap, fmt);
	n = vsnprintf(line + 12, sizeof(line) - 13, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	n += 12;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	line[n] = '\0';
	if (!out.err_errno) {
		int r = write_all(STDERR_FILENO, line, (size_t)n);

		if (r == 0)
			return;
		out.err_errno = -r;
	}
	keep_lost(line, (size_t)n);
}

void sp_cli_outcome(const char *what, const char *fmt, ...)
{
	va_list ap;

	snprintf(out.what, sizeof(out.what), "%s", what);
	va_start(ap, fmt);
	vsnprintf(out.did, sizeof(out.did), fmt, ap);
	va_end(ap);
}

/* Nothing here prints through stdio, but a library might (libparted's
 * default exception handler does): what it left unwritten counts too, as
 * coreutils' close_stdout() counts it. */
static void flush_stdio(void)
{
	if ((fflush(stdout) != 0 || ferror(stdout)) && !out.out_errno)
		out.out_errno = errno ? errno : EIO;
	if ((fflush(stderr) != 0 || ferror(stderr)) && !out.err_errno)
		out.err_errno = errno ? errno : EIO;
}

int sp_cli_finish(int rc)
{
	errno = 0;
	flush_stdio();
	if (out.out_errno) {
		sp_cli_error("cannot write %s to standard output: %s; %s (exit %d)", out.what,
			     strerror(out.out_errno), out.did, rc);
		return SP_EXIT_FAILED;
	}
	if (out.err_errno && out.lost_len) {
		char note[128];

		snprintf(note, sizeof(note),
			 "stripeplan: (the lines above could not be written to standard error: %s)\n",
			 strerror(out.err_errno));
		/* a failure here is the out_errno case, checked again below */
		out.lost[out.lost_len] = '\0';
		sp_cli_print(out.lost);
		sp_cli_print(note);
		if (out.out_errno)
			return SP_EXIT_FAILED;
	}
	return rc;
}
