/* The experiment spec: what a job file says, with every value resolved (sizes in bytes,
 * durations in ns, variables expanded, defaults applied). Parsers fill it; the planner
 * reads it. It knows nothing of YAML and nothing of backends (a backend is a name here, and
 * its options are values in job_opts). */
#ifndef IOTRIAL_SPEC_H
#define IOTRIAL_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h" /* struct src_loc */

enum job_workload {
	WL_READ,
	WL_WRITE,
	WL_RANDREAD,
	WL_RANDWRITE,
	WL_COPY,
	WL_COPYTREE,
	WL_COMMAND,
	WL_READWRITE, /* sequential reads and writes, each I/O's direction drawn (`mix`) */
	WL_RANDRW     /* random reads and writes, likewise */
};
enum job_worker_mode { WORKER_THREAD, WORKER_PROCESS };
/* How the ranks of a distributed run share a job's file: each its own (per_rank), or one
 * file with a region per rank, in one piece (shared: segmented) or chunk by chunk (strided). */
enum job_rank_layout { RANK_LAYOUT_PER_RANK, RANK_LAYOUT_SHARED, RANK_LAYOUT_STRIDED };
enum job_sync { SYNC_NONE, SYNC_OSYNC, SYNC_ODSYNC, SYNC_FSYNC_END };
/* Stonewalling a size-bound job (IOR's -D and stoneWallingWearOut): none; each rank stops at
 * its deadline (time); every rank stops once the first has done its size (first_done); as
 * first_done, then every rank tops up to the most any rank did (wear_out). */
enum job_stonewall { STONEWALL_NONE, STONEWALL_TIME, STONEWALL_FIRST_DONE, STONEWALL_WEAR_OUT };
enum spec_units { UNITS_DECIMAL, UNITS_BINARY };
enum spec_order { ORDER_INTERLEAVED, ORDER_SEQUENTIAL, ORDER_RANDOM };

/* Indexes into the job key table (model/jobkeys.c); one per job key. */
enum job_key_id {
	JK_WORKLOAD,
	JK_MIX,
	JK_DEVICE,
	JK_TARGET,
	JK_SOURCE,
	JK_FILE_SIZE,
	JK_OFFSET,
	JK_OFFSET_INCREMENT,
	JK_BLOCK_SIZE,
	JK_BLOCK_SPLIT,
	JK_BUFFER_SIZE,
	JK_RUNTIME,
	JK_IO_LIMIT,
	JK_RANDOM_MAP,
	JK_DISTRIBUTION,
	JK_SYNC,
	JK_FSYNC_EVERY,
	JK_FDATASYNC_EVERY,
	JK_INVALIDATE,
	JK_KEEP_FILES,
	JK_PREALLOCATE,
	JK_ALLOW_OVERWRITE,
	JK_BACKEND,
	JK_IODEPTH,
	JK_DIRECT,
	JK_VERIFY,
	JK_HUGE_BUFFERS,
	JK_THREADS,
	JK_CPUS,
	JK_NICE,
	JK_IOPRIO,
	JK_SCHED,
	JK_FILE_PER_THREAD,
	JK_WORKER_MODE,
	JK_RANKS,
	JK_LAYOUT,
	JK_STONEWALL,
	JK_STONEWALL_CAP,
	JK_WITH,
	JK_BACKGROUND,
	JK_LOG_RECORDS,
	JK_LOG_INTERVAL,
	JK_LOG_HISTOGRAM,
	JK_PERCENTILES,
	JK_SUBMIT_LATENCY,
	JK_RAMP,
	JK_RATE,
	JK_RATE_IOPS,
	JK_THINK_TIME,
	JK_COMMAND,
	JK_TREE_FILES,
	JK_PREPARE,
	JK_CLEANUP,
	JK_NKEYS
};

/* Keys beyond the table: each backend's own options. The backends lend their option tables
 * to the model at start-up (job_keys_extend in model/jobkeys.h), and the options take the ids
 * from JK_NKEYS on, so a matrix, --set, compare and the messages treat them as any key. The
 * spec names no backend option. JK_EXT_MAX bounds how many all backends declare together. */
#define JK_EXT_MAX 32
#define JK_MAX	   (JK_NKEYS + JK_EXT_MAX)

/* The backend options a job sets: the id (JK_NKEYS on) and the value as struct key_value's u
 * holds it. An option left out takes its table's default; key_loc says where one was set.
 * Out of line, so that a plan's instance borrows its parsed job's options until a matrix
 * point sets one (a 100000-point plan stays well under 100 MiB: tests/t/t0023). */
#define JOB_OPTS_MAX 16
struct job_opt {
	uint64_t val;
	uint16_t key;
};
struct job_opts {
	struct job_opt *v; /* n of them; NULL when n is 0 */
	uint16_t n;
	bool own; /* v is this job's to free; else it is borrowed (job_opts_borrow) */
};

enum spec_outliers { OUTLIERS_NONE, OUTLIERS_TRIM, OUTLIERS_IQR, OUTLIERS_MAD };

struct replication_spec {
	/* Ordered so that no field leaves padding: a plan's instance holds one (the bools last). */
	uint32_t runs;
	uint32_t warmup;
	double confidence; /* for confidence intervals and required runs */
	double error;	   /* relative error for required runs */
	enum spec_order order;
	/* A precision target instead of a fixed count (`target` below): run `pilot`, then more
	 * until the required-runs estimate on the kept runs is met, or `max`. */
	uint32_t pilot;
	uint64_t seed; /* random order: the shuffle's seed */
	uint32_t max;
	uint32_t round; /* target.estimate: pilot — the estimate rounded up to a multiple of it */
	enum spec_outliers outliers;
	uint32_t trim_low, trim_high;
	bool seed_set;
	bool target;
	/* target.estimate: pilot — estimate the runs once, from the pilot's runs before the
	 * outlier policy, rounded up to a multiple of `round`, and run that many (the copy
	 * experiment's 186 -> 200). false: re-estimate from the kept runs after each round. */
	bool estimate_pilot;
	bool outlier_k_set; /* given in the job file, not the policy's default */
	double outlier_k;   /* iqr: the fence factor k; mad: the threshold in MADs */
	char *metric;	    /* what outliers and targets look at; NULL: seconds or bw_bytes */
};

/* One typed value of a job key: numbers, bools and enum indexes in u; strings in s. */
struct key_value {
	enum job_key_id key;
	uint64_t u;
	char *s;
};

/* A matrix dimension: the values one key takes, each with where it was written. */
struct matrix_dim {
	enum job_key_id key;
	struct key_value *values;
	struct src_loc *locs;
	size_t n;
};

/* A partial point: some keys with one value each (exclude entries, compare selectors).
 * `job` optionally names a job (compare selectors only). */
struct matrix_point {
	struct key_value *kv;
	size_t n;
	char *job;
	char *text; /* as the user wrote it, for messages: "device=usb" */
	struct src_loc loc;
};

/* What a parsed job alone holds, apart from it: the points of its matrix it leaves out and
 * the jobs it waits for. An instance (one point of the job) holds none: inline, 100000 of
 * them carried 40 bytes each of nothing. */
struct job_rules {
	struct matrix_point *exclude;
	size_t nexclude;
	char **after; /* start only when these jobs have finished */
	size_t nafter;
	struct src_loc after_loc;
};

struct job_spec {
	char *name;
	/* file_size: N%: that part of the target; 0: a size. A double: as a float, 1e-46%
	 * would become 0, a size of 0 bytes. */
	double file_size_pct;
	char *mix;    /* readwrite, randrw: the reads' and writes' shares (model/wlopts.h) */
	char *device; /* a name from `devices:`; {device} in target/source is its path */
	char *target; /* folder (scratch file inside) or file; NULL: the run's scratch folder */
	char *source; /* copy: the file read from; NULL: a scratch file iotrial lays out */
	uint64_t file_size;
	uint64_t offset;	   /* where worker 0's region starts in its file */
	uint64_t offset_increment; /* worker w's starts w times this further */
	uint64_t block_size;
	char *block_split;  /* sizes with weights, or a range (model/wlopts.h); NULL: block_size */
	char *distribution; /* random workloads: how offsets are drawn (model/wlopts.h); NULL:
			       uniform */
	uint64_t buffer_size; /* copy: the chunk; 0 means block_size */
	uint64_t runtime_ns;  /* 0: bounded by file_size */
	uint64_t io_limit;    /* bytes a size-bound trial moves per worker; 0: its region's */
	enum job_sync sync;
	uint32_t fdatasync_every; /* fdatasync(2) after every this many writes; 0: never */

	bool invalidate;
	bool keep_files;
	bool preallocate; /* write workloads: allocate the file once, or write a new one each trial
			   */
	bool allow_overwrite;
	uint32_t fsync_every; /* fsync(2) after every this many writes; 0: never */
	char *backend;
	uint32_t iodepth;
	bool direct;
	bool verify;
	bool huge_buffers; /* I/Os of more than a page: buffers on huge pages where the kernel has
			      them */
	bool random_map;   /* random workloads: each block once per pass (fio's random map) */
	bool file_per_thread;	    /* each worker its own file (name.N), or one shared file */
	uint32_t threads;	    /* workers in one instance */
	int sched;		    /* 0: unchanged; 1: SCHED_FIFO; 2: SCHED_RR */
	enum job_workload workload; /* here, in what would be padding (tests/t/t0023) */
	char *cpus;   /* the CPUs every worker may run on (model/wlopts.h); NULL: any */
	char *nice;   /* the workers' nice value, "-20" to "19"; NULL: unchanged */
	char *ioprio; /* I/O priority class and level; NULL: unchanged */
	enum job_worker_mode worker_mode;
	uint32_t rate_iops; /* I/Os per second per worker; 0: unthrottled */
	char *ranks; /* distributed runs: "all", "N" (ranks 0..N-1) or "A-B"; see plan_ranks */
	enum job_rank_layout layout;  /* distributed runs: the ranks' files */
	enum job_stonewall stonewall; /* stop size-bound ranks early (see enum job_stonewall) */
	uint64_t stonewall_cap_ns;    /* the stonewall's deadline, and a wear_out top-up's limit */
	char *with;		      /* runs alongside this job, starting on one barrier */
	bool background;	  /* load: loops until the jobs it runs with end; reported apart */
	bool log_records;	  /* records/<instance>.csv: one line per I/O */
	bool log_histogram;	  /* results.json: each trial's latency buckets */
	bool submit_latency;	  /* async backends: time submission and completion apart */
	uint32_t tree_files;	  /* copytree: files in a laid-out source tree */
	uint64_t log_interval_ns; /* records/<instance>.intervals.csv: one line per interval */
	char *percentiles; /* the summary's latency percentiles (model/pctlist.h); NULL: default */
	uint64_t ramp_ns;  /* run this long before the measured window, not counted */
	uint64_t rate;	   /* bytes per second per worker; 0: unthrottled */
	uint64_t think_time_ns; /* pause after each I/O completes */
	char *command;		/* workload command: the program run by /bin/sh -c */
	/* hooks run before and after the job's stage (/bin/sh -c); the small fields above sit
	 * in what would be padding, so that the two pointers leave a 100000-instance plan its
	 * size (tests/t/t0023) */
	char *prepare, *cleanup;
	struct job_opts opts; /* its backend options (see struct job_opts) */
	/* Its replication: a parsed job's own (yp_job_defaults makes it), an instance's its job's
	 * (inline, 100000 instances carried 72 bytes each more). */
	struct replication_spec *rep;

	/* The job's own (not copied by spec_job_copy: an instance is one point of it). */
	struct matrix_dim *matrix;
	size_t nmatrix;
	struct job_rules *rules; /* NULL: no exclude, no after (see spec_job_rules) */

	struct src_loc loc; /* the job's own mapping */
	/* JK_MAX entries (backend options included): where each key was set; file NULL when
	 * defaulted. A parsed job owns its array; a plan's instance borrows its plan's (see
	 * struct instance). */
	struct src_loc *key_loc;
};

/* What a job file says about a device (`about: {mfg: Seagate, rpm: 7200}`): free text that
 * a report table's descriptive rows show. */
struct device_fact {
	char *key;
	char *value;
};

struct device_spec {
	char *name;
	char *path;
	struct device_fact *about;
	size_t nabout;
	struct src_loc loc;
};

/* compare: is a different from b, on which metric, at what confidence? */
struct compare_spec {
	struct matrix_point a, b;
	char *metric; /* seconds, bw_bytes, iops, lat_mean_ns */
	double confidence;
	bool paired; /* trial i of a beside trial i of b: a paired t-test instead of Welch */
	struct src_loc loc;
};

/* report: {table: ...}: one table laid out like a paper's, a job's metric per row, the
 * values of one parameter (a device, say) as columns. */
struct table_row {
	char *job;
	char *metric; /* seconds, bw_bytes, iops, lat_mean_ns */
	char *label;
	/* A descriptive row instead (job and metric NULL): the devices' `about` key of this
	 * name, copied when the file is read so that a saved run prints it again: facts[i] is
	 * what device names[i] says, for the devices that say it. */
	char *about;
	struct device_fact *facts; /* key: the device's name; value: its fact */
	size_t nfacts;
};

struct table_spec {
	char *columns; /* a job key: one column per value it takes */
	struct table_row *rows;
	size_t nrows;
};

struct spec_override {
	char *key;
	char *value;
};

/* The longest experiment name: it names the result folder, results/NAME-<UTC time>-N/, which
 * must stay under the file systems' 255 bytes ("-20261204T221507Z-10000" is 23). */
#define SPEC_EXPERIMENT_MAX 200

struct exp_spec {
	char *path;	 /* the job file as given */
	char sha256[65]; /* of the job file's bytes, hex */
	char *experiment;
	char *description;
	enum spec_units units;
	uint64_t seed;
	bool seed_set; /* false: the run picks one and records it */
	struct replication_spec rep;
	struct src_loc rep_loc;
	struct device_spec *devices;
	size_t ndevices;
	struct job_spec *jobs;
	size_t njobs;
	struct compare_spec *compares;
	size_t ncompares;
	struct table_spec table; /* columns NULL: none */
	bool stop_on_error;	 /* on_error: stop */
	char *prepare, *cleanup; /* hooks run before the first trial and after the last */
	struct spec_override *overrides;
	size_t noverrides;
	char *scratch; /* the value ${scratch} expanded to */
};

void spec_point_release(struct matrix_point *p);
void spec_table_release(struct table_spec *t);
/* Deep-copy a table (columns set) into *dst. Returns 0, or -ENOMEM with *dst released. */
int spec_table_copy(struct table_spec *dst, const struct table_spec *src);
/* Free n facts and their strings, and the array. */
void spec_facts_release(struct device_fact *f, size_t n);

bool spec_workload_writes(enum job_workload w);
bool spec_workload_random(enum job_workload w);
/* readwrite and randrw: each I/O reads or writes. */
bool spec_workload_mixed(enum job_workload w);

/* The bytes of its file a job's workers span: file_size past offset, plus the
 * offset_increment of each worker after the first. */
uint64_t spec_job_extent(const struct job_spec *j);
/* Do the workers cut one shared file into slices, one a worker? Only a sequential workload
 * without offset or offset_increment: random workers each cover the whole file, and an
 * offset places each worker's own file_size bytes. */
bool spec_job_sliced(const struct job_spec *j);

#endif
