/* Latency histograms in results.json, as their non-empty buckets with the scheme that made
 * them beside them, so any reader can rebuild any percentile the way iotrial does
 * (docs/results.md#latency-histogram): log_histogram's lat_hist of a trial, and an
 * instance's trial_hists, every kind of each trial's, that a resumed run pools. Written and
 * read back. */
#include "model/results_fields.h"

#include <stdlib.h>
#include <string.h>

#include "model/results.h"
#include "model/rj.h"

/* The bucket scheme of engine/stats/hist.h, as a reader needs it: exact below 128 ns, then
 * 64 equal buckets per power of two. The buckets carry their bounds, so a reader needs
 * these only to know the resolution. */
#define HIST_SCHEME_NAME "log-linear"
#define HIST_EXACT_BELOW 128
#define HIST_SUBBUCKETS	 64

bool rf_trial_has_hist(const void *trial, const void *instance)
{
	return ((const struct trial_result *)trial)->hist != NULL;
}

json_t *rf_put_hist(const void *trial, const void *owner, const struct rfield *f)
{
	const struct trial_result *tr = trial;
	json_t *a = json_array(), *o;
	uint64_t count = 0;

	for (uint32_t k = 0; a && k < tr->nhist; k++) {
		const struct lat_bucket *b = &tr->hist[k];
		count += b->count;
		if (rf_append(a, json_pack("[I, I, I]", (json_int_t)b->low, (json_int_t)b->high,
					   (json_int_t)b->count)) < 0)
			return NULL;
	}
	if (!a)
		return NULL;
	o = json_pack("{s:s, s:s, s:i, s:i, s:f, s:I, s:o, s:o, s:o}", "scheme", HIST_SCHEME_NAME,
		      "unit", "ns", "exact_below", HIST_EXACT_BELOW, "sub_buckets", HIST_SUBBUCKETS,
		      "max_relative_error", 1.0 / (2.0 * HIST_SUBBUCKETS), "count",
		      (json_int_t)count, "min", rf_json_num(tr->lat.min), "max",
		      rf_json_num(tr->lat.max), "buckets", a);
	return o;
}

/* [low, high, count]: three non-negative integers, low <= high. */
static bool read_bucket(struct rj *c, json_t *v, const char *w, struct lat_bucket *b)
{
	json_t *lo = json_array_get(v, 0), *hi = json_array_get(v, 1), *n = json_array_get(v, 2);

	if (!json_is_array(v) || json_array_size(v) != 3 || !json_is_integer(lo) ||
	    !json_is_integer(hi) || !json_is_integer(n) || json_integer_value(lo) < 0 ||
	    json_integer_value(hi) < json_integer_value(lo) || json_integer_value(n) < 0) {
		rj_error(c, w, NULL,
			 "expected [low, high, count]: non-negative integers, low <= high");
		return false;
	}
	*b = (struct lat_bucket){(uint64_t)json_integer_value(lo), (uint64_t)json_integer_value(hi),
				 (uint64_t)json_integer_value(n)};
	return true;
}

void rf_get_hist(struct rj *c, json_t *o, const char *where, void *trial, const struct rfield *f)
{
	struct trial_result *tr = trial;
	json_t *h = rj_get_obj(c, o, where, f->key, false), *bs, *v;
	size_t cap = 0, i;
	char wp[PATH_LEN], hp[PATH_LEN];

	if (!h)
		return;
	rj_path_key(hp, where, f->key);
	bs = rj_get_arr(c, h, hp, "buckets", true);
	/* An empty histogram is still kept: the trial asked for one. */
	if (!(tr->hist = rj_grow(c, NULL, &cap, 0, sizeof(*tr->hist))))
		return;
	json_array_foreach(bs, i, v)
	{
		struct lat_bucket *b;
		if (rj_stop(c))
			break;
		rj_path_index(wp, hp, "buckets", i);
		if (!(b = rj_grow(c, tr->hist, &cap, tr->nhist, sizeof(*b))))
			break;
		tr->hist = b;
		if (read_bucket(c, v, wp, &tr->hist[tr->nhist]))
			tr->nhist++;
	}
}

/* trial_hists: each trial's histograms of every latency kind, for the summary's pooled
 * percentiles (engine/stats/pooled.c), so that a resumed run pools the trials its checkpoint
 * kept with the ones it runs itself. By enum lat_kind. */
static const char *const kind_key[LAT_NKINDS] = {"all", "read", "write", "slat", "clat"};

bool rf_instance_keeps_hists(const void *instance, const void *results)
{
	const struct param *p = results_param(instance, "log_histogram");

	return !((const struct results *)results)->complete || (p && p->type == PV_BOOL && p->b);
}

/* Does trial `tr` keep a histogram of any kind? */
static bool keeps_any(const struct trial_result *tr)
{
	for (int k = 0; k < LAT_NKINDS; k++)
		if (tr->pool_hist[k])
			return true;
	return false;
}

static json_t *put_sparse(const struct hist_sparse *s)
{
	json_t *a = json_array();

	for (uint32_t k = 0; a && k < s->n; k++)
		if (rf_append(a, json_pack("[I, I, I]", (json_int_t)s->bin[k].low,
					   (json_int_t)s->bin[k].high,
					   (json_int_t)s->bin[k].count)) < 0) {
			json_decref(a);
			return NULL;
		}
	return a ? json_pack("{s:I, s:I, s:I, s:o}", "count", (json_int_t)s->count, "min",
			     (json_int_t)s->min, "max", (json_int_t)s->max, "buckets", a)
		 : NULL;
}

/* {"trial": INDEX, "all": H, ...}: the kinds trial `tr` has; NULL: out of memory. */
static json_t *put_trial(const struct trial_result *tr)
{
	json_t *o = json_object();

	if (rf_set(o, "trial", json_integer(tr->index)) < 0)
		goto fail;
	for (int k = 0; k < LAT_NKINDS; k++)
		if (tr->pool_hist[k] && rf_set(o, kind_key[k], put_sparse(tr->pool_hist[k])) < 0)
			goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}

json_t *rf_put_trial_hists(const void *instance, const void *owner, const struct rfield *f)
{
	const struct instance_result *ir = instance;
	json_t *a = json_array();

	for (size_t i = 0; a && i < ir->ntrials; i++) {
		const struct trial_result *tr = &ir->trials[i];
		/* A warm-up is never pooled. */
		if (tr->ran && !tr->warmup && keeps_any(tr) && rf_append(a, put_trial(tr)) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	if (!a)
		return NULL;
	return json_pack("{s:s, s:s, s:i, s:i, s:o}", "scheme", HIST_SCHEME_NAME, "unit", "ns",
			 "exact_below", HIST_EXACT_BELOW, "sub_buckets", HIST_SUBBUCKETS, "trials",
			 a);
}

/* The trial of `ir` whose index is `index` (most often at that place), or NULL. */
static struct trial_result *trial_at(struct instance_result *ir, uint32_t index)
{
	if (index < ir->ntrials && ir->trials[index].index == index)
		return &ir->trials[index];
	for (size_t t = 0; t < ir->ntrials; t++)
		if (ir->trials[t].index == index)
			return &ir->trials[t];
	return NULL;
}

/* Histogram `key` of trial entry `o` (at `where`), NULL when it has none; the buckets
 * ascending and apart, adding up to its count. Problems go to `c`. */
static struct hist_sparse *get_sparse(struct rj *c, json_t *o, const char *where, const char *key)
{
	json_t *h = rj_get_obj(c, o, where, key, false), *bs, *v;
	struct hist_sparse *s;
	char hp[PATH_LEN], wp[PATH_LEN];
	uint64_t sum = 0;
	size_t i;

	if (!h)
		return NULL;
	rj_path_key(hp, where, key);
	if (!(bs = rj_get_arr(c, h, hp, "buckets", true)))
		return NULL;
	if (json_array_size(bs) > RJ_MAX_ENTRIES) {
		rj_error(c, hp, "buckets", "more than %u buckets", RJ_MAX_ENTRIES);
		return NULL;
	}
	if (!(s = malloc(sizeof(*s) + json_array_size(bs) * sizeof(s->bin[0])))) {
		c->nomem = true;
		return NULL;
	}
	s->n = 0;
	rj_get_u64(c, h, hp, "count", true, false, &s->count);
	rj_get_u64(c, h, hp, "min", true, false, &s->min);
	rj_get_u64(c, h, hp, "max", true, false, &s->max);
	json_array_foreach(bs, i, v)
	{
		struct lat_bucket *b = &s->bin[s->n];
		rj_path_index(wp, hp, "buckets", i);
		if (!read_bucket(c, v, wp, b))
			break;
		if ((s->n && b->low <= s->bin[s->n - 1].high) || !b->count) {
			rj_error(c, wp, NULL,
				 "expected a bucket above the one before it, with a count above 0");
			break;
		}
		sum += b->count;
		s->n++;
	}
	if (s->n == json_array_size(bs) && (!s->n || sum != s->count || s->min > s->max))
		rj_error(c, hp, NULL,
			 "expected buckets whose counts add up to its count (%llu), min <= max",
			 (unsigned long long)s->count);
	return s;
}

void rf_get_trial_hists(struct rj *c, json_t *o, const char *where, void *instance,
			const struct rfield *f)
{
	struct instance_result *ir = instance;
	json_t *th = rj_get_obj(c, o, where, f->key, false), *ts, *v;
	const char *scheme, *unit;
	char tp[PATH_LEN], wp[PATH_LEN];
	json_int_t n;
	size_t i;

	if (!th)
		return; /* written before iotrial kept them, or by a complete run */
	rj_path_key(tp, where, f->key);
	scheme = rj_get_str(c, th, tp, "scheme", true, false);
	unit = rj_get_str(c, th, tp, "unit", true, false);
	if (!scheme || strcmp(scheme, HIST_SCHEME_NAME) || !unit || strcmp(unit, "ns") ||
	    !rj_get_int(c, th, tp, "exact_below", true, false, 0, INT32_MAX, &n) ||
	    n != HIST_EXACT_BELOW ||
	    !rj_get_int(c, th, tp, "sub_buckets", true, false, 0, INT32_MAX, &n) ||
	    n != HIST_SUBBUCKETS) {
		rj_error(
		    c, tp, NULL,
		    "expected the bucket scheme of this iotrial: %s in ns, exact_below %d, sub_buckets %d",
		    HIST_SCHEME_NAME, HIST_EXACT_BELOW, HIST_SUBBUCKETS);
		return;
	}
	if (!(ts = rj_get_arr(c, th, tp, "trials", true)))
		return;
	json_array_foreach(ts, i, v)
	{
		struct trial_result *tr;
		uint32_t index;
		if (rj_stop(c))
			break;
		rj_path_index(wp, tp, "trials", i);
		if (!json_is_object(v)) {
			rj_error(c, wp, NULL, "expected an object");
			continue;
		}
		rj_get_u32(c, v, wp, "trial", true, false, &index);
		if (!(tr = trial_at(ir, index)) || keeps_any(tr)) {
			rj_error(c, wp, "trial",
				 "expected the index of a trial listed once, got %u", index);
			continue;
		}
		for (int k = 0; k < LAT_NKINDS; k++)
			tr->pool_hist[k] = get_sparse(c, v, wp, kind_key[k]);
	}
}
