/* The names of the files a run makes in its result folder after an instance's name: its
 * record and interval logs in records/, its hook logs in hooks/. One function per name,
 * used by the run that writes the file, the code that reads it back, and the plan, which
 * refuses two instances whose names come out the same (they would share one file). */
#ifndef IOTRIAL_LOGNAME_H
#define IOTRIAL_LOGNAME_H

#include <stdbool.h>
#include <stddef.h>

/* The longest part of an instance's name a hook log's name keeps. */
#define LOGNAME_HOOK_MAX 200

/* The name in records/ of instance `inst`'s record log ("NAME.csv") or, with `intervals`,
 * its interval log ("NAME.intervals.csv"), each '/' of NAME made '_' (a path in a matrix
 * value). Returns it malloc'd, or NULL when memory ran out. */
char *logname_records(const char *inst, bool intervals);

/* The name in hooks/ of the `what` hook ("prepare", "cleanup") of instance `inst`, or of the
 * experiment (the top-level hooks) when `inst` is NULL: "job.NAME.WHAT.log" with NAME cut at
 * LOGNAME_HOOK_MAX bytes and every byte but a letter, a digit, '.', '-' and '_' made '_', or
 * "experiment.WHAT.log", whatever the instances are named. Into `buf` of `len` bytes (cut
 * short when it is too small). */
void logname_hook(char *buf, size_t len, const char *inst, const char *what);

#endif
