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
	size_t *group;	  /* job -> its stage's representative job */
	size_t *by_name;  /* job indexes sorted by name, then file order */
	size_t *stage_of; /* representative job -> its stage, in order of first appearance */
	size_t *members; /* the jobs of stage a, in file order: members[first[a] .. first[a + 1]) */
	size_t *first;
	size_t nreps;
	int status;
};

static size_t find(size_t *g, size_t j)
{
	while (g[j] != j)
		j = g[j] = g[g[j]];
	return j;
}

static int by_name_cmp(const void *a, const void *b, void *spec)
{
	const struct exp_spec *s = spec;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(s->jobs[x].name, s->jobs[y].name);

	return c ? c : (x > y) - (x < y);
}

/* The first job called `name` (job names are unique once parsed), or -1: a binary search,
 * since 4096 jobs that each name another would take 16 million comparisons one by one. */
static long job_named(const struct graph *g, const char *name)
{
	size_t lo = 0, hi = g->s->njobs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(g->s->jobs[g->by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < g->s->njobs && !strcmp(g->s->jobs[g->by_name[lo]].name, name))
		return (long)g->by_name[lo];
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
	       (!a->target || (a->pilot == b->pilot && a->max == b->max &&
			       a->estimate_pilot == b->estimate_pilot && a->round == b->round));
}

/* Union jobs joined by `with`, and check names and background rules. */
static void group_jobs(struct graph *g)
{
	const struct exp_spec *s = g->s;
	size_t *lead =
	    calloc(s->njobs + 1, sizeof(*lead)); /* representative -> first measured job + 1 */

	if (!lead) {
		g->status = PLAN_EENV;
		return;
	}
	for (size_t i = 0; i < s->njobs; i++)
		g->group[i] = i;
	for (size_t i = 0; i < s->njobs; i++) {
		const struct job_spec *j = &s->jobs[i];
		long w;
		if (!j->with)
			continue;
		w = job_named(g, j->with);
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
	for (size_t k = 0; k < s->njobs; k++)
		if (!s->jobs[k].background && !lead[find(g->group, k)])
			lead[find(g->group, k)] = k + 1;
	for (size_t i = 0; i < s->njobs; i++) {
		const struct job_spec *j = &s->jobs[i], *first = NULL;
		size_t l = lead[find(g->group, i)];
		if (l)
			first = &s->jobs[l - 1];
		if (j->background && !first)
			error(g, key_at(j, JK_BACKGROUND),
			      "key 'background': job '%s' is load for no job (give it 'with: JOB')",
			      j->name);
		else if (!j->background && first != j && first &&
			 !same_replication(j->rep, first->rep))
			error(
			    g, &j->loc,
			    "key 'with': jobs '%s' and '%s' run together but are replicated differently (runs, warm-up or target)",
			    first->name, j->name);
	}
	free(lead);
}

/* Number the stages in order of their first job, and list each stage's jobs in file order. */
static int index_stages(struct graph *g)
{
	size_t n = g->s->njobs;

	g->stage_of = malloc((n + 1) * sizeof(size_t));
	g->members = calloc(n + 1, sizeof(size_t)); /* zeroed: the analyser cannot follow */
	g->first = calloc(n + 2, sizeof(size_t));
	if (!g->stage_of || !g->members || !g->first)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		g->stage_of[i] = SIZE_MAX;
	g->nreps = 0;
	for (size_t i = 0; i < n; i++) {
		size_t r = find(g->group, i);
		if (g->stage_of[r] == SIZE_MAX)
			g->stage_of[r] = g->nreps++;
		g->first[g->stage_of[r] + 1]++;
	}
	for (size_t a = 0; a < g->nreps; a++)
		g->first[a + 1] += g->first[a];
	/* Fill with first[a] as stage a's cursor, which leaves it at stage a + 1's start. */
	for (size_t i = 0; i < n; i++)
		g->members[g->first[g->stage_of[find(g->group, i)]]++] = i;
	memmove(g->first + 1, g->first, g->nreps * sizeof(size_t));
	g->first[0] = 0;
	return 0;
}

/* The stage graph: an edge (a, b) when stage a waits for stage b, as compressed rows both
 * ways: a's waits are wait[wait_at[a] .. wait_at[a + 1]), the stages that wait for b are
 * waiter[waiter_at[b] .. waiter_at[b + 1]). An implicit edge (a, a - 1), the default file
 * order, is kept apart in `follows`: it is decided one stage at a time. */
struct stage_graph {
	size_t n;
	size_t *wait, *wait_at;
	size_t *waiter, *waiter_at;
	bool *follows; /* follows[a]: a waits for a - 1 by default */
};

static void stage_graph_release(struct stage_graph *sg)
{
	free(sg->wait);
	free(sg->wait_at);
	free(sg->waiter);
	free(sg->waiter_at);
	free(sg->follows);
}

static int edge_cmp(const void *x, const void *y)
{
	const size_t *a = x, *b = y;

	if (a[0] != b[0])
		return (a[0] > b[0]) - (a[0] < b[0]);
	return (a[1] > b[1]) - (a[1] < b[1]);
}

/* The explicit `after` edges, each once, with the errors in the order of stages, then
 * jobs in file order, then their `after` entries. Returns 0 or -ENOMEM; *implicit[a] is
 * set when no job of stage a says `after`. */
static int after_edges(struct graph *g, struct stage_graph *sg, bool *implicit)
{
	const struct exp_spec *s = g->s;
	size_t n = g->nreps, ne = 0, cap = 0, *e = NULL, k = 0;

	for (size_t i = 0; i < s->njobs; i++)
		cap += s->jobs[i].rules ? s->jobs[i].rules->nafter : 0;
	if (!(e = malloc((2 * cap + 2) * sizeof(*e))))
		return -ENOMEM;
	for (size_t a = 0; a < n; a++) {
		implicit[a] = true;
		for (size_t m = g->first[a]; m < g->first[a + 1]; m++) {
			const struct job_spec *j = &s->jobs[g->members[m]];
			const struct job_rules *r = j->rules;
			for (size_t x = 0; r && x < r->nafter; x++) {
				long t = job_named(g, r->after[x]);
				implicit[a] = false;
				if (t < 0) {
					error(
					    g, &r->after_loc,
					    "key 'after': job '%s' waits for '%s', which is not a job",
					    j->name, r->after[x]);
					continue;
				}
				size_t b = g->stage_of[find(g->group, (size_t)t)];
				if (b == a) {
					error(
					    g, &r->after_loc,
					    "key 'after': job '%s' waits for '%s', which runs with it",
					    j->name, r->after[x]);
					continue;
				}
				e[2 * ne] = a;
				e[2 * ne + 1] = b;
				ne++;
			}
		}
	}
	qsort(e, ne, 2 * sizeof(*e), edge_cmp);
	sg->n = n;
	sg->wait = calloc(ne + 1, sizeof(size_t));
	sg->waiter = calloc(ne + 1, sizeof(size_t)); /* zeroed: the analyser cannot follow */
	sg->wait_at = calloc(n + 1, sizeof(size_t));
	sg->waiter_at = calloc(n + 2, sizeof(size_t));
	sg->follows = calloc(n + 1, sizeof(bool));
	if (!sg->wait || !sg->waiter || !sg->wait_at || !sg->waiter_at || !sg->follows) {
		free(e);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ne; i++) {
		if (i && e[2 * i] == e[2 * i - 2] && e[2 * i + 1] == e[2 * i - 1])
			continue; /* the same edge twice: counted once */
		e[2 * k] = e[2 * i];
		e[2 * k + 1] = e[2 * i + 1];
		k++;
	}
	/* Sorted by waiting stage: wait[] is e's second column in order. */
	for (size_t i = 0; i < k; i++) {
		sg->wait[i] = e[2 * i + 1];
		sg->wait_at[e[2 * i] + 1]++;
		sg->waiter_at[e[2 * i + 1] + 1]++;
	}
	for (size_t a = 0; a < n; a++) {
		sg->wait_at[a + 1] += sg->wait_at[a];
		sg->waiter_at[a + 1] += sg->waiter_at[a];
	}
	for (size_t i = 0; i < k; i++)
		sg->waiter[sg->waiter_at[e[2 * i + 1]]++] = e[2 * i];
	memmove(sg->waiter_at + 1, sg->waiter_at, n * sizeof(size_t));
	sg->waiter_at[0] = 0;
	free(e);
	return 0;
}

/* Does stage `from` wait, directly or not, for stage `to`? A search over the edges so far;
 * `seen` and `stack` have room for every stage. */
static bool reaches(const struct stage_graph *sg, size_t from, size_t to, bool *seen, size_t *stack)
{
	size_t top = 0;

	memset(seen, 0, sg->n * sizeof(*seen));
	stack[top++] = from;
	seen[from] = true;
	while (top) {
		size_t a = stack[--top];
		size_t end = sg->wait_at[a + 1] + (sg->follows[a] ? 1 : 0);
		for (size_t i = sg->wait_at[a]; i < end; i++) {
			/* Past a's `after` edges: its implicit one, to a - 1. */
			size_t b = i < sg->wait_at[a + 1] ? sg->wait[i] : a - 1;
			if (b == to)
				return true;
			if (!seen[b]) {
				seen[b] = true;
				stack[top++] = b;
			}
		}
	}
	return false;
}

/* The default order is file order: each stage without `after` follows the one before it,
 * unless that one already waits for it (then the default would make a cycle). Only an
 * explicit edge can lead into stage a (implicit ones so far lead to stages before a - 1),
 * so a stage no job waits for needs no search: without `after`, none does. */
static int implicit_edges(struct stage_graph *sg, const bool *implicit)
{
	bool *seen = NULL;
	size_t *stack = NULL;

	for (size_t a = 1; a < sg->n; a++) {
		if (!implicit[a])
			continue;
		if (sg->waiter_at[a] != sg->waiter_at[a + 1]) {
			if (!seen && (!(seen = malloc(sg->n * sizeof(*seen))) ||
				      !(stack = malloc((sg->n + 1) * sizeof(*stack))))) {
				free(seen);
				return -ENOMEM;
			}
			if (reaches(sg, a - 1, a, seen, stack))
				continue;
		}
		sg->follows[a] = true;
	}
	free(seen);
	free(stack);
	return 0;
}

/* A binary min-heap of stage numbers: the ready stage listed first runs first. */
static void heap_push(size_t *h, size_t *n, size_t v)
{
	size_t i = (*n)++;

	for (; i && h[(i - 1) / 2] > v; i = (i - 1) / 2)
		h[i] = h[(i - 1) / 2];
	h[i] = v;
}

static size_t heap_pop(size_t *h, size_t *n)
{
	size_t top = h[0], v = h[--*n], i = 0;

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (h[c] >= v)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = v;
	return top;
}

/* Kahn's algorithm: each time, the ready stage listed first. Fills out[] with stages;
 * returns how many could be ordered (fewer than sg->n: a cycle), or -ENOMEM. */
static long topo_order(const struct stage_graph *sg, size_t *out)
{
	size_t n = sg->n, nh = 0, no = 0;
	size_t *left = calloc(n + 1, sizeof(*left)), *heap = malloc((n + 1) * sizeof(*heap));

	if (!left || !heap) {
		free(left);
		free(heap);
		return -ENOMEM;
	}
	for (size_t a = 0; a < n; a++) {
		left[a] = sg->wait_at[a + 1] - sg->wait_at[a] + sg->follows[a];
		if (!left[a])
			heap_push(heap, &nh, a);
	}
	while (nh) {
		size_t b = heap_pop(heap, &nh);
		out[no++] = b;
		for (size_t i = sg->waiter_at[b]; i < sg->waiter_at[b + 1]; i++)
			if (!--left[sg->waiter[i]])
				heap_push(heap, &nh, sg->waiter[i]);
		if (b + 1 < n && sg->follows[b + 1] && !--left[b + 1])
			heap_push(heap, &nh, b + 1);
	}
	free(left);
	free(heap);
	return (long)no;
}

/* Order the stages: `after` edges, plus an edge from the previous stage in file order to
 * each stage none of whose jobs says `after`. Returns the stages in run order, or NULL
 * (g->status says why). */
static size_t *order_groups(struct graph *g, size_t *nout)
{
	const struct exp_spec *s = g->s;
	struct stage_graph sg = {0};
	size_t *out = NULL;
	bool *implicit = NULL, *done = NULL;
	long no;

	if (index_stages(g) < 0 || !(implicit = calloc(g->nreps + 1, sizeof(*implicit))) ||
	    !(out = calloc(g->nreps + 1, sizeof(*out))) || after_edges(g, &sg, implicit) < 0 ||
	    implicit_edges(&sg, implicit) < 0 || (no = topo_order(&sg, out)) < 0)
		goto oom;
	if ((size_t)no < g->nreps) {
		if (!(done = calloc(g->nreps, sizeof(*done))))
			goto oom;
		for (long o = 0; o < no; o++)
			done[out[o]] = true;
		for (size_t a = 0; a < g->nreps; a++)
			if (!done[a]) {
				const struct job_spec *j =
				    &s->jobs[find(g->group, g->members[g->first[a]])];
				error(
				    g, &j->loc,
				    "key 'after': the jobs wait for each other in a cycle (job '%s' is in it)",
				    j->name);
				break;
			}
	}
	if (g->status)
		goto fail;
	free(done);
	free(implicit);
	stage_graph_release(&sg);
	*nout = g->nreps;
	return out;
oom:
	g->status = PLAN_EENV;
fail:
	free(done);
	free(out);
	free(implicit);
	stage_graph_release(&sg);
	return NULL;
}

/* Room for `more` units of `n` instances each, reserved once per stage: a matrix may have
 * 100000 points. `held`: the instances of the units so far, in p->unit_inst. */
static int reserve_units(struct plan *p, size_t more, size_t n, size_t held)
{
	struct plan_unit *nu = realloc(p->units, (p->nunits + more) * sizeof(*nu));
	size_t *ni;

	if (!nu)
		return -ENOMEM;
	p->units = nu;
	if (!(ni = realloc(p->unit_inst, (held + more * n + 1) * sizeof(*ni))))
		return -ENOMEM;
	p->unit_inst = ni;
	return 0;
}

/* Append a unit in the room reserve_units made, its instances at p->unit_inst + held
 * (point_units points it there once the array stops moving). */
static void add_unit(struct plan *p, size_t stage, const size_t *inst, size_t n, size_t nmeasured,
		     size_t held)
{
	struct plan_unit *u = &p->units[p->nunits++];

	memset(u, 0, sizeof(*u));
	memcpy(p->unit_inst + held, inst, n * sizeof(*inst));
	u->n = n;
	u->nmeasured = nmeasured;
	u->stage = stage;
	u->warmup = p->inst[inst[0]].warmup;
	u->runs = p->inst[inst[0]].runs;
	u->max_runs = p->inst[inst[0]].max_runs;
}

static void point_units(struct plan *p)
{
	size_t held = 0;

	for (size_t u = 0; u < p->nunits; u++) {
		p->units[u].inst = p->unit_inst + held;
		held += p->units[u].n;
	}
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
	size_t held = 0;

	if (byjob && start && unit)
		index_by_job(p, s->njobs, start, byjob);
	else
		g->status = PLAN_EENV;
	for (size_t st = 0; byjob && start && unit && st < nstages; st++) {
		const size_t *mem = g->members + g->first[order[st]];
		size_t nmem = g->first[order[st] + 1] - g->first[order[st]];
		size_t count = 0, first = s->njobs;
		for (size_t m = 0; m < nmem; m++) {
			size_t i = mem[m], c = start[i + 1] - start[i];
			if (s->jobs[i].background)
				continue;
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
		for (size_t m = 0; m < nmem; m++) {
			size_t i = mem[m], c = start[i + 1] - start[i];
			if (s->jobs[i].background && c != 1 && c != count)
				error(
				    g, &s->jobs[i].loc,
				    "key 'background': job '%s' has %zu matrix points; load needs 1 or one per point of the jobs it runs with (%zu)",
				    s->jobs[i].name, c, count);
		}
		if (g->status || first == s->njobs)
			continue;
		if (reserve_units(p, count, nmem, held) < 0) {
			g->status = PLAN_EENV;
			continue;
		}
		for (size_t k = 0; k < count; k++) {
			size_t n = 0, nm = 0;
			for (int bg = 0; bg < 2; bg++)
				for (size_t m = 0; m < nmem; m++) {
					size_t i = mem[m], c = start[i + 1] - start[i];
					if (s->jobs[i].background != bg)
						continue;
					unit[n++] = byjob[start[i] + (c == 1 ? 0 : k)];
					nm += !bg;
				}
			add_unit(p, st, unit, n, nm, held);
			held += n;
		}
	}
	point_units(p);
	free(byjob);
	free(start);
	free(unit);
}

int plan_graph(struct plan *p, struct diag *d)
{
	size_t n = p->spec->njobs;
	struct graph g = {.s = p->spec,
			  .p = p,
			  .d = d,
			  .group = calloc(n + 1, sizeof(size_t)),
			  .by_name = malloc((n + 1) * sizeof(size_t))};
	size_t *order = NULL, nstages = 0;

	if (!g.group || !g.by_name) {
		g.status = PLAN_EENV;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		g.by_name[i] = i;
	qsort_r(g.by_name, n, sizeof(*g.by_name), by_name_cmp, (void *)p->spec);
	group_jobs(&g);
	order = g.status ? NULL : order_groups(&g, &nstages);
	if (order && !g.status)
		make_units(&g, order, nstages);
	p->nstages = nstages;
out:
	free(order);
	free(g.group);
	free(g.by_name);
	free(g.stage_of);
	free(g.members);
	free(g.first);
	return g.status ? g.status : order ? 0 : PLAN_ESPEC;
}
