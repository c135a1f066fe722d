/* The experiment spec: what a job file says, with every value resolved (sizes in bytes,
 * durations in ns, variables expanded, defaults applied). Parsers fill it; the planner
 * reads it. It knows nothing of YAML and nothing of backends (a backend is a name here). */
#ifndef IOTRIAL_SPEC_H
#define IOTRIAL_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum job_workload { WL_READ, WL_WRITE, WL_RANDREAD, WL_RANDWRITE, WL_COPY };
enum job_sync { SYNC_NONE, SYNC_OSYNC, SYNC_ODSYNC, SYNC_FSYNC_END };
enum spec_units { UNITS_DECIMAL, UNITS_BINARY };
enum spec_order { ORDER_INTERLEAVED, ORDER_SEQUENTIAL };

/* Where a value came from, for messages: a job file position or a --set option. */
struct src_loc {
	const char *file; /* the job file path, or "--set" */
	unsigned line;    /* 1-based; 0 when not from the file */
	unsigned col;
};

/* Indexes into the job key table (engine/jobkeys.c); one per job key. */
enum job_key_id {
	JK_WORKLOAD,
	JK_DEVICE,
	JK_TARGET,
	JK_SOURCE,
	JK_FILE_SIZE,
	JK_BLOCK_SIZE,
	JK_BUFFER_SIZE,
	JK_RUNTIME,
	JK_SYNC,
	JK_INVALIDATE,
	JK_KEEP_FILES,
	JK_ALLOW_OVERWRITE,
	JK_BACKEND,
	JK_IODEPTH,
	JK_DIRECT,
	JK_VERIFY,
	JK_NKEYS
};

struct job_spec {
	char *name;
	enum job_workload workload;
	char *device;      /* a name from `devices:`; {device} in target/source is its path */
	char *target;      /* folder (scratch file inside) or file; NULL: the run's scratch folder */
	char *source;      /* copy: the file read from; NULL: a scratch file iotrial lays out */
	uint64_t file_size;
	uint64_t block_size;
	uint64_t buffer_size; /* copy: the chunk; 0 means block_size */
	uint64_t runtime_ns;  /* 0: bounded by file_size */
	enum job_sync sync;
	bool invalidate;
	bool keep_files;
	bool allow_overwrite;
	char *backend;
	uint32_t iodepth;
	bool direct;
	bool verify;

	struct src_loc loc;                /* the job's own mapping */
	struct src_loc key_loc[JK_NKEYS]; /* where each key was set; line 0 when defaulted */
};

struct replication_spec {
	uint32_t runs;
	uint32_t warmup;
	double confidence; /* for confidence intervals and required runs */
	double error;      /* relative error for required runs */
	enum spec_order order;
};

struct device_spec {
	char *name;
	char *path;
	struct src_loc loc;
};

struct spec_override {
	char *key;
	char *value;
};

struct exp_spec {
	char *path;       /* the job file as given */
	char sha256[65];  /* of the job file's bytes, hex */
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
	struct spec_override *overrides;
	size_t noverrides;
	char *scratch; /* the value ${scratch} expanded to */
};

/* Free the strings a job owns and zero it. */
void spec_job_release(struct job_spec *j);

/* Deep-copy a job (its strings are duplicated). Returns 0 or -ENOMEM. */
int spec_job_copy(struct job_spec *dst, const struct job_spec *src);

/* Free everything the spec owns and zero it. */
void spec_release(struct exp_spec *s);

const char *spec_workload_name(enum job_workload w);
const char *spec_sync_name(enum job_sync s);
bool spec_workload_writes(enum job_workload w);
bool spec_workload_random(enum job_workload w);

#endif
