/* Resolving compare: entries to pairs of instances. Each side is a partial point; the
 * instances it selects are paired with the other side's where every other parameter (the
 * job, and the matrix keys neither side names) is equal — so with a buffer_size matrix each
 * buffer size is compared on its own. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"
#include "engine/plan/plan.h"

static bool selects(const struct plan *p, const struct instance *in, const struct matrix_point *pt)
{
	if (pt->job && strcmp(pt->job, p->spec->jobs[in->job_index].name))
		return false;
	for (size_t i = 0; i < pt->n; i++) {
		struct key_value v;
		bool eq;
		if (job_key_get(&in->job, pt->kv[i].key, &v) < 0)
			return false;
		eq = job_key_value_eq(&v, &pt->kv[i]);
		job_key_value_release(&v);
		if (!eq)
			return false;
	}
	return true;
}

static bool names_key(const struct compare_spec *c, enum job_key_id k)
{
	for (size_t i = 0; i < c->a.n; i++)
		if (c->a.kv[i].key == k)
			return true;
	for (size_t i = 0; i < c->b.n; i++)
		if (c->b.kv[i].key == k)
			return true;
	return false;
}

/* Are a and b the same but for what the comparison names? */
static bool peers(const struct plan *p, const struct compare_spec *c, const struct instance *a,
		  const struct instance *b)
{
	if (!c->a.job && !c->b.job && a->job_index != b->job_index)
		return false;
	for (size_t i = 0; i < a->npoint; i++) {
		enum job_key_id k = a->point[i].key;
		bool found = false;
		if (names_key(c, k))
			continue;
		for (size_t m = 0; m < b->npoint && !found; m++)
			found = job_key_value_eq(&a->point[i], &b->point[m]);
		if (!found)
			return false;
	}
	return true;
}

static int add_pair(struct plan *p, const struct compare_spec *c, size_t a, size_t b)
{
	struct plan_compare *n = realloc(p->cmp, (p->ncmp + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	p->cmp = n;
	p->cmp[p->ncmp++] = (struct plan_compare){c, a, b};
	return 0;
}

void plan_compares(struct plan *p, struct diag *d, int *status)
{
	const struct exp_spec *s = p->spec;

	for (size_t k = 0; k < s->ncompares; k++) {
		const struct compare_spec *c = &s->compares[k];
		size_t na = 0, nb = 0;

		for (size_t i = 0; i < p->ninst; i++) {
			na += selects(p, &p->inst[i], &c->a);
			nb += selects(p, &p->inst[i], &c->b);
		}
		if (na == 0 || nb == 0) {
			diag_add(d, &c->loc, "key 'compare': %s '%s' selects no job instance",
				 na == 0 ? "a" : "b", na == 0 ? c->a.text : c->b.text);
			*status = PLAN_ESPEC;
			continue;
		}
		for (size_t i = 0; i < p->ninst; i++) {
			size_t match = 0, which = 0;
			if (!selects(p, &p->inst[i], &c->a))
				continue;
			for (size_t m = 0; m < p->ninst; m++)
				if (m != i && selects(p, &p->inst[m], &c->b) &&
				    peers(p, c, &p->inst[i], &p->inst[m])) {
					match++;
					which = m;
				}
			if (match == 0) {
				diag_add(
				    d, &c->loc,
				    "key 'compare': '%s' (a) has no counterpart among '%s' (b) with every other parameter equal",
				    p->inst[i].name, c->b.text);
				*status = PLAN_ESPEC;
			} else if (match > 1) {
				diag_add(
				    d, &c->loc,
				    "key 'compare': '%s' (a) matches more than one instance of '%s' (b); name more keys on each side",
				    p->inst[i].name, c->b.text);
				*status = PLAN_ESPEC;
			} else if (add_pair(p, c, i, which) < 0) {
				*status = PLAN_EENV;
			}
		}
	}
}
