/* Summaries over replications (see results.h): the outlier policy, the statistics of every
 * metric over the kept trials, the runs the data say are needed, and comparisons. The
 * arithmetic is in stats.c, outliers.c and compare.c; nothing here formats. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stats/compare.h"
#include "engine/stats/outliers.h"
#include "engine/stats/pooled.h"
#include "model/metrics.h"
#include "model/names.h"
#include "model/results.h"

/* A measured trial that ran to its end: what the outlier policy chooses among. */
static bool candidate(const struct trial_result *t)
{
	return t->ran && !t->warmup && !t->failed;
}

static void summarize_metric(const struct instance_result *ir, const struct metric *m, double conf,
			     struct stat_summary *out, double *buf)
{
	size_t n = 0;

	for (size_t i = 0; i < ir->ntrials; i++) {
		double v = metric_value(m, &ir->trials[i]);
		if (ir->trials[i].kept && !isnan(v))
			buf[n++] = v;
	}
	stat_summarize(buf, n, conf, out);
}

/* Each direction's IO/s, rate and mean latency over the kept trials, and the runs its IO/s
 * need (struct dir_result; the figures fio's read and write sections give). */
static void summarize_dirs(struct instance_result *ir, double conf, double error, double *buf)
{
	for (int d = 0; d < 2; d++) {
		struct dir_summary *ds = &ir->summary.dir[d];
		struct stat_summary *out[3] = {&ds->iops, &ds->bw_bytes, &ds->lat_mean_ns};
		for (int k = 0; k < 3; k++) {
			size_t n = 0;
			for (size_t i = 0; i < ir->ntrials; i++) {
				const struct dir_result *dr = &ir->trials[i].dir[d];
				double v = k == 0 ? dr->iops : k == 1 ? dr->bw_bytes : dr->lat.mean;
				if (ir->trials[i].kept && !isnan(v))
					buf[n++] = v;
			}
			stat_summarize(buf, n, conf, out[k]);
		}
		ds->required_n = stat_required_runs(ds->iops.stddev, ds->iops.mean, conf, error);
	}
}

/* Every I/O of the kept trials (all trials of background load), from the trials' own
 * figures: min of mins, max of maxes, the I/O-weighted mean and root mean square. */
static void record_times(struct instance_result *ir)
{
	struct instance_summary *s = &ir->summary;
	double sum = 0, sq = 0, n = 0, lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < ir->ntrials; i++) {
		const struct trial_result *t = &ir->trials[i];
		if (!(ir->background ? t->ran && !t->warmup : t->kept) || !t->ios)
			continue;
		n += (double)t->ios;
		sum += (double)t->ios * t->lat.mean;
		sq += (double)t->ios * t->lat.rms * t->lat.rms;
		lo = t->lat.min < lo ? t->lat.min : lo;
		hi = t->lat.max > hi ? t->lat.max : hi;
	}
	s->rec_min_ns = n ? lo : NAN;
	s->rec_max_ns = n ? hi : NAN;
	s->rec_mean_ns = n ? sum / n : NAN;
	s->rec_rms_ns = n ? sqrt(sq / n) : NAN;
}

void results_summarize_one(struct instance_result *ir)
{
	struct instance_summary *s = &ir->summary;
	const struct replication_info *rep = &ir->rep;
	const struct param *rt = results_param(ir, "runtime");
	bool timed = rt && rt->type == PV_UINT && rt->u > 0;
	size_t n = 0, *idx;
	double *buf;
	bool *keep;
	struct welford w;
	const struct metric *m;

	buf = malloc((ir->ntrials ? ir->ntrials : 1) * sizeof(*buf));
	idx = malloc((ir->ntrials ? ir->ntrials : 1) * sizeof(*idx));
	keep = malloc((ir->ntrials ? ir->ntrials : 1) * sizeof(*keep));
	if (!buf || !idx || !keep)
		goto out;
	/* A size-bound trial varies in time, a time-bound one in bandwidth. */
	s->metric = rep->metric ? rep->metric
		    : timed	? metrics[METRIC_BW_BYTES].name
				: metrics[METRIC_SECONDS].name;
	m = metric_find(s->metric);
	welford_init(&w);
	for (size_t i = 0; i < ir->ntrials; i++) {
		struct trial_result *t = &ir->trials[i];
		t->dropped = false;
		t->kept = candidate(t);
		if (t->kept && !isnan(metric_value(m, t))) {
			buf[n] = metric_value(m, t);
			welford_add(&w, buf[n]);
			idx[n++] = i;
		}
	}
	s->before.n = (uint32_t)n;
	s->before.mean = n ? w.mean : NAN;
	s->before.stddev = welford_stddev(&w);
	s->before.cov = s->before.stddev / fabs(s->before.mean);
	outliers_apply(buf, n, rep->outliers, rep->trim_low, rep->trim_high, rep->outlier_k, keep);
	for (size_t i = 0; i < n; i++)
		if (!keep[i]) {
			ir->trials[idx[i]].kept = false;
			ir->trials[idx[i]].dropped = true;
		}
	record_times(ir);
	pooled_summarize(ir);
	s->runs = s->kept = 0;
	for (size_t i = 0; i < ir->ntrials; i++) {
		s->runs += ir->trials[i].ran && !ir->trials[i].warmup;
		s->kept += ir->trials[i].kept;
	}
	for (size_t k = 0; k < METRIC_N; k++)
		summarize_metric(ir, &metrics[k], rep->confidence, &s->stat[k], buf);
	summarize_dirs(ir, rep->confidence, rep->error, buf);

	{
		struct stat_summary basis;
		summarize_metric(ir, m, rep->confidence, &basis, buf);
		s->required.metric = s->metric;
		s->required.confidence = rep->confidence;
		s->required.error = rep->error;
		s->required.n =
		    stat_required_runs(basis.stddev, basis.mean, rep->confidence, rep->error);
	}
out:
	free(buf);
	free(idx);
	free(keep);
}

void results_summarize(struct results *r)
{
	for (size_t k = 0; k < r->ninst; k++)
		results_summarize_one(&r->inst[k]);
}

/* The kept values of metric `m`, and their trial indexes. */
static size_t kept_values(const struct instance_result *ir, const struct metric *m, double *v,
			  uint32_t *index)
{
	size_t n = 0;

	for (size_t i = 0; i < ir->ntrials; i++) {
		double x = metric_value(m, &ir->trials[i]);
		if (ir->trials[i].kept && !isnan(x)) {
			index[n] = ir->trials[i].index;
			v[n++] = x;
		}
	}
	return n;
}

void results_compare(const struct instance_result *a, const struct instance_result *b, bool paired,
		     struct comparison *c)
{
	size_t cap = (a->ntrials > b->ntrials ? a->ntrials : b->ntrials) + 1;
	double *va = malloc(cap * sizeof(*va)), *vb = malloc(cap * sizeof(*vb));
	uint32_t *ia = malloc(cap * sizeof(*ia)), *ib = malloc(cap * sizeof(*ib));
	struct cmp_result cr = {0};
	size_t na, nb;
	int ret = -1;

	c->mean_a = c->mean_b = c->diff_mean = c->ci_low = c->ci_high = c->ratio = c->df = NAN;
	c->significant = false;
	c->test = cmp_test_names[paired ? CMP_PAIRED_T : CMP_WELCH];
	if (!va || !vb || !ia || !ib)
		goto out;
	na = kept_values(a, metric_find(c->metric), va, ia);
	nb = kept_values(b, metric_find(c->metric), vb, ib);
	if (paired) {
		/* Pair trial i with trial i; a trial whose partner was dropped is left out. */
		size_t n = 0, j = 0;
		for (size_t i = 0; i < na; i++) {
			while (j < nb && ib[j] < ia[i])
				j++;
			if (j < nb && ib[j] == ia[i]) {
				va[n] = va[i];
				vb[n++] = vb[j];
			}
		}
		ret = cmp_paired(va, vb, n, c->confidence, &cr);
	} else {
		ret = cmp_welch(va, na, vb, nb, c->confidence, &cr);
	}
out:
	if (ret == 0) {
		c->mean_a = cr.mean_a;
		c->mean_b = cr.mean_b;
		c->diff_mean = cr.diff;
		c->ci_low = cr.ci_low;
		c->ci_high = cr.ci_high;
		c->ratio = cr.ratio;
		c->df = cr.df;
		c->na = (uint32_t)cr.na;
		c->nb = (uint32_t)cr.nb;
		c->significant = cr.significant;
		c->test = cr.test;
	}
	free(va);
	free(vb);
	free(ia);
	free(ib);
}
