/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loop devices and mounts for the device tests: see loopdev.h. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "exec.h"
#include "loopdev.h"

#define MAX_LOOPS 4U
#define MAX_MOUNTS 4U
#define LOSETUP_MAX 16384

/* Restored in this order: a new scheduler resets nr_requests. */
static const char *const queue_knobs[] = { "scheduler", "nr_requests", "max_sectors_kb",
					   "read_ahead_kb" };
#define N_KNOBS (ARRAY_SIZE(queue_knobs))

struct loop {
	char dev[64];             /* /dev/loopN, "" until attached */
	char img[SP_PATH_MAX];    /* our sparse image */
	bool restore_queue;
	char queue[N_KNOBS][256]; /* as found at attach, "" when unreadable */
};

/* Where we work, what to undo, and what was there before. */
static char test_dir[256];
static char losetup_before[LOSETUP_MAX];
static struct loop loops[MAX_LOOPS];
static size_t n_loops;
static char mounts[MAX_MOUNTS][SP_PATH_MAX];
static size_t n_mounts;

int run_argv(const char *const *argv, char *out, size_t len)
{
	struct sp_exec_result res;
	struct sp_error err = { 0 };
	int status;

	if (sp_exec(argv, NULL, &res, &err) < 0) {
		print_error("%s\n", err.message);
		return -1;
	}
	status = res.exit_status;
	if (out)
		snprintf(out, len, "%s", res.output);
	else if (status)
		print_message("'%s' exited %d: %s", argv[0], status, res.output);
	sp_exec_result_free(&res);
	return status;
}

/* The file's first line, "" when it cannot be read. */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static int write_line(const char *path, const char *value)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -errno;
	fprintf(f, "%s\n", value);
	return fclose(f) == 0 ? 0 : -errno;
}

/* The backing file the kernel has for /dev/loopN, or "" when detached. */
static void backing_file(const char *dev, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", dev + strlen("/dev/"));
	read_line(path, buf, len);
}

static bool is_our_image(const char *backing)
{
	size_t n = strlen(test_dir);

	return test_dir[0] && !strncmp(backing, test_dir, n) && backing[n] == '/';
}

/* "none [mq-deadline]" -> "mq-deadline" */
static void active(char *value)
{
	char *open = strchr(value, '['), *close = open ? strchr(open, ']') : NULL;

	if (close) {
		*close = '\0';
		memmove(value, open + 1, strlen(open + 1) + 1);
	}
}

static void queue_path(const char *dev, const char *knob, char *buf, size_t len)
{
	snprintf(buf, len, "/sys/block/%s/queue/%s", dev + strlen("/dev/"), knob);
}

void loop_queue_read(const char *dev, const char *knob, char *buf, size_t len)
{
	char path[SP_PATH_MAX];

	queue_path(dev, knob, path, sizeof(path));
	read_line(path, buf, len);
	active(buf);
}

int loop_queue_write(const char *dev, const char *knob, const char *value)
{
	char path[SP_PATH_MAX];

	queue_path(dev, knob, path, sizeof(path));
	return write_line(path, value);
}

static void restore_queue(const struct loop *l)
{
	size_t i;

	for (i = 0; i < N_KNOBS; i++) {
		if (!l->queue[i][0])
			continue;
		if (loop_queue_write(l->dev, queue_knobs[i], l->queue[i]) < 0)
			print_error("cannot restore %s queue/%s to '%s'\n", l->dev, queue_knobs[i],
				    l->queue[i]);
	}
}

const char *loop_dir(void)
{
	return test_dir;
}

const char *loop_attach(uint64_t image_bytes, unsigned sector_bytes, unsigned flags)
{
	const char *argv[10];
	char out[256], sector[16];
	struct loop *l;
	size_t n = 0, i;
	int fd, r;

	assert_true(test_dir[0]);
	assert_true(n_loops < MAX_LOOPS);
	l = &loops[n_loops];
	memset(l, 0, sizeof(*l));
	snprintf(l->img, sizeof(l->img), "%s/img.XXXXXX", test_dir);
	fd = mkstemp(l->img);
	assert_true(fd >= 0);
	n_loops++; /* from here on cleanup removes the image, attached or not */
	r = ftruncate(fd, (off_t)image_bytes);
	close(fd);
	assert_int_equal(r, 0);

	snprintf(sector, sizeof(sector), "%u", sector_bytes);
	argv[n++] = "losetup";
	if (flags & LOOP_PARTSCAN)
		argv[n++] = "--partscan";
	argv[n++] = "--find";
	argv[n++] = "--show";
	if (sector_bytes) {
		argv[n++] = "--sector-size";
		argv[n++] = sector;
	}
	argv[n++] = l->img;
	argv[n] = NULL;
	r = run_argv(argv, out, sizeof(out));
	if (r)
		print_message("'losetup' exited %d: %s", r, out);
	assert_int_equal(r, 0);
	out[strcspn(out, "\n")] = '\0';
	assert_true(!strncmp(out, "/dev/loop", 9) && strlen(out) < sizeof(l->dev));
	memcpy(l->dev, out, strlen(out) + 1);

	if (flags & LOOP_RESTORE_QUEUE) {
		for (i = 0; i < N_KNOBS; i++)
			loop_queue_read(l->dev, queue_knobs[i], l->queue[i], sizeof(l->queue[i]));
		l->restore_queue = true;
	}
	return l->dev;
}

/* "" (the disk itself) or "p" and a partition number. */
static bool disk_or_partition(const char *rest)
{
	if (!rest[0])
		return true;
	return rest[0] == 'p' && rest[1] >= '1' && rest[1] <= '9' &&
	       strspn(rest + 1, "0123456789") == strlen(rest + 1);
}

const char *loop_ours(const char *dev)
{
	size_t i, n;

	for (i = 0; i < n_loops; i++) {
		n = strlen(loops[i].dev);
		if (n && !strncmp(dev, loops[i].dev, n) && disk_or_partition(dev + n))
			return dev;
	}
	fail_msg("refusing to touch '%s': not a loop device this test attached", dev);
	return NULL;
}

const char *loop_image(const char *dev)
{
	size_t i;

	for (i = 0; i < n_loops; i++)
		if (loops[i].dev[0] && !strcmp(loops[i].dev, dev))
			return loops[i].img;
	fail_msg("'%s' is not ours", dev);
	return NULL;
}

/* parted asks the kernel to re-read; devtmpfs makes the node shortly. */
void loop_wait_partition(const char *dev, const char *part)
{
	struct stat st;
	int i;

	loop_ours(part);
	for (i = 0; i < 100; i++) {
		if (stat(part, &st) == 0 && S_ISBLK(st.st_mode))
			return;
		if (i == 50)
			RUN("partx", "--update", loop_ours(dev));
		usleep(100 * 1000);
	}
	fail_msg("'%s' did not appear", part);
}

const char *loop_mount_dir(const char *name)
{
	char *dir;

	assert_true(test_dir[0]);
	assert_true(n_mounts < MAX_MOUNTS);
	dir = mounts[n_mounts];
	snprintf(dir, SP_PATH_MAX, "%s/%s", test_dir, name);
	assert_int_equal(mkdir(dir, 0755), 0);
	n_mounts++; /* registered before mounting: cleanup always tries */
	return dir;
}

static bool is_mounted(const char *dir)
{
	char out[256];

	return run_argv((const char *const[]){ "mountpoint", "-q", dir, NULL }, out,
			sizeof(out)) == 0;
}

void loop_unmount_all(void)
{
	while (n_mounts) {
		const char *dir = mounts[--n_mounts];

		while (is_mounted(dir))
			if (RUN("umount", dir) != 0 && RUN("umount", "-l", dir) != 0)
				break;
		RUN("rm", "-rf", "--one-file-system", dir);
	}
}

static void detach_all(void)
{
	char backing[SP_PATH_MAX];

	while (n_loops) {
		struct loop *l = &loops[--n_loops];

		/* The number may have been reused if it went away already. */
		if (l->dev[0]) {
			backing_file(l->dev, backing, sizeof(backing));
			if (!strcmp(backing, l->img)) {
				if (l->restore_queue)
					restore_queue(l);
				RUN("losetup", "--detach", l->dev);
			}
		}
		unlink(l->img);
		memset(l, 0, sizeof(*l));
	}
}

void loop_cleanup(void)
{
	loop_unmount_all();
	detach_all();
}

static void at_exit(void)
{
	loop_cleanup();
	if (test_dir[0])
		RUN("rm", "-rf", "--one-file-system", test_dir);
}

int loop_group_setup(const char *name)
{
	const char *tmp = getenv("TMPDIR");
	static bool registered;

	if (geteuid() != 0) {
		/* CI runs device tests as root: a skip would hide a broken test. */
		print_error("test-%s must run as root (it attaches loop devices)\n", name);
		return -1;
	}
	if (run_argv((const char *const[]){ "losetup", "-a", NULL }, losetup_before,
		     sizeof(losetup_before)) != 0)
		return -1;
	snprintf(test_dir, sizeof(test_dir), "%s/stripeplan-%s.XXXXXX", tmp ? tmp : "/tmp", name);
	if (!mkdtemp(test_dir)) {
		print_error("cannot make %s: %s\n", test_dir, strerror(errno));
		test_dir[0] = '\0';
		return -1;
	}
	/* Also on exit() paths cmocka does not route through teardown. */
	if (!registered)
		atexit(at_exit);
	registered = true;
	return 0;
}

/* Images of ours the kernel still has behind a loop device. */
static int still_attached(void)
{
	char dev[300], backing[SP_PATH_MAX];
	struct dirent *de;
	DIR *d = opendir("/sys/block");
	int n = 0;

	if (!d) {
		print_error("cannot list /sys/block: %s\n", strerror(errno));
		return 1;
	}
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", de->d_name);
		backing_file(dev, backing, sizeof(backing));
		if (is_our_image(backing)) {
			print_error("%s is still attached to %s\n", dev, backing);
			n++;
		}
	}
	closedir(d);
	return n;
}

/*
 * Every loop device attached before we started must still be; none of
 * ours may be.  Others may have attached devices meanwhile: not ours to
 * judge.
 */
static int check_losetup(void)
{
	char after[LOSETUP_MAX], line[SP_PATH_MAX];
	const char *p = losetup_before, *end;
	int bad = 0;

	if (run_argv((const char *const[]){ "losetup", "-a", NULL }, after, sizeof(after)) != 0)
		return 1;
	for (; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '\n');
		snprintf(line, sizeof(line), "%.*s", (int)(end - p), p);
		if (line[0] && !strstr(after, line)) {
			print_error("loop device gone during the test: %s\n", line);
			bad++;
		}
	}
	if (test_dir[0] && strstr(after, test_dir)) {
		print_error("our images are still attached:\n%s\n", after);
		bad++;
	}
	return bad;
}

int loop_group_teardown(void)
{
	int bad;

	loop_cleanup();
	bad = still_attached() + check_losetup();
	if (test_dir[0])
		RUN("rm", "-rf", "--one-file-system", test_dir);
	test_dir[0] = '\0';
	return bad ? -1 : 0;
}
