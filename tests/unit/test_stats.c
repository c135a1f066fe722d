/*
 * Unit tests for engine/stats: quantiles against published tables and high-precision values,
 * summaries on hand-worked samples, NAN rules, Welford accuracy and merging, required runs.
 */
#include "lib/stats.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* cmocka's assert_float_equal narrows to float; these keep doubles and print both sides. */
#define assert_rel_within(got, want, tol)                                                          \
	do {                                                                                       \
		double g_ = (got), w_ = (want);                                                    \
		if (!(fabs(g_ - w_) <= (tol)*fabs(w_)))                                            \
			fail_msg("%s = %.17g, want %.17g within %g relative", #got, g_, w_,        \
				 (double)(tol));                                                   \
	} while (0)
#define assert_abs_within(got, want, tol)                                                          \
	do {                                                                                       \
		double g_ = (got), w_ = (want);                                                    \
		if (!(fabs(g_ - w_) <= (tol)))                                                     \
			fail_msg("%s = %.17g, want %.17g within %g", #got, g_, w_, (double)(tol)); \
	} while (0)
#define assert_nan(x)                                                                              \
	do {                                                                                       \
		double x_ = (x);                                                                   \
		if (!isnan(x_))                                                                    \
			fail_msg("%s = %.17g, want NAN", #x, x_);                                  \
	} while (0)

struct quantile_case {
	double p, df, want;
};

/* Published two-sided tables, rounded to 3 decimals: agree to half a unit in the last place. */
static void test_t_table(void **state)
{
	static const struct quantile_case cases[] = {
	    {0.975, 1, 12.706}, {0.975, 2, 4.303},   {0.975, 3, 3.182},	   {0.975, 4, 2.776},
	    {0.975, 5, 2.571},	{0.975, 10, 2.228},  {0.975, 25, 2.060},   {0.975, 30, 2.042},
	    {0.975, 60, 2.000}, {0.975, 120, 1.980}, {0.975, 1000, 1.962}, {0.995, 1, 63.657},
	    {0.995, 10, 3.169}, {0.995, 20, 2.845},  {0.95, 1, 6.314},	   {0.95, 2, 2.920},
	    {0.95, 20, 1.725},	{0.99, 5, 3.365},    {0.99, 15, 2.602},	   {0.9, 10, 1.372},
	    {0.999, 10, 4.144}, {0.9995, 5, 6.869},
	};
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++)
		assert_abs_within(stat_t_quantile(cases[k].p, cases[k].df), cases[k].want,
				  0.0005 + 1e-9);
}

/*
 * Reference values from mpmath at 40 digits, confirmed to 1e-13 by an independent computation
 * (tests/unit/stats_reference.py t: quadrature of the incomplete beta integral, and for whole
 * df the closed series of Abramowitz & Stegun 26.7.3-4), which also gave df 4, 9 and 19, the
 * 3, 10 and 20 runs of docs/statistics.md. Fractional df is what Welch's test feeds in.
 */
static void test_t_precise(void **state)
{
	static const struct quantile_case cases[] = {
	    {0.975, 1, 12.706204736174693},    {0.975, 2, 4.3026527297494618},
	    {0.975, 5, 2.5705818356363148},    {0.975, 7, 2.3646242515927847},
	    {0.975, 10, 2.2281388519862742},   {0.975, 30, 2.0422724563012379},
	    {0.995, 10, 3.1692726726169507},   {0.95, 20, 1.7247182429207868},
	    {0.975, 1000, 1.9623390808264081}, {0.975, 1e6, 1.9599663568141067},
	    {0.6, 10, 0.26018482949208018},    {0.025, 3, -3.1824463052837095},
	    {0.999, 4, 7.1731822197823068},    {0.975, 2.5, 3.5746548420036818},
	    {0.95, 7.3, 1.882930017956431},    {0.995, 0.5, 4113.9645888041738},
	    {0.9, 1.5, 2.1963984175655378},    {0.975, 45.67, 2.013288168990626},
	    {0.975, 4, 2.776445105197793},     {0.975, 9, 2.262157162798204},
	    {0.975, 19, 2.093024054408311},
	};
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++)
		assert_rel_within(stat_t_quantile(cases[k].p, cases[k].df), cases[k].want, 1e-9);
}

/* df = 1 is Cauchy and df = 2 has a closed form: exercises both tails and the centre. */
static void test_t_closed_forms(void **state)
{
	static const double ps[] = {1e-9, 1e-4, 0.01, 0.2, 0.4999, 0.5001, 0.7, 0.975, 0.999999};
	for (size_t k = 0; k < ARRAY_SIZE(ps); k++) {
		double p = ps[k];
		/* Cauchy, written as cot near the tails so that the reference keeps its digits. */
		double cauchy = p < 0.25   ? -1 / tan(M_PI * p)
				: p > 0.75 ? 1 / tan(M_PI * (1 - p))
					   : tan(M_PI * (p - 0.5));
		assert_rel_within(stat_t_quantile(p, 1), cauchy, 1e-10);
		assert_rel_within(stat_t_quantile(p, 2), (2 * p - 1) / sqrt(2 * p * (1 - p)),
				  1e-10);
	}
}

static void test_t_shape(void **state)
{
	/* Dyadic p so that 1 - p is exact and symmetry can be asked for bit for bit. */
	static const double dyadic[] = {0.125, 0.0625, 0.375};
	for (size_t k = 0; k < ARRAY_SIZE(dyadic); k++)
		assert_true(stat_t_quantile(dyadic[k], 3.5) ==
			    -stat_t_quantile(1 - dyadic[k], 3.5));

	/* Decreasing in df, including across the switch from incomplete beta to series. */
	static const double dfs[] = {0.1, 0.5,	1,    1.5,    2,    3,	 10,
				     100, 2999, 3000, 3000.5, 3001, 1e4, 1e7};
	for (size_t k = 1; k < ARRAY_SIZE(dfs); k++)
		if (!(stat_t_quantile(0.975, dfs[k]) < stat_t_quantile(0.975, dfs[k - 1])))
			fail_msg("t(0.975, %g) = %.17g not below t(0.975, %g) = %.17g", dfs[k],
				 stat_t_quantile(0.975, dfs[k]), dfs[k - 1],
				 stat_t_quantile(0.975, dfs[k - 1]));

	double z = stat_normal_quantile(0.975);
	assert_true(stat_t_quantile(0.975, INFINITY) == z);
	/* t - z is about (z^3 + z) / (4 df): still visible at df = 1e9, gone by 1e13. */
	assert_true(stat_t_quantile(0.975, 1e9) > z);
	assert_rel_within(stat_t_quantile(0.975, 1e9), z, 2e-9);
	assert_rel_within(stat_t_quantile(0.975, 1e13), z, 1e-12);
	assert_true(stat_t_quantile(0.5, 4) == 0.0);
}

static void test_quantiles_invalid(void **state)
{
	static const double bad_p[] = {0.0, 1.0, -0.1, 1.1, NAN};
	static const double bad_df[] = {0.0, -1.0, NAN};
	for (size_t k = 0; k < ARRAY_SIZE(bad_p); k++) {
		assert_nan(stat_normal_quantile(bad_p[k]));
		assert_nan(stat_t_quantile(bad_p[k], 5));
	}
	for (size_t k = 0; k < ARRAY_SIZE(bad_df); k++)
		assert_nan(stat_t_quantile(0.975, bad_df[k]));
}

static void test_normal_quantile(void **state)
{
	static const struct quantile_case cases[] = {
	    {0.975, 0, 1.959964}, {0.995, 0, 2.575829}, {0.025, 0, -1.959964},
	    {0.9, 0, 1.281552},	  {0.75, 0, 0.674490},
	};
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++)
		assert_abs_within(stat_normal_quantile(cases[k].p), cases[k].want, 5e-7);

	assert_true(stat_normal_quantile(0.5) == 0.0);
	assert_rel_within(stat_normal_quantile(0.975), 1.9599639845400539, 1e-15);
	assert_rel_within(stat_normal_quantile(1e-10), -6.3613409024040562, 1e-15);
	assert_rel_within(stat_normal_quantile(1e-20), -9.2623400897984076, 1e-15);
	assert_rel_within(stat_normal_quantile(1e-100), -21.273453560965324, 1e-15);
	assert_rel_within(stat_normal_quantile(1e-300), -37.047096299361199, 1e-15);
}

/*
 * Round trip through erfc covers all three AS241 branches (|p - 0.5| <= 0.425, r <= 5, r > 5).
 * An error dz in z moves p by about z * dz relative, so the tolerance grows with z^2.
 */
static void test_normal_round_trip(void **state)
{
	static const double ps[] = {1e-300, 1e-100,	1e-20, 1e-11, 1e-6, 0.01, 0.07,	   0.075,
				    0.2,    0.5 - 1e-9, 0.6,   0.925, 0.93, 0.99, 0.999999};
	for (size_t k = 0; k < ARRAY_SIZE(ps); k++) {
		double z = stat_normal_quantile(ps[k]);
		assert_rel_within(0.5 * erfc(-z / M_SQRT2), ps[k], 2e-15 * (1 + z * z));
	}
}

static void test_summarize_even(void **state)
{
	/* 2 4 4 4 5 5 7 9 shuffled: mean 5, squared deviations sum to 32, median (4 + 5) / 2. */
	double x[] = {5, 9, 2, 4, 7, 4, 5, 4};
	double copy[ARRAY_SIZE(x)];
	memcpy(copy, x, sizeof(x));
	struct stat_summary s;

	assert_int_equal(stat_summarize(x, ARRAY_SIZE(x), 0.95, &s), 0);
	assert_memory_equal(x, copy, sizeof(x));
	assert_int_equal(s.n, 8);
	assert_rel_within(s.mean, 5.0, 1e-15);
	assert_rel_within(s.stddev, sqrt(32.0 / 7.0), 1e-15);
	assert_rel_within(s.cov, sqrt(32.0 / 7.0) / 5.0, 1e-15);
	assert_true(s.median == 4.5 && s.min == 2.0 && s.max == 9.0);
	/* t(0.975, 7) = 2.3646242515927847; half width = t * sqrt(32/7) / sqrt(8). */
	assert_rel_within(s.ci_low, 5.0 - 1.7874879182362104, 1e-10);
	assert_rel_within(s.ci_high, 5.0 + 1.7874879182362104, 1e-10);
	assert_true(s.confidence == 0.95);
}

static void test_summarize_odd(void **state)
{
	/* Mean 13/6, squared deviations sum to 19/6, so s^2 = 19/12; t(0.95, 2) = 2.9199855803537.
	 */
	const double x[] = {3.5, 1.0, 2.0};
	struct stat_summary s;

	assert_int_equal(stat_summarize(x, 3, 0.90, &s), 0);
	assert_rel_within(s.mean, 13.0 / 6.0, 1e-15);
	assert_rel_within(s.stddev, sqrt(19.0 / 12.0), 1e-15);
	assert_true(s.median == 2.0 && s.min == 1.0 && s.max == 3.5);
	assert_rel_within(s.ci_high - s.mean, 2.1213203435596415, 1e-10);
	assert_rel_within(s.mean - s.ci_low, 2.1213203435596415, 1e-10);
}

static void test_summarize_nan_rules(void **state)
{
	struct stat_summary s;

	assert_int_equal(stat_summarize(NULL, 0, 0.95, &s), 0);
	assert_int_equal(s.n, 0);
	assert_true(s.confidence == 0.95);
	const double all[] = {s.mean, s.stddev, s.cov, s.median, s.min, s.max, s.ci_low, s.ci_high};
	for (size_t k = 0; k < ARRAY_SIZE(all); k++)
		assert_nan(all[k]);

	const double one[] = {42.0};
	assert_int_equal(stat_summarize(one, 1, 0.95, &s), 0);
	assert_true(s.mean == 42.0 && s.median == 42.0 && s.min == 42.0 && s.max == 42.0);
	assert_nan(s.stddev);
	assert_nan(s.cov);
	assert_nan(s.ci_low);
	assert_nan(s.ci_high);

	const double zero_mean[] = {-1.0, 1.0};
	assert_int_equal(stat_summarize(zero_mean, 2, 0.95, &s), 0);
	assert_rel_within(s.stddev, M_SQRT2, 1e-15);
	assert_nan(s.cov);
	assert_true(isfinite(s.ci_low) && isfinite(s.ci_high));
}

static void test_summarize_errors(void **state)
{
	static const double bad_conf[] = {0.0, 1.0, 1.5, -0.5, NAN};
	const double x[] = {1.0, 2.0, 3.0};
	const double with_nan[] = {1.0, NAN, 3.0};
	const double with_inf[] = {1.0, INFINITY, 3.0};
	struct stat_summary s, sentinel;
	memset(&sentinel, 0x5a, sizeof(sentinel));

	for (size_t k = 0; k < ARRAY_SIZE(bad_conf); k++)
		assert_int_equal(stat_summarize(x, 3, bad_conf[k], &s), -EINVAL);
	assert_int_equal(stat_summarize(x, 3, 0.95, NULL), -EINVAL);
	assert_int_equal(stat_summarize(NULL, 3, 0.95, &s), -EINVAL);

	s = sentinel;
	assert_int_equal(stat_summarize(with_nan, 3, 0.95, &s), -EINVAL);
	assert_int_equal(stat_summarize(with_inf, 3, 0.95, &s), -EINVAL);
	assert_memory_equal(&s, &sentinel, sizeof(s));
}

/* xorshift64 mapped to [0, 1): a fixed sequence so failures reproduce. */
static double rng_unit(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (double)(*s >> 11) * 0x1p-53;
}

enum { NOISY_N = 100000 };

/* 1 s in ns with +-500 ns jitter: raw sums of squares lose almost every digit here. */
static double *noisy_samples(void)
{
	double *x = malloc(NOISY_N * sizeof(*x));
	assert_non_null(x);
	uint64_t s = 0x9e3779b97f4a7c15ULL;
	for (size_t i = 0; i < NOISY_N; i++)
		x[i] = 1e9 + 1000.0 * (rng_unit(&s) - 0.5);
	return x;
}

static void test_welford_vs_two_pass(void **state)
{
	double *x = noisy_samples();
	struct welford w;
	welford_init(&w);
	long double sum = 0, sumsq = 0;
	double naive_sum = 0, naive_sq = 0;

	for (size_t i = 0; i < NOISY_N; i++) {
		welford_add(&w, x[i]);
		sum += x[i];
		naive_sum += x[i];
		naive_sq += x[i] * x[i];
	}
	long double mean = sum / NOISY_N, m2 = 0;
	for (size_t i = 0; i < NOISY_N; i++) {
		m2 += (x[i] - mean) * (x[i] - mean);
		sumsq += (long double)x[i] * x[i];
	}

	assert_true(w.n == NOISY_N);
	assert_rel_within(w.mean, (double)mean, 1e-9);
	assert_rel_within(w.m2, (double)m2, 1e-9);
	assert_rel_within(welford_stddev(&w), sqrt((double)(m2 / (NOISY_N - 1))), 1e-9);
	assert_rel_within(welford_rms(&w), sqrt((double)(sumsq / NOISY_N)), 1e-9);

	/* The data must actually be hard: textbook sum-of-squares misses by 1e5 times the bound. */
	double naive_m2 = naive_sq - naive_sum * naive_sum / NOISY_N;
	if (!(fabs(naive_m2 - (double)m2) > 1e-4 * (double)m2))
		fail_msg("naive m2 %.17g vs %.17g: test data too easy", naive_m2, (double)m2);
	free(x);
}

static void test_welford_merge(void **state)
{
	double *x = noisy_samples();
	static const size_t splits[] = {0, 1, 30000, 50000, NOISY_N - 1, NOISY_N};

	struct welford whole;
	welford_init(&whole);
	for (size_t i = 0; i < NOISY_N; i++)
		welford_add(&whole, x[i]);

	for (size_t k = 0; k < ARRAY_SIZE(splits); k++) {
		struct welford a, b;
		welford_init(&a);
		welford_init(&b);
		for (size_t i = 0; i < NOISY_N; i++)
			welford_add(i < splits[k] ? &a : &b, x[i]);
		welford_merge(&a, &b);
		assert_true(a.n == whole.n);
		assert_rel_within(a.mean, whole.mean, 1e-12);
		assert_rel_within(a.m2, whole.m2, 1e-9);
	}
	free(x);
}

static void test_welford_small(void **state)
{
	static const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct welford w;
	welford_init(&w);
	assert_nan(welford_stddev(&w));
	assert_nan(welford_rms(&w));

	welford_add(&w, 3.0);
	assert_nan(welford_stddev(&w));
	assert_true(welford_rms(&w) == 3.0);
	welford_add(&w, -4.0);
	assert_rel_within(welford_rms(&w), sqrt(12.5), 1e-15);

	welford_init(&w);
	for (size_t k = 0; k < ARRAY_SIZE(x); k++)
		welford_add(&w, x[k]);
	assert_true(w.mean == 5.0);
	assert_rel_within(welford_stddev(&w), sqrt(32.0 / 7.0), 1e-15);
}

static void test_required_runs(void **state)
{
	static const struct {
		double stddev, mean, confidence, error, want;
	} cases[] = {
	    {0.0675, 1.0, 0.95, 0.03, 20},  /* the copy experiment: 19.45 rounds up */
	    {6.75, 100.0, 0.95, 0.03, 20},  /* only s/d matters */
	    {6.75, -100.0, 0.95, 0.03, 20}, /* and only its magnitude */
	    {0.1, 1.0, 0.95, 0.05, 16},	    /* 15.37 */
	    {0.05, 1.0, 0.99, 0.01, 166},   /* 165.87 */
	    {0.2, 1.0, 0.90, 0.10, 11},	    /* 10.82 */
	    {0.0, 5.0, 0.95, 0.01, 0},
	};
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		double got = stat_required_runs(cases[k].stddev, cases[k].mean, cases[k].confidence,
						cases[k].error);
		if (got != cases[k].want)
			fail_msg("required_runs(%g, %g, %g, %g) = %.17g, want %g", cases[k].stddev,
				 cases[k].mean, cases[k].confidence, cases[k].error, got,
				 cases[k].want);
	}

	/*
	 * Exact squares in real numbers whose double evaluation lands just above them (e.g. 9 comes
	 * out as 9.0000000000000036): rounding noise must not add a run.
	 */
	static const struct {
		double root, error;
	} exact[] = {{3, 0.05}, {6, 0.1}, {7, 0.01}, {9, 0.03}, {13, 0.03}};
	double z = stat_normal_quantile(0.975);
	for (size_t k = 0; k < ARRAY_SIZE(exact); k++) {
		double r = exact[k].root, e = exact[k].error;
		assert_true(stat_required_runs(r * e / z, 1.0, 0.95, e) == r * r);
	}

	assert_nan(stat_required_runs(NAN, 1.0, 0.95, 0.03));
	assert_nan(stat_required_runs(-0.1, 1.0, 0.95, 0.03));
	assert_nan(stat_required_runs(0.1, 0.0, 0.95, 0.03));
	assert_nan(stat_required_runs(0.1, NAN, 0.95, 0.03));
	assert_nan(stat_required_runs(0.1, 1.0, 1.0, 0.03));
	assert_nan(stat_required_runs(0.1, 1.0, 0.95, 0.0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_t_table),	      cmocka_unit_test(test_t_precise),
	    cmocka_unit_test(test_t_closed_forms),    cmocka_unit_test(test_t_shape),
	    cmocka_unit_test(test_quantiles_invalid), cmocka_unit_test(test_normal_quantile),
	    cmocka_unit_test(test_normal_round_trip), cmocka_unit_test(test_summarize_even),
	    cmocka_unit_test(test_summarize_odd),     cmocka_unit_test(test_summarize_nan_rules),
	    cmocka_unit_test(test_summarize_errors),  cmocka_unit_test(test_welford_vs_two_pass),
	    cmocka_unit_test(test_welford_merge),     cmocka_unit_test(test_welford_small),
	    cmocka_unit_test(test_required_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
