/* What the runner tells its listeners as it goes (run_events.c): the command line's
 * progress, the observer of the run's events (model/events.h) and the hook called when a
 * trial's figures are final. Sent from the coordinating thread only, never from a worker;
 * the runner never formats any of it itself. */
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

/* The runner's side: whom to tell (run_opts' listeners, each NULL where none listens), and
 * what the events point to. */
struct run_events {
	void (*progress)(const struct run_progress *ev, void *arg);
	void *progress_arg;
	const struct run_observer *observer;
	void (*trial_end)(const struct results *r, size_t inst, uint32_t index, void *arg);
	void *trial_end_arg;
	const struct plan *p;
	const struct results *r;
	uint64_t t0; /* the run's start (CLOCK_MONOTONIC), that elapsed_ns counts from */
	size_t k;    /* the trial under way: its position in the order */
};

/* Before the first trial. */
void run_events_start(struct run_events *ev);

/* Trial `pt`, at position k of the order, starts: progress, then the observer, once per
 * measured instance. */
void run_events_trial_start(struct run_events *ev, size_t k, const struct plan_trial *pt);

/* Trial `pt` ended, its figures final: progress, the observer, then the trial_end hook,
 * once per measured instance. */
void run_events_trial_end(struct run_events *ev, size_t k, const struct plan_trial *pt);

/* trial_env.tick (`arg` is the struct run_events): the trial under way, so far, as one
 * progress event for its first measured instance. */
struct trial_tick;
void run_events_tick(const struct trial_tick *tk, void *arg);

/* After the run: each instance's summary, each comparison, then the end with `status`
 * (0, -EINTR when interrupted, else what run_plan returns). */
void run_events_end(struct run_events *ev, int status);

#endif
