/* The YAML job-file parser: job file text → struct exp_spec, every value resolved, or every
 * error in the file as one line each (`FILE:LINE:COL: key 'K': ...`). libyaml does the YAML;
 * the job key table (model/jobkeys.h) says what each key means. */
#ifndef IOTRIAL_JOBFILE_H
#define IOTRIAL_JOBFILE_H

#include <stddef.h>

#include "lib/diag.h"
#include "lib/expand.h"
#include "model/jobkeys.h" /* the spec, and spec_release for it */

struct yp_options {
	const struct spec_override *overrides; /* --set KEY=VALUE, applied last */
	size_t noverrides;
	const struct expand_var *builtins; /* ${scratch}, ${rank}, ... */
	size_t nbuiltins;
	const char *(*getenv)(const char *name, void *arg); /* NULL: the process environment */
	void *getenv_arg;
};

/* The bytes of the job file at `path`, NUL-terminated (malloc'd into *text; *len without
 * the NUL). Returns 0, or -errno after one line in `d`: the file cannot be opened, is a
 * folder (-EISDIR), is larger than 64 MiB (-EFBIG), or cannot be read. */
int yp_read_file(const char *path, char **text, size_t *len, struct diag *d);

/* Parse the job file at `path` into `out`. Returns 0, or -EINVAL with every problem in
 * `d` (the spec is then released), -ENOMEM when memory ran out while reading it (what was
 * found is in `d`), or -errno when the file cannot be read (also in `d`). */
int yp_load_file(const char *path, const struct yp_options *opt, struct exp_spec *out,
		 struct diag *d);

/* The same from memory; `name` stands for the file in messages. For tests and fuzzing. */
int yp_load_string(const char *name, const char *text, size_t len, const struct yp_options *opt,
		   struct exp_spec *out, struct diag *d);

#endif
