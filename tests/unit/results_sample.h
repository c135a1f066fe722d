/* For the unit tests of results.json: a hand-built result that sets every field the JSON
 * reporter writes to something a reader can tell apart (NANs, NULLs, every parameter type, a
 * comparison, a report table), and what a reporter makes of it. Include after cmocka.h. */
#ifndef IOTRIAL_TEST_RESULTS_SAMPLE_H
#define IOTRIAL_TEST_RESULTS_SAMPLE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/metrics.h"
#include "model/names.h"
#include "model/results.h"
#include "reporters/reporter.h"
#include "tests/unit/report_string.h"

static inline char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static inline void stat_fill(struct stat_summary *s, double base, bool unmeasured)
{
	*s = (struct stat_summary){3,	       base,	   base / 10,	0.1,	     base,
				   base * 0.9, base * 1.1, base * 0.95, base * 1.05, 0.95};
	s->n = 0; /* not in the file */
	if (unmeasured)
		s->stddev = s->cov = s->ci_low = s->ci_high = NAN;
}

static inline void trial_fill(struct trial_result *t, uint32_t index, double seconds)
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

static inline void param_set(struct param *p, const char *key, uint32_t matrix,
			     enum param_type type)
{
	memset(p, 0, sizeof(*p));
	p->key = xstrdup(key);
	p->matrix = matrix;
	p->type = type;
}

/* Two instances of a matrix job, three trials each, with NANs, every parameter type and a
 * comparison: every field reporters/json.c writes, set to something it can tell apart. */
static inline void build(struct results *r)
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
	r->env.thp = xstrdup("never");
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
		ir->trials[1].log_error = k ? NULL : xstrdup("No space left on device");
		ir->trials[1].dropped = k == 0;
		ir->trials[1].seconds = k ? NAN : ir->trials[1].seconds;
		ir->trials[1].cached = 0.5;
		ir->trials[1].cached_after = 0.75;
		/* huge_buffers: not reported (trial 0), not measured (1), measured (2). */
		ir->trials[1].hpages =
		    (struct hpages_result){true, k ? HP_UNKNOWN : HP_FALLBACK, 65536 * (k + 1), 0};
		ir->trials[2].hpages = (struct hpages_result){true, k ? HP_PARTIAL : HP_NONE,
							      4 << 20, k ? 2 << 20 : 0};
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

static inline char *to_json(const struct results *r)
{
	return report("json", r);
}

#endif
