/* The runner: executes a plan's trials in order and fills the results structure. It lays
 * out files, drops caches, opens targets through the backend, runs the worker loop and
 * removes what it created. It never formats a report. */
#ifndef IOTRIAL_RUN_H
#define IOTRIAL_RUN_H

#include <stdatomic.h>
#include <stdio.h>

#include "lib/diag.h"
#include "engine/plan/plan.h"
#include "model/events.h"
#include "model/results.h"

/* What the runner tells the command line as it goes: it never formats progress itself.
 * Sent from the coordinating thread only, before and after each trial, once per measured
 * instance of the trial; never from a worker. */
enum run_progress_kind {
	RUN_PROGRESS_TRIAL_START,
	RUN_PROGRESS_TRIAL_END,	 /* `tr` holds the trial's result */
	RUN_PROGRESS_TRIAL_TICK, /* during the trial, about every 0.25 s: `bytes`, `ios` so far */
};

struct run_progress {
	enum run_progress_kind kind;
	size_t k;			  /* the trial's position in the run, from 0 */
	size_t ntrials;			  /* trials in the plan (a precision target adds some) */
	uint64_t elapsed_ns;		  /* since the run started */
	const struct instance_result *ir; /* the instance */
	const struct trial_result *tr;	  /* end: the trial's result; start: NULL */
	unsigned index;			  /* the trial's index (warm-ups first) */
	bool warmup;			  /* a warm-up trial */
	/* A tick, once per trial (for its first measured instance): what the trial's measured
	 * workers on this rank moved so far, and the time since they were released. */
	uint64_t bytes, ios, trial_ns;
	const struct plan_trial *pt; /* the trial, in the plan */
	size_t inst;		     /* the instance's index in the plan (and results) */
};

struct run_opts {
	/* Called with each progress event (NULL: none); `progress_arg` is its second argument. */
	void (*progress)(const struct run_progress *ev, void *arg);
	const atomic_int *stop; /* set by a signal handler: finish what is measured */
	const char *dir;	/* the result folder: record logs go to DIR/records/; NULL: none */
	/* Called every few seconds with the results so far (complete false), so a killed run
	 * leaves them behind; may be NULL. The engine never formats them itself. */
	void (*checkpoint)(const struct results *r, void *arg);
	void *checkpoint_arg;
	void *progress_arg;
	/* Told of the run's events as they happen (model/events.h), from this thread, at trial
	 * boundaries and interval ticks; NULL: nobody listens. */
	const struct run_observer *observer;
	/* Called once per measured instance of each trial when its figures are final (merged
	 * over the ranks), failed or not: results `r`, instance `inst`, its trial `index`. For
	 * a log of the run (--log); may be NULL. The engine never formats the line itself. */
	void (*trial_end)(const struct results *r, size_t inst, uint32_t index, void *arg);
	void *trial_end_arg;
	uint64_t checkpoint_ns; /* the least time between two checkpoints; 0: after each trial */
	/* A resumed run (engine/run/resume.h): the trials of the order's first `resume_done`
	 * positions are in the results already, and its clock goes on from `resume_clock_ns`
	 * (the last one's end); started_at is kept. */
	bool resumed;
	size_t resume_done;
	uint64_t resume_clock_ns;
};

/* Checks that need the machine's answer before any trial: that each backend asked for
 * works here, and that each O_DIRECT target takes O_DIRECT (by opening it, or a probe file
 * created and removed in its folder). Returns 0, -EOPNOTSUPP with the reasons in `d`, or
 * -ENOMEM. */
int run_preflight(const struct plan *p, struct diag *d);

/* Run every trial of `p` into `r` (prepared by run_results_init, run_results.h). Returns 0 when
 * every trial ran without error; -EIO when a trial failed or the run stopped early (on_error: stop,
 * or a rank could not set up a trial); -EINTR when it was interrupted (the user's stop, or another
 * rank's); another -errno (-ENOMEM) when the run could not be prepared, go on or be completed. The
 * messages are in `d`; the results hold everything measured either way, with `complete` set
 * accordingly. */
int run_plan(struct plan *p, struct results *r, const struct run_opts *o, struct diag *d);

#endif
