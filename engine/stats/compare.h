/* Comparing two configurations: the difference of means with its confidence interval, by
 * Welch's unequal-variance t procedure (unpaired), or a paired t procedure when trial i of
 * each ran side by side. */
#ifndef IOTRIAL_COMPARE_H
#define IOTRIAL_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

struct cmp_result {
	double mean_a, mean_b;
	double diff;		/* mean(a) - mean(b) */
	double ci_low, ci_high; /* of diff */
	double df;		/* degrees of freedom (Welch-Satterthwaite, or n-1 paired) */
	double ratio;		/* mean(a) / mean(b) */
	bool significant;	/* the interval excludes 0 */
	const char *test;	/* "welch" or "paired-t" */
	size_t na, nb;
};

/* Welch: needs na, nb >= 2; otherwise diff and ratio are set and the rest is NAN, not
 * significant. Returns 0 or -EINVAL (an empty side). */
int cmp_welch(const double *a, size_t na, const double *b, size_t nb, double confidence,
	      struct cmp_result *out);

/* Paired t over a[i] - b[i], i < n; needs n >= 2 for an interval. */
int cmp_paired(const double *a, const double *b, size_t n, double confidence,
	       struct cmp_result *out);

/* Welch-Satterthwaite degrees of freedom from the two sample variances and sizes. */
double cmp_welch_df(double va, size_t na, double vb, size_t nb);

#endif
