/* The planner: spec → job instances and the ordered list of trials, with every target and
 * backend checked before any I/O. Placeholders like {device} are resolved here. */
#ifndef IOTRIAL_PLAN_H
#define IOTRIAL_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/io/backends/backend.h"
#include "lib/diag.h"
#include "model/spec.h"
#include "model/wlopts.h"

enum plan_layout {
	LAYOUT_NONE,  /* use it as it is */
	LAYOUT_FILL,  /* write file_size bytes, so reads find data on the device */
	LAYOUT_ALLOC, /* allocate file_size bytes (fallocate), so writes do not extend it */
	LAYOUT_TREE,  /* a folder of tree_files files, file_size bytes in all (copytree) */
};

/* What an existing file was when the plan checked it: a target written (exists, not
 * mounted, allow_overwrite) or read, a copy's source, a copytree's source folder. The run
 * pins it (engine/run/ledger.h), so an open finding anything else at the path (a swap after
 * the checks) is refused. */
struct plan_id {
	dev_t dev, rdev; /* rdev: a block device's, 0 for a file */
	ino_t ino;
	uint64_t allocated; /* a file's bytes on disk then (st_blocks): a write beyond grows it */
	uint64_t size;	    /* a file's size then: what it holds past a write may be all there is */
};

/* A folder named in the job file that will receive a file, as the plan checked it (exists,
 * writable, room): the run holds that folder (engine/run/ledger.h), or none. */
struct plan_dir {
	char *path; /* as the plan's files name it, without a trailing '/' */
	dev_t dev;
	ino_t ino;
};

/* One file an instance works on. */
struct plan_file {
	/* The job's target or source, the scratch folder or a literal, all living as long as
	 * the plan (100000 points naming one file keep one string); or, when `own`, a scratch
	 * file's name made for this file alone. */
	const char *path;
	/* iotrial creates it (O_EXCL) and removes it at the end unless kept; the run's ledger
	 * (engine/run/ledger.h) records what it did create */
	bool create;
	bool own;		 /* path is this file's to free */
	enum plan_layout layout; /* what to do before its first trial, outside timing */
	uint64_t size; /* bytes to lay out: the largest file_size of the instances using it */
	struct plan_file *owner; /* another instance's file at the same path, which does the work */
};

/* The file that lays out and removes what `f` names: its owner, or itself. */
static inline struct plan_file *plan_file_root(struct plan_file *f)
{
	return f->owner ? f->owner : f;
}

/* One point of one job. Its `job` holds the point's resolved values, but shares what does
 * not change from point to point with the parsed job (a 100000-point matrix is planned in
 * well under 100 MiB): strings are the spec's, but for a target or source that {device}
 * expanded (own_*, or borrowed from an earlier instance of the job), and key_loc is the
 * plan's copy of the job's, where a matrix key counts as set. Where this point's matrix
 * values were written, and the values themselves, come from instance_key_loc and
 * instance_point. */
struct instance {
	char *name;		   /* job, or job[key=value,...] */
	struct job_spec job;	   /* resolved: matrix point applied, target and source expanded */
	const struct job_spec *of; /* the parsed job, spec->jobs[job_index] */
	size_t job_index;
	bool own_target, own_source; /* job.target / job.source expanded here: ours to free */
	bool target_folder; /* the job file means its target as a folder (see plan_files) */
	/* The existing file the plan checked (see plan_seen): 1 + its index in plan.ids; 0
	 * when there is none. Apart from `data`, where it would cost 100000-point plans
	 * megabytes. */
	uint32_t seen_id;
	const struct be_ops *be;
	struct plan_file data;	  /* the file read or written (copy: the destination) */
	struct plan_file src;	  /* copy only: the source */
	uint32_t point_no;	  /* the matrix point: its number in the job's cross product */
	uint32_t npoint;	  /* matrix keys: the job's nmatrix */
	uint32_t runs, warmup;	  /* planned so far; a precision target adds rounds */
	uint32_t max_runs;	  /* runs, or the target's max */
	uint32_t next_index;	  /* the index the next trial appended gets */
	uint64_t chunk;		  /* bytes per I/O: block_size, or buffer_size for copy */
	uint32_t rank_lo, rank_n; /* the ranks that run it: rank_lo .. rank_lo + rank_n - 1 */
	struct wl_opts *wl;	  /* distribution, size and direction mixes; NULL: none */
};

/* Matrix key `d` (0 .. npoint - 1) of instance `in`: its value, and where that value was
 * written when `loc` is not NULL. Both belong to the spec. */
const struct key_value *instance_point(const struct instance *in, size_t d,
				       const struct src_loc **loc);

/* Where key `k` of instance `in` was set: its matrix value's place for a matrix key, else
 * the job's; a location with file NULL when the key was defaulted. */
const struct src_loc *instance_key_loc(const struct instance *in, enum job_key_id k);

/* Does rank `rank` run instance `in`? */
static inline bool plan_on_rank(const struct instance *in, int rank)
{
	return rank >= 0 && (uint32_t)rank >= in->rank_lo &&
	       (uint32_t)rank - in->rank_lo < in->rank_n;
}

/* The ranks a `ranks:` value names, for a run of `size` ranks: "all", "N" (0..N-1) or
 * "A-B". Returns 0, or -EINVAL / -ERANGE with the reason in `err`. */
int plan_ranks(const char *text, uint32_t size, uint32_t *lo, uint32_t *n, char *err,
	       size_t errlen);

/* Instances that start together on one barrier, trial by trial: the k-th instance of every
 * measured job of a stage, plus the stage's background load. */
struct plan_unit {
	size_t *inst; /* measured instances first, then background ones */
	size_t n;
	size_t nmeasured;
	size_t stage;	       /* stages run one after another */
	uint32_t runs, warmup; /* planned so far; a precision target adds rounds */
	uint32_t max_runs;
	uint32_t next_index;
};

struct plan_trial {
	size_t unit;
	uint32_t index; /* 0.. warmup+runs-1; index < warmup is a warm-up */
	bool warmup;
};

/* A comparison resolved to two instances. */
struct plan_compare {
	const struct compare_spec *c;
	size_t a, b;
};

struct plan {
	const struct exp_spec *spec;
	struct instance *inst;
	size_t ninst;
	struct plan_unit *units;
	size_t nunits;
	/* Every unit's instances, one unit's after another's: units[u].inst points in. One
	 * array, where one each cost a 100000-point plan 3.2 MB. */
	size_t *unit_inst;
	size_t nstages;
	struct plan_trial *order;
	size_t ntrials;
	uint64_t seed;
	uint64_t order_seed; /* random order's shuffle, as recorded */
	uint64_t order_rng;  /* the shuffle's generator state */
	struct plan_compare *cmp;
	size_t ncmp;
	char *scratch; /* the run's scratch folder (created by the run when used) */
	bool scratch_used;
	struct src_loc *job_locs; /* per spec job, JK_MAX: the key_loc its instances borrow */
	struct plan_id *ids;	  /* the existing files the plan checked (instance.seen_id) */
	size_t nids;
	struct plan_dir *dirs; /* the folders the plan checked, each once */
	size_t ndirs;
};

/* The folder `dir` as the plan checked it (trailing slashes aside), or NULL. */
const struct plan_dir *plan_dir_find(const struct plan *p, const char *dir);

/* What the plan checked of `f` (`in`'s data or src) when it is an existing file, or NULL.
 * An instance has one at most: a copy's or a copytree's destination is always new, so its
 * seen_id is its source's; any other instance's is its target's. */
static inline const struct plan_id *plan_seen(const struct plan *p, const struct instance *in,
					      const struct plan_file *f)
{
	bool copies = in->job.workload == WL_COPY || in->job.workload == WL_COPYTREE;

	if (!in->seen_id || (f == &in->src) != copies)
		return NULL;
	return &p->ids[in->seen_id - 1];
}

/* Errors from plan_build: spec errors (exit 2) vs what this machine refuses (exit 1). */
#define PLAN_ESPEC 2
#define PLAN_EENV  1

/* Build the plan for `s`. `scratch` is the path ${scratch} expanded to; `seed` is used when
 * the spec has none. Returns 0, or PLAN_ESPEC / PLAN_EENV with every problem in `d`.
 * Nothing is created on disk. */
int plan_build(const struct exp_spec *s, const char *scratch, uint64_t seed, struct plan *p,
	       struct diag *d);

void plan_release(struct plan *p);

/* Group instances into stages and units (graph.c). Returns 0, or PLAN_ESPEC with the
 * reasons (unknown job, cycle, mismatched replication) in `d`. */
int plan_graph(struct plan *p, struct diag *d);

/* Put the planned trials in order (order.c). Returns 0 or -ENOMEM. */
int plan_order(struct plan *p);

/* Insert, at position `at` of the order, one round of `more[u]` measured trials for each
 * unit u of stage `stage` (a precision target's extra runs), in the plan's order. Returns
 * the number added, or -ENOMEM. */
ssize_t plan_add_round(struct plan *p, const uint32_t *more, size_t stage, size_t at);

/* Match compare: entries to instances (plan_compare.c); errors into `d`, *status set. */
void plan_compares(struct plan *p, struct diag *d, int *status);

#define MATRIX_MAX_POINTS 100000
/* Job instances in a whole plan: every job's matrix points (before exclude) added up. */
#define PLAN_MAX_INSTANCES 100000

/* Job `j`'s matrix points, excluded ones included (matrix.c): the cross product's size (1
 * without a matrix), -EINVAL when a key has no values, -E2BIG past MATRIX_MAX_POINTS. */
long matrix_size(const struct job_spec *j);

/* Point number `no` of job `j`'s cross product, the first key varying slowest: idx[d] is
 * the index of its value in dimension d. */
void matrix_point_at(const struct job_spec *j, size_t no, uint32_t *idx);

/* Is point `idx` left out by one of the job's exclude entries? */
bool matrix_excluded(const struct job_spec *j, const uint32_t *idx);

#endif
