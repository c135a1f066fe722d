/* The planner's bounds: how big a plan may be, found from the spec before anything is
 * allocated, and whether its units' workers fit in the memory iotrial may use at once (the
 * machine's, or less under a cgroup's memory.max). */
#include "engine/plan/plan_internal.h"

#include "engine/io/buffers.h"
#include "lib/memlimit.h"

/* The memory the plan may take, and whose limit it is, for the message. */
static uint64_t usable_memory(const char **whose)
{
	int cgroup;
	uint64_t mem = memlimit_usable(&cgroup);

	*whose = cgroup ? "its cgroup's memory.max of" : "this machine's";
	return mem;
}

/* What a unit's workers hold at once: their buffers, histograms and log buffers. A plan
 * that would not fit in the memory it may use is refused before anything runs. */
int plan_memory(const struct plan *p, struct diag *d)
{
	const char *whose;
	uint64_t mem = usable_memory(&whose);
	long double most = 0;
	size_t worst = 0;

	for (size_t u = 0; u < p->nunits; u++) {
		long double need = 0;
		for (size_t k = 0; k < p->units[u].n; k++) {
			const struct instance *in = &p->inst[p->units[u].inst[k]];
			/* the worker's own sum: on huge pages a whole one at the least */
			long double per = (long double)buffers_bytes(in->job.huge_buffers,
								     in->job.iodepth, in->chunk) +
					  (64 << 10) + 2 * 65536;
			need += per * in->job.threads;
		}
		if (need > most) {
			most = need;
			worst = u;
		}
	}
	if (mem && most > 0.8L * (long double)mem) {
		const struct instance *in = &p->inst[p->units[worst].inst[0]];
		diag_add(
		    d, &in->job.loc,
		    "the plan needs about %.1f GiB of memory at once (%s: threads x iodepth x block size), more than %s %.1f GiB allows",
		    (double)(most / (1 << 30)), in->name, whose, (double)mem / (1 << 30));
		return PLAN_EENV;
	}
	return 0;
}

/* Job `j`'s matrix points before exclude (1 without a matrix), saturating. */
static uint64_t job_points(const struct job_spec *j)
{
	uint64_t n = 1;

	for (size_t d = 0; d < j->nmatrix; d++) {
		if (j->matrix[d].n && n > UINT64_MAX / j->matrix[d].n)
			return UINT64_MAX;
		n *= j->matrix[d].n;
	}
	return n;
}

/* What one instance and one of its trials cost while planning, running and writing
 * results.json (whose document is built in memory), measured on the null backend: 10000
 * one-trial instances took 27 KiB each, 20000 trials of one instance 4.6 KiB each. A
 * worker row (threads above 1) is taken at 1 KiB. */
#define INSTANCE_BYTES (24u << 10)
#define TRIAL_BYTES    (5u << 10)
#define WORKER_BYTES   (1u << 10)

/* The plan's size, from the spec alone, before anything is allocated: at most
 * PLAN_MAX_INSTANCES instances in all (a YAML alias can hand one big matrix to every job),
 * and no more memory for the plan and its results than the machine has. Sets *ninst to
 * the instances to make room for; returns pl->status. */
int plan_size(struct planner *pl, size_t *ninst)
{
	const struct exp_spec *s = pl->s;
	const char *whose;
	uint64_t mem = usable_memory(&whose);
	uint64_t total = 0, trials = 0;
	long double bytes = 0;
	size_t over = s->njobs;

	for (size_t k = 0; k < s->njobs; k++) {
		const struct job_spec *j = &s->jobs[k];
		uint64_t pts = job_points(j);
		uint64_t runs =
		    (uint64_t)j->rep->warmup + (j->rep->target ? j->rep->max : j->rep->runs);
		uint64_t workers = j->threads > 1 ? j->threads : 0;

		if (pts > MATRIX_MAX_POINTS) {
			plan_fail(pl, PLAN_ESPEC, &j->loc,
				  "key 'matrix': job '%s' expands to more than %d points", j->name,
				  MATRIX_MAX_POINTS);
			continue;
		}
		total += pts;
		trials += pts * runs;
		if (total > PLAN_MAX_INSTANCES && over == s->njobs)
			over = k;
		bytes +=
		    (long double)pts * INSTANCE_BYTES +
		    (long double)pts * (long double)runs * (TRIAL_BYTES + workers * WORKER_BYTES);
	}
	if (pl->status)
		return pl->status;
	if (over < s->njobs) {
		plan_fail(
		    pl, PLAN_ESPEC, &s->jobs[over].loc,
		    "the plan expands to %llu job instances (the matrix points of its %zu jobs, before exclude), more than the bound of %d",
		    (unsigned long long)total, s->njobs, PLAN_MAX_INSTANCES);
		return pl->status;
	}
	if (mem && bytes > 0.8L * (long double)mem) {
		plan_fail(
		    pl, PLAN_EENV, &s->jobs[0].loc,
		    "the plan itself needs about %.1f GiB of memory (%llu job instances, %llu trials), more than %s %.1f GiB allows",
		    (double)(bytes / (1 << 30)), (unsigned long long)total,
		    (unsigned long long)trials, whose, (double)mem / (1 << 30));
		return pl->status;
	}
	*ninst = (size_t)total;
	return 0;
}
