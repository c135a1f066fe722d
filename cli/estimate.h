/* The estimated time of a plan on the command line (cli/estimate.c): its text, the hints of
 * --estimate-from (an earlier run's results.json) and of --probe (a short run of each
 * size-bound job instance). The arithmetic is engine/plan/estimate.c's. */
#ifndef IOTRIAL_CLI_ESTIMATE_H
#define IOTRIAL_CLI_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/plan/estimate.h"

/* What follows "estimated time: " for `e`, the estimate of `p`: the time and its uncertainty,
 * what it rests on, or why it cannot be given. `source` names where the size-bound hints
 * came from ("--estimate-from", "--probe"), NULL when there were none; `running`: said
 * before a run, whose ETA learns from its trials. */
void cli_estimate_text(char *buf, size_t len, const struct plan *p, const struct plan_estimate *e,
		       const char *source, bool running);

/* Hints for each instance of `p` (hints[p->ninst], allocated here) from the results file at
 * `path`: the trials that did not fail of the instance of the same name. Returns 0, or
 * EXIT_USAGE after saying why on stderr (the file cannot be read or is no results file). */
int cli_hints_from(const char *path, const struct plan *p, struct est_hint **hints);

/* Probe: run each size-bound instance of `p` (job file `file` with the overrides `ov`) for
 * `seconds` in three short time-bound trials, into hints[p->ninst] (allocated here); says
 * what it does on stderr. Returns 0, or the exit status of what failed. */
struct spec_override;
int cli_probe(const char *file, const struct spec_override *ov, size_t nov, const char *scratch,
	      const struct plan *p, double seconds, struct est_hint **hints);

#endif
