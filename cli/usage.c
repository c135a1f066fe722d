/* The text of iotrial --help, and the usage errors: one line that says what is wrong, then
 * one that says where the help is, instead of the whole text (which buries the line that
 * matters). */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>

const char iotrial_usage[] =
    "usage: iotrial run JOBFILE... [-o DIR] [-f FORMATS] [--set KEY=VALUE]... [-q] [--force] [--progress auto|always|never] [--estimate-from RESULTS.json] [--keep-going] [--log FILE]\n"
    "       iotrial run JOBFILE --resume DIR [--set KEY=VALUE]... [-f FORMATS] [-q] [--force]\n"
    "       iotrial validate JOBFILE... [--set KEY=VALUE]... [--estimate-from RESULTS.json] [--probe]\n"
    "       iotrial report RESULTS.json [-f text|csv|json|html] [-o FILE]\n"
    "       iotrial compare A.json B.json [--metric M] [--confidence C] [--paired]\n"
    "       iotrial import-fio FILE.fio\n"
    "       iotrial backends\n"
    "       iotrial keys [NAME | BACKEND | --json]\n"
    "       iotrial --help | --version\n"
    "\n"
    "  run        run the experiments; results go to DIR or results/<experiment>-<UTC time>/;\n"
    "             several job files: DIR/<file name>/ each, or results/batch-<UTC time>/, and\n"
    "             DIR/batch.json, the queue's state\n"
    "  validate   parse and plan, print the resolved plan and its estimated time; run nothing\n"
    "             (but the probe)\n"
    "  report     the report of a saved results.json (default text), on stdout or into FILE\n"
    "  compare    how B's runs differ from A's, for each job instance both files have\n"
    "  import-fio a fio job file as an iotrial job file, on stdout (exit 3: some option not mapped)\n"
    "  backends   the compiled-in backends, and whether each works here\n"
    "  keys       every job key with its type, default and meaning; NAME: that key in full;\n"
    "             BACKEND: its options\n"
    "\n"
    "  -o DIR             where results go; -o -: to stdout, no folder (ndjson or json)\n"
    "  -f FORMATS         comma list of text, json, csv, html, ndjson (default: text,json,csv);\n"
    "                     ndjson: the run's events on stdout as they happen\n"
    "  --set KEY=VALUE    override a key: block_size=8KiB (every job), JOB.block_size=8KiB,\n"
    "                     replication.runs=20, JOB.matrix.block_size=[4KiB,1MiB],\n"
    "                     experiment=NAME, seed=N; an empty VALUE unsets\n"
    "  -q                 do not print the summary to stdout (nor progress, unless always)\n"
    "  --force            write over existing files and unmounted block devices (allow_overwrite);\n"
    "                     replace an earlier run in the -o folder\n"
    "  --progress WHEN    progress on stderr: auto (a terminal, without -q), always, never\n"
    "  --estimate-from RESULTS.json\n"
    "                     size-bound trials take as long as in this earlier run (its rates)\n"
    "  --probe            validate: time each size-bound job instance in three 0.3 s trials\n"
    "  --keep-going       with several job files, run the rest after one fails\n"
    "  --log FILE         append one line per trial (and per job file) to FILE\n"
    "  --resume DIR       go on with the interrupted run whose checkpoint is in DIR\n"
    "                     (a complete one: write the result files DIR lacks)\n"
    "  --checkpoint-interval TIME  write results.json this often during a run (5s; 0: every trial)\n"
    "\n"
    "Exit status: 0 all trials ran; 1 a trial or the run failed; 2 usage or job-file error;\n"
    "130 interrupted (143 SIGTERM, 129 SIGHUP), after writing what was measured; 141 stdout closed by\n"
    "its reader, after writing the results.\n"
    "Documentation: docs/cli.md, docs/jobfile.md, docs/results.md.\n";

void cli_usage_hint(const char *cmd)
{
	fprintf(stderr, "iotrial: see 'iotrial %s%s--help'\n", cmd ? cmd : "", cmd ? " " : "");
}

void cli_bad_option(int opt, char **argv)
{
	/* getopt leaves a short option in optopt; a long one only in the word it read. */
	const char *word = argv[optind - 1];

	if (opt == ':')
		fprintf(stderr, "iotrial: option '%s' needs a value\n", word);
	else if (optopt)
		fprintf(stderr, "iotrial: unknown option '-%c'\n", optopt);
	else
		fprintf(stderr, "iotrial: unknown option '%s'\n", word);
}
