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

void plan_workload(struct planner *pl, struct instance *in)
{
	plan_distribution(pl, in);
}
