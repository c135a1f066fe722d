/* A trial's or a worker's latency figures (struct lat_summary, model/results.h) from the
 * histogram and the moments of the same values, for the run and the ranks' reduction alike. */
#ifndef IOTRIAL_LATENCY_H
#define IOTRIAL_LATENCY_H

#include "engine/stats/hist.h"
#include "lib/stats.h"
#include "model/results.h"

/* Fill `l`: min and max exact from `h`, mean, stddev and rms from `w`, percentiles from `h`
 * (within its bounded relative error). `h` must hold at least one value. */
void latency_summarize(struct lat_summary *l, const struct hist *h, const struct welford *w);

#endif
