/* Unit tests for lib/path.c: the folder part of a path, and whether a path lies under a
 * folder, by their text. Table-driven. */
#include "lib/path.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

static void test_dirname(void **state)
{
	static const struct {
		const char *path, *want;
	} cases[] = {
	    {"file.bin", "."}, {"/file.bin", "/"}, {"/a/b/file", "/a/b"},
	    {"a/b", "a"},      {"/a/b/", "/a/b"},  {"./x", "."},
	    {"", "."},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = path_dirname(cases[i].path);
		assert_non_null(got);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
}

static void test_under(void **state)
{
	static const struct {
		const char *path, *dir;
		bool want;
	} cases[] = {
	    {"/a/b", "/a/b", true}, {"/a/b/c", "/a/b", true},  {"/a/bc", "/a/b", false},
	    {"/a", "/a/b", false},  {"/x/a/b", "/a/b", false}, {"rel/x", "rel", true},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (path_under(cases[i].path, cases[i].dir) != cases[i].want)
			fail_msg("path_under(\"%s\", \"%s\") is %d, want %d", cases[i].path,
				 cases[i].dir, !cases[i].want, cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dirname),
	    cmocka_unit_test(test_under),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
