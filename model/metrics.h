/* The metrics: the figures of a trial that replications summarize, outlier policies and
 * precision targets look at, comparisons test and reports show. One row per metric in
 * model/metrics.c; job files (replication.metric, compare, report.table), results.json
 * (each instance's summary), `iotrial compare --metric`, the reporters and the plots all
 * take the names and the rest from it. A new metric: its id here, its row there (the trial
 * must already hold its value). */
#ifndef IOTRIAL_METRICS_H
#define IOTRIAL_METRICS_H

#include <stdbool.h>
#include <stddef.h>

struct trial_result;
struct instance_summary;
struct stat_summary;

/* Indexes of the table, in the order results.json writes the summaries. The first is the
 * default where nothing names one. */
enum metric_id { METRIC_SECONDS, METRIC_BW_BYTES, METRIC_IOPS, METRIC_LAT_MEAN_NS, METRIC_N };

/* How a value is shown; the reporters and plots format by it. */
enum metric_format {
	MF_SECONDS,  /* seconds, three decimals */
	MF_RATE,     /* bytes per second, in the job file's units: 182 MB/s */
	MF_COUNT,    /* a count per second, whole: 1234 */
	MF_DURATION, /* nanoseconds, in a unit that suits: 1.20 ms */
};

struct metric {
	const char *name;  /* as job files, results.json and --metric spell it */
	const char *unit;  /* of its values: s, bytes/s, IO/s, ns */
	const char *label; /* a plot axis's words for it: time, rate, ... */
	enum metric_format format;
	bool lower_is_better; /* seconds and latency: a lower value is the better one */
	size_t trial_off;     /* where a trial holds its value: a double in struct trial_result */
};

extern const struct metric metrics[METRIC_N];

/* A report table row's own figure, not a metric: CPU seconds (user + system) per GB moved,
 * the total over the kept trials (results_cpu_per_byte). No row of the table: a metric is a
 * value of each trial, summarized over the replications into a STAT that every summary of
 * results.json carries (and requires on reading) and that replication.metric and compare
 * may pick; this is one ratio of two sums, computed from the trials when a table shows it. */
#define METRIC_TABLE_CPU "cpu_s_per_gb"

/* The row named `name`, or NULL (also for NULL). */
const struct metric *metric_find(const char *name);

/* The row named `name`, or the default (the first) when `name` is NULL. NULL for a name that
 * is no metric's. */
const struct metric *metric_or_default(const char *name);

/* The metrics' names as a message lists them, into buf (len bytes): "seconds, bw_bytes, iops
 * or lat_mean_ns" with `last` " or ", or each after a comma with `last` ", ". */
void metric_list(char *buf, size_t len, const char *last);

/* Metric `m`'s value in trial `t` (NAN: not measured, or `m` is NULL). */
double metric_value(const struct metric *m, const struct trial_result *t);

/* The summary of metric `m` over an instance's kept trials. */
const struct stat_summary *metric_stat(const struct instance_summary *s, const struct metric *m);
struct stat_summary *metric_stat_mut(struct instance_summary *s, const struct metric *m);

#endif
