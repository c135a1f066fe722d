/* The job key table: one row per key a job (or `defaults:`) may set. The same table drives
 * parsing, bounds checks, `iotrial keys`, the docs check and the echo of every effective
 * option into results.json, so a new key is one row here and one field in the spec. */
#ifndef IOTRIAL_JOBKEYS_H
#define IOTRIAL_JOBKEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/spec.h"

enum key_type {
	KT_STRING,   /* char *; NULL when unset and no default */
	KT_SIZE,     /* uint64_t bytes: 4KiB, 80MB, 4096 */
	KT_DURATION, /* uint64_t ns: 100ms, 60s, 2m */
	KT_UINT,     /* uint32_t */
	KT_BOOL,     /* bool */
	KT_ENUM,     /* int, an index into enums[] */
	KT_DOUBLE,   /* double, between dmin and dmax */
};

struct job_key {
	const char *name;
	enum key_type type;
	size_t off;	   /* offset of the field in struct job_spec */
	const char *def;   /* default as job-file text; NULL: none (string stays NULL, number 0) */
	uint64_t min, max; /* bounds for numeric types, inclusive */
	const char *const *enums; /* KT_ENUM: the accepted names, NULL-terminated */
	const char *help;
	const char *example;
	double dmin, dmax; /* bounds for KT_DOUBLE */
	/* KT_STRING values with a structure (model/wlopts.h): 0, or -errno with one line in
	 * `err`. NULL: any text. The parser calls it where the value is written. */
	int (*check)(const char *text, char *err, size_t errlen);
};

extern const struct job_key job_keys[JK_NKEYS];

/* The row for `name` (a key of the table or a backend option), or NULL. */
const struct job_key *job_key_find(const char *name);

/* The closest key name within a small edit distance of `name` among `names`
 * (NULL-terminated), for "did you mean"; NULL when nothing is close. */
const char *job_key_suggest(const char *name, const char *const *names);

/* The name of the enum value stored in a KT_ENUM field. */
const char *job_key_enum_name(const struct job_key *k, int v);

/* Read key `k` of job `j` into `v` (a string is duplicated). Returns 0 or -ENOMEM. */
int job_key_get(const struct job_spec *j, enum job_key_id k, struct key_value *v);

/* Store `v` into job `j` (a string is duplicated). Returns 0 or -ENOMEM. */
int job_key_put(struct job_spec *j, const struct key_value *v);

bool job_key_value_eq(const struct key_value *a, const struct key_value *b);

/* `v` as text for instance names and messages: sizes in bytes, enums by name. */
void job_key_format(const struct key_value *v, char *buf, size_t len);

void job_key_value_release(struct key_value *v);

/* A job's and a spec's lifetime, through the table (which knows the strings a job owns). */

/* Free the strings a job owns and zero it. */
void spec_job_release(struct job_spec *j);

/* Deep-copy a job (its strings and key_loc are duplicated). Returns 0 or -ENOMEM. */
int spec_job_copy(struct job_spec *dst, const struct job_spec *src);

/* The job's rules (exclude, after), made empty on first use; NULL out of memory. */
struct job_rules *spec_job_rules(struct job_spec *j);

/* Free everything the spec owns and zero it. */
void spec_release(struct exp_spec *s);

/* The names the job file uses for a workload and a sync mode. */
const char *spec_workload_name(enum job_workload w);
const char *spec_sync_name(enum job_sync s);

/* Keys beyond the table (model/jobkeys_ext.c): the options each backend declares in a table
 * of its own, whose `off` is into the backend's own struct, not struct job_spec. The layer
 * that knows the backends lends their tables here once, before any job file is read; then
 * these functions, the parsers and the planner treat an option as any key, by its id. */

/* Add `rows` (ended by a row whose name is NULL), owned by `owner` (a backend's name; both
 * must outlive the process), as the ids after the last ones added. A row must name a key
 * no other row has, be of no type but KT_STRING, and have a default its own bounds accept.
 * Returns 0, or -EINVAL / -E2BIG (past JK_EXT_MAX) with the reason in `err`; nothing is
 * added then. Not thread-safe: called at start-up. */
int job_keys_extend(const char *owner, const struct job_key *rows, char *err, size_t errlen);

/* Forget every key added by job_keys_extend (for tests). */
void job_keys_extend_reset(void);

/* How many ids are in use: JK_NKEYS plus the keys added. */
size_t job_key_count(void);

/* The row of id `id` (below job_key_count()). */
const struct job_key *job_key_row(enum job_key_id id);

/* The id of row `k` (of the table or added), or -1. */
int job_key_id_of(const struct job_key *k);

/* Who declared key `id`: the owner given to job_keys_extend, or NULL for the table's own. */
const char *job_key_owner(enum job_key_id id);

/* Every key's name, in id order, into `names` (room for `cap`); returns the count. */
size_t job_key_names(const char **names, size_t cap);

/* Backend option `id` (JK_NKEYS on) of job `j`: as set, or its default. */
uint64_t job_opt_get(const struct job_spec *j, enum job_key_id id);

/* Set backend option `id` of job `j`, first copying options it borrows: 0, or -E2BIG when
 * the job already sets JOB_OPTS_MAX, or -ENOMEM. */
int job_opt_put(struct job_spec *j, enum job_key_id id, uint64_t u);

/* `j`, a copy of another job made by assignment, borrows that job's options: it frees
 * none, and copies them before it changes one. */
static inline void job_opts_borrow(struct job_spec *j)
{
	j->opts.own = false;
}

/* Type `text` as key `k` says (units, bounds, enum names) into v->u, or v->s for a string
 * (malloc'd). Returns 0, or -EINVAL / -ERANGE with a message in `err`, or -ENOMEM. */
int job_key_parse(const struct job_key *k, const char *text, struct key_value *v, char *err,
		  size_t errlen);

#endif
