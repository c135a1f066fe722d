/* The workload's structured keys (model/wlopts.h) parsed once per instance for its workers,
 * and the rules that tie them to the rest of the job. The parser has checked each value
 * where it was written; a matrix value or --set comes through the same check. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/plan/plan.h"
#include "engine/plan/plan_internal.h"
#include "model/jobkeys.h"

static struct wl_opts *opts(struct planner *pl, struct instance *in)
{
	if (!in->wl && !(in->wl = calloc(1, sizeof(*in->wl))))
		plan_oom(pl);
	return in->wl;
}

static void plan_distribution(struct planner *pl, struct instance *in)
{
	const struct job_spec *j = &in->job;
	struct wl_dist d;
	char err[256];
	struct wl_opts *o;

	if (!j->distribution || wl_dist_parse(j->distribution, &d, err, sizeof(err)) < 0 ||
	    d.kind == WL_DIST_UNIFORM)
		return;
	if (!spec_workload_random(j->workload)) {
		plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_DISTRIBUTION),
			  "key 'distribution': %s draws offsets for random workloads, not %s",
			  j->distribution, spec_workload_name(j->workload));
		return;
	}
	if (!(o = opts(pl, in)))
		return;
	o->skewed = true;
	o->dist = d;
}

/* block_split: the sizes each I/O draws from; block_size (and the chunk, the buffers' size)
 * becomes the largest, so the checks on block_size hold for every size. */
static void plan_split(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	const struct src_loc *at = plan_where(in, JK_BLOCK_SPLIT);
	struct wl_sizes s;
	char err[256];
	struct wl_opts *o;

	if (!j->block_split || wl_sizes_parse(j->block_split, &s, err, sizeof(err)) < 0)
		return;
	if (j->workload == WL_COPY || j->workload == WL_COPYTREE || j->workload == WL_COMMAND) {
		plan_fail(pl, PLAN_ESPEC, at,
			  "key 'block_split': a %s moves buffer_size bytes at a time, not a mix",
			  spec_workload_name(j->workload));
		return;
	}
	if (j->layout == RANK_LAYOUT_STRIDED) {
		plan_fail(pl, PLAN_ESPEC, at,
			  "key 'block_split': layout: strided interleaves blocks of one size");
		return;
	}
	if (j->verify && (s.range ? s.min % 512 : wl_sizes_misaligned(&s, 512))) {
		plan_fail(
		    pl, PLAN_ESPEC, at,
		    "key 'block_split': with verify, every size must be a multiple of 512 bytes");
		return;
	}
	if (!(o = opts(pl, in)))
		return;
	o->split = true;
	o->sizes = s;
	j->block_size = s.max;
	in->chunk = s.max;
}

/* fsync_every, fdatasync_every: one of them, on a workload that writes through the loop. */
static void plan_sync_every(struct planner *pl, struct instance *in)
{
	const struct job_spec *j = &in->job;
	enum job_key_id k = j->fsync_every ? JK_FSYNC_EVERY : JK_FDATASYNC_EVERY;

	if (!j->fsync_every && !j->fdatasync_every)
		return;
	if (j->fsync_every && j->fdatasync_every)
		plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_FDATASYNC_EVERY),
			  "key 'fdatasync_every': set fsync_every or fdatasync_every, not both");
	else if (!spec_workload_writes(j->workload) || j->workload == WL_COPY)
		plan_fail(pl, PLAN_ESPEC, plan_where(in, k),
			  "key '%s': a %s issues no writes to sync; only write and randwrite do",
			  job_keys[k].name, spec_workload_name(j->workload));
}

void plan_workload(struct planner *pl, struct instance *in)
{
	plan_sync_every(pl, in);

	plan_split(pl, in);
	plan_distribution(pl, in);
}
