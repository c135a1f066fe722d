/* The results structure: everything a run measured, and all the reporters ever read. The
 * engine fills it (run.c, summary.c); a results.json read back gives the same structure.
 * A value that could not be measured is NAN here and null in JSON, never 0. */
#ifndef IOTRIAL_RESULTS_H
#define IOTRIAL_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/env.h"
#include "model/lat_hist.h"
#include "model/pctlist.h"
#include "model/spec.h"
#include "lib/stats.h"

struct lat_summary {
	double min, max, mean, stddev, rms;
	double p50, p90, p95, p99, p99_9, p99_99;
};

/* One worker's share of a trial (threads > 1). */
struct worker_result {
	uint32_t worker;
	uint64_t bytes, ios, errors;
	double seconds;
	struct lat_summary lat;
	uint32_t rank; /* whose worker, in a distributed trial (it lists every rank's); else 0 */
};

/* One rank's share of a distributed trial. Its times count from its own exit from the
 * trial's start barrier (CLOCK_MONOTONIC on each rank: clocks of two hosts are never
 * compared, only durations and offsets from the common barrier). */
struct rank_result {
	uint32_t rank;
	char *host;
	uint64_t bytes, ios, errors;
	double seconds;		   /* its first start to its last end; NAN: it did no I/O */
	uint64_t start_ns, end_ns; /* from its barrier exit */
	char *error;		   /* its first error, or NULL */
	/* A stonewalled job (trial_result.stonewall): it stopped before its size (told to, or
	 * at the cap), and the bytes it had moved then, before a wear_out top-up. */
	bool stopped;
	uint64_t stonewall_bytes;
};

/* A distributed trial's figures beside the primary ones (the trial's seconds and bw_bytes:
 * "last done", total bytes over the slowest rank's elapsed time). NAN: not measured. */
struct rank_aggregate {
	double wall_seconds, wall_bw_bytes; /* the first rank's start to the last rank's end */
	double start_skew_s;		    /* the last rank's start - the first rank's */
	/* When the fastest rank finished: the bytes every rank had moved by then, estimated
	 * from each rank's mean rate (no progress samples), and their rate. */
	double first_done_seconds, first_done_bytes, first_done_bw_bytes;
	uint64_t lat_samples; /* values in the merged latency histogram (every rank's I/Os) */
};

/* One direction's share of a trial, as fio's read and write sections: its I/Os, bytes,
 * rates over the trial's seconds, and latency. */
struct dir_result {
	uint64_t ios, bytes;
	double iops, bw_bytes;
	struct lat_summary lat;
};

enum { DIR_READ, DIR_WRITE };

/* The latencies a trial keeps a histogram of, for the summary to pool: every I/O's, the
 * reads', the writes' (mixed workloads), and with submit_latency the submissions' (slat) and
 * the completions' (clat). */
enum lat_kind { LAT_ALL, LAT_READ, LAT_WRITE, LAT_SLAT, LAT_CLAT, LAT_NKINDS };

/* block_split with sizes listed: how many I/Os of one size a trial did, and how many of
 * those the random map cut short. */
struct size_count {
	uint64_t size, ios, cut;
};

/* huge_buffers: how a trial's I/O buffers got huge pages, over its workers (on this rank). */
struct hpages_result {
	bool on;	     /* reported: the trial's workers had I/O buffers */
	int state;	     /* enum hpages_state (model/names.h) */
	uint64_t bytes;	     /* the buffers' size, summed over the workers */
	uint64_t huge_bytes; /* of them on huge pages: granted, partial or none; else 0 */
};

struct trial_result {
	uint32_t index;	  /* 0-based among the instance's measured trials; warm-ups count on */
	bool warmup;	  /* a warm-up trial: never kept, never in the summary */
	bool kept;	  /* counts in the summary */
	bool ran;	  /* false when the run stopped before this trial */
	bool failed;	  /* an I/O error or a set-up failure; `error` says which */
	bool dropped;	  /* removed by the outlier policy (still reported, not kept) */
	bool load_failed; /* its background load failed: it ran without it */
	uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC, from the start of the run */
	double seconds;
	uint64_t bytes, ios;
	double iops, bw_bytes;
	struct lat_summary lat;
	double cpu_user_s, cpu_sys_s;
	uint64_t errors;
	double cached; /* fraction of the file in the page cache when the trial began; NAN: n/a */
	double cached_after; /* ... and when its workers had ended (same file); NAN: n/a */
	char *error;	     /* the first error, one line, or NULL */
	char *log_error;     /* why its record or interval log lacks lines (one line), or NULL */
	struct worker_result *workers; /* per worker, when the instance has more than one */
	uint32_t nworkers;
	struct rank_result *ranks; /* per rank, in a distributed run (more than one rank) */
	uint32_t nranks;
	struct rank_aggregate agg; /* with ranks */
	/* The job stonewalls (its stonewall key is not none): the two fields below are reported.
	 * stonewalled: some rank (or worker) stopped before its size; stonewall_bytes: the bytes
	 * every rank had moved when it stopped, before a wear_out top-up (else `bytes`). */
	bool stonewall;
	bool stonewalled;
	uint64_t stonewall_bytes;
	struct size_count *sizes; /* block_split with sizes listed, in its order; else NULL */
	uint32_t nsizes;
	/* Reads [DIR_READ] and writes [DIR_WRITE]: a mixed workload's two shares; a
	 * one-direction workload's figures under its direction, zeros (latency NAN) under the
	 * other; zeros for copy, copytree and command, whose I/Os are both at once. */
	struct dir_result dir[2];
	/* fsync_every, fdatasync_every: the syncs, apart from the I/Os (ios, lat). */

	bool sync_on;
	uint64_t syncs;
	struct lat_summary sync_lat;
	/* log_histogram: the non-empty buckets of its latency histogram, lowest first, from
	 * which lat's percentiles come; NULL: not kept. Its min and max are lat's. */
	struct lat_bucket *hist;
	uint32_t nhist;
	/* Its place in the order the run went through, from 1, once it ran to its end (a
	 * resumed run keeps such trials); 0: it was cut short by an interrupt, or has not run. */
	uint64_t seq;
	/* submit_latency: slat, queued to taken by the kernel; clat, from then to complete. */
	bool split_on;
	struct lat_summary slat, clat;
	/* By enum lat_kind, for the summary's pooled percentiles; NULL: none (not measured;
	 * read back from a file that did not keep it, see trial_hists in docs/results.md). A
	 * one-direction trial keeps no [LAT_READ] or [LAT_WRITE]: its [LAT_ALL] is its
	 * direction's (engine/stats/pooled.c). */
	struct hist_sparse *pool_hist[LAT_NKINDS];
	struct hpages_result hpages;
};

enum param_type { PV_NULL, PV_STR, PV_UINT, PV_BOOL, PV_REAL };

struct param {
	char *key;
	uint32_t matrix; /* 0: not a matrix key; else its place in the matrix, from 1 */
	enum param_type type;
	char *s;
	uint64_t u;
	bool b;
	double d;
};

struct required_runs {
	double confidence, error;
	double n; /* NAN when the data cannot say (fewer than 2 runs, zero mean) */
	const char *metric;
};

/* The metric the outlier policy looked at, before the policy: what it changed. */
struct before_policy {
	uint32_t n;
	double mean, stddev, cov;
};

/* One direction's statistics over the kept trials, and the runs its IO/s need. */
struct dir_summary {
	struct stat_summary iops, bw_bytes, lat_mean_ns;
	double required_n; /* for iops, at the instance's confidence and error; NAN: unknown */
};

/* The latency of every I/O of the kept trials, pooled (their histograms merged), at the
 * instance's percentiles; NAN where nothing was measured or a kept trial lacks its
 * histogram. */
struct pooled_lat {
	uint64_t ios;
	/* Kept trials that measured this kind but have no histogram to pool (resumed from a
	 * checkpoint that did not keep them): when above 0, ios is 0 and every figure NAN. */
	uint32_t no_hist;
	double min, max;
	double p[PCT_LIST_MAX]; /* by instance_result.pcts */
};

/* Room for every row of the metric table (model/metrics.c checks that it fits). */

#define RESULTS_MAX_METRICS 8

struct instance_summary {
	uint32_t runs, kept;
	struct stat_summary stat[RESULTS_MAX_METRICS]; /* by enum metric_id (model/metrics.h) */
	struct dir_summary dir[2];		       /* reads [DIR_READ], writes [DIR_WRITE] */
	struct required_runs required;
	const char *metric;	     /* the primary metric: outliers and targets use it */
	struct before_policy before; /* of that metric, over every run that did not fail */
	const char *stopped_by;	     /* precision target: "precision" or "max"; NULL: a count */
	/* Over every I/O of the kept trials (discwr2\'s per-record summary). */
	double rec_min_ns, rec_max_ns, rec_mean_ns, rec_rms_ns;
	struct pooled_lat pooled[LAT_NKINDS]; /* by enum lat_kind */
};

/* How an instance is replicated, as results.json reports it. */
struct replication_info {
	enum spec_outliers outliers;
	uint32_t trim_low, trim_high;
	double outlier_k;
	bool target;
	uint32_t pilot, max;
	int estimate;	/* target.estimate: enum target_estimate (model/names.h) */
	uint32_t round; /* target.round */
	double pilot_n; /* the pilot's estimate, before rounding; NAN: none (yet) */
	double confidence, error;
	const char *metric; /* as set in the job file; NULL: by the bound */
};

struct comparison {
	char *a, *b;		 /* instance names */
	char *a_label, *b_label; /* the selectors as written: "device=usb" */
	char *metric;
	double mean_a, mean_b, diff_mean, ci_low, ci_high, confidence, ratio, df;
	uint32_t na, nb;
	bool significant;
	const char *test;
};

/* A per-record or interval log of one trial, binned (engine/stats/series.c): each point is a
 * stretch of the trial with the bytes written up to its end, its end, and its rate. */
enum series_kind { SERIES_RECORDS, SERIES_INTERVALS };

struct series_point {
	uint64_t at_bytes, at_ns; /* at the point's end, from the trial's start */
	double value; /* bytes/s: records, bytes over the I/Os' time; intervals, over wall time */
};

struct series {
	uint32_t trial;
	enum series_kind kind;
	struct series_point *pts;
	size_t npts;
};

/* A lasting change of a series' level (engine/stats/changepoint.c): where, and the rates on
 * either side (bytes/s, over the points between it and its neighbouring change points). */
struct change_point {
	uint32_t trial;
	enum series_kind kind;
	uint64_t at_bytes, at_ns;
	double before, after;
};

struct instance_result {
	char *name; /* job, or job[key=value,...] for a matrix point */
	char *job;
	char *backend;
	char *workload;
	uint32_t threads;
	bool background;      /* load that ran alongside measured jobs: reported apart */
	bool records;	      /* per-record log written: the summary shows the record times */
	bool submit_latency;  /* slat and clat measured apart (trial_result.slat, clat) */
	struct pct_list pcts; /* the percentiles of summary.pooled */
	struct param *params;
	size_t nparams;
	struct trial_result *trials;
	size_t ntrials;
	struct instance_summary summary;
	struct replication_info rep;
	/* A read trial found most of its file already in memory, or read its file again
	 * (buffered) and ended with most of it in memory. */
	bool reads_cached;
	struct series *series; /* per logged trial that is not a warm-up, records first */
	size_t nseries;
	struct change_point *cps; /* over every series, in the order of `series` */
	size_t ncps;
};

/* What differs in the environment of a resumed session from the run's `env`: a key (kernel,
 * targets[PATH].device, ...) with its value before and after; NULL: unknown, or absent. */
struct env_change {
	char *key, *before, *after;
};

/* One resumption of an interrupted run (iotrial run --resume): when it stopped (its last
 * checkpoint), when it went on, how many trials were kept, what changed around it. */
struct resumption {
	char stopped_at[32], resumed_at[32]; /* RFC 3339 UTC */
	uint64_t trials_done;
	struct env_change *changes;
	size_t nchanges;
};

struct results {
	char *tool_name, *tool_version;
	char *experiment, *description;
	char *job_path;
	char job_sha256[65];
	struct spec_override *overrides;
	size_t noverrides;
	char started_at[32], finished_at[32]; /* RFC 3339 UTC */
	bool complete;
	uint64_t seed;
	enum spec_units units;
	double confidence; /* of the summaries' confidence intervals */
	struct run_env env;
	struct instance_result *inst;
	size_t ninst;
	struct comparison *cmp;
	size_t ncmp;
	char *order;		 /* sequential, interleaved or random */
	struct table_spec table; /* report: {table: ...}; columns NULL: none */
	uint64_t max_rss_bytes;	 /* the run\'s peak resident memory; 0: unknown */
	uint32_t nranks;	 /* the ranks of the run: 1 unless distributed */
	uint64_t order_seed;
	struct resumption *resumptions; /* in the order they happened; none: a run in one go */
	size_t nresumptions;
	/* Strings behind the const char * fields above (metrics, test, stopped_by) when the
	 * results were read back from a file (model/results_json.c); a run leaves it empty. */
	char **owned;
	size_t nowned;
};

/* Apply the instance's outlier policy (marking dropped trials) and compute its summary
 * from the kept, measured trials (summary.c). */
void results_summarize_one(struct instance_result *ir);

/* Every instance's summary. */
void results_summarize(struct results *r);

/* Fill comparison `c` (its a, b, metric, confidence set) from the two instances' kept
 * trials: Welch, or paired t when `paired` and the trials pair up. */
void results_compare(const struct instance_result *a, const struct instance_result *b, bool paired,
		     struct comparison *c);

/* Free everything `r` owns and zero it. */
void results_release(struct results *r);

/* The value of parameter `key` of an instance, or NULL. */
const struct param *results_param(const struct instance_result *ir, const char *key);

/* CPU seconds (user + system, every worker) per byte moved, over the instance's kept trials:
 * their CPU time over their bytes. NAN when they moved nothing. */
double results_cpu_per_byte(const struct instance_result *ir);

/* The rate of worker `worker` (bytes/s) over the kept trials: its bytes over its seconds,
 * summed over them. NAN when no kept trial has a row for it (one worker: no rows). */
double results_worker_rate(const struct instance_result *ir, uint32_t worker);

#endif
