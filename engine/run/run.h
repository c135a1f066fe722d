/* The runner: executes a plan's trials in order and fills the results structure. It lays
 * out files, drops caches, opens targets through the backend, runs the worker loop and
 * removes what it created. It never formats a report. */
#ifndef IOTRIAL_RUN_H
#define IOTRIAL_RUN_H

#include <stdatomic.h>
#include <stdio.h>

#include "lib/diag.h"
#include "engine/plan/plan.h"
#include "engine/run/run_events.h"
#include "model/events.h"
#include "model/results.h"

struct run_opts {
	/* Who is told of the run as it goes: progress, events, each trial's final figures
	 * (engine/run/run_events.h; run_observe adds one). */
	struct run_observers observers;
	const atomic_int *stop; /* set by a signal handler: finish what is measured */
	const char *dir;	/* the result folder, for messages; NULL: none */
	int dir_fd; /* the result folder, held open (when `dir` is set): records/ and hooks/ go
		     * there by it, so a folder renamed or swapped for a symlink redirects nothing
		     */
	/* Called every few seconds with the results so far (complete false), so a killed run
	 * leaves them behind; may be NULL. The engine never formats them itself. */
	void (*checkpoint)(const struct results *r, void *arg);
	void *checkpoint_arg;
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
