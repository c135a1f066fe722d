/* The summary's pooled latency in results.json (rows in results_fields.c): the percentile
 * list, and per kind an object {"ios", "min", "max", "p50", "p99", "p99_9", ...} whose keys
 * follow that list (model/pctlist.h), so a reader needs nothing but the file; with
 * "trials_without_histogram" when kept trials had none to pool (then the figures are null). */
#include <math.h>
#include <stdio.h>

#include "model/pctlist.h"
#include "model/results.h"
#include "model/results_fields.h"
#include "model/rj.h"

#define AT(base, off) ((const char *)(base) + (off))

json_t *rf_put_pcts(const void *instance, const void *owner, const struct rfield *f)
{
	const struct pct_list *l = &((const struct instance_result *)instance)->pcts;
	json_t *a = json_array();

	for (uint32_t i = 0; a && i < l->n; i++)
		if (rf_append(a, json_real(l->pct[i])) < 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

void rf_get_pcts(struct rj *c, json_t *o, const char *where, void *instance, const struct rfield *f)
{
	struct pct_list *l = &((struct instance_result *)instance)->pcts;
	json_t *a = json_object_get(o, f->key), *v;
	char wp[PATH_LEN], err[128];
	size_t i;

	l->n = 0;
	if (!a)
		return; /* a file from before the list: no pooled percentiles */
	if (!json_is_array(a) || json_array_size(a) > PCT_LIST_MAX) {
		rj_error(c, where, f->key, "expected a list of at most %d percentiles",
			 PCT_LIST_MAX);
		return;
	}
	json_array_foreach(a, i, v)
	{
		double p = json_number_value(v);
		char text[32];
		struct pct_list one;
		snprintf(text, sizeof(text), "%.4f", p);
		rj_path_index(wp, where, f->key, i);
		if (!json_is_number(v) || pct_list_parse(text, &one, err, sizeof(err)) < 0 ||
		    (l->n && pct_ppm(p) <= pct_ppm(l->pct[l->n - 1]))) {
			rj_error(c, wp, NULL,
				 "expected percentiles above 0 and at most 100, ascending");
			return;
		}
		l->pct[l->n++] = p;
	}
}

json_t *rf_put_pooled(const void *instance, const void *owner, const struct rfield *f)
{
	const struct instance_result *ir = instance;
	const struct pooled_lat *pl = (const struct pooled_lat *)AT(instance, f->off);
	json_t *o = json_object();
	char key[40];

	if (!o || rf_set(o, "ios", json_integer((json_int_t)pl->ios)) < 0 ||
	    rf_set(o, "min", rf_json_num(pl->min)) < 0 ||
	    rf_set(o, "max", rf_json_num(pl->max)) < 0)
		goto fail;
	for (uint32_t i = 0; i < ir->pcts.n; i++) {
		pct_key(key, sizeof(key), ir->pcts.pct[i]);
		if (rf_set(o, key, rf_json_num(pl->p[i])) < 0)
			goto fail;
	}
	if (pl->no_hist &&
	    rf_set(o, "trials_without_histogram", json_integer((json_int_t)pl->no_hist)) < 0)
		goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}

void rf_get_pooled(struct rj *c, json_t *o, const char *where, void *instance,
		   const struct rfield *f)
{
	struct instance_result *ir = instance;
	struct pooled_lat *pl = (struct pooled_lat *)((char *)instance + f->off);
	json_t *p = rj_get_obj(c, o, where, f->key, false);
	char wp[PATH_LEN], key[40];

	pl->ios = 0;
	pl->no_hist = 0;
	pl->min = pl->max = NAN;
	for (uint32_t i = 0; i < PCT_LIST_MAX; i++)
		pl->p[i] = NAN;
	if (!p)
		return;
	rj_path_key(wp, where, f->key);
	rj_get_u64(c, p, wp, "ios", true, false, &pl->ios);
	rj_get_u32(c, p, wp, "trials_without_histogram", false, false, &pl->no_hist);
	rj_get_real(c, p, wp, "min", true, &pl->min);
	rj_get_real(c, p, wp, "max", true, &pl->max);
	for (uint32_t i = 0; i < ir->pcts.n; i++) {
		pct_key(key, sizeof(key), ir->pcts.pct[i]);
		rj_get_real(c, p, wp, key, true, &pl->p[i]);
	}
}
