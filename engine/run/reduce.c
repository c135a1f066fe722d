/* The reduction of a distributed trial (see reduce.h). Each rank sends one fixed-size blob
 * per instance (its histogram is most of it); rank 0 merges them. */
#include "engine/run/reduce.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/dist/dist.h"
#include "engine/stats/latency.h"

/* What one rank sends: plain bytes, the same layout on every rank (dist_check_peers made
 * sure every rank runs the same build of iotrial). */
struct blob {
	uint32_t rank, active, failed, stopped, nworkers;
	uint64_t bytes, ios, errors, stonewall_bytes;
	uint64_t start_ns, end_ns;
	double cpu_user_s, cpu_sys_s;
	struct welford lat;
	char host[DIST_HOST_MAX];
	char error[256];
	double curve[REDUCE_CURVE + 1];
	struct hist hist;
};

static void blob_fill(struct blob *b, const struct reduce_local *m)
{
	memset(b, 0, sizeof(*b));
	b->rank = (uint32_t)dist_rank();
	b->active = m->active;
	b->failed = m->error != NULL;
	b->bytes = m->bytes;
	b->ios = m->ios;
	b->errors = m->errors;
	b->stopped = m->stopped;
	b->stonewall_bytes = m->stonewall_bytes;
	b->start_ns = m->start_ns;
	b->end_ns = m->end_ns;
	b->cpu_user_s = m->cpu_user_s;
	b->cpu_sys_s = m->cpu_sys_s;
	b->nworkers = m->nworkers < m->maxworkers ? m->nworkers : m->maxworkers;
	memcpy(b->curve, m->curve, sizeof(b->curve));
	if (m->lat)
		b->lat = *m->lat;
	else
		welford_init(&b->lat);
	snprintf(b->host, sizeof(b->host), "%s", dist_host());
	snprintf(b->error, sizeof(b->error), "%s", m->error ? m->error : "");
	if (m->hist)
		b->hist = *m->hist;
	else
		hist_init(&b->hist);
}

/* The trial's error: the first failing rank's, named, and how many others failed. */
static void merged_error(struct trial_result *tr, const struct blob *all, int n)
{
	int first = -1, more = 0;

	for (int r = 0; r < n; r++) {
		if (!all[r].failed)
			continue;
		if (first < 0)
			first = r;
		else
			more++;
	}
	free(tr->error);
	tr->error = NULL;
	if (first < 0)
		return;
	tr->failed = true;
	tr->kept = false;
	if (more && asprintf(&tr->error, "rank %d (%s): %s (and %d more rank%s failed)", first,
			     all[first].host, all[first].error, more, more > 1 ? "s" : "") < 0)
		tr->error = NULL;
	else if (!more && asprintf(&tr->error, "rank %d (%s): %s", first, all[first].host,
				   all[first].error) < 0)
		tr->error = NULL;
}

/* When the active ranks with a measured time started and ended, from their barrier exits,
 * and the slowest's and fastest's own times. */
struct span {
	uint64_t first_start, last_start, first_end, last_end;
	double slowest, fastest; /* slowest 0: no rank measured a time */
};

/* Rank `b`'s row of the trial; its figures summed into `tr`, its latency into `h` and `w`,
 * its times into `sp`. 0 or -ENOMEM. */
static int add_rank(struct trial_result *tr, struct rank_result *row, const struct blob *b,
		    struct hist *h, struct welford *w, struct span *sp)
{
	row->rank = b->rank;
	row->host = strdup(b->host);
	row->error = b->failed ? strdup(b->error) : NULL;
	if (!row->host || (b->failed && !row->error))
		return -ENOMEM;
	row->bytes = b->bytes;
	row->ios = b->ios;
	row->errors = b->errors;
	row->stopped = b->stopped;
	row->stonewall_bytes = b->stonewall_bytes;
	tr->stonewalled |= b->stopped != 0;
	tr->stonewall_bytes += b->stonewall_bytes;
	row->start_ns = b->start_ns;
	row->end_ns = b->end_ns;
	row->seconds = b->end_ns > b->start_ns ? (double)(b->end_ns - b->start_ns) / 1e9 : NAN;
	hist_merge(h, &b->hist);
	welford_merge(w, &b->lat);
	tr->bytes += b->bytes;
	tr->ios += b->ios;
	tr->errors += b->errors;
	tr->cpu_user_s += b->cpu_user_s;
	tr->cpu_sys_s += b->cpu_sys_s;
	if (!isfinite(row->seconds))
		return 0;
	sp->first_start = b->start_ns < sp->first_start ? b->start_ns : sp->first_start;
	sp->last_start = b->start_ns > sp->last_start ? b->start_ns : sp->last_start;
	sp->last_end = b->end_ns > sp->last_end ? b->end_ns : sp->last_end;
	sp->slowest = row->seconds > sp->slowest ? row->seconds : sp->slowest;
	sp->fastest = row->seconds < sp->fastest ? row->seconds : sp->fastest;
	sp->first_end = b->end_ns < sp->first_end ? b->end_ns : sp->first_end;
	return 0;
}

/* First done: what every rank had moved when the first one finished (at `first_end` from
 * its barrier exit), read off each rank's progress curve. */
static double first_done_bytes(const struct blob *all, int n, uint64_t first_end)
{
	double done = 0;

	for (int r = 0; r < n; r++) {
		const struct blob *b = &all[r];
		double f, at;
		size_t i;
		if (!b->active || b->end_ns <= b->start_ns)
			continue;
		f = (double)first_end / (double)b->end_ns * REDUCE_CURVE;
		if (f >= REDUCE_CURVE) {
			done += b->curve[REDUCE_CURVE];
			continue;
		}
		i = (size_t)f;
		at = b->curve[i] + (f - (double)i) * (b->curve[i + 1] - b->curve[i]);
		done += at;
	}
	return done;
}

/* The trial's own figures and the ranks' aggregates, from the summed figures and `sp`. */
static void set_figures(struct trial_result *tr, const struct blob *all, int n,
			const struct span *sp, uint64_t base_ns)
{
	double done;

	tr->seconds = tr->iops = tr->bw_bytes = NAN;
	tr->agg = (struct rank_aggregate){NAN, NAN, NAN, NAN, NAN, NAN, 0};
	if (sp->slowest <= 0)
		return;
	/* Last done, the primary figure: every byte, over the slowest rank's time. */
	tr->seconds = sp->slowest;
	tr->iops = (double)tr->ios / sp->slowest;
	tr->bw_bytes = (double)tr->bytes / sp->slowest;
	tr->start_ns = base_ns + sp->first_start;
	tr->end_ns = base_ns + sp->last_end;
	/* Wall: the barrier exits stand for one instant on every rank. */
	tr->agg.wall_seconds = (double)(sp->last_end - sp->first_start) / 1e9;
	tr->agg.wall_bw_bytes = (double)tr->bytes / tr->agg.wall_seconds;
	tr->agg.start_skew_s = (double)(sp->last_start - sp->first_start) / 1e9;
	/* First done: its time is the fastest rank's own, like last done's is the slowest's. */
	done = first_done_bytes(all, n, sp->first_end);
	tr->agg.first_done_seconds = sp->fastest;
	tr->agg.first_done_bytes = done;
	tr->agg.first_done_bw_bytes = done / sp->fastest;
}

/* Merge the blobs into `tr` (rank 0). 0 or -ENOMEM. */
static int merge_ranks(struct trial_result *tr, const struct blob *all, int n, uint64_t base_ns)
{
	struct hist *h = malloc(sizeof(*h));
	struct span sp = {UINT64_MAX, 0, UINT64_MAX, 0, 0, INFINITY};
	struct welford w;
	uint32_t nrows = 0;
	int ret = 0;

	if (!h || !(tr->ranks = calloc((size_t)n, sizeof(*tr->ranks)))) {
		free(h);
		return -ENOMEM;
	}
	hist_init(h);
	welford_init(&w);
	tr->bytes = tr->ios = tr->errors = 0;
	tr->stonewalled = false;
	tr->stonewall_bytes = 0;
	tr->cpu_user_s = tr->cpu_sys_s = 0;
	for (int r = 0; r < n && ret == 0; r++)
		if (all[r].active)
			ret = add_rank(tr, &tr->ranks[nrows++], &all[r], h, &w, &sp);
	tr->nranks = nrows;
	set_figures(tr, all, n, &sp, base_ns);
	tr->lat = (struct lat_summary){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
	if (tr->ios)
		latency_summarize(&tr->lat, h, &w);
	/* log_histogram: rank 0 kept its own buckets; the percentiles now come from every
	 * rank's. */
	if (tr->hist) {
		free(tr->hist);
		tr->hist = NULL;
		if (tr->ios && latency_buckets(h, &tr->hist, &tr->nhist) < 0)
			ret = -ENOMEM;
	}
	/* Every rank's I/Os, for the summary's pooled percentiles. */
	free(tr->pool_hist[LAT_ALL]);
	tr->pool_hist[LAT_ALL] = h->count ? hist_sparse_of(h) : NULL;
	tr->agg.lat_samples = h->count;
	merged_error(tr, all, n);
	free(h);
	return ret;
}

/* Every rank's worker rows at rank 0 (*all): `maxworkers` rows from each rank, its own
 * first, then zeros. */
static int gather_workers(const struct reduce_local *m, struct worker_result **all)
{
	size_t len = (size_t)m->maxworkers * sizeof(**all);
	struct worker_result *mine = calloc(m->maxworkers, sizeof(*mine));
	int ret;

	if (!mine)
		dist_abort(1, "out of memory");
	for (uint32_t k = 0; m->workers && k < m->nworkers && k < m->maxworkers; k++) {
		mine[k] = m->workers[k];
		mine[k].rank = (uint32_t)dist_rank();
	}
	if (dist_rank() == 0 && !(*all = calloc((size_t)dist_size(), len)))
		dist_abort(1, "out of memory gathering %d ranks' worker rows", dist_size());
	ret = dist_gather(mine, *all, len);
	free(mine);
	return ret;
}

/* The trial's worker rows become every active rank's, rank by rank (rank 0's own alone
 * would describe a part as the whole). Takes `*rows` (NULL: none). */
static void keep_workers(struct trial_result *tr, const struct blob *all, int n,
			 struct worker_result **rows, uint32_t max)
{
	struct worker_result *kept = *rows;
	uint32_t k = 0;

	*rows = NULL;
	free(tr->workers);
	tr->workers = NULL;
	tr->nworkers = 0;
	/* In place: row k never comes after the row it is copied from. */
	for (int r = 0; kept && r < n; r++)
		for (uint32_t w = 0; all[r].active && w < all[r].nworkers; w++)
			kept[k++] = kept[(size_t)r * max + w];
	if (!k) {
		free(kept);
		return;
	}
	tr->workers = kept;
	tr->nworkers = k;
}

int reduce_trial(struct trial_result *tr, const struct reduce_local *mine, uint64_t base_ns)
{
	int n = dist_size(), ret;
	bool root = dist_rank() == 0;
	struct blob *me, *all = NULL;
	struct worker_result *rows = NULL;

	if (n == 1)
		return 0;
	if (!(me = malloc(sizeof(*me))))
		dist_abort(1, "out of memory");
	blob_fill(me, mine);
	/* Rank 0 receives every blob; a rank 0 without memory cannot take part. */
	if (root && !(all = calloc((size_t)n, sizeof(*all))))
		dist_abort(1, "out of memory gathering %d ranks' figures", n);
	ret = dist_gather(me, all, sizeof(*me));
	free(me);
	/* The same on every rank: maxworkers comes from the plan. */
	if (ret == 0 && mine->maxworkers)
		ret = gather_workers(mine, &rows);
	if (ret == 0 && root) {
		keep_workers(tr, all, n, &rows, mine->maxworkers);
		ret = merge_ranks(tr, all, n, base_ns);
	}
	if (ret < 0 && root) {
		tr->failed = true;
		tr->kept = false;
	}
	free(rows);
	free(all);
	return ret;
}
