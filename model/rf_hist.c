/* log_histogram in results.json: a trial's latency histogram as its non-empty buckets, with
 * the scheme that made them beside them, so any reader can rebuild any percentile the way
 * iotrial does (docs/results.md#latency-histogram). Written and read back. */
#include "model/results_fields.h"

#include <stdlib.h>

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
