/* What a trial runs in: the plan, the results it fills, the run's ledger, the user's stop
 * flag, the run's clock and logs. The runner (run.c) fills it; trial.c, stonewall.c and
 * trial_merge.c read it. */
#ifndef IOTRIAL_TRIAL_ENV_H
#define IOTRIAL_TRIAL_ENV_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/diag.h"
#include "engine/plan/plan.h"
#include "engine/run/areas.h"
#include "engine/run/ledger.h"
#include "model/events.h"
#include "model/results.h"

/* The measured workers of the trial under way, so far: what trial_env.tick is told. */
struct trial_tick {
	const struct plan_trial *pt;
	uint64_t bytes, ios; /* measured so far, summed over the unit's measured workers here */
	uint64_t elapsed_ns; /* since the workers were released (their ramp included) */
};

struct trial_env {
	struct plan *p;
	struct results *r;
	struct ledger *ledger;	/* what this run created (engine/run/ledger.h) */
	const atomic_int *stop; /* the user's interrupt */
	uint64_t t0;		/* the run's start, CLOCK_MONOTONIC */
	int *rec_fd, *int_fd;	/* per instance: the record and interval logs, or -1 */
	struct diag *d;		/* warnings that do not fail a trial */
	int agreed; /* set by trial_run: the DIST_* flags every rank agreed on (engine/dist/dist.h)
		     */
	bool no_worker; /* set by trial_run: a worker could not be started; the run stops */
	/* Called by the coordinating thread about every TRIAL_TICK_NS while the measured
	 * workers run, never by a worker; NULL: none. */
	void (*tick)(const struct trial_tick *tk, void *arg);
	void *tick_arg;
	/* Called by the coordinating thread with each interval as it closes; NULL: nobody
	 * listens (and the workers keep no ring of intervals). */
	void (*event)(const struct run_event *ev, void *arg);
	void *event_arg;
	uint64_t ivl_dropped; /* intervals the workers closed faster than streamed */
	size_t logs_cut;      /* trials whose record or interval log lacks lines (rank 0) */
	struct areas areas;   /* shared memory of the trials, kept between them */
};

#define TRIAL_TICK_NS 250000000ull

#endif
