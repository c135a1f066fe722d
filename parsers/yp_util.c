/* Helpers that walk libyaml's document for the job-file parser (see yp.h). */
#include "parsers/yp.h"
#include "model/fio_names.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"
#include "parsers/jobfile.h" /* struct yp_options */

struct src_loc yp_loc(const struct yp *p, const yaml_node_t *n)
{
	if (p->from_set)
		return (struct src_loc){"--set", 0, 0};
	struct src_loc l = {p->file, (unsigned)n->start_mark.line + 1,
			    (unsigned)n->start_mark.column + 1};
	return l;
}

void yp_err(struct yp *p, const yaml_node_t *n, const char *key, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	struct src_loc l = n && !p->from_set ? yp_loc(p, n) : (struct src_loc){p->file, 0, 0};

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (key)
		diag_add(p->d, &l, "key '%s': %s", key, msg);
	else
		diag_add(p->d, &l, "%s", msg);
	p->nerr++;
}

yaml_node_t *yp_node(const struct yp *p, int id)
{
	return yaml_document_get_node(p->doc, id);
}

const char *yp_node_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_MAPPING_NODE:
		return "a mapping";
	case YAML_SEQUENCE_NODE:
		return "a list";
	default:
		return "a value";
	}
}

/* An empty or '~' plain scalar unsets a string key. The word 'null' is not taken as YAML's
 * null: `backend: null` names the null backend, as fio's ioengine=null does. */
bool yp_scalar_is_null(const yaml_node_t *n)
{
	const char *v = (const char *)n->data.scalar.value;

	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return !*v || !strcmp(v, "~");
}

static const char *yp_getenv(const char *name, void *arg)
{
	const struct yp_options *o = arg;
	return o->getenv ? o->getenv(name, o->getenv_arg) : getenv(name);
}

/* The scalar's text with ${VAR} expanded; NULL (after reporting) when it is not a scalar or
 * the expansion fails. The caller frees. */
char *yp_text(struct yp *p, const yaml_node_t *n, const char *key, const char *want)
{
	struct expand_ctx ec = {p->opt->builtins, p->opt->nbuiltins, yp_getenv, (void *)p->opt};
	char err[256], *out = NULL;
	int ret;

	if (n->type != YAML_SCALAR_NODE) {
		yp_err(p, n, key, "expected %s, got %s", want, yp_node_kind(n));
		return NULL;
	}
	if (p->from_set) {
		if (!(out = strdup((const char *)n->data.scalar.value))) {
			p->oom = true;
			yp_err(p, n, key, "out of memory");
		}
		return out;
	}
	if ((ret = expand_vars((const char *)n->data.scalar.value, &out, &ec, err, sizeof(err))) <
	    0) {
		p->oom |= ret == -ENOMEM;
		yp_err(p, n, key, "%s", err);
		return NULL;
	}
	return out;
}

static bool yp_in_keys(const char *name, const char *const *keys)
{
	for (int i = 0; name && keys[i]; i++)
		if (!strcmp(keys[i], name))
			return true;
	return false;
}

/* A fio option name where iotrial wants a job key: name the iotrial key, or say why there
 * is none (model/fio_names.h, the importer's table). false when `name` is no fio option, or
 * `keys` are not job keys. */
static bool yp_fio_key_hint(struct yp *p, const yaml_node_t *kn, const char *name,
			    const char *const *keys, const char *where)
{
	const struct fio_name *fn = fio_name_find(name);

	if (!fn || !yp_in_keys("block_size", keys))
		return false;
	if (yp_in_keys(fn->key, keys))
		yp_err(p, kn, name, "unknown key%s (did you mean '%s'? '%s' is fio's name for it)",
		       where, fn->key, name);
	else if (fn->conv == FC_NOTE)
		yp_err(p, kn, name,
		       "unknown key%s ('%s' is a fio option that iotrial needs no key for: %s)",
		       where, name, fn->why);
	else
		yp_err(
		    p, kn, name,
		    "unknown key%s ('%s' is a fio option that iotrial has no key for%s%s%s; see docs/fio.md)",
		    where, name, fn->why || fn->pending ? ": " : "",
		    fn->why	  ? fn->why
		    : fn->pending ? "not yet, "
				  : "",
		    fn->why	  ? ""
		    : fn->pending ? fn->pending
				  : "");
	return true;
}

/* Find `name` among the NULL-terminated `keys`; report an unknown key with a suggestion. */
int yp_key_index(struct yp *p, const yaml_node_t *kn, const char *const *keys, const char *where)
{
	const char *name = (const char *)kn->data.scalar.value;
	const char *near;

	for (int i = 0; keys[i]; i++)
		if (!strcmp(keys[i], name))
			return i;
	if (yp_fio_key_hint(p, kn, name, keys, where))
		return -1;
	near = job_key_suggest(name, keys);
	if (near)
		yp_err(p, kn, name, "unknown key%s (did you mean '%s'?)", where, near);
	else
		yp_err(p, kn, name, "unknown key%s", where);
	return -1;
}

struct key_at {
	const char *name;
	size_t at; /* the pair's index in its mapping */
};

static int by_name(const void *a, const void *b)
{
	const struct key_at *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->at > y->at) - (x->at < y->at);
}

static const char *key_name(const struct yp *p, const yaml_node_t *m, size_t i)
{
	yaml_node_t *kn = yp_node(p, m->data.mapping.pairs.start[i].key);

	return kn->type == YAML_SCALAR_NODE ? (const char *)kn->data.scalar.value : NULL;
}

/* For each pair, the index of the first pair with the same key (itself when none); from a
 * sorted index, n log n. NULL when memory runs out. */
static size_t *first_copies(const struct yp *p, const yaml_node_t *m, size_t n)
{
	struct key_at *idx = malloc((n ? n : 1) * sizeof(*idx));
	size_t *first = malloc((n ? n : 1) * sizeof(*first)), k = 0;

	if (!idx || !first) {
		free(idx);
		free(first);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		first[i] = i;
		if (key_name(p, m, i))
			idx[k++] = (struct key_at){key_name(p, m, i), i};
	}
	qsort(idx, k, sizeof(*idx), by_name);
	for (size_t i = 1; i < k; i++)
		if (!strcmp(idx[i].name, idx[i - 1].name))
			first[idx[i].at] = first[idx[i - 1].at];
	free(idx);
	return first;
}

/* Drop the pairs of `m` whose key is not a name or repeats an earlier one, keeping the first
 * copy: yp_mapping_ok reported them, and every caller then reads a mapping without them.
 * The document is the parser's own, so its mapping may be changed (const only for readers). */
static void drop_bad_pairs(const struct yp *p, const yaml_node_t *m, const size_t *first)
{
	yaml_node_pair_t *pairs = ((yaml_node_t *)m)->data.mapping.pairs.start;
	size_t n = (size_t)(m->data.mapping.pairs.top - pairs), out = 0;

	for (size_t i = 0; i < n; i++) {
		const char *name = key_name(p, m, i);
		size_t f = 0;

		if (!name || (first && first[i] != i))
			continue;
		/* Without the index (memory ran out), one by one among those kept. */
		while (!first && f < out && strcmp(key_name(p, m, f), name))
			f++;
		if (!first && f < out)
			continue;
		pairs[out++] = pairs[i];
	}
	((yaml_node_t *)m)->data.mapping.pairs.top = pairs + out;
}

/* Check a mapping's keys are scalars and unique; false (after reporting) when it is not a
 * mapping. A key that is not a name, and each copy of a repeated one, is reported and then
 * dropped (the first copy stays), so that the rest of the mapping is still read and every
 * other error in it reported. Each repeated key is reported once, at the copy, naming the
 * first: not once per earlier copy (n^2 messages), and found in n log n, so that a mapping
 * of a million keys is no hang. Short of memory for the index, the copies are looked for
 * one by one: the same answer. */
bool yp_mapping_ok(struct yp *p, const yaml_node_t *m, const char *key, const char *what)
{
	size_t n, *first;
	bool bad = false;

	if (m->type != YAML_MAPPING_NODE) {
		yp_err(p, m, key, "expected %s (a mapping), got %s", what, yp_node_kind(m));
		return false;
	}
	n = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	first = first_copies(p, m, n);
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *kn = yp_node(p, m->data.mapping.pairs.start[i].key);
		const char *name = key_name(p, m, i);
		size_t f = first ? first[i] : 0;

		if (!name) {
			yp_err(p, kn, NULL, "a key%s%s%s must be a plain name, got %s",
			       key ? " in '" : "", key ? key : "", key ? "'" : "",
			       yp_node_kind(kn));
			bad = true;
			continue;
		}
		while (!first && f < i && !(key_name(p, m, f) && !strcmp(key_name(p, m, f), name)))
			f++;
		if (f != i) {
			yaml_node_t *kf = yp_node(p, m->data.mapping.pairs.start[f].key);
			yp_err(p, kn, name, "duplicate key (first set at line %lu)",
			       (unsigned long)kf->start_mark.line + 1);
			bad = true;
		}
	}
	if (bad)
		drop_bad_pairs(p, m, first);
	free(first);
	return true;
}

void yp_enum_list(char *buf, size_t len, const char *const *names)
{
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; names[i] && o < len; i++)
		o += snprintf(buf + o, len - o, "%s%s", i ? ", " : "", names[i]);
}

bool yp_has_key(const struct yp *p, const yaml_node_t *m, const char *key)
{
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key);
		if (kn->type == YAML_SCALAR_NODE && !strcmp((char *)kn->data.scalar.value, key))
			return true;
	}
	return false;
}

bool yp_name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' || *s == '.'))
			return false;
	return true;
}

int yp_experiment_ok(const char *text, char *err, size_t errlen)
{
	size_t n = strlen(text);

	if (!yp_name_ok(text))
		snprintf(err, errlen,
			 "'%s' is not an experiment name (letters, digits, '_', '-', '.')", text);
	else if (n > SPEC_EXPERIMENT_MAX)
		/* Else validate passes it and run cannot make results/<experiment>-<time>/. */
		snprintf(
		    err, errlen,
		    "'%.48s...' has %zu bytes, too long for the result folder named after it (results/<experiment>-<UTC time>/): an experiment name has at most %d",
		    text, n, SPEC_EXPERIMENT_MAX);
	else
		return 0;
	return -EINVAL;
}
