/* results.json (schema "iotrial.results/1"), written with jansson. Every key of the contract
 * in DESIGN.md is present; what could not be measured is null, never 0. */
#include <errno.h>
#include <jansson.h>
#include <math.h>

#include "model/metrics.h"
#include "model/names.h"
#include "reporters/reporter.h"

#define SCHEMA "iotrial.results/1"

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *jint(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *stat_obj(const struct stat_summary *s)
{
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "mean", num(s->mean), "stddev",
			 num(s->stddev), "cov", num(s->cov), "median", num(s->median), "min",
			 num(s->min), "max", num(s->max), "ci_low", num(s->ci_low), "ci_high",
			 num(s->ci_high), "confidence", num(s->confidence));
}

static json_t *lat_obj(const struct lat_summary *l)
{
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "min", num(l->min), "max",
			 num(l->max), "mean", num(l->mean), "stddev", num(l->stddev), "rms",
			 num(l->rms), "p50", num(l->p50), "p90", num(l->p90), "p95", num(l->p95),
			 "p99", num(l->p99), "p99_9", num(l->p99_9), "p99_99", num(l->p99_99));
}

static json_t *env_obj(const struct run_env *e)
{
	json_t *targets = json_array();

	for (size_t i = 0; i < e->ntargets; i++) {
		const struct env_target *t = &e->targets[i];
		json_array_append_new(
		    targets,
		    json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "path", str(t->path), "fs_type",
			      str(t->fs_type), "device", str(t->device), "model", str(t->model),
			      "rotational",
			      t->rotational < 0 ? json_null() : json_boolean(t->rotational),
			      "logical_block_size",
			      t->logical_block_size ? jint(t->logical_block_size) : json_null()));
	}
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "hostname", str(e->hostname), "kernel",
			 str(e->kernel), "cpu_model", str(e->cpu_model), "cpus",
			 e->cpus ? jint(e->cpus) : json_null(), "mem_bytes",
			 e->mem_bytes ? jint(e->mem_bytes) : json_null(), "targets", targets);
}

/* A distributed trial: one row per rank, and the aggregates beside last done (the
 * trial's own seconds and bw_bytes). */
static void ranks_obj(json_t *o, const struct trial_result *t)
{
	const struct rank_aggregate *a = &t->agg;
	json_t *rs = json_array();

	for (uint32_t i = 0; i < t->nranks; i++) {
		const struct rank_result *r = &t->ranks[i];
		json_t *row = json_pack(
		    "{s:I,s:o,s:I,s:I,s:o,s:I,s:I,s:I}", "rank", (json_int_t)r->rank, "host",
		    str(r->host), "bytes", (json_int_t)r->bytes, "ios", (json_int_t)r->ios,
		    "seconds", num(r->seconds), "start_ns", (json_int_t)r->start_ns, "end_ns",
		    (json_int_t)r->end_ns, "errors", (json_int_t)r->errors);
		json_object_set_new(row, "error", str(r->error));
		if (t->stonewall) {
			json_object_set_new(row, "stopped", json_boolean(r->stopped));
			json_object_set_new(row, "stonewall_bytes", jint(r->stonewall_bytes));
		}
		json_array_append_new(rs, row);
	}
	json_object_set_new(o, "ranks", rs);
	json_object_set_new(o, "aggregate",
			    json_pack("{s:{s:o,s:o},s:{s:o,s:o,s:o},s:{s:o,s:o,s:o,s:b}}",
				      "last_done", "seconds", num(t->seconds), "bw_bytes",
				      num(t->bw_bytes), "wall", "seconds", num(a->wall_seconds),
				      "bw_bytes", num(a->wall_bw_bytes), "start_skew_s",
				      num(a->start_skew_s), "first_done", "seconds",
				      num(a->first_done_seconds), "bytes", num(a->first_done_bytes),
				      "bw_bytes", num(a->first_done_bw_bytes), "estimated", 0));
	json_object_set_new(json_object_get(o, "aggregate"), "lat_samples", jint(a->lat_samples));
}

static json_t *trial_obj(const struct trial_result *t)
{
	json_t *o = json_pack("{s:I,s:b,s:b,s:o,s:o,s:o,s:I,s:I,s:o,s:o,s:o,s:{s:o,s:o},s:I}",
			      "index", (json_int_t)t->index, "kept", t->kept, "warmup", t->warmup,
			      "start_ns", t->ran ? jint(t->start_ns) : json_null(), "end_ns",
			      t->ran ? jint(t->end_ns) : json_null(), "seconds", num(t->seconds),
			      "bytes", (json_int_t)t->bytes, "ios", (json_int_t)t->ios, "iops",
			      num(t->iops), "bw_bytes", num(t->bw_bytes), "lat_ns",
			      lat_obj(&t->lat), "cpu", "user_s", num(t->cpu_user_s), "sys_s",
			      num(t->cpu_sys_s), "errors", (json_int_t)t->errors);

	json_object_set_new(o, "ran", json_boolean(t->ran));
	json_object_set_new(o, "failed", json_boolean(t->failed));
	json_object_set_new(o, "dropped", json_boolean(t->dropped));
	json_object_set_new(o, "load_failed", json_boolean(t->load_failed));
	json_object_set_new(o, "error", str(t->error));
	json_object_set_new(o, "page_cache", num(t->cached));
	json_object_set_new(o, "page_cache_after", num(t->cached_after));
	if (t->nworkers) {
		json_t *ws = json_array();
		for (uint32_t i = 0; i < t->nworkers; i++) {
			const struct worker_result *w = &t->workers[i];
			json_t *row =
			    json_pack("{s:I,s:I,s:I,s:o,s:I,s:o}", "worker", (json_int_t)w->worker,
				      "bytes", (json_int_t)w->bytes, "ios", (json_int_t)w->ios,
				      "seconds", num(w->seconds), "errors", (json_int_t)w->errors,
				      "lat_ns", lat_obj(&w->lat));
			/* A distributed trial lists every rank's workers: whose is each. */
			if (t->nranks)
				json_object_set_new(row, "rank", jint(w->rank));
			json_array_append_new(ws, row);
		}
		json_object_set_new(o, "workers", ws);
	}
	if (t->stonewall) {
		json_object_set_new(o, "stonewalled", json_boolean(t->stonewalled));
		json_object_set_new(o, "stonewall_bytes", jint(t->stonewall_bytes));
	}
	if (t->nranks)
		ranks_obj(o, t);
	return o;
}

/* The change points, and the series they were found in (bytes/s; points as
 * [at_bytes, at_ns, value], to keep long series small). */
static void series_obj(json_t *o, const struct instance_result *ir)
{
	json_t *cps = json_array(), *ss = json_array();

	for (size_t i = 0; i < ir->ncps; i++) {
		const struct change_point *c = &ir->cps[i];
		json_array_append_new(cps, json_pack("{s:s,s:I,s:I,s:I,s:o,s:o,s:s}", "series",
						     names_get(series_kind_names, (int)c->kind),
						     "trial", (json_int_t)c->trial, "at_bytes",
						     (json_int_t)c->at_bytes, "at_ns",
						     (json_int_t)c->at_ns, "before", num(c->before),
						     "after", num(c->after), "unit", "bytes/s"));
	}
	for (size_t i = 0; i < ir->nseries; i++) {
		const struct series *s = &ir->series[i];
		json_t *pts = json_array();
		for (size_t k = 0; k < s->npts; k++)
			json_array_append_new(
			    pts, json_pack("[I,I,o]", (json_int_t)s->pts[k].at_bytes,
					   (json_int_t)s->pts[k].at_ns, num(s->pts[k].value)));
		json_array_append_new(ss, json_pack("{s:s,s:I,s:s,s:o}", "kind",
						    names_get(series_kind_names, (int)s->kind),
						    "trial", (json_int_t)s->trial, "unit",
						    "bytes/s", "points", pts));
	}
	json_object_set_new(o, "change_points", cps);
	json_object_set_new(o, "series", ss);
}

static json_t *instance_obj(const struct instance_result *ir)
{
	const struct instance_summary *s = &ir->summary;
	json_t *params = json_object(), *trials = json_array(), *matrix = json_array(), *sum, *o;
	const struct replication_info *rp = &ir->rep;

	for (size_t i = 0; i < ir->nparams; i++) {
		const struct param *p = &ir->params[i];
		json_t *v = p->type == PV_STR	 ? json_string(p->s)
			    : p->type == PV_UINT ? jint(p->u)
			    : p->type == PV_BOOL ? json_boolean(p->b)
			    : p->type == PV_REAL ? num(p->d)
						 : json_null();
		json_object_set_new(params, p->key, v);
	}
	/* The matrix keys in the order the job file lists them. */
	for (uint32_t pos = 1; pos <= ir->nparams; pos++)
		for (size_t i = 0; i < ir->nparams; i++)
			if (ir->params[i].matrix == pos)
				json_array_append_new(matrix, json_string(ir->params[i].key));
	for (size_t i = 0; i < ir->ntrials; i++)
		if (ir->trials[i].ran)
			json_array_append_new(trials, trial_obj(&ir->trials[i]));
	sum = json_pack("{s:I,s:I}", "runs", (json_int_t)s->runs, "kept", (json_int_t)s->kept);
	for (size_t k = 0; k < METRIC_N; k++)
		json_object_set_new(sum, metrics[k].name, stat_obj(&s->stat[k]));
	json_object_set_new(sum, "required_runs",
			    json_pack("{s:o,s:o,s:o,s:s}", "confidence",
				      num(s->required.confidence), "error", num(s->required.error),
				      "n", num(s->required.n), "metric",
				      s->required.metric ? s->required.metric : metrics[0].name));
	json_object_set_new(sum, "reads_cached", json_boolean(ir->reads_cached));
	json_object_set_new(sum, "metric", str(s->metric));
	json_object_set_new(sum, "before_outliers",
			    json_pack("{s:I,s:o,s:o,s:o}", "runs", (json_int_t)s->before.n, "mean",
				      num(s->before.mean), "stddev", num(s->before.stddev), "cov",
				      num(s->before.cov)));
	json_object_set_new(sum, "stopped_by", str(s->stopped_by));
	if (ir->records)
		json_object_set_new(sum, "records",
				    json_pack("{s:o,s:o,s:o,s:o}", "min_ns", num(s->rec_min_ns),
					      "max_ns", num(s->rec_max_ns), "mean_ns",
					      num(s->rec_mean_ns), "rms_ns", num(s->rec_rms_ns)));
	o = json_pack("{s:s,s:s,s:o,s:s,s:s,s:I,s:o,s:o}", "name", ir->name, "job", ir->job,
		      "params", params, "backend", ir->backend, "workload", ir->workload, "threads",
		      (json_int_t)ir->threads, "trials", trials, "summary", sum);
	json_object_set_new(o, "matrix", matrix);
	json_object_set_new(o, "background", json_boolean(ir->background));
	series_obj(o, ir);
	json_object_set_new(
	    o, "replication",
	    json_pack("{s:s,s:I,s:I,s:o,s:b,s:o,s:o,s:o,s:o,s:o}", "outliers",
		      names_get(outlier_policy_names, (int)rp->outliers), "trim_low",
		      (json_int_t)rp->trim_low, "trim_high", (json_int_t)rp->trim_high, "outlier_k",
		      rp->outliers == OUTLIERS_IQR || rp->outliers == OUTLIERS_MAD
			  ? num(rp->outlier_k)
			  : json_null(),
		      "target", rp->target, "pilot", rp->target ? jint(rp->pilot) : json_null(),
		      "max", rp->target ? jint(rp->max) : json_null(), "confidence",
		      num(rp->confidence), "error", num(rp->error), "metric", str(rp->metric)));
	return o;
}

static json_t *comparisons(const struct results *r)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->ncmp; i++) {
		const struct comparison *c = &r->cmp[i];
		json_t *o = json_pack("{s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:b,s:o,s:s}", "a", c->a, "b",
				      c->b, "metric", c->metric, "diff_mean", num(c->diff_mean),
				      "ci_low", num(c->ci_low), "ci_high", num(c->ci_high),
				      "confidence", num(c->confidence), "significant",
				      c->significant, "ratio", num(c->ratio), "test", c->test);
		json_object_set_new(o, "a_label", str(c->a_label));
		json_object_set_new(o, "b_label", str(c->b_label));
		json_object_set_new(o, "mean_a", num(c->mean_a));
		json_object_set_new(o, "mean_b", num(c->mean_b));
		json_object_set_new(o, "n_a", jint(c->na));
		json_object_set_new(o, "n_b", jint(c->nb));
		json_object_set_new(o, "df", num(c->df));
		json_array_append_new(a, o);
	}
	return a;
}

static int json_report(const struct results *r, FILE *out)
{
	json_t *root, *overrides = json_object(), *jobs = json_array();
	int ret;

	for (size_t i = 0; i < r->noverrides; i++)
		json_object_set_new(overrides, r->overrides[i].key,
				    json_string(r->overrides[i].value));
	for (size_t i = 0; i < r->ninst; i++)
		json_array_append_new(jobs, instance_obj(&r->inst[i]));
	root = json_pack(
	    "{s:s,s:{s:s,s:s},s:s,s:o,s:{s:s,s:s},s:o,s:s,s:s,s:b,s:I,s:s,s:o,s:o,s:o}", "schema",
	    SCHEMA, "tool", "name", r->tool_name, "version", r->tool_version, "experiment",
	    r->experiment, "description", str(r->description), "job_file", "path", r->job_path,
	    "sha256", r->job_sha256, "overrides", overrides, "started_at", r->started_at,
	    "finished_at", r->finished_at, "complete", r->complete, "seed", (json_int_t)r->seed,
	    "units", names_get(units_names, (int)r->units), "env", env_obj(&r->env), "jobs", jobs,
	    "comparisons", comparisons(r));
	if (!root)
		return -ENOMEM;
	json_object_set_new(root, "order", str(r->order));
	json_object_set_new(root, "resources",
			    json_pack("{s:o}", "max_rss_bytes",
				      r->max_rss_bytes ? jint(r->max_rss_bytes) : json_null()));
	if (r->table.columns) {
		json_t *rows = json_array();
		for (size_t i = 0; i < r->table.nrows; i++)
			json_array_append_new(rows, json_pack("{s:s,s:s,s:o}", "job",
							      r->table.rows[i].job, "metric",
							      r->table.rows[i].metric, "label",
							      str(r->table.rows[i].label)));
		json_object_set_new(
		    root, "report",
		    json_pack("{s:{s:s,s:o}}", "table", "columns", r->table.columns, "rows", rows));
	}
	json_object_set_new(root, "order_seed", jint(r->order_seed));
	/* How many ranks ran it (1: not distributed); their rows are in each trial. */
	json_object_set_new(root, "ranks", jint(r->nranks ? r->nranks : 1));
	/* The level of the text summary's intervals, so a report read back says the same. */
	json_object_set_new(root, "confidence", num(r->confidence));
	ret = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	fputc('\n', out);
	json_decref(root);
	return ret < 0 ? -EIO : 0;
}

const struct rep_ops rep_json = {
    .name = "json",
    .file = "results.json",
    .write = json_report,
};
