/* Streaming a trial's intervals as they close (see trial_ivl.h): the coordinating thread polls
 * the workers' rings a few times per interval; the workers only fill their ring once per
 * interval, so the I/O path pays nothing per I/O. */
#include "engine/run/trial_ivl.h"

#include <math.h>
#include <sys/wait.h>
#include <time.h>

#include "engine/run/trial_slot.h"
#include "engine/io/worker.h"

/* Has the worker of `s` returned (or its process died)? A process is not reaped here:
 * trial_slot_finish does that. */
static bool slot_returned(const struct slot *s)
{
	siginfo_t si = {0};

	if (!s->started || atomic_load(&s->sh->done))
		return true;
	if (s->run->in->job.worker_mode != WORKER_PROCESS)
		return false;
	/* Pass the user's interrupt on, as trial_slot_finish does while it waits. */
	if (s->stop_user && *s->stop_user && s->stop_fwd)
		*s->stop_fwd = 1;
	return waitid(P_PID, (id_t)s->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid;
}

/* Tell the observers of every interval worker `s` closed since the last look. */
static void drain(struct trial_env *e, struct inst_run *r, struct slot *s)
{
	static struct worker_ivl_copy buf[WORKER_IVL_RING];
	unsigned n = worker_ivl_take(&s->sh->ivl, &s->ivl_seen, buf, &e->ivl_dropped);

	for (unsigned i = 0; i < n; i++) {
		struct run_interval ivl = {
		    r->tr->index,
		    s->worker,
		    buf[i].start_ns,
		    buf[i].end_ns,
		    buf[i].bytes,
		    buf[i].ios,
		    buf[i].ios ? (double)buf[i].lat_sum_ns / (double)buf[i].ios : NAN};
		struct run_event ev = {.kind = RUN_EV_INTERVAL,
				       .r = e->r,
				       .ir = r->ir,
				       .ivl = &ivl,
				       .index = r->tr->index,
				       .warmup = r->tr->warmup,
				       .elapsed_ns = worker_now_ns() - e->t0};
		e->event(&ev, e->event_arg);
	}
}

/* The shortest interval logged by a measured, ready instance of `runs`; 0: none. */
static uint64_t shortest_interval(struct inst_run *runs, size_t n)
{
	uint64_t best = 0;

	for (size_t k = 0; k < n; k++) {
		uint64_t ns = runs[k].in ? runs[k].in->job.log_interval_ns : 0;
		if (runs[k].ready && !runs[k].background && runs[k].n && ns && (!best || ns < best))
			best = ns;
	}
	return best;
}

void trial_stream_intervals(struct trial_env *e, struct inst_run *runs, size_t n)
{
	uint64_t ivl = e->event ? shortest_interval(runs, n) : 0;
	/* A few looks per interval, but no busier than 1000 a second nor lazier than 20. */
	uint64_t tick_ns = ivl / 4 < 1000000 ? 1000000 : ivl / 4 > 50000000 ? 50000000 : ivl / 4;
	struct timespec tick = {0, (long)tick_ns};
	bool all;

	if (!ivl)
		return;
	do {
		all = true;
		for (size_t k = 0; k < n; k++)
			for (uint32_t w = 0; runs[k].ready && !runs[k].background && w < runs[k].n;
			     w++) {
				all &= slot_returned(&runs[k].slots[w]);
				if (runs[k].slots[w].job.ivl_ring)
					drain(e, &runs[k], &runs[k].slots[w]);
			}
		if (!all)
			nanosleep(&tick, NULL);
	} while (!all);
}
