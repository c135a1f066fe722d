/* The results structure: everything a run measured, and all the reporters ever read. The
 * engine fills it (run.c, summary.c); a results.json read back gives the same structure.
 * A value that could not be measured is NAN here and null in JSON, never 0. */
#ifndef IOTRIAL_RESULTS_H
#define IOTRIAL_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/env.h"
#include "engine/spec.h"
#include "engine/stats.h"

struct lat_summary {
	double min, max, mean, stddev, rms;
	double p50, p90, p95, p99, p99_9, p99_99;
};

struct trial_result {
	uint32_t index;  /* 0-based among the instance's measured trials; warm-ups count on */
	bool warmup;     /* a warm-up trial: never kept, never in the summary */
	bool kept;       /* counts in the summary */
	bool ran;        /* false when the run stopped before this trial */
	bool failed;     /* an I/O error or a set-up failure; `error` says which */
	uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC, from the start of the run */
	double seconds;
	uint64_t bytes, ios;
	double iops, bw_bytes;
	struct lat_summary lat;
	double cpu_user_s, cpu_sys_s;
	uint64_t errors;
	double cached; /* fraction of the file in the page cache when the trial began; NAN: n/a */
	char *error;   /* the first error, one line, or NULL */
};

enum param_type { PV_NULL, PV_STR, PV_UINT, PV_BOOL };

struct param {
	char *key;
	enum param_type type;
	char *s;
	uint64_t u;
	bool b;
};

struct required_runs {
	double confidence, error;
	double n; /* NAN when the data cannot say (fewer than 2 runs, zero mean) */
	const char *metric;
};

struct instance_summary {
	uint32_t runs, kept;
	struct stat_summary seconds, bw_bytes, iops, lat_mean_ns;
	struct required_runs required;
};

struct instance_result {
	char *name; /* job, or job[key=value,...] for a matrix point */
	char *job;
	char *backend;
	char *workload;
	uint32_t threads;
	struct param *params;
	size_t nparams;
	struct trial_result *trials;
	size_t ntrials;
	struct instance_summary summary;
	bool reads_cached; /* a read trial found most of its file already in memory */
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
};

/* Compute every instance's summary from its kept, measured trials. */
void results_summarize(struct results *r, double confidence, double error);

/* Free everything `r` owns and zero it. */
void results_release(struct results *r);

/* The value of parameter `key` of an instance, or NULL. */
const struct param *results_param(const struct instance_result *ir, const char *key);

#endif
