/* After a trial's workers are done (trial_merge.c): their figures merged into each
 * instance's trial, written data read back, and in a distributed run every rank's figures
 * and log lines handed to rank 0. */
#ifndef IOTRIAL_TRIAL_MERGE_H
#define IOTRIAL_TRIAL_MERGE_H

#include <stdint.h>

#include "engine/plan/plan.h"
#include "engine/run/trial_env.h"
#include "engine/run/trial_slot.h"

/* Merge an instance's workers into its trial: bytes summed, histograms merged into r->hist
 * (kept for the ranks' reduction), elapsed from the first start to the last end, a row per
 * worker when there are several. Returns 0, or -ENOMEM after failing the trial. */
int trial_merge(struct trial_env *e, struct inst_run *r);

/* Read back and check what a write trial wrote. Returns 0 or -errno. */
int trial_verify_back(struct trial_env *e, struct inst_run *r);

/* A distributed trial, after trial_merge: this rank's figures and worker rows of every
 * instance of unit `u` handed to rank 0, which merges them into its results (reduce.h);
 * `t_sync` is this rank's exit from the start barrier. Collective. */
void trial_reduce_unit(struct trial_env *e, const struct plan_unit *u, struct inst_run *runs,
		       uint64_t t_sync);

/* After a trial (a distributed one: after trial_reduce_unit): the other ranks' record and
 * interval log lines of every instance of `u` that logs appended to rank 0's logs, rank by
 * rank; rank 0 notes in e->d what is missing, and a trial whose logs lack lines says why in
 * its log_error (counted in e->logs_cut). Collective. */
void trial_gather_logs(struct trial_env *e, const struct plan_unit *u, struct inst_run *runs);

#endif
