/* The room a run keeps for its result files (cli/run_cmd.c keep_room, cli/outdir.c
 * outdir_reserve), weighed before the result folder is taken against the files the plan
 * creates on the same file system, which would otherwise fail their trials with ENOSPC. */
#ifndef IOTRIAL_ROOM_H
#define IOTRIAL_ROOM_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/plan/plan.h"

/* On rank 0 (the only one that keeps room) and the ranks on its machine: do the files plan
 * `p` creates (each rank's own) still fit with `bytes` (rank 0's; 0 elsewhere) kept for the
 * results in the result folder `folder` (NULL: results/; while it is not made yet, the
 * nearest folder above it that exists)? Unless `taken` (the folder is this run's already,
 * with nothing kept: a batch's), the room a killed run's lock file holds there counts as
 * free, since taking the folder gives it back. One line at the target's file:line:column
 * when they do not fit. Collective on every rank: returns 0 or EXIT_RUN, the same on every
 * rank. */
int room_check(const struct plan *p, const char *folder, uint64_t bytes, bool taken);

#endif
