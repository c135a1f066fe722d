/* Usage errors: one line that says what is wrong, then one that says where the help is,
 * instead of the whole --help text (which buries the line that matters). */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>

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
