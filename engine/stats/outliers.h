/* Outlier policies over one metric of an instance's trials: trim K low and K high (the copy
 * experiment's rule), Tukey's IQR fences, or the median absolute deviation. They mark what
 * is kept; they never compute the summary (stats.c does). */
#ifndef IOTRIAL_OUTLIERS_H
#define IOTRIAL_OUTLIERS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/spec.h"

/* Decide for each x[i] whether `policy` keeps it: keep[i] true or false. `k` is the IQR
 * fence factor or the MAD threshold. Returns the number kept. */
size_t outliers_apply(const double *x, size_t n, enum spec_outliers policy, unsigned trim_low,
		      unsigned trim_high, double k, bool *keep);

/* The p-quantile (0..1) of sorted x[0..n) by linear interpolation (Hyndman-Fan type 7, R's
 * default). n > 0. */
double outliers_quantile(const double *sorted, size_t n, double p);

#endif
