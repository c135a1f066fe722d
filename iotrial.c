/* The iotrial command line: main() finds the command in the table below and runs it; each
 * command is in cli/. Exit status: 0 all trials ran; 1 a trial or the run failed; 2 usage or
 * job-file error (nothing was run); 130/143 interrupted by SIGINT/SIGTERM, after writing what
 * was measured; 141 stdout closed by its reader (EPIPE), after writing the result folder. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/run_cmd.h"
#include "engine/dist/dist.h"
#include "engine/io/backends/backend.h"
#include "lib/version.h"

/* The commands: `name`, then the function that `run`s it with its arguments (argv[0] is
 * `name`); `ranks`: every rank of a distributed run runs it (mpirun), the others run on one
 * process. */
static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	bool ranks;
} commands[] = {
    {"run", cmd_run, true},
    {"validate", cmd_validate, true},
    {"report", cmd_report, false},
    {"compare", cmd_compare, false},
    {"import-fio", cmd_import_fio, false},
    {"backends", cmd_backends, false},
    {"keys", cmd_keys, false},
};

/* Run `run` on every rank of a distributed run (one, without mpirun): its exit status. */
static int with_ranks(int (*run)(int, char **), int argc, char **argv)
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
	ret = run(argc - 1, argv + 1);
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
	if (cli_env_check() < 0)
		return EXIT_USAGE;
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const struct command *cmd = &commands[i];
		if (strcmp(argv[1], cmd->name))
			continue;
		return cmd->ranks ? with_ranks(cmd->run, argc, argv) : cmd->run(argc - 1, argv + 1);
	}
	fprintf(stderr, "iotrial: unknown command '%s'\n", argv[1]);
	cli_usage_hint(NULL);
	return EXIT_USAGE;
}
