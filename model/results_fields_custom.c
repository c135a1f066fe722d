/* The parts of results.json no field type describes (see results_fields.h): when conditional
 * keys are written, and the values written and read by hand: params with their JSON types, the
 * matrix keys, the overrides and a series' points. */
#include "model/results_fields.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/metrics.h"
#include "model/names.h"
#include "model/results.h"
#include "model/rj.h"

bool rf_owner_has_ranks(const void *worker, const void *trial)
{
	return ((const struct trial_result *)trial)->nranks != 0;
}

bool rf_owner_stonewalls(const void *rank, const void *trial)
{
	return ((const struct trial_result *)trial)->stonewall;
}

bool rf_trial_has_workers(const void *trial, const void *instance)
{
	return ((const struct trial_result *)trial)->nworkers != 0;
}

bool rf_trial_has_sync(const void *trial, const void *instance)
{
	return ((const struct trial_result *)trial)->sync_on;
}

bool rf_trial_has_hpages(const void *trial, const void *instance)
{
	return ((const struct trial_result *)trial)->hpages.on;
}

bool rf_hpages_measured(const void *hpages, const void *instance)
{
	int s = ((const struct hpages_result *)hpages)->state;

	return s == HP_GRANTED || s == HP_PARTIAL || s == HP_NONE;
}

bool rf_trial_has_sizes(const void *trial, const void *instance)

{
	return ((const struct trial_result *)trial)->nsizes != 0;
}

bool rf_trial_has_ranks(const void *trial, const void *instance)

{
	return ((const struct trial_result *)trial)->nranks != 0;
}

bool rf_trial_stonewalls(const void *trial, const void *instance)
{
	return ((const struct trial_result *)trial)->stonewall;
}

bool rf_trial_log_cut(const void *trial, const void *instance)
{
	(void)instance;
	return ((const struct trial_result *)trial)->log_error != NULL;
}

bool rf_instance_records(const void *instance, const void *results)
{
	return ((const struct instance_result *)instance)->records;
}

/* The factor means something to the IQR and MAD policies only. */
bool rf_rep_has_k(const void *rep, const void *results)
{
	enum spec_outliers p = ((const struct replication_info *)rep)->outliers;

	return p == OUTLIERS_IQR || p == OUTLIERS_MAD;
}

bool rf_rep_has_target(const void *rep, const void *results)
{
	return ((const struct replication_info *)rep)->target;
}

bool rf_results_has_table(const void *results, const void *owner)
{
	return ((const struct results *)results)->table.columns != NULL;
}

bool rf_row_shows_metric(const void *row, const void *results)
{
	return !((const struct table_row *)row)->about;
}

bool rf_row_describes(const void *row, const void *results)
{
	return ((const struct table_row *)row)->about != NULL;
}

bool rf_trial_ran(const void *trial)
{
	return ((const struct trial_result *)trial)->ran;
}

json_t *rf_put_false(const void *base, const void *owner, const struct rfield *f)
{
	return json_false();
}

/* The metric the required runs were estimated for; the default one when none was recorded. */
json_t *rf_put_metric(const void *instance, const void *owner, const struct rfield *f)
{
	const char *m = ((const struct instance_result *)instance)->summary.required.metric;

	return json_string(m ? m : metrics[METRIC_SECONDS].name);
}

json_t *rf_put_ranks(const void *results, const void *owner, const struct rfield *f)
{
	uint32_t n = ((const struct results *)results)->nranks;

	return json_integer(n ? n : 1);
}

static json_t *param_value(const struct param *p)
{
	switch (p->type) {
	case PV_STR:
		return rf_json_str(p->s);
	case PV_UINT:
		return json_integer((json_int_t)p->u);
	case PV_BOOL:
		return json_boolean(p->b);
	case PV_REAL:
		return rf_json_num(p->d);
	default:
		return json_null();
	}
}

json_t *rf_put_params(const void *instance, const void *owner, const struct rfield *f)
{
	const struct instance_result *ir = instance;
	json_t *o = json_object();

	for (size_t i = 0; o && i < ir->nparams; i++)
		if (rf_set(o, ir->params[i].key, param_value(&ir->params[i])) < 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

json_t *rf_put_matrix(const void *instance, const void *owner, const struct rfield *f)
{
	const struct instance_result *ir = instance;
	json_t *a = json_array();

	for (uint32_t pos = 1; a && pos <= ir->nparams; pos++)
		for (size_t i = 0; a && i < ir->nparams; i++)
			if (ir->params[i].matrix == pos &&
			    rf_append(a, json_string(ir->params[i].key)) < 0) {
				json_decref(a);
				a = NULL;
			}
	return a;
}

json_t *rf_put_overrides(const void *results, const void *owner, const struct rfield *f)
{
	const struct results *r = results;
	json_t *o = json_object();

	for (size_t i = 0; o && i < r->noverrides; i++)
		if (rf_set(o, r->overrides[i].key, rf_json_str(r->overrides[i].value)) < 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

/* A descriptive row's {DEVICE: TEXT}: the devices that say nothing are left out. */
json_t *rf_put_facts(const void *row, const void *owner, const struct rfield *f)
{
	const struct table_row *t = row;
	json_t *o = json_object();

	for (size_t k = 0; o && k < t->nfacts; k++)
		if (rf_set(o, t->facts[k].key, rf_json_str(t->facts[k].value)) < 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

/* [at_bytes, at_ns, value] per point, to keep long series small. */
json_t *rf_put_points(const void *series, const void *owner, const struct rfield *f)
{
	const struct series *s = series;
	json_t *a = json_array();

	for (size_t k = 0; a && k < s->npts; k++) {
		json_t *p = json_array();
		if (rf_append(p, json_integer((json_int_t)s->pts[k].at_bytes)) < 0 ||
		    rf_append(p, json_integer((json_int_t)s->pts[k].at_ns)) < 0 ||
		    rf_append(p, rf_json_num(s->pts[k].value)) < 0 || rf_append(a, p) < 0) {
			json_decref(a);
			a = NULL;
		}
	}
	return a;
}

/* A parameter by its JSON type. */
static void read_param(struct rj *c, const char *wp, const char *key, json_t *v, struct param *p)
{
	p->key = rj_dup(c, key);
	if (json_is_string(v)) {
		p->type = PV_STR;
		p->s = rj_dup(c, json_string_value(v));
	} else if (json_is_integer(v)) {
		p->type = PV_UINT;
		p->u = (uint64_t)json_integer_value(v);
	} else if (json_is_real(v)) {
		p->type = PV_REAL;
		p->d = json_real_value(v);
	} else if (json_is_boolean(v)) {
		p->type = PV_BOOL;
		p->b = json_is_true(v);
	} else if (json_is_null(v)) {
		p->type = PV_NULL;
	} else {
		rj_error(c, wp, key, "expected a string, number, true, false or null");
	}
}

void rf_get_params(struct rj *c, json_t *o, const char *where, void *instance,
		   const struct rfield *f)
{
	struct instance_result *ir = instance;
	json_t *po = rj_get_obj(c, o, where, f->key, true), *v;
	size_t cap = 0;
	const char *key;
	char wp[PATH_LEN];

	rj_path_key(wp, where, f->key);
	json_object_foreach(po, key, v)
	{
		struct param *p;
		if (rj_stop(c) || !(p = rj_grow(c, ir->params, &cap, ir->nparams, sizeof(*p))))
			break;
		ir->params = p;
		read_param(c, wp, key, v, &ir->params[ir->nparams++]);
	}
}

/* The names in "matrix" must be keys of params (read before it). */
void rf_get_matrix(struct rj *c, json_t *o, const char *where, void *instance,
		   const struct rfield *f)
{
	struct instance_result *ir = instance;
	json_t *m = rj_get_arr(c, o, where, f->key, false), *v;
	size_t i, j;
	char wp[PATH_LEN];

	json_array_foreach(m, i, v)
	{
		const char *k = json_string_value(v);
		if (rj_stop(c))
			break;
		rj_path_index(wp, where, f->key, i);
		if (!k) {
			rj_error(c, wp, NULL, "expected a string");
			continue;
		}
		for (j = 0; j < ir->nparams && strcmp(ir->params[j].key, k); j++)
			;
		if (j == ir->nparams)
			rj_error(c, wp, NULL, "'%s' is not a key of params", k);
		else
			ir->params[j].matrix = (uint32_t)i + 1;
	}
}

void rf_get_overrides(struct rj *c, json_t *o, const char *where, void *results,
		      const struct rfield *f)
{
	struct results *r = results;
	json_t *ov = rj_get_obj(c, o, where, f->key, true), *v;
	size_t cap = 0;
	const char *key;
	char wo[PATH_LEN];

	rj_path_key(wo, where, f->key);
	json_object_foreach(ov, key, v)
	{
		struct spec_override *s;
		if (rj_stop(c))
			break;
		if (!json_is_string(v)) {
			rj_error(c, wo, key, "expected a string");
			continue;
		}
		if (!(s = rj_grow(c, r->overrides, &cap, r->noverrides, sizeof(*s))))
			break;
		r->overrides = s;
		s = &r->overrides[r->noverrides++];
		s->key = rj_dup(c, key);
		s->value = rj_dup(c, json_string_value(v));
	}
}

/* A row is read in key order, so `about` is known here: a descriptive row needs its values,
 * any other row its job and metric (the keys written for it). */
void rf_get_facts(struct rj *c, json_t *o, const char *where, void *row, const struct rfield *f)
{
	struct table_row *t = row;
	json_t *values, *v;
	const char *dev;
	char wv[PATH_LEN];

	if (!t->about) {
		rj_member(c, o, where, "job", !t->job, "a string");
		rj_member(c, o, where, "metric", !t->metric, "a string");
		return;
	}
	if (!(values = rj_get_obj(c, o, where, f->key, true)))
		return;
	if (!(t->facts = calloc(json_object_size(values) + 1, sizeof(*t->facts)))) {
		c->nomem = true;
		return;
	}
	rj_path_key(wv, where, f->key);
	json_object_foreach(values, dev, v)
	{
		struct device_fact *fact = &t->facts[t->nfacts++];
		fact->key = rj_dup(c, dev);
		fact->value = rj_dup(c, rj_get_str(c, values, wv, dev, true, false));
	}
}

/* One point: [at_bytes, at_ns, value], value null when it could not be measured. */
static bool read_point(struct rj *c, json_t *v, const char *w, struct series_point *p)
{
	json_t *b = json_array_get(v, 0), *t = json_array_get(v, 1), *y = json_array_get(v, 2);

	if (!json_is_array(v) || json_array_size(v) != 3 || !json_is_integer(b) ||
	    !json_is_integer(t) || json_integer_value(b) < 0 || json_integer_value(t) < 0 ||
	    !(json_is_number(y) || json_is_null(y))) {
		rj_error(
		    c, w, NULL,
		    "expected [at_bytes, at_ns, value]: two non-negative integers and a number");
		return false;
	}
	p->at_bytes = (uint64_t)json_integer_value(b);
	p->at_ns = (uint64_t)json_integer_value(t);
	p->value = json_is_null(y) ? NAN : json_number_value(y);
	return true;
}

void rf_get_points(struct rj *c, json_t *o, const char *where, void *series, const struct rfield *f)
{
	struct series *s = series;
	json_t *pts = rj_get_arr(c, o, where, f->key, true), *v;
	size_t cap = 0, i;
	char wp[PATH_LEN];

	json_array_foreach(pts, i, v)
	{
		struct series_point *p;
		if (rj_stop(c))
			break;
		rj_path_index(wp, where, f->key, i);
		if (!(p = rj_grow(c, s->pts, &cap, s->npts, sizeof(*p))))
			break;
		s->pts = p;
		if (read_point(c, v, wp, &s->pts[s->npts]))
			s->npts++;
	}
}

bool rf_instance_splits(const void *instance, const void *results)
{
	return ((const struct instance_result *)instance)->submit_latency;
}

bool rf_trial_splits(const void *trial, const void *instance)
{
	return ((const struct trial_result *)trial)->split_on;
}

/* Only trials that ran are written, so every trial read back ran. */
void rf_trial_read(struct rj *c, void *trial)
{
	((struct trial_result *)trial)->ran = true;
}

/* Not in the file: the summaries are over the kept runs. */
void rf_summary_read(struct rj *c, void *instance)
{
	struct instance_summary *s = &((struct instance_result *)instance)->summary;

	for (size_t i = 0; i < METRIC_N; i++)
		s->stat[i].n = s->kept;
}

void rf_results_read(struct rj *c, void *results)
{
	struct results *r = results;

	r->nranks = r->nranks ? r->nranks : 1;
	/* Files written before the key existed: the first instance's level, else the default. */
	if (!isfinite(r->confidence) && r->ninst && isfinite(r->inst[0].rep.confidence))
		r->confidence = r->inst[0].rep.confidence;
	else if (!isfinite(r->confidence))
		r->confidence = 0.95;
}
