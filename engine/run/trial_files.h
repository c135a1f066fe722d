/* The files around one trial of an instance: laid out before it, a copy's destinations
 * made before it and removed after it, the page cache dropped and what it holds noted.
 * Everything goes through the run's ledger (engine/run/ledger.h). For trial.c. */
#ifndef IOTRIAL_TRIAL_FILES_H
#define IOTRIAL_TRIAL_FILES_H

#include "engine/plan/plan.h"
#include "engine/run/trial_env.h"
#include "engine/run/trial_slot.h"

/* Lay out what instance run `r`'s workers read, make a copy's destinations, drop caches,
 * note what is cached. Returns 0 or -errno after failing r's trial with the reason. */
int trial_prepare(struct trial_env *e, struct inst_run *r);

/* What the trial left in the page cache of the file it read (or wrote), once every worker
 * has ended and before anything reads it back: a buffered read that went over its file more
 * than once and left it mostly cached is marked reads_cached. */
void trial_note_cached_after(struct inst_run *r);

/* Remove the copies this trial of unit `u` made (the last ones stay when files are kept),
 * each only while it is the one this trial made; anything else in its place fails the
 * trial, named. */
void trial_remove_destinations(struct trial_env *e, const struct plan_unit *u, struct inst_run *r);

#endif
