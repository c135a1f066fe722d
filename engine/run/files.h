/* Files and folders around the trials (see files.c). Every function that can fail returns
 * 0 or -errno; messages for the user come back in *msg (malloc'd) where the caller needs
 * one. */
#ifndef IOTRIAL_FILES_H
#define IOTRIAL_FILES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/diag.h"
#include "engine/run/ledger.h"
#include "engine/plan/plan.h"

/* Create `f` through the ledger (O_EXCL, relative to its held folder; a copytree's source
 * tree as a tree) and give it `size` bytes as its layout says: written (with the verify
 * pattern under `seed` when `verify`) or allocated. `keep`: left in place at the end. */
int files_layout(struct ledger *l, const struct plan_file *f, uint64_t size, bool verify,
		 uint64_t seed, uint32_t tree_files, bool keep, char **msg);

/* Raised by a signal handler: a layout in progress stops (-EINTR). */
extern const atomic_int *files_stop;

/* How many files a job's workers use: one each with file_per_thread, else one. */
uint32_t files_count(const struct job_spec *j);

/* Worker w's file: `path` itself, or path.w when each worker has its own. */
char *files_worker_path(const char *path, const struct job_spec *j, uint32_t w);

/* Open `path` through backend `be` for a worker: a file in the ledger relative to its held
 * folder, without following a symlink, and checked to be the file recorded (backends that
 * touch no device skip the check); any other by its path, and checked to be a file or a
 * block device. The open does not wait for a FIFO put in the file's place. Returns the fd, or
 * -errno with a message in `err`. */
int files_open(const struct ledger *l, const struct be_ops *be, void *priv, const char *path,
	       int flags, char *err, size_t errlen);

/* Write back and drop `path`'s pages, so the next read comes from the device. */
void files_drop_cache(const struct ledger *l, const char *path);

/* The fraction of the first `len` bytes of `path` in the page cache; NAN if unknown. */
double files_cached_fraction(const struct ledger *l, const char *path, uint64_t len);

/* Hold, from the start of the run, every folder named in the job file that will receive a
 * file, and pin every existing target that will be written (see ledger.h). */
void files_hold(struct ledger *l, const struct plan *p);

#endif
