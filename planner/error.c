/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "stripeplan.h"

void sp_error_clear(struct sp_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

static int error_setv(struct sp_error *err, int code, int exit_code, const char *field,
		      const char *subject, const char *fmt, va_list ap)
{
	if (code < 0)
		code = -code;
	if (err) {
		err->code = -code;
		err->exit_code = exit_code;
		snprintf(err->field, sizeof(err->field), "%s", field ? field : "");
		snprintf(err->subject, sizeof(err->subject), "%s", subject ? subject : "");
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
	}
	return -code;
}

int sp_error_set_at(struct sp_error *err, int code, int exit_code, const char *field,
		    const char *subject, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = error_setv(err, code, exit_code, field, subject, fmt, ap);
	va_end(ap);
	return r;
}

int sp_error_set(struct sp_error *err, int code, int exit_code, const char *field,
		 const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = error_setv(err, code, exit_code, field, NULL, fmt, ap);
	va_end(ap);
	return r;
}
