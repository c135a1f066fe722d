/* Latency figures from a histogram and moments (see latency.h). */
#include "engine/stats/latency.h"

#include <errno.h>
#include <stdlib.h>

void latency_summarize(struct lat_summary *l, const struct hist *h, const struct welford *w)
{
	l->min = (double)h->min;
	l->max = (double)h->max;
	l->mean = w->mean;
	l->stddev = welford_stddev(w);
	l->rms = welford_rms(w);
	/* In parts per million: integer ranks (see hist_percentile). */
	l->p50 = hist_percentile(h, 500000);
	l->p90 = hist_percentile(h, 900000);
	l->p95 = hist_percentile(h, 950000);
	l->p99 = hist_percentile(h, 990000);
	l->p99_9 = hist_percentile(h, 999000);
	l->p99_99 = hist_percentile(h, 999900);
}

int latency_buckets(const struct hist *h, struct lat_bucket **out, uint32_t *n)
{
	uint32_t k = 0;

	*n = 0;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		k += h->buckets[i] != 0;
	if (!(*out = calloc(k ? k : 1, sizeof(**out))))
		return -ENOMEM;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		if (h->buckets[i])
			(*out)[(*n)++] = (struct lat_bucket){hist_bucket_low(i),
							     hist_bucket_high(i), h->buckets[i]};
	return 0;
}
