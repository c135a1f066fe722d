/* Progress on stderr while a job file runs (cli/progress.c): the plan's size and estimated
 * time before the first trial, then a status line redrawn in place on a terminal (during
 * each trial too), or a line per trial elsewhere. */
#ifndef IOTRIAL_CLI_PROGRESS_H
#define IOTRIAL_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/plan/estimate.h"

#include "engine/run/run_events.h"

struct plan;

struct cli_progress {
	FILE *out;	/* NULL: no progress at all */
	bool tty;	/* redraw one line in place; else a line per trial */
	bool drawn;	/* a status line is on the screen */
	bool have_rate; /* last_mbs and last_iops hold the last trial's figures */
	double last_mbs, last_iops;
	uint64_t drawn_ns; /* when the line was last drawn (run clock) */
	const struct plan *p;
	/* Per instance: what its trials take, from --estimate-from (given), then from its
	 * trials in this run (hints: their seconds and bytes summed over `nlearned` trials). */
	struct est_hint *given, *hints;
	double *sum_s, *sum_bytes;
	uint32_t *nlearned;
	double ended_s; /* the ended trials' time, from their start to their end */
	size_t nended;
	uint64_t trial_t0; /* when the trial under way started (run clock) */
};

/* Before the first trial: one line with the plan's size and estimated duration; `given`
 * (per instance, copied; may be NULL) are the hints of --estimate-from. 0 or -ENOMEM. */
int cli_progress_plan(struct cli_progress *pg, const struct plan *p, const struct est_hint *given);

/* The observer that draws the progress (run_observe, with the struct cli_progress as its
 * context). */
extern const struct run_observer cli_progress_observer;

/* Clear the status line (a terminal's), so that a message starts on a clean line; it is
 * drawn again at the next progress. Safe on NULL and without progress. */
void cli_progress_clear(struct cli_progress *pg);

/* After the run: clear the status line, release what cli_progress_plan took. */
void cli_progress_end(struct cli_progress *pg);

#endif
