/* One trial of one unit: every instance of the unit, every worker of each, started on one
 * barrier; background load stopped when the measured workers are done; the workers'
 * figures merged into each instance's trial (bytes summed, histograms merged, elapsed from
 * the first start to the last end) and kept per worker. */
#ifndef IOTRIAL_TRIAL_H
#define IOTRIAL_TRIAL_H

#include <signal.h>
#include <stdint.h>

#include "lib/diag.h"
#include "engine/run/files.h"
#include "engine/stats/hist.h"
#include "engine/plan/plan.h"
#include "model/results.h"

struct trial_env {
	struct plan *p;
	struct results *r;
	struct ledger *ledger;		   /* what this run created (engine/run/ledger.h) */
	const volatile sig_atomic_t *stop; /* the user's interrupt */
	uint64_t t0;			   /* the run's start, CLOCK_MONOTONIC */
	int *rec_fd, *int_fd;		   /* per instance: the record and interval logs, or -1 */
	struct diag *d;			   /* warnings that do not fail a trial */
	int agreed; /* set by trial_run: the DIST_* flags every rank agreed on (engine/dist/dist.h)
		     */
};

/* Run trial `pt`. In a distributed run every rank calls it for the same trial: the ranks
 * meet on a barrier after set-up, agree on failures at the end, and rank 0 merges every
 * rank's figures into the results (engine/run/reduce.h). Returns 0, or -errno when a measured
 * instance's trial failed, on any rank (rank 0's trial_result says why). */
int trial_run(struct trial_env *e, const struct plan_trial *pt);

/* A seed for (a, b) derived from `seed`: trials and workers each get their own. */
uint64_t trial_seed(uint64_t seed, uint64_t a, uint64_t b);

/* Make room for `n` trials in `ir`, each unmeasured (NAN) until it runs. */
int trial_results_grow(struct instance_result *ir, size_t n);

#endif
