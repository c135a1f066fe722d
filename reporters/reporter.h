/* Reporters: one file per output format, each behind this ops table. A reporter reads only
 * the results structure; it computes no statistics and touches no target. */
#ifndef IOTRIAL_REPORTER_H
#define IOTRIAL_REPORTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/events.h"
#include "model/results.h"

struct rep_ops {
	const char *name; /* as given to -f */
	const char *file; /* its name in the result directory */
	bool on_request;  /* written only when -f names it, not by default */
	/* Write the whole report for `r` to `out`. Returns 0 or -errno. */
	int (*write)(const struct results *r, FILE *out);
	/* A reporter that streams (ndjson): write event `ev` to `out` as the run goes, whole,
	 * and flush it. Returns 0 or -errno. NULL: the reporter writes files only. */
	int (*event)(const struct run_event *ev, FILE *out);
};

/* Most reporters the registry may hold: the size of a list of them (struct rep_list). */
#define REP_MAX 16

/* The reporters, NULL-terminated, in the order -f's messages list them and a run writes
 * them (reporter.c). A new reporter is its own file ending in its ops table, plus its name
 * in reporter.c's extern line and its entry in the array there. Look a reporter up by name, never
 * by its place in the array. */
extern const struct rep_ops *const rep_registry[];

/* The reporter named `name` (the first `len` bytes of it), or NULL. */
const struct rep_ops *rep_find(const char *name);
const struct rep_ops *rep_find_n(const char *name, size_t len);

/* "text, json, csv, html": the names, as messages list them, into buf (len bytes). */
void rep_names(char *buf, size_t len);

/* A choice of reporters, as -f makes it: each at most once, in registry order. */
struct rep_list {
	const struct rep_ops *rep[REP_MAX];
	size_t n;
};

/* The reporters a run writes when -f is not given (those not marked on_request). */
void rep_list_default(struct rep_list *l);

/* Add `rep` to the list, unless it is there already. */
void rep_list_add(struct rep_list *l, const struct rep_ops *rep);

/* Is the reporter named `name` in the list? */
bool rep_list_has(const struct rep_list *l, const char *name);

/* Write `rep`'s report to the file descriptor `fd` (left open; nothing else may be buffered
 * for it). Returns 0 or -errno, the errno of the write that failed (ENOSPC for a full disk,
 * EPIPE for a pipe nobody reads), not a generic EIO. */
int rep_write_fd(const struct rep_ops *rep, const struct results *r, int fd);

/* Write `rep`'s report into NAME in the folder open as `dfd`, atomically: a temporary file
 * .NAME.XXXXXX there, fsync, then renameat, every step by the folder's descriptor (the
 * folder renamed meanwhile, or a symlink put in its place, redirects nothing). Returns 0 or
 * -errno; on failure NAME is untouched and no temporary file is left (but for a failed
 * fchmod to 0644 or close after the rename, which leaves NAME written, mode 0600). */
int rep_write_at(const struct rep_ops *rep, const struct results *r, int dfd, const char *name);

/* rep_write_at into rep->file of the folder open as `dfd` (a result folder). */
int rep_write_file(const struct rep_ops *rep, const struct results *r, int dfd);

/* rep_write_at into the file `path`, its folder opened by name. An existing `path` must be a
 * regular file (else -EEXIST, nothing written), and the report keeps its permission bits
 * and, written as root, its owner and group. */
int rep_write_path(const struct rep_ops *rep, const struct results *r, const char *path);

#endif
