/* Room on disk for what a plan creates, all its files at once, and beside the room a run
 * keeps for its result files: refused before any I/O, at the target that does not fit,
 * instead of trials that fail with ENOSPC. */
#ifndef IOTRIAL_PLAN_ROOM_H
#define IOTRIAL_PLAN_ROOM_H

#include <stdint.h>
#include <sys/types.h>

#include "engine/plan/plan.h"
#include "lib/diag.h"

/* What the command line keeps for the results (cli/run_cmd.c keep_room), told to the plan,
 * which knows nothing of result folders: a file of `bytes` (the lock file, its pid line and
 * the room) on the file system `dev`, in whole blocks there, of which `held` are held there
 * already (the room of a killed run's lock file, given back when the folder is taken).
 * `folder` names the result folder in the message. */
struct plan_kept {
	dev_t dev;
	uint64_t bytes, held;
	const char *folder;
};

/* Does every file the plan creates on this rank (targets, sources, scratch files, each in
 * whole blocks of its file system; a file instances share once, at its largest; a copy's
 * destination, removed after each trial, with those of the copies that run alongside it,
 * the largest such unit, unless kept) fit on its file system at once, with the room `kept`
 * (NULL: none) on the file system that holds it? The room counts only where it can be
 * kept (no more than the disk has): where it cannot, the run keeps none, warned. One line
 * in `d` per file system that is short, at the key of the file that no longer fits.
 * Returns 0, or PLAN_EENV (also when memory ran out, said). */
int plan_check_room(const struct plan *p, const struct plan_kept *kept, struct diag *d);

#endif
