/* Resolving compare: entries to pairs of instances. Each side is a partial point; the
 * instances it selects are paired with the other side's where every other parameter (the
 * job, and the matrix keys neither side names) is equal — so with a buffer_size matrix each
 * buffer size is compared on its own. Pairs are found through a hash table of the b side,
 * not by comparing every instance with every other (quadratic in a 100000-point plan). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"
#include "engine/plan/plan.h"

/* Does `in` have value v->u / v->s for key v->key? Reads the field: no copy. */
static bool has_value(const struct instance *in, const struct key_value *v)
{
	const struct job_key *key = job_key_row(v->key);
	struct key_value got;

	if (key->type == KT_STRING) {
		const char *s = *(char *const *)((const char *)&in->job + key->off);
		return (!s && !v->s) || (s && v->s && !strcmp(s, v->s));
	}
	job_key_get(&in->job, v->key, &got); /* no allocation but for strings */
	return job_key_value_eq(&got, v);
}

static bool selects(const struct plan *p, const struct instance *in, const struct matrix_point *pt)
{
	if (pt->job && strcmp(pt->job, p->spec->jobs[in->job_index].name))
		return false;
	for (size_t i = 0; i < pt->n; i++)
		if (!has_value(in, &pt->kv[i]))
			return false;
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

/* The keys that must be equal for `in`, as an a side, to pair with a b: its matrix keys
 * that the comparison does not name, in its order. Returns how many. */
static size_t peer_keys(const struct compare_spec *c, const struct instance *in,
			enum job_key_id *keys)
{
	size_t n = 0;

	for (size_t d = 0; d < in->npoint; d++)
		if (!names_key(c, in->of->matrix[d].key))
			keys[n++] = in->of->matrix[d].key;
	return n;
}

/* `in`'s value of matrix key `k`, or NULL when k is not one of its matrix keys. */
static const struct key_value *point_value(const struct instance *in, enum job_key_id k)
{
	for (size_t d = 0; d < in->npoint; d++)
		if (in->of->matrix[d].key == k)
			return instance_point(in, d, NULL);
	return NULL;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

/* A hash of what `in` must share with its peers: its job when the comparison stays within
 * a job, and its values of `keys` (false: it lacks one, and pairs with no a of this kind). */
static bool peer_hash(const struct instance *in, bool same_job, const enum job_key_id *keys,
		      size_t nkeys, uint64_t *h)
{
	*h = same_job ? in->job_index + 1 : 0;
	for (size_t i = 0; i < nkeys; i++) {
		const struct key_value *v = point_value(in, keys[i]);
		if (!v)
			return false;
		if (job_key_row(keys[i])->type == KT_STRING)
			for (const char *s = v->s ? v->s : ""; *s; s++)
				*h = mix(*h, (unsigned char)*s);
		else
			*h = mix(*h, v->u);
	}
	return true;
}

/* Are a and b the same but for what the comparison names? */
static bool peers(const struct compare_spec *c, const struct instance *a, const struct instance *b)
{
	if (!c->a.job && !c->b.job && a->job_index != b->job_index)
		return false;
	for (size_t d = 0; d < a->npoint; d++) {
		const struct key_value *v = instance_point(a, d, NULL), *w;
		if (names_key(c, v->key))
			continue;
		if (!(w = point_value(b, v->key)) || !job_key_value_eq(v, w))
			return false;
	}
	return true;
}

/* One kind of a side: the instances whose peer keys are `keys`. */
struct pairing {
	const struct compare_spec *c;
	bool same_job;
	enum job_key_id keys[JK_MAX];
	size_t nkeys;
	size_t *slot; /* instance + 1 of the b side, by hash; 0: empty */
	uint64_t *hash;
	size_t cap;
};

/* The b side's instances of this kind into the table. */
static int pairing_fill(struct pairing *pr, const struct plan *p, const bool *is_b, size_t nb)
{
	pr->cap = 16;
	while (pr->cap < 2 * nb + 2)
		pr->cap *= 2;
	pr->slot = calloc(pr->cap, sizeof(*pr->slot));
	pr->hash = calloc(pr->cap, sizeof(*pr->hash));
	if (!pr->slot || !pr->hash)
		return -ENOMEM;
	for (size_t m = 0; m < p->ninst; m++) {
		uint64_t h;
		size_t i;
		if (!is_b[m] || !peer_hash(&p->inst[m], pr->same_job, pr->keys, pr->nkeys, &h))
			continue;
		for (i = h & (pr->cap - 1); pr->slot[i]; i = (i + 1) & (pr->cap - 1))
			;
		pr->slot[i] = m + 1;
		pr->hash[i] = h;
	}
	return 0;
}

/* a's peers among the b side other than itself: how many, and the last one. */
static size_t pairing_find(const struct pairing *pr, const struct plan *p, size_t a, size_t *which)
{
	uint64_t h;
	size_t n = 0;

	if (!peer_hash(&p->inst[a], pr->same_job, pr->keys, pr->nkeys, &h))
		return 0;
	for (size_t i = h & (pr->cap - 1); pr->slot[i]; i = (i + 1) & (pr->cap - 1)) {
		size_t m = pr->slot[i] - 1;
		if (pr->hash[i] != h || m == a || !peers(pr->c, &p->inst[a], &p->inst[m]))
			continue;
		if (!n++ || m > *which)
			*which = m;
	}
	return n;
}

static int add_pair(struct plan *p, size_t *cap, const struct compare_spec *c, size_t a, size_t b)
{
	if (p->ncmp == *cap) {
		size_t want = *cap ? 2 * *cap : 16;
		struct plan_compare *n = realloc(p->cmp, want * sizeof(*n));
		if (!n)
			return -ENOMEM;
		p->cmp = n;
		*cap = want;
	}
	p->cmp[p->ncmp++] = (struct plan_compare){c, a, b};
	return 0;
}

/* Peers of each a instance into match[a] (how many) and which[a] (the last), one kind of a
 * side at a time: those with the same peer keys share a table of the b side. */
static int find_peers(const struct plan *p, const struct compare_spec *c, const bool *is_a,
		      const bool *is_b, size_t nb, size_t *match, size_t *which)
{
	bool *done = calloc(p->ninst + 1, sizeof(*done));
	int ret = 0;

	if (!done)
		return -ENOMEM;
	for (size_t i = 0; i < p->ninst && !ret; i++) {
		struct pairing pr = {.c = c, .same_job = !c->a.job && !c->b.job};
		if (!is_a[i] || done[i])
			continue;
		pr.nkeys = peer_keys(c, &p->inst[i], pr.keys);
		if ((ret = pairing_fill(&pr, p, is_b, nb)) == 0)
			for (size_t k = i; k < p->ninst; k++) {
				enum job_key_id keys[JK_MAX];
				size_t nk;
				if (!is_a[k] || done[k])
					continue;
				nk = peer_keys(c, &p->inst[k], keys);
				if (nk != pr.nkeys || memcmp(keys, pr.keys, nk * sizeof(*keys)))
					continue;
				match[k] = pairing_find(&pr, p, k, &which[k]);
				done[k] = true;
			}
		free(pr.slot);
		free(pr.hash);
	}
	free(done);
	return ret;
}

void plan_compares(struct plan *p, struct diag *d, int *status)
{
	const struct exp_spec *s = p->spec;
	bool *is_a = calloc(p->ninst + 1, sizeof(*is_a)),
	     *is_b = calloc(p->ninst + 1, sizeof(*is_b));
	size_t *match = calloc(p->ninst + 1, sizeof(*match));
	size_t *which = calloc(p->ninst + 1, sizeof(*which)), cap = 0;

	if (!is_a || !is_b || !match || !which) {
		*status = PLAN_EENV;
		goto out;
	}
	for (size_t k = 0; k < s->ncompares; k++) {
		const struct compare_spec *c = &s->compares[k];
		size_t na = 0, nb = 0;

		for (size_t i = 0; i < p->ninst; i++) {
			na += is_a[i] = selects(p, &p->inst[i], &c->a);
			nb += is_b[i] = selects(p, &p->inst[i], &c->b);
		}
		if (na == 0 || nb == 0) {
			diag_add(d, &c->loc, "key 'compare': %s '%s' selects no job instance",
				 na == 0 ? "a" : "b", na == 0 ? c->a.text : c->b.text);
			*status = PLAN_ESPEC;
			continue;
		}
		if (find_peers(p, c, is_a, is_b, nb, match, which) < 0) {
			*status = PLAN_EENV;
			goto out;
		}
		for (size_t i = 0; i < p->ninst; i++) {
			if (!is_a[i])
				continue;
			if (match[i] == 0) {
				diag_add(
				    d, &c->loc,
				    "key 'compare': '%s' (a) has no counterpart among '%s' (b) with every other parameter equal",
				    p->inst[i].name, c->b.text);
				*status = PLAN_ESPEC;
			} else if (match[i] > 1) {
				diag_add(
				    d, &c->loc,
				    "key 'compare': '%s' (a) matches more than one instance of '%s' (b); name more keys on each side",
				    p->inst[i].name, c->b.text);
				*status = PLAN_ESPEC;
			} else if (add_pair(p, &cap, c, i, which[i]) < 0) {
				*status = PLAN_EENV;
			}
		}
	}
out:
	free(is_a);
	free(is_b);
	free(match);
	free(which);
}
