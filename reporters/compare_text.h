/* The report of `iotrial compare`: two saved runs, instance by instance, in sentences like
 * the text summary's comparisons. It formats; the comparisons come from results_compare. */
#ifndef IOTRIAL_COMPARE_TEXT_H
#define IOTRIAL_COMPARE_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "model/results.h"

/*
 * Write to `out` a header line naming the files (A = `a_path`, B = `b_path`), then one line
 * per job instance of `a`, in its order: cmp[i] for a->inst[i] (filled by results_compare,
 * with `a` the instance of A and `b` its namesake in B; cmp[i].b NULL when B has no such
 * instance), then one line per instance of `b` that A lacks (b_matched[j] false). The
 * percentages are relative to A's mean. Returns 0 or -EIO.
 */
int rep_compare_text(const char *a_path, const struct results *a, const char *b_path,
		     const struct results *b, const struct comparison *cmp, const bool *b_matched,
		     FILE *out);

#endif
