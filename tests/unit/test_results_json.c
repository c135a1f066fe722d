/* results.json read back: a hand-built result written by the JSON reporter, read with
 * rj_load, must come back field by field (NAN stays NAN, NULL stays NULL) and write out
 * byte-identical; broken files must give one exact message each. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "model/metrics.h"
#include "model/names.h"
#include "model/results_json.h"
#include "reporters/reporter.h"

/* Equal, or both NAN: an unmeasured value must stay unmeasured. */
#define EQ_D(a, b)                                                                                 \
	do {                                                                                       \
		double x_ = (a), y_ = (b);                                                         \
		if (!(isnan(x_) && isnan(y_)) && x_ != y_)                                         \
			fail_msg("%s: %.17g != %.17g", #a, x_, y_);                                \
	} while (0)

#define EQ_S(a, b)                                                                                 \
	do {                                                                                       \
		const char *x_ = (a), *y_ = (b);                                                   \
		if ((x_ == NULL) != (y_ == NULL) || (x_ && strcmp(x_, y_)))                        \
			fail_msg("%s: '%s' != '%s'", #a, x_ ? x_ : "(null)", y_ ? y_ : "(null)");  \
	} while (0)

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void stat_fill(struct stat_summary *s, double base, bool unmeasured)
{
	*s = (struct stat_summary){3,	       base,	   base / 10,	0.1,	     base,
				   base * 0.9, base * 1.1, base * 0.95, base * 1.05, 0.95};
	s->n = 0; /* not in the file */
	if (unmeasured)
		s->stddev = s->cov = s->ci_low = s->ci_high = NAN;
}

static void trial_fill(struct trial_result *t, uint32_t index, double seconds)
{
	memset(t, 0, sizeof(*t));
	t->index = index;
	t->ran = true;
	t->kept = true;
	t->start_ns = 1000000ull * index;
	t->end_ns = t->start_ns + (uint64_t)(seconds * 1e9);
	t->seconds = seconds;
	t->bytes = 4096;
	t->ios = 1;
	t->iops = 1 / seconds;
	t->bw_bytes = 4096 / seconds;
	t->lat = (struct lat_summary){1, 2, 1.5, NAN, 1.6, 1.5, 1.9, 1.95, 1.99, 2, 2};
	t->cpu_user_s = 0.001;
	t->cpu_sys_s = NAN;
	t->cached = NAN;
	t->cached_after = NAN;
}

static void param_set(struct param *p, const char *key, uint32_t matrix, enum param_type type)
{
	memset(p, 0, sizeof(*p));
	p->key = xstrdup(key);
	p->matrix = matrix;
	p->type = type;
}

/* Two instances of a matrix job, three trials each, with NANs, every parameter type and a
 * comparison: every field reporters/json.c writes, set to something it can tell apart. */
static void build(struct results *r)
{
	memset(r, 0, sizeof(*r));
	r->tool_name = xstrdup("iotrial");
	r->tool_version = xstrdup("0.1.0-test");
	r->experiment = xstrdup("roundtrip");
	r->description = NULL;
	r->job_path = xstrdup("jobs/rt.yaml");
	strcpy(r->job_sha256, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	r->overrides = calloc(1, sizeof(*r->overrides));
	r->overrides[0] = (struct spec_override){xstrdup("replication.runs"), xstrdup("3")};
	r->noverrides = 1;
	strcpy(r->started_at, "2026-11-30T09:00:00Z");
	strcpy(r->finished_at, "2026-11-30T09:00:01Z");
	r->complete = true;
	r->seed = 42;
	r->units = UNITS_BINARY;
	r->confidence = 0.9;
	r->order = xstrdup("interleaved");
	r->order_seed = UINT64_MAX - 5; /* beyond int64: written negative, read back exactly */
	r->max_rss_bytes = 12345678;
	r->env.hostname = xstrdup("host");
	r->env.kernel = xstrdup("6.1.0");
	r->env.cpu_model = NULL;
	r->env.cpus = 8;
	r->env.mem_bytes = 1ull << 34;
	r->env.clocksource = xstrdup("kvm-clock");
	r->env.clock = xstrdup("monotonic");
	r->env.targets = calloc(1, sizeof(*r->env.targets));
	r->env.targets[0] = (struct env_target){
	    xstrdup("/tmp/x"), xstrdup("tmpfs"), xstrdup("tmpfs"), NULL, -1, 4096, NULL};
	r->env.ntargets = 1;

	r->inst = calloc(2, sizeof(*r->inst));
	r->ninst = 2;
	for (size_t k = 0; k < 2; k++) {
		struct instance_result *ir = &r->inst[k];
		struct instance_summary *s = &ir->summary;

		ir->name = xstrdup(k ? "s[sim_mean=12000000]" : "s[sim_mean=10000000]");
		ir->job = xstrdup("s");
		ir->backend = xstrdup("synthetic");
		ir->workload = xstrdup("read");
		ir->threads = 1;
		ir->params = calloc(5, sizeof(*ir->params));
		ir->nparams = 5;
		param_set(&ir->params[0], "sim_mean", 1, PV_UINT);
		ir->params[0].u = k ? 12000000 : 10000000;
		param_set(&ir->params[1], "target", 0, PV_STR);
		ir->params[1].s = xstrdup("/tmp/x");
		param_set(&ir->params[2], "direct", k == 1 ? 2 : 0, PV_BOOL);
		ir->params[2].b = k == 1;
		param_set(&ir->params[3], "rate", 0, PV_REAL);
		ir->params[3].d = 0.25;
		param_set(&ir->params[4], "source", 0, PV_NULL);
		ir->trials = calloc(3, sizeof(*ir->trials));
		ir->ntrials = 3;
		for (uint32_t t = 0; t < 3; t++)
			trial_fill(&ir->trials[t], t, (k ? 0.012 : 0.010) + t * 0.0001);
		ir->trials[0].warmup = true;
		ir->trials[0].kept = false;
		ir->trials[2].failed = k == 1;
		ir->trials[2].kept = k != 1;
		ir->trials[2].error =
		    k ? xstrdup("read '/tmp/x' at offset 0 (4096 bytes): EIO") : NULL;
		ir->trials[1].dropped = k == 0;
		ir->trials[1].seconds = k ? NAN : ir->trials[1].seconds;
		ir->trials[1].cached = 0.5;
		ir->trials[1].cached_after = 0.75;
		if (k == 0) {
			/* Two workers on one trial: the per-worker rows. */
			ir->trials[1].workers = calloc(2, sizeof(*ir->trials[1].workers));
			ir->trials[1].nworkers = 2;
			for (uint32_t w = 0; w < 2; w++)
				ir->trials[1].workers[w] = (struct worker_result){
				    w, 2048, 1, w, 0.0051, ir->trials[1].lat, 0};
		}
		ir->background = k == 1;
		ir->records = k == 0;

		s->runs = 2;
		s->kept = k ? 1 : 2;
		stat_fill(&s->stat[METRIC_SECONDS], 0.01, k == 1);
		stat_fill(&s->stat[METRIC_BW_BYTES], 4e5, false);
		stat_fill(&s->stat[METRIC_IOPS], 100, false);
		stat_fill(&s->stat[METRIC_LAT_MEAN_NS], NAN, true);
		for (int d = 0; d < 2; d++) {
			stat_fill(&s->dir[d].iops, 70 - 40 * d, false);
			stat_fill(&s->dir[d].bw_bytes, 3e5 - 2e5 * d, false);
			stat_fill(&s->dir[d].lat_mean_ns, NAN, true);
			s->dir[d].required_n = 5 + d;
		}
		s->required = (struct required_runs){0.95, 0.03, k ? NAN : 43, "seconds"};
		s->metric = k ? "bw_bytes" : "seconds";
		s->before = (struct before_policy){2, 0.0101, k ? NAN : 0.0002, k ? NAN : 0.02};
		s->stopped_by = k ? "precision" : NULL;
		s->rec_min_ns = k ? NAN : 1000;
		s->rec_max_ns = k ? NAN : 9000;
		s->rec_mean_ns = k ? NAN : 4000;
		s->rec_rms_ns = NAN;
		ir->reads_cached = k == 1;
		ir->rep = (struct replication_info){
		    .outliers = k ? OUTLIERS_IQR : OUTLIERS_TRIM,
		    .trim_low = k ? 0 : 1,
		    .trim_high = k ? 0 : 1,
		    .outlier_k = k ? 1.5 : NAN, /* written only for iqr and mad */
		    .target = k == 1,
		    .pilot = k ? 5 : 0, /* written only for a target */
		    .max = k ? 50 : 0,
		    .confidence = 0.95,
		    .error = 0.03,
		    .metric = k ? "seconds" : NULL,
		    /* target.estimate and its figures: written only for a target */
		    .estimate = k == 1 ? ESTIMATE_PILOT : ESTIMATE_KEPT,
		    .round = k == 1 ? 10 : 0,
		    .pilot_n = k == 1 ? 186 : NAN,
		};
	}
	r->table.columns = xstrdup("sim_mean");
	r->table.rows = calloc(3, sizeof(*r->table.rows));
	r->table.rows[0] = (struct table_row){
	    .job = xstrdup("s"), .metric = xstrdup("seconds"), .label = xstrdup("time")};
	r->table.rows[1] = (struct table_row){.job = xstrdup("s"), .metric = xstrdup("iops")};
	/* A descriptive row: what each device says (here one of them). */
	r->table.rows[2] = (struct table_row){.about = xstrdup("mfg"), .label = xstrdup("maker")};
	r->table.rows[2].facts = calloc(1, sizeof(*r->table.rows[2].facts));
	r->table.rows[2].facts[0] = (struct device_fact){xstrdup("usb"), xstrdup("Seagate")};
	r->table.rows[2].nfacts = 1;
	r->table.nrows = 3;
	r->cmp = calloc(1, sizeof(*r->cmp));
	r->ncmp = 1;
	r->cmp[0] = (struct comparison){
	    .a = xstrdup(r->inst[0].name),
	    .b = xstrdup(r->inst[1].name),
	    .a_label = xstrdup("sim_mean=10000000"),
	    .b_label = NULL,
	    .metric = xstrdup("seconds"),
	    .mean_a = 0.01,
	    .mean_b = 0.012,
	    .diff_mean = -0.002,
	    .ci_low = -0.0025,
	    .ci_high = -0.0015,
	    .confidence = 0.95,
	    .ratio = 0.8333,
	    .df = NAN,
	    .na = 2,
	    .nb = 1,
	    .significant = true,
	    .test = "welch",
	};
}

static void assert_stat_eq(const struct stat_summary *a, const struct stat_summary *b)
{
	EQ_D(a->mean, b->mean);
	EQ_D(a->stddev, b->stddev);
	EQ_D(a->cov, b->cov);
	EQ_D(a->median, b->median);
	EQ_D(a->min, b->min);
	EQ_D(a->max, b->max);
	EQ_D(a->ci_low, b->ci_low);
	EQ_D(a->ci_high, b->ci_high);
	EQ_D(a->confidence, b->confidence);
}

/* Field by field: walking the struct as an array of doubles would be undefined behaviour,
 * and would miss a field that is not a double. */
static void assert_lat_eq(const struct lat_summary *a, const struct lat_summary *b)
{
	EQ_D(a->min, b->min);
	EQ_D(a->max, b->max);
	EQ_D(a->mean, b->mean);
	EQ_D(a->stddev, b->stddev);
	EQ_D(a->rms, b->rms);
	EQ_D(a->p50, b->p50);
	EQ_D(a->p90, b->p90);
	EQ_D(a->p95, b->p95);
	EQ_D(a->p99, b->p99);
	EQ_D(a->p99_9, b->p99_9);
	EQ_D(a->p99_99, b->p99_99);
}

static void assert_trial_eq(const struct trial_result *a, const struct trial_result *b)
{
	assert_int_equal(a->index, b->index);
	assert_int_equal(a->warmup, b->warmup);
	assert_int_equal(a->kept, b->kept);
	assert_int_equal(a->ran, b->ran);
	assert_int_equal(a->failed, b->failed);
	assert_int_equal(a->dropped, b->dropped);
	assert_int_equal(a->start_ns, b->start_ns);
	assert_int_equal(a->end_ns, b->end_ns);
	EQ_D(a->seconds, b->seconds);
	assert_int_equal(a->bytes, b->bytes);
	assert_int_equal(a->ios, b->ios);
	EQ_D(a->iops, b->iops);
	EQ_D(a->bw_bytes, b->bw_bytes);
	assert_lat_eq(&a->lat, &b->lat);
	EQ_D(a->cpu_user_s, b->cpu_user_s);
	EQ_D(a->cpu_sys_s, b->cpu_sys_s);
	assert_int_equal(a->errors, b->errors);
	EQ_D(a->cached, b->cached);
	EQ_D(a->cached_after, b->cached_after);
	EQ_S(a->error, b->error);
	assert_int_equal(a->nworkers, b->nworkers);
	for (uint32_t i = 0; i < a->nworkers; i++) {
		const struct worker_result *wa = &a->workers[i], *wb = &b->workers[i];
		assert_int_equal(wa->worker, wb->worker);
		assert_int_equal(wa->rank, wb->rank);
		assert_int_equal(wa->bytes, wb->bytes);
		assert_int_equal(wa->ios, wb->ios);
		assert_int_equal(wa->errors, wb->errors);
		EQ_D(wa->seconds, wb->seconds);
		assert_lat_eq(&wa->lat, &wb->lat);
	}
}

static void assert_instance_eq(const struct instance_result *a, const struct instance_result *b)
{
	const struct instance_summary *sa = &a->summary, *sb = &b->summary;

	EQ_S(a->name, b->name);
	EQ_S(a->job, b->job);
	EQ_S(a->backend, b->backend);
	EQ_S(a->workload, b->workload);
	assert_int_equal(a->threads, b->threads);
	assert_int_equal(a->reads_cached, b->reads_cached);
	assert_int_equal(a->background, b->background);
	assert_int_equal(a->records, b->records);
	EQ_D(sa->rec_min_ns, sb->rec_min_ns);
	EQ_D(sa->rec_max_ns, sb->rec_max_ns);
	EQ_D(sa->rec_mean_ns, sb->rec_mean_ns);
	EQ_D(sa->rec_rms_ns, sb->rec_rms_ns);
	assert_int_equal(a->nparams, b->nparams);
	for (size_t i = 0; i < a->nparams; i++) {
		const struct param *pa = &a->params[i], *pb = &b->params[i];
		EQ_S(pa->key, pb->key);
		assert_int_equal(pa->matrix, pb->matrix);
		assert_int_equal(pa->type, pb->type);
		EQ_S(pa->s, pb->s);
		assert_int_equal(pa->u, pb->u);
		assert_int_equal(pa->b, pb->b);
		if (pa->type == PV_REAL)
			EQ_D(pa->d, pb->d);
	}
	assert_int_equal(a->ntrials, b->ntrials);
	for (size_t i = 0; i < a->ntrials; i++)
		assert_trial_eq(&a->trials[i], &b->trials[i]);
	assert_int_equal(sa->runs, sb->runs);
	assert_int_equal(sa->kept, sb->kept);
	for (size_t k = 0; k < METRIC_N; k++)
		assert_stat_eq(&sa->stat[k], &sb->stat[k]);
	EQ_D(sa->required.confidence, sb->required.confidence);
	EQ_D(sa->required.error, sb->required.error);
	EQ_D(sa->required.n, sb->required.n);
	EQ_S(sa->required.metric, sb->required.metric);
	EQ_S(sa->metric, sb->metric);
	assert_int_equal(sa->before.n, sb->before.n);
	EQ_D(sa->before.mean, sb->before.mean);
	EQ_D(sa->before.stddev, sb->before.stddev);
	EQ_D(sa->before.cov, sb->before.cov);
	EQ_S(sa->stopped_by, sb->stopped_by);
	assert_int_equal(a->rep.outliers, b->rep.outliers);
	assert_int_equal(a->rep.trim_low, b->rep.trim_low);
	assert_int_equal(a->rep.trim_high, b->rep.trim_high);
	EQ_D(a->rep.outlier_k, b->rep.outlier_k);
	assert_int_equal(a->rep.target, b->rep.target);
	assert_int_equal(a->rep.pilot, b->rep.pilot);
	assert_int_equal(a->rep.max, b->rep.max);
	EQ_D(a->rep.confidence, b->rep.confidence);
	EQ_D(a->rep.error, b->rep.error);
	EQ_S(a->rep.metric, b->rep.metric);
	assert_int_equal(a->rep.estimate, b->rep.estimate);
	assert_int_equal(a->rep.round, b->rep.round);
	EQ_D(a->rep.pilot_n, b->rep.pilot_n);
}

static void assert_results_eq(const struct results *a, const struct results *b)
{
	EQ_S(a->tool_name, b->tool_name);
	EQ_S(a->tool_version, b->tool_version);
	EQ_S(a->experiment, b->experiment);
	EQ_S(a->description, b->description);
	EQ_S(a->job_path, b->job_path);
	EQ_S(a->job_sha256, b->job_sha256);
	assert_int_equal(a->noverrides, b->noverrides);
	for (size_t i = 0; i < a->noverrides; i++) {
		EQ_S(a->overrides[i].key, b->overrides[i].key);
		EQ_S(a->overrides[i].value, b->overrides[i].value);
	}
	EQ_S(a->started_at, b->started_at);
	EQ_S(a->finished_at, b->finished_at);
	assert_int_equal(a->complete, b->complete);
	assert_int_equal(a->seed, b->seed);
	assert_int_equal(a->units, b->units);
	EQ_D(a->confidence, b->confidence);
	EQ_S(a->order, b->order);
	assert_int_equal(a->order_seed, b->order_seed);
	assert_int_equal(a->max_rss_bytes, b->max_rss_bytes);
	EQ_S(a->table.columns, b->table.columns);
	assert_int_equal(a->table.nrows, b->table.nrows);
	for (size_t i = 0; i < a->table.nrows; i++) {
		EQ_S(a->table.rows[i].job, b->table.rows[i].job);
		EQ_S(a->table.rows[i].metric, b->table.rows[i].metric);
		EQ_S(a->table.rows[i].label, b->table.rows[i].label);
		EQ_S(a->table.rows[i].about, b->table.rows[i].about);
		assert_int_equal(a->table.rows[i].nfacts, b->table.rows[i].nfacts);
		for (size_t k = 0; k < a->table.rows[i].nfacts; k++) {
			EQ_S(a->table.rows[i].facts[k].key, b->table.rows[i].facts[k].key);
			EQ_S(a->table.rows[i].facts[k].value, b->table.rows[i].facts[k].value);
		}
	}
	EQ_S(a->env.hostname, b->env.hostname);
	EQ_S(a->env.kernel, b->env.kernel);
	EQ_S(a->env.cpu_model, b->env.cpu_model);
	assert_int_equal(a->env.cpus, b->env.cpus);
	assert_int_equal(a->env.mem_bytes, b->env.mem_bytes);
	EQ_S(a->env.clocksource, b->env.clocksource);
	EQ_S(a->env.clock, b->env.clock);
	assert_int_equal(a->env.ntargets, b->env.ntargets);
	for (size_t i = 0; i < a->env.ntargets; i++) {
		const struct env_target *ta = &a->env.targets[i], *tb = &b->env.targets[i];
		EQ_S(ta->path, tb->path);
		EQ_S(ta->fs_type, tb->fs_type);
		EQ_S(ta->device, tb->device);
		EQ_S(ta->model, tb->model);
		assert_int_equal(ta->rotational, tb->rotational);
		assert_int_equal(ta->logical_block_size, tb->logical_block_size);
	}
	assert_int_equal(a->ninst, b->ninst);
	for (size_t i = 0; i < a->ninst; i++)
		assert_instance_eq(&a->inst[i], &b->inst[i]);
	assert_int_equal(a->ncmp, b->ncmp);
	for (size_t i = 0; i < a->ncmp; i++) {
		const struct comparison *ca = &a->cmp[i], *cb = &b->cmp[i];
		EQ_S(ca->a, cb->a);
		EQ_S(ca->b, cb->b);
		EQ_S(ca->a_label, cb->a_label);
		EQ_S(ca->b_label, cb->b_label);
		EQ_S(ca->metric, cb->metric);
		EQ_D(ca->mean_a, cb->mean_a);
		EQ_D(ca->mean_b, cb->mean_b);
		EQ_D(ca->diff_mean, cb->diff_mean);
		EQ_D(ca->ci_low, cb->ci_low);
		EQ_D(ca->ci_high, cb->ci_high);
		EQ_D(ca->confidence, cb->confidence);
		EQ_D(ca->ratio, cb->ratio);
		EQ_D(ca->df, cb->df);
		assert_int_equal(ca->na, cb->na);
		assert_int_equal(ca->nb, cb->nb);
		assert_int_equal(ca->significant, cb->significant);
		EQ_S(ca->test, cb->test);
	}
}

/* Reporter `name`'s text for `r`, malloc'd. */
static char *report(const char *name, const struct results *r)
{
	const struct rep_ops *rep = rep_find(name);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(rep);
	assert_non_null(f);
	assert_int_equal(rep->write(r, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *to_json(const struct results *r)
{
	return report("json", r);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	assert_int_equal(fclose(f), 0);
}

static void test_roundtrip(void **state)
{
	char path[] = "/tmp/test_results_json.XXXXXX";
	struct results a, b;
	struct diag d = {0};
	char *first, *second;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	build(&a);
	first = to_json(&a);
	write_file(path, first);
	assert_int_equal(rj_load(path, &b, &d), 0);
	assert_int_equal(d.n, 0);
	assert_results_eq(&a, &b);
	second = to_json(&b);
	assert_string_equal(first, second);
	/* What every other reporter makes of it is the same too. */
	for (size_t i = 0; rep_registry[i]; i++) {
		char *x = report(rep_registry[i]->name, &a), *y = report(rep_registry[i]->name, &b);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
	results_release(&a);
	results_release(&b);
	free(first);
	free(second);
	unlink(path);
}

/* Load `text` (named "r.json") and expect it refused with exactly `msg`. */
static void expect_error(const char *text, const char *msg)
{
	struct results r;
	struct diag d = {0};

	assert_int_equal(rj_load_string("r.json", text, strlen(text), &r, &d), -EINVAL);
	if (d.n != 1)
		fail_msg("%zu messages for '%.60s', the first '%s'", d.n, text,
			 d.n ? d.msgs[0] : "");
	assert_string_equal(d.msgs[0], msg);
	diag_release(&d);
}

/* The round-trip file with one edit: key `key` of jobs[1] (`in` "job"), of its summary
 * ("summary"), its replication ("replication"), its trials[2] ("trial") or of the report
 * table's rows[`in` "row0" or "row2"] set to `v`, or removed when `v` is NULL. */
static char *edited(const char *in, const char *key, json_t *v)
{
	struct results a;
	char *text;
	json_t *root, *o;

	build(&a);
	text = to_json(&a);
	results_release(&a);
	root = json_loads(text, 0, NULL);
	free(text);
	assert_non_null(root);
	o = json_array_get(json_object_get(root, "jobs"), 1);
	if (!strcmp(in, "summary"))
		o = json_object_get(o, "summary");
	else if (!strcmp(in, "replication"))
		o = json_object_get(o, "replication");
	else if (!strcmp(in, "trial"))
		o = json_array_get(json_object_get(o, "trials"), 2);
	else if (!strncmp(in, "row", 3))
		o = json_array_get(
		    json_object_get(json_object_get(json_object_get(root, "report"), "table"),
				    "rows"),
		    (size_t)(in[3] - '0'));
	assert_non_null(o);
	if (v)
		assert_int_equal(json_object_set_new(o, key, v), 0);
	else
		assert_int_equal(json_object_del(o, key), 0);
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	return text;
}

static void test_bad_inputs(void **state)
{
	struct results r;
	struct diag d = {0};
	char *text;
	bool found;

	expect_error("hello", "r.json:1:5: '[' or '{' expected near 'hello'");
	expect_error("{\"schema\": \"iotrial.results/1\",\n \"jobs\": [}",
		     "r.json:2:11: unexpected token near '}'");
	expect_error("", "r.json: empty file, not an iotrial results file");
	expect_error("{\"schema\": \"fio/3\"}",
		     "r.json: not an iotrial results file (schema \"fio/3\", expected "
		     "\"iotrial.results/1\")");
	expect_error("[1, 2]",
		     "r.json: not an iotrial results file (no \"schema\": \"iotrial.results/1\")");
	expect_error("{\"a\": 1, \"a\": 2}", "r.json:1:12: duplicate object key near '\"a\"'");

	text = edited("trial", "seconds", json_string("fast"));
	expect_error(text, "r.json: jobs[1].trials[2].seconds: expected a number");
	free(text);
	text = edited("trial", "index", json_integer(-1));
	expect_error(text, "r.json: jobs[1].trials[2].index: expected an integer from 0 to "
			   "4294967295");
	free(text);
	text = edited("trial", "kept", json_null());
	expect_error(text, "r.json: jobs[1].trials[2].kept: expected true or false");
	free(text);
	text = edited("job", "matrix", json_pack("[s]", "nope"));
	expect_error(text, "r.json: jobs[1].matrix[0]: 'nope' is not a key of params");
	free(text);
	text = edited("summary", "runs", json_real(2.5));
	expect_error(text, "r.json: jobs[1].summary.runs: expected an integer from 0 to "
			   "4294967295");
	free(text);
	text = edited("replication", "estimate", json_string("later"));
	expect_error(text, "r.json: jobs[1].replication.estimate: expected kept or pilot, not "
			   "'later'");
	free(text);
	/* A report row shows a job's metric or describes the devices: each needs its keys. */
	text = edited("row0", "job", NULL);
	expect_error(text, "r.json: report.table.rows[0].job: missing (expected a string)");
	free(text);
	text = edited("row2", "values", NULL);
	expect_error(text, "r.json: report.table.rows[2].values: missing (expected an object)");
	free(text);
	text = edited("row2", "values", json_pack("{s:i}", "usb", 1));
	expect_error(text, "r.json: report.table.rows[2].values.usb: expected a string");
	free(text);

	/* A file that lacks what the contract requires: every problem, one line each. */
	assert_int_equal(
	    rj_load_string("r.json", "{\"schema\": \"iotrial.results/1\"}", 31, &r, &d), -EINVAL);
	assert_true(d.n > 3);
	/* In the order the keys are written (the field table's). */
	assert_string_equal(d.msgs[0], "r.json: tool: missing (expected an object)");
	found = false;
	for (size_t i = 0; i < d.n; i++)
		found = found || !strcmp(d.msgs[i], "r.json: jobs: missing (expected an array)");
	assert_true(found);
	diag_release(&d);

	assert_int_equal(rj_load("/nonexistent/results.json", &r, &d), -ENOENT);
	assert_string_equal(d.msgs[0],
			    "/nonexistent/results.json: cannot open: No such file or directory");
	diag_release(&d);
}

/* Hostile shapes: wrong types at every level must give messages, never a crash. */
static void test_hostile(void **state)
{
	static const char *const texts[] = {
	    "{\"schema\": \"iotrial.results/1\", \"jobs\": 5, \"comparisons\": {}, \"env\": []}",
	    "{\"schema\": \"iotrial.results/1\", \"jobs\": [1, [], {\"trials\": [null, {}]}]}",
	    "{\"schema\": \"iotrial.results/1\", \"jobs\": [{\"params\": {\"a\": [1]}, "
	    "\"matrix\": [1, \"b\"], \"summary\": {\"seconds\": 3}, \"replication\": "
	    "{\"outliers\": \"most\"}}]}",
	    "{\"schema\": \"iotrial.results/1\", \"started_at\": "
	    "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", \"env\": {\"targets\": [{}]}}",
	    "{\"schema\": \"iotrial.results/1\", \"jobs\": [" /* many bad entries: capped */
	    "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}",
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct results r;
		struct diag d = {0};
		assert_int_equal(rj_load_string("h.json", texts[i], strlen(texts[i]), &r, &d),
				 -EINVAL);
		assert_true(d.n > 0 && d.n <= 21);
		diag_release(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roundtrip),
	    cmocka_unit_test(test_bad_inputs),
	    cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
