/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The step that is running, on a terminal: "[2/4] filesystem  running, 12 s"
 * rewritten in place each second, as mke2fs shows its progress, and wiped
 * before the step's own line.  Only when standard output is a terminal:
 * never in JSON, never into a pipe or a file.  A thread keeps time because
 * the step blocks in mkfs or a libparted commit; it only ever calls
 * write(2) on a line it formats on its own stack, so it holds no lock a
 * forked child could need (system/exec.c's child is async-signal-safe).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static void put(const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(STDOUT_FILENO, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return; /* the report's own write says what failed */
		s += n;
		len -= (size_t)n;
	}
}

static void show(const struct sp_ticker *t, long seconds)
{
	char line[160];
	int n = snprintf(line, sizeof(line), "\r%s  running, %ld s\033[K", t->head, seconds);

	if (n > 0)
		put(line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static void *tick(void *data)
{
	struct sp_ticker *t = data;
	struct timespec at;
	long seconds = 0;

	pthread_mutex_lock(&t->lock);
	clock_gettime(CLOCK_MONOTONIC, &at);
	while (!t->stop) {
		at.tv_sec++;
		if (pthread_cond_timedwait(&t->wake, &t->lock, &at) == ETIMEDOUT && !t->stop)
			show(t, ++seconds);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

bool sp_ticker_wanted(bool text)
{
	const char *term = getenv("TERM");

	return text && isatty(STDOUT_FILENO) && !(term && !strcmp(term, "dumb"));
}

void sp_ticker_start(struct sp_ticker *t, const char *head)
{
	pthread_condattr_t attr;

	memset(t, 0, sizeof(*t));
	snprintf(t->head, sizeof(t->head), "%s", head);
	show(t, 0);
	pthread_mutex_init(&t->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&t->wake, &attr);
	pthread_condattr_destroy(&attr);
	t->running = pthread_create(&t->thread, NULL, tick, t) == 0;
}

void sp_ticker_stop(struct sp_ticker *t)
{
	static const char wipe[] = "\r\033[K";

	if (!t->head[0])
		return;
	if (t->running) {
		pthread_mutex_lock(&t->lock);
		t->stop = true;
		pthread_cond_signal(&t->wake);
		pthread_mutex_unlock(&t->lock);
		pthread_join(t->thread, NULL);
	}
	pthread_cond_destroy(&t->wake);
	pthread_mutex_destroy(&t->lock);
	put(wipe, sizeof(wipe) - 1);
	t->head[0] = '\0';
	t->running = false;
}
