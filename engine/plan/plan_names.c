/* Files named after an instance (record and interval logs, hook logs, a copy's destination)
 * must be its own: names are made safe for a file name ('/' or more made '_', a hook log's
 * cut at 200 bytes), so two instances can come out with one name, and would then share the
 * file, mixing their measurements or removing each other's copy. Refused when planning.
 * The top-level hooks' logs need no place here: every instance's is under hooks/job. */
#include "engine/plan/plan_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"
#include "model/logname.h"

/* A file an instance makes; `where`: 0 records/, 1 hooks/, 2 a copy's destination. */
struct own_name {
	char *name;
	size_t inst;
	int where;
};

struct own_names {
	struct own_name *v;
	size_t n, cap;
};

static const char *const why[3] = {
    "record and interval logs are named after their instance, each '/' made '_'",
    "hook logs are named after their instance, cut at 200 bytes, each character other than a letter, a digit, '.', '-' or '_' made '_'",
    "a copy's destination is named after its instance, each character other than a letter, a digit, '.', '-' or '_' made '_'",
};

/* Add `name` (malloc'd, or NULL when memory ran out: then false). */
static bool add(struct own_names *o, char *name, size_t inst, int where)
{
	if (!name)
		return false;
	if (o->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 64;
		struct own_name *v = realloc(o->v, cap * sizeof(*v));
		if (!v) {
			free(name);
			return false;
		}
		o->v = v;
		o->cap = cap;
	}
	o->v[o->n++] = (struct own_name){name, inst, where};
	return true;
}

static char *hook_name(const char *inst, const char *what)
{
	char buf[LOGNAME_HOOK_MAX + 64], *name = NULL;

	logname_hook(buf, sizeof(buf), inst, what);
	return asprintf(&name, "hooks/%s", buf) < 0 ? NULL : name;
}

static char *records_name(const char *inst, bool intervals)
{
	char *file = logname_records(inst, intervals), *name = NULL;

	if (file && asprintf(&name, "records/%s", file) < 0)
		name = NULL;
	free(file);
	return name;
}

/* The names of the files instance `i` makes after its name. */
static bool add_instance(struct own_names *o, const struct instance *in, size_t i)
{
	const struct job_spec *j = &in->job;
	bool ok = true;

	if (j->log_records)
		ok = ok && add(o, records_name(in->name, false), i, 0);
	if (j->log_interval_ns)
		ok = ok && add(o, records_name(in->name, true), i, 0);
	if (j->prepare)
		ok = ok && add(o, hook_name(in->name, "prepare"), i, 1);
	if (j->cleanup)
		ok = ok && add(o, hook_name(in->name, "cleanup"), i, 1);
	if ((j->workload == WL_COPY || j->workload == WL_COPYTREE) && in->data.own && in->data.path)
		ok = ok && add(o, strdup(in->data.path), i, 2);
	return ok;
}

static int by_name(const void *a, const void *b)
{
	const struct own_name *x = a, *y = b;
	int c = x->where - y->where;

	if (!c)
		c = strcmp(x->name, y->name);
	return c ? c : (x->inst > y->inst) - (x->inst < y->inst);
}

void plan_own_names(struct planner *pl)
{
	struct own_names o = {0};
	const struct plan *p = pl->p;
	size_t first = 0;

	for (size_t i = 0; i < p->ninst; i++)
		if (!add_instance(&o, &p->inst[i], i)) {
			plan_oom(pl);
			goto out;
		}
	if (o.n)
		qsort(o.v, o.n, sizeof(*o.v), by_name);
	/* In each run of one name, every later instance against the first. */
	for (size_t k = 1; k < o.n; k++) {
		const struct own_name *a = &o.v[first], *b = &o.v[k];
		if (a->where != b->where || strcmp(a->name, b->name)) {
			first = k;
			continue;
		}
		if (a->inst == b->inst)
			continue;
		const struct instance *ia = &p->inst[a->inst], *ib = &p->inst[b->inst];
		plan_fail(
		    pl, PLAN_ESPEC, &ib->job.loc,
		    "instances '%s' and '%s' would share the file '%s' (%s); rename a job, or change a matrix value",
		    ia->name, ib->name, b->name, why[b->where]);
	}
out:
	for (size_t k = 0; k < o.n; k++)
		free(o.v[k].name);
	free(o.v);
}
