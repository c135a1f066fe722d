/* Change points by binary segmentation on the mean (see changepoint.h). Sums are prefix sums
 * of the series minus its mean, so a segment's squared error costs O(1) and large levels
 * (bytes per second) do not cancel. */
#include "engine/stats/changepoint.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cp_ctx {
	const double *y;
	size_t n, minseg;
	double *s1, *s2; /* prefix sums of y - mean and of its square; n + 1 each */
	double *tmp;	 /* n, for medians */
	double mean, sigma2, pen;
	size_t *at, nat, cap;
};

struct cp_params cp_defaults(void)
{
	return (struct cp_params){CP_MIN_SEGMENT_FRAC, CP_MIN_SEGMENT_PTS, CP_MIN_EFFECT,
				  CP_PENALTY};
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double cp_noise(const double *y, size_t n)
{
	double *d, med;

	if (n < 3 || !(d = malloc((n - 1) * sizeof(*d))))
		return 0;
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = fabs(y[i + 1] - y[i]);
	qsort(d, n - 1, sizeof(*d), cmp_double);
	med = (n - 1) % 2 ? d[(n - 1) / 2] : (d[(n - 1) / 2 - 1] + d[(n - 1) / 2]) / 2;
	free(d);
	/* A difference of two independent points has sqrt(2) times their deviation. */
	return 1.4826 * med / sqrt(2);
}

/* The squared error of [a, b) about its own mean. */
static double sse(const struct cp_ctx *c, size_t a, size_t b)
{
	double s = c->s1[b] - c->s1[a], v = c->s2[b] - c->s2[a] - s * s / (double)(b - a);

	return v > 0 ? v : 0;
}

static double seg_mean(const struct cp_ctx *c, size_t a, size_t b)
{
	return c->mean + (c->s1[b] - c->s1[a]) / (double)(b - a);
}

/* The median of y[a, b), in the context's scratch array. */
static double median(const struct cp_ctx *c, size_t a, size_t b)
{
	size_t m = b - a;

	memcpy(c->tmp, c->y + a, m * sizeof(*c->tmp));
	qsort(c->tmp, m, sizeof(*c->tmp), cmp_double);
	return m % 2 ? c->tmp[m / 2] : (c->tmp[m / 2 - 1] + c->tmp[m / 2]) / 2;
}

/* The squared error of [a, b) about its least-squares line. */
static double line_sse(const struct cp_ctx *c, size_t a, size_t b)
{
	double m = (double)(b - a), xm = (m - 1) / 2, ym = seg_mean(c, a, b) - c->mean;
	double sxy = 0, sxx = 0, slope;

	for (size_t i = a; i < b; i++) {
		double x = (double)(i - a) - xm;
		sxy += x * (c->y[i] - c->mean - ym);
		sxx += x * x;
	}
	slope = sxx > 0 ? sxy / sxx : 0;
	/* What the line explains comes off the error about the mean. */
	double v = sse(c, a, b) - slope * sxy;
	return v > 0 ? v : 0;
}

/* The split of [a, b) that cuts the squared error most; 0 when no split fits. */
static size_t best_split(const struct cp_ctx *c, size_t a, size_t b, double *gain)
{
	double whole = sse(c, a, b), best = -1;
	size_t k = 0;

	for (size_t i = a + c->minseg; i + c->minseg <= b; i++) {
		double g = whole - sse(c, a, i) - sse(c, i, b);
		if (g > best) {
			best = g;
			k = i;
		}
	}
	*gain = best;
	return k;
}

static void add_at(struct cp_ctx *c, size_t k)
{
	size_t i = c->nat;

	if (c->nat == c->cap)
		return;
	while (i > 0 && c->at[i - 1] > k) {
		c->at[i] = c->at[i - 1];
		i--;
	}
	c->at[i] = k;
	c->nat++;
}

static void segment(struct cp_ctx *c, size_t a, size_t b)
{
	double gain;
	size_t k;

	if (b - a < 2 * c->minseg || c->nat == c->cap)
		return;
	k = best_split(c, a, b, &gain);
	if (!k || gain <= c->pen)
		return;
	add_at(c, k);
	segment(c, a, k);
	segment(c, k, b);
}

/* How well change point i stands among its neighbours: below 0 when it does not (no longer
 * significant, no better than a line through its two segments, or too small a change). */
static double standing(const struct cp_ctx *c, size_t i, double min_effect)
{
	size_t a = i ? c->at[i - 1] : 0, k = c->at[i], b = i + 1 < c->nat ? c->at[i + 1] : c->n;
	double step = sse(c, a, k) + sse(c, k, b), gain = sse(c, a, b) - step;
	/* Medians for the effect: a brief burst inside a segment moves its mean, not its
	 * median, so it cannot pass for a lasting level of its own. */
	double before = median(c, a, k), after = median(c, k, b);
	double big = fmax(fabs(before), fabs(after));

	if (gain <= c->pen)
		return -1;
	/* A step has one parameter more than a line: it must earn it (BIC, one sigma^2 ln n). */
	if (line_sse(c, a, b) - step <= c->sigma2 * log((double)c->n))
		return -1;
	if (!(big > 0) || fabs(after - before) < min_effect * big)
		return -1;
	return gain;
}

/* Drop change points that do not stand, the weakest first, until all that remain do. */
static void prune(struct cp_ctx *c, double min_effect)
{
	for (;;) {
		size_t worst = c->nat;
		double worst_gain = DBL_MAX;
		for (size_t i = 0; i < c->nat; i++) {
			size_t a = i ? c->at[i - 1] : 0, b = i + 1 < c->nat ? c->at[i + 1] : c->n;
			if (standing(c, i, min_effect) >= 0)
				continue;
			double g = sse(c, a, b) - sse(c, a, c->at[i]) - sse(c, c->at[i], b);
			if (g < worst_gain) {
				worst_gain = g;
				worst = i;
			}
		}
		if (worst == c->nat)
			return;
		memmove(&c->at[worst], &c->at[worst + 1], (c->nat - worst - 1) * sizeof(*c->at));
		c->nat--;
	}
}

int cp_detect(const double *y, size_t n, const struct cp_params *p, size_t *at, size_t max)
{
	struct cp_ctx c = {.y = y, .n = n, .at = at, .cap = max};
	double sigma, scale = 0;

	c.minseg = (size_t)ceil(p->min_segment_frac * (double)n);
	if (c.minseg < p->min_segment_pts)
		c.minseg = p->min_segment_pts;
	if (c.minseg < 1)
		c.minseg = 1;
	if (n < 2 * c.minseg || max == 0)
		return 0;
	c.s1 = malloc((n + 1) * sizeof(*c.s1));
	c.s2 = malloc((n + 1) * sizeof(*c.s2));
	c.tmp = malloc(n * sizeof(*c.tmp));
	if (!c.s1 || !c.s2 || !c.tmp) {
		free(c.s1);
		free(c.s2);
		free(c.tmp);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		c.mean += y[i] / (double)n;
		scale = fmax(scale, fabs(y[i]));
	}
	c.s1[0] = c.s2[0] = 0;
	for (size_t i = 0; i < n; i++) {
		double d = y[i] - c.mean;
		c.s1[i + 1] = c.s1[i] + d;
		c.s2[i + 1] = c.s2[i] + d * d;
	}
	sigma = cp_noise(y, n);
	/* A noiseless series still needs a floor, or rounding would count as a change. */
	c.sigma2 = fmax(sigma * sigma, fmax(1e-18 * scale * scale, DBL_MIN));
	/* ln n alone lets short series, whose noise estimate is itself noisy, raise false
	 * alarms (about 2% at 64 points): below 256 points the penalty stays at ln 256. */
	c.pen = p->penalty * c.sigma2 * log(n < 256 ? 256.0 : (double)n);
	segment(&c, 0, n);
	prune(&c, p->min_effect);
	free(c.s1);
	free(c.s2);
	free(c.tmp);
	return (int)c.nat;
}
