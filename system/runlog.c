/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reports of the applies that wrote, under <root>/var/log/stripeplan (runlog.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "runlog.h"

#define NAME_PREFIX "apply-"
#define NAME_SUFFIX ".json"

/* apply-20250102T030405Z-sdb-1234.json: sorting the names sorts them by
 * time, whatever the device */
static int report_name(const char *kernel_name, char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32], device[SP_NAME_MAX];
	size_t i;
	int n;

	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm))
		return -EINVAL;
	/* a kernel name is [a-z0-9!]...; anything else becomes '_' */
	for (i = 0; kernel_name && kernel_name[i] && i + 1 < sizeof(device); i++) {
		char c = kernel_name[i];

		device[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
					    (c >= '0' && c <= '9') || c == '-' || c == '.' ?
				    c :
				    '_';
	}
	device[i] = '\0';
	n = snprintf(buf, len, NAME_PREFIX "%s-%s-%ld" NAME_SUFFIX, stamp, i ? device : "device",
		     (long)getpid());
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static bool is_report_name(const char *name)
{
	size_t n = strlen(name), p = strlen(NAME_PREFIX), s = strlen(NAME_SUFFIX);

	return n > p + s && !strncmp(name, NAME_PREFIX, p) && !strcmp(name + n - s, NAME_SUFFIX);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the reports in dir_fd (regular files named apply-*.json),
 * oldest first, malloc'd; *n of them.  A listing cut short by memory
 * lists fewer: pruning then removes fewer, never another file. */
static char **list_reports(int dir_fd, size_t *n)
{
	int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	char **names = NULL;
	size_t cap = 0;
	struct dirent *e;

	*n = 0;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((e = readdir(d))) {
		struct stat st;
		char **grown;

		if (!is_report_name(e->d_name) ||
		    fstatat(dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(names, cap * sizeof(*names));
			if (!grown)
				break;
			names = grown;
		}
		if (!(names[*n] = strdup(e->d_name)))
			break;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), by_name);
	return names;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Removes the oldest reports beyond SP_RUNLOG_KEEP. */
static void prune(int dir_fd)
{
	size_t n;
	char **names = list_reports(dir_fd, &n);

	for (size_t i = 0; n > SP_RUNLOG_KEEP && i < n - SP_RUNLOG_KEEP; i++)
		unlinkat(dir_fd, names[i], 0);
	free_names(names, n);
}

/* How many reports keeping one more would remove: read, nothing made. */
static size_t count_pruned(const char *root)
{
	int root_fd = sp_root_open(root), dir_fd;
	size_t n = 0;

	if (root_fd < 0)
		return 0;
	dir_fd = sp_root_open_dir(root_fd, SP_RUNLOG_DIR, false, 0);
	close(root_fd);
	if (dir_fd >= 0) {
		/* two statements: an argument's order of evaluation is
		 * unspecified, and n must be the listing's */
		char **names = list_reports(dir_fd, &n);

		free_names(names, n);
		close(dir_fd);
	}
	return n + 1 > SP_RUNLOG_KEEP ? n + 1 - SP_RUNLOG_KEEP : 0;
}

static int open_log_dir(const char *root, struct sp_error *err, const char *display)
{
	int root_fd = sp_root_open(root), dir_fd = -1;

	/* /var/log as a system makes it; ours closed to others: a report
	 * names serial numbers and WWNs */
	if (root_fd >= 0) {
		dir_fd = sp_root_open_dir(root_fd, "var/log", true, 0755);
		if (dir_fd >= 0) {
			close(dir_fd);
			dir_fd = sp_root_open_dir(root_fd, SP_RUNLOG_DIR, true, 0750);
		}
		close(root_fd);
	} else {
		dir_fd = root_fd;
	}
	if (dir_fd < 0)
		return sp_error_set(err, -dir_fd, SP_ERR_FAILED, "cannot keep the report in '%s': %s",
				    display, strerror(-dir_fd));
	return dir_fd;
}

int sp_runlog_where(const char *root, const char *kernel_name, struct sp_runlog *where,
		    struct sp_error *err)
{
	size_t root_len = root ? strlen(root) : 0;
	int r;

	while (root_len && root[root_len - 1] == '/')
		root_len--;
	memset(where, 0, sizeof(*where));
	snprintf(where->dir, sizeof(where->dir), "%.*s/%s", (int)root_len, root ? root : "",
		 SP_RUNLOG_DIR);
	r = report_name(kernel_name, where->name, sizeof(where->name));
	if (r < 0)
		return sp_error_set(err, -r, SP_ERR_FAILED, "cannot keep the report in '%s': %s",
				    where->dir, strerror(-r));
	where->n_pruned = count_pruned(root && *root ? root : "/");
	return 0;
}

int sp_runlog_keep(const char *root, const struct sp_runlog *where, const char *json,
		   struct sp_error *err)
{
	const char *what = "write";
	int dir_fd, r;

	dir_fd = open_log_dir(root, err, where->dir);
	if (dir_fd < 0)
		return dir_fd;
	r = sp_write_atomic_at(dir_fd, where->name, json, 0640, (uid_t)-1, (gid_t)-1, &what);
	if (r == 0)
		prune(dir_fd);
	close(dir_fd);
	if (r < 0)
		return sp_error_set(err, -r, SP_ERR_FAILED, "cannot keep the report: cannot %s '%s/%s': %s",
				    what, where->dir, where->name, strerror(-r));
	return 0;
}
