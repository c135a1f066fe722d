/* results.json → struct results (see results_json.h), with jansson. One function per object
 * of the schema, each handed its JSON path for messages; the typed getters do every check,
 * so nothing past them trusts the file. Arrays grow as entries parse, and parsing stops after
 * MAX_ERRORS problems, so memory stays in proportion to what the file really holds. */
#include "model/results_json.h"

#include "model/metrics.h"
#include "model/names.h"
#include "model/rj.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void read_workers(struct rj *c, json_t *o, const char *w, struct trial_result *t)
{
	json_t *a = rj_get_arr(c, o, w, "workers", false), *v;
	size_t cap = 0, i;
	char ww[PATH_LEN];

	json_array_foreach(a, i, v)
	{
		struct worker_result *wr;
		if (rj_stop(c))
			break;
		rj_path_index(ww, w, "workers", i);
		if (!json_is_object(v)) {
			rj_error(c, ww, NULL, "expected an object");
			continue;
		}
		if (!(wr = rj_grow(c, t->workers, &cap, t->nworkers, sizeof(*wr))))
			break;
		t->workers = wr;
		wr = &t->workers[t->nworkers++];
		rj_get_u32(c, v, ww, "worker", true, false, &wr->worker);
		rj_get_u32(c, v, ww, "rank", false, false, &wr->rank);
		rj_get_u64(c, v, ww, "bytes", true, false, &wr->bytes);
		rj_get_u64(c, v, ww, "ios", true, false, &wr->ios);
		rj_get_real(c, v, ww, "seconds", true, &wr->seconds);
		rj_get_u64(c, v, ww, "errors", false, false, &wr->errors);
		rj_get_reals(c, v, ww, "lat_ns", rj_lat_fields, RJ_NLAT, &wr->lat);
	}
}

/* A distributed trial's rows and aggregates; both optional (serial runs have neither). */
static void read_ranks(struct rj *c, json_t *o, const char *w, struct trial_result *t)
{
	json_t *a = rj_get_arr(c, o, w, "ranks", false), *v, *agg, *part;
	size_t cap = 0, i;
	char wr[PATH_LEN], wa[PATH_LEN], wp[PATH_LEN];

	t->agg = (struct rank_aggregate){NAN, NAN, NAN, NAN, NAN, NAN, 0};
	json_array_foreach(a, i, v)
	{
		struct rank_result *r;
		if (rj_stop(c))
			break;
		rj_path_index(wr, w, "ranks", i);
		if (!json_is_object(v)) {
			rj_error(c, wr, NULL, "expected an object");
			continue;
		}
		if (!(r = rj_grow(c, t->ranks, &cap, t->nranks, sizeof(*r))))
			break;
		t->ranks = r;
		r = &t->ranks[t->nranks++];
		rj_get_u32(c, v, wr, "rank", true, false, &r->rank);
		r->host = rj_dup(c, rj_get_str(c, v, wr, "host", false, true));
		rj_get_u64(c, v, wr, "bytes", true, false, &r->bytes);
		rj_get_u64(c, v, wr, "ios", true, false, &r->ios);
		rj_get_real(c, v, wr, "seconds", true, &r->seconds);
		rj_get_u64(c, v, wr, "start_ns", false, false, &r->start_ns);
		rj_get_u64(c, v, wr, "end_ns", false, false, &r->end_ns);
		rj_get_u64(c, v, wr, "errors", false, false, &r->errors);
		r->error = rj_dup(c, rj_get_str(c, v, wr, "error", false, true));
		rj_get_bool(c, v, wr, "stopped", false, &r->stopped);
		rj_get_u64(c, v, wr, "stonewall_bytes", false, false, &r->stonewall_bytes);
	}
	if (!(agg = rj_get_obj(c, o, w, "aggregate", false)))
		return;
	rj_path_key(wa, w, "aggregate");
	rj_get_u64(c, agg, wa, "lat_samples", false, false, &t->agg.lat_samples);
	if ((part = rj_get_obj(c, agg, wa, "wall", false))) {
		rj_path_key(wp, wa, "wall");
		rj_get_real(c, part, wp, "seconds", false, &t->agg.wall_seconds);
		rj_get_real(c, part, wp, "bw_bytes", false, &t->agg.wall_bw_bytes);
		rj_get_real(c, part, wp, "start_skew_s", false, &t->agg.start_skew_s);
	}
	if ((part = rj_get_obj(c, agg, wa, "first_done", false))) {
		rj_path_key(wp, wa, "first_done");
		rj_get_real(c, part, wp, "seconds", false, &t->agg.first_done_seconds);
		rj_get_real(c, part, wp, "bytes", false, &t->agg.first_done_bytes);
		rj_get_real(c, part, wp, "bw_bytes", false, &t->agg.first_done_bw_bytes);
	}
}

static void read_trial(struct rj *c, json_t *o, const char *w, struct trial_result *t)
{
	json_t *cpu;
	char wc[PATH_LEN];

	/* Only trials that ran are written; a "ran" key adds nothing. */
	t->ran = true;
	rj_get_u32(c, o, w, "index", true, false, &t->index);
	rj_get_bool(c, o, w, "kept", true, &t->kept);
	rj_get_bool(c, o, w, "warmup", false, &t->warmup);
	rj_get_u64(c, o, w, "start_ns", true, true, &t->start_ns);
	rj_get_u64(c, o, w, "end_ns", true, true, &t->end_ns);
	rj_get_real(c, o, w, "seconds", true, &t->seconds);
	rj_get_u64(c, o, w, "bytes", true, false, &t->bytes);
	rj_get_u64(c, o, w, "ios", true, false, &t->ios);
	rj_get_real(c, o, w, "iops", true, &t->iops);
	rj_get_real(c, o, w, "bw_bytes", true, &t->bw_bytes);
	rj_get_reals(c, o, w, "lat_ns", rj_lat_fields, RJ_NLAT, &t->lat);
	t->cpu_user_s = t->cpu_sys_s = NAN;
	if ((cpu = rj_get_obj(c, o, w, "cpu", true))) {
		rj_path_key(wc, w, "cpu");
		rj_get_real(c, cpu, wc, "user_s", true, &t->cpu_user_s);
		rj_get_real(c, cpu, wc, "sys_s", true, &t->cpu_sys_s);
	}
	rj_get_u64(c, o, w, "errors", true, false, &t->errors);
	rj_get_bool(c, o, w, "failed", false, &t->failed);
	rj_get_bool(c, o, w, "dropped", false, &t->dropped);
	rj_get_bool(c, o, w, "load_failed", false, &t->load_failed);
	t->error = rj_dup(c, rj_get_str(c, o, w, "error", false, true));
	rj_get_real(c, o, w, "page_cache", false, &t->cached);
	rj_get_real(c, o, w, "page_cache_after", false, &t->cached_after);
	/* A stonewalled job's trials say so: then both keys are written back. */
	t->stonewall = json_object_get(o, "stonewalled") != NULL;
	rj_get_bool(c, o, w, "stonewalled", false, &t->stonewalled);
	rj_get_u64(c, o, w, "stonewall_bytes", false, false, &t->stonewall_bytes);
	read_workers(c, o, w, t);
	read_ranks(c, o, w, t);
}

static void read_trials(struct rj *c, json_t *o, const char *w, struct instance_result *ir)
{
	json_t *a = rj_get_arr(c, o, w, "trials", true), *v;
	size_t cap = 0, i;
	char wt[PATH_LEN];

	json_array_foreach(a, i, v)
	{
		struct trial_result *t;
		if (rj_stop(c))
			break;
		rj_path_index(wt, w, "trials", i);
		if (!json_is_object(v)) {
			rj_error(c, wt, NULL, "expected an object");
			continue;
		}
		if (!(t = rj_grow(c, ir->trials, &cap, ir->ntrials, sizeof(*t))))
			break;
		ir->trials = t;
		read_trial(c, v, wt, &ir->trials[ir->ntrials++]);
	}
}

/* Parameters by JSON type; the "matrix" array names the ones that are matrix keys. */
static void read_params(struct rj *c, json_t *o, const char *w, struct instance_result *ir)
{
	json_t *po = rj_get_obj(c, o, w, "params", true), *m = rj_get_arr(c, o, w, "matrix", false),
	       *v;
	size_t cap = 0, i;
	const char *key;
	char wp[PATH_LEN];

	rj_path_key(wp, w, "params");
	json_object_foreach(po, key, v)
	{
		struct param *p;
		if (rj_stop(c) || !(p = rj_grow(c, ir->params, &cap, ir->nparams, sizeof(*p))))
			break;
		ir->params = p;
		p = &ir->params[ir->nparams++];
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
	json_array_foreach(m, i, v)
	{
		const char *k = json_string_value(v);
		size_t j;
		if (rj_stop(c))
			break;
		rj_path_index(wp, w, "matrix", i);
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

static void read_summary(struct rj *c, json_t *o, const char *w, struct instance_result *ir)
{
	struct instance_summary *s = &ir->summary;
	json_t *so = rj_get_obj(c, o, w, "summary", true), *req, *bo, *rec;
	char ws[PATH_LEN], wr[PATH_LEN];

	s->required.confidence = s->required.error = s->required.n = NAN;
	s->before.mean = s->before.stddev = s->before.cov = NAN;
	s->rec_min_ns = s->rec_max_ns = s->rec_mean_ns = s->rec_rms_ns = NAN;
	if (!so)
		return;
	rj_path_key(ws, w, "summary");
	rj_get_u32(c, so, ws, "runs", true, false, &s->runs);
	rj_get_u32(c, so, ws, "kept", true, false, &s->kept);
	for (size_t i = 0; i < METRIC_N; i++) {
		rj_get_reals(c, so, ws, metrics[i].name, rj_stat_fields, RJ_NSTAT, &s->stat[i]);
		/* Not in the file; the summaries are over the kept runs. */
		s->stat[i].n = s->kept;
	}
	if ((req = rj_get_obj(c, so, ws, "required_runs", true))) {
		rj_path_key(wr, ws, "required_runs");
		rj_get_fraction(c, req, wr, "confidence", true, &s->required.confidence);
		rj_get_fraction(c, req, wr, "error", true, &s->required.error);
		rj_get_real(c, req, wr, "n", true, &s->required.n);
		s->required.metric = rj_own(c, rj_get_str(c, req, wr, "metric", false, true));
	}
	rj_get_bool(c, so, ws, "reads_cached", false, &ir->reads_cached);
	s->metric = rj_own(c, rj_get_str(c, so, ws, "metric", false, true));
	if ((bo = rj_get_obj(c, so, ws, "before_outliers", false))) {
		rj_path_key(wr, ws, "before_outliers");
		rj_get_u32(c, bo, wr, "runs", true, false, &s->before.n);
		rj_get_real(c, bo, wr, "mean", true, &s->before.mean);
		rj_get_real(c, bo, wr, "stddev", true, &s->before.stddev);
		rj_get_real(c, bo, wr, "cov", true, &s->before.cov);
	}
	s->stopped_by = rj_own(c, rj_get_str(c, so, ws, "stopped_by", false, true));
	/* Only an instance that logged its records has the object. */
	if ((rec = rj_get_obj(c, so, ws, "records", false))) {
		ir->records = true;
		rj_path_key(wr, ws, "records");
		rj_get_real(c, rec, wr, "min_ns", true, &s->rec_min_ns);
		rj_get_real(c, rec, wr, "max_ns", true, &s->rec_max_ns);
		rj_get_real(c, rec, wr, "mean_ns", true, &s->rec_mean_ns);
		rj_get_real(c, rec, wr, "rms_ns", true, &s->rec_rms_ns);
	}
}

static void read_replication(struct rj *c, json_t *o, const char *w, struct replication_info *rp)
{
	json_t *ro = rj_get_obj(c, o, w, "replication", false);
	const char *pol;
	char wr[PATH_LEN];
	char list[64];
	int i;

	rp->outliers = OUTLIERS_NONE;
	rp->outlier_k = rp->confidence = rp->error = NAN;
	if (!ro)
		return;
	rj_path_key(wr, w, "replication");
	if ((pol = rj_get_str(c, ro, wr, "outliers", true, false))) {
		names_list(list, sizeof(list), outlier_policy_names);
		if ((i = names_find(outlier_policy_names, pol)) >= 0)
			rp->outliers = (enum spec_outliers)i;
		else
			rj_error(c, wr, "outliers", "expected %s, not '%s'", list, pol);
	}
	rj_get_u32(c, ro, wr, "trim_low", true, false, &rp->trim_low);
	rj_get_u32(c, ro, wr, "trim_high", true, false, &rp->trim_high);
	rj_get_real(c, ro, wr, "outlier_k", true, &rp->outlier_k);
	rj_get_bool(c, ro, wr, "target", true, &rp->target);
	rj_get_u32(c, ro, wr, "pilot", true, true, &rp->pilot);
	rj_get_u32(c, ro, wr, "max", true, true, &rp->max);
	rj_get_fraction(c, ro, wr, "confidence", true, &rp->confidence);
	rj_get_fraction(c, ro, wr, "error", true, &rp->error);
	rp->metric = rj_own(c, rj_get_str(c, ro, wr, "metric", true, true));
}

static void read_instance(struct rj *c, json_t *o, const char *w, struct instance_result *ir)
{
	ir->name = rj_dup(c, rj_get_str(c, o, w, "name", true, false));
	ir->job = rj_dup(c, rj_get_str(c, o, w, "job", true, false));
	ir->backend = rj_dup(c, rj_get_str(c, o, w, "backend", true, false));
	ir->workload = rj_dup(c, rj_get_str(c, o, w, "workload", true, false));
	rj_get_u32(c, o, w, "threads", true, false, &ir->threads);
	rj_get_bool(c, o, w, "background", false, &ir->background);
	read_params(c, o, w, ir);
	read_trials(c, o, w, ir);
	read_summary(c, o, w, ir);
	read_replication(c, o, w, &ir->rep);
	rj_read_series(c, o, w, ir);
}

static void read_jobs(struct rj *c, json_t *root)
{
	struct results *r = c->r;
	json_t *a = rj_get_arr(c, root, "", "jobs", true), *v;
	size_t cap = 0, i;
	char w[PATH_LEN];

	json_array_foreach(a, i, v)
	{
		struct instance_result *ir;
		if (rj_stop(c))
			break;
		rj_path_index(w, "", "jobs", i);
		if (!json_is_object(v)) {
			rj_error(c, w, NULL, "expected an object");
			continue;
		}
		if (!(ir = rj_grow(c, r->inst, &cap, r->ninst, sizeof(*ir))))
			break;
		r->inst = ir;
		read_instance(c, v, w, &r->inst[r->ninst++]);
	}
}

static void read_comparison(struct rj *c, json_t *o, const char *w, struct comparison *k)
{
	k->a = rj_dup(c, rj_get_str(c, o, w, "a", true, false));
	k->b = rj_dup(c, rj_get_str(c, o, w, "b", true, false));
	k->metric = rj_dup(c, rj_get_str(c, o, w, "metric", true, false));
	rj_get_real(c, o, w, "diff_mean", true, &k->diff_mean);
	rj_get_real(c, o, w, "ci_low", true, &k->ci_low);
	rj_get_real(c, o, w, "ci_high", true, &k->ci_high);
	rj_get_fraction(c, o, w, "confidence", true, &k->confidence);
	rj_get_bool(c, o, w, "significant", true, &k->significant);
	rj_get_real(c, o, w, "ratio", true, &k->ratio);
	k->test = rj_own(c, rj_get_str(c, o, w, "test", true, false));
	k->a_label = rj_dup(c, rj_get_str(c, o, w, "a_label", false, true));
	k->b_label = rj_dup(c, rj_get_str(c, o, w, "b_label", false, true));
	rj_get_real(c, o, w, "mean_a", false, &k->mean_a);
	rj_get_real(c, o, w, "mean_b", false, &k->mean_b);
	rj_get_u32(c, o, w, "n_a", false, false, &k->na);
	rj_get_u32(c, o, w, "n_b", false, false, &k->nb);
	rj_get_real(c, o, w, "df", false, &k->df);
}

static void read_comparisons(struct rj *c, json_t *root)
{
	struct results *r = c->r;
	json_t *a = rj_get_arr(c, root, "", "comparisons", true), *v;
	size_t cap = 0, i;
	char w[PATH_LEN];

	json_array_foreach(a, i, v)
	{
		struct comparison *k;
		if (rj_stop(c))
			break;
		rj_path_index(w, "", "comparisons", i);
		if (!json_is_object(v)) {
			rj_error(c, w, NULL, "expected an object");
			continue;
		}
		if (!(k = rj_grow(c, r->cmp, &cap, r->ncmp, sizeof(*k))))
			break;
		r->cmp = k;
		read_comparison(c, v, w, &r->cmp[r->ncmp++]);
	}
}

static void read_target(struct rj *c, json_t *o, const char *w, struct env_target *t)
{
	json_t *rot = rj_member(c, o, w, "rotational", true, "true, false or null");

	t->path = rj_dup(c, rj_get_str(c, o, w, "path", true, true));
	t->fs_type = rj_dup(c, rj_get_str(c, o, w, "fs_type", true, true));
	t->device = rj_dup(c, rj_get_str(c, o, w, "device", true, true));
	t->model = rj_dup(c, rj_get_str(c, o, w, "model", true, true));
	t->rotational = -1;
	if (rot && json_is_boolean(rot))
		t->rotational = json_is_true(rot);
	else if (rot && !json_is_null(rot))
		rj_error(c, w, "rotational", "expected true, false or null");
	rj_get_u32(c, o, w, "logical_block_size", true, true, &t->logical_block_size);
}

static void read_env(struct rj *c, json_t *root)
{
	struct run_env *e = &c->r->env;
	json_t *eo = rj_get_obj(c, root, "", "env", true), *a, *v;
	size_t cap = 0, i;
	char w[PATH_LEN];

	if (!eo)
		return;
	e->hostname = rj_dup(c, rj_get_str(c, eo, "env", "hostname", true, true));
	e->kernel = rj_dup(c, rj_get_str(c, eo, "env", "kernel", true, true));
	e->cpu_model = rj_dup(c, rj_get_str(c, eo, "env", "cpu_model", true, true));
	rj_get_u32(c, eo, "env", "cpus", true, true, &e->cpus);
	rj_get_u64(c, eo, "env", "mem_bytes", true, true, &e->mem_bytes);
	a = rj_get_arr(c, eo, "env", "targets", true);
	json_array_foreach(a, i, v)
	{
		struct env_target *t;
		if (rj_stop(c))
			break;
		rj_path_index(w, "env", "targets", i);
		if (!json_is_object(v)) {
			rj_error(c, w, NULL, "expected an object");
			continue;
		}
		if (!(t = rj_grow(c, e->targets, &cap, e->ntargets, sizeof(*t))))
			break;
		e->targets = t;
		read_target(c, v, w, &e->targets[e->ntargets++]);
	}
}

static void read_overrides(struct rj *c, json_t *root)
{
	struct results *r = c->r;
	json_t *o = rj_get_obj(c, root, "", "overrides", true), *v;
	size_t cap = 0;
	const char *key;

	json_object_foreach(o, key, v)
	{
		struct spec_override *ov;
		if (rj_stop(c))
			break;
		if (!json_is_string(v)) {
			rj_error(c, "overrides", key, "expected a string");
			continue;
		}
		if (!(ov = rj_grow(c, r->overrides, &cap, r->noverrides, sizeof(*ov))))
			break;
		r->overrides = ov;
		ov = &r->overrides[r->noverrides++];
		ov->key = rj_dup(c, key);
		ov->value = rj_dup(c, json_string_value(v));
	}
}

/* report: {table: ...}, present only when the job file asked for the layout. */
static void read_table(struct rj *c, json_t *root)
{
	struct table_spec *t = &c->r->table;
	json_t *rep = rj_get_obj(c, root, "", "report", false), *to, *rows, *v;
	size_t cap = 0, i;
	char w[PATH_LEN];

	if (!rep || !(to = rj_get_obj(c, rep, "report", "table", true)))
		return;
	t->columns = rj_dup(c, rj_get_str(c, to, "report.table", "columns", true, false));
	rows = rj_get_arr(c, to, "report.table", "rows", true);
	json_array_foreach(rows, i, v)
	{
		struct table_row *row;
		if (rj_stop(c))
			break;
		rj_path_index(w, "report.table", "rows", i);
		if (!json_is_object(v)) {
			rj_error(c, w, NULL, "expected an object");
			continue;
		}
		if (!(row = rj_grow(c, t->rows, &cap, t->nrows, sizeof(*row))))
			break;
		t->rows = row;
		row = &t->rows[t->nrows++];
		row->job = rj_dup(c, rj_get_str(c, v, w, "job", true, false));
		row->metric = rj_dup(c, rj_get_str(c, v, w, "metric", true, false));
		row->label = rj_dup(c, rj_get_str(c, v, w, "label", true, true));
	}
}

static void read_top(struct rj *c, json_t *root)
{
	struct results *r = c->r;
	json_t *tool = rj_get_obj(c, root, "", "tool", true), *jf, *res;
	const char *units;
	int u;

	if (tool) {
		r->tool_name = rj_dup(c, rj_get_str(c, tool, "tool", "name", true, false));
		r->tool_version = rj_dup(c, rj_get_str(c, tool, "tool", "version", true, false));
	}
	r->experiment = rj_dup(c, rj_get_str(c, root, "", "experiment", true, false));
	r->description = rj_dup(c, rj_get_str(c, root, "", "description", true, true));
	if ((jf = rj_get_obj(c, root, "", "job_file", true))) {
		r->job_path = rj_dup(c, rj_get_str(c, jf, "job_file", "path", true, false));
		rj_get_fixed(c, jf, "job_file", "sha256", r->job_sha256, sizeof(r->job_sha256));
	}
	read_overrides(c, root);
	rj_get_fixed(c, root, "", "started_at", r->started_at, sizeof(r->started_at));
	rj_get_fixed(c, root, "", "finished_at", r->finished_at, sizeof(r->finished_at));
	rj_get_bool(c, root, "", "complete", true, &r->complete);
	rj_get_u64(c, root, "", "seed", true, false, &r->seed);
	r->units = UNITS_DECIMAL;
	units = rj_get_str(c, root, "", "units", false, false);
	if ((u = names_find(units_names, units)) >= 0)
		r->units = (enum spec_units)u;
	else if (units)
		rj_error(c, "", "units", "expected decimal or binary, not '%s'", units);
	r->order = rj_dup(c, rj_get_str(c, root, "", "order", false, true));
	if ((res = rj_get_obj(c, root, "", "resources", false)))
		rj_get_u64(c, res, "resources", "max_rss_bytes", true, true, &r->max_rss_bytes);
	rj_get_u64(c, root, "", "order_seed", false, false, &r->order_seed);
	rj_get_u32(c, root, "", "ranks", false, false, &r->nranks);
	r->nranks = r->nranks ? r->nranks : 1;
	rj_get_fraction(c, root, "", "confidence", false, &r->confidence);
	/* Files written before the key existed: the first instance's level, else the default. */
	if (!isfinite(r->confidence) && r->ninst && isfinite(r->inst[0].rep.confidence))
		r->confidence = r->inst[0].rep.confidence;
	else if (!isfinite(r->confidence))
		r->confidence = 0.95;
}

static int rj_from_json(struct rj *c, json_t *root)
{
	struct src_loc loc = {c->name, 0, 0};
	json_t *schema = json_is_object(root) ? json_object_get(root, "schema") : NULL;

	if (!json_is_string(schema)) {
		diag_add(c->d, &loc, "not an iotrial results file (no \"schema\": \"%s\")", SCHEMA);
		return -EINVAL;
	}
	if (strcmp(json_string_value(schema), SCHEMA) &&
	    !strncmp(json_string_value(schema), "iotrial.results/", 16)) {
		diag_add(
		    c->d, &loc,
		    "written by another version of iotrial (schema \"%.100s\"); this one reads \"%s\"",
		    json_string_value(schema), SCHEMA);
		return -EINVAL;
	}
	if (strcmp(json_string_value(schema), SCHEMA)) {
		diag_add(c->d, &loc,
			 "not an iotrial results file (schema \"%.100s\", expected \"%s\")",
			 json_string_value(schema), SCHEMA);
		return -EINVAL;
	}
	/* Jobs first: the top level's confidence falls back on the first instance. */
	read_jobs(c, root);
	read_comparisons(c, root);
	read_env(c, root);
	read_table(c, root);
	read_top(c, root);
	if (c->nomem) {
		diag_add(c->d, &loc, "out of memory");
		return -ENOMEM;
	}
	return c->nerr ? -EINVAL : 0;
}

static int rj_finish(struct rj *c, json_t *root, const json_error_t *err, bool empty)
{
	struct src_loc loc = {c->name, 0, 0};
	int ret;

	if (empty) {
		/* What a run killed before it wrote anything leaves; say so plainly. */
		diag_add(c->d, &loc, "empty file, not an iotrial results file");
		json_decref(root);
		return -EINVAL;
	}
	if (!root) {
		/* jansson counts columns from 1 but says 0 for an empty file. */
		loc.line = err->line > 0 ? (unsigned)err->line : 1;
		loc.col = err->column > 0 ? (unsigned)err->column : 1;
		diag_add(c->d, &loc, "%s", err->text);
		return -EINVAL;
	}
	ret = rj_from_json(c, root);
	json_decref(root);
	if (ret)
		results_release(c->r);
	return ret;
}

int rj_load(const char *path, struct results *r, struct diag *d)
{
	struct rj c = {path, d, r, 0, false};
	struct src_loc loc = {path, 0, 0};
	json_error_t err;
	json_t *root;
	bool empty;
	FILE *f;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!(f = fopen(path, "r"))) {
		ret = -errno;
		diag_add(d, &loc, "cannot open: %s", strerror(-ret));
		return ret;
	}
	errno = 0;
	root = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
	ret = errno ? -errno : -EIO; /* the read's own errno: EISDIR, EIO, ... */
	empty = ftell(f) == 0;
	if (ferror(f)) {
		diag_add(d, &loc, "cannot read: %s", strerror(-ret));
		json_decref(root);
		fclose(f);
		return ret;
	}
	fclose(f);
	return rj_finish(&c, root, &err, empty);
}

int rj_load_string(const char *name, const char *text, size_t len, struct results *r,
		   struct diag *d)
{
	struct rj c = {name, d, r, 0, false};
	json_error_t err;

	memset(r, 0, sizeof(*r));
	return rj_finish(&c, json_loadb(text, len, JSON_REJECT_DUPLICATES, &err), &err, len == 0);
}
