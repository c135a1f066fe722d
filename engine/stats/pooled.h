/* The summary's latency percentiles: the histograms of an instance's kept trials merged into
 * one and read at the instance's percentiles (its job's `percentiles`), so p99 is the 99th
 * percentile of every I/O of those trials, not a mean of each trial's p99. */
#ifndef IOTRIAL_POOLED_H
#define IOTRIAL_POOLED_H

#include "model/results.h"

/* Fill ir->summary.pooled from the trials' histograms (trial_result.pool_hist) of the kept trials
 * (every measured trial of background load): for each kind, ios, exact min and max and the
 * nearest-rank percentiles of the merged histogram. NAN (ios 0) for a kind no kept trial
 * measured, or when a kept trial that measured it has no histogram that fits the bucket
 * scheme (kept from a checkpoint that did not keep one, or out of memory): never a figure
 * over part of the I/Os; then no_hist counts those trials. Call after the kept trials are
 * chosen. */
void pooled_summarize(struct instance_result *ir);

#endif
