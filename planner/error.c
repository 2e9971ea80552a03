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

int sp_error_set(struct sp_error *err, int code, int exit_code, const char *field,
		 const char *fmt, ...)
{
	if (code < 0)
		code = -code;
	if (err) {
		va_list ap;

		err->code = -code;
		err->exit_code = exit_code;
		snprintf(err->field, sizeof(err->field), "%s", field ? field : "");
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -code;
}
