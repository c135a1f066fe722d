/*
 * Unit tests for engine/changepoint: synthetic series with known steps (one, two, one hidden
 * in heavy noise) are found within 2% of the true position, and flat, drifting and briefly
 * disturbed series raise no alarm, over many seeds each.
 */
#include "engine/stats/changepoint.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "lib/rng.h"

#define N     1000
#define SEEDS 40

static double gauss(uint64_t *s)
{
	double u1 = rng_uniform(s), u2 = rng_uniform(s);
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* y[i] = level(i) + sd * noise, the level stepping to levels[j] at steps[j]. */
static void make_steps(double *y, size_t n, uint64_t seed, double sd, double first,
		       const size_t *steps, const double *levels, size_t nsteps)
{
	for (size_t i = 0; i < n; i++) {
		double level = first;
		for (size_t j = 0; j < nsteps; j++)
			if (i >= steps[j])
				level = levels[j];
		y[i] = level + sd * gauss(&seed);
	}
}

static int detect(const double *y, size_t n, size_t *at)
{
	struct cp_params p = cp_defaults();
	return cp_detect(y, n, &p, at, CP_MAX);
}

/* Every true step found, once, within 2% of the series' length. */
static void expect_steps(const double *y, size_t n, const size_t *want, size_t nwant, uint64_t seed)
{
	size_t at[CP_MAX];
	int got = detect(y, n, at);

	if (got != (int)nwant)
		fail_msg("seed %llu: %d change points, want %zu", (unsigned long long)seed, got,
			 nwant);
	for (size_t j = 0; j < nwant; j++) {
		double off = fabs((double)at[j] - (double)want[j]);
		if (off > 0.02 * (double)n)
			fail_msg("seed %llu: change %zu at %zu, want %zu within %.0f",
				 (unsigned long long)seed, j, at[j], want[j], 0.02 * (double)n);
	}
}

static void test_one_step(void **state)
{
	static double y[N];
	size_t step = 300;
	double after = 40;

	/* The discwr2 cliff's shape: a rate that falls to a fifth, with 5% noise. */
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		make_steps(y, N, seed, 5, 182, &step, &after, 1);
		expect_steps(y, N, &step, 1, seed);
	}
	/* Upwards too, and without any noise at all: exactly at the step. */
	make_steps(y, N, 0, 0, 10, &step, (double[]){20}, 1);
	size_t at[CP_MAX];
	assert_int_equal(detect(y, N, at), 1);
	assert_int_equal(at[0], step);
}

static void test_two_steps(void **state)
{
	static double y[N];
	size_t steps[] = {250, 700};
	double levels[] = {60, 20};

	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		make_steps(y, N, seed, 4, 100, steps, levels, 2);
		expect_steps(y, N, steps, 2, seed);
	}
	/* A staircase with equal steps: a straight line fits it fairly well overall, but not
	 * either step within its two neighbouring levels. */
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		make_steps(y, N, seed, 3, 90, (size_t[]){333, 667}, (double[]){60, 30}, 2);
		expect_steps(y, N, (size_t[]){333, 667}, 2, seed);
	}
}

static void test_step_in_heavy_noise(void **state)
{
	static double y[N];
	size_t step = 600;
	double after = 80;

	/* The noise's deviation (25) is larger than the step (20): hidden to the eye. */
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		make_steps(y, N, seed, 25, 100, &step, &after, 1);
		expect_steps(y, N, &step, 1, seed);
	}
}

static void test_flat_no_alarm(void **state)
{
	static double y[N];
	size_t at[CP_MAX];

	for (uint64_t seed = 1; seed <= 5 * SEEDS; seed++) {
		make_steps(y, N, seed, 10, 100, NULL, NULL, 0);
		if (detect(y, N, at) != 0)
			fail_msg("seed %llu: a change point at %zu in a flat series",
				 (unsigned long long)seed, at[0]);
		/* Heavy noise, and a short series. */
		make_steps(y, 64, seed, 40, 100, NULL, NULL, 0);
		assert_int_equal(detect(y, 64, at), 0);
	}
	make_steps(y, N, 0, 0, 100, NULL, NULL, 0);
	assert_int_equal(detect(y, N, at), 0);
}

static void test_drift_no_alarm(void **state)
{
	static double y[N];
	size_t at[CP_MAX];

	/* A level that slides by 30% over the run, quietly, noisily and without noise. */
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		double sds[] = {0, 1, 5, 15};
		for (size_t k = 0; k < 4; k++) {
			uint64_t s = seed;
			for (size_t i = 0; i < N; i++)
				y[i] = 100 - 30.0 * (double)i / N + sds[k] * gauss(&s);
			if (detect(y, N, at) != 0)
				fail_msg("seed %llu, sd %g: a change point at %zu in a drift",
					 (unsigned long long)seed, sds[k], at[0]);
		}
	}
}

static void test_brief_or_small_no_alarm(void **state)
{
	static double y[N];
	size_t at[CP_MAX];

	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		/* A dip of 2% of the run is not a lasting change. */
		make_steps(y, N, seed, 2, 100, (size_t[]){500, 520}, (double[]){50, 100}, 2);
		assert_int_equal(detect(y, N, at), 0);
		/* A lasting change of 5%, clearly measured, is below the minimum effect. */
		make_steps(y, N, seed, 0.5, 100, (size_t[]){500}, (double[]){95}, 1);
		assert_int_equal(detect(y, N, at), 0);
	}
	/* Too short to hold two minimum segments. */
	assert_int_equal(detect((double[]){1, 1, 1, 9, 9, 9}, 6, at), 0);
	assert_int_equal(detect(y, 0, at), 0);
}

static void test_noise_estimate(void **state)
{
	static double y[N * 10];
	uint64_t seed = 7;

	for (size_t i = 0; i < N * 10; i++)
		y[i] = (i < N * 5 ? 0 : 1000) + 3 * gauss(&seed);
	/* One step among 10000 points leaves the estimate near the true 3. */
	double s = cp_noise(y, N * 10);
	if (!(s > 2.8 && s < 3.2))
		fail_msg("noise %g, want 3 within 0.2", s);
	assert_true(cp_noise(y, 2) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_step),
	    cmocka_unit_test(test_two_steps),
	    cmocka_unit_test(test_step_in_heavy_noise),
	    cmocka_unit_test(test_flat_no_alarm),
	    cmocka_unit_test(test_drift_no_alarm),
	    cmocka_unit_test(test_brief_or_small_no_alarm),
	    cmocka_unit_test(test_noise_estimate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
