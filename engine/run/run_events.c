/* The runner's events (see run_events.h): each built from the plan and the results as they
 * stand, stamped with the run's clock, and handed to whoever listens. */
#include "engine/run/run_events.h"

#include "engine/io/worker.h"
#include "engine/run/trial_env.h"

/* Tell progress of trial `pt`, the k-th of the run, once per measured instance. */
static void progress(struct run_events *ev, size_t k, const struct plan_trial *pt,
		     enum run_progress_kind kind)
{
	const struct plan_unit *u = &ev->p->units[pt->unit];

	if (!ev->progress)
		return;
	for (size_t i = 0; i < u->nmeasured; i++) {
		const struct instance_result *ir = &ev->r->inst[u->inst[i]];
		/* Before the trial its result may not exist yet (a precision target's). */
		struct run_progress pr = {
		    .kind = kind,
		    .k = k,
		    .ntrials = ev->p->ntrials,
		    .elapsed_ns = worker_now_ns() - ev->t0,
		    .ir = ir,
		    .tr = kind == RUN_PROGRESS_TRIAL_END ? &ir->trials[pt->index] : NULL,
		    .index = pt->index,
		    .warmup = pt->warmup,
		    .pt = pt,
		    .inst = u->inst[i],
		};
		ev->progress(&pr, ev->progress_arg);
	}
}

void run_events_tick(const struct trial_tick *tk, void *arg)
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

	ev->progress(&pr, ev->progress_arg);
}

/* Tell the observer, if one listens, of event `e` (its clock and results filled in here). */
static void publish(struct run_events *ev, struct run_event e)
{
	const struct run_observer *obs = ev->observer;

	if (!obs || !obs->event)
		return;
	e.r = ev->r;
	e.elapsed_ns = worker_now_ns() - ev->t0;
	obs->event(&e, obs->arg);
}

/* A trial's start or end, once per measured instance of trial `pt`, the k-th of the run. */
static void publish_trial(struct run_events *ev, size_t k, const struct plan_trial *pt,
			  enum run_event_kind kind)
{
	const struct plan_unit *u = &ev->p->units[pt->unit];

	for (size_t i = 0; ev->observer && i < u->nmeasured; i++) {
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
	for (size_t i = 0; ev->trial_end && i < u->nmeasured; i++)
		ev->trial_end(ev->r, u->inst[i], pt->index, ev->trial_end_arg);
}

void run_events_end(struct run_events *ev, int status)
{
	for (size_t i = 0; i < ev->r->ninst; i++)
		publish(ev, (struct run_event){.kind = RUN_EV_SUMMARY, .ir = &ev->r->inst[i]});
	for (size_t i = 0; i < ev->r->ncmp; i++)
		publish(ev, (struct run_event){.kind = RUN_EV_COMPARISON, .cmp = &ev->r->cmp[i]});
	publish(ev, (struct run_event){.kind = RUN_EV_RUN_END, .status = status});
}
