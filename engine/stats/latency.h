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

/* The non-empty buckets of `h`, lowest first, into a new array (*out, *n of them; freed with
 * free): log_histogram's export. Returns 0 or -ENOMEM (then *out is NULL). */
int latency_buckets(const struct hist *h, struct lat_bucket **out, uint32_t *n);

#endif
