/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The only place stripeplan forks.  Programs get an argv array, never a
 * shell, so a device path or label can not be read as shell syntax.
 *
 * stdout and stderr share one pipe so the captured text keeps the order
 * the tool wrote it in; mkfs and parted interleave progress and errors.
 * A second close-on-exec pipe tells the parent whether execve() worked:
 * it sees EOF on success, or the child's errno when the exec failed, so
 * the "cannot run" message is built here, not in the forked child.
 * Input for the child (a key for cryptsetup's --key-file -) goes through
 * a third pipe, written only as the child reads it, from the same loop
 * that reads its output: a child that reads neither end to its close
 * cannot block the run, and a child that never reads its stdin leaves
 * only a short write behind.
 *
 * The parent waits for the child, not for the end of its output: a tool
 * that leaves a process behind holding the pipe (a daemon it started, a
 * "sleep &" in a wrapper script) would otherwise keep apply waiting, with
 * the disk locked, for as long as that process lives.  The child leads a
 * process group of its own, so what it leaves behind and what the
 * deadline kills is exactly what it started.  Its exit is seen with
 * waitid(WNOWAIT), leaving it a zombie until the group has been signalled:
 * while the zombie exists its pid, the group's id, cannot be reused, so
 * the signal can reach no other process.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
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
/* how often a running child is looked at while its output is quiet */
#define SP_EXEC_TICK_MS 50
/* output still read after the child exited, at most */
#define SP_EXEC_DRAIN_MS 250
/* from SIGTERM to SIGKILL at the deadline, and how long a child killed
 * with SIGKILL may take to go (one stuck in the kernel may never) */
#define SP_EXEC_TERM_GRACE_MS 2000
#define SP_EXEC_KILL_WAIT_MS 10000

struct sp_capture {
	char *buf;
	size_t len;
	size_t cap;
};

unsigned sp_exec_deadline_s(uint64_t bytes)
{
	/* at most 2^24 TiB x 36 s: it fits */
	uint64_t s = bytes / SP_TIB * SP_EXEC_DEADLINE_S_PER_TIB;

	return s > SP_EXEC_DEADLINE_S ? (unsigned)s : SP_EXEC_DEADLINE_S;
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

/*
 * The child's whole environment, built before fork() (the child may only
 * make async-signal-safe calls).  Returns NULL when out of memory.
 */
static char **child_environ(const struct sp_exec_opts *opts)
{
	const char *dirs = opts && opts->program_dirs ? opts->program_dirs : SP_EXEC_SYSTEM_DIRS;
	char **envp = calloc(3, sizeof(*envp));

	if (!envp)
		return NULL;
	if (asprintf(&envp[0], "PATH=%s", dirs) < 0)
		envp[0] = NULL;
	envp[1] = strdup("LC_ALL=C");
	if (!envp[0] || !envp[1]) {
		free(envp[0]);
		free(envp[1]);
		free(envp);
		return NULL;
	}
	return envp;
}

static void environ_free(char **envp)
{
	for (size_t i = 0; envp && envp[i]; i++)
		free(envp[i]);
	free(envp);
}

/* Runs in the forked child: only async-signal-safe calls from here on. */
static void __attribute__((noreturn))
child_exec(const char *path, const char *const *argv, char **envp, pid_t parent, int in_fd,
	   int out_fd, int status_fd)
{
	sigset_t all;
	int stdin_fd, e;

	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	/* the parent ignores SIGPIPE, and an ignored signal stays ignored
	 * across exec: the tool gets the default back */
	signal(SIGPIPE, SIG_DFL);
	/* a group of its own, so the deadline reaches all it started; and it
	 * goes when we go, as it did in our group under a terminal's ^C */
	if (setpgid(0, 0) < 0 || prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		goto fail;
	if (getppid() != parent) /* gone before the line above: nobody to tell */
		_exit(127);

	stdin_fd = in_fd >= 0 ? in_fd : open("/dev/null", O_RDONLY);
	if (stdin_fd < 0 || dup2(stdin_fd, STDIN_FILENO) < 0 ||
	    dup2(out_fd, STDOUT_FILENO) < 0 || dup2(out_fd, STDERR_FILENO) < 0)
		goto fail;
	/* Descriptors the caller forgot to mark close-on-exec stay with us. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);

	execve(path, (char *const *)argv, envp);
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

/* A child being run: its pid (= its process group), the read end of its
 * output (-1 once at EOF), what it wrote; the write end of its stdin
 * (-1 once all is written, or none was asked for) and what is left to
 * write there. */
struct child {
	pid_t pid;
	int out_fd;
	struct sp_capture cap;
	int in_fd;
	const unsigned char *in_next;
	size_t in_left;
	bool exited;
	int status;
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * Writes what the pipe takes of the child's stdin, and closes it once
 * all is written (the child's end of file) or the child closed its end
 * (EPIPE: it did not read the rest; its exit status says whether that
 * mattered).  SIGPIPE is held back over the write and the one it raised
 * taken back: library code does not count on its caller ignoring it.
 * 0, or -errno when the pipe failed otherwise: the child must not go on
 * with part of its input (a key cut short formats a volume no one can
 * open).
 */
static int write_stdin(struct child *c)
{
	const struct timespec now = { 0, 0 };
	sigset_t pipe_set, old, pending;
	bool was_pending;
	ssize_t n;
	int e = 0;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE);
	n = write(c->in_fd, c->in_next, c->in_left);
	if (n < 0)
		e = errno;
	if (e == EPIPE && !was_pending)
		sigtimedwait(&pipe_set, NULL, &now);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (n >= 0) {
		c->in_next += n;
		c->in_left -= (size_t)n;
		if (!c->in_left)
			close_fd(&c->in_fd);
		return 0;
	}
	if (e == EAGAIN || e == EINTR)
		return 0;
	close_fd(&c->in_fd);
	return e == EPIPE ? 0 : -e;
}

/* Reads what the output pipe has and writes what the input pipe takes,
 * within timeout_ms; stops reading at EOF.  0, or -errno when reading or
 * writing failed. */
static int read_some(struct child *c, int timeout_ms)
{
	struct pollfd pfd[2];
	nfds_t n = 0;
	int out_i = -1, in_i = -1, r;

	if (c->out_fd >= 0) {
		out_i = (int)n;
		pfd[n++] = (struct pollfd){ .fd = c->out_fd, .events = POLLIN };
	}
	if (c->in_fd >= 0) {
		in_i = (int)n;
		pfd[n++] = (struct pollfd){ .fd = c->in_fd, .events = POLLOUT };
	}
	if (!n) {
		if (timeout_ms > 0)
			poll(NULL, 0, timeout_ms);
		return 0;
	}
	r = poll(pfd, n, timeout_ms);
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	if (r == 0)
		return 0;
	if (in_i >= 0 && pfd[in_i].revents) {
		r = write_stdin(c);
		if (r < 0)
			return r;
	}
	if (out_i < 0 || !pfd[out_i].revents)
		return 0;
	r = capture_read(&c->cap, c->out_fd);
	if (r == 1) {
		close(c->out_fd);
		c->out_fd = -1;
		return 0;
	}
	return r;
}

/* Whether the child has exited, without reaping it (see the top). */
static bool has_exited(struct child *c)
{
	siginfo_t si;

	if (c->exited)
		return true;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno != EINTR; /* ECHILD: nothing left to wait for */
	c->exited = si.si_pid == c->pid;
	return c->exited;
}

static int ms_left(double until)
{
	double left = (until - sp_now_seconds()) * 1000.0;

	return left <= 0 ? 0 : left > 1e9 ? 1000000000 : (int)left + 1;
}

/* Reads output until the child exits or until `until`; true when it exited. */
static int wait_exit(struct child *c, double until, bool *ret_exited)
{
	for (;;) {
		int left, r;

		if (has_exited(c)) {
			*ret_exited = true;
			return 0;
		}
		left = ms_left(until);
		if (!left) {
			*ret_exited = false;
			return 0;
		}
		r = read_some(c, left < SP_EXEC_TICK_MS ? left : SP_EXEC_TICK_MS);
		if (r < 0)
			return r;
	}
}

/* After the exit: end what it left in its group, then read what is left
 * in the pipe, for a moment at most. */
static int drain(struct child *c)
{
	double until = sp_now_seconds() + SP_EXEC_DRAIN_MS / 1000.0;

	kill(-c->pid, SIGKILL);
	while (c->out_fd >= 0) {
		int left = ms_left(until), r;

		if (!left)
			break;
		r = read_some(c, left);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Reaps the child (it has exited or will after SIGKILL). */
static int reap(struct child *c)
{
	int status;

	while (waitpid(c->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		c->status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		c->status = 128 + WTERMSIG(status);
	else
		c->status = 255;
	return 0;
}

/*
 * The deadline passed: SIGTERM to the group, then SIGKILL.  Returns 0
 * once the child is reaped, -EBUSY when even SIGKILL did not end it (a
 * process in uninterruptible sleep): it is left to init.
 */
static int kill_group(struct child *c)
{
	bool exited = false;

	kill(-c->pid, SIGTERM);
	if (wait_exit(c, sp_now_seconds() + SP_EXEC_TERM_GRACE_MS / 1000.0, &exited) == 0 && exited) {
		kill(-c->pid, SIGKILL); /* what it started, which may ignore SIGTERM */
		return reap(c);
	}
	kill(-c->pid, SIGKILL);
	if (wait_exit(c, sp_now_seconds() + SP_EXEC_KILL_WAIT_MS / 1000.0, &exited) < 0 || !exited)
		return -EBUSY;
	return reap(c);
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

/* A program that cannot be run reads like the shell's 127. */
static void not_run(const char *name, int e, struct sp_capture *cap, int *ret_status)
{
	int n = snprintf(cap->buf, cap->cap, "cannot run '%s': %s\n", name, strerror(e));

	cap->len = n < 0 ? 0 : (size_t)n >= cap->cap ? cap->cap - 1 : (size_t)n;
	*ret_status = 127;
}

/* Runs the started child to its end or its deadline. */
static int supervise(struct child *c, const char *name, unsigned deadline_s, struct sp_error *err)
{
	bool exited = false;
	int r = wait_exit(c, sp_now_seconds() + deadline_s, &exited);

	if (r < 0) {
		kill(-c->pid, SIGKILL);
		reap(c);
		return sp_error_set(err, -r, SP_ERR_FAILED, "cannot %s '%s': %s",
				    c->in_left ? "pass input to or read output of" : "read output of",
				    name, strerror(-r));
	}
	if (!exited) {
		r = kill_group(c);
		return sp_error_set(err, ETIME, SP_ERR_FAILED,
				    "%s did not finish within %u s; killed it and its process group%s",
				    name, deadline_s,
				    r < 0 ? " (it did not exit even after SIGKILL: stuck in the kernel?)" : "");
	}
	r = drain(c);
	if (r < 0) {
		reap(c);
		return sp_error_set(err, -r, SP_ERR_FAILED, "cannot read output of '%s': %s", name,
				    strerror(-r));
	}
	r = reap(c);
	if (r < 0)
		return sp_error_set(err, -r, SP_ERR_FAILED, "cannot wait for '%s': %s", name,
				    strerror(-r));
	return 0;
}

int sp_exec(const char *const *argv, const struct sp_exec_opts *opts, struct sp_exec_result *result,
	    struct sp_error *err)
{
	struct child c = { .pid = -1, .out_fd = -1, .in_fd = -1 };
	int out[2] = { -1, -1 }, st[2] = { -1, -1 }, in[2] = { -1, -1 };
	bool feed = opts && opts->stdin_bytes;
	unsigned deadline_s = opts && opts->deadline_s ? opts->deadline_s : SP_EXEC_DEADLINE_S;
	int r, status = 0, exec_errno, found;
	char **envp = NULL, path[SP_PATH_MAX];
	pid_t parent = getpid();
	double start;

	if (!argv || !argv[0] || !argv[0][0] || !result)
		return sp_error_set(err, EINVAL, SP_ERR_FAILED,
				    "cannot run a program without a name");

	envp = child_environ(opts);
	r = capture_grow(&c.cap, SP_MSG_MAX);
	if (!envp || r < 0) {
		r = sp_error_set(err, ENOMEM, SP_ERR_FAILED,
				 "cannot run '%s': out of memory", argv[0]);
		goto out;
	}
	start = sp_now_seconds();
	if (strchr(argv[0], '/'))
		found = snprintf(path, sizeof(path), "%s", argv[0]) < (int)sizeof(path) ? 0 : -ENAMETOOLONG;
	else
		found = sp_exec_find(argv[0], opts ? opts->program_dirs : NULL, path, sizeof(path));
	if (found < 0) {
		not_run(argv[0], -found, &c.cap, &status);
		goto done;
	}
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(st, O_CLOEXEC) < 0 ||
	    (feed && (pipe2(in, O_CLOEXEC) < 0 || fcntl(in[1], F_SETFL, O_NONBLOCK) < 0))) {
		r = sp_error_set(err, errno, SP_ERR_FAILED,
				 "cannot run '%s': cannot create pipe: %s", argv[0],
				 strerror(errno));
		goto out;
	}
	c.pid = fork();
	if (c.pid < 0) {
		r = sp_error_set(err, errno, SP_ERR_FAILED, "cannot run '%s': fork: %s",
				 argv[0], strerror(errno));
		goto out;
	}
	if (c.pid == 0)
		child_exec(path, argv, envp, parent, in[0], out[1], st[1]);
	/* both sides set the group, so it is set before either goes on */
	setpgid(c.pid, c.pid);

	close_fd(&out[1]);
	close_fd(&st[1]);
	close_fd(&in[0]);
	c.out_fd = out[0];
	out[0] = -1;
	if (feed) {
		c.in_fd = in[1];
		in[1] = -1;
		c.in_next = opts->stdin_bytes;
		c.in_left = opts->stdin_len;
		if (!c.in_left)
			close_fd(&c.in_fd);
	}
	r = supervise(&c, argv[0], deadline_s, err);
	if (r < 0)
		goto out;
	status = c.status;
	exec_errno = read_exec_errno(st[0]);
	if (exec_errno)
		not_run(argv[0], exec_errno, &c.cap, &status);
done:
	c.cap.buf[c.cap.len] = '\0';
	result->exit_status = status;
	result->output = c.cap.buf;
	result->output_len = c.cap.len;
	result->seconds = sp_now_seconds() - start;
	c.cap.buf = NULL;
	r = 0;
out:
	close_fd(&c.out_fd);
	close_fd(&c.in_fd);
	close_fd(&in[0]);
	close_fd(&in[1]);
	close_fd(&out[0]);
	close_fd(&out[1]);
	close_fd(&st[0]);
	close_fd(&st[1]);
	free(c.cap.buf);
	environ_free(envp);
	return r;
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
