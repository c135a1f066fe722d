/* Going on with an interrupted run (iotrial run --resume): the results of its checkpoint read
 * back (model/results_json.h) are matched against the plan, position by position of the
 * order, and the trials that ran to their end are moved into the new run's results, so that
 * run_plan runs only the rest, in the same order. */
#ifndef IOTRIAL_RESUME_H
#define IOTRIAL_RESUME_H

#include <stddef.h>
#include <stdint.h>

#include "engine/plan/plan.h"
#include "lib/diag.h"
#include "model/results.h"

struct resume_point {
	size_t done;	   /* positions of the order already run: run_opts.resume_done */
	uint64_t clock_ns; /* the last kept trial's end: run_opts.resume_clock_ns */
	size_t failed;	   /* kept trials that failed (the exit status counts them) */
};

/* Take the trials of checkpoint `from` (read back, incomplete, of the same job file and
 * overrides, planned with its seed into `p`) into `r` (fresh from run_results_init): the
 * positions 1..N that its trials record (seq) must be the first N of the plan's order,
 * precision targets' rounds replayed where they were added; a trial without a place (cut
 * short) is left out, to run again. Then r keeps the first session's start and env, and its
 * resumptions, one more added: `now` (RFC 3339), and how the environment r was captured in
 * differs. Returns 0, -EINVAL with one line in `d` when the checkpoint does not fit the plan,
 * or -ENOMEM. `from` is left to release (emptied of what was moved). */
int run_resume(struct plan *p, struct results *r, struct results *from, const char *now,
	       struct resume_point *at, struct diag *d);

#endif
