/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Errors, one convention: a library function returns 0 or -errno and,
 * where it can fail for a reason a user must read, fills a struct
 * sp_error; it never prints and never exits.  The kind decides the exit
 * code, in one place.
 */
#ifndef STRIPEPLAN_BASE_ERROR_H
#define STRIPEPLAN_BASE_ERROR_H

#include "base.h"

/* Exit codes shared by every command (stripeplan(8), EXIT STATUS). */
enum sp_exit {
	SP_EXIT_OK = 0,
	SP_EXIT_DRIFT = 1,
	SP_EXIT_INVALID = 2,
	SP_EXIT_REFUSED = 3,
	SP_EXIT_FAILED = 4,
};

/* What went wrong, in the terms the exit code is decided from (one place:
 * sp_error_exit_code()).  Zero is FAILED, so an error nobody classified
 * is a failure, never a success. */
enum sp_error_kind {
	SP_ERR_FAILED = 0, /* the system did not do what was asked */
	SP_ERR_INVALID,    /* the input is wrong: nothing was attempted */
	SP_ERR_REFUSED,    /* safety: the device was not touched */
};

/*
 * Every failure carries what was said: the message names the input, knob,
 * device or file at fault ("chunk: '3K' is not a power of two", "cannot
 * open '/dev/sdb': ..."), and is the CLI's one line.
 */
struct sp_error {
	int code;               /* -errno */
	enum sp_error_kind kind; /* decides the exit code */
	char message[SP_MSG_MAX];
};

void sp_error_clear(struct sp_error *err);
/* The exit code for err: the only place a kind becomes an enum sp_exit. */
int sp_error_exit_code(const struct sp_error *err);
/* Fills err (when non-NULL) and returns -code, so callers can
 * `return sp_error_set(err, EINVAL, SP_ERR_INVALID, "chunk: ...")`.
 * code is an errno (> 0, asserted): a caller holding r = -errno from a
 * callee passes -r, and a wrapper that adds words keeps the callee's code. */
int sp_error_set(struct sp_error *err, int code, enum sp_error_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
