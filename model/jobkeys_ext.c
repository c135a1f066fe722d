/* The keys beyond the job key table: each backend's options, lent by the layer that knows the
 * backends (engine/io/backends/options.c) at start-up, and the ids they get from JK_NKEYS on
 * (see jobkeys.h). Kept apart from the table so that the model names no backend, and a new
 * backend option is a row in its backend's file, not here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"

struct ext_key {
	const struct job_key *row;
	const char *owner;
	uint64_t def; /* the row's default, typed once when added */
};

/* Written only by job_keys_extend and job_keys_extend_reset, before any job is read. */
static struct ext_key ext[JK_EXT_MAX];
static size_t next;

size_t job_key_count(void)
{
	return JK_NKEYS + next;
}

const struct job_key *job_key_row(enum job_key_id id)
{
	return (size_t)id < JK_NKEYS ? &job_keys[id] : ext[(size_t)id - JK_NKEYS].row;
}

int job_key_id_of(const struct job_key *k)
{
	if (k >= job_keys && k < job_keys + JK_NKEYS)
		return (int)(k - job_keys);
	for (size_t i = 0; i < next; i++)
		if (ext[i].row == k)
			return (int)(JK_NKEYS + i);
	return -1;
}

const char *job_key_owner(enum job_key_id id)
{
	return (size_t)id < JK_NKEYS ? NULL : ext[(size_t)id - JK_NKEYS].owner;
}

size_t job_key_names(const char **names, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < job_key_count() && n < cap; i++)
		names[n++] = job_key_row((enum job_key_id)i)->name;
	return n;
}

/* Is `name` a key already, among the table's or those added (the first `upto` of `rows`)? */
static bool taken(const char *name, const struct job_key *rows, size_t upto)
{
	if (job_key_find(name))
		return true;
	for (size_t i = 0; i < upto; i++)
		if (!strcmp(rows[i].name, name))
			return true;
	return false;
}

/* Can row `k` be a backend option? Its default typed into *def. */
static int row_ok(const char *owner, const struct job_key *k, uint64_t *def, char *err,
		  size_t errlen)
{
	struct key_value v = {0};
	char why[256];

	if (k->type == KT_STRING) {
		snprintf(err, errlen, "option '%s' of %s: a backend option cannot be a string",
			 k->name, owner);
		return -EINVAL;
	}
	if (!k->help || !k->example) {
		snprintf(err, errlen, "option '%s' of %s: it needs a help line and an example",
			 k->name, owner);
		return -EINVAL;
	}
	*def = 0;
	if (k->def && job_key_parse(k, k->def, &v, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "option '%s' of %s: its default '%s' is refused: %s", k->name,
			 owner, k->def, why);
		return -EINVAL;
	}
	*def = v.u;
	return 0;
}

int job_keys_extend(const char *owner, const struct job_key *rows, char *err, size_t errlen)
{
	uint64_t defs[JK_EXT_MAX];
	size_t n = 0;

	for (; rows[n].name; n++) {
		if (next + n >= JK_EXT_MAX) {
			snprintf(
			    err, errlen,
			    "option '%s' of %s: more than %d backend options in all (raise JK_EXT_MAX in model/spec.h)",
			    rows[n].name, owner, JK_EXT_MAX);
			return -E2BIG;
		}
		if (taken(rows[n].name, rows, n)) {
			snprintf(err, errlen, "option '%s' of %s: the name is taken", rows[n].name,
				 owner);
			return -EINVAL;
		}
		if (row_ok(owner, &rows[n], &defs[n], err, errlen) < 0)
			return -EINVAL;
	}
	for (size_t i = 0; i < n; i++)
		ext[next++] = (struct ext_key){&rows[i], owner, defs[i]};
	return 0;
}

void job_keys_extend_reset(void)
{
	next = 0;
}

/* Where job `j` holds option `id`: its slot, or -1 when it does not set it. */
static int opt_slot(const struct job_opts *o, enum job_key_id id)
{
	for (int i = 0; i < o->n; i++)
		if (o->v[i].key == (uint16_t)id)
			return i;
	return -1;
}

uint64_t job_opt_get(const struct job_spec *j, enum job_key_id id)
{
	int i = opt_slot(&j->opts, id);

	return i >= 0 ? j->opts.v[i].val : ext[(size_t)id - JK_NKEYS].def;
}

/* Room in `o` for `n` options, its own: borrowed ones copied. */
static int opts_own(struct job_opts *o, size_t n)
{
	struct job_opt *v;

	if (o->own) {
		if (!(v = realloc(o->v, n * sizeof(*v))))
			return -ENOMEM;
	} else {
		if (!(v = malloc(n * sizeof(*v))))
			return -ENOMEM;
		if (o->n)
			memcpy(v, o->v, o->n * sizeof(*v));
	}
	o->v = v;
	o->own = true;
	return 0;
}

int job_opt_put(struct job_spec *j, enum job_key_id id, uint64_t u)
{
	struct job_opts *o = &j->opts;
	int i = opt_slot(o, id);

	if (i < 0 && o->n == JOB_OPTS_MAX)
		return -E2BIG;
	if ((i < 0 || !o->own) && opts_own(o, i < 0 ? o->n + 1U : o->n) < 0)
		return -ENOMEM;
	if (i < 0) {
		i = o->n++;
		o->v[i].key = (uint16_t)id;
	}
	o->v[i].val = u;
	return 0;
}
