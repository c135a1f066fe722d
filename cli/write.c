/* Writing a run's results: the result files, the checkpoints and the summary on stdout, and
 * the signals that stop a run. */
#include "cli/cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "reporters/reporter.h"

volatile sig_atomic_t cli_stop_signal;

static void on_signal(int sig)
{
	if (cli_stop_signal && sig == SIGINT)
		_exit(130); /* a second Ctrl-C: leave now */
	cli_stop_signal = sig;
}

void cli_signals_install(void)
{
	struct sigaction sa = {0};

	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void cli_checkpoint(const struct results *r, void *dir)
{
	const struct rep_ops *json = rep_find("json");

	if (json)
		rep_write_file(json, r, dir);
}

int cli_write_results(const struct results *r, const char *dir, const bool *formats, bool quiet)
{
	int failed = 0;

	for (size_t i = 0; rep_registry[i]; i++) {
		int wr;
		if (!formats[i])
			continue;
		if ((wr = rep_write_file(rep_registry[i], r, dir)) < 0) {
			fprintf(stderr, "iotrial: cannot write %s/%s: %s\n", dir,
				rep_registry[i]->file, strerror(-wr));
			failed++;
		}
	}
	if (!quiet)
		rep_find("text")->write(r, stdout);
	if (failed) {
		fprintf(stderr, "iotrial: results in %s/ are incomplete: %d file(s) not written\n",
			dir, failed);
		return EXIT_RUN;
	}
	fprintf(stderr, "iotrial: results in %s/\n", dir);
	return 0;
}
