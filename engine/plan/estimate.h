/* How long a plan takes (issue 17): a time-bound trial's time is known (its ramp and runtime,
 * and the set-up around them); a size-bound trial's only from what was measured of the same
 * job instance before, an earlier run's results.json or a probe, scaled to the bytes this
 * plan moves. `iotrial validate` prints it; the progress line's ETA is the same sum. */
#ifndef IOTRIAL_ESTIMATE_H
#define IOTRIAL_ESTIMATE_H

#include <stddef.h>

#include "engine/plan/plan.h"

/* Each trial's set-up and conclusion around its measured time (files opened, workers
 * started and joined, figures merged, a worker's last I/O past the runtime), and the run's
 * own start and end (the plan, the result files), as measured on a busy 2-core machine: 2
 * to 17 ms a trial, mean 5, on the null backend; 0.1 to 0.2 s a run. */
#define ESTIMATE_TRIAL_OVERHEAD_S 0.01
#define ESTIMATE_RUN_OVERHEAD_S	  0.1

/* What was measured of one instance's trials. */
struct est_hint {
	double seconds; /* mean seconds per trial; NAN: nothing known */
	double bytes;	/* mean bytes per trial; NAN: the time is taken as it is, unscaled */
	double rel_sd;	/* the trials' rates' relative standard deviation; 0 with one trial */
};

/* The bytes a size-bound trial of `in` moves, all workers and ranks; 0 when that is not
 * known before (command). */
double estimate_trial_bytes(const struct instance *in);

/* Is instance `in` bounded by size (its trials' time is not known in advance)? */
bool estimate_size_bound(const struct instance *in);

/* Expected seconds of trial `pt`: its longest measured instance (ramp, and runtime or the
 * estimate from hints[inst]), plus ESTIMATE_TRIAL_OVERHEAD_S. NAN when a size-bound instance
 * has no hint (`hints` may be NULL). *sd, when not NULL: its standard deviation. */
double estimate_trial(const struct plan *p, const struct plan_trial *pt,
		      const struct est_hint *hints, double *sd);

struct plan_estimate {
	double seconds;	       /* the whole plan, with ESTIMATE_RUN_OVERHEAD_S; NAN when a
				* size-bound trial has no hint */
	double sd;	       /* its standard deviation: the hints' spreads, summed (a device
				* that is slower today is slower in every trial) */
	double timed_s;	       /* the time-bound trials alone */
	size_t ntimed, nsized; /* trials bound by time, by size */
	size_t nunknown;       /* size-bound trials without a hint */
	size_t target_more;    /* a precision target may add up to this many trials */
	double target_more_s;  /* ... taking this long (NAN: not known) */
};

/* The estimate of every trial of `p` (hints per instance, or NULL). */
void estimate_plan(const struct plan *p, const struct est_hint *hints, struct plan_estimate *e);

/* "0.4 s", "12 min 05 s", "3 h 20 min": a duration for people. */
void estimate_format(char *buf, size_t len, double seconds);

#endif
