/*
 * Latency histogram: bucket bounds, merging and percentile lookup. The hot-path recording
 * functions are inline in hist.h.
 */
#include "engine/stats/hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h->buckets, 0, sizeof(h->buckets));
	h->count = 0;
	h->min = UINT64_MAX;
	h->max = 0;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t hist_bucket_low(unsigned i)
{
	if (i < HIST_EXACT_LIMIT)
		return i;
	unsigned j = i - HIST_EXACT_LIMIT;
	unsigned e = HIST_EXACT_BITS + j / HIST_SUB_BUCKETS;
	uint64_t sub = j % HIST_SUB_BUCKETS;
	return (UINT64_C(1) << e) + (sub << (e - HIST_SUB_BITS));
}

uint64_t hist_bucket_high(unsigned i)
{
	if (i < HIST_EXACT_LIMIT)
		return i;
	unsigned e = HIST_EXACT_BITS + (i - HIST_EXACT_LIMIT) / HIST_SUB_BUCKETS;
	/* The top bucket ends at exactly UINT64_MAX, so this sum never wraps. */
	return hist_bucket_low(i) + ((UINT64_C(1) << (e - HIST_SUB_BITS)) - 1);
}

/* Midpoint in double: adding low and high as integers could overflow in the top octave. */
static double hist_bucket_mid(unsigned i)
{
	uint64_t low = hist_bucket_low(i);
	return (double)low + (double)(hist_bucket_high(i) - low) / 2.0;
}

uint64_t hist_rank(uint64_t count, uint32_t ppm)
{
	/* ppm * count could overflow; split count = q * HIST_PPM + r, so that
	 * ceil(ppm * count / HIST_PPM) = ppm * q + ceil(ppm * r / HIST_PPM), where ppm * q <= count
	 * and ppm * r < 10^12. */
	uint64_t q = count / HIST_PPM, r = count % HIST_PPM;
	uint64_t rank = (uint64_t)ppm * q + ((uint64_t)ppm * r + HIST_PPM - 1) / HIST_PPM;
	return rank == 0 && count > 0 ? 1 : rank;
}

double hist_percentile(const struct hist *h, uint32_t ppm)
{
	if (h->count == 0 || ppm > HIST_PPM)
		return NAN;

	uint64_t rank = hist_rank(h->count, ppm);
	if (rank >= h->count)
		return (double)h->max;
	if (rank == 1)
		return (double)h->min;

	uint64_t seen = 0;
	unsigned i;
	for (i = 0; i < HIST_NBUCKETS - 1; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}

	/* Never report beyond what was observed; the midpoint can lie past either extreme. */
	double v = hist_bucket_mid(i);
	double lo = (double)h->min, hi = (double)h->max;
	return v < lo ? lo : v > hi ? hi : v;
}

double hist_max_relative_error(void)
{
	return 1.0 / (double)(2u << HIST_SUB_BITS);
}

struct hist_sparse *hist_sparse_of(const struct hist *h)
{
	struct hist_sparse *s;
	uint32_t n = 0;

	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		n += h->buckets[i] != 0;
	if (!(s = malloc(sizeof(*s) + n * sizeof(s->bin[0]))))
		return NULL;
	s->count = h->count;
	s->min = h->min;
	s->max = h->max;
	s->n = 0;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		if (h->buckets[i])
			s->bin[s->n++] = (struct lat_bucket){hist_bucket_low(i),
							     hist_bucket_high(i), h->buckets[i]};
	return s;
}

struct hist_sparse *hist_sparse_dup(const struct hist_sparse *s)
{
	size_t size = s ? sizeof(*s) + s->n * sizeof(s->bin[0]) : 0;
	struct hist_sparse *d = s ? malloc(size) : NULL;

	if (d)
		memcpy(d, s, size);
	return d;
}

bool hist_sparse_fits(const struct hist_sparse *s)
{
	uint64_t sum = 0;

	if (!s->n || s->min > s->max || s->min < s->bin[0].low || s->min > s->bin[0].high ||
	    s->max < s->bin[s->n - 1].low || s->max > s->bin[s->n - 1].high)
		return false;
	for (uint32_t k = 0; k < s->n; k++) {
		const struct lat_bucket *b = &s->bin[k];
		unsigned i = hist_bucket_of(b->low);
		if (hist_bucket_low(i) != b->low || hist_bucket_high(i) != b->high || !b->count ||
		    (k && b->low <= s->bin[k - 1].high) || sum + b->count < sum)
			return false;
		sum += b->count;
	}
	return sum == s->count;
}

void hist_merge_sparse(struct hist *dst, const struct hist_sparse *s)
{
	for (uint32_t k = 0; k < s->n; k++)
		dst->buckets[hist_bucket_of(s->bin[k].low)] += s->bin[k].count;
	dst->count += s->count;
	if (s->min < dst->min)
		dst->min = s->min;
	if (s->max > dst->max)
		dst->max = s->max;
}
