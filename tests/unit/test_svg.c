/* Unit tests for plot/svg.c's escaping: markup as entities, and what XML 1.0 cannot hold (C0
 * controls but tab, LF, CR; U+FFFE, U+FFFF; bytes that are not UTF-8) as U+FFFD, so a
 * results.json string never makes a plot ill-formed. Table-driven. */
#include "plot/svg.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define FFFD "\xef\xbf\xbd"

static void test_escape(void **state)
{
	static const struct {
		const char *in, *want;
		size_t n; /* svg_escape_n's length; 0: svg_escape */
	} cases[] = {
	    {"<b a=\"1\">&'", "&lt;b a=&quot;1&quot;&gt;&amp;&#39;", 0},
	    {"caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x98\x80",
	     "caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x98\x80", 0},
	    {"a\tb\nc\rd", "a\tb\nc\rd", 0},
	    {"\x1b[31m\x01\x7f", FFFD "[31m" FFFD "\x7f", 0},
	    {"x\xef\xbf\xbey\xef\xbf\xbfz\xef\xbf\xbd", "x" FFFD "y" FFFD "z" FFFD, 0},
	    {"caf\xe9!", "caf" FFFD "!", 0},
	    {"ab\xc3", "ab" FFFD, 0}, /* a character cut in half */
	    {"\xe2\x80\xa6\xe2\x80", "\xe2\x80\xa6" FFFD FFFD, 0},
	    {"a\xc3\xa9,b", "a\xc3\xa9,", 4}, /* the first 4 bytes */
	    {"a\xc3\xa9,b", "a" FFFD, 2},     /* a length inside a character */
	    {"ab", "ab", 9},		      /* the NUL ends it sooner */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(f);
		if (cases[i].n)
			svg_escape_n(f, cases[i].in, cases[i].n);
		else
			svg_escape(f, cases[i].in);
		assert_int_equal(fclose(f), 0);
		assert_string_equal(buf, cases[i].want);
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_escape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
