/* The workload's structured keys (model/wlopts.h) parsed once per instance for its workers,
 * and the rules that tie them to the rest of the job. The parser has checked each value
 * where it was written; a matrix value or --set comes through the same check. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "engine/dist/dist.h"
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

/* file_size: N%: that part of the existing file or block device the target names, in whole
 * blocks (fio's size=N%). */
static void plan_file_percent(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	const struct src_loc *at = plan_where(in, JK_FILE_SIZE);
	struct stat st;
	uint64_t size;

	if (!j->file_size_pct)
		return;
	j->file_size = in->chunk; /* until known: no second error from the checks on it */

	if (!j->target || stat(j->target, &st) < 0 ||
	    !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) {
		plan_fail(
		    pl, PLAN_ESPEC, at,
		    "key 'file_size': %g%% is a part of an existing file or block device, and target '%s' is not one",
		    j->file_size_pct, j->target ? j->target : "(the scratch folder)");
		return;
	}
	if (plan_existing_size(j->target, &st, &size) < 0) {
		plan_changed(pl, plan_where(in, JK_TARGET), "target", j->target);
		return;
	}
	if ((double)size * j->file_size_pct / 100 >= (double)in->chunk)
		j->file_size =
		    (uint64_t)((double)size * j->file_size_pct / 100) / in->chunk * in->chunk;
	else
		plan_fail(pl, PLAN_ESPEC, at,
			  "key 'file_size': %g%% of '%s' (%llu bytes) is less than one block",
			  j->file_size_pct, j->target, (unsigned long long)size);
}

/* offset, offset_increment: regions of one file, for the workloads that have regions. */
static void plan_placement(struct planner *pl, struct instance *in)
{
	const struct job_spec *j = &in->job;
	enum job_key_id k = j->offset ? JK_OFFSET : JK_OFFSET_INCREMENT;

	if (!j->offset && !j->offset_increment)
		return;
	if (j->workload == WL_COPY || j->workload == WL_COPYTREE || j->workload == WL_COMMAND)
		plan_fail(pl, PLAN_ESPEC, plan_where(in, k),
			  "key '%s': a %s has no region to place", job_keys[k].name,
			  spec_workload_name(j->workload));
	else if (j->layout != RANK_LAYOUT_PER_RANK)
		plan_fail(pl, PLAN_ESPEC, plan_where(in, k),
			  "key '%s': layout: %s places the ranks' regions itself", job_keys[k].name,
			  job_key_enum_name(&job_keys[JK_LAYOUT], (int)j->layout));
	else if (j->offset_increment && j->threads > 1 && j->file_per_thread)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_OFFSET_INCREMENT),
		    "key 'offset_increment': places the workers of one shared file; set file_per_thread: false");
	else if (j->verify && (j->offset | j->offset_increment) % 512)
		plan_fail(pl, PLAN_ESPEC, plan_where(in, k),
			  "key '%s': with verify, offsets must be multiples of 512 bytes",
			  job_keys[k].name);
}

/* readwrite, randrw: the mix of directions; `mix` on another workload is an error. */
static void plan_mix(struct planner *pl, struct instance *in)
{
	const struct job_spec *j = &in->job;
	const struct src_loc *at = plan_where(in, JK_WORKLOAD);
	uint32_t read_pct = 50;
	char err[256];
	struct wl_opts *o;

	if (!spec_workload_mixed(j->workload)) {
		if (j->mix)
			plan_fail(
			    pl, PLAN_ESPEC, plan_where(in, JK_MIX),
			    "key 'mix': only readwrite and randrw mix reads and writes, not %s",
			    spec_workload_name(j->workload));
		return;
	}
	if (j->verify)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_VERIFY),
		    "key 'verify': a %s reads blocks it may not have written; verify a write job, then a read job",
		    spec_workload_name(j->workload));
	if (j->stonewall != STONEWALL_NONE)
		plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_STONEWALL),
			  "key 'stonewall': a %s does not stonewall",
			  spec_workload_name(j->workload));
	if (in->rank_n > 1 || dist_size() > 1)
		plan_fail(
		    pl, PLAN_ESPEC, at,
		    "key 'workload': %s reports reads and writes apart, which distributed runs do not yet",
		    spec_workload_name(j->workload));
	if (j->mix && wl_mix_parse(j->mix, &read_pct, err, sizeof(err)) < 0)
		return;
	if (!(o = opts(pl, in)))
		return;
	o->mixed = true;
	o->read_pct = read_pct;
}

void plan_workload(struct planner *pl, struct instance *in)
{
	plan_mix(pl, in);

	plan_split(pl, in); /* first: the chunk becomes the mix's largest size */
	plan_file_percent(pl, in);
	plan_placement(pl, in);
	plan_sync_every(pl, in);
	plan_distribution(pl, in);
	plan_sched(pl, in);
}
