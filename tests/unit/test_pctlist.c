/* Unit tests for model/pctlist.c: the percentiles key's parser (every rejection, with its
 * message), the ppm it gives the histogram, and the results.json keys and column labels. */
#include "model/pctlist.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static void test_parse(void **state)
{
	static const struct {
		const char *in;
		int ret;
		const char *msg; /* when ret < 0 */
		uint32_t n;
	} cases[] = {
	    {"50,99,99.9", 0, NULL, 3},
	    {"1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,99.9999", 0, NULL, 16},
	    {"100", 0, NULL, 1},
	    {"0.0001", 0, NULL, 1},
	    {"99,50", -EINVAL,
	     "percentile 2: 50 does not come after 99: list them in ascending order, each once", 0},
	    {"50,50.00001", -EINVAL, "percentile 2: 50.00001 has more than four decimals", 0},
	    {"50,50.0000", -EINVAL,
	     "percentile 2: 50.0000 does not come after 50: list them in ascending order, each once",
	     0},
	    {"0", -ERANGE, "percentile 1: 0 is not above 0 and at most 100", 0},
	    {"-1", -ERANGE, "percentile 1: -1 is not above 0 and at most 100", 0},
	    {"100.0001", -ERANGE, "percentile 1: 100.0001 is not above 0 and at most 100", 0},
	    {"50%", -EINVAL, "percentile 1: expected a number above 0 and at most 100, got '50%'",
	     0},
	    {"50,,99", -EINVAL, "percentile 2: expected a number above 0 and at most 100, got ''",
	     0},
	    {"50,", -EINVAL, "percentile 2: expected a number above 0 and at most 100, got ''", 0},
	    {"1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", -ERANGE,
	     "at most 16 percentiles, got more", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pct_list l = {0};
		char err[256] = "";
		int r = pct_list_parse(cases[i].in, &l, err, sizeof(err));
		if (r != cases[i].ret)
			fail_msg("'%s': returned %d, want %d (%s)", cases[i].in, r, cases[i].ret,
				 err);
		if (r < 0 && strcmp(err, cases[i].msg))
			fail_msg("'%s': said '%s', want '%s'", cases[i].in, err, cases[i].msg);
		if (r == 0 && l.n != cases[i].n)
			fail_msg("'%s': %u entries, want %u", cases[i].in, l.n, cases[i].n);
	}
}

static void test_default_ppm_keys(void **state)
{
	struct pct_list l;
	char buf[32];

	assert_int_equal(pct_list_parse(NULL, &l, buf, sizeof(buf)), 0);
	assert_int_equal(l.n, 3);
	assert_int_equal(pct_ppm(l.pct[0]), 500000);
	assert_int_equal(pct_ppm(l.pct[2]), 999000);
	/* 99.9 has no exact double: its ppm must still be exactly 999000, 99.999 999990. */
	assert_int_equal(pct_ppm(99.999), 999990);
	assert_int_equal(pct_ppm(0.0001), 1);
	/* Products that fall just below their integer: 0.0003 x 10^4 is 2.9999999999999996. */
	assert_int_equal(pct_ppm(0.0003), 3);
	assert_int_equal(pct_ppm(99.0011), 990011);
	pct_key(buf, sizeof(buf), 99.9);
	assert_string_equal(buf, "p99_9");
	pct_key(buf, sizeof(buf), 99.999);
	assert_string_equal(buf, "p99_999");
	pct_key(buf, sizeof(buf), 50);
	assert_string_equal(buf, "p50");
	pct_label(buf, sizeof(buf), 99.9999);
	assert_string_equal(buf, "p99.9999");
	pct_label(buf, sizeof(buf), 100);
	assert_string_equal(buf, "p100");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_default_ppm_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
