/* Internals shared by the job-file parser's files: the parse state and the small helpers
 * that walk libyaml's document, expand variables and report errors at a node. */
#ifndef IOTRIAL_YP_H
#define IOTRIAL_YP_H

#include <errno.h>
#include <stdbool.h>
#include <yaml.h>

#include "lib/diag.h"
#include "model/spec.h"

/* How deep lists and mappings may nest in a job file; the deepest real one needs 5. */
#define YP_MAX_DEPTH 64

/* How many values (keys, values, lists and mappings) a job file may hold: a matrix of
 * 100000 points, or 300000 keys, still fit; libyaml's document of them takes 100 MB. */
#define YP_MAX_VALUES 1000000

/* Before yp_check_stream: 0, or -EINVAL after reporting in `d`, at the value past it, that
 * `text` holds more than YP_MAX_VALUES values; reads no further than that. Anything else
 * wrong (syntax, depth, memory) is left to yp_check_stream: 0 (-ENOMEM only when libyaml
 * cannot start). With `name` NULL, no place. */
int yp_check_values(const char *name, const char *text, size_t len, struct diag *d);

/* The first pass over `text`'s YAML events: 0, or -EINVAL after reporting in `d` the first
 * syntax error, a nesting deeper than YP_MAX_DEPTH, a second document or a scalar that holds
 * a NUL ("\0" in quotes), each as soon as it is read; -ENOMEM, with nothing reported, when
 * libyaml runs out of memory. Messages name file `name` and the line and column; with `name`
 * NULL, no place. */
int yp_check_stream(const char *name, const char *text, size_t len, struct diag *d);

/* Report libyaml's syntax error in `parser` (whose input is a string) at its position in
 * file `name` (NULL: none). */
void yp_syntax_error(const char *name, const yaml_parser_t *parser, struct diag *d);

/* The caller's options (parsers/jobfile.h): the helpers here pass them on; yp_text and
 * jobfile.c read them. */
struct yp_options;

struct yp {
	const char *file;
	yaml_document_t *doc;
	struct diag *d;
	const struct yp_options *opt;
	unsigned nerr;
	/* A value given by --set (`file` is "--set 'K=V'"): its text is taken as it is,
	 * without ${VAR} expansion, and messages and positions name the option, not a line. */
	bool from_set;
	/* Memory ran out while reading: the load fails with -ENOMEM (exit 1), not as a
	 * mistake in the file (exit 2). */
	bool oom;
};

/* The position of node `n`, 1-based; {"--set", 0, 0} for a value from --set. */
struct src_loc yp_loc(const struct yp *p, const yaml_node_t *n);

/* Report an error at node `n` (NULL: the file), about `key` (NULL: none). */
void yp_err(struct yp *p, const yaml_node_t *n, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

yaml_node_t *yp_node(const struct yp *p, int id);
const char *yp_node_kind(const yaml_node_t *n);

/* An empty or '~' plain scalar. */
bool yp_scalar_is_null(const yaml_node_t *n);

/* The scalar's text with ${VAR} expanded, malloc'd; NULL after reporting when `n` is not a
 * scalar (`want` says what was expected) or the expansion fails. */
char *yp_text(struct yp *p, const yaml_node_t *n, const char *key, const char *want);

/* A structured key's value as one line (parsers/yp_flat.c): a scalar's text, a mapping as
 * "K:V,K:V", a list as "A,B"; NULL (after reporting) when a part is not a scalar. */
char *yp_text_flat(struct yp *p, const yaml_node_t *n, const char *key);

/* The index of key node `kn` in NULL-terminated `keys`; -1 after reporting an unknown key
 * (with a suggestion; `where` is appended, e.g. " in replication"). */
int yp_key_index(struct yp *p, const yaml_node_t *kn, const char *const *keys, const char *where);

/* Is `m` a mapping with unique scalar keys? false after reporting. */
bool yp_mapping_ok(struct yp *p, const yaml_node_t *m, const char *key, const char *what);

bool yp_has_key(const struct yp *p, const yaml_node_t *m, const char *key);
void yp_enum_list(char *buf, size_t len, const char *const *names);

/* Letters, digits, '_', '-', '.'; not empty. */
bool yp_name_ok(const char *s);

/* Is `text` an experiment's name: yp_name_ok, and at most SPEC_EXPERIMENT_MAX bytes?
 * Returns 0, or -EINVAL with a message (without position) in `err`. */
int yp_experiment_ok(const char *text, char *err, size_t errlen);

/* file_size: N% (text ends in '%'): is N a percentage above 0 and at most 100? 0 with the
 * number in *pct, or -EINVAL (not a number), -ERANGE (out of bounds) or -ENOMEM, with a
 * message (without position) in `err`. yp_set_job_key's check, for import-fio too. */
int yp_file_size_percent(const char *text, double *pct, char *err, size_t errlen);

/* Set one job key from its text form, checking type and bounds. Returns 0, or -EINVAL,
 * -ERANGE, -E2BIG or -ENOMEM, with a message (without position) in `err` for each. For a
 * job's mapping, --set and matrix values. */
int yp_set_job_key(struct job_spec *j, enum job_key_id id, const char *text, char *err,
		   size_t errlen);

/* Did setting a key fail (`ret` from yp_set_job_key)? Out of memory is also noted in `p`,
 * so that the load fails with -ENOMEM (exit 1), not as a bad job file (exit 2). */
static inline bool yp_key_failed(struct yp *p, int ret)
{
	p->oom |= ret == -ENOMEM;
	return ret < 0;
}

/* A job with every key at the key table's default. 0 or -ENOMEM. */
int yp_job_defaults(struct job_spec *j);

/* replication: the mapping `m` into `r`; `top` for the top-level one (order and seed are
 * the experiment's, not a job's). */
void yp_parse_replication(struct yp *p, struct replication_spec *r, const yaml_node_t *m, bool top);

/* Cross-field rules of `r` (max below pilot, a trim that removes every run), at `loc`. */
void yp_check_replication(struct yp *p, const struct replication_spec *r,
			  const struct src_loc *loc);

/* One replication key by name path ("runs", "trim.low", ...) from text: 0 or -errno with a
 * message in err. For --set replication.KEY=VALUE. */
int yp_set_rep_path(struct replication_spec *r, const char *path, const char *text, char *err,
		    size_t errlen);

/* matrix: on job `j`. */
void yp_parse_matrix(struct yp *p, struct job_spec *j, const yaml_node_t *m);

/* Does job `j`'s matrix sweep key `k`? */
bool yp_matrix_sweeps(const struct job_spec *j, enum job_key_id k);

/* --set JOB.matrix.K=LIST: the values of node `vn` (a list or a range) replace job `j`'s
 * sweep of `k`, or become a new one. 0, or -EINVAL after reporting (j unchanged). */
int yp_matrix_set_values(struct yp *p, struct job_spec *j, enum job_key_id k,
			 const yaml_node_t *vn);

/* --set K=V on a key that `j`'s matrix sweeps: the sweep becomes the one value `j` now has
 * for `k`, written at `loc`. 0 (also when `k` is not swept) or -ENOMEM. */
int yp_matrix_set_one(struct job_spec *j, enum job_key_id k, struct src_loc loc);

/* exclude: on job `j` (after its matrix). */
void yp_parse_exclude(struct yp *p, struct job_spec *j, const yaml_node_t *seq);

/* A partial point {KEY: value, ...} into `out`; `allow_job` admits the pseudo-key job.
 * Returns 0 (errors for single keys reported) or -1 when `m` is no mapping. */
int yp_parse_point(struct yp *p, const yaml_node_t *m, const char *what, bool allow_job,
		   struct matrix_point *out);

/* experiment, description, units, seed or on_error from --set text: 0, -ENOENT when `key`
 * is none of them, or -errno with a message in err. */
int yp_set_top(struct exp_spec *s, const char *key, const char *text, char *err, size_t errlen);

/* Apply one --set KEY=VALUE to the parsed spec (override.c); errors are reported. */
void yp_apply_override(struct yp *p, struct exp_spec *s, const struct spec_override *o);

/* Is `path` a replication key by --set's name ("runs", "trim.low", ...)? */
bool yp_rep_path_known(const char *path);

/* The top-level report: mapping (after the jobs: rows name them). */
void yp_parse_report(struct yp *p, struct exp_spec *s, const yaml_node_t *m);

/* The top-level compare: list. */
void yp_parse_compare(struct yp *p, struct exp_spec *s, const yaml_node_t *seq);

#endif
