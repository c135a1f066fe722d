/* Access distributions (see distrib.h). */
#include "engine/io/distrib.h"

#include <math.h>
#include <string.h>

#include "lib/rng.h"

/* log1p(x) / x and expm1(x) / x, with their series near 0 where the quotient loses digits. */
static double log1p_over(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double expm1_over(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

/* The zipf hat: h(x) = x^-theta, its integral H(x) = (x^(1-theta) - 1) / (1 - theta) (log x
 * when theta is 1), and H's inverse. */
static double zipf_h(const struct distrib *d, double x)
{
	return exp(-d->theta * log(x));
}

static double zipf_hint(const struct distrib *d, double x)
{
	double lx = log(x);

	return expm1_over((1 - d->theta) * lx) * lx;
}

static double zipf_hinv(const struct distrib *d, double x)
{
	double t = x * (1 - d->theta);

	if (t < -1)
		t = -1; /* rounding at the end of the range */
	return exp(log1p_over(t) * x);
}

static void zoned_init(struct distrib *d, const struct wl_dist *spec)
{
	double acc = 0, size = 0;

	d->nzones = spec->nzones;
	for (uint32_t i = 0; i < spec->nzones; i++) {
		d->lo[i] = (uint64_t)(size / 100 * (double)d->n);
		acc += spec->zone_access[i];
		size += spec->zone_size[i];
		d->cum[i] = acc / 100;
		d->hi[i] = i + 1 == spec->nzones ? d->n : (uint64_t)(size / 100 * (double)d->n);
		if (d->hi[i] > d->n)
			d->hi[i] = d->n;
	}
	d->cum[d->nzones - 1] = 1; /* whatever rounding left */
}

void distrib_init(struct distrib *d, const struct wl_dist *spec, uint64_t n, uint64_t seed)
{
	memset(d, 0, sizeof(*d));
	d->kind = spec->kind;
	d->n = n;
	randmap_init(&d->perm, n, seed ^ 0x2545f4914f6cdd1dull, 0);
	switch (spec->kind) {
	case WL_DIST_ZIPF:
		d->theta = spec->param;
		d->hx1 = zipf_hint(d, 1.5) - 1;
		d->hn = zipf_hint(d, (double)n + 0.5);
		d->s = 2 - zipf_hinv(d, zipf_hint(d, 2.5) - zipf_h(d, 2));
		break;
	case WL_DIST_PARETO:
		d->pow = log(spec->param) / log(1 - spec->param);
		break;
	case WL_DIST_NORMAL:
		d->mean = spec->center * (double)n;
		d->sigma = spec->param / 100 * (double)n;
		break;
	case WL_DIST_ZONED:
		zoned_init(d, spec);
		break;
	case WL_DIST_UNIFORM:
		break;
	}
}

/* A rank 1..n of the zipf distribution. */
static uint64_t zipf_rank(const struct distrib *d, uint64_t *rng)
{
	for (;;) {
		double u = d->hn + rng_uniform(rng) * (d->hx1 - d->hn);
		double x = zipf_hinv(d, u);
		double k = floor(x + 0.5);
		if (k < 1)
			k = 1;
		else if (k > (double)d->n)
			k = (double)d->n;
		if (k - x <= d->s || u >= zipf_hint(d, k + 0.5) - zipf_h(d, k))
			return (uint64_t)k;
	}
}

static uint64_t normal_block(const struct distrib *d, uint64_t *rng)
{
	double x = d->mean;

	/* Redraw what falls outside: a truncated normal. 64 misses in a row would need sigma
	 * far beyond the region, which the parser refuses; the mean is the fallback. */
	for (int tries = 0; tries < 64; tries++) {
		double u1 = rng_uniform(rng), u2 = rng_uniform(rng);
		double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
		double v = d->mean + d->sigma * z;
		if (v >= 0 && v < (double)d->n) {
			x = v;
			break;
		}
	}
	return x >= (double)d->n ? d->n - 1 : (uint64_t)x;
}

static uint64_t zoned_block(const struct distrib *d, uint64_t *rng)
{
	double u = rng_uniform(rng);
	uint32_t z = 0;

	while (z + 1 < d->nzones && u >= d->cum[z])
		z++;
	if (d->hi[z] <= d->lo[z])
		return d->lo[z] < d->n ? d->lo[z] : d->n - 1; /* a zone smaller than a block */
	return d->lo[z] +
	       (uint64_t)(((unsigned __int128)rng_next(rng) * (d->hi[z] - d->lo[z])) >> 64);
}

uint64_t distrib_next(struct distrib *d, uint64_t *rng)
{
	uint64_t rank;

	switch (d->kind) {
	case WL_DIST_ZIPF:
		rank = zipf_rank(d, rng) - 1;
		break;
	case WL_DIST_PARETO:
		rank = (uint64_t)((double)(d->n - 1) * pow(rng_uniform(rng), d->pow));
		if (rank >= d->n)
			rank = d->n - 1;
		break;
	case WL_DIST_NORMAL:
		return normal_block(d, rng);
	case WL_DIST_ZONED:
		return zoned_block(d, rng);
	default:
		return (uint64_t)(((unsigned __int128)rng_next(rng) * d->n) >> 64);
	}
	return randmap_at(&d->perm, rank);
}
