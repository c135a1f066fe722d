/* A queue of job files (`iotrial run a.yaml b.yaml ...`): one batch folder holding a result
 * folder per job file, named after the file, and batch.json, the queue's state, rewritten
 * whole (temporary file, then rename) each time a job file begins or ends. */
#ifndef IOTRIAL_BATCH_H
#define IOTRIAL_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/outdir.h"

#define BATCH_FILE "batch.json"

enum batch_state {
	BATCH_PENDING,
	BATCH_RUNNING,
	BATCH_OK,
	BATCH_FAILED,
	BATCH_INTERRUPTED,
	BATCH_SKIPPED
};

struct batch_entry {
	const char *job_file; /* as given on the command line */
	char *name;	      /* its folder's name in the batch folder */
	struct outdir od;     /* its result folder, claimed before the first job file runs */
	enum batch_state state;
	int exit_status; /* -1 until it ended */
	char started_at[32], finished_at[32];
};

struct batch {
	char *dir;	   /* the batch folder */
	int dir_fd;	   /* open and flock'ed for as long as the batch runs; -1: none */
	struct outdir own; /* the folder made without -o (results/batch-<UTC time>) */
	struct batch_entry *e;
	size_t n;
	const char *log; /* --log FILE, or NULL */
	bool keep_going;
	bool ended;
	int exit_status;
	char started_at[32], finished_at[32];
	bool write_failed; /* batch.json could not be written (said once on stderr) */
};

/* The folder name of each of the `n` job files (its base name without .yaml or .yml) into
 * `b`. Two files of one name, or a name that cannot be a folder beside batch.json, are
 * refused: one line on stderr each, -EINVAL. Returns 0, -EINVAL or -ENOMEM. */
int batch_init(struct batch *b, char **files, size_t n);

/* Take the batch folder: `dir` (made with its parents when missing), or a new
 * results/batch-<UTC time> when NULL; lock it against another batch; refuse a batch.json of
 * an earlier batch unless `force`; take each job file's result folder (outdir_take_at, with
 * `force`), and only when every one is taken empty them (outdir_empty). Prints one line on
 * stderr when it fails. Returns 0 or -errno. */
int batch_open(struct batch *b, const char *dir, bool force);

/* Job file `i` begins, or has ended with exit status `status`; then batch.json is written. */
void batch_begin(struct batch *b, size_t i);
void batch_end(struct batch *b, size_t i, int status);

/* The queue has ended with exit status `status`: files not run are marked skipped, and
 * batch.json is written for the last time. */
void batch_finish(struct batch *b, int status);

/* Write batch.json as it stands. Returns 0 or -errno (said on stderr the first time). */
int batch_write(struct batch *b);

/* Let go of every folder and free `b`. Safe after a failed batch_init or batch_open. */
void batch_release(struct batch *b);

#endif
