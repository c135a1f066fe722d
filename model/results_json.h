/* results.json read back (schema "iotrial.results/1"): the inverse of reporters/json.c, so
 * `iotrial report` and `iotrial compare` work on saved runs. Every key is type-checked; a
 * problem is one line naming the file and the JSON path: `r.json: jobs[3].trials[0].seconds:
 * expected a number`. Hostile input gives messages, never a crash. */
#ifndef IOTRIAL_RESULTS_JSON_H
#define IOTRIAL_RESULTS_JSON_H

#include <stddef.h>

#include "lib/diag.h"
#include "model/results.h"

/*
 * Read the results file at `path` into `r` (overwritten entirely). The keys of the contract
 * in DESIGN.md are required; the keys reporters/json.c adds beyond it (order, units, matrix,
 * replication, page_cache, page_cache_after, background, summary.records, report.table,
 * resources, ...) may be missing and then take their "unknown" value (NAN, NULL, false, 0;
 * records false without summary.records). Unknown keys are ignored. null reads as NAN for
 * numbers and NULL for strings. Every trial read back has ran = true (only trials that ran are
 * written). Returns 0, -errno when the file cannot be read, or -EINVAL (-ENOMEM) with the problems
 * in `d`: a syntax error as `PATH:LINE:COL: ...`, the rest as `PATH: ...`. On failure `r` is
 * released; on success the caller frees it with results_release.
 */
int rj_load(const char *path, struct results *r, struct diag *d);

/* The same from the file open as `fd` (read from where it stands, left open), `path` naming
 * it in messages. */
int rj_load_fd(const char *path, int fd, struct results *r, struct diag *d);

/* The same from `len` bytes of memory; `name` stands for the file in messages. For tests
 * and fuzzing. */
int rj_load_string(const char *name, const char *text, size_t len, struct results *r,
		   struct diag *d);

#endif
