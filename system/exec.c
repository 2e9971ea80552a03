/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The only place stripeplan forks.  Programs get an argv array, never a
 * shell, so a device path or label can not be read as shell syntax.
 *
 * stdout and stderr share one pipe so the captured text keeps the order
 * the tool wrote it in; mkfs and parted interleave progress and errors.
 * A second close-on-exec pipe tells the parent whether execvpe() worked:
 * it sees EOF on success, or the child's errno when the exec failed, so
 * the "cannot run" message is built here, not in the forked child.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "exec.h"

#define SP_EXEC_OUTPUT_MAX_BYTES (1024U * 1024U)
#define SP_EXEC_CHUNK_BYTES 4096U

extern char **environ;

struct sp_capture {
	char *buf;
	size_t len;
	size_t cap;
};

/*
 * The child's environment: ours without any LC_* override, plus LC_ALL=C
 * so messages can be matched.  Built before fork() because setenv() is
 * not async-signal-safe.  Only the pointer array is allocated.
 */
static char **child_environ(void)
{
	static char lc_all[] = "LC_ALL=C";
	size_t n = 0, i, j = 0;
	char **envp;

	while (environ && environ[n])
		n++;
	envp = calloc(n + 2, sizeof(*envp));
	if (!envp)
		return NULL;
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "LC_ALL=", 7) != 0)
			envp[j++] = environ[i];
	envp[j] = lc_all;
	return envp;
}

/* Runs in the forked child: only async-signal-safe calls from here on. */
static void __attribute__((noreturn))
child_exec(const char *const *argv, char **envp, int out_fd, int status_fd)
{
	sigset_t all;
	int null_fd, e;

	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	signal(SIGPIPE, SIG_DFL);

	null_fd = open("/dev/null", O_RDONLY);
	if (null_fd < 0 || dup2(null_fd, STDIN_FILENO) < 0 ||
	    dup2(out_fd, STDOUT_FILENO) < 0 || dup2(out_fd, STDERR_FILENO) < 0)
		goto fail;
	/* Descriptors the caller forgot to mark close-on-exec stay with us. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);

	execvpe(argv[0], (char *const *)argv, envp);
fail:
	e = errno;
	if (write(status_fd, &e, sizeof(e)) < 0) {
		/* nothing left to tell anyone */
	}
	_exit(127);
}

static int capture_grow(struct sp_capture *c, size_t want)
{
	size_t cap = c->cap ? c->cap : SP_EXEC_CHUNK_BYTES;
	char *p;

	while (cap < want)
		cap *= 2;
	if (cap > SP_EXEC_OUTPUT_MAX_BYTES + 1)
		cap = SP_EXEC_OUTPUT_MAX_BYTES + 1;
	if (cap <= c->cap)
		return 0;
	p = realloc(c->buf, cap);
	if (!p)
		return -ENOMEM;
	c->buf = p;
	c->cap = cap;
	return 0;
}

/*
 * Keeps the first SP_EXEC_OUTPUT_MAX_BYTES and drains the rest, so a
 * chatty child never blocks on a full pipe.  Returns 1 on EOF.
 */
static int capture_read(struct sp_capture *c, int fd)
{
	char chunk[SP_EXEC_CHUNK_BYTES];
	size_t keep;
	ssize_t n;
	int r;

	n = read(fd, chunk, sizeof(chunk));
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	if (n == 0)
		return 1;
	keep = SP_EXEC_OUTPUT_MAX_BYTES - c->len;
	if ((size_t)n < keep)
		keep = (size_t)n;
	if (!keep)
		return 0;
	r = capture_grow(c, c->len + keep + 1);
	if (r < 0)
		return r;
	memcpy(c->buf + c->len, chunk, keep);
	c->len += keep;
	return 0;
}

static int capture_all(struct sp_capture *c, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int r;

	for (;;) {
		r = poll(&pfd, 1, -1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		r = capture_read(c, fd);
		if (r != 0)
			return r < 0 ? r : 0;
	}
}

static int wait_child(pid_t pid, int *ret_status)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		*ret_status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		*ret_status = 128 + WTERMSIG(status);
	else
		*ret_status = 255;
	return 0;
}

/* The child's errno from a failed exec, or 0 once the exec closed the pipe. */
static int read_exec_errno(int fd)
{
	int e = 0;
	ssize_t n;

	do
		n = read(fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(e) ? e : 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int sp_exec(const char *const *argv, struct sp_exec_result *result, struct sp_error *err)
{
	struct sp_capture cap = { 0 };
	int out[2] = { -1, -1 }, st[2] = { -1, -1 };
	int r, status = 0, exec_errno;
	char **envp = NULL;
	double start;
	pid_t pid;

	if (!argv || !argv[0] || !argv[0][0] || !result)
		return sp_error_set(err, EINVAL, SP_ERR_FAILED,
				    "cannot run a program without a name");

	envp = child_environ();
	r = capture_grow(&cap, 1);
	if (!envp || r < 0) {
		r = sp_error_set(err, ENOMEM, SP_ERR_FAILED,
				 "cannot run '%s': out of memory", argv[0]);
		goto out;
	}
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(st, O_CLOEXEC) < 0) {
		r = sp_error_set(err, errno, SP_ERR_FAILED,
				 "cannot run '%s': cannot create pipe: %s", argv[0],
				 strerror(errno));
		goto out;
	}

	start = sp_now_seconds();
	pid = fork();
	if (pid < 0) {
		r = sp_error_set(err, errno, SP_ERR_FAILED, "cannot run '%s': fork: %s",
				 argv[0], strerror(errno));
		goto out;
	}
	if (pid == 0)
		child_exec(argv, envp, out[1], st[1]);

	close_fd(&out[1]);
	close_fd(&st[1]);
	r = capture_all(&cap, out[0]);
	exec_errno = read_exec_errno(st[0]);
	/* Reap the child whatever happened to the pipe: no zombies. */
	if (r < 0) {
		kill(pid, SIGKILL);
		wait_child(pid, &status);
		r = sp_error_set(err, -r, SP_ERR_FAILED,
				 "cannot read output of '%s': %s", argv[0], strerror(-r));
		goto out;
	}
	r = wait_child(pid, &status);
	if (r < 0) {
		r = sp_error_set(err, -r, SP_ERR_FAILED, "cannot wait for '%s': %s",
				 argv[0], strerror(-r));
		goto out;
	}
	if (exec_errno) {
		int n = snprintf(cap.buf, cap.cap, "cannot run '%s': %s\n", argv[0],
				 strerror(exec_errno));

		cap.len = n < 0 ? 0 : (size_t)n >= cap.cap ? cap.cap - 1 : (size_t)n;
		status = 127;
	}

	cap.buf[cap.len] = '\0';
	result->exit_status = status;
	result->output = cap.buf;
	result->output_len = cap.len;
	result->seconds = sp_now_seconds() - start;
	cap.buf = NULL;
	r = 0;
out:
	close_fd(&out[0]);
	close_fd(&out[1]);
	close_fd(&st[0]);
	close_fd(&st[1]);
	free(cap.buf);
	free(envp);
	return r;
}

int sp_exec_find(const char *name, const char *dirs, char *buf, size_t len)
{
	const char *dir = dirs ? dirs : SP_EXEC_SYSTEM_DIRS;
	bool too_long = false;

	if (!name || !name[0] || strchr(name, '/'))
		return -EINVAL;
	while (*dir) {
		size_t n = strcspn(dir, ":");
		struct stat st;
		int w;

		/* only absolute entries: "" or "." would mean the caller's cwd */
		if (n && dir[0] == '/') {
			w = snprintf(buf, len, "%.*s/%s", (int)n, dir, name);
			if (w < 0 || (size_t)w >= len)
				too_long = true;
			else if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) &&
				 faccessat(AT_FDCWD, buf, X_OK, AT_EACCESS) == 0)
				return 0;
		}
		dir += n + (dir[n] == ':');
	}
	if (len)
		buf[0] = '\0'; /* it held the last candidate */
	return too_long ? -ENAMETOOLONG : -ENOENT;
}

void sp_exec_result_free(struct sp_exec_result *result)
{
	if (!result)
		return;
	free(result->output);
	result->output = NULL;
	result->output_len = 0;
}

/* What the child sends back: fn's result and message. */
struct private_result {
	int rc;
	char msg[SP_MSG_MAX];
};

static void private_child(int fd, pid_t parent, int (*fn)(void *, char *, size_t), void *arg)
{
	struct private_result out = { 0 };

	/* killed with the parent: a run stopped with -9 leaves no process
	 * and, with it, no namespace and no mount */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(1);
	if (unshare(CLONE_NEWNS) < 0) {
		out.rc = -errno;
		snprintf(out.msg, sizeof(out.msg), "cannot make a private mount namespace: %s",
			 strerror(errno));
	} else if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		if (errno == EINVAL) {
			/* In a chroot (an installer's in-target) "/" is no mount
			 * point and cannot be made private.  Then fn mounts where
			 * it stands and unmounts again itself, as before
			 * namespaces; only a run killed in that instant leaves a
			 * mount behind. */
			out.rc = fn(arg, out.msg, sizeof(out.msg));
		} else {
			/* never mount anything that could propagate to the machine */
			out.rc = -errno;
			snprintf(out.msg, sizeof(out.msg), "cannot make the mounts private: %s",
				 strerror(errno));
		}
	} else if (mount("stripeplan", "/run", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			 "mode=0700,size=64k") < 0) {
		out.rc = -errno;
		snprintf(out.msg, sizeof(out.msg), "cannot mount a private tmpfs on /run: %s",
			 strerror(errno));
	} else {
		out.rc = fn(arg, out.msg, sizeof(out.msg));
	}
	(void)!write(fd, &out, sizeof(out));
	_exit(0);
}

int sp_run_in_private_mounts(int (*fn)(void *arg, char *msg, size_t len), void *arg, char *msg,
			     size_t len)
{
	struct private_result in = { 0 };
	pid_t parent = getpid(), pid;
	ssize_t got = 0, n;
	int fds[2], status = 0;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(msg, len, "cannot create a pipe: %s", strerror(errno));
		return -errno;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		snprintf(msg, len, "cannot fork: %s", strerror(e));
		return -e;
	}
	if (pid == 0) {
		close(fds[0]);
		private_child(fds[1], parent, fn, arg);
	}
	close(fds[1]);
	while ((size_t)got < sizeof(in)) {
		n = read(fds[0], (char *)&in + got, sizeof(in) - (size_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if ((size_t)got != sizeof(in)) {
		snprintf(msg, len, "the process in the private mount namespace died (%s %d)",
			 WIFSIGNALED(status) ? "signal" : "exit status",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		return -ECHILD;
	}
	in.msg[sizeof(in.msg) - 1] = '\0';
	snprintf(msg, len, "%s", in.msg);
	return in.rc;
}
