/* `iotrial import-fio`: a fio job file as an iotrial YAML job file. import_fio.c reads the
 * file, hands each job's options to import_fio_map.c, moves what every job shares from
 * [global] into `defaults:`, and writes the YAML. */
#ifndef IOTRIAL_IMPORT_FIO_H
#define IOTRIAL_IMPORT_FIO_H

#include <stdbool.h>
#include <stddef.h>

#include "parsers/fio_ini.h"

/* One line of a job's output: `key: value`, or a comment (key NULL). */
struct imp_entry {
	char *key;
	char *value;   /* YAML text, quoted where needed; for a comment, the comment */
	bool global;   /* comes from [global] options only: a candidate for defaults: */
	bool unmapped; /* a comment that says an option was not mapped */
};

/* A job as iotrial will see it: its name and lines. */
struct imp_job {
	char *name;
	char *fio_name; /* the section's name, for wait_for */
	char *base;	/* the name made safe, before it was made unique */
	struct imp_entry *e;
	size_t n;
	bool leader;	/* starts a group: the first job, or one after a stonewall */
	char *wait_for; /* fio's wait_for, resolved by import_fio.c */
	unsigned wait_line;
};

/* An option with where it came from. */
struct imp_opt {
	const struct fio_opt *o;
	bool global;
};

/* Convert job `j`'s effective options (every [global] above it, then its own, in order)
 * into j->e. Returns the number of options not mapped (>= 0), or -ENOMEM. `top_name` and
 * `top_desc` receive [global]'s name and description (the experiment's). */
int imp_map_job(struct imp_job *j, const struct imp_opt *opts, size_t n, char **top_name,
		char **top_desc);

/* Set `key` to `value` (already YAML text) in j: replaces an earlier value in place (fio's
 * last setting wins), else appends. 0 or -ENOMEM. */
int imp_set(struct imp_job *j, const char *key, const char *value, bool global);

/* Append a comment. 0 or -ENOMEM. */
int imp_comment(struct imp_job *j, bool global, bool unmapped, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* `s` as a YAML scalar: plain when that reads back the same, else double-quoted. malloc'd. */
char *imp_yaml_scalar(const char *s);

/* `s` with every character outside letters, digits, '_', '-', '.' made '_'. malloc'd. */
char *imp_safe_name(const char *s);

#endif
