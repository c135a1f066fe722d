/* Reporters: one file per output format, each behind this ops table. A reporter reads only
 * the results structure; it computes no statistics and touches no target. */
#ifndef IOTRIAL_REPORTER_H
#define IOTRIAL_REPORTER_H

#include <stdbool.h>
#include <stdio.h>

#include "model/results.h"

struct rep_ops {
	const char *name; /* as given to -f */
	const char *file; /* its name in the result directory */
	bool on_request;  /* written only when -f names it, not by default */
	/* Write the whole report for `r` to `out`. Returns 0 or -errno. */
	int (*write)(const struct results *r, FILE *out);
};

/* The reporters, NULL-terminated. */
extern const struct rep_ops *const rep_registry[];

const struct rep_ops *rep_find(const char *name);

/* Write `rep`'s report to the file descriptor `fd` (left open; nothing else may be buffered
 * for it). Returns 0 or -errno, the errno of the write that failed (ENOSPC for a full disk,
 * EPIPE for a pipe nobody reads), not a generic EIO. */
int rep_write_fd(const struct rep_ops *rep, const struct results *r, int fd);

/* Write `rep`'s report into DIR/rep->file atomically: a temporary file in DIR, fsync, then
 * rename, so a reader never sees half a file. Returns 0 or -errno. */
int rep_write_file(const struct rep_ops *rep, const struct results *r, const char *dir);

/* The same into the file `path`: the temporary file is .NAME.XXXXXX beside it. Returns 0 or
 * -errno; on failure `path` is untouched and no temporary file is left. */
int rep_write_path(const struct rep_ops *rep, const struct results *r, const char *path);

#endif
