/* A latency histogram as the model keeps it: its non-empty buckets, each with its bounds, so
 * that results.json can write and read it without knowing the bucket scheme that made it
 * (engine/stats/hist.h makes, checks and merges them). */
#ifndef IOTRIAL_LAT_HIST_H
#define IOTRIAL_LAT_HIST_H

#include <stdint.h>

/* One bucket of a latency histogram: the values from `low` to `high` (ns, both inclusive). */
struct lat_bucket {
	uint64_t low, high, count;
};

/* A trial's latency histogram of one kind, its non-empty buckets only, lowest first: one
 * block of memory, freed with free(). `count` is the sum of the buckets' counts; `min` and
 * `max` are exact. */
struct hist_sparse {
	uint64_t count, min, max;
	uint32_t n;
	struct lat_bucket bin[];
};

#endif /* IOTRIAL_LAT_HIST_H */
