/* The estimated time on the command line (see estimate.h): its text, and the two sources of
 * what a size-bound trial takes, an earlier run's results.json and a short probe. */
#include "cli/estimate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "engine/dist/dist.h"
#include "engine/run/run.h"
#include "engine/run/run_results.h"
#include "model/results.h"
#include "model/results_json.h"

/* The hint of one instance's trials in `ir`: those that ran and did not fail. */
static struct est_hint hint_of(const struct instance_result *ir)
{
	double s = 0, b = 0, rate = 0, rate2 = 0;
	size_t n = 0;

	for (size_t t = 0; t < ir->ntrials; t++) {
		const struct trial_result *tr = &ir->trials[t];
		double r;
		if (!tr->ran || tr->failed || !isfinite(tr->seconds) || tr->seconds <= 0)
			continue;
		s += tr->seconds;
		b += (double)tr->bytes;
		r = (double)tr->bytes / tr->seconds;
		rate += r;
		rate2 += r * r;
		n++;
	}
	if (!n)
		return (struct est_hint){NAN, NAN, 0};
	rate /= (double)n;
	return (struct est_hint){s / (double)n, b > 0 ? b / (double)n : NAN,
				 n > 1 && rate > 0 ? sqrt(fmax(rate2 / (double)n - rate * rate, 0) *
							  (double)n / (double)(n - 1)) /
							 rate
						   : 0};
}

/* hints[i] from the instance of `r` named as p's instance i. */
static void hints_match(const struct plan *p, const struct results *r, struct est_hint *hints)
{
	for (size_t i = 0; i < p->ninst; i++) {
		hints[i] = (struct est_hint){NAN, NAN, 0};
		for (size_t k = 0; k < r->ninst; k++)
			if (!strcmp(r->inst[k].name, p->inst[i].name)) {
				hints[i] = hint_of(&r->inst[k]);
				break;
			}
	}
}

int cli_hints_from(const char *path, const struct plan *p, struct est_hint **hints)
{
	struct results r;
	struct diag d = {0};
	int ret = rj_load(path, &r, &d);

	if (ret < 0) {
		if (d.n)
			diag_print(&d, stderr);
		else
			fprintf(stderr, "iotrial: --estimate-from %s: %s\n", path, strerror(-ret));
		diag_release(&d);
		return ret == -ENOMEM ? EXIT_RUN : EXIT_USAGE;
	}
	diag_release(&d);
	*hints = calloc(p->ninst ? p->ninst : 1, sizeof(**hints));
	if (*hints)
		hints_match(p, &r, *hints);
	results_release(&r);
	if (!*hints) {
		fputs("iotrial: out of memory\n", stderr);
		return EXIT_RUN;
	}
	return 0;
}

void cli_estimate_text(char *buf, size_t len, const struct plan *p, const struct plan_estimate *e,
		       const char *source, bool running)
{
	char t[64], sd[64], more[64];
	int n;

	estimate_format(t, sizeof(t), e->nunknown ? e->timed_s : e->seconds);
	if (e->nunknown && running)
		n = snprintf(
		    buf, len,
		    "unknown: %zu of %zu trial(s) are bound by size%s; the ETA is learned from the trials done",
		    e->nunknown, p->ntrials,
		    source ? " and not in the file of --estimate-from" : "");
	else if (e->nunknown) {
		char timed[160] = "";
		if (e->ntimed)
			snprintf(timed, sizeof(timed), " (the %zu bound by time take %s)",
				 e->ntimed, t);
		n = snprintf(
		    buf, len,
		    "unknown: %zu of %zu trial(s) are bound by size (file_size, io_limit), not by runtime, and %s; give --estimate-from RESULTS.json of an earlier run, or --probe%s",
		    e->nunknown, p->ntrials,
		    source ? "their job instances are not in the file of --estimate-from"
			   : "how fast this target moves them is not known",
		    timed);
	} else if (!e->nsized)
		n = snprintf(
		    buf, len,
		    "%s (%zu trial(s) bound by time: their ramp and runtime, %.0f ms of set-up each, %.1f s to start and end the run)",
		    t, e->ntimed, ESTIMATE_TRIAL_OVERHEAD_S * 1e3, ESTIMATE_RUN_OVERHEAD_S);
	else {
		estimate_format(sd, sizeof(sd), e->sd);
		n = snprintf(
		    buf, len,
		    "%s ± %s (%zu trial(s) bound by time, exact; %zu bound by size, from the rates %s measured, their trials spread by ±%.0f%%)",
		    t, sd, e->ntimed, e->nsized,
		    source && !strcmp(source, "--probe") ? "a probe" : "an earlier run",
		    e->seconds > e->timed_s ? 100 * e->sd / (e->seconds - e->timed_s) : 0);
	}
	if (n < 0 || (size_t)n >= len || !e->target_more)
		return;
	estimate_format(more, sizeof(more), e->target_more_s);
	snprintf(buf + n, len - (size_t)n, "; a precision target may add up to %zu trial(s)%s%s",
		 e->target_more, isfinite(e->target_more_s) ? ", " : "",
		 isfinite(e->target_more_s) ? more : "");
}

/* The overrides of a probe: the user's, then a short time bound with three runs and no
 * warm-up, ramp or stonewall (a time-bound job cannot have one); a precision target, when a
 * job has one, held to its three pilot runs. `runtime` holds the runtime's text. */
static struct spec_override *probe_overrides(const struct spec_override *ov, size_t nov,
					     const char *runtime, bool target, size_t *n)
{
	static const char *const keys[] = {
	    "runtime", "replication.runs",	   "replication.warmup",    "stonewall",
	    "ramp",    "replication.target.pilot", "replication.target.max"};
	const char *values[] = {runtime, "3", "0", "none", "0s", "3", "3"};
	size_t extra = sizeof(keys) / sizeof(keys[0]) - (target ? 0 : 2);
	struct spec_override *all = calloc(nov + extra, sizeof(*all));

	if (!all)
		return NULL;
	for (size_t i = 0; i < nov; i++)
		all[i] = ov[i];
	for (size_t i = 0; i < extra; i++)
		all[nov + i] = (struct spec_override){(char *)keys[i], (char *)values[i]};
	*n = nov + extra;
	return all;
}

int cli_probe(const char *file, const struct spec_override *ov, size_t nov, const char *scratch,
	      const struct plan *p, double seconds, struct est_hint **hints)
{
	struct spec_override *all;
	struct run_opts ro = {.stop = &cli_stop_signal};
	struct exp_spec s;
	struct plan probe;
	struct results r;
	struct diag d = {0};
	size_t n, sized = 0;
	bool target = false;
	char runtime[32];
	int ret;

	for (size_t i = 0; i < p->ninst; i++) {
		sized += estimate_size_bound(&p->inst[i]) && !p->inst[i].job.background;
		target |= p->inst[i].job.rep->target;
	}
	snprintf(runtime, sizeof(runtime), "%gs", seconds);
	*hints = calloc(p->ninst ? p->ninst : 1, sizeof(**hints));
	if (!*hints || !(all = probe_overrides(ov, nov, runtime, target, &n))) {
		fputs("iotrial: out of memory\n", stderr);
		return EXIT_RUN;
	}
	for (size_t i = 0; i < p->ninst; i++)
		(*hints)[i] = (struct est_hint){NAN, NAN, 0};
	if (!sized) {
		free(all);
		return 0;
	}
	if ((ret = load_job(file, all, n, scratch, &s, &probe))) {
		free(all);
		return ret;
	}
	free(all);
	cli_signals_install(); /* Ctrl-C ends the probe as it ends a run: its files removed */
	if (dist_rank() == 0)
		fprintf(
		    stderr,
		    "iotrial: probing %s: %zu trial(s) of %g s, files laid out as a run lays them out\n",
		    file, probe.ntrials, seconds);
	ret = load_settle(run_preflight(&probe, &d) < 0 ? EXIT_RUN : 0, &d);
	if (!ret && run_results_init(&probe, &r) < 0) {
		fputs("iotrial: out of memory\n", stderr);
		ret = EXIT_RUN;
	} else if (!ret) {
		ret = run_plan(&probe, &r, &ro, &d) < 0 ? EXIT_RUN : 0;
		if (dist_rank() == 0)
			diag_print(&d, stderr);
		diag_release(&d);
		if (ret == 0)
			hints_match(p, &r, *hints);
		/* A probe's trials are time-bound: only their rate says anything. */
		for (size_t i = 0; ret == 0 && i < p->ninst; i++)
			if (!isfinite((*hints)[i].bytes))
				(*hints)[i] = (struct est_hint){NAN, NAN, 0};
		results_release(&r);
	}
	plan_release(&probe);
	spec_release(&s);
	if (ret && dist_rank() == 0)
		fprintf(stderr,
			"iotrial: the probe failed: no estimate for the size-bound trials\n");
	return cli_stop_signal ? 128 + cli_stop_signal : ret;
}
