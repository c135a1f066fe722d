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
	char *dev_path; /* a target under /dev: the device's path (import_fio.c names it) */
};

/* An option with where it came from. */
struct imp_opt {
	const struct fio_opt *o;
	bool global;
};

/* The options the workload rules weigh against the job's workload, the last of each. */
enum imp_wl {
	IMP_WL_MIX,
	IMP_WL_DIST,
	IMP_WL_FSYNC,
	IMP_WL_FDATASYNC,
	IMP_WL_SPLIT,
	IMP_WL_OFFSET,
	IMP_WL_OFFSET_INC,
	IMP_WL_IO_LIMIT,
	IMP_WL_PRIO,
	IMP_WL_PRIOCLASS,
	IMP_WL_N
};

/* One job being mapped: what the rules that span options need, gathered while the options
 * are read (import_fio_map.c), and weighed at the end (import_fio_wl.c too). */
struct imp_state {
	struct imp_job *j;
	bool kb1000;
	const struct imp_opt *runtime, *time_based, *filename, *directory, *engine, *iodepth, *bs;
	const char *engine_name; /* the job's last ioengine (global's, then its own), or NULL */
	const struct imp_opt *batch_min, *batch_max; /* iodepth_batch_complete_min and _max */
	const struct imp_opt *wl[IMP_WL_N];
	bool time_based_on;
	int unmapped;
};

/* Convert job `j`'s effective options (every [global] above it, then its own, in order)
 * into j->e. Returns the number of options not mapped (>= 0), or -ENOMEM. `top_name` and
 * `top_desc` receive [global]'s name and description (the experiment's). */
int imp_map_job(struct imp_job *j, const struct imp_opt *opts, size_t n, char **top_name,
		char **top_desc);

/* Set `key` to `value` (already YAML text) in j: replaces an earlier value in place (fio's
 * last setting wins), else appends. 0 or -ENOMEM. */
int imp_set(struct imp_job *j, const char *key, const char *value, bool global);

/* Take `key` out of j; true if it was there. */
bool imp_drop(struct imp_job *j, const char *key);

/* Append a comment. 0 or -ENOMEM. */
int imp_comment(struct imp_job *j, bool global, bool unmapped, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* An option's value; "1" for a bare option, as fio reads it. */
const char *imp_opt_value(const struct imp_opt *o);

/* A "not mapped" comment for option `o` (counted in st->unmapped), or a "note"; 0 or
 * -ENOMEM. */
int imp_not_mapped(struct imp_state *st, const struct imp_opt *o, const char *why);
int imp_note(struct imp_state *st, const struct imp_opt *o, const char *why);

/* Option `o` is 0, which is iotrial's default for `key` (no offset, no sync): the key left
 * out, also where an earlier option or [global] set it (fio's last setting wins), and a note
 * that says so: no option goes without a word. 0 or -ENOMEM. */
int imp_default(struct imp_state *st, const struct imp_opt *o, const char *key);

/* Set `key` to `text`, quoted as YAML needs, where `o` came from. 0 or -ENOMEM. */
int imp_set_scalar(struct imp_state *st, const struct imp_opt *o, const char *key,
		   const char *text);

/* The workload options (import_fio_wl.c): each maps option `o`; 0, or -ENOMEM. */
int imp_map_mix(struct imp_state *st, const struct imp_opt *o, bool writes);
int imp_map_bssplit(struct imp_state *st, const struct imp_opt *o);
int imp_map_bsrange(struct imp_state *st, const struct imp_opt *o);
int imp_map_dist(struct imp_state *st, const struct imp_opt *o);
int imp_map_sync_every(struct imp_state *st, const struct imp_opt *o, const char *key);
int imp_map_nice(struct imp_state *st, const struct imp_opt *o);
int imp_map_prio(struct imp_state *st, const struct imp_opt *o, bool cls);

/* After every option of the job: take out what its workload does not use (a note where fio
 * ignores it too, "not mapped" where fio does it and iotrial cannot), and set ioprio. Then
 * what the sizes say to each other (a mix over bs, io_size under time_based,
 * offset_increment without a shared file). 0 or -ENOMEM. */
int imp_resolve_workload(struct imp_state *st);
int imp_resolve_sizes(struct imp_state *st);

/* `s` as a YAML scalar: plain when that reads back the same, else double-quoted. malloc'd. */
char *imp_yaml_scalar(const char *s);

/* `s` with every character outside letters, digits, '_', '-', '.' made '_'. malloc'd. */
char *imp_safe_name(const char *s);

#endif
