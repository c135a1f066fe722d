/*
 * Change points: where a series' level changes for good. Binary segmentation on the mean
 * (least squares), with a BIC-like penalty on a noise level estimated from the series
 * itself, a minimum segment length and a minimum effect size; a candidate must also fit the
 * data better than a straight line does, so a slow drift is not taken for a step.
 * Plain numbers in, indexes out: the series is built and the result reported elsewhere.
 */
#ifndef IOTRIAL_CHANGEPOINT_H
#define IOTRIAL_CHANGEPOINT_H

#include <stddef.h>

/* The defaults, as docs/statistics.md states them. */
#define CP_MIN_SEGMENT_FRAC 0.05 /* a level must hold for 5% of the series' points ... */
#define CP_MIN_SEGMENT_PTS  5	 /* ... and at least this many */
#define CP_MIN_EFFECT	    0.10 /* |after - before| >= 10% of the larger level */
#define CP_PENALTY	    4.0	 /* a split must cut the squared error by 4 sigma^2 ln n */
#define CP_MAX		    16	 /* change points reported per series, at most */

struct cp_params {
	double min_segment_frac;
	size_t min_segment_pts;
	double min_effect;
	double penalty;
};

/* The defaults above. */
struct cp_params cp_defaults(void);

/*
 * Find the lasting changes of level in y[0..n-1] (finite values, in order). Writes the
 * index of the first point of each new level, ascending, into at[0..max-1] and returns how
 * many (0 when the series is flat, drifts, or is too short: fewer than two minimum
 * segments). Returns -ENOMEM when it cannot allocate its working arrays.
 */
int cp_detect(const double *y, size_t n, const struct cp_params *p, size_t *at, size_t max);

/* The robust noise level of y: the median absolute first difference, scaled to a standard
 * deviation (1.4826 / sqrt 2), so steps barely move it. 0 for fewer than 3 points. */
double cp_noise(const double *y, size_t n);

#endif
