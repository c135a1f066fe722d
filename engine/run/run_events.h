/* What the runner tells its observers as it goes (run_events.c): progress, the run's events
 * (model/events.h) and each trial's final figures. Sent from the coordinating thread only,
 * never from a worker; the runner never formats any of it itself. A new observer (a progress
 * line, a log, a stream of events) is a struct run_observer and one run_observe call. */
#ifndef IOTRIAL_RUN_EVENTS_H
#define IOTRIAL_RUN_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/plan/plan.h"
#include "model/events.h"
#include "model/results.h"

/* Progress: before and after each trial, once per measured instance of the trial, and
 * ticks during it. */
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

/* One observer of a run: what it is told, each NULL where it does not listen, with the
 * context it was added with (run_observe) as the last argument. Each must return quickly (a
 * trial waits for it) and may not keep the pointers it is given. */
struct run_observer {
	/* Progress: before and after each trial and ticks during it (struct run_progress). */
	void (*progress)(const struct run_progress *ev, void *ctx);
	/* The run's events (model/events.h), in order, intervals of log_interval jobs too. */
	void (*event)(const struct run_event *ev, void *ctx);
	/* A trial's figures are final (merged over the ranks), failed or not: results `r`,
	 * instance `inst`, its trial `index`; after `progress` and `event` have heard of its
	 * end, once per measured instance. */
	void (*trial_end)(const struct results *r, size_t inst, uint32_t index, void *ctx);
};

#define RUN_OBSERVERS_MAX 8

/* The observers of a run, each with its context. At each moment (a trial's end, say) every
 * observer's `progress` is called in the order they were added, then every `event`, then every
 * `trial_end`. */
struct run_observers {
	struct {
		const struct run_observer *cb;
		void *ctx;
	} at[RUN_OBSERVERS_MAX];
	size_t n;
};

/* Add observer `cb`, called with `ctx`, to `obs`. Returns 0, or -ENOSPC when `obs` holds
 * RUN_OBSERVERS_MAX already. */
int run_observe(struct run_observers *obs, const struct run_observer *cb, void *ctx);

/* The runner's side: whom to tell, and what the events point to. */
struct run_events {
	const struct run_observers *obs;
	const struct plan *p;
	const struct results *r;
	uint64_t t0; /* the run's start (CLOCK_MONOTONIC), that elapsed_ns counts from */
	size_t k;    /* the trial under way: its position in the order */
};

/* Point the trial's hooks at the observers, where any listens: its ticks (progress) and its
 * intervals (events). */
struct trial_env;
void run_events_hook(struct run_events *ev, struct trial_env *env);

/* Before the first trial. */
void run_events_start(struct run_events *ev);

/* Trial `pt`, at position k of the order, starts: progress, then events, once per measured
 * instance. */
void run_events_trial_start(struct run_events *ev, size_t k, const struct plan_trial *pt);

/* Trial `pt` ended, its figures final: progress, events, then trial_end, once per measured
 * instance. */
void run_events_trial_end(struct run_events *ev, size_t k, const struct plan_trial *pt);

/* After the run: each instance's summary, each comparison, then the end with `status`
 * (0, -EINTR when interrupted, else what run_plan returns). */
void run_events_end(struct run_events *ev, int status);

#endif
