/* Summaries over replications, and the lifetime of the results structure (see results.h).
 * The statistics come from stats.c; nothing here formats. */
#include "engine/results.h"

#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

static void summarize_metric(const struct instance_result *ir, size_t off, double conf,
			     struct stat_summary *out, double *buf)
{
	size_t n = 0;

	for (size_t i = 0; i < ir->ntrials; i++) {
		const struct trial_result *t = &ir->trials[i];
		double v = *(const double *)((const char *)t + off);
		if (t->kept && !isnan(v))
			buf[n++] = v;
	}
	stat_summarize(buf, n, conf, out);
}

void results_summarize(struct results *r, double confidence, double error)
{
	r->confidence = confidence;
	for (size_t k = 0; k < r->ninst; k++) {
		struct instance_result *ir = &r->inst[k];
		struct instance_summary *s = &ir->summary;
		double *buf = malloc((ir->ntrials ? ir->ntrials : 1) * sizeof(*buf));
		const struct param *rt = results_param(ir, "runtime");
		bool timed = rt && rt->type == PV_UINT && rt->u > 0;
		const struct stat_summary *basis;

		if (!buf)
			continue;
		s->runs = s->kept = 0;
		for (size_t i = 0; i < ir->ntrials; i++) {
			s->runs += ir->trials[i].ran && !ir->trials[i].warmup;
			s->kept += ir->trials[i].kept;
		}
		summarize_metric(ir, offsetof(struct trial_result, seconds), confidence,
				 &s->seconds, buf);
		summarize_metric(ir, offsetof(struct trial_result, bw_bytes), confidence,
				 &s->bw_bytes, buf);
		summarize_metric(ir, offsetof(struct trial_result, iops), confidence, &s->iops,
				 buf);
		summarize_metric(ir, offsetof(struct trial_result, lat.mean), confidence,
				 &s->lat_mean_ns, buf);
		free(buf);
		/* A size-bound trial varies in time, a time-bound one in bandwidth. */
		basis = timed ? &s->bw_bytes : &s->seconds;
		s->required.metric = timed ? "bw_bytes" : "seconds";
		s->required.confidence = confidence;
		s->required.error = error;
		s->required.n = stat_required_runs(basis->stddev, basis->mean, confidence, error);
	}
}

const struct param *results_param(const struct instance_result *ir, const char *key)
{
	for (size_t i = 0; i < ir->nparams; i++)
		if (!strcmp(ir->params[i].key, key))
			return &ir->params[i];
	return NULL;
}

void results_release(struct results *r)
{
	free(r->tool_name);
	free(r->tool_version);
	free(r->experiment);
	free(r->description);
	free(r->job_path);
	for (size_t i = 0; i < r->noverrides; i++) {
		free(r->overrides[i].key);
		free(r->overrides[i].value);
	}
	free(r->overrides);
	env_release(&r->env);
	for (size_t k = 0; k < r->ninst; k++) {
		struct instance_result *ir = &r->inst[k];
		free(ir->name);
		free(ir->job);
		free(ir->backend);
		free(ir->workload);
		for (size_t i = 0; i < ir->nparams; i++) {
			free(ir->params[i].key);
			free(ir->params[i].s);
		}
		free(ir->params);
		for (size_t i = 0; i < ir->ntrials; i++)
			free(ir->trials[i].error);
		free(ir->trials);
	}
	free(r->inst);
	memset(r, 0, sizeof(*r));
}
