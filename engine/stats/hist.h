/*
 * Fixed-size log-linear latency histogram (HdrHistogram-like) of uint64 nanosecond values.
 * Recording is a clz and a shift, so workers can call it per I/O; histograms from workers
 * and runs merge bucket-wise; percentiles carry a relative error below 1/128.
 */
#ifndef IOTRIAL_HIST_H
#define IOTRIAL_HIST_H

#include <stdbool.h>
#include <stdint.h>

#include "model/lat_hist.h"

/*
 * Values below HIST_EXACT_LIMIT get one bucket each. Every power of two [2^e, 2^(e+1)) with
 * e = HIST_EXACT_BITS..63 is split into HIST_SUB_BUCKETS equal sub-buckets, so the whole uint64
 * range is covered and nothing saturates. Half a sub-bucket width over the smallest value in
 * the octave is 2^(e-7) / 2^e = 1/128, the bound on the error of a reported midpoint.
 */
#define HIST_SUB_BITS	 6
#define HIST_SUB_BUCKETS (1u << HIST_SUB_BITS) /* 64 */
#define HIST_EXACT_BITS	 7
#define HIST_EXACT_LIMIT (1u << HIST_EXACT_BITS)			      /* 128 */
#define HIST_OCTAVES	 (64 - HIST_EXACT_BITS)				      /* 57: e = 7..63 */
#define HIST_NBUCKETS	 (HIST_EXACT_LIMIT + HIST_OCTAVES * HIST_SUB_BUCKETS) /* 3776 */

struct hist {
	uint64_t count; /* values recorded */
	uint64_t min;	/* exact; UINT64_MAX when empty */
	uint64_t max;	/* exact; 0 when empty */
	uint64_t buckets[HIST_NBUCKETS];
};

/* Empty @h: all buckets zero, count 0, min UINT64_MAX, max 0. Never fails. */
void hist_init(struct hist *h);

/*
 * Index (0..HIST_NBUCKETS-1) of the bucket holding @v. Above the exact range, the octave comes
 * from the position of the top bit and the sub-bucket from the HIST_SUB_BITS bits below it.
 */
static inline unsigned hist_bucket_of(uint64_t v)
{
	if (v < HIST_EXACT_LIMIT)
		return (unsigned)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v);
	unsigned sub = (unsigned)(v >> (e - HIST_SUB_BITS)) & (HIST_SUB_BUCKETS - 1);
	return HIST_EXACT_LIMIT + (e - HIST_EXACT_BITS) * HIST_SUB_BUCKETS + sub;
}

/* Add one value to @h. Not thread-safe: give each worker its own hist and merge them. */
static inline void hist_record(struct hist *h, uint64_t v)
{
	h->buckets[hist_bucket_of(v)]++;
	h->count++;
	h->min = v < h->min ? v : h->min;
	h->max = v > h->max ? v : h->max;
}

/* Add every bucket of @src into @dst and combine count, min and max; @src is unchanged. */
void hist_merge(struct hist *dst, const struct hist *src);

/*
 * Smallest and largest value (both inclusive) that land in bucket @i. Consecutive buckets are
 * contiguous: hist_bucket_high(i) + 1 == hist_bucket_low(i + 1). @i must be < HIST_NBUCKETS.
 */
uint64_t hist_bucket_low(unsigned i);
uint64_t hist_bucket_high(unsigned i);

/* Percentiles are given in parts per million: 999000 is p99.9. Integers, so that the rank
 * of p99.9 over 1000 values is exactly 999: 0.999 has no exact double, and in floating
 * point ceil(99.9 / 100 * 1000) is 1000, the maximum. */
#define HIST_PPM 1000000u

/*
 * The nearest-rank percentile @ppm (0..HIST_PPM, in parts per million) of the values in @h:
 * the value of rank r = max(1, ceil(ppm * count / HIST_PPM)) in ascending order, r computed
 * in integers (hist_rank()). Ranks 1 and count are known exactly, so they report min and
 * max themselves (p0 is the minimum, p100 the maximum); any other rank reports the midpoint
 * of the bucket holding that value, clamped into the exact [min, max], within
 * hist_max_relative_error() of it. NAN when @h is empty or @ppm > HIST_PPM.
 */
double hist_percentile(const struct hist *h, uint32_t ppm);

/* The nearest rank of @ppm among @count values, max(1, ceil(ppm * count / HIST_PPM)), exact
 * for every uint64 count; 0 when @count is 0. @ppm must be <= HIST_PPM. */
uint64_t hist_rank(uint64_t count, uint32_t ppm);

/* Bound on |reported - true| / true for any value reported by hist_percentile(): 1/128. */
double hist_max_relative_error(void);

/* A histogram's non-empty buckets, for keeping many (one per trial) until they are pooled:
 * struct hist_sparse (model/lat_hist.h), each bucket with its bounds, one block of memory,
 * freed with free(). */

/* @h's non-empty buckets (NULL: out of memory). */
struct hist_sparse *hist_sparse_of(const struct hist *h);

/* A copy of @s (NULL: @s is NULL, or out of memory). */
struct hist_sparse *hist_sparse_dup(const struct hist_sparse *s);

/*
 * Can @s be merged: is each bin a bucket of this scheme (its low and high those of the bucket
 * holding low), ascending, with a count above 0, the counts adding up to s->count, and min
 * and max in the first and last bin? One read back from a file may be anything.
 */
bool hist_sparse_fits(const struct hist_sparse *s);

/* Add @s (one that fits) into @dst, as hist_merge() does a full histogram. */
void hist_merge_sparse(struct hist *dst, const struct hist_sparse *s);

#endif /* IOTRIAL_HIST_H */
