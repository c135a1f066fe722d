/* One trial of one unit: every instance of the unit, every worker of each, started on one
 * barrier; background load stopped when the measured workers are done; the workers'
 * figures merged into each instance's trial (bytes summed, histograms merged, elapsed from
 * the first start to the last end) and kept per worker. */
#ifndef IOTRIAL_TRIAL_H
#define IOTRIAL_TRIAL_H

#include <stdint.h>

#include "engine/plan/plan.h"
#include "engine/run/trial_env.h"
#include "model/results.h"

/* Run trial `pt`. In a distributed run every rank calls it for the same trial: the ranks
 * meet on a barrier after set-up, agree on failures at the end, and rank 0 merges every
 * rank's figures into the results (engine/run/reduce.h). Returns 0, or -errno when a measured
 * instance's trial failed, on any rank (rank 0's trial_result says why). */
int trial_run(struct trial_env *e, const struct plan_trial *pt);

/* Make room for `n` trials in `ir`, each unmeasured (NAN) until it runs. */
int trial_results_grow(struct instance_result *ir, size_t n);

#endif
