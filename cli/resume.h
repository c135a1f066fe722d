/* iotrial run --resume DIR: the checkpoint in DIR read back and checked against the job file
 * and the command line, before anything is run or written. Each function prints one line on
 * stderr when it refuses, and returns an exit status (0, EXIT_USAGE, EXIT_RUN: cli/cli.h). */
#ifndef IOTRIAL_CLI_RESUME_H
#define IOTRIAL_CLI_RESUME_H

#include <errno.h>
#include <stdbool.h>

#include "cli/args.h"
#include "cli/outdir.h"
#include "model/results.h"
#include "model/spec.h"

/* The checkpoint of the run in folder `dir` into `from`: the folder must not be held by a
 * running iotrial, its results.json must be whole, of this schema and of this version of
 * iotrial. Its run may be complete (from->complete): then nothing runs again, and only the
 * result files it lacks are written. On success the caller releases `from` and closes *fd,
 * the checkpoint read, held open for cli_resume_same. */
int cli_resume_load(const char *dir, struct results *from, int *fd);

/* What run_one's steps return when the checkpoint changed between its read and the lock
 * (cli_resume_same): the folder is let go, and everything is done again from the read. */
#define CLI_RESUME_AGAIN (-EAGAIN)

/* Is the checkpoint open as `fd` (cli_resume_load's) still the results.json of the folder
 * `od` holds (outdir_resume)? Another run that went on with the folder between the read and
 * the lock replaced it: a checkpoint is renamed into place, never written over, and the file
 * held open keeps its inode number from being given to another. */
bool cli_resume_same(const struct outdir *od, int fd);

/* --resume on a run that is complete (`from`, read as `fd`; a result file may be missing):
 * DIR is taken, nothing runs, and the files it lacks are written from `from`. Returns the
 * run's exit status (1 when a trial of a measured job failed, or a log lacks lines), or
 * CLI_RESUME_AGAIN. */
int cli_resume_complete(const struct cli_args *args, const struct results *from, int fd);

/* Does a trial of `r` lack lines of its record or interval log (log_error)? The run's exit
 * status is then 1, a resumed run's too for the trials its checkpoint gave it. */
bool cli_logs_cut(const struct results *r);

/* Is job file `s` (parsed with this command's --set options) the one of the run in `dir`:
 * the same bytes (sha256) and the same overrides? */
int cli_resume_match(const char *dir, const struct results *from, const struct exp_spec *s);

#endif
