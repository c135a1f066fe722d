/* What the runner (run.c) shares with the replay of a resumed run (resume.c). Not for use
 * elsewhere. */
#ifndef IOTRIAL_RUN_INTERNAL_H
#define IOTRIAL_RUN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "engine/plan/plan.h"
#include "model/results.h"

/* Where stage `stage`'s trials end: how many more runs each unit's precision target asks for
 * (into `more`, one per unit), as rank 0 decides it from the results so far. Returns the
 * total. */
size_t run_more_round(struct plan *p, struct results *r, uint32_t *more, size_t stage);

#endif
