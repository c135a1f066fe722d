/* Progress on stderr while a job file runs (cli/progress.c): the plan's size before the
 * first trial, then a status line redrawn in place on a terminal, or a line per trial. */
#ifndef IOTRIAL_CLI_PROGRESS_H
#define IOTRIAL_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct plan;
struct run_progress;

struct cli_progress {
	FILE *out;	/* NULL: no progress at all */
	bool tty;	/* redraw one line in place; else a line per trial */
	bool drawn;	/* a status line is on the screen */
	bool have_rate; /* mbs and iops hold the last trial's figures */
	double mbs, iops;
	uint64_t last_ns; /* when the line was last drawn (run clock) */
};

/* Before the first trial: one line with the plan's size and estimated duration. */
void cli_progress_plan(struct cli_progress *pg, const struct plan *p);

/* run_opts.progress: `arg` is the struct cli_progress. */
void cli_progress_event(const struct run_progress *ev, void *arg);

/* After the run: clear the status line. */
void cli_progress_end(struct cli_progress *pg);

#endif
