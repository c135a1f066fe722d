/* The results structure of a run, before its first trial and after its last: what the
 * runner (run.c) fills in around the measurements. */
#ifndef IOTRIAL_RUN_RESULTS_H
#define IOTRIAL_RUN_RESULTS_H

#include "engine/plan/plan.h"
#include "model/results.h"

/* Fill in the parts of `r` known before any trial: experiment, job file, seed, environment,
 * one instance per plan instance with its params. Returns 0 or -ENOMEM (what was filled in
 * is released by results_release). */
int run_results_init(const struct plan *p, struct results *r);

/* The comparisons the job file asks for, from the instances' summaries. Returns 0 or
 * -ENOMEM (some are then missing from the results). */
int run_results_compare(const struct plan *p, struct results *r);

#endif
