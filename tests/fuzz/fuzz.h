/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared bits of the libFuzzer targets (tests/fuzz/fuzz-*.c).
 *
 * FUZZ_CHECK is not assert(): the fuzz build may define NDEBUG, and a
 * broken invariant must stop the fuzzer with the input that broke it.
 */
#ifndef STRIPEPLAN_FUZZ_H
#define STRIPEPLAN_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond, ...)                                                   \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__,  \
				__LINE__, #cond);                               \
			fprintf(stderr, __VA_ARGS__);                           \
			fputc('\n', stderr);                                    \
			abort();                                                \
		}                                                               \
	} while (0)

/* The input as a C string: everything up to the first NUL byte. */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	size_t len = strnlen((const char *)data, size);
	char *s = malloc(len + 1);

	if (s) {
		memcpy(s, data, len);
		s[len] = '\0';
	}
	return s;
}

/* A string field of a fixed-size buffer must be NUL-terminated in it. */
#define FUZZ_CHECK_TERMINATED(buf)                                              \
	FUZZ_CHECK(memchr((buf), '\0', sizeof(buf)) != NULL, "%s not terminated", #buf)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
