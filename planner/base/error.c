/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

void sp_error_clear(struct sp_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

int sp_error_exit_code(const struct sp_error *err)
{
	static const int codes[] = {
		[SP_ERR_FAILED] = SP_EXIT_FAILED,
		[SP_ERR_INVALID] = SP_EXIT_INVALID,
		[SP_ERR_REFUSED] = SP_EXIT_REFUSED,
	};

	if (!err || (unsigned)err->kind >= ARRAY_SIZE(codes))
		return SP_EXIT_FAILED;
	return codes[err->kind];
}

int sp_error_set(struct sp_error *err, int code, enum sp_error_kind kind, const char *fmt, ...)
{
	va_list ap;

	/* an errno, as <errno.h> spells it: a caller holding a -errno r passes -r */
	assert(code > 0);
	if (code <= 0)
		code = EIO;
	if (err) {
		err->code = -code;
		err->kind = kind;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -code;
}
