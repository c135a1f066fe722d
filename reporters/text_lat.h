/* The text summary's latency table: each measured instance's pooled percentiles (its
 * summary.pooled, at its job's `percentiles`), per direction for mixed workloads, and the
 * submission and completion latencies with submit_latency. */
#ifndef IOTRIAL_TEXT_LAT_H
#define IOTRIAL_TEXT_LAT_H

#include <stdio.h>

#include "model/results.h"

/* Print the table (nothing when no instance has percentiles, as in a results.json from
 * before them). Returns 0 or -ENOMEM. */
int text_latency(const struct results *r, FILE *out);

#endif
