/* YAML job file → experiment spec (see jobfile.h). libyaml loads the document; this file
 * walks it, expands variables in every scalar, types each value through the job key table
 * and reports every problem with its position. Defaults apply in layers: the key table,
 * then `defaults:`, then the job's own keys, then --set. */
#include "parsers/jobfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "engine/jobkeys.h"
#include "engine/sha256.h"
#include "parsers/units.h"

#define MAX_JOBS 4096
#define MAX_DEVICES 256
#define MAX_RUNS 1000000

struct yp {
	const char *file;
	yaml_document_t *doc;
	struct diag *d;
	const struct yp_options *opt;
	unsigned nerr;
};

static const char *const top_keys[] = {"experiment", "description", "units", "seed", "devices",
				       "defaults", "replication", "jobs", NULL};
static const char *const rep_keys[] = {"runs", "warmup", "confidence", "error", "order", NULL};
static const char *const device_keys[] = {"path", NULL};
static const char *const units_names[] = {"decimal", "binary", NULL};
static const char *const order_names[] = {"interleaved", "sequential", NULL};

static struct src_loc loc_of(const struct yp *p, const yaml_node_t *n)
{
	struct src_loc l = {p->file, (unsigned)n->start_mark.line + 1,
			    (unsigned)n->start_mark.column + 1};
	return l;
}

static void err_at(struct yp *p, const yaml_node_t *n, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void err_at(struct yp *p, const yaml_node_t *n, const char *key, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	struct src_loc l = n ? loc_of(p, n) : (struct src_loc){p->file, 0, 0};

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (key)
		diag_add(p->d, &l, "key '%s': %s", key, msg);
	else
		diag_add(p->d, &l, "%s", msg);
	p->nerr++;
}

static yaml_node_t *node(const struct yp *p, int id)
{
	return yaml_document_get_node(p->doc, id);
}

static const char *node_kind(const yaml_node_t *n)
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
static bool scalar_is_null(const yaml_node_t *n)
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
static char *scalar_text(struct yp *p, const yaml_node_t *n, const char *key, const char *want)
{
	struct expand_ctx ec = {p->opt->builtins, p->opt->nbuiltins, yp_getenv, (void *)p->opt};
	char err[256], *out = NULL;

	if (n->type != YAML_SCALAR_NODE) {
		err_at(p, n, key, "expected %s, got %s", want, node_kind(n));
		return NULL;
	}
	if (expand_vars((const char *)n->data.scalar.value, &out, &ec, err, sizeof(err)) < 0) {
		err_at(p, n, key, "%s", err);
		return NULL;
	}
	return out;
}

/* Find `name` among the NULL-terminated `keys`; report an unknown key with a suggestion. */
static int key_index(struct yp *p, const yaml_node_t *kn, const char *const *keys,
		     const char *where)
{
	const char *name = (const char *)kn->data.scalar.value;
	const char *near;

	for (int i = 0; keys[i]; i++)
		if (!strcmp(keys[i], name))
			return i;
	near = job_key_suggest(name, keys);
	if (near)
		err_at(p, kn, name, "unknown key%s (did you mean '%s'?)", where, near);
	else
		err_at(p, kn, name, "unknown key%s", where);
	return -1;
}

/* Check a mapping's keys are scalars and unique; false (after reporting) when not. */
static bool mapping_ok(struct yp *p, const yaml_node_t *m, const char *key, const char *what)
{
	bool ok = true;

	if (m->type != YAML_MAPPING_NODE) {
		err_at(p, m, key, "expected %s (a mapping), got %s", what, node_kind(m));
		return false;
	}
	for (yaml_node_pair_t *a = m->data.mapping.pairs.start; a < m->data.mapping.pairs.top; a++) {
		yaml_node_t *ka = node(p, a->key);
		if (ka->type != YAML_SCALAR_NODE) {
			err_at(p, ka, key, "keys must be plain names, got %s", node_kind(ka));
			ok = false;
			continue;
		}
		for (yaml_node_pair_t *b = m->data.mapping.pairs.start; b < a; b++) {
			yaml_node_t *kb = node(p, b->key);
			if (kb->type == YAML_SCALAR_NODE &&
			    !strcmp((char *)ka->data.scalar.value, (char *)kb->data.scalar.value)) {
				err_at(p, ka, (char *)ka->data.scalar.value,
				       "duplicate key (first set at line %lu)",
				       (unsigned long)kb->start_mark.line + 1);
				ok = false;
			}
		}
	}
	return ok;
}

static int enum_index(const char *const *names, const char *v)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], v))
			return i;
	return -1;
}

static void enum_list(char *buf, size_t len, const char *const *names)
{
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; names[i] && o < len; i++)
		o += snprintf(buf + o, len - o, "%s%s", i ? ", " : "", names[i]);
}

int yp_set_job_key(struct job_spec *j, enum job_key_id id, const char *text, char *err,
		   size_t errlen)
{
	const struct job_key *k = &job_keys[id];
	void *field = (char *)j + k->off;
	const char *why = NULL;
	uint64_t u = 0;
	bool b;
	int idx;

	switch (k->type) {
	case KT_STRING: {
		char *s = strdup(text);
		if (!s)
			return -ENOMEM;
		free(*(char **)field);
		*(char **)field = s;
		return 0;
	}
	case KT_ENUM: {
		char list[256];
		idx = enum_index(k->enums, text);
		if (idx >= 0) {
			*(int *)field = idx;
			return 0;
		}
		enum_list(list, sizeof(list), k->enums);
		const char *near = job_key_suggest(text, k->enums);
		if (near)
			snprintf(err, errlen, "unknown value '%s' (did you mean '%s'? expected one of: %s)",
				 text, near, list);
		else
			snprintf(err, errlen, "unknown value '%s' (expected one of: %s)", text, list);
		return -EINVAL;
	}
	case KT_BOOL:
		if (units_parse_bool(text, &b, &why) < 0) {
			snprintf(err, errlen, "expected true or false, got '%s'", text);
			return -EINVAL;
		}
		*(bool *)field = b;
		return 0;
	case KT_SIZE:
		if (units_parse_size(text, &u, &why) < 0) {
			snprintf(err, errlen, "expected a size like 4KiB or 80MB, got '%s' (%s)", text, why);
			return -EINVAL;
		}
		break;
	case KT_DURATION:
		if (units_parse_duration(text, &u, &why) < 0) {
			snprintf(err, errlen, "expected a duration like 100ms or 60s, got '%s' (%s)", text,
				 why);
			return -EINVAL;
		}
		break;
	case KT_UINT:
		if (units_parse_uint(text, &u, &why) < 0) {
			snprintf(err, errlen, "expected a whole number, got '%s' (%s)", text, why);
			return -EINVAL;
		}
		break;
	}
	if (u < k->min || u > k->max) {
		if (k->type == KT_SIZE && u < k->min && k->min == 1)
			snprintf(err, errlen, "must be more than 0 bytes, got '%s'", text);
		else if (k->type == KT_SIZE && u < k->min)
			snprintf(err, errlen, "must be at least %llu bytes, got '%s'",
				 (unsigned long long)k->min, text);
		else if (k->type == KT_SIZE)
			snprintf(err, errlen, "must be at most %llu bytes, got '%s'",
				 (unsigned long long)k->max, text);
		else
			snprintf(err, errlen, "must be between %llu and %llu, got '%s'",
				 (unsigned long long)k->min, (unsigned long long)k->max, text);
		return -ERANGE;
	}
	if (k->type == KT_UINT)
		*(uint32_t *)field = (uint32_t)u;
	else
		*(uint64_t *)field = u;
	return 0;
}

static int job_defaults(struct job_spec *j)
{
	char err[256];

	memset(j, 0, sizeof(*j));
	for (int i = 0; i < JK_NKEYS; i++)
		if (job_keys[i].def && yp_set_job_key(j, i, job_keys[i].def, err, sizeof(err)) < 0)
			return -ENOMEM;
	return 0;
}

/* Apply the keys of mapping `m` to job `j`; `allow_name` for entries of `jobs:`. */
static void job_apply(struct yp *p, struct job_spec *j, const yaml_node_t *m, bool allow_name)
{
	static const char *names[JK_NKEYS + 2];

	if (!names[0]) {
		for (int i = 0; i < JK_NKEYS; i++)
			names[i] = job_keys[i].name;
		names[JK_NKEYS] = "name";
	}
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = node(p, pr->key), *vn = node(p, pr->value);
		const char *key = (const char *)kn->data.scalar.value;
		char err[512], *text;
		int i;

		if (kn->type != YAML_SCALAR_NODE)
			continue;
		if (!strcmp(key, "name") && allow_name)
			continue;
		i = key_index(p, kn, names, allow_name ? "" : " in defaults");
		if (i < 0)
			continue;
		if (i == JK_NKEYS) {
			err_at(p, kn, key, "a job's name is set on the job, not in defaults");
			continue;
		}
		if (job_keys[i].type == KT_STRING && scalar_is_null(vn)) {
			free(*(char **)((char *)j + job_keys[i].off));
			*(char **)((char *)j + job_keys[i].off) = NULL;
			j->key_loc[i] = loc_of(p, vn);
			continue;
		}
		text = scalar_text(p, vn, key, "a value");
		if (!text)
			continue;
		if (yp_set_job_key(j, i, text, err, sizeof(err)) < 0)
			err_at(p, vn, key, "%s", err);
		else
			j->key_loc[i] = loc_of(p, vn);
		free(text);
	}
}

static bool has_key(const struct yp *p, const yaml_node_t *m, const char *key)
{
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = node(p, pr->key);
		if (kn->type == YAML_SCALAR_NODE && !strcmp((char *)kn->data.scalar.value, key))
			return true;
	}
	return false;
}

static bool name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-' || *s == '.'))
			return false;
	return true;
}

static void parse_jobs(struct yp *p, struct exp_spec *s, const yaml_node_t *seq,
		       const struct job_spec *tmpl)
{
	size_t n;

	if (seq->type != YAML_SEQUENCE_NODE) {
		err_at(p, seq, "jobs", "expected a list of jobs, got %s", node_kind(seq));
		return;
	}
	n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
	if (n == 0) {
		err_at(p, seq, "jobs", "the list is empty: an experiment needs at least one job");
		return;
	}
	if (n > MAX_JOBS) {
		err_at(p, seq, "jobs", "%zu jobs is more than the limit of %d", n, MAX_JOBS);
		return;
	}
	s->jobs = calloc(n, sizeof(*s->jobs));
	if (!s->jobs)
		return;
	for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top;
	     it++) {
		yaml_node_t *m = node(p, *it);
		struct job_spec *j = &s->jobs[s->njobs];
		char *name = NULL;

		if (!mapping_ok(p, m, "jobs", "a job"))
			continue;
		if (spec_job_copy(j, tmpl) < 0)
			return;
		s->njobs++;
		j->loc = loc_of(p, m);
		for (yaml_node_pair_t *pr = m->data.mapping.pairs.start;
		     pr < m->data.mapping.pairs.top; pr++) {
			yaml_node_t *kn = node(p, pr->key);
			if (kn->type == YAML_SCALAR_NODE && !strcmp((char *)kn->data.scalar.value, "name")) {
				name = scalar_text(p, node(p, pr->value), "name", "a job name");
				if (name && !name_ok(name)) {
					err_at(p, node(p, pr->value), "name",
					       "'%s' is not a job name (letters, digits, '_', '-', '.')",
					       name);
				}
			}
		}
		if (!name) {
			char buf[32];
			snprintf(buf, sizeof(buf), "job%zu", s->njobs);
			name = strdup(buf);
		}
		for (size_t k = 0; k + 1 < s->njobs && name; k++)
			if (s->jobs[k].name && !strcmp(s->jobs[k].name, name))
				err_at(p, m, "name", "job name '%s' is used twice (also at line %u)", name,
				       s->jobs[k].loc.line);
		j->name = name;
		job_apply(p, j, m, true);
		if (!has_key(p, m, "workload") && !tmpl->key_loc[JK_WORKLOAD].line)
			err_at(p, m, "workload",
			       "job '%s' has no workload (read, write, randread, randwrite or copy)",
			       j->name ? j->name : "?");
	}
}

static void parse_devices(struct yp *p, struct exp_spec *s, const yaml_node_t *m)
{
	size_t n;

	if (!mapping_ok(p, m, "devices", "devices by name"))
		return;
	n = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	if (n > MAX_DEVICES) {
		err_at(p, m, "devices", "%zu devices is more than the limit of %d", n, MAX_DEVICES);
		return;
	}
	s->devices = calloc(n ? n : 1, sizeof(*s->devices));
	if (!s->devices)
		return;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = node(p, pr->key), *vn = node(p, pr->value);
		const char *name = (const char *)kn->data.scalar.value;
		char *path = NULL;

		if (!name_ok(name)) {
			err_at(p, kn, name, "not a device name (letters, digits, '_', '-', '.')");
			continue;
		}
		if (vn->type == YAML_SCALAR_NODE) {
			path = scalar_text(p, vn, name, "a path");
		} else if (mapping_ok(p, vn, name, "a device")) {
			for (yaml_node_pair_t *q = vn->data.mapping.pairs.start;
			     q < vn->data.mapping.pairs.top; q++) {
				yaml_node_t *qk = node(p, q->key);
				if (key_index(p, qk, device_keys, " in a device") == 0) {
					free(path);
					path = scalar_text(p, node(p, q->value), "path", "a path");
				}
			}
			if (!path && !p->nerr)
				err_at(p, vn, name, "a device needs a path");
		}
		if (!path)
			continue;
		if (!*path) {
			err_at(p, vn, name, "the device path is empty");
			free(path);
			continue;
		}
		s->devices[s->ndevices].name = strdup(name);
		s->devices[s->ndevices].path = path;
		s->devices[s->ndevices].loc = loc_of(p, vn);
		s->ndevices++;
	}
}

static int set_rep_key(struct replication_spec *r, int i, const char *text, char *err,
		       size_t errlen)
{
	const char *why = NULL;
	uint64_t u;
	double x;
	int idx;

	switch (i) {
	case 0: /* runs */
	case 1: /* warmup */
		if (units_parse_uint(text, &u, &why) < 0) {
			snprintf(err, errlen, "expected a whole number, got '%s' (%s)", text, why);
			return -EINVAL;
		}
		if ((i == 0 && (u < 1 || u > MAX_RUNS)) || (i == 1 && u > MAX_RUNS)) {
			snprintf(err, errlen, "must be between %d and %d, got '%s'", i == 0, MAX_RUNS,
				 text);
			return -ERANGE;
		}
		*(i == 0 ? &r->runs : &r->warmup) = (uint32_t)u;
		return 0;
	case 2: /* confidence */
	case 3: /* error */
		if (units_parse_double(text, &x, &why) < 0) {
			snprintf(err, errlen, "expected a fraction like 0.95 or 95%%, got '%s'", text);
			return -EINVAL;
		}
		if (!(x > 0 && x < 1)) {
			snprintf(err, errlen, "must be between 0 and 1 (exclusive), got '%s'", text);
			return -ERANGE;
		}
		*(i == 2 ? &r->confidence : &r->error) = x;
		return 0;
	case 4: /* order */
		idx = enum_index(order_names, text);
		if (idx < 0) {
			snprintf(err, errlen, "unknown value '%s' (expected interleaved or sequential)",
				 text);
			return -EINVAL;
		}
		r->order = (enum spec_order)idx;
		return 0;
	}
	return -EINVAL;
}

static void parse_replication(struct yp *p, struct exp_spec *s, const yaml_node_t *m)
{
	if (!mapping_ok(p, m, "replication", "replication settings"))
		return;
	s->rep_loc = loc_of(p, m);
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top; pr++) {
		yaml_node_t *kn = node(p, pr->key), *vn = node(p, pr->value);
		const char *key = (const char *)kn->data.scalar.value;
		char err[256], *text;
		int i = key_index(p, kn, rep_keys, " in replication");

		if (i < 0 || !(text = scalar_text(p, vn, key, "a value")))
			continue;
		if (set_rep_key(&s->rep, i, text, err, sizeof(err)) < 0)
			err_at(p, vn, key, "%s", err);
		free(text);
	}
}

/* experiment, description, units or seed from its text; takes `text`. */
static int set_top_key(struct exp_spec *s, int i, char *text, char *err, size_t errlen)
{
	const char *why;
	int idx, ret = 0;

	switch (i) {
	case 0:
		if (!name_ok(text)) {
			snprintf(err, errlen,
				 "'%s' is not an experiment name (letters, digits, '_', '-', '.')", text);
			ret = -EINVAL;
			break;
		}
		free(s->experiment);
		s->experiment = text;
		return 0;
	case 1:
		free(s->description);
		s->description = text;
		return 0;
	case 2:
		idx = enum_index(units_names, text);
		if (idx < 0) {
			snprintf(err, errlen, "unknown value '%s' (expected decimal or binary)", text);
			ret = -EINVAL;
		} else {
			s->units = (enum spec_units)idx;
		}
		break;
	case 3:
		if (units_parse_uint(text, &s->seed, &why) < 0) {
			snprintf(err, errlen, "expected a whole number, got '%s' (%s)", text, why);
			ret = -EINVAL;
		} else if (s->seed >= (1ull << 53)) {
			/* JSON readers keep integers exact only up to 2^53. */
			snprintf(err, errlen, "must be below 2^53 (9007199254740992), got '%s'", text);
			ret = -ERANGE;
		} else {
			s->seed_set = true;
		}
		break;
	}
	free(text);
	return ret;
}

static void parse_top_scalar(struct yp *p, struct exp_spec *s, int i, const yaml_node_t *vn)
{
	char err[512], *text = scalar_text(p, vn, top_keys[i], "a value");

	if (text && set_top_key(s, i, text, err, sizeof(err)) < 0)
		err_at(p, vn, top_keys[i], "%s", err);
}

/* --set KEY=VALUE: top-level scalars, replication.K, K or defaults.K (every job), JOB.K. */
static void apply_override(struct yp *p, struct exp_spec *s, const struct spec_override *o)
{
	struct src_loc l = {"--set", 0, 0};
	char err[512], where[300];
	const char *key = o->key, *dot = strchr(key, '.');
	const struct job_key *k;
	int i;

	snprintf(where, sizeof(where), "--set '%s=%s'", o->key, o->value);
	l.file = where;
	if (!dot) {
		i = enum_index(top_keys, key);
		if (i >= 0 && i <= 3) {
			char *text = strdup(o->value);
			if (text && set_top_key(s, i, text, err, sizeof(err)) < 0) {
				diag_add(p->d, &l, "key '%s': %s", key, err);
				p->nerr++;
			}
			return;
		}
	}
	if (dot && (size_t)(dot - key) == strlen("replication") && !strncmp(key, "replication", 11)) {
		i = enum_index(rep_keys, dot + 1);
		if (i < 0 || set_rep_key(&s->rep, i, o->value, err, sizeof(err)) < 0) {
			diag_add(p->d, &l, "%s", i < 0 ? "unknown replication key" : err);
			p->nerr++;
		}
		return;
	}
	const char *kname = dot ? dot + 1 : key;
	size_t jlen = dot ? (size_t)(dot - key) : 0;
	bool all = !dot || (jlen == 8 && !strncmp(key, "defaults", 8));
	bool matched = false;

	k = job_key_find(kname);
	if (!k) {
		diag_add(p->d, &l, "unknown key '%s'", kname);
		p->nerr++;
		return;
	}
	for (size_t j = 0; j < s->njobs; j++) {
		if (!all && (strlen(s->jobs[j].name) != jlen || strncmp(s->jobs[j].name, key, jlen)))
			continue;
		matched = true;
		if (yp_set_job_key(&s->jobs[j], (enum job_key_id)(k - job_keys), o->value, err,
				   sizeof(err)) < 0) {
			diag_add(p->d, &l, "key '%s': %s", kname, err);
			p->nerr++;
			return;
		}
		s->jobs[j].key_loc[k - job_keys] = l;
		s->jobs[j].key_loc[k - job_keys].file = "--set";
	}
	if (!matched) {
		diag_add(p->d, &l, "no job is named '%.*s'", (int)jlen, key);
		p->nerr++;
	}
}

static void parse_root(struct yp *p, struct exp_spec *s, const yaml_node_t *root)
{
	const yaml_node_t *by_key[8] = {0};
	struct job_spec tmpl;

	if (!mapping_ok(p, root, NULL, "a job file"))
		return;
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top;
	     pr++) {
		int i = key_index(p, node(p, pr->key), top_keys, "");
		if (i >= 0)
			by_key[i] = node(p, pr->value);
	}
	for (int i = 0; i <= 3; i++)
		if (by_key[i])
			parse_top_scalar(p, s, i, by_key[i]);
	if (by_key[4])
		parse_devices(p, s, by_key[4]);
	if (by_key[6])
		parse_replication(p, s, by_key[6]);
	if (job_defaults(&tmpl) < 0)
		return;
	if (by_key[5] && mapping_ok(p, by_key[5], "defaults", "job keys"))
		job_apply(p, &tmpl, by_key[5], false);
	if (by_key[7])
		parse_jobs(p, s, by_key[7], &tmpl);
	else
		err_at(p, root, "jobs", "missing: an experiment needs a list of jobs");
	spec_job_release(&tmpl);
	for (size_t i = 0; i < p->opt->noverrides && s->jobs; i++)
		apply_override(p, s, &p->opt->overrides[i]);
}

static char *default_experiment_name(const char *path)
{
	const char *base = strrchr(path, '/');
	char *name = strdup(base ? base + 1 : path);
	char *dot;

	if (!name)
		return NULL;
	dot = strrchr(name, '.');
	if (dot && dot != name)
		*dot = 0;
	for (char *c = name; *c; c++)
		if (!name_ok((char[]){*c, 0}))
			*c = '_';
	return name;
}

int yp_load_string(const char *name, const char *text, size_t len, const struct yp_options *opt,
		   struct exp_spec *out, struct diag *d)
{
	static const struct yp_options none;
	yaml_parser_t parser;
	yaml_document_t doc;
	struct yp p = {name, &doc, d, opt ? opt : &none, 0};
	yaml_node_t *root;

	memset(out, 0, sizeof(*out));
	out->units = UNITS_DECIMAL;
	out->rep = (struct replication_spec){1, 0, 0.95, 0.03, ORDER_INTERLEAVED};
	out->path = strdup(name);
	sha256_hex(text, len, out->sha256);
	for (size_t i = 0; i < p.opt->noverrides; i++) {
		out->overrides = realloc(out->overrides, (i + 1) * sizeof(*out->overrides));
		out->overrides[i].key = strdup(p.opt->overrides[i].key);
		out->overrides[i].value = strdup(p.opt->overrides[i].value);
		out->noverrides = i + 1;
	}

	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		struct src_loc l = {name, (unsigned)parser.problem_mark.line + 1,
				    (unsigned)parser.problem_mark.column + 1};
		if (parser.context)
			diag_add(d, &l, "yaml: %s %s", parser.problem ? parser.problem : "syntax error",
				 parser.context);
		else
			diag_add(d, &l, "yaml: %s", parser.problem ? parser.problem : "syntax error");
		yaml_parser_delete(&parser);
		spec_release(out);
		return -EINVAL;
	}
	root = yaml_document_get_root_node(&doc);
	if (!root) {
		struct src_loc l = {name, 1, 1};
		diag_add(d, &l, "the job file is empty");
		p.nerr++;
	} else {
		parse_root(&p, out, root);
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (!out->experiment)
		out->experiment = default_experiment_name(name);
	if (p.nerr) {
		spec_release(out);
		return -EINVAL;
	}
	return 0;
}

int yp_load_file(const char *path, const struct yp_options *opt, struct exp_spec *out,
		 struct diag *d)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!f) {
		ret = -errno;
		diag_add(d, NULL, "%s: cannot open job file: %s", path, strerror(-ret));
		return ret;
	}
	do {
		if (len + 65536 > cap) {
			char *nb;
			cap = cap ? 2 * cap : 65536;
			if (cap > (64u << 20) || !(nb = realloc(buf, cap))) {
				diag_add(d, NULL, "%s: job file too large (limit 64 MiB)", path);
				free(buf);
				fclose(f);
				return -EFBIG;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		ret = -EIO;
		diag_add(d, NULL, "%s: cannot read job file: %s", path, strerror(EIO));
		free(buf);
		fclose(f);
		return ret;
	}
	fclose(f);
	ret = yp_load_string(path, buf ? buf : "", len, opt, out, d);
	free(buf);
	return ret;
}
