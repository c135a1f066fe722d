/* Progress on stderr, formatted from the runner's events (engine/run/run.h): on a terminal
 * one status line redrawn in place; elsewhere (--progress always into a file or a pipe) one
 * line per trial, for logs and for scripts that wait for a trial. */
#include "cli/progress.h"

#include <inttypes.h>
#include <stdio.h>

#include "engine/plan/plan.h"
#include "engine/run/run.h"
#include "model/results.h"

#define REDRAW_NS 250000000ull /* at most 4 redraws a second: a line that flickers is unread */

/* "1:05", "12:00:01". */
static void clock_text(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000ull;

	if (s >= 3600)
		snprintf(buf, len, "%" PRIu64 ":%02" PRIu64 ":%02" PRIu64, s / 3600, s / 60 % 60,
			 s % 60);
	else
		snprintf(buf, len, "%" PRIu64 ":%02" PRIu64, s / 60, s % 60);
}

void cli_progress_plan(struct cli_progress *pg, const struct plan *p)
{
	uint64_t bound_ns = 0;
	size_t sized = 0;

	if (!pg->out)
		return;
	for (size_t k = 0; k < p->ntrials; k++) {
		const struct plan_unit *u = &p->units[p->order[k].unit];
		const struct job_spec *j = &p->inst[u->inst[0]].job;
		if (j->runtime_ns)
			bound_ns += j->runtime_ns + j->ramp_ns;
		else
			sized++;
	}
	fprintf(pg->out, "iotrial: %zu trial(s) of %zu job instance(s); ", p->ntrials, p->ninst);
	if (!sized)
		fprintf(pg->out, "about %.1f s\n", (double)bound_ns / 1e9);
	else if (bound_ns)
		fprintf(pg->out, "at least %.1f s, and %zu size-bound trial(s) timed as they run\n",
			(double)bound_ns / 1e9, sized);
	else
		fprintf(pg->out, "size-bound: the time left is estimated from the trials done\n");
	fflush(pg->out);
}

static void status_line(struct cli_progress *pg, const struct run_progress *ev)
{
	size_t done = ev->k + (ev->kind == RUN_PROGRESS_TRIAL_END);
	char elapsed[32], eta[32] = "?";

	clock_text(elapsed, sizeof(elapsed), ev->elapsed_ns);
	if (done > 0 && done <= ev->ntrials)
		clock_text(eta, sizeof(eta),
			   (uint64_t)((double)ev->elapsed_ns / (double)done *
				      (double)(ev->ntrials - done)));
	/* \r and erase-line: the line is drawn again in place, never scrolled. */
	fprintf(pg->out, "\r\033[K%s trial %u%s (%zu of %zu, %.0f%%): ", ev->ir->name, ev->index,
		ev->warmup ? " warm-up" : "", ev->k + 1, ev->ntrials,
		100.0 * (double)done / (double)(ev->ntrials ? ev->ntrials : 1));
	if (pg->have_rate)
		fprintf(pg->out, "last %.1f MB/s, %.0f IO/s, ", pg->mbs, pg->iops);
	fprintf(pg->out, "elapsed %s, ETA %s", elapsed, eta);
	fflush(pg->out);
	pg->drawn = true;
}

void cli_progress_event(const struct run_progress *ev, void *arg)
{
	struct cli_progress *pg = arg;
	const struct trial_result *tr = ev->tr;

	if (!pg->out)
		return;
	if (ev->kind == RUN_PROGRESS_TRIAL_END && tr && !tr->failed) {
		pg->mbs = tr->bw_bytes / 1e6;
		pg->iops = tr->iops;
		pg->have_rate = true;
	}
	if (pg->tty) {
		/* The last trial's end is always drawn; others at most every REDRAW_NS. */
		if (pg->drawn && ev->elapsed_ns - pg->last_ns < REDRAW_NS &&
		    ev->k + 1 < ev->ntrials)
			return;
		pg->last_ns = ev->elapsed_ns;
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

void cli_progress_end(struct cli_progress *pg)
{
	/* The status line goes, so that the messages and the summary start on a clean line. */
	if (pg->out && pg->tty && pg->drawn) {
		fputs("\r\033[K", pg->out);
		fflush(pg->out);
	}
	pg->drawn = false;
}
