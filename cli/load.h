/* Loading a job file for `run` and `validate`, on every rank of a distributed run, and the
 * ranks' agreement on how each step went. Each function returns an exit status (0,
 * EXIT_RUN, EXIT_USAGE: cli/cli.h), the same on every rank. */
#ifndef IOTRIAL_LOAD_H
#define IOTRIAL_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "engine/plan/plan.h"
#include "lib/diag.h"
#include "model/jobkeys.h"

/* The folder ${scratch} names (malloc'd; NULL with errno set when it cannot be resolved). */
char *load_scratch_path(void);

/* The worst (largest) of every rank's status `st`, on every rank. */
int load_agree_max(int st);

/* Print what a step found in `d` (released here) and agree on its outcome `st`: the worst
 * status of any rank. */
int load_settle(int st, struct diag *d);

/* Read, parse (with the --set overrides `ov`) and plan job file `file` into `s` and `p`.
 * Returns 0, or the exit status for the failure after its messages (nothing to release). */
int load_job(const char *file, const struct spec_override *ov, size_t nov, const char *scratch,
	     struct exp_spec *s, struct plan *p);

/* load_job with the seed `seed` (a job file without one of its own is planned with it) instead
 * of a fresh one: a resumed run's, from its checkpoint. */
int load_job_seeded(const char *file, const struct spec_override *ov, size_t nov,
		    const char *scratch, uint64_t seed, struct exp_spec *s, struct plan *p);

#endif
