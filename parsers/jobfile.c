/* YAML job file → experiment spec (see jobfile.h). libyaml loads the document; this file
 * walks it, expands variables in every scalar, types each value through the job key table
 * and reports every problem with its position. Defaults apply in layers: the key table,
 * then `defaults:`, then the job's own keys, then --set. */
#include "parsers/jobfile.h"
#include "parsers/fio_ini.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "model/jobkeys.h"
#include "model/names.h"
#include "parsers/yp.h"
#include "lib/sha256.h"
#include "lib/units.h"

#define MAX_JOBS    4096
#define MAX_DEVICES 256
#define MAX_RUNS    1000000

static const char *const top_keys[] = {"experiment", "description", "units",   "seed",	  "devices",
				       "defaults",   "replication", "jobs",    "compare", "report",
				       "on_error",   "prepare",	    "cleanup", NULL};
static const char *const device_keys[] = {"path", "about", NULL};

/* after: [A, B] (or a single name): the jobs this one waits for. */
static void parse_after(struct yp *p, struct job_spec *j, const yaml_node_t *n)
{
	const yaml_node_item_t *start = NULL, *top = NULL;
	struct job_rules *r = spec_job_rules(j);
	yaml_node_item_t one;

	if (!r) {
		p->oom = true;
		yp_err(p, n, "after", "out of memory");
		return;
	}
	r->after_loc = yp_loc(p, n);
	if (n->type == YAML_SCALAR_NODE) {
		one = (yaml_node_item_t)(n - p->doc->nodes.start + 1);
		start = &one;
		top = &one + 1;
	} else if (n->type == YAML_SEQUENCE_NODE) {
		start = n->data.sequence.items.start;
		top = n->data.sequence.items.top;
	} else {
		yp_err(p, n, "after", "expected a job name or a list of job names, got %s",
		       yp_node_kind(n));
		return;
	}
	for (const yaml_node_item_t *it = start; it < top; it++) {
		char *name = yp_text(p, yp_node(p, *it), "after", "a job name");
		char **na;
		if (!name)
			continue;
		if (!(na = realloc(r->after, (r->nafter + 1) * sizeof(*na)))) {
			free(name);
			p->oom = true;
			yp_err(p, n, "after", "out of memory");
			return;
		}
		r->after = na;
		r->after[r->nafter++] = name;
	}
}

/* log: {records: true, interval: 100ms, histogram: true} sets log_records, log_interval and
 * log_histogram. */
static void parse_log(struct yp *p, struct job_spec *j, const yaml_node_t *m)
{
	static const char *const keys[] = {"records", "interval", "histogram", NULL};
	static const enum job_key_id ids[] = {JK_LOG_RECORDS, JK_LOG_INTERVAL, JK_LOG_HISTOGRAM};

	if (!yp_mapping_ok(p, m, "log", "log settings"))
		return;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key), *vn = yp_node(p, pr->value);
		int i = yp_key_index(p, kn, keys, " in log");
		enum job_key_id id;
		char err[512], *text;

		if (i >= 0)
			id = ids[i];
		if (i < 0 || !(text = yp_text(p, vn, keys[i], "a value")))
			continue;
		if (yp_key_failed(p, yp_set_job_key(j, id, text, err, sizeof(err))))
			yp_err(p, vn, keys[i], "%s", err);
		else
			j->key_loc[id] = yp_loc(p, vn);
		free(text);
	}
}

/* block_size: {4KiB: 60, 64KiB: 40} and block_size: 4KiB-64KiB are a block_split; a single
 * size replaces a mix set before (in defaults, say). Returns the key to set. */
static int block_size_key(struct job_spec *j, int i, const yaml_node_t *vn, const char *text)
{
	if (i != JK_BLOCK_SIZE)
		return i;
	/* "-4KiB" is a negative size, for block_size to refuse, not a range. */
	if (vn->type != YAML_SCALAR_NODE || strchr(text, ':') || strchr(text + (*text == '-'), '-'))
		return JK_BLOCK_SPLIT;

	free(j->block_split);
	j->block_split = NULL;
	j->key_loc[JK_BLOCK_SPLIT] = (struct src_loc){0};
	return i;
}

/* Apply the keys of mapping `m` to job `j`; `allow_name` for entries of `jobs:`. */

static void job_apply(struct yp *p, struct job_spec *j, const yaml_node_t *m, bool allow_name)
{
	static const char *const pseudo[] = {"name",	"replication", "matrix",
					     "exclude", "after",       "log"};
	const char *names[JK_MAX + 7];
	size_t nkeys = job_key_names(names, JK_MAX);

	/* The keys, then what a job may hold besides: what yp_key_index suggests from. */
	for (size_t i = 0; i < 6; i++)
		names[nkeys + i] = pseudo[i];
	names[nkeys + 6] = NULL;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key), *vn = yp_node(p, pr->value);
		const char *key = (const char *)kn->data.scalar.value;
		char err[512], *text;
		int i;

		if (kn->type != YAML_SCALAR_NODE)
			continue;
		if (!strcmp(key, "name") && allow_name)
			continue;
		if (!strcmp(key, "replication")) {
			yp_parse_replication(p, j->rep, vn, false);
			continue;
		}
		if (allow_name && !strcmp(key, "matrix")) {
			yp_parse_matrix(p, j, vn);
			continue;
		}
		if (allow_name && !strcmp(key, "exclude"))
			continue; /* after the matrix, whatever the order of the keys */
		if (allow_name && !strcmp(key, "after")) {
			parse_after(p, j, vn);
			continue;
		}
		if (!strcmp(key, "log")) {
			parse_log(p, j, vn);
			continue;
		}
		i = yp_key_index(p, kn, names, allow_name ? "" : " in defaults");
		if (i < 0)
			continue;
		if ((size_t)i >= nkeys) {
			yp_err(p, kn, key, "a job's %s is set on the job, not in defaults", key);
			continue;
		}
		/* A backend's own rows (i >= JK_NKEYS) point into the backend's struct, not
		 * job_spec. */
		if (i < JK_NKEYS && job_keys[i].type == KT_STRING && yp_scalar_is_null(vn)) {
			free(*(char **)((char *)j + job_keys[i].off));
			*(char **)((char *)j + job_keys[i].off) = NULL;
			j->key_loc[i] = yp_loc(p, vn);
			continue;
		}
		text = job_key_row(i)->check || i == JK_BLOCK_SIZE ? yp_text_flat(p, vn, key)
								   : yp_text(p, vn, key, "a value");
		if (!text)
			continue;
		i = block_size_key(j, i, vn, text);

		if (yp_key_failed(p, yp_set_job_key(j, i, text, err, sizeof(err))))
			yp_err(p, vn, key, "%s", err);
		else
			j->key_loc[i] = yp_loc(p, vn);
		free(text);
	}
}

/* Job mapping `m`'s name: its `name` key (checked), or "jobN" for the N-th job. NULL only
 * when memory ran out (p->oom is then set). */
static char *job_name(struct yp *p, const yaml_node_t *m, size_t nth)
{
	char *name = NULL, buf[32];

	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key);
		if (kn->type != YAML_SCALAR_NODE || strcmp((char *)kn->data.scalar.value, "name"))
			continue;
		name = yp_text(p, yp_node(p, pr->value), "name", "a job name");
		if (name && !yp_name_ok(name))
			yp_err(p, yp_node(p, pr->value), "name",
			       "'%s' is not a job name (letters, digits, '_', '-', '.')", name);
	}
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "job%zu", nth);
	if (!(name = strdup(buf)))
		p->oom = true;
	return name;
}

/* One job mapping `m` into the next job of `s`, from the defaults `tmpl`. false when memory
 * ran out (p->oom is then set): the caller stops. */
static bool parse_job(struct yp *p, struct exp_spec *s, const yaml_node_t *m,
		      const struct job_spec *tmpl)
{
	struct job_spec *j = &s->jobs[s->njobs];

	if (!yp_mapping_ok(p, m, "jobs", "a job"))
		return true;
	if (spec_job_copy(j, tmpl) < 0) {
		p->oom = true;
		return false;
	}
	s->njobs++;
	j->loc = yp_loc(p, m);
	if (!(j->name = job_name(p, m, s->njobs)))
		return false;
	/* Once per copy, naming the first (not once per earlier copy: n^2 lines). */
	for (size_t k = 0; k + 1 < s->njobs; k++)
		if (s->jobs[k].name && !strcmp(s->jobs[k].name, j->name)) {
			bool alias =
			    s->jobs[k].loc.line == j->loc.line && s->jobs[k].loc.col == j->loc.col;
			yp_err(p, m, "name", "job name '%s' is used twice (%s line %u)", j->name,
			       alias ? "an alias repeats the job at" : "also at",
			       s->jobs[k].loc.line);
			break;
		}
	job_apply(p, j, m, true);
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key);
		if (kn->type == YAML_SCALAR_NODE &&
		    !strcmp((char *)kn->data.scalar.value, "exclude"))
			yp_parse_exclude(p, j, yp_node(p, pr->value));
	}
	if (!yp_has_key(p, m, "workload") && !tmpl->key_loc[JK_WORKLOAD].line)
		yp_err(
		    p, m, "workload",
		    "job '%s' has no workload (read, write, randread, randwrite, readwrite, randrw, copy, copytree or command)",
		    j->name);
	return true;
}

static void parse_jobs(struct yp *p, struct exp_spec *s, const yaml_node_t *seq,
		       const struct job_spec *tmpl)
{
	size_t n;

	if (seq->type != YAML_SEQUENCE_NODE) {
		yp_err(p, seq, "jobs", "expected a list of jobs, got %s", yp_node_kind(seq));
		return;
	}
	n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
	if (n == 0) {
		yp_err(p, seq, "jobs", "the list is empty: an experiment needs at least one job");
		return;
	}
	if (n > MAX_JOBS) {
		yp_err(p, seq, "jobs", "%zu jobs is more than the limit of %d", n, MAX_JOBS);
		return;
	}
	if (!(s->jobs = calloc(n, sizeof(*s->jobs)))) {
		p->oom = true;
		return;
	}
	for (yaml_node_item_t *it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++)
		if (!parse_job(p, s, yp_node(p, *it), tmpl))
			return;
}

/* about: {mfg: Seagate, rpm: 7200}: what the job file says about a device, as text. */
static void parse_about(struct yp *p, struct device_spec *d, const yaml_node_t *m)
{
	size_t n;

	if (!yp_mapping_ok(p, m, "about", "facts about the device {name: text, ...}"))
		return;
	n = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	spec_facts_release(d->about, d->nabout);
	d->nabout = 0;
	if (!(d->about = calloc(n ? n : 1, sizeof(*d->about))))
		return;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		char *key = yp_text(p, yp_node(p, pr->key), "about", "a name");
		char *value = key ? yp_text(p, yp_node(p, pr->value), key, "text") : NULL;
		if (!value) {
			free(key);
			continue;
		}
		d->about[d->nabout].key = key;
		d->about[d->nabout++].value = value;
	}
}

static void parse_devices(struct yp *p, struct exp_spec *s, const yaml_node_t *m)
{
	size_t n;

	if (!yp_mapping_ok(p, m, "devices", "devices by name"))
		return;
	n = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	if (n > MAX_DEVICES) {
		yp_err(p, m, "devices", "%zu devices is more than the limit of %d", n, MAX_DEVICES);
		return;
	}
	s->devices = calloc(n ? n : 1, sizeof(*s->devices));
	if (!s->devices)
		return;
	for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *kn = yp_node(p, pr->key), *vn = yp_node(p, pr->value);
		const char *name = (const char *)kn->data.scalar.value;
		char *path = NULL;

		if (!yp_name_ok(name)) {
			yp_err(p, kn, name, "not a device name (letters, digits, '_', '-', '.')");
			continue;
		}
		if (vn->type == YAML_SCALAR_NODE) {
			path = yp_text(p, vn, name, "a path");
		} else if (yp_mapping_ok(p, vn, name, "a device")) {
			for (yaml_node_pair_t *q = vn->data.mapping.pairs.start;
			     q < vn->data.mapping.pairs.top; q++) {
				yaml_node_t *qk = yp_node(p, q->key);
				int k = yp_key_index(p, qk, device_keys, " in a device");
				if (k == 0) {
					free(path);
					path = yp_text(p, yp_node(p, q->value), "path", "a path");
				} else if (k == 1) {
					parse_about(p, &s->devices[s->ndevices],
						    yp_node(p, q->value));
				}
			}
			if (!path && !p->nerr)
				yp_err(p, vn, name, "a device needs a path");
		}
		if (path && !*path)
			yp_err(p, vn, name, "the device path is empty");
		if (!path || !*path) {
			/* The slot is reused by the next device: drop what this one said. */
			spec_facts_release(s->devices[s->ndevices].about,
					   s->devices[s->ndevices].nabout);
			s->devices[s->ndevices].about = NULL;
			s->devices[s->ndevices].nabout = 0;
			free(path);
			continue;
		}
		s->devices[s->ndevices].name = strdup(name);
		s->devices[s->ndevices].path = path;
		s->devices[s->ndevices].loc = yp_loc(p, vn);
		s->ndevices++;
	}
}

/* on_error: continue (the next trial runs) or stop (the run ends, results are written). */
static int set_on_error(struct exp_spec *s, const char *text, char *err, size_t errlen)
{
	if (!strcmp(text, "continue") || !strcmp(text, "stop")) {
		s->stop_on_error = text[0] == 's';
		return 0;
	}
	snprintf(err, errlen, "unknown value '%s' (expected continue or stop)", text);
	return -EINVAL;
}

/* experiment, description, units or seed from its text; takes `text`. */
static int set_top_key(struct exp_spec *s, int i, char *text, char *err, size_t errlen)
{
	const char *why;
	int idx, ret = 0;

	switch (i) {
	case 0:
		if ((ret = yp_experiment_ok(text, err, errlen)) < 0)
			break;
		free(s->experiment);
		s->experiment = text;
		return 0;
	case 1:
		free(s->description);
		s->description = text;
		return 0;
	case 2:
		idx = names_find(units_names, text);
		if (idx < 0) {
			snprintf(err, errlen, "unknown value '%s' (expected decimal or binary)",
				 text);
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
			snprintf(err, errlen, "must be below 2^53 (9007199254740992), got '%s'",
				 text);
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
	char err[512], *text = yp_text(p, vn, top_keys[i], "a value");

	if (text && set_top_key(s, i, text, err, sizeof(err)) < 0)
		yp_err(p, vn, top_keys[i], "%s", err);
}

int yp_set_top(struct exp_spec *s, const char *key, const char *text, char *err, size_t errlen)
{
	int i = names_find(top_keys, key);
	char *copy;

	if (!strcmp(key, "on_error"))
		return set_on_error(s, text, err, errlen);
	if (i < 0 || i > 3)
		return -ENOENT;
	if (!(copy = strdup(text)))
		return -ENOMEM;
	return set_top_key(s, i, copy, err, errlen);
}

static void parse_root(struct yp *p, struct exp_spec *s, const yaml_node_t *root)
{
	const yaml_node_t *by_key[13] = {0};
	struct job_spec tmpl;

	if (!yp_mapping_ok(p, root, NULL, "a job file"))
		return;
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
	     pr < root->data.mapping.pairs.top; pr++) {
		int i = yp_key_index(p, yp_node(p, pr->key), top_keys, "");
		if (i >= 0)
			by_key[i] = yp_node(p, pr->value);
	}
	for (int i = 0; i <= 3; i++)
		if (by_key[i])
			parse_top_scalar(p, s, i, by_key[i]);
	if (by_key[4])
		parse_devices(p, s, by_key[4]);
	if (by_key[6])
		yp_parse_replication(p, &s->rep, by_key[6], true);
	if (yp_job_defaults(&tmpl) < 0)
		return;
	*tmpl.rep = s->rep;
	tmpl.rep->metric = s->rep.metric ? strdup(s->rep.metric) : NULL;
	if (by_key[5] && yp_mapping_ok(p, by_key[5], "defaults", "job keys"))
		job_apply(p, &tmpl, by_key[5], false);
	if (by_key[7])
		parse_jobs(p, s, by_key[7], &tmpl);
	else
		yp_err(p, root, "jobs", "missing: an experiment needs a list of jobs");
	spec_job_release(&tmpl);
	for (size_t i = 0; i < p->opt->noverrides && s->jobs; i++)
		yp_apply_override(p, s, &p->opt->overrides[i]);
	/* --set can break what the file had right: check again, once per job. */
	for (size_t i = 0; p->opt->noverrides && i < s->njobs; i++) {
		struct src_loc l = {"--set", 0, 0};
		yp_check_replication(p, s->jobs[i].rep, &l);
	}
	if (by_key[8])
		yp_parse_compare(p, s, by_key[8]);
	if (by_key[9] && s->jobs)
		yp_parse_report(p, s, by_key[9]);
	if (by_key[10]) {
		char err[256], *text = yp_text(p, by_key[10], "on_error", "continue or stop");
		if (text && set_on_error(s, text, err, sizeof(err)) < 0)
			yp_err(p, by_key[10], "on_error", "%s", err);
		free(text);
	}
	/* The experiment's hooks (engine/run/hooks.h); an empty one is none. */
	for (int i = 11; i <= 12; i++) {
		char **hook = i == 11 ? &s->prepare : &s->cleanup;
		if (!by_key[i] || yp_scalar_is_null(by_key[i]))
			continue;
		free(*hook);
		*hook = yp_text(p, by_key[i], top_keys[i], "a command");
	}
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
		if (!yp_name_ok((char[]){*c, 0}))
			*c = '_';
	name[strnlen(name, SPEC_EXPERIMENT_MAX)] = 0; /* it names the result folder */
	return name;
}

int yp_load_string(const char *name, const char *text, size_t len, const struct yp_options *opt,
		   struct exp_spec *out, struct diag *d)
{
	static const struct yp_options none;
	yaml_parser_t parser;
	yaml_document_t doc;
	struct yp p = {name, &doc, d, opt ? opt : &none, 0, false, false};
	yaml_node_t *root;
	int ret;

	memset(out, 0, sizeof(*out));
	out->units = UNITS_DECIMAL;
	out->rep = (struct replication_spec){.runs = 1, .confidence = 0.95, .error = 0.03};
	out->path = strdup(name);
	sha256_hex(text, len, out->sha256);
	for (size_t i = 0; i < p.opt->noverrides; i++) {
		out->overrides = realloc(out->overrides, (i + 1) * sizeof(*out->overrides));
		out->overrides[i].key = strdup(p.opt->overrides[i].key);
		out->overrides[i].value = strdup(p.opt->overrides[i].value);
		out->noverrides = i + 1;
	}

	if (fio_ini_sniff(name, text, len)) {
		struct src_loc l = {name, 1, 1};
		diag_add(
		    d, &l,
		    "this is a fio job file, not an iotrial one: convert it first, with 'iotrial import-fio %s > job.yaml'",
		    name);
		spec_release(out);
		return -EINVAL;
	}
	if ((ret = yp_check_values(name, text, len, d)) < 0 ||
	    (ret = yp_check_stream(name, text, len, d)) < 0) {
		spec_release(out);
		return ret;
	}
	if (!yaml_parser_initialize(&parser)) {
		spec_release(out);
		return -ENOMEM;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	/* A load that fails without saying why ran out of memory too (libyaml's own stacks):
	 * its document is empty, and the file is not. */
	if (!yaml_parser_load(&parser, &doc) &&
	    (parser.error == YAML_MEMORY_ERROR || parser.error == YAML_NO_ERROR)) {
		yaml_parser_delete(&parser);
		spec_release(out);
		return -ENOMEM;
	}
	if (parser.error != YAML_NO_ERROR) {
		yp_syntax_error(name, &parser, d);
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
	if (!out->experiment && !(out->experiment = default_experiment_name(name)))
		p.oom = true;
	/* Out of memory is a failure even where no message could be made for it. */
	if (p.nerr || p.oom) {
		spec_release(out);
		return p.oom ? -ENOMEM : -EINVAL;
	}
	return 0;
}
