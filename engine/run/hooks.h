/* Hooks: the `prepare` and `cleanup` commands of the experiment (top-level keys) and of each
 * job instance (job keys), run with /bin/sh -c outside every trial, their output (stdout and
 * stderr) kept in the result folder as hooks/experiment.WHAT.log and
 * hooks/job.NAME.WHAT.log (WHAT: prepare or cleanup). */
#ifndef IOTRIAL_HOOKS_H
#define IOTRIAL_HOOKS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/plan/plan.h"
#include "lib/diag.h"

struct hook_ctx {
	const char *dir;	/* the result folder, for messages; NULL: output to /dev/null */
	int dir_fd;		/* the result folder, held open: hooks/ is made and written by it */
	const atomic_int *stop; /* an interrupt: a prepare hook is stopped */
	struct diag *d;
};

/* Run `cmd` as the `what` hook ("prepare" or "cleanup") of instance `inst`, or of the
 * experiment (a top-level hook) when `inst` is NULL, and wait for it. A prepare hook is
 * stopped when *stop is raised (SIGTERM to its process group, SIGKILL a second later); a
 * cleanup hook runs to its end, also after an interrupt (a second Ctrl-C ends iotrial, and
 * the hook's shell with it). Returns 0 when it exited with status 0, else -1 with one line
 * in `d`. */
int hook_run(const struct hook_ctx *h, const char *inst, const char *what, const char *cmd);

/* Every instance of stage `stage` that has the hook: its prepare (stops at the first that
 * fails) or its cleanup (all of them). Returns 0, or -1 when one failed. */
int hook_stage(const struct hook_ctx *h, const struct plan *p, size_t stage, bool prepare);

#endif
