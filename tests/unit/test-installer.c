/* Shell quoting for generated installer snippets. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format.h"

static const char *q(const char *word)
{
	static char out[256];

	assert_int_equal(sp_shell_quote(word, out, sizeof(out)), 0);
	return out;
}

static void test_quoting(void **state)
{
	char small[4];

	(void)state;
	assert_string_equal(q("/dev/sdb"), "/dev/sdb");
	assert_string_equal(q("256K"), "256K");
	assert_string_equal(q("/srv/big data"), "'/srv/big data'");
	assert_string_equal(q("it's"), "'it'\\''s'");
	assert_string_equal(q("$(reboot)"), "'$(reboot)'");
	assert_string_equal(q("a;b"), "'a;b'");
	assert_string_equal(q(""), "''");
	assert_true(sp_shell_quote("a b c d", small, sizeof(small)) < 0);
	/* no quoting keeps a newline from starting a line of its own */
	assert_int_equal(sp_shell_quote("/dev/sdb\n%end", small, sizeof(small)), -EINVAL);
	assert_int_equal(sp_shell_quote("tab\there", small, sizeof(small)), -EINVAL);
}

static void test_quoted_words_round_trip_through_sh(void **state)
{
	static const char *const words[] = { "/srv/big data", "it's", "$(echo x)", "a\\b", "%end" };
	char cmd[1024], quoted[256];
	FILE *p;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		char got[256] = "";

		assert_int_equal(sp_shell_quote(words[i], quoted, sizeof(quoted)), 0);
		snprintf(cmd, sizeof(cmd), "printf '%%s' %s", quoted);
		p = popen(cmd, "r");
		assert_non_null(p);
		assert_non_null(fgets(got, sizeof(got), p) ? got : "");
		pclose(p);
		assert_string_equal(got, words[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_quoted_words_round_trip_through_sh),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
