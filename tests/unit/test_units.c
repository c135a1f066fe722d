/* Unit tests for lib/units.c: every unit, every rejection with its exact message, and the
 * formatting the text reporter relies on. Table-driven; one row per case. */
#include "lib/units.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

struct parse_case {
	const char *in;
	int ret;
	uint64_t val;	 /* when ret == 0 */
	const char *why; /* when ret != 0: the exact message */
};

#define OK(s, v)                                                                                   \
	{                                                                                          \
		s, 0, v, NULL                                                                      \
	}
#define BAD(s, why)                                                                                \
	{                                                                                          \
		s, -EINVAL, 0, why                                                                 \
	}
#define RANGE(s, why)                                                                              \
	{                                                                                          \
		s, -ERANGE, 0, why                                                                 \
	}

#define SIZE_UNITS "sizes take B, kB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB"
#define DUR_UNITS  "durations take ns, us, ms, s, m, min, h; a bare number is seconds"

static const struct parse_case size_cases[] = {
    OK("0", 0),
    OK("4096", 4096),
    OK("18446744073709551615", UINT64_MAX),
    OK("7B", 7),
    OK("1kB", 1000),
    OK("1KB", 1000),
    OK("80MB", 80000000),
    OK("80 MB", 80000000),
    OK("3GB", 3000000000ULL),
    OK("2TB", 2000000000000ULL),
    OK("1PB", 1000000000000000ULL),
    OK("32KiB", 32768),
    OK("4 KiB", 4096),
    OK("1MiB", 1048576),
    OK("1GiB", 1073741824ULL),
    OK("1TiB", 1ULL << 40),
    OK("1PiB", 1ULL << 50),
    OK("1.5GiB", 1610612736ULL),
    OK("1.5 GiB", 1610612736ULL),
    OK("0.5KiB", 512),
    OK("2.5kB", 2500),
    OK("1.000MB", 1000000),
    OK("0.001kB", 1),
    OK("0.0009765625MiB", 1024),
    OK("2.0", 2),
    OK("16383GiB", 16383ULL << 30),
    OK("00012", 12),
    BAD("", "empty size"),
    BAD(NULL, "empty size"),
    BAD("-1", "negative size"),
    BAD("-4KiB", "negative size"),
    BAD("0x1000", "hexadecimal is not accepted"),
    BAD("+5", "expected a number, got '+5'"),
    BAD(" 5", "expected a number, got ' 5'"),
    BAD("KiB", "expected a number, got 'KiB'"),
    BAD(".5KiB", "expected a number, got '.5KiB'"),
    BAD("4.KiB", "expected digits after '.'"),
    BAD("4KiBx", "trailing characters 'x'"),
    BAD("4 KiB x", "trailing characters ' x'"),
    BAD("4 ", "trailing characters ' '"),
    BAD("4  KiB", "trailing characters '  KiB'"),
    BAD("4%", "trailing characters '%'"),
    BAD("4KiB ", "trailing characters ' '"),
    BAD("4kb", "unknown unit 'kb' (a lowercase 'b' means bits; " SIZE_UNITS ")"),
    BAD("4Kb", "unknown unit 'Kb' (a lowercase 'b' means bits; " SIZE_UNITS ")"),
    BAD("4Mb", "unknown unit 'Mb' (a lowercase 'b' means bits; " SIZE_UNITS ")"),
    BAD("4b", "unknown unit 'b' (a lowercase 'b' means bits; " SIZE_UNITS ")"),
    BAD("4K", "unknown unit 'K' (" SIZE_UNITS ")"),
    BAD("4k", "unknown unit 'k' (" SIZE_UNITS ")"),
    BAD("4kib", "unknown unit 'kib' (a lowercase 'b' means bits; " SIZE_UNITS ")"),
    BAD("4mB", "unknown unit 'mB' (" SIZE_UNITS ")"),
    BAD("16EiB", "unknown unit 'EiB' (" SIZE_UNITS ")"),
    BAD("1.5", "not a whole number of bytes"),
    BAD("1.5B", "not a whole number of bytes"),
    BAD("0.0001kB", "not a whole number of bytes"),
    BAD("1.1KiB", "not a whole number of bytes"),
    BAD("1.00000000000000000001GiB", "too many digits after the decimal point"),
    RANGE("18446744073709551616", "size overflows 64 bits"),
    RANGE("99999999999999999999999", "size overflows 64 bits"),
    RANGE("17179869184GiB", "size overflows 64 bits"),
    RANGE("16384PiB", "size overflows 64 bits"),
    RANGE("18446744073709551615.5KiB", "size overflows 64 bits"),
    RANGE("18446744073709551.616kB", "size overflows 64 bits"),
};

static const struct parse_case duration_cases[] = {
    OK("0", 0),
    OK("5", 5000000000ULL),
    OK("1.5", 1500000000ULL),
    OK("812ns", 812),
    OK("250us", 250000),
    OK("100ms", 100000000),
    OK("100 ms", 100000000),
    OK("0.5ms", 500000),
    OK("1s", 1000000000ULL),
    OK("1.5s", 1500000000ULL),
    OK("2m", 120000000000ULL),
    OK("2min", 120000000000ULL),
    OK("1h", 3600000000000ULL),
    OK("0.25h", 900000000000ULL),
    OK("0.000000001s", 1),
    OK("18446744073709551615ns", UINT64_MAX),
    BAD("", "empty duration"),
    BAD("-1s", "negative duration"),
    BAD("0x10", "hexadecimal is not accepted"),
    BAD("s", "expected a number, got 's'"),
    BAD("0.5ns", "not a whole number of nanoseconds"),
    BAD("0.0000000001s", "not a whole number of nanoseconds"),
    BAD("5sec", "trailing characters 'ec'"),
    BAD("10 s x", "trailing characters ' x'"),
    BAD("1d", "unknown unit 'd' (" DUR_UNITS ")"),
    BAD("1MS", "unknown unit 'MS' (" DUR_UNITS ")"),
    BAD("1µs", "trailing characters '\xc2\xb5s'"),
    RANGE("18446744073709551616ns", "duration overflows 64 bits"),
    RANGE("18446744074s", "duration overflows 64 bits"),
    RANGE("5124096h", "duration overflows 64 bits"),
};

static const struct parse_case uint_cases[] = {
    OK("0", 0),
    OK("42", 42),
    OK("007", 7),
    OK("18446744073709551615", UINT64_MAX),
    BAD("", "empty number"),
    BAD(NULL, "empty number"),
    BAD("-1", "negative number"),
    BAD("0x10", "hexadecimal is not accepted"),
    BAD("+1", "it does not start with a digit"),
    BAD("abc", "it does not start with a digit"),
    BAD("1.5", "not a whole number"),
    BAD("12k", "trailing characters 'k'"),
    BAD("12 ", "trailing characters ' '"),
    BAD("99999999999999999999x", "trailing characters 'x'"),
    RANGE("18446744073709551616", "number overflows 64 bits"),
};

typedef int (*parse_fn)(const char *s, uint64_t *out, const char **why);

/* Check every row, naming the failing input: cmocka's asserts alone would not say which. */
static void run_cases(parse_fn fn, const struct parse_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *in = c[i].in ? c[i].in : "(null)";
		uint64_t v = 0xdeadbeef;
		const char *why = "unset";
		int ret = fn(c[i].in, &v, &why);

		if (ret != c[i].ret)
			fail_msg("'%s': returned %d, want %d (why: %s)", in, ret, c[i].ret,
				 why ? why : "(null)");
		if (ret == 0 && (v != c[i].val || why))
			fail_msg("'%s': got %" PRIu64 ", want %" PRIu64, in, v, c[i].val);
		if (ret != 0 && v != 0xdeadbeef)
			fail_msg("'%s': output changed on error", in);
		if (ret != 0 && strcmp(why, c[i].why) != 0)
			fail_msg("'%s': why\n  got  \"%s\"\n  want \"%s\"", in, why, c[i].why);
	}
}

static void test_parse_size(void **state)
{
	run_cases(units_parse_size, size_cases, sizeof(size_cases) / sizeof(size_cases[0]));
}

static void test_parse_duration(void **state)
{
	run_cases(units_parse_duration, duration_cases,
		  sizeof(duration_cases) / sizeof(duration_cases[0]));
}

static void test_parse_uint(void **state)
{
	run_cases(units_parse_uint, uint_cases, sizeof(uint_cases) / sizeof(uint_cases[0]));
}

static void test_why_optional_and_quote_cut(void **state)
{
	uint64_t v;
	const char *why;

	assert_int_equal(units_parse_size("4kb", &v, NULL), -EINVAL);
	assert_int_equal(units_parse_size("1x"
					  "abcdefghijklmnopqrstuvwxyzabcdefghij",
					  &v, &why),
			 -EINVAL);
	assert_string_equal(why,
			    "unknown unit 'xabcdefghijklmnopqrstuvwxyzabcde...' (" SIZE_UNITS ")");
}

static void test_parse_bool(void **state)
{
	static const struct {
		const char *in;
		int ret;
		bool val;
	} cases[] = {
	    {"true", 0, true},	   {"TRUE", 0, true},	  {"yes", 0, true},    {"Yes", 0, true},
	    {"on", 0, true},	   {"ON", 0, true},	  {"false", 0, false}, {"False", 0, false},
	    {"no", 0, false},	   {"NO", 0, false},	  {"off", 0, false},   {"oFf", 0, false},
	    {"", -EINVAL, 0},	   {NULL, -EINVAL, 0},	  {"1", -EINVAL, 0},   {"y", -EINVAL, 0},
	    {"truex", -EINVAL, 0}, {" true", -EINVAL, 0},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool v = !cases[i].val;
		const char *why = "unset";

		const char *in = cases[i].in ? cases[i].in : "(null)";
		int ret = units_parse_bool(cases[i].in, &v, &why);

		if (ret != cases[i].ret || (ret == 0 && (v != cases[i].val || why)))
			fail_msg("'%s': returned %d value %d, want %d value %d", in, ret, v,
				 cases[i].ret, cases[i].val);
		if (ret != 0 && strcmp(why, "expected true/false, yes/no or on/off") != 0)
			fail_msg("'%s': why \"%s\"", in, why);
	}
}

static void test_parse_double(void **state)
{
	static const struct {
		const char *in;
		int ret;
		double val;
		const char *why;
	} cases[] = {
	    {"0", 0, 0.0, NULL},
	    {"1.5", 0, 1.5, NULL},
	    {"-2.25", 0, -2.25, NULL},
	    {"+3", 0, 3.0, NULL},
	    {".5", 0, 0.5, NULL},
	    {"1e3", 0, 1000.0, NULL},
	    {"95%", 0, 0.95, NULL},
	    {"99.9%", 0, 0.999, NULL},
	    {"", -EINVAL, 0, "empty number"},
	    {"abc", -EINVAL, 0, "expected a number, got 'abc'"},
	    {"inf", -EINVAL, 0, "expected a number, got 'inf'"},
	    {"-nan", -EINVAL, 0, "expected a number, got '-nan'"},
	    {" 1", -EINVAL, 0, "expected a number, got ' 1'"},
	    {"0x1p3", -EINVAL, 0, "hexadecimal is not accepted"},
	    {"1.5x", -EINVAL, 0, "trailing characters 'x'"},
	    {"95 %", -EINVAL, 0, "trailing characters ' %'"},
	    {"95%%", -EINVAL, 0, "trailing characters '%%'"},
	    {"1e999", -ERANGE, 0, "number out of range"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = -1234.5;
		const char *why = "unset";

		int ret = units_parse_double(cases[i].in, &v, &why);

		if (ret != cases[i].ret)
			fail_msg("'%s': returned %d, want %d", cases[i].in, ret, cases[i].ret);
		if (ret == 0 && (fabs(v - cases[i].val) > 1e-12 || why))
			fail_msg("'%s': got %g, want %g", cases[i].in, v, cases[i].val);
		if (ret != 0 && (v != -1234.5 || strcmp(why, cases[i].why) != 0))
			fail_msg("'%s': why \"%s\", want \"%s\"", cases[i].in, why, cases[i].why);
	}
}

static void test_format(void **state)
{
	static const struct {
		char kind; /* s: size, r: rate, d: duration */
		double v;
		bool binary;
		const char *want;
	} cases[] = {
	    {'s', 0, false, "0 B"},
	    {'s', 512, false, "512 B"},
	    {'s', 999, false, "999 B"},
	    {'s', 1000, false, "1.0 kB"},
	    {'s', 1000, true, "1000 B"},
	    {'s', 1024, true, "1.0 KiB"},
	    {'s', 80e6, false, "80.0 MB"},
	    {'s', 80e6, true, "76.3 MiB"},
	    {'s', 1.5 * 1073741824.0, true, "1.5 GiB"},
	    {'s', 999960, false, "1.0 MB"},
	    {'s', 4e15, false, "4.0 PB"},
	    {'s', 5e18, false, "5000.0 PB"},
	    {'s', -2048, true, "-2.0 KiB"},
	    {'r', 112.4e6, false, "112.4 MB/s"},
	    {'r', 112.4e6, true, "107.2 MiB/s"},
	    {'r', 100, false, "100 B/s"},
	    {'d', 0, false, "0 ns"},
	    {'d', 812, false, "812 ns"},
	    {'d', 999.4, false, "999 ns"},
	    {'d', 999.7, false, "1.00 us"},
	    {'d', 12.3e3, false, "12.3 us"},
	    {'d', 4.56e6, false, "4.56 ms"},
	    {'d', 123.4e6, false, "123 ms"},
	    {'d', 1.23e9, false, "1.23 s"},
	    {'d', 3600e9, false, "3600 s"},
	    {'d', 9.996e6, false, "10.0 ms"},
	    /* a null mean (no I/O of a direction) */
	    {'s', NAN, false, "n/a"},
	    {'r', NAN, true, "n/a"},
	    {'d', NAN, false, "n/a"},
	    {'d', INFINITY, false, "n/a"},
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n;

		if (cases[i].kind == 's')
			n = units_format_size(buf, sizeof(buf), cases[i].v, cases[i].binary);
		else if (cases[i].kind == 'r')
			n = units_format_rate(buf, sizeof(buf), cases[i].v, cases[i].binary);
		else
			n = units_format_duration(buf, sizeof(buf), cases[i].v);
		if (strcmp(buf, cases[i].want) != 0 || n != strlen(cases[i].want))
			fail_msg("format %c %g: got \"%s\" (%zu), want \"%s\"", cases[i].kind,
				 cases[i].v, buf, n, cases[i].want);
	}
}

/* What the text summary prints: sizes as the job file can state them, IO/s scaled, the unit
 * of a column of rates. */
static void test_format_summary(void **state)
{
	static const struct {
		uint64_t v;
		bool binary;
		const char *want;
	} sizes[] = {
	    {33554432, false, "32 MiB"}, {4096, false, "4 KiB"},
	    {80000000, true, "80 MB"},	 {32768, false, "32 KiB"},
	    {1000, true, "1 kB"},	 {1024000, false, "1024 kB"},
	    {1024000, true, "1000 KiB"}, {1000000, true, "1 MB"},
	    {0, false, "0 B"},		 {4097, true, "4097 B"},
	    {6000000000, false, "6 GB"}, {1048576000, true, "1000 MiB"},
	};
	static const struct {
		double v;
		const char *want;
	} counts[] = {
	    {0, "0"},	      {3.5, "3.50"},	  {81.2, "81.2"},  {812, "812"},
	    {999.4, "999"},   {999.5, "1.00k"},	  {1961, "1.96k"}, {150579, "151k"},
	    {812345, "812k"}, {8150000, "8.15M"}, {NAN, "n/a"},	   {2.5e12, "2.50T"},
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		units_format_size_exact(buf, sizeof(buf), sizes[i].v, sizes[i].binary);
		if (strcmp(buf, sizes[i].want))
			fail_msg("size %" PRIu64 " (binary %d): got '%s', want '%s'", sizes[i].v,
				 sizes[i].binary, buf, sizes[i].want);
	}
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		units_format_count(buf, sizeof(buf), counts[i].v);
		if (strcmp(buf, counts[i].want))
			fail_msg("count %g: got '%s', want '%s'", counts[i].v, buf, counts[i].want);
	}
	assert_true(units_rate_unit(69.5e6, false, buf, sizeof(buf)) == 1e6);
	assert_string_equal(buf, "MB/s");
	assert_true(units_rate_unit(999, false, buf, sizeof(buf)) == 1);
	assert_string_equal(buf, "B/s");
	assert_true(units_rate_unit(2048, true, buf, sizeof(buf)) == 1024);
	assert_string_equal(buf, "KiB/s");
	assert_true(units_rate_unit(NAN, false, buf, sizeof(buf)) == 1);
}

static void test_format_truncates(void **state)
{
	char buf[4];

	assert_int_equal(units_format_rate(buf, sizeof(buf), 112.4e6, false), 10);
	assert_string_equal(buf, "112");
}

/* What the formatters print must parse back (the units are the same tables). */
static void test_format_roundtrip(void **state)
{
	char buf[32];
	uint64_t v;

	units_format_size(buf, sizeof(buf), 1.5 * 1073741824.0, true);
	assert_int_equal(units_parse_size(buf, &v, NULL), 0);
	assert_int_equal(v, 1610612736ULL);
	units_format_duration(buf, sizeof(buf), 4.56e6);
	assert_int_equal(units_parse_duration(buf, &v, NULL), 0);
	assert_int_equal(v, 4560000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_size),
	    cmocka_unit_test(test_parse_duration),
	    cmocka_unit_test(test_parse_uint),
	    cmocka_unit_test(test_why_optional_and_quote_cut),
	    cmocka_unit_test(test_parse_bool),
	    cmocka_unit_test(test_parse_double),
	    cmocka_unit_test(test_format),
	    cmocka_unit_test(test_format_summary),
	    cmocka_unit_test(test_format_truncates),
	    cmocka_unit_test(test_format_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
