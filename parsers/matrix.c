/* matrix: and exclude: on a job, and the partial points that compare: selects with. Each
 * value is typed through the job key table, so `[4KiB, 8KiB]` and `{from: 4KiB, to: 512KiB,
 * step: x2}` become byte counts and a typo is caught where it was written. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"
#include "lib/units.h"
#include "parsers/yp.h"

#define MAX_VALUES 10000

static const char *const range_keys[] = {"from", "to", "step", NULL};

/* Type `text` as key `k` through a scratch job; 0, or -1 after reporting at `n`. */
static int typed_value(struct yp *p, struct job_spec *scratch, enum job_key_id k, const char *text,
		       const yaml_node_t *n, struct key_value *out)
{
	char err[512];

	if (yp_key_failed(p, yp_set_job_key(scratch, k, text, err, sizeof(err)))) {
		yp_err(p, n, job_key_row(k)->name, "%s", err);
		return -1;
	}
	if (k == JK_FILE_SIZE && scratch->file_size_pct) {
		scratch->file_size_pct = 0;
		yp_err(p, n, "file_size", "a percentage of the target is not a matrix value");
		return -1;
	}

	return job_key_get(scratch, k, out) < 0 ? -1 : 0;
}

static int add_value(struct matrix_dim *d, const struct key_value *v, struct src_loc loc)
{
	/* Room doubles when n reaches a power of two: a range of MAX_VALUES grows in 14 steps. */
	size_t cap = d->n ? 2 * d->n : 1;
	struct key_value *nv;
	struct src_loc *nl;

	if ((d->n & (d->n - 1)) == 0) {
		if (!(nv = realloc(d->values, cap * sizeof(*nv))))
			return -ENOMEM;
		d->values = nv;
		if (!(nl = realloc(d->locs, cap * sizeof(*nl))))
			return -ENOMEM;
		d->locs = nl;
	}
	d->values[d->n] = *v;
	d->locs[d->n++] = loc;
	return 0;
}

/* Is a range's step (of a size, duration or count key) 0, in any unit? */
static bool zero_step(const struct job_key *row, const char *text)
{
	const char *why;
	uint64_t u = 1;
	int ret = row->type == KT_SIZE	     ? units_parse_size(text, &u, &why)
		  : row->type == KT_DURATION ? units_parse_duration(text, &u, &why)
					     : units_parse_uint(text, &u, &why);

	return ret == 0 && u == 0;
}

/* {from: A, to: B, step: x2 | STEP}: a geometric or linear run of sizes, durations or counts. */
static void parse_range(struct yp *p, struct job_spec *scratch, struct matrix_dim *d,
			const yaml_node_t *m)
{
	enum job_key_id k = d->key;
	const struct job_key *row = job_key_row(k);
	const char *key = row->name;
	struct key_value from = {k, 0, NULL}, to = {k, 0, NULL}, cur;
	uint64_t factor = 0, step = 0;
	const yaml_node_t *sn = NULL;
	bool have[3] = {false, false, false};

	if (row->type != KT_SIZE && row->type != KT_DURATION && row->type != KT_UINT) {
		yp_err(p, m, key,
		       "a range needs a size, duration or count key; list the values instead");
		return;
	}
	if (!yp_mapping_ok(p, m, key, "a range"))
		return;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key), *vn = yp_node(p, pr->value);
		int i = yp_key_index(p, kn, range_keys, " in a range");
		char *text;

		if (i < 0 || !(text = yp_text(p, vn, key, "a value")))
			continue;
		if (i == 2) {
			const char *why;
			sn = vn;
			if (text[0] == 'x' || text[0] == '*') {
				if (units_parse_uint(text + 1, &factor, &why) < 0 || factor < 2)
					yp_err(
					    p, vn, "step",
					    "expected x2, x4, ... (a whole factor of at least 2), got '%s'",
					    text);
				else
					have[2] = true;
			} else if (zero_step(row, text[0] == '+' ? text + 1 : text)) {
				/* Before the key's own check, which would name the key, not the
				 * step. */
				yp_err(p, vn, "step", "a step of 0 never ends");
			} else {
				struct key_value sv;
				if (typed_value(p, scratch, k, text[0] == '+' ? text + 1 : text, vn,
						&sv) == 0) {
					step = sv.u;
					have[2] = true;
				}
			}
		} else if (typed_value(p, scratch, k, text, vn, i == 0 ? &from : &to) == 0) {
			have[i] = true;
		}
		free(text);
	}
	if (!have[0] || !have[1] || !have[2]) {
		if (p->nerr == 0)
			yp_err(p, m, key, "a range needs from, to and step");
		return;
	}
	if (from.u > to.u) {
		yp_err(p, m, key, "from (%llu) is above to (%llu)", (unsigned long long)from.u,
		       (unsigned long long)to.u);
		return;
	}
	if (factor && from.u == 0) {
		yp_err(p, m, key, "from is 0, which a step of x%llu never leaves",
		       (unsigned long long)factor);
		return;
	}
	cur = from;
	while (cur.u <= to.u) {
		if (d->n >= MAX_VALUES) {
			yp_err(p, sn, key, "the range has more than %d values", MAX_VALUES);
			return;
		}
		if (add_value(d, &cur, yp_loc(p, m)) < 0) {
			p->oom = true;
			yp_err(p, m, key, "out of memory");
			return;
		}
		if (factor ? cur.u > to.u / factor : cur.u > to.u - step)
			break;
		cur.u = factor ? cur.u * factor : cur.u + step;
	}
}

/* The values a list has seen, by hash: a copy is found in one probe or a few, where a scan
 * of all before it made a list of 10,000 paths take 0.4 s (10 such jobs, 4.2 s). Slots
 * hold 1 + a value's index in d->values, 0 when empty; NULL slots: the table could not
 * be allocated, and seen_find scans instead. */
struct seen {
	uint32_t *slot;
	size_t mask;
};

static size_t value_hash(const struct key_value *v)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	if (job_key_row(v->key)->type != KT_STRING)
		return (size_t)((v->u ^ (v->u >> 29)) * 0x9e3779b97f4a7c15ull);
	for (const char *c = v->s ? v->s : ""; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ull;
	return (size_t)h;
}

static void seen_init(struct seen *t, size_t items)
{
	size_t cap = 16;

	while (cap < 2 * items && cap < 4 * MAX_VALUES)
		cap *= 2;
	t->slot = calloc(cap, sizeof(*t->slot));
	t->mask = cap - 1;
}

/* Is `v` among d's values? */
static bool seen_find(struct seen *t, const struct matrix_dim *d, const struct key_value *v)
{
	size_t i;

	if (!t->slot) {
		for (i = 0; i < d->n; i++)
			if (job_key_value_eq(&d->values[i], v))
				return true;
		return false;
	}
	for (i = value_hash(v) & t->mask; t->slot[i]; i = (i + 1) & t->mask)
		if (job_key_value_eq(&d->values[t->slot[i] - 1], v))
			return true;
	return false;
}

/* Note d's last value (just added). The table holds at most MAX_VALUES, under half full. */
static void seen_add(struct seen *t, const struct matrix_dim *d)
{
	size_t i;

	if (!t->slot)
		return;
	for (i = value_hash(&d->values[d->n - 1]) & t->mask; t->slot[i]; i = (i + 1) & t->mask)
		;
	t->slot[i] = (uint32_t)d->n;
}

/* The values of one matrix key from node `vn`: a list or a range. */
static void parse_values(struct yp *p, struct job_spec *scratch, struct matrix_dim *d,
			 const yaml_node_t *vn)
{
	const char *key = job_key_row(d->key)->name;

	if (vn->type == YAML_MAPPING_NODE) {
		parse_range(p, scratch, d, vn);
	} else if (vn->type == YAML_SEQUENCE_NODE) {
		struct seen seen; /* d is new: it holds no value yet */

		seen_init(&seen,
			  (size_t)(vn->data.sequence.items.top - vn->data.sequence.items.start));
		for (yaml_node_item_t *it = vn->data.sequence.items.start;
		     it < vn->data.sequence.items.top; it++) {
			yaml_node_t *en = yp_node(p, *it);
			struct key_value v;
			char *text = yp_text(p, en, key, "a value");
			if (text && typed_value(p, scratch, d->key, text, en, &v) == 0) {
				/* A copy is reported once and not kept: kept, the k-th copy of a
				 * value matched all k - 1 before it, and 10,000 copies made 5e7
				 * messages (7 GB). */
				if (seen_find(&seen, d, &v)) {
					yp_err(p, en, key, "'%s' is listed twice", text);
					job_key_value_release(&v);
				} else if (d->n >= MAX_VALUES) {
					yp_err(p, en, key, "more than %d values", MAX_VALUES);
					job_key_value_release(&v);
				} else if (add_value(d, &v, yp_loc(p, en)) < 0) {
					p->oom = true;
					yp_err(p, en, key, "out of memory");
					job_key_value_release(&v);
				} else {
					seen_add(&seen, d);
				}
			}
			free(text);
		}
		free(seen.slot);
		if (d->n == 0 && vn->data.sequence.items.top == vn->data.sequence.items.start)
			yp_err(p, vn, key, "the list of values is empty");
	} else {
		yp_err(p, vn, key,
		       "expected a list of values or a range {from, to, step}, got a single value");
	}
}

void yp_parse_matrix(struct yp *p, struct job_spec *j, const yaml_node_t *m)
{
	struct job_spec scratch;
	size_t n;

	if (!yp_mapping_ok(p, m, "matrix", "keys with lists of values"))
		return;
	n = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	if (!(j->matrix = calloc(n ? n : 1, sizeof(*j->matrix))) || yp_job_defaults(&scratch) < 0)
		return;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key), *vn = yp_node(p, pr->value);
		const char *key = (const char *)kn->data.scalar.value;
		const struct job_key *k = job_key_find(key);
		struct matrix_dim *d = &j->matrix[j->nmatrix];

		if (!k) {
			const char *names[JK_MAX + 1];
			names[job_key_names(names, JK_MAX)] = NULL;
			const char *near = job_key_suggest(key, names);
			yp_err(p, kn, key, "not a job key, so it cannot be a matrix key%s%s%s",
			       near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
			continue;
		}
		d->key = (enum job_key_id)job_key_id_of(k);
		j->nmatrix++;
		parse_values(p, &scratch, d, vn);
	}
	spec_job_release(&scratch);
}

static void dim_release(struct matrix_dim *d)
{
	for (size_t i = 0; i < d->n; i++)
		job_key_value_release(&d->values[i]);
	free(d->values);
	free(d->locs);
	d->values = NULL;
	d->locs = NULL;
	d->n = 0;
}

static struct matrix_dim *find_dim(const struct job_spec *j, enum job_key_id k)
{
	for (size_t i = 0; i < j->nmatrix; i++)
		if (j->matrix[i].key == k)
			return &j->matrix[i];
	return NULL;
}

bool yp_matrix_sweeps(const struct job_spec *j, enum job_key_id k)
{
	return find_dim(j, k) != NULL;
}

int yp_matrix_set_values(struct yp *p, struct job_spec *j, enum job_key_id k, const yaml_node_t *vn)
{
	struct matrix_dim nd = {k, NULL, NULL, 0}, *d = find_dim(j, k), *grown;
	struct job_spec scratch;
	unsigned before = p->nerr;

	if (yp_job_defaults(&scratch) < 0)
		return -ENOMEM;
	parse_values(p, &scratch, &nd, vn);
	spec_job_release(&scratch);
	if (p->nerr != before) {
		dim_release(&nd);
		return -EINVAL;
	}
	if (!d) {
		if (!(grown = realloc(j->matrix, (j->nmatrix + 1) * sizeof(*grown)))) {
			dim_release(&nd);
			return -ENOMEM;
		}
		j->matrix = grown;
		d = &j->matrix[j->nmatrix++];
	} else {
		dim_release(d);
	}
	*d = nd;
	return 0;
}

int yp_matrix_set_one(struct job_spec *j, enum job_key_id k, struct src_loc loc)
{
	struct matrix_dim *d = find_dim(j, k);
	struct key_value v;

	if (!d)
		return 0;
	if (job_key_get(j, k, &v) < 0)
		return -ENOMEM;
	dim_release(d);
	if (add_value(d, &v, loc) < 0) {
		job_key_value_release(&v);
		return -ENOMEM;
	}
	return 0;
}

int yp_parse_point(struct yp *p, const yaml_node_t *m, const char *what, bool allow_job,
		   struct matrix_point *out)
{
	struct job_spec scratch;
	size_t n, o = 0;
	char text[512] = "";

	memset(out, 0, sizeof(*out));
	out->loc = yp_loc(p, m);
	if (!yp_mapping_ok(p, m, what, "keys with one value each"))
		return -1;
	n = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	if (n == 0) {
		yp_err(p, m, what, "names no key");
		return -1;
	}
	if (!(out->kv = calloc(n, sizeof(*out->kv))) || yp_job_defaults(&scratch) < 0)
		return -1;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key), *vn = yp_node(p, pr->value);
		const char *key = (const char *)kn->data.scalar.value;
		const struct job_key *k = job_key_find(key);
		char *vt = yp_text(p, vn, key, "a value");

		if (!vt)
			continue;
		o += (size_t)snprintf(text + o, o < sizeof(text) ? sizeof(text) - o : 0, "%s%s=%s",
				      o ? "," : "", key, vt);
		if (allow_job && !strcmp(key, "job")) {
			free(out->job);
			out->job = vt;
			continue;
		}
		if (!k)
			yp_err(p, kn, key, "not a job key%s", allow_job ? " (nor 'job')" : "");
		else if (typed_value(p, &scratch, (enum job_key_id)job_key_id_of(k), vt, vn,
				     &out->kv[out->n]) == 0)
			out->n++;
		free(vt);
	}
	spec_job_release(&scratch);
	out->text = strdup(text);
	return 0;
}

void yp_parse_exclude(struct yp *p, struct job_spec *j, const yaml_node_t *seq)
{
	struct job_rules *r;
	size_t n;

	if (seq->type != YAML_SEQUENCE_NODE) {
		yp_err(p, seq, "exclude", "expected a list of partial points, got %s",
		       yp_node_kind(seq));
		return;
	}
	n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
	if (!(r = spec_job_rules(j)) || !(r->exclude = calloc(n ? n : 1, sizeof(*r->exclude)))) {
		p->oom = true;
		yp_err(p, seq, "exclude", "out of memory");
		return;
	}
	for (yaml_node_item_t *it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		struct matrix_point *pt = &r->exclude[r->nexclude];
		if (yp_parse_point(p, yp_node(p, *it), "exclude", false, pt) < 0) {
			spec_point_release(pt);
			continue;
		}
		r->nexclude++;
		for (size_t i = 0; i < pt->n; i++) {
			bool in = false;
			for (size_t d = 0; d < j->nmatrix; d++)
				in |= j->matrix[d].key == pt->kv[i].key;
			if (!in)
				yp_err(p, yp_node(p, *it), job_key_row(pt->kv[i].key)->name,
				       "exclude names a key that is not in the matrix");
		}
	}
}
