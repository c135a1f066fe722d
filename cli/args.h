/* The options and job files of `iotrial run` and `iotrial validate` (cli/args.c): parsed
 * with getopt_long into one struct, each mistake said in one line on stderr. */
#ifndef IOTRIAL_CLI_ARGS_H
#define IOTRIAL_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/stream.h"
#include "model/spec.h"
#include "reporters/reporter.h"

struct cli_args {
	const char *outdir;
	bool force;
	struct rep_list formats; /* what -f asked for */
	struct spec_override *ov;
	size_t nov;
	bool quiet;
	int progress;		   /* -1 auto, 0 never, 1 always */
	const char *estimate_from; /* --estimate-from: an earlier run's results.json */
	bool probe;		   /* validate --probe */
	bool keep_going;
	const char *log; /* --log FILE */
	char **files;
	int nfiles;
	bool formats_given; /* -f was given */
	/* -o - or -f ndjson: what stdout was, for the event stream or results.json; stdout
	 * itself then points at stderr, so nothing else can reach the stream (cli/stream.c). */
	struct cli_stream stream;
	const char *resume;	/* --resume DIR */
	uint64_t checkpoint_ns; /* --checkpoint-interval */
};

/* The options and job files of run (`for_run` true) or validate (argv[0] is the command's name)
 * into `args`: 0, -EINVAL after saying why, or -ENOMEM (see cli_exit_status). --help prints
 * the usage and exits 0. Release `args` either way. */
int cli_args_parse(int argc, char **argv, struct cli_args *args, bool for_run);

/* Free the --set overrides of `args`. */
void cli_args_release(struct cli_args *args);

/* The environment variables iotrial reads (docs/cli.md, "Environment"): 0, or -EINVAL after
 * saying which value is wrong. */
int cli_env_check(void);

/* The exit status for a failed step below the command line: 1 when memory ran out (after
 * saying so), else `usage` (2 for a mistake in the command or the job file). */
int cli_exit_status(int err, int usage);

#endif
