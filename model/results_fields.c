/* The rows of results.json (see rfield.h), one table per object, in the order the keys are
 * written. A new key is one row here (its value a field of struct results), and a line in
 * docs/results.md. Rows that need more than their type: the `when` predicates and the custom
 * readers and writers are in results_fields_custom.c. */
#include "model/rfield.h"

#include "model/names.h"
#include "model/results.h"
#include "model/results_fields.h"

/* A row of struct T: key, type, flags, member, then any other field by name. */
#define ROW(T, k, ty, fl, m, ...)                                                                  \
	{                                                                                          \
		.key = k, .type = ty, .flags = fl, .off = offsetof(T, m), __VA_ARGS__              \
	}
/* A row with no value of its own (RF_OBJ over the same struct, RF_CONST, RF_CUSTOM). */
#define NOVAL(k, ty, fl, ...)                                                                      \
	{                                                                                          \
		.key = k, .type = ty, .flags = fl, .off = 0, __VA_ARGS__                           \
	}
/* An array member `m` of struct T with its count `n`, each entry by table `t`. */
#define ARR(T, k, fl, m, n, t, ...)                                                                \
	ROW(T, k, RF_ARR, fl, m, .sub = &(t), .count_off = offsetof(T, n),                         \
	    .count_size = sizeof(((T *)0)->n), .size = sizeof(*((T *)0)->m), __VA_ARGS__)
#define TABLE(name, rows, ...)                                                                     \
	const struct rf_table name = {.f = rows, .n = sizeof(rows) / sizeof(rows[0]), __VA_ARGS__}

#define REQ	 RF_REQ
#define OPT	 0
#define NULLABLE RF_NULLABLE

/* lat_ns: a latency summary (ns). */
#define LAT(k) ROW(struct lat_summary, #k, RF_REAL, REQ, k)
static const struct rfield lat_rows[] = {
    LAT(min), LAT(max), LAT(mean), LAT(stddev), LAT(rms),    LAT(p50),
    LAT(p90), LAT(p95), LAT(p99),  LAT(p99_9),	LAT(p99_99),
};
static TABLE(lat_table, lat_rows);

/* STAT: a statistic over replications. */
#define STAT(k, ty) ROW(struct stat_summary, #k, ty, REQ, k)
static const struct rfield stat_rows[] = {
    STAT(mean, RF_REAL),   STAT(stddev, RF_REAL),  STAT(cov, RF_REAL),
    STAT(median, RF_REAL), STAT(min, RF_REAL),	   STAT(max, RF_REAL),
    STAT(ci_low, RF_REAL), STAT(ci_high, RF_REAL), STAT(confidence, RF_FRACTION),
};
static TABLE(stat_table, stat_rows);

#define W(k, ty, fl, m, ...) ROW(struct worker_result, k, ty, fl, m, __VA_ARGS__)
static const struct rfield worker_rows[] = {
    W("worker", RF_U32, REQ, worker),
    W("bytes", RF_U64, REQ, bytes),
    W("ios", RF_U64, REQ, ios),
    W("seconds", RF_REAL, REQ, seconds),
    W("errors", RF_U64, OPT, errors),
    W("lat_ns", RF_OBJ, REQ, lat, .sub = &lat_table),
    /* A distributed trial lists every rank's workers: whose is each. */
    W("rank", RF_U32, OPT, rank, .when = rf_owner_has_ranks),
};
static TABLE(worker_table, worker_rows);

#define RK(k, ty, fl, m, ...) ROW(struct rank_result, k, ty, fl, m, __VA_ARGS__)
static const struct rfield rank_rows[] = {
    RK("rank", RF_U32, REQ, rank),
    RK("host", RF_STR, NULLABLE, host),
    RK("bytes", RF_U64, REQ, bytes),
    RK("ios", RF_U64, REQ, ios),
    RK("seconds", RF_REAL, REQ, seconds),
    RK("start_ns", RF_U64, OPT, start_ns),
    RK("end_ns", RF_U64, OPT, end_ns),
    RK("errors", RF_U64, OPT, errors),
    RK("error", RF_STR, NULLABLE, error),
    RK("stopped", RF_BOOL, OPT, stopped, .when = rf_owner_stonewalls),
    RK("stonewall_bytes", RF_U64, OPT, stonewall_bytes, .when = rf_owner_stonewalls),
};
static TABLE(rank_table, rank_rows);

/* A distributed trial's aggregates; last done repeats the trial's own seconds and bw_bytes. */
#define T(k, ty, fl, m, ...) ROW(struct trial_result, k, ty, fl, m, __VA_ARGS__)
static const struct rfield last_done_rows[] = {
    T("seconds", RF_REAL, OPT, seconds),
    T("bw_bytes", RF_REAL, OPT, bw_bytes),
};
static TABLE(last_done_table, last_done_rows);
static const struct rfield wall_rows[] = {
    T("seconds", RF_REAL, OPT, agg.wall_seconds),
    T("bw_bytes", RF_REAL, OPT, agg.wall_bw_bytes),
    T("start_skew_s", RF_REAL, OPT, agg.start_skew_s),
};
static TABLE(wall_table, wall_rows);
static const struct rfield first_done_rows[] = {
    T("seconds", RF_REAL, OPT, agg.first_done_seconds),
    T("bytes", RF_REAL, OPT, agg.first_done_bytes),
    T("bw_bytes", RF_REAL, OPT, agg.first_done_bw_bytes),
    NOVAL("estimated", RF_BOOL, RF_WRITE_ONLY, .put = rf_put_false),
};
static TABLE(first_done_table, first_done_rows);
static const struct rfield aggregate_rows[] = {
    NOVAL("last_done", RF_OBJ, RF_WRITE_ONLY, .sub = &last_done_table),
    NOVAL("wall", RF_OBJ, OPT, .sub = &wall_table),
    NOVAL("first_done", RF_OBJ, OPT, .sub = &first_done_table),
    T("lat_samples", RF_U64, OPT, agg.lat_samples),
};
static TABLE(aggregate_table, aggregate_rows);

/* block_split with sizes listed: the I/Os of each size. */
#define SZ(k, m) ROW(struct size_count, k, RF_U64, REQ, m)
static const struct rfield size_rows[] = {SZ("size", size), SZ("ios", ios),
					  ROW(struct size_count, "cut", RF_U64, OPT, cut)};
static TABLE(size_table, size_rows);

/* read, write: a direction's share of a trial, as fio's read and write sections. */
#define DR(k, ty, m, ...) ROW(struct dir_result, k, ty, REQ, m, __VA_ARGS__)
static const struct rfield dir_rows[] = {
    DR("ios", RF_U64, ios),
    DR("bytes", RF_U64, bytes),
    DR("iops", RF_REAL, iops),
    DR("bw_bytes", RF_REAL, bw_bytes),
    DR("lat_ns", RF_OBJ, lat, .sub = &lat_table),
};
static TABLE(dir_table, dir_rows);

/* fsync_every: the syncs, apart from the I/Os. */
static const struct rfield sync_rows[] = {
    T("ios", RF_U64, REQ, syncs),
    T("lat_ns", RF_OBJ, REQ, sync_lat, .sub = &lat_table),
};
static TABLE(sync_table, sync_rows);

static const struct rfield cpu_rows[] = {
    T("user_s", RF_REAL, REQ, cpu_user_s),
    T("sys_s", RF_REAL, REQ, cpu_sys_s),
};
static TABLE(cpu_table, cpu_rows);

/* huge_buffers: how the workers' buffers got huge pages; huge_bytes measured or null. */
#define HP(k, ty, fl, m, ...) ROW(struct hpages_result, k, ty, fl, m, __VA_ARGS__)
static const struct rfield hpages_rows[] = {
    HP("state", RF_ENUM, REQ, state, .names = hpages_state_names),
    HP("bytes", RF_U64, REQ, bytes),
    HP("huge_bytes", RF_U64, REQ | NULLABLE | RF_NULL_UNLESS, huge_bytes,
       .when = rf_hpages_measured),
};
static TABLE(hpages_table, hpages_rows);

static const struct rfield trial_rows[] = {
    T("index", RF_U32, REQ, index),
    T("kept", RF_BOOL, REQ, kept),
    T("warmup", RF_BOOL, OPT, warmup),
    T("start_ns", RF_U64, REQ | NULLABLE, start_ns),
    T("end_ns", RF_U64, REQ | NULLABLE, end_ns),
    T("seconds", RF_REAL, REQ, seconds),
    T("bytes", RF_U64, REQ, bytes),
    T("ios", RF_U64, REQ, ios),
    T("iops", RF_REAL, REQ, iops),
    T("bw_bytes", RF_REAL, REQ, bw_bytes),
    T("lat_ns", RF_OBJ, REQ, lat, .sub = &lat_table),
    NOVAL("cpu", RF_OBJ, REQ, .sub = &cpu_table),
    T("errors", RF_U64, REQ, errors),
    /* Only trials that ran are written (rf_trial_ran); the reader sets it (rf_trial_read). */
    T("ran", RF_BOOL, RF_WRITE_ONLY, ran),
    T("failed", RF_BOOL, OPT, failed),
    T("dropped", RF_BOOL, OPT, dropped),
    T("load_failed", RF_BOOL, OPT, load_failed),
    T("error", RF_STR, NULLABLE, error),
    /* Only a trial whose record or interval log could not be written whole. */
    T("log_error", RF_STR, OPT, log_error, .when = rf_trial_log_cut),
    T("page_cache", RF_REAL, OPT, cached),
    T("page_cache_after", RF_REAL, OPT, cached_after),
    /* Results written before iotrial reported directions have neither. */
    T("read", RF_OBJ, OPT, dir[0], .sub = &dir_table),
    T("write", RF_OBJ, OPT, dir[1], .sub = &dir_table),
    ARR(struct trial_result, "workers", OPT, workers, nworkers, worker_table,
	.when = rf_trial_has_workers),
    /* A stonewalled job's trials say so: then both keys are there. */
    T("stonewalled", RF_BOOL, RF_MARK, stonewalled, .when = rf_trial_stonewalls,
      .mark_off = offsetof(struct trial_result, stonewall)),
    T("stonewall_bytes", RF_U64, OPT, stonewall_bytes, .when = rf_trial_stonewalls),
    ARR(struct trial_result, "ranks", OPT, ranks, nranks, rank_table, .when = rf_trial_has_ranks),
    /* Only a job with fsync_every or fdatasync_every has the object. */
    NOVAL("sync", RF_OBJ, RF_MARK, .sub = &sync_table, .when = rf_trial_has_sync,
	  .mark_off = offsetof(struct trial_result, sync_on)),
    /* Only a job with submit_latency has them. */
    T("slat_ns", RF_OBJ, RF_MARK, slat, .sub = &lat_table, .when = rf_trial_splits,
      .mark_off = offsetof(struct trial_result, split_on)),
    T("clat_ns", RF_OBJ, OPT, clat, .sub = &lat_table, .when = rf_trial_splits),
    ARR(struct trial_result, "block_sizes", OPT, sizes, nsizes, size_table,

	.when = rf_trial_has_sizes),

    NOVAL("aggregate", RF_OBJ, OPT, .sub = &aggregate_table, .when = rf_trial_has_ranks),
    /* log_histogram: the buckets its percentiles came from (rf_hist.c). */
    NOVAL("lat_hist", RF_CUSTOM, OPT, .when = rf_trial_has_hist, .put = rf_put_hist,
	  .get = rf_get_hist),
    /* Its place in the run's order, from 1; null when an interrupt cut it short. */
    T("seq", RF_U64, OPT | RF_ZERO_NULL, seq),
    /* Only a trial whose workers had I/O buffers; absent from files before it was kept. */
    T("huge_buffers", RF_OBJ, RF_MARK, hpages, .sub = &hpages_table, .when = rf_trial_has_hpages,
      .mark_off = offsetof(struct trial_result, hpages.on)),
};
static TABLE(trial_table, trial_rows, .include = rf_trial_ran, .after = rf_trial_read);

#define S(k, ty, fl, m, ...) ROW(struct instance_result, k, ty, fl, m, __VA_ARGS__)
static const struct rfield required_rows[] = {
    S("confidence", RF_FRACTION, REQ, summary.required.confidence),
    S("error", RF_FRACTION, REQ, summary.required.error),
    S("n", RF_REAL, REQ, summary.required.n),
    S("metric", RF_NAME, NULLABLE, summary.required.metric, .put = rf_put_metric),
};
static TABLE(required_table, required_rows);
/* The latency of every I/O of the kept trials, pooled, at the instance's percentiles. */
#define POOLED(k, fl, m, ...)                                                                      \
	S(k, RF_CUSTOM, fl, m, .put = rf_put_pooled, .get = rf_get_pooled, __VA_ARGS__)
/* summary.read, summary.write: a direction's statistics and the runs its IO/s need. */
#define DIRSUM(d, metric)                                                                          \
	static const struct rfield dir##d##_required_rows[] = {                                    \
	    S("n", RF_REAL, REQ, summary.dir[(d)].required_n),                                     \
	    NOVAL("metric", RF_CONST, RF_WRITE_ONLY, .text = (metric)),                            \
	};                                                                                         \
	static TABLE(dir##d##_required_table, dir##d##_required_rows);                             \
	static const struct rfield dir##d##_sum_rows[] = {                                         \
	    S("iops", RF_OBJ, REQ, summary.dir[(d)].iops, .sub = &stat_table),                     \
	    S("bw_bytes", RF_OBJ, REQ, summary.dir[(d)].bw_bytes, .sub = &stat_table),             \
	    S("lat_mean_ns", RF_OBJ, REQ, summary.dir[(d)].lat_mean_ns, .sub = &stat_table),       \
	    NOVAL("required_runs", RF_OBJ, REQ, .sub = &dir##d##_required_table),                  \
	    POOLED("lat_ns", OPT, summary.pooled[LAT_READ + (d)]),                                 \
	};                                                                                         \
	static TABLE(dir##d##_sum_table, dir##d##_sum_rows)
DIRSUM(0, "read_iops");
DIRSUM(1, "write_iops");

static const struct rfield before_rows[] = {
    S("runs", RF_U32, REQ, summary.before.n),
    S("mean", RF_REAL, REQ, summary.before.mean),
    S("stddev", RF_REAL, REQ, summary.before.stddev),
    S("cov", RF_REAL, REQ, summary.before.cov),
};
static TABLE(before_table, before_rows);
static const struct rfield records_rows[] = {
    S("min_ns", RF_REAL, REQ, summary.rec_min_ns),
    S("max_ns", RF_REAL, REQ, summary.rec_max_ns),
    S("mean_ns", RF_REAL, REQ, summary.rec_mean_ns),
    S("rms_ns", RF_REAL, REQ, summary.rec_rms_ns),
};
static TABLE(records_table, records_rows);
static const struct rfield summary_rows[] = {
    S("runs", RF_U32, REQ, summary.runs),
    S("kept", RF_U32, REQ, summary.kept),
    /* "seconds": STAT, "bw_bytes": STAT, ...: every metric's, by the metric table. */
    S("(metrics)", RF_METRICS, REQ, summary.stat, .sub = &stat_table),
    NOVAL("required_runs", RF_OBJ, REQ, .sub = &required_table),
    /* The percentiles first: the pooled objects' keys follow them. */
    NOVAL("percentiles", RF_CUSTOM, OPT, .put = rf_put_pcts, .get = rf_get_pcts),
    POOLED("lat_ns", OPT, summary.pooled[LAT_ALL]),
    POOLED("slat_ns", RF_MARK, summary.pooled[LAT_SLAT], .when = rf_instance_splits,
	   .mark_off = offsetof(struct instance_result, submit_latency)),
    POOLED("clat_ns", OPT, summary.pooled[LAT_CLAT], .when = rf_instance_splits),
    NOVAL("read", RF_OBJ, OPT, .sub = &dir0_sum_table),
    NOVAL("write", RF_OBJ, OPT, .sub = &dir1_sum_table),
    S("reads_cached", RF_BOOL, OPT, reads_cached),

    S("metric", RF_NAME, NULLABLE, summary.metric),
    NOVAL("before_outliers", RF_OBJ, OPT, .sub = &before_table),
    S("stopped_by", RF_NAME, NULLABLE, summary.stopped_by),
    /* Only an instance that logged its records has the object. */
    NOVAL("records", RF_OBJ, RF_MARK, .sub = &records_table, .when = rf_instance_records,
	  .mark_off = offsetof(struct instance_result, records)),
};
static TABLE(summary_table, summary_rows, .after = rf_summary_read);

#define RP(k, ty, fl, m, ...) ROW(struct replication_info, k, ty, fl, m, __VA_ARGS__)
static const struct rfield replication_rows[] = {
    RP("outliers", RF_ENUM, REQ, outliers, .names = outlier_policy_names),
    RP("trim_low", RF_U32, REQ, trim_low),
    RP("trim_high", RF_U32, REQ, trim_high),
    RP("outlier_k", RF_REAL, REQ | RF_NULL_UNLESS, outlier_k, .when = rf_rep_has_k),
    RP("target", RF_BOOL, REQ, target),
    RP("pilot", RF_U32, REQ | NULLABLE | RF_NULL_UNLESS, pilot, .when = rf_rep_has_target),
    RP("max", RF_U32, REQ | NULLABLE | RF_NULL_UNLESS, max, .when = rf_rep_has_target),
    /* target.estimate, target.round, and the pilot's estimate (null until made): written
     * with a target only, absent from files from before them (read as kept, 0, unknown). */
    RP("estimate", RF_ENUM, OPT, estimate, .names = estimate_names, .when = rf_rep_has_target),
    RP("round", RF_U32, OPT, round, .when = rf_rep_has_target),
    RP("pilot_n", RF_REAL, OPT, pilot_n, .when = rf_rep_has_target),
    RP("confidence", RF_FRACTION, REQ, confidence),
    RP("error", RF_FRACTION, REQ, error),
    RP("metric", RF_NAME, REQ | NULLABLE, metric),
};
static TABLE(replication_table, replication_rows);

/* A change point, and a series it was found in (points: [at_bytes, at_ns, value]). */
#define CP(k, ty, fl, m, ...) ROW(struct change_point, k, ty, fl, m, __VA_ARGS__)
static const struct rfield change_point_rows[] = {
    CP("series", RF_ENUM, REQ, kind, .names = series_kind_names),
    CP("trial", RF_U32, REQ, trial),
    CP("at_bytes", RF_U64, REQ, at_bytes),
    CP("at_ns", RF_U64, REQ, at_ns),
    CP("before", RF_REAL, REQ, before),
    CP("after", RF_REAL, REQ, after),
    NOVAL("unit", RF_CONST, REQ, .text = "bytes/s"),
};
static TABLE(change_point_table, change_point_rows);
#define SE(k, ty, fl, m, ...) ROW(struct series, k, ty, fl, m, __VA_ARGS__)
static const struct rfield series_rows[] = {
    SE("kind", RF_ENUM, REQ, kind, .names = series_kind_names),
    SE("trial", RF_U32, REQ, trial),
    NOVAL("unit", RF_CONST, REQ, .text = "bytes/s"),
    NOVAL("points", RF_CUSTOM, REQ, .put = rf_put_points, .get = rf_get_points),
};
static TABLE(series_table, series_rows);

#define I(k, ty, fl, m, ...) ROW(struct instance_result, k, ty, fl, m, __VA_ARGS__)
static const struct rfield instance_rows[] = {
    I("name", RF_STR, REQ, name),
    I("job", RF_STR, REQ, job),
    NOVAL("params", RF_CUSTOM, REQ, .put = rf_put_params, .get = rf_get_params),
    I("backend", RF_STR, REQ, backend),
    I("workload", RF_STR, REQ, workload),
    I("threads", RF_U32, REQ, threads),
    ARR(struct instance_result, "trials", REQ, trials, ntrials, trial_table),
    NOVAL("summary", RF_OBJ, REQ, .sub = &summary_table),
    /* The matrix keys of params, in the order the job file lists them. */
    NOVAL("matrix", RF_CUSTOM, OPT, .put = rf_put_matrix, .get = rf_get_matrix),
    I("background", RF_BOOL, OPT, background),
    ARR(struct instance_result, "change_points", OPT, cps, ncps, change_point_table),
    ARR(struct instance_result, "series", OPT, series, nseries, series_table),
    I("replication", RF_OBJ, OPT, rep, .sub = &replication_table),
    /* Each trial's histograms, for the summary's pooled percentiles: in a checkpoint, so
     * that --resume pools the trials it keeps, and with log_histogram (rf_hist.c). Read
     * after "trials", whose entries it fills. */
    NOVAL("trial_hists", RF_CUSTOM, OPT, .when = rf_instance_keeps_hists, .put = rf_put_trial_hists,
	  .get = rf_get_trial_hists),
};
static TABLE(instance_table, instance_rows);

#define C(k, ty, fl, m, ...) ROW(struct comparison, k, ty, fl, m, __VA_ARGS__)
static const struct rfield comparison_rows[] = {
    C("a", RF_STR, REQ, a),
    C("b", RF_STR, REQ, b),
    C("metric", RF_STR, REQ, metric),
    C("diff_mean", RF_REAL, REQ, diff_mean),
    C("ci_low", RF_REAL, REQ, ci_low),
    C("ci_high", RF_REAL, REQ, ci_high),
    C("confidence", RF_FRACTION, REQ, confidence),
    C("significant", RF_BOOL, REQ, significant),
    C("ratio", RF_REAL, REQ, ratio),
    C("test", RF_NAME, REQ, test),
    C("a_label", RF_STR, NULLABLE, a_label),
    C("b_label", RF_STR, NULLABLE, b_label),
    C("mean_a", RF_REAL, OPT, mean_a),
    C("mean_b", RF_REAL, OPT, mean_b),
    C("n_a", RF_U32, OPT, na),
    C("n_b", RF_U32, OPT, nb),
    C("df", RF_REAL, OPT, df),
};
static TABLE(comparison_table, comparison_rows);

#define TG(k, ty, fl, m, ...) ROW(struct env_target, k, ty, fl, m, __VA_ARGS__)
static const struct rfield target_rows[] = {
    TG("path", RF_STR, REQ | NULLABLE, path),
    TG("fs_type", RF_STR, REQ | NULLABLE, fs_type),
    TG("device", RF_STR, REQ | NULLABLE, device),
    TG("model", RF_STR, REQ | NULLABLE, model),
    TG("rotational", RF_TRISTATE, REQ, rotational),
    TG("logical_block_size", RF_U32, REQ | RF_ZERO_NULL, logical_block_size),
};
static TABLE(target_table, target_rows);
#define E(k, ty, fl, m, ...) ROW(struct run_env, k, ty, fl, m, __VA_ARGS__)
static const struct rfield env_rows[] = {
    E("hostname", RF_STR, REQ | NULLABLE, hostname),
    E("kernel", RF_STR, REQ | NULLABLE, kernel),
    E("cpu_model", RF_STR, REQ | NULLABLE, cpu_model),
    E("cpus", RF_U32, REQ | RF_ZERO_NULL, cpus),
    E("mem_bytes", RF_U64, REQ | RF_ZERO_NULL, mem_bytes),
    E("clocksource", RF_STR, OPT | NULLABLE, clocksource),
    E("clock", RF_STR, OPT | NULLABLE, clock),
    E("thp", RF_STR, OPT | NULLABLE, thp),
    ARR(struct run_env, "targets", REQ, targets, ntargets, target_table),
};
static TABLE(env_table, env_rows);

/* A resumed run: each time it went on, and what had changed around it. */
#define EC(k, m) ROW(struct env_change, k, RF_STR, REQ | NULLABLE, m)
static const struct rfield env_change_rows[] = {
    EC("key", key),
    EC("before", before),
    EC("after", after),
};
static TABLE(env_change_table, env_change_rows);
#define RS(k, ty, fl, m, ...) ROW(struct resumption, k, ty, fl, m, __VA_ARGS__)
static const struct rfield resumption_rows[] = {
    RS("stopped_at", RF_FIXED, REQ, stopped_at,
       .size = sizeof(((struct resumption *)0)->stopped_at)),
    RS("resumed_at", RF_FIXED, REQ, resumed_at,
       .size = sizeof(((struct resumption *)0)->resumed_at)),
    RS("trials_done", RF_U64, REQ, trials_done),
    ARR(struct resumption, "env_changes", REQ, changes, nchanges, env_change_table),
};
static TABLE(resumption_table, resumption_rows);

#define R(k, ty, fl, m, ...) ROW(struct results, k, ty, fl, m, __VA_ARGS__)
static const struct rfield tool_rows[] = {
    R("name", RF_STR, REQ, tool_name),
    R("version", RF_STR, REQ, tool_version),
};
static TABLE(tool_table, tool_rows);
static const struct rfield job_file_rows[] = {
    R("path", RF_STR, REQ, job_path),
    R("sha256", RF_FIXED, REQ, job_sha256, .size = sizeof(((struct results *)0)->job_sha256)),
};
static TABLE(job_file_table, job_file_rows);
static const struct rfield resources_rows[] = {
    R("max_rss_bytes", RF_U64, REQ | RF_ZERO_NULL, max_rss_bytes),
};
static TABLE(resources_table, resources_rows);
#define TR(k, ty, fl, m, ...) ROW(struct table_row, k, ty, fl, m, __VA_ARGS__)
/* A row shows a job's metric, or (about) what each device's job file says: the reader of
 * `values` checks that it is one of the two (rf_get_facts). */
static const struct rfield row_rows[] = {
    TR("job", RF_STR, OPT, job, .when = rf_row_shows_metric),
    TR("metric", RF_STR, OPT, metric, .when = rf_row_shows_metric),
    TR("about", RF_STR, OPT, about, .when = rf_row_describes),
    TR("label", RF_STR, REQ | NULLABLE, label),
    NOVAL("values", RF_CUSTOM, OPT, .when = rf_row_describes, .put = rf_put_facts,
	  .get = rf_get_facts),
};
static TABLE(row_table, row_rows);
static const struct rfield layout_rows[] = {
    R("columns", RF_STR, REQ, table.columns),
    ARR(struct results, "rows", REQ, table.rows, table.nrows, row_table),
};
static TABLE(layout_table, layout_rows);
static const struct rfield report_rows[] = {
    NOVAL("table", RF_OBJ, REQ, .sub = &layout_table),
};
static TABLE(report_table, report_rows);

static const struct rfield results_rows[] = {
    /* Checked before anything else is read (results_json.c), with messages of its own. */
    NOVAL("schema", RF_CONST, RF_WRITE_ONLY, .text = RF_SCHEMA),
    NOVAL("tool", RF_OBJ, REQ, .sub = &tool_table),
    R("experiment", RF_STR, REQ, experiment),
    R("description", RF_STR, REQ | NULLABLE, description),
    NOVAL("job_file", RF_OBJ, REQ, .sub = &job_file_table),
    NOVAL("overrides", RF_CUSTOM, REQ, .put = rf_put_overrides, .get = rf_get_overrides),
    R("started_at", RF_FIXED, REQ, started_at, .size = sizeof(((struct results *)0)->started_at)),
    R("finished_at", RF_FIXED, REQ, finished_at,
      .size = sizeof(((struct results *)0)->finished_at)),
    R("complete", RF_BOOL, REQ, complete),
    R("seed", RF_SEED, REQ, seed),
    R("units", RF_ENUM, OPT, units, .names = units_names),
    R("env", RF_OBJ, REQ, env, .sub = &env_table),
    ARR(struct results, "jobs", REQ, inst, ninst, instance_table),
    ARR(struct results, "comparisons", REQ, cmp, ncmp, comparison_table),
    R("order", RF_STR, NULLABLE, order),
    NOVAL("resources", RF_OBJ, OPT, .sub = &resources_table),
    /* Only when the job file has a report: table. */
    NOVAL("report", RF_OBJ, OPT, .sub = &report_table, .when = rf_results_has_table),
    R("order_seed", RF_SEED, OPT, order_seed),
    /* How many ranks ran it (1: not distributed); their rows are in each trial. */
    R("ranks", RF_U32, OPT, nranks, .put = rf_put_ranks),
    /* The level of the text summary's intervals, so a report read back says the same. */
    R("confidence", RF_FRACTION, OPT, confidence),
    /* iotrial run --resume: [] for a run that went in one go. */
    ARR(struct results, "resumptions", OPT, resumptions, nresumptions, resumption_table),
};
TABLE(rf_results, results_rows, .after = rf_results_read);

/* The objects an event stream repeats (reporters/ndjson.c): a trial, an instance's summary, a
 * comparison, each as results.json has it. */
const struct rf_table *const rf_trial = &trial_table;
const struct rf_table *const rf_summary = &summary_table;
const struct rf_table *const rf_comparison = &comparison_table;
