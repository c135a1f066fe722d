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

enum plan_layout {
	LAYOUT_NONE,  /* use it as it is */
	LAYOUT_FILL,  /* write file_size bytes, so reads find data on the device */
	LAYOUT_ALLOC, /* allocate file_size bytes (fallocate), so writes do not extend it */
	LAYOUT_TREE,  /* a folder of tree_files files, file_size bytes in all (copytree) */
};

/* One file an instance works on. */
struct plan_file {
	char *path;
	/* iotrial creates it (O_EXCL) and removes it at the end unless kept; the run's ledger
	 * (engine/run/ledger.h) records what it did create */
	bool create;
	enum plan_layout layout; /* what to do before its first trial, outside timing */
	uint64_t size; /* bytes to lay out: the largest file_size of the instances using it */
	struct plan_file *owner; /* another instance's file at the same path, which does the work */
};

/* The file that lays out and removes what `f` names: its owner, or itself. */
static inline struct plan_file *plan_file_root(struct plan_file *f)
{
	return f->owner ? f->owner : f;
}

struct instance {
	char *name;	     /* job, or job[key=value,...] */
	struct job_spec job; /* resolved copy: target and source expanded */
	size_t job_index;    /* into spec->jobs */
	const struct be_ops *be;
	struct plan_file data;	 /* the file read or written (copy: the destination) */
	struct plan_file src;	 /* copy only: the source */
	struct key_value *point; /* the matrix point this instance is (empty: no matrix) */
	size_t npoint;
	uint32_t runs, warmup;	  /* planned so far; a precision target adds rounds */
	uint32_t max_runs;	  /* runs, or the target's max */
	uint32_t next_index;	  /* the index the next trial appended gets */
	uint64_t chunk;		  /* bytes per I/O: block_size, or buffer_size for copy */
	uint32_t rank_lo, rank_n; /* the ranks that run it: rank_lo .. rank_lo + rank_n - 1 */
	bool target_folder;	  /* the job file means its target as a folder (see plan_files) */
};

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
};

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

/* The points of job `j`'s matrix, excluded ones left out (matrix.c): *points[i] holds one
 * value per dimension, *locs[i * nmatrix + d] where each was written. A job without a
 * matrix has one empty point. Returns 0, -E2BIG past MATRIX_MAX_POINTS, or -ENOMEM. */
int matrix_points(const struct job_spec *j, struct matrix_point **points, struct src_loc **locs,
		  size_t *n);
void matrix_points_free(struct matrix_point *points, struct src_loc *locs, size_t n);

#endif
