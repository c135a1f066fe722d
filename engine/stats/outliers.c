/* Outlier policies (see outliers.h). */
#include "engine/stats/outliers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->v != y->v)
		return (x->v > y->v) - (x->v < y->v);
	return (x->i > y->i) - (x->i < y->i); /* ties: the earlier trial ranks first */
}

double outliers_quantile(const double *sorted, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t lo = (size_t)floor(h);

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return outliers_quantile(v, n, 0.5);
}

size_t outliers_apply(const double *x, size_t n, enum spec_outliers policy, unsigned trim_low,
		      unsigned trim_high, double k, bool *keep)
{
	double *s = NULL;
	size_t kept = 0;

	for (size_t i = 0; i < n; i++)
		keep[i] = true;
	if (policy == OUTLIERS_NONE || n == 0)
		return n;
	if (policy == OUTLIERS_TRIM) {
		struct ranked *r = malloc(n * sizeof(*r));
		if (!r)
			return n;
		for (size_t i = 0; i < n; i++)
			r[i] = (struct ranked){x[i], i};
		qsort(r, n, sizeof(*r), cmp_ranked);
		for (size_t i = 0; i < n; i++)
			if (i < trim_low || i + trim_high >= n)
				keep[r[i].i] = false;
		free(r);
		goto count;
	}
	if (!(s = malloc(n * sizeof(*s))))
		return n;
	memcpy(s, x, n * sizeof(*s));
	if (policy == OUTLIERS_IQR) {
		qsort(s, n, sizeof(*s), cmp_double);
		double q1 = outliers_quantile(s, n, 0.25), q3 = outliers_quantile(s, n, 0.75);
		double lo = q1 - k * (q3 - q1), hi = q3 + k * (q3 - q1);
		for (size_t i = 0; i < n; i++)
			keep[i] = x[i] >= lo && x[i] <= hi;
	} else {
		/* Iglewicz and Hoaglin's modified z-score: 0.6745 (x - median) / MAD. With a MAD
		 * of 0 (most values equal) the score is undefined and nothing is dropped. */
		double med = median_of(s, n), mad;
		for (size_t i = 0; i < n; i++)
			s[i] = fabs(x[i] - med);
		mad = median_of(s, n);
		for (size_t i = 0; i < n && mad > 0; i++)
			keep[i] = fabs(0.6745 * (x[i] - med) / mad) <= k;
	}
	free(s);
count:
	for (size_t i = 0; i < n; i++)
		kept += keep[i];
	return kept;
}
