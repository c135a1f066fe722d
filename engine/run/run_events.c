/* The runner's events (see run_events.h): each built from the plan and the results as they
 * stand, stamped with the run's clock, and handed to every observer that listens. */
#include "engine/run/run_events.h"

#include <errno.h>

#include "engine/io/worker.h"
#include "engine/run/trial_env.h"

int run_observe(struct run_observers *obs, const struct run_observer *cb, void *ctx)
{
	if (obs->n >= RUN_OBSERVERS_MAX)
		return -ENOSPC;
	obs->at[obs->n].cb = cb;
	obs->at[obs->n].ctx = ctx;
	obs->n++;
	return 0;
}

static void tell_progress(const struct run_events *ev, const struct run_progress *pr)
{
	for (size_t i = 0; i < ev->obs->n; i++)
		if (ev->obs->at[i].cb->progress)
			ev->obs->at[i].cb->progress(pr, ev->obs->at[i].ctx);
}

/* trial_env.event: event `e` (filled in by the trial: an interval) to every observer. */
static void tell_event(const struct run_event *e, void *arg)
{
	const struct run_events *ev = arg;

	for (size_t i = 0; i < ev->obs->n; i++)
		if (ev->obs->at[i].cb->event)
			ev->obs->at[i].cb->event(e, ev->obs->at[i].ctx);
}

/* Progress of trial `pt`, the k-th of the run, once per measured instance. */
static void progress(struct run_events *ev, size_t k, const struct plan_trial *pt,
		     enum run_progress_kind kind)
{
	const struct plan_unit *u = &ev->p->units[pt->unit];

	for (size_t i = 0; i < u->nmeasured; i++) {
		const struct instance_result *ir = &ev->r->inst[u->inst[i]];
		/* Before the trial its result may not exist yet (a precision target's). */
		struct run_progress pr = {
		    .kind = kind,
		    .k = k,
		    .ntrials = ev->p->ntrials,
		    .elapsed_ns = worker_now_ns() - ev->t0,
		    .ir = ir,
		    .tr = kind == RUN_PROGRESS_TRIAL_END && pt->index < ir->ntrials
			      ? &ir->trials[pt->index]
			      : NULL,
		    .index = pt->index,
		    .warmup = pt->warmup,
		    .pt = pt,
		    .inst = u->inst[i],
		};
		tell_progress(ev, &pr);
	}
}

/* trial_env.tick: the trial under way, so far, as one progress event for its first measured
 * instance. */
static void tick(const struct trial_tick *tk, void *arg)
{
	struct run_events *ev = arg;
	const struct plan_unit *u = &ev->p->units[tk->pt->unit];
	struct run_progress pr = {
	    .kind = RUN_PROGRESS_TRIAL_TICK,
	    .k = ev->k,
	    .ntrials = ev->p->ntrials,
	    .elapsed_ns = worker_now_ns() - ev->t0,
	    .ir = &ev->r->inst[u->inst[0]],
	    .index = tk->pt->index,
	    .warmup = tk->pt->warmup,
	    .bytes = tk->bytes,
	    .ios = tk->ios,
	    .trial_ns = tk->elapsed_ns,
	    .pt = tk->pt,
	    .inst = u->inst[0],
	};

	tell_progress(ev, &pr);
}

/* Event `e` (its clock and results filled in here) to every observer. */
static void publish(struct run_events *ev, struct run_event e)
{
	e.r = ev->r;
	e.elapsed_ns = worker_now_ns() - ev->t0;
	tell_event(&e, ev);
}

/* A trial's start or end, once per measured instance of trial `pt`, the k-th of the run. */
static void publish_trial(struct run_events *ev, size_t k, const struct plan_trial *pt,
			  enum run_event_kind kind)
{
	const struct plan_unit *u = &ev->p->units[pt->unit];

	for (size_t i = 0; i < u->nmeasured; i++) {
		const struct instance_result *ir = &ev->r->inst[u->inst[i]];
		/* Before the trial its result may not exist yet (a precision target's). */
		bool end = kind == RUN_EV_TRIAL_END && pt->index < ir->ntrials;
		publish(ev, (struct run_event){.kind = kind,
					       .ir = ir,
					       .tr = end ? &ir->trials[pt->index] : NULL,
					       .index = pt->index,
					       .warmup = pt->warmup,
					       .k = k,
					       .ntrials = ev->p->ntrials});
	}
}

void run_events_hook(struct run_events *ev, struct trial_env *env)
{
	bool progress = false, events = false;

	for (size_t i = 0; i < ev->obs->n; i++) {
		progress |= ev->obs->at[i].cb->progress != NULL;
		events |= ev->obs->at[i].cb->event != NULL;
	}
	env->tick = progress ? tick : NULL;
	env->tick_arg = ev;
	env->event = events ? tell_event : NULL;
	env->event_arg = ev;
}

void run_events_start(struct run_events *ev)
{
	publish(ev, (struct run_event){.kind = RUN_EV_RUN_START, .ntrials = ev->p->ntrials});
}

void run_events_trial_start(struct run_events *ev, size_t k, const struct plan_trial *pt)
{
	ev->k = k;
	progress(ev, k, pt, RUN_PROGRESS_TRIAL_START);
	publish_trial(ev, k, pt, RUN_EV_TRIAL_START);
}

void run_events_trial_end(struct run_events *ev, size_t k, const struct plan_trial *pt)
{
	const struct plan_unit *u = &ev->p->units[pt->unit];

	progress(ev, k, pt, RUN_PROGRESS_TRIAL_END);
	publish_trial(ev, k, pt, RUN_EV_TRIAL_END);
	for (size_t o = 0; o < ev->obs->n; o++)
		for (size_t i = 0; ev->obs->at[o].cb->trial_end && i < u->nmeasured; i++)
			ev->obs->at[o].cb->trial_end(ev->r, u->inst[i], pt->index,
						     ev->obs->at[o].ctx);
}

void run_events_end(struct run_events *ev, int status)
{
	for (size_t i = 0; i < ev->r->ninst; i++)
		publish(ev, (struct run_event){.kind = RUN_EV_SUMMARY, .ir = &ev->r->inst[i]});
	for (size_t i = 0; i < ev->r->ncmp; i++)
		publish(ev, (struct run_event){.kind = RUN_EV_COMPARISON, .cmp = &ev->r->cmp[i]});
	publish(ev, (struct run_event){.kind = RUN_EV_RUN_END, .status = status});
}
