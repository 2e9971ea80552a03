/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The only place stripeplan forks: argv arrays, never a shell. */
#ifndef STRIPEPLAN_EXEC_H
#define STRIPEPLAN_EXEC_H

#include <stddef.h>

#include "stripeplan.h"

struct sp_exec_result {
	int exit_status;  /* WEXITSTATUS, or 128+signal */
	char *output;     /* stdout and stderr interleaved, NUL-terminated, capped */
	size_t output_len;
	double seconds;
};

/*
 * Runs argv[0] (looked up in PATH) with argv, stdin from /dev/null,
 * capturing stdout+stderr (at most 1 MiB kept).  Returns 0 when the
 * program ran (whatever its exit status: check result->exit_status);
 * -errno with err filled when it could not be started.
 * LC_ALL=C is set for the child so its messages can be matched.
 */
int sp_exec(const char *const *argv, struct sp_exec_result *result, struct sp_error *err);
void sp_exec_result_free(struct sp_exec_result *result);

#endif
