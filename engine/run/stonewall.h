/* Stonewalling (the job key `stonewall`): which instances of a trial stop early, the
 * coordinating thread's watch that stops every rank once the first has done its size, and
 * the wear_out top-up. Workers never call the transport: they see a flag in the trial's
 * sync_area (engine/run/trial_slot.h), raised by the thread that polls the other ranks. */
#ifndef IOTRIAL_STONEWALL_H
#define IOTRIAL_STONEWALL_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/run/trial_env.h"
#include "engine/run/trial_slot.h"

/* Instance k's stop flag in sync_area.sw_stop and its bit in the ranks' poll: the unit's
 * 64th instance and later share the last (the first of those done stops them all). */
unsigned stonewall_index(size_t k);

/* Does the instance's measured trial stonewall at all (a time cap at least)? */
bool stonewall_applies(const struct inst_run *r);

/* Is it stopped on every rank once some rank has done its size (first_done, wear_out)? The
 * same answer on every rank: it depends on the plan alone. */
bool stonewall_watched(const struct inst_run *r);

/* Called by the coordinating thread once the workers are released: meets the other ranks
 * every few milliseconds (dist_poll_or), learns which watched instances some rank has
 * finished, and raises their stop flags. Returns once every watched instance has finished
 * on some rank (the workers may still be draining). Collective: every rank calls it for the
 * same unit, with or without workers of its own. */
void stonewall_watch(struct inst_run *runs, size_t n, struct sync_area *sync);

/* After the measured workers of the unit were joined: every rank of a wear_out instance that
 * moved less than the most any rank moved runs its workers again from where they stopped,
 * until it reaches that amount or stonewall_cap; the top-up's figures are added to each
 * worker's (slot.stonewall_bytes keeps what it had before). Nothing is topped up when some
 * rank failed. Collective, like stonewall_watch. */
void stonewall_wear_out(struct trial_env *e, struct inst_run *runs, size_t n);

#endif
