/* The job graph: jobs that run `with` each other form a stage and start on one barrier;
 * stages run one after another, in file order unless `after` says otherwise (a topological
 * order, ties broken by file order). Within a stage, the k-th instance of every measured
 * job forms unit k; background jobs join every unit of their stage. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"
#include "engine/plan/plan.h"

struct graph {
	const struct exp_spec *s;
	struct plan *p;
	struct diag *d;
	size_t *group; /* job -> its stage's representative job */
	int status;
};

static size_t find(size_t *g, size_t j)
{
	while (g[j] != j)
		j = g[j] = g[g[j]];
	return j;
}

static long job_named(const struct exp_spec *s, const char *name)
{
	for (size_t i = 0; i < s->njobs; i++)
		if (!strcmp(s->jobs[i].name, name))
			return (long)i;
	return -1;
}

static void error(struct graph *g, const struct src_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void error(struct graph *g, const struct src_loc *loc, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_add(g->d, loc, "%s", msg);
	g->status = PLAN_ESPEC;
}

static const struct src_loc *key_at(const struct job_spec *j, enum job_key_id k)
{
	return j->key_loc[k].file ? &j->key_loc[k] : &j->loc;
}

static bool same_replication(const struct replication_spec *a, const struct replication_spec *b)
{
	return a->runs == b->runs && a->warmup == b->warmup && a->target == b->target &&
	       (!a->target || (a->pilot == b->pilot && a->max == b->max));
}

/* Union jobs joined by `with`, and check names and background rules. */
static void group_jobs(struct graph *g)
{
	const struct exp_spec *s = g->s;

	for (size_t i = 0; i < s->njobs; i++)
		g->group[i] = i;
	for (size_t i = 0; i < s->njobs; i++) {
		const struct job_spec *j = &s->jobs[i];
		long w;
		if (!j->with)
			continue;
		w = job_named(s, j->with);
		if (w < 0)
			error(g, key_at(j, JK_WITH),
			      "key 'with': job '%s' runs with '%s', which is not a job", j->name,
			      j->with);
		else if ((size_t)w == i)
			error(g, key_at(j, JK_WITH), "key 'with': job '%s' cannot run with itself",
			      j->name);
		else
			g->group[find(g->group, i)] = find(g->group, (size_t)w);
	}
	for (size_t i = 0; i < s->njobs; i++) {
		const struct job_spec *j = &s->jobs[i], *first = NULL;
		for (size_t k = 0; k < s->njobs; k++)
			if (find(g->group, k) == find(g->group, i) && !s->jobs[k].background) {
				first = &s->jobs[k];
				break;
			}
		if (j->background && !first)
			error(g, key_at(j, JK_BACKGROUND),
			      "key 'background': job '%s' is load for no job (give it 'with: JOB')",
			      j->name);
		else if (!j->background && first != j && first &&
			 !same_replication(&j->rep, &first->rep))
			error(
			    g, &j->loc,
			    "key 'with': jobs '%s' and '%s' run together but are replicated differently (runs, warm-up or target)",
			    first->name, j->name);
	}
}

/* Does stage `from` wait, directly or not, for stage `to`? */
static bool reaches(const bool *dep, size_t n, size_t from, size_t to)
{
	bool *seen = calloc(n, sizeof(*seen));
	size_t *stack = calloc(n + 1, sizeof(*stack)), top = 0;
	bool found = false;

	if (!seen || !stack) {
		free(seen);
		free(stack);
		return true; /* out of memory: add no edge */
	}
	stack[top++] = from;
	seen[from] = true;
	while (top && !found) {
		size_t a = stack[--top];
		for (size_t b = 0; b < n && !found; b++) {
			if (!dep[a * n + b] || seen[b])
				continue;
			found = b == to;
			seen[b] = true;
			stack[top++] = b;
		}
	}
	free(seen);
	free(stack);
	return found;
}

/* Order the stages: Kahn's algorithm over `after` edges, plus an edge from the previous
 * stage in file order to each stage none of whose jobs says `after`. */
static size_t *order_groups(struct graph *g, size_t *nout)
{
	const struct exp_spec *s = g->s;
	size_t n = s->njobs, *reps = calloc(n, sizeof(*reps)), nreps = 0, *out = NULL;
	bool *dep = NULL, *done = NULL, *implicit = NULL;

	if (!reps)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t r = find(g->group, i);
		bool seen = false;
		for (size_t k = 0; k < nreps && !seen; k++)
			seen = reps[k] == r;
		if (!seen)
			reps[nreps++] = r;
	}
	dep = calloc(nreps * nreps, sizeof(*dep)); /* dep[a * nreps + b]: stage a waits for b */
	done = calloc(nreps, sizeof(*done));
	out = calloc(nreps, sizeof(*out));
	implicit = calloc(nreps, sizeof(*implicit));
	if (!dep || !done || !out || !implicit)
		goto fail;
	for (size_t a = 0; a < nreps; a++) {
		bool explicit = false;
		for (size_t i = 0; i < n; i++) {
			const struct job_spec *j = &s->jobs[i];
			if (find(g->group, i) != reps[a])
				continue;
			for (size_t k = 0; k < j->nafter; k++) {
				long t = job_named(s, j->after[k]);
				explicit = true;
				if (t < 0) {
					error(
					    g, &j->after_loc,
					    "key 'after': job '%s' waits for '%s', which is not a job",
					    j->name, j->after[k]);
					continue;
				}
				for (size_t b = 0; b < nreps; b++)
					if (reps[b] == find(g->group, (size_t)t)) {
						if (b == a)
							error(
							    g, &j->after_loc,
							    "key 'after': job '%s' waits for '%s', which runs with it",
							    j->name, j->after[k]);
						else
							dep[a * nreps + b] = true;
					}
			}
		}
		implicit[a] = !explicit;
	}
	/* The default order is file order: each stage without `after` follows the one before
	 * it, unless that one already waits for it (then the default would make a cycle). */
	for (size_t a = 1; a < nreps; a++)
		if (implicit[a] && !reaches(dep, nreps, a - 1, a))
			dep[a * nreps + a - 1] = true;
	for (size_t o = 0; o < nreps; o++) {
		size_t pick = nreps;
		for (size_t a = 0; a < nreps && pick == nreps; a++) {
			bool ready = !done[a];
			for (size_t b = 0; b < nreps && ready; b++)
				ready = !dep[a * nreps + b] || done[b];
			if (ready)
				pick = a;
		}
		if (pick == nreps) {
			for (size_t a = 0; a < nreps; a++)
				if (!done[a]) {
					error(
					    g, &s->jobs[reps[a]].loc,
					    "key 'after': the jobs wait for each other in a cycle (job '%s' is in it)",
					    s->jobs[reps[a]].name);
					break;
				}
			goto fail;
		}
		done[pick] = true;
		out[o] = reps[pick];
	}
	*nout = nreps;
	free(reps);
	free(dep);
	free(done);
	free(implicit);
	return out;
fail:
	free(reps);
	free(dep);
	free(done);
	free(implicit);
	free(out);
	return NULL;
}

/* Room for `more` units, reserved once per stage: a matrix may have 100000 points. */
static int reserve_units(struct plan *p, size_t more)
{
	struct plan_unit *nu = realloc(p->units, (p->nunits + more) * sizeof(*nu));

	if (!nu)
		return -ENOMEM;
	p->units = nu;
	return 0;
}

/* Append a unit in the room reserve_units made. */
static int add_unit(struct plan *p, size_t stage, const size_t *inst, size_t n, size_t nmeasured)
{
	struct plan_unit *u = &p->units[p->nunits++];

	memset(u, 0, sizeof(*u));
	if (!(u->inst = malloc(n * sizeof(*u->inst))))
		return -ENOMEM;
	memcpy(u->inst, inst, n * sizeof(*inst));
	u->n = n;
	u->nmeasured = nmeasured;
	u->stage = stage;
	u->warmup = p->inst[inst[0]].warmup;
	u->runs = p->inst[inst[0]].runs;
	u->max_runs = p->inst[inst[0]].max_runs;
	return 0;
}

/* The instances of every job, in plan order: job j's are byjob[start[j] .. start[j + 1]).
 * Built once, so that a stage's units cost its points times its jobs, not times every
 * instance as well (a 100000-point matrix took minutes). */
static void index_by_job(const struct plan *p, size_t njobs, size_t *start, size_t *byjob)
{
	memset(start, 0, (njobs + 1) * sizeof(*start));
	for (size_t i = 0; i < p->ninst; i++)
		start[p->inst[i].job_index + 1]++;
	for (size_t j = 0; j < njobs; j++)
		start[j + 1] += start[j];
	/* Fill with start[j] as job j's cursor, which leaves it at job j + 1's start. */
	for (size_t i = 0; i < p->ninst; i++)
		byjob[start[p->inst[i].job_index]++] = i;
	memmove(start + 1, start, njobs * sizeof(*start));
	start[0] = 0;
}

static void make_units(struct graph *g, const size_t *order, size_t nstages)
{
	const struct exp_spec *s = g->s;
	struct plan *p = g->p;
	size_t *byjob = calloc(p->ninst + 1, sizeof(*byjob));
	size_t *start = calloc(s->njobs + 1, sizeof(*start));
	size_t *unit = calloc(s->njobs + 1, sizeof(*unit));

	if (byjob && start && unit)
		index_by_job(p, s->njobs, start, byjob);
	else
		g->status = PLAN_EENV;
	for (size_t st = 0; byjob && start && unit && st < nstages; st++) {
		size_t count = 0, first = s->njobs;
		for (size_t i = 0; i < s->njobs; i++)
			if (find(g->group, i) == order[st] && !s->jobs[i].background) {
				size_t c = start[i + 1] - start[i];
				if (first == s->njobs) {
					first = i;
					count = c;
				} else if (c != count) {
					error(
					    g, &s->jobs[i].loc,
					    "key 'with': jobs '%s' and '%s' run together but have %zu and %zu matrix points",
					    s->jobs[first].name, s->jobs[i].name, count, c);
				}
			}
		for (size_t i = 0; i < s->njobs; i++)
			if (find(g->group, i) == order[st] && s->jobs[i].background) {
				size_t c = start[i + 1] - start[i];
				if (c != 1 && c != count)
					error(
					    g, &s->jobs[i].loc,
					    "key 'background': job '%s' has %zu matrix points; load needs 1 or one per point of the jobs it runs with (%zu)",
					    s->jobs[i].name, c, count);
			}
		if (g->status || first == s->njobs)
			continue;
		if (reserve_units(p, count) < 0) {
			g->status = PLAN_EENV;
			continue;
		}
		for (size_t k = 0; k < count; k++) {
			size_t n = 0, nm = 0;
			for (int bg = 0; bg < 2; bg++)
				for (size_t i = 0; i < s->njobs; i++) {
					size_t c;
					if (find(g->group, i) != order[st] ||
					    s->jobs[i].background != bg)
						continue;
					c = start[i + 1] - start[i];
					unit[n++] = byjob[start[i] + (c == 1 ? 0 : k)];
					nm += !bg;
				}
			if (add_unit(p, st, unit, n, nm) < 0)
				g->status = PLAN_EENV;
		}
	}
	free(byjob);
	free(start);
	free(unit);
}

int plan_graph(struct plan *p, struct diag *d)
{
	struct graph g = {p->spec, p, d, calloc(p->spec->njobs + 1, sizeof(size_t)), 0};
	size_t *order, nstages = 0;

	if (!g.group)
		return PLAN_EENV;
	group_jobs(&g);
	order = g.status ? NULL : order_groups(&g, &nstages);
	if (order && !g.status)
		make_units(&g, order, nstages);
	p->nstages = nstages;
	free(order);
	free(g.group);
	return g.status ? g.status : order ? 0 : PLAN_ESPEC;
}
