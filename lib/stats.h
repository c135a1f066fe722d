/*
 * Statistics over repeated measurements: streaming mean/variance (Welford, mergeable across
 * workers and ranks), normal and Student-t quantiles, a summary with a t confidence interval,
 * and how many runs a target error needs. Plain values only: reporters do the formatting.
 */
#ifndef IOTRIAL_STATS_H
#define IOTRIAL_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Running mean and sum of squared deviations; never raw sums of squares, which cancel. */
struct welford {
	uint64_t n;
	double mean;
	double m2; /* sum of (x - mean)^2 */
};

/* Empty accumulator. Never fails. */
void welford_init(struct welford *w);

/*
 * Add one sample @x to @w. The mean is stored in a double, so the variance's relative error grows
 * like ulp(mean) / stddev: at a 1e9 ns mean it stays below 1e-9 for a stddev above ~100 ns.
 */
static inline void welford_add(struct welford *w, double x)
{
	w->n++;
	double d = x - w->mean;
	w->mean += d / (double)w->n;
	w->m2 += d * (x - w->mean);
}

/*
 * Fold @src into @dst as if every sample of @src had been added to @dst (Chan, Golub and
 * LeVeque's pairwise formula); @src is unchanged. Either side may be empty.
 */
void welford_merge(struct welford *dst, const struct welford *src);

/* Sample standard deviation sqrt(m2 / (n - 1)); NAN when n < 2. */
double welford_stddev(const struct welford *w);

/* Root mean square of the samples, sqrt(mean^2 + m2 / n); NAN when n == 0. */
double welford_rms(const struct welford *w);

/*
 * Inverse standard normal CDF (Wichura's AS241, about 1e-16 relative) for 0 < @p < 1;
 * NAN otherwise.
 */
double stat_normal_quantile(double p);

/*
 * Inverse Student-t CDF for 0 < @p < 1 and real @df > 0 (fractional df, as Welch's test needs;
 * df = INFINITY gives the normal quantile). Accurate to about 1e-11 relative. NAN for @p outside
 * (0, 1) or @df not > 0; may be +-INFINITY for tiny df, where the quantile exceeds DBL_MAX.
 */
double stat_t_quantile(double p, double df);

struct stat_summary {
	size_t n;
	double mean;
	double stddev; /* sample, n - 1 */
	double cov;    /* stddev / |mean| */
	double median; /* mean of the two middle values when n is even */
	double min;
	double max;
	double ci_low; /* two-sided Student-t interval for the mean */
	double ci_high;
	double confidence; /* the level the interval was computed at, e.g. 0.95 */
};

/*
 * Summarize @n samples @x (not modified; sorted in a private copy) with a two-sided
 * @confidence interval mean +- t((1 + c) / 2, n - 1) * s / sqrt(n). What cannot be computed is
 * NAN: everything but n and confidence when n == 0; stddev, cov and the interval when n == 1;
 * cov when the mean is 0. Returns 0, -EINVAL (@out NULL, @x NULL with n > 0, a sample not
 * finite, or @confidence outside (0, 1)) or -ENOMEM; on error @out is untouched.
 */
int stat_summarize(const double *x, size_t n, double confidence, struct stat_summary *out);

/*
 * Runs needed for the mean to lie within a relative @error (0.03 = 3%) of the true mean at
 * two-sided @confidence: ceil(((z * stddev) / (error * mean))^2), z = normal quantile of
 * (1 + c) / 2. The square is rounded up, but a value within 1e-12 relative of an integer counts
 * as that integer so that rounding noise does not add a run; 0 when @stddev is 0. NAN when not
 * computable: @stddev NAN or negative, @mean 0 or not finite, @error not > 0, @confidence
 * outside (0, 1).
 */
double stat_required_runs(double stddev, double mean, double confidence, double error);

#endif /* IOTRIAL_STATS_H */
