/* Comparisons and outlier policies against worked examples: Welch's test on the textbook
 * data set (Welch's t-test, example 1: t = -2.46, df = 24.99), a paired example, and each
 * outlier policy on data whose outliers are known. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine/stats/compare.h"
#include "engine/stats/outliers.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static const double A1[] = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
			    21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
static const double A2[] = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
			    24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};

static void test_welch_textbook(void **state)
{
	struct cmp_result r;

	assert_int_equal(cmp_welch(A1, 15, A2, 15, 0.95, &r), 0);
	NEAR(r.mean_a, 20.82, 1e-9);
	NEAR(r.mean_b, 22.986667, 1e-6);
	NEAR(r.diff, -2.166667, 1e-6);
	NEAR(r.df, 24.99, 0.01);
	/* t = diff / se = -2.46, so se = 0.8824; the interval is diff ± t(0.975, 24.99)·se. */
	double se = (r.ci_high - r.diff) / 2.0597;
	NEAR(r.diff / se, -2.455, 0.005);
	NEAR(r.ci_low, -3.984, 0.005);
	NEAR(r.ci_high, -0.349, 0.005);
	assert_true(r.significant);
	NEAR(r.ratio, 20.82 / 22.986667, 1e-6);
	assert_string_equal(r.test, "welch");
}

static void test_welch_df_formula(void **state)
{
	/* Equal variances and sizes: df = 2(n - 1). */
	NEAR(cmp_welch_df(4.0, 10, 4.0, 10), 18.0, 1e-12);
	/* One side much noisier: df tends to that side's n - 1. */
	NEAR(cmp_welch_df(1e-9, 50, 4.0, 8), 7.0, 1e-3);
}

static void test_welch_edge_cases(void **state)
{
	const double one[] = {5.0}, same[] = {5.0, 5.0, 5.0}, other[] = {6.0, 6.0, 6.0};
	struct cmp_result r;

	assert_int_equal(cmp_welch(one, 0, same, 3, 0.95, &r), -22 /* -EINVAL */);
	assert_int_equal(cmp_welch(one, 1, same, 3, 0.95, &r), 0);
	assert_true(isnan(r.ci_low) && isnan(r.df));
	assert_false(r.significant);
	/* No spread at all: the interval collapses onto the difference. */
	assert_int_equal(cmp_welch(same, 3, other, 3, 0.95, &r), 0);
	NEAR(r.ci_low, -1.0, 1e-12);
	NEAR(r.ci_high, -1.0, 1e-12);
	assert_true(r.significant);
}

static void test_paired(void **state)
{
	/* Differences 1, 2, 3, 4, 5: mean 3, sd 1.5811, t(0.975, 4) = 2.7764. */
	const double a[] = {11, 12, 13, 14, 15}, b[] = {10, 10, 10, 10, 10};
	struct cmp_result r;

	assert_int_equal(cmp_paired(a, b, 5, 0.95, &r), 0);
	NEAR(r.diff, 3.0, 1e-12);
	NEAR(r.df, 4.0, 1e-12);
	NEAR(r.ci_low, 3.0 - 2.7764 * 1.5811388 / sqrt(5), 1e-3);
	NEAR(r.ci_high, 3.0 + 2.7764 * 1.5811388 / sqrt(5), 1e-3);
	assert_true(r.significant);
	assert_string_equal(r.test, "paired-t");
}

static void test_quantile_type7(void **state)
{
	const double x[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

	NEAR(outliers_quantile(x, 10, 0.25), 3.25, 1e-12); /* R: quantile(1:10, 0.25) */
	NEAR(outliers_quantile(x, 10, 0.5), 5.5, 1e-12);
	NEAR(outliers_quantile(x, 10, 0.75), 7.75, 1e-12);
	NEAR(outliers_quantile(x, 10, 1.0), 10, 1e-12);
}

static void test_trim(void **state)
{
	const double x[] = {5, 1, 9, 3, 7, 3, 100, 0};
	bool keep[8];

	/* Drop the 2 lowest (0, 1) and the 1 highest (100); ties keep trial order. */
	assert_int_equal(outliers_apply(x, 8, OUTLIERS_TRIM, 2, 1, 0, keep), 5);
	const bool want[] = {true, false, true, true, true, true, false, false};
	for (int i = 0; i < 8; i++)
		assert_int_equal(keep[i], want[i]);
	/* Equal values: the earlier trial is the lower one. */
	const double eq[] = {4, 4, 4, 4};
	assert_int_equal(outliers_apply(eq, 4, OUTLIERS_TRIM, 1, 1, 0, keep), 2);
	assert_false(keep[0]);
	assert_true(keep[1] && keep[2]);
	assert_false(keep[3]);
}

static void test_iqr(void **state)
{
	/* 1..10 plus 40: Q1 3.5, Q3 8.5, fences -4 and 16 with k = 1.5; 40 is out. */
	const double x[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 40};
	bool keep[11];

	assert_int_equal(outliers_apply(x, 11, OUTLIERS_IQR, 0, 0, 1.5, keep), 10);
	assert_false(keep[10]);
	/* k = 20 moves the upper fence to 108.5: nothing is out. */
	assert_int_equal(outliers_apply(x, 11, OUTLIERS_IQR, 0, 0, 20, keep), 11);
}

static void test_mad(void **state)
{
	const double x[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 50};
	bool keep[10];

	/* median 5.5; |x - 5.5| = 4.5 3.5 2.5 1.5 .5 .5 1.5 2.5 3.5 44.5 -> MAD 2.5;
	 * z(50) = 0.6745 * 44.5 / 2.5 = 12.0 > 3.5; z(1) = 1.21. */
	assert_int_equal(outliers_apply(x, 10, OUTLIERS_MAD, 0, 0, 3.5, keep), 9);
	assert_false(keep[9]);
	/* A MAD of 0 (most values equal) drops nothing. */
	const double flat[] = {3, 3, 3, 3, 9};
	assert_int_equal(outliers_apply(flat, 5, OUTLIERS_MAD, 0, 0, 3.5, keep), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_welch_textbook),
	    cmocka_unit_test(test_welch_df_formula),
	    cmocka_unit_test(test_welch_edge_cases),
	    cmocka_unit_test(test_paired),
	    cmocka_unit_test(test_quantile_type7),
	    cmocka_unit_test(test_trim),
	    cmocka_unit_test(test_iqr),
	    cmocka_unit_test(test_mad),
	};
	return cmocka_run_group_tests_name("compare", tests, NULL, NULL);
}
