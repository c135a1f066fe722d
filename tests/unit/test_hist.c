/*
 * Unit tests for engine/hist: bucket layout covers uint64 without gaps, midpoints stay within
 * the 1/128 error bound, percentiles are clamped to the exact extremes, merging is lossless.
 */
#include "engine/stats/hist.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

/* cmocka's assert_float_equal narrows to float; this keeps doubles and prints both sides. */
#define assert_rel_within(got, want, tol)                                                          \
	do {                                                                                       \
		double g_ = (got), w_ = (want);                                                    \
		if (!(fabs(g_ - w_) <= (tol)*fabs(w_)))                                            \
			fail_msg("%s = %.17g, want %.17g within %g relative", #got, g_, w_,        \
				 (double)(tol));                                                   \
	} while (0)

static struct hist *hist_new(void)
{
	struct hist *h = malloc(sizeof(*h));
	assert_non_null(h);
	hist_init(h);
	return h;
}

/* xorshift64: a fixed, portable sequence so failures reproduce. */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double bucket_mid(unsigned i)
{
	uint64_t lo = hist_bucket_low(i);
	return (double)lo + (double)(hist_bucket_high(i) - lo) / 2.0;
}

static void test_layout_constants(void **state)
{
	assert_int_equal(HIST_NBUCKETS, 3776);
	assert_int_equal(hist_bucket_of(UINT64_MAX), HIST_NBUCKETS - 1);
	assert_true(hist_max_relative_error() == 1.0 / 128.0);
}

static void test_buckets_contiguous(void **state)
{
	assert_true(hist_bucket_low(0) == 0);
	assert_true(hist_bucket_high(HIST_NBUCKETS - 1) == UINT64_MAX);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
		if (lo > hi)
			fail_msg("bucket %u: low %llu > high %llu", i, (unsigned long long)lo,
				 (unsigned long long)hi);
		if (i + 1 < HIST_NBUCKETS && hist_bucket_low(i + 1) != hi + 1)
			fail_msg("gap or overlap after bucket %u: high %llu, next low %llu", i,
				 (unsigned long long)hi,
				 (unsigned long long)hist_bucket_low(i + 1));
		/* The inline hot-path mapping must agree with the bounds at both ends. */
		assert_int_equal(hist_bucket_of(lo), i);
		assert_int_equal(hist_bucket_of(hi), i);
	}
}

/* Worst case is a value at either end of its bucket; check every bucket against the bound. */
static void test_every_bucket_within_bound(void **state)
{
	double bound = hist_max_relative_error();
	for (unsigned i = 1; i < HIST_NBUCKETS; i++) {
		double mid = bucket_mid(i);
		double lo = (double)hist_bucket_low(i), hi = (double)hist_bucket_high(i);
		assert_true((mid - lo) / lo <= bound);
		assert_true((hi - mid) / hi <= bound);
	}
}

static void test_value_sweep(void **state)
{
	static const uint64_t values[] = {
	    1,
	    2,
	    127,
	    128,
	    129,
	    255,
	    256,
	    1000,
	    1000000,
	    1000000000,
	    3600000000000ULL,
	    UINT64_C(1) << 63,
	    UINT64_MAX / 2,
	    UINT64_MAX - 1,
	    UINT64_MAX,
	};
	struct hist *h = hist_new();

	for (size_t k = 0; k < sizeof(values) / sizeof(values[0]); k++) {
		uint64_t v = values[k];
		unsigned i = hist_bucket_of(v);
		assert_true(hist_bucket_low(i) <= v && v <= hist_bucket_high(i));
		if (v < HIST_EXACT_LIMIT)
			assert_true(bucket_mid(i) == (double)v);
		assert_rel_within(bucket_mid(i), (double)v, 0.01);
		assert_rel_within(bucket_mid(i), (double)v, hist_max_relative_error());

		/* A lone value is its own min and max, so clamping must report it exactly. */
		hist_init(h);
		hist_record(h, v);
		assert_true(hist_percentile(h, 500000) == (double)v);
	}
	free(h);
}

static void test_percentiles_uniform(void **state)
{
	static const struct {
		uint32_t ppm;
		double want; /* value of rank ceil(ppm * 100000 / 10^6), at least rank 1 */
	} cases[] = {
	    {0, 1},	     {10, 1},	      {10000, 1000},   {100000, 10000},
	    {250000, 25000}, {500000, 50000}, {900000, 90000}, {990000, 99000},
	    {999000, 99900}, {999900, 99990}, {999990, 99999}, {1000000, 100000},
	};
	struct hist *h = hist_new();
	for (uint64_t v = 1; v <= 100000; v++)
		hist_record(h, v);

	assert_true(h->count == 100000 && h->min == 1 && h->max == 100000);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		assert_rel_within(hist_percentile(h, cases[k].ppm), cases[k].want, 0.01);
	assert_true(hist_percentile(h, HIST_PPM) == 100000.0);
	free(h);
}

/*
 * Three values in one 8192-wide bucket: the middle rank's bucket midpoint lies beyond every
 * recorded value, above them at the bucket's bottom, below them at its top.
 */
static void test_percentiles_clamped(void **state)
{
	unsigned b = hist_bucket_of(1000000);
	uint64_t lo = hist_bucket_low(b), hi = hist_bucket_high(b);
	const struct {
		uint64_t v[3];
		double want_p50;
	} cases[] = {
	    {{lo, lo, lo + 1}, (double)(lo + 1)},
	    {{hi - 1, hi, hi}, (double)(hi - 1)},
	};
	struct hist *h = hist_new();

	assert_true(hi - lo == 8191);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		hist_init(h);
		for (int j = 0; j < 3; j++)
			hist_record(h, cases[k].v[j]);
		assert_true(hist_percentile(h, 500000) == cases[k].want_p50);
		assert_true(hist_percentile(h, HIST_PPM) == (double)h->max);
		assert_true(hist_percentile(h, 0) >= (double)h->min);
		assert_true(hist_percentile(h, 999000) <= (double)h->max);
	}
	free(h);
}

/* The six percentiles every trial reports, in parts per million. */
static const uint32_t reported_ppm[] = {500000, 900000, 950000, 990000, 999000, 999900};

/* Nearest rank by its definition, independent of hist_rank(): the smallest r >= 1 with
 * r * 10^6 >= ppm * n, in 128-bit integers. */
static uint64_t rank_by_definition(uint64_t n, uint32_t ppm)
{
	unsigned __int128 want = (unsigned __int128)ppm * n;
	uint64_t r = (uint64_t)(want / HIST_PPM);
	if ((unsigned __int128)r * HIST_PPM < want)
		r++;
	return r == 0 && n > 0 ? 1 : r;
}

static void test_rank_exact(void **state)
{
	static const uint64_t counts[] = {
	    0,
	    1,
	    2,
	    9,
	    10,
	    99,
	    100,
	    999,
	    1000,
	    1001,
	    2000,
	    9999,
	    10000,
	    999999,
	    1000000,
	    1000001,
	    3000000,
	    123456789,
	    UINT64_C(1) << 53,
	    (UINT64_C(1) << 53) + 1,
	    UINT64_MAX / HIST_PPM * HIST_PPM,
	    UINT64_MAX - 1,
	    UINT64_MAX,
	};
	static const uint32_t ppms[] = {0,	1,	10,	500000, 900000, 950000,
					990000, 999000, 999900, 999990, 999999, HIST_PPM};

	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
		for (size_t k = 0; k < sizeof(ppms) / sizeof(ppms[0]); k++) {
			uint64_t got = hist_rank(counts[c], ppms[k]);
			uint64_t want = rank_by_definition(counts[c], ppms[k]);
			if (got != want)
				fail_msg("rank of %u ppm among %llu: %llu, want %llu", ppms[k],
					 (unsigned long long)counts[c], (unsigned long long)got,
					 (unsigned long long)want);
		}
	/* The case floating point gets wrong: 0.999 * 1000 rounds up past 999. */
	assert_true(hist_rank(1000, 999000) == 999);
	assert_true(hist_rank(2000, 999000) == 1998);
	assert_true(hist_rank(1000000, 999900) == 999900);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Every reported percentile of @h against the order statistic of @sorted (its n values). */
static void check_percentiles(const struct hist *h, const uint64_t *sorted, uint64_t n)
{
	for (size_t k = 0; k < sizeof(reported_ppm) / sizeof(reported_ppm[0]); k++) {
		uint64_t r = rank_by_definition(n, reported_ppm[k]);
		double exact = (double)sorted[r - 1], got = hist_percentile(h, reported_ppm[k]);
		if (!(fabs(got - exact) <= exact * hist_max_relative_error()))
			fail_msg("n %llu, %u ppm: reported %.17g, rank %llu is %.17g",
				 (unsigned long long)n, reported_ppm[k], got, (unsigned long long)r,
				 exact);
	}
}

/*
 * At counts that are multiples of 10, 100, 1000 and 10^6, each reported percentile is the
 * nearest-rank order statistic within the bound, in one histogram and merged from three (as
 * workers and ranks are). Values: a spread over five decades (100 ns to 8 ms), plus a 1 s
 * stall every thousandth value, so that p99.9 lies just below the stalls and an off-by-one
 * rank there reports a value 100 times too large.
 */
static void test_percentiles_are_order_statistics(void **state)
{
	static const uint64_t counts[] = {10, 100, 1000, 3000, 10000, 1000000};
	uint64_t *v = malloc(1000000 * sizeof(*v));
	struct hist *one = hist_new(), *merged = hist_new(), *part = hist_new();
	uint64_t s = 0x9e3779b97f4a7c15ULL;

	assert_non_null(v);
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		uint64_t n = counts[c];
		hist_init(one);
		hist_init(merged);
		for (uint64_t i = 0; i < n; i++) {
			uint64_t r = rng_next(&s);
			v[i] = 100 + (r >> 11) % 1000 * ((r & 7) + 1) * ((r >> 3 & 1) ? 1000 : 1);
			if (i % 1000 == 999)
				v[i] += 1000000000; /* a 1 s stall */
			hist_record(one, v[i]);
		}
		for (int w = 0; w < 3; w++) {
			hist_init(part);
			for (uint64_t i = (uint64_t)w; i < n; i += 3)
				hist_record(part, v[i]);
			hist_merge(merged, part);
		}
		qsort(v, n, sizeof(*v), cmp_u64);
		check_percentiles(one, v, n);
		check_percentiles(merged, v, n);
		if (n >= 1000)
			assert_true(hist_percentile(one, 999000) < 1e9);
	}
	free(v);
	free(one);
	free(merged);
	free(part);
}

static void test_merge_equals_single(void **state)
{
	struct hist *a = hist_new(), *b = hist_new(), *all = hist_new(), *empty = hist_new();
	uint64_t s = 0x2545f4914f6cdd1dULL;

	for (int k = 0; k < 50000; k++) {
		/* Spread over every magnitude: a random value shifted right by 0..63 bits. */
		uint64_t r = rng_next(&s);
		uint64_t v = rng_next(&s) >> (r % 64);
		hist_record(k % 3 ? a : b, v);
		hist_record(all, v);
	}
	hist_merge(a, b);
	hist_merge(a, empty);

	assert_true(a->count == all->count);
	assert_true(a->min == all->min);
	assert_true(a->max == all->max);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		if (a->buckets[i] != all->buckets[i])
			fail_msg("bucket %u: merged %llu, single %llu", i,
				 (unsigned long long)a->buckets[i],
				 (unsigned long long)all->buckets[i]);

	/* Into an empty one: min must come from src, not stay UINT64_MAX. */
	hist_merge(empty, b);
	assert_true(empty->count == b->count && empty->min == b->min && empty->max == b->max);
	free(a);
	free(b);
	free(all);
	free(empty);
}

/* A trial's histogram kept sparse (its non-empty buckets) and merged back: the same as the
 * full histograms merged, so pooled percentiles are those of every I/O. */
static void test_sparse_merge_equals_full(void **state)
{
	struct hist *a = hist_new(), *b = hist_new(), *full = hist_new(), *pooled = hist_new();
	struct hist_sparse *sa, *sb, *copy;
	uint64_t s = 0x9e3779b97f4a7c15ULL;

	for (int k = 0; k < 20000; k++) {
		uint64_t r = rng_next(&s);
		hist_record(k % 2 ? a : b, rng_next(&s) >> (r % 64));
	}
	hist_merge(full, a);
	hist_merge(full, b);
	sa = hist_sparse_of(a);
	sb = hist_sparse_of(b);
	copy = hist_sparse_dup(sb);
	assert_non_null(sa);
	assert_non_null(sb);
	assert_non_null(copy);
	assert_null(hist_sparse_dup(NULL));
	hist_merge_sparse(pooled, sa);
	hist_merge_sparse(pooled, copy);
	assert_true(pooled->count == full->count && pooled->min == full->min &&
		    pooled->max == full->max);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		if (pooled->buckets[i] != full->buckets[i])
			fail_msg("bucket %u: pooled %llu, full %llu", i,
				 (unsigned long long)pooled->buckets[i],
				 (unsigned long long)full->buckets[i]);
	free(sa);
	free(sb);
	free(copy);
	free(a);
	free(b);
	free(full);
	free(pooled);
}

/* One read back from a file is merged only when it fits the scheme: each change below
 * (a bound off by one, buckets out of order, counts that do not add up, a min or max
 * outside the end buckets, an empty bucket) makes it one that does not. */
static void test_sparse_fits(void **state)
{
	struct hist *h = hist_new();
	struct hist_sparse *s, *t;
	uint64_t r = 0x243f6a8885a308d3ULL;

	for (int k = 0; k < 5000; k++)
		hist_record(h, 1000 + rng_next(&r) % 100000);
	s = hist_sparse_of(h);
	assert_non_null(s);
	assert_true(s->n > 10);
	assert_true(hist_sparse_fits(s));
	for (int change = 0; change < 7; change++) {
		t = hist_sparse_dup(s);
		assert_non_null(t);
		switch (change) {
		case 0:
			t->bin[3].low++;
			break;
		case 1:
			t->bin[3].high--;
			break;
		case 2: {
			struct lat_bucket b = t->bin[3];
			t->bin[3] = t->bin[4];
			t->bin[4] = b;
			break;
		}
		case 3:
			t->count++;
			break;
		case 4:
			t->min = t->bin[0].high + 1;
			break;
		case 5:
			t->max = t->bin[t->n - 1].low - 1;
			break;
		default:
			t->count -= t->bin[2].count;
			t->bin[2].count = 0;
			break;
		}
		if (hist_sparse_fits(t))
			fail_msg("change %d: still fits", change);
		free(t);
	}
	free(s);
	free(h);
}

static void test_empty_and_invalid(void **state)
{
	static const uint32_t ps[] = {0, 500000, 999000, HIST_PPM};
	static const uint32_t bad[] = {HIST_PPM + 1, UINT32_MAX};
	struct hist *h = hist_new();

	assert_true(h->count == 0 && h->min == UINT64_MAX && h->max == 0);
	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++)
		assert_true(isnan(hist_percentile(h, ps[k])));

	hist_record(h, 42);
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)
		assert_true(isnan(hist_percentile(h, bad[k])));
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_layout_constants),
	    cmocka_unit_test(test_buckets_contiguous),
	    cmocka_unit_test(test_every_bucket_within_bound),
	    cmocka_unit_test(test_value_sweep),
	    cmocka_unit_test(test_percentiles_uniform),
	    cmocka_unit_test(test_percentiles_clamped),
	    cmocka_unit_test(test_rank_exact),
	    cmocka_unit_test(test_percentiles_are_order_statistics),
	    cmocka_unit_test(test_merge_equals_single),
	    cmocka_unit_test(test_sparse_merge_equals_full),
	    cmocka_unit_test(test_sparse_fits),
	    cmocka_unit_test(test_empty_and_invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
