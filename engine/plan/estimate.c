/* How long a plan takes (see estimate.h). */
#include "engine/plan/estimate.h"

#include <math.h>
#include <stdio.h>

bool estimate_size_bound(const struct instance *in)
{
	return in->job.runtime_ns == 0;
}

double estimate_trial_bytes(const struct instance *in)
{
	const struct job_spec *j = &in->job;
	double workers = (double)(j->threads ? j->threads : 1);
	double ranks = in->rank_n > 1 ? (double)in->rank_n : 1;
	double each = (double)j->file_size;

	if (j->workload == WL_COMMAND)
		return 0;
	if (j->workload == WL_COPY || j->workload == WL_COPYTREE)
		return (double)j->file_size * ranks;
	/* A sequential job's workers share one file in slices (engine/run/trial.c: region). */
	if (j->threads > 1 && !j->file_per_thread && !spec_workload_random(j->workload) &&
	    !j->offset && !j->offset_increment)
		each /= workers;
	if (j->io_limit)
		each = (double)j->io_limit;
	return each * workers * ranks;
}

/* Seconds of one measured instance's trial, and their standard deviation. */
static double instance_seconds(const struct instance *in, const struct est_hint *h, double *sd)
{
	const struct job_spec *j = &in->job;
	double ramp = (double)j->ramp_ns / 1e9, bytes, s;

	*sd = 0;
	if (!estimate_size_bound(in))
		return ramp + (double)j->runtime_ns / 1e9;
	if (!h || !isfinite(h->seconds))
		return NAN;
	s = h->seconds;
	bytes = estimate_trial_bytes(in);
	/* Scaled by bytes: what a probe of a few tenths of a second, or a run with another
	 * file_size, measured is a rate. */
	if (isfinite(h->bytes) && h->bytes > 0 && bytes > 0)
		s = bytes / (h->bytes / h->seconds);
	*sd = isfinite(h->rel_sd) ? s * h->rel_sd : 0;
	return ramp + s;
}

double estimate_trial(const struct plan *p, const struct plan_trial *pt,
		      const struct est_hint *hints, double *sd)
{
	const struct plan_unit *u = &p->units[pt->unit];
	double most = 0, most_sd = 0;

	for (size_t k = 0; k < u->nmeasured; k++) {
		size_t i = u->inst[k];
		double d, s = instance_seconds(&p->inst[i], hints ? &hints[i] : NULL, &d);
		if (isnan(s)) {
			most = NAN;
			break;
		}
		if (s > most) {
			most = s;
			most_sd = d;
		}
	}
	if (sd)
		*sd = isnan(most) ? NAN : most_sd;
	return isnan(most) ? NAN : most + ESTIMATE_TRIAL_OVERHEAD_S;
}

/* Does some measured instance of trial `pt`'s unit run until its size? */
static bool trial_size_bound(const struct plan *p, const struct plan_trial *pt)
{
	const struct plan_unit *u = &p->units[pt->unit];

	for (size_t k = 0; k < u->nmeasured; k++)
		if (estimate_size_bound(&p->inst[u->inst[k]]))
			return true;
	return false;
}

void estimate_plan(const struct plan *p, const struct est_hint *hints, struct plan_estimate *e)
{
	*e = (struct plan_estimate){0};
	for (size_t k = 0; k < p->ntrials; k++) {
		const struct plan_trial *pt = &p->order[k];
		double sd, s = estimate_trial(p, pt, hints, &sd);
		bool sized = trial_size_bound(p, pt);
		e->nsized += sized;
		e->ntimed += !sized;
		if (isnan(s)) {
			e->nunknown++;
			continue;
		}
		e->seconds += s;
		e->sd += sd;
		if (!sized)
			e->timed_s += s;
	}
	e->seconds += ESTIMATE_RUN_OVERHEAD_S;
	e->timed_s += ESTIMATE_RUN_OVERHEAD_S;
	if (e->nunknown)
		e->seconds = e->sd = NAN;
	/* A precision target adds rounds of trials to its unit, up to its max. */
	for (size_t u = 0; u < p->nunits; u++) {
		const struct plan_unit *pu = &p->units[u];
		struct plan_trial pt = {u, pu->warmup, false};
		bool target = false;
		for (size_t k = 0; k < pu->nmeasured; k++)
			target |= p->inst[pu->inst[k]].job.rep->target;
		if (!target || pu->max_runs <= pu->runs)
			continue;
		e->target_more += pu->max_runs - pu->runs;
		e->target_more_s += (pu->max_runs - pu->runs) * estimate_trial(p, &pt, hints, NULL);
	}
}

void estimate_format(char *buf, size_t len, double seconds)
{
	double r = round(seconds);

	if (!isfinite(seconds))
		snprintf(buf, len, "?");
	else if (seconds < 0.995)
		snprintf(buf, len, "%.2f s", seconds);
	else if (seconds < 59.95)
		snprintf(buf, len, "%.1f s", seconds);
	else if (r < 3600)
		snprintf(buf, len, "%.0f min %02.0f s", floor(r / 60), fmod(r, 60));
	else
		snprintf(buf, len, "%.0f h %02.0f min", floor(r / 3600), floor(fmod(r, 3600) / 60));
}
