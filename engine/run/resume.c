/* Going on with an interrupted run (see resume.h): the checkpoint's trials matched to the
 * plan's order and moved into the new results, the precision targets' rounds replayed as the
 * first session added them, and a record of the resumption with what changed around it. */
#include "engine/run/resume.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/run/run_internal.h"
#include "engine/stats/hist.h"
#include "engine/run/trial.h"

/* One more change into `rs`, its values copied (NULL stays NULL). 0 or -ENOMEM. */
static int add_change(struct resumption *rs, const char *key, const char *before, const char *after)
{
	struct env_change *c = realloc(rs->changes, (rs->nchanges + 1) * sizeof(*c));

	if (!c)
		return -ENOMEM;
	rs->changes = c;
	c = &c[rs->nchanges++];
	c->key = strdup(key);
	c->before = before ? strdup(before) : NULL;
	c->after = after ? strdup(after) : NULL;
	return c->key && (!before || c->before) && (!after || c->after) ? 0 : -ENOMEM;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* A string field `key`, when it changed. */
static int diff_str(struct resumption *rs, const char *key, const char *a, const char *b)
{
	return same_str(a, b) ? 0 : add_change(rs, key, a, b);
}

/* A number field `key` (0 or `unknown`: unknown, null), when it changed. */
static int diff_num(struct resumption *rs, const char *key, int64_t a, int64_t b, int64_t unknown)
{
	char x[24], y[24];

	if (a == b)
		return 0;
	snprintf(x, sizeof(x), "%" PRId64, a);
	snprintf(y, sizeof(y), "%" PRId64, b);
	return add_change(rs, key, a == unknown ? NULL : x, b == unknown ? NULL : y);
}

/* Target i, `a` (the run's) against `b` (now): the same plan lists its targets in the same
 * order, though a path under ${scratch} differs from session to session. Either may be
 * missing. */
static int diff_target(struct resumption *rs, size_t i, const struct env_target *a,
		       const struct env_target *b)
{
	char key[64];
	int ret = 0;

	if (!a || !b) {
		snprintf(key, sizeof(key), "targets[%zu].path", i);
		return add_change(rs, key, a ? a->path : NULL, b ? b->path : NULL);
	}
#define FIELD(f) (snprintf(key, sizeof(key), "targets[%zu].%s", i, #f), key)
	ret = diff_str(rs, FIELD(path), a->path, b->path);
	if (ret == 0)
		ret = diff_str(rs, FIELD(fs_type), a->fs_type, b->fs_type);
	if (ret == 0)
		ret = diff_str(rs, FIELD(device), a->device, b->device);
	if (ret == 0)
		ret = diff_str(rs, FIELD(model), a->model, b->model);
	if (ret == 0)
		ret = diff_num(rs, FIELD(rotational), a->rotational, b->rotational, -1);
	if (ret == 0)
		ret = diff_num(rs, FIELD(logical_block_size), a->logical_block_size,
			       b->logical_block_size, 0);
#undef FIELD
	return ret;
}

/* What differs between the run's environment `a` and the one now, `b`. 0 or -ENOMEM. */
static int diff_env(struct resumption *rs, const struct run_env *a, const struct run_env *b)
{
	int ret = diff_str(rs, "hostname", a->hostname, b->hostname);
	size_t n = a->ntargets > b->ntargets ? a->ntargets : b->ntargets;

	if (ret == 0)
		ret = diff_str(rs, "kernel", a->kernel, b->kernel);
	if (ret == 0)
		ret = diff_str(rs, "cpu_model", a->cpu_model, b->cpu_model);
	if (ret == 0)
		ret = diff_num(rs, "cpus", a->cpus, b->cpus, 0);
	if (ret == 0)
		ret = diff_num(rs, "mem_bytes", (int64_t)a->mem_bytes, (int64_t)b->mem_bytes, 0);
	if (ret == 0)
		ret = diff_str(rs, "clocksource", a->clocksource, b->clocksource);
	if (ret == 0)
		ret = diff_str(rs, "clock", a->clock, b->clock);
	if (ret == 0)
		ret = diff_str(rs, "thp", a->thp, b->thp);
	for (size_t i = 0; ret == 0 && i < n; i++)
		ret = diff_target(rs, i, i < a->ntargets ? &a->targets[i] : NULL,
				  i < b->ntargets ? &b->targets[i] : NULL);
	return ret;
}

/* The checkpoint's instances are the plan's, one for one? */
static int same_jobs(const struct results *r, const struct results *from, struct diag *d)
{
	if (from->ninst != r->ninst) {
		diag_add(d, NULL, "the checkpoint has %zu job instances, the plan %zu", from->ninst,
			 r->ninst);
		return -EINVAL;
	}
	for (size_t i = 0; i < r->ninst; i++)
		if (strcmp(from->inst[i].name, r->inst[i].name) ||
		    from->inst[i].background != r->inst[i].background) {
			diag_add(d, NULL,
				 "job instance %zu is '%s' in the checkpoint, '%s' in the plan", i,
				 from->inst[i].name, r->inst[i].name);
			return -EINVAL;
		}
	if (from->seed != r->seed) {
		diag_add(d, NULL, "the checkpoint's seed is %" PRIu64 ", the plan's %" PRIu64,
			 from->seed, r->seed);
		return -EINVAL;
	}
	return 0;
}

/* The last place in the order that a trial of `from` records, and how many trials record one. */
static size_t last_place(const struct results *from, size_t *ndone)
{
	size_t last = 0;

	*ndone = 0;
	for (size_t i = 0; i < from->ninst; i++)
		for (size_t t = 0; t < from->inst[i].ntrials; t++)
			if (from->inst[i].trials[t].seq) {
				(*ndone)++;
				if (from->inst[i].trials[t].seq > last)
					last = (size_t)from->inst[i].trials[t].seq;
			}
	return last;
}

/* The latency histograms a checkpoint gave trial `tr` (of job `job`) fit this build's bucket
 * scheme, and none holds more I/Os than its trial (or its direction) did: a pool of them is
 * the pool of the trial's own I/Os. 0, or -EINVAL with the reason in `d`. */
static int hists_fit(const struct trial_result *tr, size_t t, const char *job, struct diag *d)
{
	static const char *const kind[LAT_NKINDS] = {"all", "read", "write", "slat", "clat"};
	const uint64_t most[LAT_NKINDS] = {tr->ios, tr->dir[DIR_READ].ios, tr->dir[DIR_WRITE].ios,
					   tr->ios, tr->ios};

	for (int k = 0; k < LAT_NKINDS; k++) {
		const struct hist_sparse *h = tr->pool_hist[k];
		if (!h || (hist_sparse_fits(h) && h->count <= most[k]))
			continue;
		diag_add(
		    d, NULL,
		    "the checkpoint's '%s' latency histogram of trial %zu of job '%s' is not one "
		    "this run made: buckets off the scheme, min or max outside them, or more "
		    "I/Os (%" PRIu64 ") than the trial's (%" PRIu64 ")",
		    kind[k], t, job, h->count, most[k]);
		return -EINVAL;
	}
	return 0;
}

/* Move the trials of position k (trial `pt`) from `from` into `r`; a load's trials count on
 * (next[i]). 0, -EINVAL with the reason in `d`, or -ENOMEM. */
static int take_place(struct plan *p, struct results *r, struct results *from, size_t k,
		      size_t *next, struct resume_point *at, struct diag *d)
{
	const struct plan_trial *pt = &p->order[k];
	const struct plan_unit *u = &p->units[pt->unit];

	for (size_t i = 0; i < u->n; i++) {
		size_t in = u->inst[i], t = i < u->nmeasured ? pt->index : next[in]++;
		struct instance_result *src = &from->inst[in], *dst = &r->inst[in];
		struct trial_result tmp;
		if (t >= src->ntrials || src->trials[t].seq != k + 1 || src->trials[t].index != t) {
			diag_add(
			    d, NULL,
			    "the checkpoint's order is not the plan's: trial %zu of job '%s' should be at place %zu",
			    t, dst->name, k + 1);
			return -EINVAL;
		}
		if (hists_fit(&src->trials[t], t, dst->name, d) < 0)
			return -EINVAL;
		if (trial_results_grow(dst, t + 1) < 0)
			return -ENOMEM;
		tmp = dst->trials[t];
		dst->trials[t] = src->trials[t];
		src->trials[t] = tmp;
		if (dst->trials[t].end_ns > at->clock_ns)
			at->clock_ns = dst->trials[t].end_ns;
		if (i < u->nmeasured && dst->trials[t].failed)
			at->failed++;
	}
	return 0;
}

/* The order's first `done` places, taken from `from`, with the rounds a precision target
 * added where a stage's trials ended, decided again from the same trials. */
static int replay(struct plan *p, struct results *r, struct results *from, size_t done,
		  struct resume_point *at, struct diag *d)
{
	uint32_t *more = calloc(p->nunits ? p->nunits : 1, sizeof(*more));
	size_t *next = calloc(r->ninst ? r->ninst : 1, sizeof(*next));
	int ret = more && next ? 0 : -ENOMEM;
	size_t k;

	for (k = 0; ret == 0; k++) {
		if (k > 0 && (k == p->ntrials || p->units[p->order[k].unit].stage !=
						     p->units[p->order[k - 1].unit].stage)) {
			size_t st = p->units[p->order[k - 1].unit].stage;
			if (run_more_round(p, r, more, st) > 0 &&
			    plan_add_round(p, more, st, k) < 0)
				ret = -ENOMEM;
		}
		if (ret < 0 || k == done || k == p->ntrials)
			break;
		ret = take_place(p, r, from, k, next, at, d);
	}
	if (ret == 0 && k < done) {
		diag_add(d, NULL, "the checkpoint has %zu trials in its order, the plan only %zu",
			 done, p->ntrials);
		ret = -EINVAL;
	}
	free(more);
	free(next);
	return ret;
}

/* The first session's start and environment, every resumption so far and this one. */
static int record(struct results *r, struct results *from, const char *now, size_t done)
{
	struct resumption *rs = realloc(from->resumptions, (from->nresumptions + 1) * sizeof(*rs));
	struct run_env env;

	if (!rs)
		return -ENOMEM;
	from->resumptions = rs;
	rs = &rs[from->nresumptions++];
	memset(rs, 0, sizeof(*rs));
	snprintf(rs->stopped_at, sizeof(rs->stopped_at), "%s", from->finished_at);
	snprintf(rs->resumed_at, sizeof(rs->resumed_at), "%s", now);
	rs->trials_done = done;
	if (diff_env(rs, &from->env, &r->env) < 0)
		return -ENOMEM;
	memcpy(r->started_at, from->started_at, sizeof(r->started_at));
	env = r->env;
	r->env = from->env;
	from->env = env;
	r->resumptions = from->resumptions;
	r->nresumptions = from->nresumptions;
	from->resumptions = NULL;
	from->nresumptions = 0;
	return 0;
}

int run_resume(struct plan *p, struct results *r, struct results *from, const char *now,
	       struct resume_point *at, struct diag *d)
{
	size_t ndone, done = last_place(from, &ndone), moved = 0;
	int ret;

	memset(at, 0, sizeof(*at));
	if ((ret = same_jobs(r, from, d)) < 0 || (ret = replay(p, r, from, done, at, d)) < 0)
		return ret;
	for (size_t i = 0; i < r->ninst; i++)
		for (size_t t = 0; t < r->inst[i].ntrials; t++)
			moved += r->inst[i].trials[t].seq != 0;
	if (moved != ndone) {
		diag_add(
		    d, NULL,
		    "the checkpoint's order is not the plan's: %zu of its trials are not at their place",
		    ndone - moved);
		return -EINVAL;
	}
	at->done = done;
	return record(r, from, now, done);
}
