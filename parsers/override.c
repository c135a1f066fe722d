/* --set KEY=VALUE (docs/jobfile.md#--set): one override applied to the parsed spec, in the
 * order given. KEY is a top-level scalar, replication.K, a job key K (every job), JOB.K,
 * JOB.replication.K, or matrix.K / JOB.matrix.K with a YAML list or range as the value. A
 * plain key that a job's matrix sweeps replaces the sweep by its one value: someone who
 * sets block_size on the command line wants that block size, not the file's list. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "model/fio_names.h"
#include "model/jobkeys.h"
#include "parsers/yp.h"

/* What KEY addresses: every job (job NULL) or the job named by its first part, and the
 * key after that part ("block_size", "replication.runs", "matrix.block_size"). */
struct address {
	const char *job;
	size_t jlen;
	const char *kname;
};

static void override_error(struct yp *p, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void override_error(struct yp *p, const char *where, const char *fmt, ...)
{
	struct src_loc l = {where, 0, 0};
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_add(p->d, &l, "%s", msg);
	p->nerr++;
}

static bool part_is(const char *key, size_t n, const char *word)
{
	return strlen(word) == n && !strncmp(key, word, n);
}

static void split_key(const char *key, struct address *a)
{
	const char *dot = strchr(key, '.');
	size_t n = dot ? (size_t)(dot - key) : 0;

	a->job = NULL;
	a->jlen = 0;
	a->kname = key;
	if (!dot || part_is(key, n, "replication") || part_is(key, n, "matrix"))
		return; /* K, replication.K, matrix.K: every job */
	a->kname = dot + 1;
	if (part_is(key, n, "defaults"))
		return;
	a->job = key;
	a->jlen = n;
}

static bool addressed(const struct address *a, const struct job_spec *j)
{
	return !a->job || (strlen(j->name) == a->jlen && !strncmp(j->name, a->job, a->jlen));
}

static bool prefixed(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* A replication key's value refused, named as a job file's error names it (key 'runs');
 * a name that is no replication key says so itself. */
static void rep_error(struct yp *p, const char *where, const char *kname, int ret, const char *err)
{
	if (ret == -ENOENT)
		override_error(p, where, "%s", err);
	else
		override_error(p, where, "key '%s': %s", kname, err);
}

/* An unknown key, with the spelling it most likely meant. */
static void unknown_key(struct yp *p, const char *where, const char *key, const struct address *a)
{
	static const char *const top[] = {"experiment", "description", "units", "seed", "on_error"};
	const char *names[JK_MAX + 6], *near;
	size_t n;

	if (yp_rep_path_known(key)) {
		override_error(p, where, "unknown key '%s' (did you mean 'replication.%s'?)", key,
			       key);
		return;
	}
	if (a->job && yp_rep_path_known(a->kname)) {
		override_error(p, where, "unknown key '%s' (did you mean '%.*s.replication.%s'?)",
			       a->kname, (int)a->jlen, a->job, a->kname);
		return;
	}
	if (!strcmp(a->kname, "matrix")) {
		override_error(p, where,
			       "a matrix is set one key at a time: %.*s%smatrix.KEY=[VALUE, ...]",
			       (int)a->jlen, a->job ? a->job : "", a->job ? "." : "");
		return;
	}
	n = job_key_names(names, JK_MAX);
	for (int i = 0; i < 5; i++)
		names[n++] = top[i];
	names[n] = NULL;
	/* A fio name (--set bs=4k): the iotrial key it stands for. */
	if (fio_name_find(a->kname) && fio_name_find(a->kname)->key &&
	    job_key_find(fio_name_find(a->kname)->key)) {
		override_error(p, where,
			       "unknown key '%s' (did you mean '%s'? '%s' is fio's name for it)",
			       a->kname, fio_name_find(a->kname)->key, a->kname);
		return;
	}
	near = job_key_suggest(a->kname, names);
	override_error(p, where, "unknown key '%s'%s%s%s", a->kname, near ? " (did you mean '" : "",
		       near ? near : "", near ? "'?)" : "");
}

/* JOB.K=VALUE on one job: an empty value or ~ unsets a string key, as in the file; a key
 * the job's matrix sweeps is swept no more, it takes this one value. */
static int set_job_key(struct yp *p, const char *where, struct job_spec *j, enum job_key_id id,
		       const char *value)
{
	static const struct src_loc at_set = {"--set", 0, 0};
	const struct job_key *k = job_key_row(id);
	char err[512];

	if (k->type == KT_STRING && (!*value || !strcmp(value, "~"))) {
		if (yp_matrix_sweeps(j, id)) {
			override_error(
			    p, where,
			    "key '%s': job '%s' sweeps it in its matrix; give one value, or a list as %s.matrix.%s=[...]",
			    k->name, j->name, j->name, k->name);
			return -EINVAL;
		}
		free(*(char **)((char *)j + k->off));
		*(char **)((char *)j + k->off) = NULL;
		j->key_loc[id] = at_set;
		return 0;
	}
	if (yp_key_failed(p, yp_set_job_key(j, id, value, err, sizeof(err)))) {
		override_error(p, where, "key '%s': %s", k->name, err);
		return -EINVAL;
	}
	j->key_loc[id] = at_set;
	return yp_matrix_set_one(j, id, at_set);
}

/* matrix.K=LIST or JOB.matrix.K=LIST: the value is read as YAML, a list or a range. */
static void set_matrix(struct yp *p, struct exp_spec *s, const char *where, const struct address *a,
		       const char *value)
{
	const char *kname = a->kname + strlen("matrix.");
	const struct job_key *k = job_key_find(kname);
	struct yp vp = {where, NULL, p->d, p->opt, 0, true, false};
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	struct diag d = {0};
	bool matched = false;

	if (!k) {
		struct address inner = {a->job, a->jlen, kname};
		unknown_key(p, where, kname, &inner);
		return;
	}
	/* Syntax, depth and a second document, without positions: the value is one line. */
	if (*value && yp_check_stream(NULL, value, strlen(value), &d) < 0) {
		for (size_t i = 0; i < d.n; i++)
			override_error(p, where, "key '%s': %s", kname, d.msgs[i]);
		if (!d.n)
			override_error(p, where, "key '%s': out of memory", kname);
		diag_release(&d);
		return;
	}
	if (!yaml_parser_initialize(&parser)) {
		override_error(p, where, "key '%s': out of memory", kname);
		return;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)value, strlen(value));
	if (!yaml_parser_load(&parser, &doc)) {
		/* What the event pass lets through: an alias to no anchor (`*x`). */
		yp_syntax_error(NULL, &parser, &d);
		override_error(p, where, "key '%s': %s", kname, d.n ? d.msgs[0] : "not YAML");
		diag_release(&d);
		yaml_parser_delete(&parser);
		return;
	}
	vp.doc = &doc;
	/* An empty value, blanks or only a comment: no document at all. */
	if (!(root = yaml_document_get_root_node(&doc))) {
		override_error(p, where,
			       "key '%s': expected a list of values or a range {from, to, step}",
			       kname);
		yaml_document_delete(&doc);
		yaml_parser_delete(&parser);
		return;
	}
	for (size_t i = 0; root && i < s->njobs; i++) {
		if (!addressed(a, &s->jobs[i]))
			continue;
		matched = true;
		if (yp_matrix_set_values(&vp, &s->jobs[i], (enum job_key_id)job_key_id_of(k),
					 root) < 0)
			break; /* the same message for every job: once is enough */
	}
	p->nerr += vp.nerr;
	p->oom |= vp.oom;
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (!matched)
		override_error(p, where, "no job is named '%.*s'", (int)a->jlen, a->job);
}

void yp_apply_override(struct yp *p, struct exp_spec *s, const struct spec_override *o)
{
	char err[512], where[300];
	const char *key = o->key;
	const struct job_key *k;
	struct address a;
	bool rep, matched = false;
	int ret;

	snprintf(where, sizeof(where), "--set '%s=%s'", o->key, o->value);
	if (!strchr(key, '.') &&
	    (ret = yp_set_top(s, key, o->value, err, sizeof(err))) != -ENOENT) {
		if (ret < 0)
			override_error(p, where, "key '%s': %s", key, err);
		return;
	}
	split_key(key, &a);
	if (prefixed(a.kname, "matrix.")) {
		set_matrix(p, s, where, &a, o->value);
		return;
	}
	rep = prefixed(a.kname, "replication.");
	if (rep && !a.job &&
	    (ret = yp_set_rep_path(&s->rep, a.kname + 12, o->value, err, sizeof(err))) < 0) {
		rep_error(p, where, a.kname, ret, err);
		return;
	}
	k = rep ? NULL : job_key_find(a.kname);
	if (!rep && !k) {
		unknown_key(p, where, key, &a);
		return;
	}
	for (size_t j = 0; j < s->njobs; j++) {
		struct job_spec *job = &s->jobs[j];

		if (!addressed(&a, job))
			continue;
		matched = true;
		if (!rep) {
			if (set_job_key(p, where, job, (enum job_key_id)job_key_id_of(k),
					o->value) < 0)
				return;
			continue;
		}
		if ((ret = yp_set_rep_path(job->rep, a.kname + 12, o->value, err, sizeof(err))) <
		    0) {
			rep_error(p, where, a.kname, ret, err);
			return;
		}
	}
	if (!matched)
		override_error(p, where, "no job is named '%.*s'", (int)a.jlen, a.job);
}
