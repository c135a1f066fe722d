/* fio's job file format (an ini dialect) read into sections of options, for `iotrial
 * import-fio`: `[name]` headers, `key=value` and bare `key` lines, `;` and `#` comments (whole
 * lines and the rest of a line, as fio strips them). It knows nothing of what an option
 * means: model/fio_names.h and cli/import_fio*.c do. Debian's inih was tried and does not
 * fit: it drops bare keys, joins indented lines to the previous value and cuts lines at 200
 * bytes, all without a word. */
#ifndef IOTRIAL_FIO_INI_H
#define IOTRIAL_FIO_INI_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/diag.h"

struct fio_opt {
	char *key;
	char *value; /* NULL for a bare option (`time_based`), which fio reads as 1 */
	unsigned line;
};

struct fio_section {
	char *name;
	unsigned line;
	struct fio_opt *opts;
	size_t nopts;
};

struct fio_ini {
	struct fio_section *secs;
	size_t nsecs;
};

/* Parse fio job file text (`name` names it in messages) into `out`. Returns 0; -EINVAL after
 * one line in `d` (`FILE:LINE:COL: ...`) for what fio's format does not allow or iotrial will
 * not follow: a NUL byte, an option before the first section, a section header that is not
 * `[name]`, an `include` directive, a `${` without its `}`, a file without any section; or
 * -ENOMEM. `out` is empty after a failure. */
int fio_ini_parse(const char *name, const char *text, size_t len, struct fio_ini *out,
		  struct diag *d);

void fio_ini_release(struct fio_ini *f);

/* Does this job file look like fio's rather than YAML: named *.fio or *.ini, or its first
 * line that is neither blank nor a comment a `[section]` header followed by a `key=value`
 * line? For `iotrial run` and `validate`, which then point at `iotrial import-fio`. */
bool fio_ini_sniff(const char *name, const char *text, size_t len);

#endif
