/* The names of the enumerations that job files, results.json and the reports spell: one
 * table per enumeration, indexed by its value and NULL-terminated, with lookups both ways
 * (the parsers look names up with names_find too). The job keys' own enumerations (workload,
 * sync, layout, ...) are in their rows of model/jobkeys.c. */
#ifndef IOTRIAL_NAMES_H
#define IOTRIAL_NAMES_H

#include <stddef.h>

/* enum spec_outliers: none, trim, iqr, mad. */
extern const char *const outlier_policy_names[];
/* enum spec_order: interleaved, sequential, random. */
extern const char *const order_names[];
/* enum spec_units: decimal, binary. */
extern const char *const units_names[];
/* enum series_kind: records, intervals. */
extern const char *const series_kind_names[];

/* A comparison's test (struct comparison.test), as results.json names it. */
enum cmp_test { CMP_WELCH, CMP_PAIRED_T };
extern const char *const cmp_test_names[];

/* Why a precision target stopped (instance_summary.stopped_by); "pilot estimate": the runs
 * reached the pilot's rounded estimate (target.estimate: pilot). */
enum stop_reason { STOP_PRECISION, STOP_MAX, STOP_INTERRUPTED, STOP_PILOT_ESTIMATE };
extern const char *const stop_reason_names[];

/* A trial's huge_buffers: how its workers' I/O buffers got the huge pages the job asked for
 * (hpages_result.state). */
enum hpages_state { HP_OFF, HP_GRANTED, HP_PARTIAL, HP_NONE, HP_FALLBACK, HP_UNKNOWN };
extern const char *const hpages_state_names[];

/* target.estimate: where a precision target's run count comes from: re-estimated from the
 * kept runs after each round, or once from the pilot before outliers. */
enum target_estimate { ESTIMATE_KEPT, ESTIMATE_PILOT };
extern const char *const estimate_names[];

/* The name of value `v` in `names`, or NULL when `v` is out of its range. */
const char *names_get(const char *const *names, int v);

/* The value whose name is `name` in `names`, or -1 (also for a NULL `name`). */
int names_find(const char *const *names, const char *name);

/* "a, b, c or d": the names as a message lists them, into buf (len bytes, cut short if need
 * be). */
void names_list(char *buf, size_t len, const char *const *names);

#endif
