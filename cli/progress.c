/* Progress on stderr, formatted from the runner's events (engine/run/run.h): on a terminal
 * one status line redrawn in place, during a trial too; elsewhere (--progress always into a
 * file or a pipe) one line per trial, for logs and for scripts that wait for a trial. The
 * share done and the ETA come from the plan's estimate (engine/plan/estimate.h), which
 * learns each instance's time from its trials as they end. */
#include "cli/progress.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/estimate.h"
#include "engine/plan/plan.h"
#include "engine/run/run.h"
#include "model/results.h"

#define REDRAW_NS 250000000ull /* at most 4 redraws a second: a line that flickers is unread */

/* "1:05", "12:00:01". */
static void clock_text(char *buf, size_t len, double secs)
{
	uint64_t s = secs > 0 ? (uint64_t)llround(secs) : 0;

	if (s >= 3600)
		snprintf(buf, len, "%" PRIu64 ":%02" PRIu64 ":%02" PRIu64, s / 3600, s / 60 % 60,
			 s % 60);
	else
		snprintf(buf, len, "%" PRIu64 ":%02" PRIu64, s / 60, s % 60);
}

int cli_progress_plan(struct cli_progress *pg, const struct plan *p, const struct est_hint *given)
{
	size_t n = p->ninst ? p->ninst : 1;
	struct plan_estimate e;
	char line[512];

	if (!pg->out)
		return 0;
	pg->p = p;
	pg->given = calloc(n, sizeof(*pg->given));
	pg->hints = calloc(n, sizeof(*pg->hints));
	pg->sum_s = calloc(n, sizeof(*pg->sum_s));
	pg->sum_bytes = calloc(n, sizeof(*pg->sum_bytes));
	pg->nlearned = calloc(n, sizeof(*pg->nlearned));
	if (!pg->given || !pg->hints || !pg->sum_s || !pg->sum_bytes || !pg->nlearned)
		return -ENOMEM;
	for (size_t i = 0; i < p->ninst; i++)
		pg->given[i] = given ? given[i] : (struct est_hint){NAN, NAN, 0};
	memcpy(pg->hints, pg->given, p->ninst * sizeof(*pg->hints));
	estimate_plan(p, pg->given, &e);
	cli_estimate_text(line, sizeof(line), p, &e, given ? "--estimate-from" : NULL, true);
	fprintf(pg->out, "iotrial: %zu trial(s) of %zu job instance(s); estimated time: %s\n",
		p->ntrials, p->ninst, line);
	fflush(pg->out);
	return 0;
}

/* Trial k's expected seconds: from the estimate, else the mean of the trials ended so far;
 * NAN before any. */
static double expected_s(const struct cli_progress *pg, size_t k)
{
	double s = estimate_trial(pg->p, &pg->p->order[k], pg->hints, NULL);

	if (isnan(s) && pg->nended)
		s = pg->ended_s / (double)pg->nended;
	return s;
}

/* The share of trial `ev` done: from its bytes when it is bound by size and a tick said how
 * many, else from its time against `est_s`; NAN when neither can say. */
static double trial_share(const struct cli_progress *pg, const struct run_progress *ev,
			  double est_s)
{
	const struct instance *in = &pg->p->inst[ev->inst];
	double in_trial_s = (double)(ev->elapsed_ns - pg->trial_t0) / 1e9, planned_bytes;

	if (ev->kind == RUN_PROGRESS_TRIAL_END)
		return 1;
	if (ev->kind == RUN_PROGRESS_TRIAL_START)
		return 0;
	planned_bytes = estimate_trial_bytes(in) / (in->rank_n > 1 ? in->rank_n : 1);
	if (estimate_size_bound(in) && planned_bytes > 0)
		return fmin((double)ev->bytes / planned_bytes, 1);
	return isnan(est_s) ? NAN : fmin(in_trial_s / est_s, 1);
}

/* The time left for the whole plan, in seconds, and in *share the share of it done: NAN when
 * not known. */
static double time_left_s(const struct cli_progress *pg, const struct run_progress *ev,
			  double *share)
{
	double done_s = 0, left_s = 0, trial_est_s = expected_s(pg, ev->k);
	double trial_done = trial_share(pg, ev, trial_est_s);

	/* A size-bound trial without an estimate: its own rate so far says how long it takes. */
	if (isnan(trial_est_s) && trial_done > 0.02 && ev->kind == RUN_PROGRESS_TRIAL_TICK)
		trial_est_s = (double)(ev->elapsed_ns - pg->trial_t0) / 1e9 / trial_done;
	for (size_t k = 0; k < ev->k; k++)
		done_s += expected_s(pg, k);
	for (size_t k = ev->k + 1; k < pg->p->ntrials; k++)
		left_s += expected_s(pg, k);
	done_s += trial_done * trial_est_s;
	left_s += (1 - trial_done) * trial_est_s;
	*share = done_s + left_s > 0 ? done_s / (done_s + left_s) : NAN;
	if (isnan(*share)) /* by count, where the times are not known */
		*share = ((double)ev->k + (isnan(trial_done) ? 0 : trial_done)) /
			 (double)(ev->ntrials ? ev->ntrials : 1);
	return left_s;
}

static void status_line(struct cli_progress *pg, const struct run_progress *ev)
{
	const struct instance *in = &pg->p->inst[ev->inst];
	double share, left_s = time_left_s(pg, ev, &share);
	double measured_s = ((double)ev->trial_ns - (double)in->job.ramp_ns) / 1e9;
	char elapsed[32], eta_text[32] = "?";

	clock_text(elapsed, sizeof(elapsed), (double)ev->elapsed_ns / 1e9);
	if (!isnan(left_s))
		clock_text(eta_text, sizeof(eta_text), left_s);
	/* \r and erase-line: the line is drawn again in place, never scrolled. */
	fprintf(pg->out, "\r\033[K%s trial %u%s (%zu of %zu, %.0f%%): ", ev->ir->name, ev->index,
		ev->warmup ? " warm-up" : "", ev->k + 1, ev->ntrials, 100.0 * share);
	if (ev->kind == RUN_PROGRESS_TRIAL_TICK && measured_s > 0 && ev->ios)
		fprintf(pg->out, "now %.1f MB/s, %.0f IO/s, ", (double)ev->bytes / 1e6 / measured_s,
			(double)ev->ios / measured_s);
	else if (ev->kind == RUN_PROGRESS_TRIAL_TICK)
		fputs(measured_s > 0 ? "running, " : "ramp, ", pg->out);
	else if (pg->have_rate)
		fprintf(pg->out, "last %.1f MB/s, %.0f IO/s, ", pg->last_mbs, pg->last_iops);
	fprintf(pg->out, "elapsed %s, ETA %s", elapsed, eta_text);
	fflush(pg->out);
	pg->drawn = true;
}

/* A trial of instance ev->inst ended: what it took teaches the estimate. */
static void learn(struct cli_progress *pg, const struct run_progress *ev)
{
	const struct trial_result *tr = ev->tr;
	const struct plan_unit *u = &pg->p->units[ev->pt->unit];
	size_t i = ev->inst;

	if (ev->inst == u->inst[0]) { /* once per trial */
		pg->ended_s += (double)(ev->elapsed_ns - pg->trial_t0) / 1e9;
		pg->nended++;
	}
	if (!tr || tr->failed || !isfinite(tr->seconds))
		return;
	pg->last_mbs = tr->bw_bytes / 1e6;
	pg->last_iops = tr->iops;
	pg->have_rate = true;
	pg->sum_s[i] += tr->seconds;
	pg->sum_bytes[i] += (double)tr->bytes;
	pg->nlearned[i]++;
	pg->hints[i] =
	    (struct est_hint){pg->sum_s[i] / pg->nlearned[i],
			      pg->sum_bytes[i] > 0 ? pg->sum_bytes[i] / pg->nlearned[i] : NAN, 0};
}

static void on_progress(const struct run_progress *ev, void *arg)
{
	struct cli_progress *pg = arg;
	const struct trial_result *tr = ev->tr;

	if (!pg->out)
		return;
	if (ev->kind == RUN_PROGRESS_TRIAL_START)
		pg->trial_t0 = ev->elapsed_ns;
	if (ev->kind == RUN_PROGRESS_TRIAL_END)
		learn(pg, ev);
	if (pg->tty) {
		/* The last trial's end is always drawn; others at most every REDRAW_NS. */
		if (pg->drawn && ev->elapsed_ns - pg->drawn_ns < REDRAW_NS &&
		    !(ev->kind == RUN_PROGRESS_TRIAL_END && ev->k + 1 >= ev->ntrials))
			return;
		pg->drawn_ns = ev->elapsed_ns;
		status_line(pg, ev);
		return;
	}
	if (ev->kind != RUN_PROGRESS_TRIAL_END || !tr)
		return;
	fprintf(pg->out, "[%zu/%zu] %s %s %u: ", ev->k + 1, ev->ntrials, ev->ir->name,
		tr->warmup ? "warm-up" : "trial", ev->index);
	if (tr->failed)
		fprintf(pg->out, "failed: %s\n", tr->error ? tr->error : "?");
	else
		fprintf(pg->out, "%.3f s, %.1f MB/s, %.0f IO/s\n", tr->seconds, tr->bw_bytes / 1e6,
			tr->iops);
	fflush(pg->out);
}

const struct run_observer cli_progress_observer = {.progress = on_progress};

void cli_progress_clear(struct cli_progress *pg)
{
	if (pg && pg->out && pg->tty && pg->drawn) {
		fputs("\r\033[K", pg->out);
		fflush(pg->out);
	}
	if (pg)
		pg->drawn = false;
}

void cli_progress_end(struct cli_progress *pg)
{
	/* The status line goes, so that the messages and the summary start on a clean line. */
	cli_progress_clear(pg);
	free(pg->given);
	free(pg->hints);
	free(pg->sum_s);
	free(pg->sum_bytes);
	free(pg->nlearned);
	pg->given = pg->hints = NULL;
	pg->sum_s = pg->sum_bytes = NULL;
	pg->nlearned = NULL;
}
