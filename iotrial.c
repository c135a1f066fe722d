/* The iotrial command line: parses arguments, then drives parsers → plan → run → reporters.
 * Exit status: 0 all trials ran; 1 a trial or the run failed; 2 usage or job-file error
 * (nothing was run); 130/143 interrupted by SIGINT/SIGTERM, after writing what was measured;
 * 141 stdout closed by its reader (EPIPE), after writing the result folder. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/estimate.h"
#include "cli/load.h"
#include "cli/run_cmd.h"
#include "engine/dist/dist.h"
#include "engine/io/backends/backend.h"
#include "lib/version.h"

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
    "  --checkpoint-interval TIME  write results.json this often during a run (5s; 0: every trial)\n"
    "\n"
    "Exit status: 0 all trials ran; 1 a trial or the run failed; 2 usage or job-file error;\n"
    "130 interrupted (143 for SIGTERM), after writing what was measured; 141 stdout closed by\n"
    "its reader, after writing the results.\n"
    "Documentation: docs/cli.md, docs/jobfile.md, docs/results.md.\n";

/* validate's last line: the plan's estimated time, with the hints of --estimate-from or
 * --probe. Returns 0 or the exit status of what failed (after saying why). */
static int validate_estimate(const struct cli_args *c, const char *file, const char *scratch,
			     const struct plan *p)
{
	struct est_hint *hints = NULL;
	struct plan_estimate e;
	char text[1024];
	int ret = 0;

	if (c->estimate_from && dist_rank() == 0)
		ret = cli_hints_from(c->estimate_from, p, &hints);
	else if (c->probe)
		ret = cli_probe(file, c->ov, c->nov, scratch, p, 0.3, &hints);
	if ((ret = load_agree_max(ret))) {
		free(hints);
		return ret;
	}
	estimate_plan(p, hints, &e);
	cli_estimate_text(text, sizeof(text), p, &e,
			  c->estimate_from ? "--estimate-from"
			  : c->probe	   ? "--probe"
					   : NULL,
			  false);
	if (dist_rank() == 0)
		printf("estimated time: %s\n", text);
	free(hints);
	return 0;
}

static int cmd_validate(int argc, char **argv)
{
	struct cli_args c = {0};
	char *scratch = load_scratch_path();
	int worst = 0, err;

	if ((err = cli_args_parse(argc, argv, &c, false)) < 0) {
		if (err == -EINVAL)
			cli_usage_hint("validate");
		cli_args_release(&c);
		free(scratch);
		return cli_exit_status(err, EXIT_USAGE);
	}
	if (c.probe && c.estimate_from) {
		fputs("iotrial: give --estimate-from or --probe, not both\n", stderr);
		cli_usage_hint("validate");
		cli_args_release(&c);
		free(scratch);
		return EXIT_USAGE;
	}
	for (int i = 0; i < c.nfiles; i++) {
		struct exp_spec s;
		struct plan p;
		int ret = load_job(c.files[i], c.ov, c.nov, scratch ? scratch : ".", &s, &p);
		if (ret) {
			worst = ret > worst ? ret : worst;
			continue;
		}
		if (dist_rank() == 0) {
			cli_print_plan(&p);
			cli_print_stages(&p);
		}
		ret = validate_estimate(&c, c.files[i], scratch ? scratch : ".", &p);
		worst = ret > worst ? ret : worst;
		plan_release(&p);
		spec_release(&s);
	}
	free(scratch);
	cli_args_release(&c);
	return worst;
}

static int with_ranks(int (*cmd)(int, char **), int argc, char **argv)
{
	char why[512];
	int ret;

	if (dist_init(&argc, &argv) < 0)
		return EXIT_RUN;
	if (dist_check_launch(why, sizeof(why)) < 0) {
		fprintf(stderr, "iotrial: %s\n", why);
		dist_finalize();
		return EXIT_RUN;
	}
	if (dist_share_run_id() < 0)
		dist_abort(EXIT_RUN, "cannot receive the run's id from rank 0");
	ret = cmd(argc - 1, argv + 1);
	dist_finalize();
	return ret;
}

int main(int argc, char **argv)
{
	char err[256];

	cli_std_fds_open();
	/* The backends' options become job keys before any job file is read. */
	if (be_registry_init(err, sizeof(err)) < 0) {
		fprintf(stderr, "iotrial: internal error: %s\n", err);
		return 1;
	}
	if (argc < 2) {
		fputs(iotrial_usage, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version")) {
		bool serial = !strcmp(dist_transport(), "serial");
		printf("iotrial %s (backends: %s; distributed runs: %s)\n", IOTRIAL_VERSION,
		       be_names(), serial ? "no, a serial build without MPI" : dist_transport());
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		fputs(iotrial_usage, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "run"))
		return with_ranks(cmd_run, argc, argv);
	if (!strcmp(argv[1], "validate"))
		return with_ranks(cmd_validate, argc, argv);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "import-fio"))
		return cmd_import_fio(argc - 1, argv + 1);
	if (!strcmp(argv[1], "backends"))
		return cmd_backends();
	if (!strcmp(argv[1], "keys"))
		return cmd_keys(argc - 1, argv + 1);
	fprintf(stderr, "iotrial: unknown command '%s'\n", argv[1]);
	cli_usage_hint(NULL);
	return EXIT_USAGE;
}
