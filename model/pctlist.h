/* The latency percentiles a summary gives: the job's `percentiles` key ("50,99,99.9", from a
 * YAML list), or p50, p99 and p99.9. One parser for the key's check, the planner and the
 * results reader; and the one spelling of a percentile's key in results.json ("p99_9"). */
#ifndef IOTRIAL_PCTLIST_H
#define IOTRIAL_PCTLIST_H

#include <stddef.h>
#include <stdint.h>

/* At most this many percentiles a job may list. */
#define PCT_LIST_MAX 16

/* Percentiles as given (50, 99.9), ascending, each above 0 and at most 100, with at most
 * four decimals: a whole number of parts per million (pct_ppm), so ranks are exact. */
struct pct_list {
	uint32_t n;
	double pct[PCT_LIST_MAX];
};

/* p50, p99, p99.9: what a job that lists none gets. */
void pct_list_default(struct pct_list *l);

/* Parse "50,99,99.9" (NULL: the default). Returns 0, or -EINVAL / -ERANGE with
 * one line in `err` naming the entry at fault. */
int pct_list_parse(const char *text, struct pct_list *l, char *err, size_t errlen);

/* The key table's check (model/jobkeys.c). */
int pct_list_check(const char *text, char *err, size_t errlen);

/* Percentile `pct` in parts per million: 99.9 is 999000 (engine/stats/hist.h). */
uint32_t pct_ppm(double pct);

/* Its key in results.json: "p50", "p99_9", "p99_999" (the dot becomes '_'). */
void pct_key(char *buf, size_t len, double pct);

/* As a column header: "p50", "p99.9". */
void pct_label(char *buf, size_t len, double pct);

#endif
