/* Files and folders around the trials (see files.c). Every function that can fail returns
 * 0 or -errno; messages for the user come back in *msg (malloc'd) where the caller needs
 * one. */
#ifndef IOTRIAL_FILES_H
#define IOTRIAL_FILES_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/diag.h"
#include "engine/plan.h"

/* The folders iotrial created under the scratch folder, to remove at the end. */
struct file_dirs {
	char **dirs;
	size_t n;
};

/* The folder part of `path` ("." when none, "/" for a file at the root), malloc'd. */
char *files_dirname(const char *path);

/* Create the folders between `scratch` and `path`'s parent (nothing when `path` is not
 * under `scratch`), recording each in `fd`. */
int files_make_dirs(struct file_dirs *fd, const char *scratch, const char *path);

/* Create `f` (O_EXCL) and give it `size` bytes as its layout says: written (with the verify
 * pattern under `seed` when `verify`) or allocated. Sets f->laid_out once the file exists. */
int files_layout(struct file_dirs *dirs, const char *scratch, struct plan_file *f, uint64_t size,
		 bool verify, uint64_t seed, uint32_t tree_files, char **msg);

/* Raised by a signal handler: a layout in progress stops (-EINTR). */
extern const volatile sig_atomic_t *files_stop;

/* How many files a job's workers use: one each with file_per_thread, else one. */
uint32_t files_count(const struct job_spec *j);

/* Worker w's file: `path` itself, or path.w when each worker has its own. */
char *files_worker_path(const char *path, const struct job_spec *j, uint32_t w);

/* Remove a file, or a folder and everything in it. */
void files_remove_path(const char *path);

/* Write back and drop `path`'s pages, so the next read comes from the device. */
void files_drop_cache(const char *path);

/* The fraction of the first `len` bytes of `path` in the page cache; NAN if unknown. */
double files_cached_fraction(const char *path, uint64_t len);

/* Remove every file the plan created (unless kept) and the folders in `fd`. */
void files_remove(const struct plan *p, struct file_dirs *fd);

#endif
