/* iotrial run --resume DIR: the checkpoint in DIR read back and checked against the job file
 * and the command line, before anything is run or written. Each function prints one line on
 * stderr when it refuses, and returns an exit status (0, EXIT_USAGE, EXIT_RUN: cli/cli.h). */
#ifndef IOTRIAL_CLI_RESUME_H
#define IOTRIAL_CLI_RESUME_H

#include "model/results.h"
#include "model/spec.h"

/* The checkpoint of the run in folder `dir` into `from`: the folder must not be held by a
 * running iotrial, its results.json must be whole, of this schema and of this version of
 * iotrial. Its run may be complete (from->complete): then nothing runs again, and only the
 * result files it lacks are written. On success the caller releases `from`. */
int cli_resume_load(const char *dir, struct results *from);

/* Is job file `s` (parsed with this command's --set options) the one of the run in `dir`:
 * the same bytes (sha256) and the same overrides? */
int cli_resume_match(const char *dir, const struct results *from, const struct exp_spec *s);

#endif
