/* A trial's intervals as they close: while its measured workers run, the coordinating thread
 * reads each one's ring of closed intervals (engine/io/worker.h) and tells the run's observer
 * (model/events.h). Only for jobs with log_interval, and only when an observer listens. */
#ifndef IOTRIAL_TRIAL_IVL_H
#define IOTRIAL_TRIAL_IVL_H

#include <stddef.h>

#include "engine/run/trial_env.h"

struct inst_run;

/* Stream the intervals of the measured workers of `runs` (n instance runs of one trial)
 * until every one of them has returned, then the last ones. Returns at once when nobody
 * listens or no worker logs intervals. Intervals lapped before they were read are counted
 * in e->ivl_dropped (the interval log still has them). */
void trial_stream_intervals(struct trial_env *e, struct inst_run *runs, size_t n);

#endif
