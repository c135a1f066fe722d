/* results.json read back: a hand-built result (results_sample.h) written by the JSON
 * reporter, read with rj_load, must come back field by field (NAN stays NAN, NULL stays NULL)
 * and write out byte-identical, and every reporter must make the same of both. Broken files:
 * test_results_json_bad.c. */
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

#include "model/results_json.h"
#include "model/rfield.h"
#include "reporters/reporter.h"
#include "tests/unit/results_sample.h"

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
	EQ_S(a->log_error, b->log_error);
	assert_int_equal(a->hpages.on, b->hpages.on);
	assert_int_equal(a->hpages.state, b->hpages.state);
	assert_int_equal(a->hpages.bytes, b->hpages.bytes);
	assert_int_equal(a->hpages.huge_bytes, b->hpages.huge_bytes);
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
	EQ_S(a->env.thp, b->env.thp);
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

/* rf_json_str: UTF-8 as it is; each byte of anything else as U+FFFD, never reading past the
 * end (a sequence cut short by it). */
static void test_not_utf8(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
	    {"caf\xc3\xa9 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xf0\x9f\x98\x80"}, /* as it is */
	    {"caf\xe9", "caf\xef\xbf\xbd"},				      /* Latin-1 */
	    {"\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd"},			      /* overlong '/' */
	    {"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},	      /* a surrogate */
	    {"\xf4\x90\x80\x80",
	     "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"}, /* past U+10FFFF */
	    {"a\xe2\x82", "a\xef\xbf\xbd\xef\xbf\xbd"},		  /* cut short by the end */
	    {"\n\"\\,", "\n\"\\,"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *v = rf_json_str(cases[i].in);
		assert_non_null(v);
		assert_string_equal(json_string_value(v), cases[i].out);
		json_decref(v);
	}
	assert_true(json_is_null(rf_json_str(NULL)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roundtrip),
	    cmocka_unit_test(test_not_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
