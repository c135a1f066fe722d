/* Pooled latency percentiles over the kept trials (see pooled.h). */
#include "engine/stats/pooled.h"

#include <math.h>
#include <stdlib.h>

#include "engine/stats/hist.h"

/* Does trial `t` count in the summary? As the record times do (summary.c). */
static bool counts(const struct instance_result *ir, const struct trial_result *t)
{
	return ir->background ? t->ran && !t->warmup : t->kept;
}

/* The I/Os trial `t` measured of kind `k`. */
static uint64_t measured(const struct trial_result *t, int k)
{
	switch (k) {
	case LAT_READ:
		return t->dir[DIR_READ].ios;
	case LAT_WRITE:
		return t->dir[DIR_WRITE].ios;
	/* A backend that completes I/Os inside their submission measures neither. */
	case LAT_SLAT:
		return t->split_on && isfinite(t->slat.max) ? t->ios : 0;
	case LAT_CLAT:
		return t->split_on && isfinite(t->clat.max) ? t->ios : 0;
	default:
		return t->ios;
	}
}

/* Trial `t`'s histogram of kind `k`, NULL when it has none: a one-direction trial's reads
 * (or writes) are all its I/Os, so its own histogram is theirs. */
static const struct hist_sparse *hist_of(const struct trial_result *t, int k)
{
	int d = k == LAT_READ ? DIR_READ : DIR_WRITE;

	if (t->pool_hist[k] || (k != LAT_READ && k != LAT_WRITE) || t->dir[d].ios != t->ios)
		return t->pool_hist[k];
	return t->pool_hist[LAT_ALL];
}

static void pool_kind(struct instance_result *ir, int k, struct hist *h)
{
	struct pooled_lat *pl = &ir->summary.pooled[k];

	pl->ios = 0;
	pl->no_hist = 0;
	pl->min = pl->max = NAN;
	for (uint32_t i = 0; i < PCT_LIST_MAX; i++)
		pl->p[i] = NAN;
	hist_init(h);
	for (size_t i = 0; i < ir->ntrials; i++) {
		const struct trial_result *t = &ir->trials[i];
		const struct hist_sparse *s = hist_of(t, k);
		if (!counts(ir, t) || !measured(t, k))
			continue;
		if (s && hist_sparse_fits(s))
			hist_merge_sparse(h, s);
		else
			pl->no_hist++;
	}
	if (pl->no_hist || !h->count)
		return;
	pl->ios = h->count;
	pl->min = (double)h->min;
	pl->max = (double)h->max;
	for (uint32_t i = 0; i < ir->pcts.n; i++)
		pl->p[i] = hist_percentile(h, pct_ppm(ir->pcts.pct[i]));
}

void pooled_summarize(struct instance_result *ir)
{
	struct hist *h = malloc(sizeof(*h));

	for (int k = 0; k < LAT_NKINDS; k++) {
		if (h) {
			pool_kind(ir, k, h);
			continue;
		}
		/* No memory for the merge: unknown, not wrong. */
		ir->summary.pooled[k].ios = 0;
		ir->summary.pooled[k].no_hist = 0;
		ir->summary.pooled[k].min = ir->summary.pooled[k].max = NAN;
		for (uint32_t i = 0; i < PCT_LIST_MAX; i++)
			ir->summary.pooled[k].p[i] = NAN;
	}
	free(h);
}
