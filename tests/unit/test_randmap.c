/*
 * Unit tests for engine/randmap: every pass is a permutation of the blocks for any count,
 * a pass costs at most the next power of two in evaluations, resuming, taking back and
 * restarting keep the sequence, seeds and passes decide the order, and the order looks
 * like a uniform shuffle (position, neighbours, the first half of a pass).
 */
#include "engine/io/randmap.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Draw `passes` passes of n blocks; fail unless each one is a permutation of 0..n-1. */
static void check_passes(uint64_t n, uint64_t seed, int passes)
{
	struct randmap m;
	unsigned char *seen = calloc(n, 1);

	assert_non_null(seen);
	randmap_init(&m, n, seed, 0);
	for (int p = 0; p < passes; p++) {
		memset(seen, 0, n);
		for (uint64_t j = 0; j < n; j++) {
			uint64_t b = randmap_next(&m);
			if (b >= n || seen[b])
				fail_msg("n=%llu seed=%llu pass %d draw %llu: block %llu %s",
					 (unsigned long long)n, (unsigned long long)seed, p,
					 (unsigned long long)j, (unsigned long long)b,
					 b >= n ? "out of range" : "twice");
			seen[b] = 1;
		}
		assert_int_equal(randmap_drawn(&m), (uint64_t)(p + 1) * n);
	}
	free(seen);
}

static void test_each_block_once_per_pass(void **state)
{
	for (uint64_t n = 1; n <= 600; n++)
		check_passes(n, n * 7 + 1, 3);
	const uint64_t big[] = {1023, 1024, 1025, 4097, 65535, 65536, 100003, (1u << 20) + 1};
	for (size_t k = 0; k < sizeof(big) / sizeof(big[0]); k++)
		check_passes(big[k], 42 + k, 2);
}

/* The walks of a pass never evaluate the bijection more than m times in all. */
static void test_cost_per_pass(void **state)
{
	const uint64_t ns[] = {1, 2, 3, 5, 100, 513, 1025, 4099, 65537};
	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		struct randmap m;
		uint64_t evals = 0;
		randmap_init(&m, ns[k], 9, 0);
		for (uint64_t j = 0; j < ns[k]; j++) {
			uint64_t y = randmap_hash(&m, j);
			evals++;
			while (y >= m.n) {
				y = randmap_hash(&m, y);
				evals++;
			}
			assert_int_equal(y, randmap_at(&m, j));
		}
		if (evals > m.mask + 1)
			fail_msg("n=%llu: %llu evaluations in a pass, more than %llu",
				 (unsigned long long)ns[k], (unsigned long long)evals,
				 (unsigned long long)(m.mask + 1));
		assert_true(m.mask + 1 < 2 * ns[k] || ns[k] == 1);
	}
}

/* Starting `start` draws in gives what drawing from 0 gives after `start` draws. */
static void test_resume(void **state)
{
	const uint64_t n = 37;
	uint64_t ref[5 * 37];
	struct randmap m;

	randmap_init(&m, n, 1234, 0);
	for (size_t j = 0; j < 5 * n; j++)
		ref[j] = randmap_next(&m);
	for (uint64_t start = 0; start < 4 * n; start += 5) {
		randmap_init(&m, n, 1234, start);
		assert_int_equal(randmap_drawn(&m), start);
		for (uint64_t j = start; j < 5 * n; j++)
			assert_int_equal(randmap_next(&m), ref[j]);
	}
}

static void test_unnext_and_restart(void **state)
{
	struct randmap m, r;
	uint64_t a, b;
	unsigned char seen[50] = {0};

	randmap_init(&m, 50, 5, 0);
	a = randmap_next(&m);
	randmap_unnext(&m);
	b = randmap_next(&m);
	assert_int_equal(a, b);
	/* At the end of a pass, taking back the last draw gives it again. */
	for (int j = 1; j < 50; j++)
		a = randmap_next(&m);
	randmap_unnext(&m);
	assert_int_equal(randmap_next(&m), a);
	/* A restart at the start of a pass changes nothing ... */
	randmap_init(&m, 50, 5, 0);
	r = m;
	randmap_restart(&m);
	assert_int_equal(randmap_next(&m), randmap_next(&r));
	/* ... and in the middle of one begins a whole new pass. */
	for (int j = 0; j < 10; j++)
		randmap_next(&m);
	randmap_restart(&m);
	assert_int_equal(m.pass, 1);
	for (int j = 0; j < 50; j++) {
		uint64_t x = randmap_next(&m);
		assert_int_equal(seen[x], 0);
		seen[x] = 1;
	}
}

/* The same seed, the same order; another seed or another pass, another order. */
static void test_seed_decides(void **state)
{
	const uint64_t n = 1000;
	uint64_t *a = malloc(2 * n * sizeof(*a));
	struct randmap m;

	assert_non_null(a);
	randmap_init(&m, n, 77, 0);
	for (uint64_t j = 0; j < 2 * n; j++)
		a[j] = randmap_next(&m);
	randmap_init(&m, n, 77, 0);
	for (uint64_t j = 0; j < 2 * n; j++)
		assert_int_equal(randmap_next(&m), a[j]);
	assert_memory_not_equal(a, a + n, n * sizeof(*a)); /* pass 1 is not pass 0 again */
	for (uint64_t s = 0; s < 200; s++) {
		uint64_t same = 0;
		randmap_init(&m, n, s == 77 ? 1 << 30 : s, 0);
		for (uint64_t j = 0; j < n; j++)
			same += randmap_next(&m) == a[j];
		/* Two shuffles agree in one place on average. */
		if (same > 10)
			fail_msg("seed %llu: %llu of %llu draws as with seed 77",
				 (unsigned long long)s, (unsigned long long)same,
				 (unsigned long long)n);
	}
	free(a);
}

/*
 * The order against a uniform shuffle, over many seeds (fixed: the test is deterministic).
 * A shuffle of n puts a block at each position with probability 1/n; its successive values
 * are nearly uncorrelated (mean |r| about sqrt(2 / (pi n))); its first half takes about half
 * of every part of the file. The bounds are loose for a shuffle and fail an order with
 * structure: the identity, a stride, a linear congruential order, or a bit reversal.
 */
static void uniformity(uint64_t n, int seeds)
{
	enum { BINS = 16, PARTS = 8 };
	double tab[BINS][BINS] = {{0}}, corr = 0, half = 0, adjacent = 0, chi = 0;
	struct randmap m;

	for (int s = 0; s < seeds; s++) {
		double sx = 0, sy = 0, sxy = 0, sxx = 0, syy = 0, part[PARTS] = {0};
		uint64_t prev = 0;
		randmap_init(&m, n, (uint64_t)s * 0x51ed27 + 5, 0);
		for (uint64_t j = 0; j < n; j++) {
			uint64_t y = randmap_next(&m);
			tab[y * BINS / n][j * BINS / n]++;
			if (j < n / 2)
				part[y * PARTS / n]++;
			if (j > 0) {
				sx += (double)prev;
				sy += (double)y;
				sxy += (double)prev * (double)y;
				sxx += (double)prev * (double)prev;
				syy += (double)y * (double)y;
				adjacent += y == prev + 1 || y + 1 == prev;
			}
			prev = y;
		}
		double k = (double)(n - 1);
		corr += fabs((sxy - sx * sy / k) / sqrt((sxx - sx * sx / k) * (syy - sy * sy / k)));
		for (int p = 0; p < PARTS; p++) {
			double e = (double)(n / 2) / PARTS;
			half += (part[p] - e) * (part[p] - e) / e;
		}
	}
	/* Where the blocks of each sixteenth of the file fall in the pass (225 df). */
	for (int a = 0; a < BINS; a++) {
		for (int b = 0; b < BINS; b++) {
			double r = 0, c = 0, e;
			for (int x = 0; x < BINS; x++) {
				r += tab[a][x];
				c += tab[x][b];
			}
			e = r * c / ((double)seeds * (double)n);
			chi += (tab[a][b] - e) * (tab[a][b] - e) / e;
		}
	}
	corr /= seeds;
	half /= seeds;
	adjacent /= seeds;
	print_message("n=%llu: position chi2 %.0f (225 df), mean |r| %.4f (shuffle %.4f), "
		      "first half chi2 %.2f (shuffle 3.5), adjacent %.2f (shuffle 2)\n",
		      (unsigned long long)n, chi, corr, sqrt(2 / M_PI / (double)n), half, adjacent);
	assert_true(chi < 400);
	assert_true(corr < 1.25 * sqrt(2 / M_PI / (double)n));
	assert_true(half > 2.5 && half < 4.5);
	assert_true(adjacent > 1.5 && adjacent < 2.5);
}

static void test_uniformity(void **state)
{
	uniformity(1000, 2000);
	uniformity(1024, 2000);
	uniformity(4099, 500);
	uniformity(65536, 60);
}

/*
 * Small counts, where a weak bijection shows first: over many seeds, the table of (block,
 * position) and the table of (block, next block) against a uniform shuffle's, by chi2 per
 * degree of freedom (about 1 for a shuffle; the bound is 5 standard deviations above).
 * Four rounds of xor, multiply and one xorshift gave 88 for the successors of 64 blocks
 * and reached only 4,096 of the 40,320 orders of 8.
 */
static void small_tables(uint64_t n, int seeds)
{
	double *pos = calloc(n * n, sizeof(*pos)), *next = calloc(n * n, sizeof(*next));
	double cp = 0, cn = 0, dfp = (double)((n - 1) * (n - 1)), dfn = (double)(n * (n - 2));
	struct randmap m;

	assert_non_null(pos);
	assert_non_null(next);
	for (int s = 0; s < seeds; s++) {
		uint64_t prev = 0;
		randmap_init(&m, n, (uint64_t)s * 0x9e3779b97f4a7c15ull + 3, 0);
		for (uint64_t j = 0; j < n; j++) {
			uint64_t y = randmap_next(&m);
			pos[y * n + j]++;
			if (j > 0)
				next[prev * n + y]++;
			prev = y;
		}
	}
	for (uint64_t a = 0; a < n; a++) {
		for (uint64_t b = 0; b < n; b++) {
			double e = (double)seeds / (double)n, d = pos[a * n + b] - e;
			cp += d * d / e;
			if (a != b) {
				d = next[a * n + b] - e;
				cn += d * d / e;
			}
		}
	}
	print_message("n=%llu: position chi2/df %.3f, next block chi2/df %.3f\n",
		      (unsigned long long)n, cp / dfp, cn / dfn);
	if (cp / dfp > 1 + 5 * sqrt(2 / dfp) || cn / dfn > 1 + 5 * sqrt(2 / dfn))
		fail_msg("n=%llu: the order is not like a shuffle's", (unsigned long long)n);
	free(pos);
	free(next);
}

static void test_small_counts(void **state)
{
	const uint64_t ns[] = {5, 9, 16, 17, 33, 64, 100, 256};
	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++)
		small_tables(ns[k], 20000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_each_block_once_per_pass),
	    cmocka_unit_test(test_cost_per_pass),
	    cmocka_unit_test(test_resume),
	    cmocka_unit_test(test_unnext_and_restart),
	    cmocka_unit_test(test_seed_decides),
	    cmocka_unit_test(test_uniformity),
	    cmocka_unit_test(test_small_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
