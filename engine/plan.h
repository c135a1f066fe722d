/* The planner: spec → job instances and the ordered list of trials, with every target and
 * backend checked before any I/O. Placeholders like {device} are resolved here. */
#ifndef IOTRIAL_PLAN_H
#define IOTRIAL_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/backends/backend.h"
#include "engine/diag.h"
#include "engine/spec.h"

enum plan_layout {
	LAYOUT_NONE,  /* use it as it is */
	LAYOUT_FILL,  /* write file_size bytes, so reads find data on the device */
	LAYOUT_ALLOC, /* allocate file_size bytes (fallocate), so writes do not extend it */
};

/* One file an instance works on. */
struct plan_file {
	char *path;
	bool create;  /* iotrial creates it (O_EXCL) and removes it at the end unless kept */
	enum plan_layout layout; /* what to do before its first trial, outside timing */
	bool laid_out; /* set by the run once done */
};

struct instance {
	char *name;                 /* job, or job[key=value,...] */
	struct job_spec job;        /* resolved copy: target and source expanded */
	size_t job_index;           /* into spec->jobs */
	const struct be_ops *be;
	struct plan_file data;      /* the file read or written (copy: the destination) */
	struct plan_file src;       /* copy only: the source */
	uint32_t runs, warmup;
	uint64_t chunk;             /* bytes per I/O: block_size, or buffer_size for copy */
};

struct plan_trial {
	size_t inst;
	uint32_t index; /* 0.. warmup+runs-1; index < warmup is a warm-up */
	bool warmup;
};

struct plan {
	const struct exp_spec *spec;
	struct instance *inst;
	size_t ninst;
	struct plan_trial *order;
	size_t ntrials;
	uint64_t seed;
	char *scratch;        /* the run's scratch folder (created by the run when used) */
	bool scratch_used;
};

/* Errors from plan_build: spec errors (exit 2) vs what this machine refuses (exit 1). */
#define PLAN_ESPEC 2
#define PLAN_EENV 1

/* Build the plan for `s`. `scratch` is the path ${scratch} expanded to; `seed` is used when
 * the spec has none. Returns 0, or PLAN_ESPEC / PLAN_EENV with every problem in `d`.
 * Nothing is created on disk. */
int plan_build(const struct exp_spec *s, const char *scratch, uint64_t seed, struct plan *p,
	       struct diag *d);

void plan_release(struct plan *p);

#endif
