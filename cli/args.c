/* The options of run and validate (see args.h): one switch over getopt_long's letters, and
 * the checks of the options that go together (-o - with -f, --resume). */
#include "cli/args.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/dist/dist.h"
#include "lib/units.h"

void cli_args_release(struct cli_args *args)
{
	for (size_t i = 0; i < args->nov; i++) {
		free(args->ov[i].key);
		free(args->ov[i].value);
	}
	free(args->ov);
	args->ov = NULL;
	args->nov = 0;
}

static int parse_formats(struct cli_args *args, const char *arg)
{
	char names[128];

	args->formats.n = 0;
	rep_names(names, sizeof(names));
	/* Every item counts: -f '' or -f text,,csv is a slip, not a wish for no files. */
	for (const char *t = arg;; t++) {
		size_t n = strcspn(t, ",");
		const struct rep_ops *rep = rep_find_n(t, n);
		if (!n) {
			fprintf(stderr,
				"iotrial: -f takes a comma list of %s, not '%s' (an empty name)\n",
				names, arg);
			return -EINVAL;
		}
		if (!rep) {
			fprintf(stderr, "iotrial: unknown format '%.*s' (expected %s)\n", (int)n, t,
				names);
			return -EINVAL;
		}
		rep_list_add(&args->formats, rep);
		t += n;
		if (!*t)
			return 0;
	}
}

/* One more --set override (--force adds allow_overwrite=true): 0 or -ENOMEM. It is counted
 * even when a copy failed, so cli_release frees what was made. */
static int add_override(struct cli_args *args, const char *key, size_t keylen, const char *value)
{
	struct spec_override *ov = realloc(args->ov, (args->nov + 1) * sizeof(*ov));

	if (!ov)
		return -ENOMEM;
	args->ov = ov;
	ov[args->nov].key = strndup(key, keylen);
	ov[args->nov].value = strdup(value);
	args->nov++;
	return ov[args->nov - 1].key && ov[args->nov - 1].value ? 0 : -ENOMEM;
}

static int parse_progress(struct cli_args *args, const char *arg)
{
	if (!strcmp(arg, "auto"))
		args->progress = -1;
	else if (!strcmp(arg, "always"))
		args->progress = 1;
	else if (!strcmp(arg, "never"))
		args->progress = 0;
	else {
		fprintf(stderr, "iotrial: --progress takes auto, always or never, not '%s'\n", arg);
		return -EINVAL;
	}
	return 0;
}

static int parse_interval(struct cli_args *args, const char *arg)
{
	const char *why = NULL;

	if (units_parse_duration(arg, &args->checkpoint_ns, &why) < 0) {
		fprintf(
		    stderr,
		    "iotrial: --checkpoint-interval takes a duration (5s, 500ms, 0), not '%s'%s%s\n",
		    arg, why ? ": " : "", why ? why : "");
		return -EINVAL;
	}
	return 0;
}

/* An option that names a file or a folder, `what` (for the message), into *to: 0, or -EINVAL
 * after saying why when optarg is empty. */
static int set_name(const char **to, const char *option, const char *what)
{
	if (!*optarg) {
		fprintf(stderr, "iotrial: %s takes %s, not ''\n", option, what);
		return -EINVAL;
	}
	*to = optarg;
	return 0;
}

/* One option `opt` (getopt's, its argument in optarg): 0, -EINVAL after saying why, or
 * -ENOMEM. */
static int parse_option(struct cli_args *args, int opt)
{
	const char *eq;

	switch (opt) {
	case 'o':
		return set_name(&args->outdir, "-o", "a folder name");
	case 'f':
		args->formats_given = true;
		return parse_formats(args, optarg) < 0 ? -EINVAL : 0;
	case 'q':
		args->quiet = true;
		return 0;
	case 'F':
		/* The same as allow_overwrite: true on every job, and recorded as such; also
		 * lets -o name a folder holding an earlier run, which is emptied first. */
		args->force = true;
		return add_override(args, "allow_overwrite", strlen("allow_overwrite"), "true");
	case 'p':
		return parse_progress(args, optarg);
	case 'E':
		args->estimate_from = optarg;
		return 0;
	case 'P':
		args->probe = true;
		return 0;
	case 'k':
		args->keep_going = true;
		return 0;
	case 'L':
		return set_name(&args->log, "--log", "a file name");
	case 'R':
		return set_name(&args->resume, "--resume", "a result folder");
	case 'C':
		return parse_interval(args, optarg);
	case 's':
		eq = strchr(optarg, '=');
		if (!eq || eq == optarg) {
			fprintf(stderr, "iotrial: --set takes KEY=VALUE, not '%s'\n", optarg);
			return -EINVAL;
		}
		return add_override(args, optarg, (size_t)(eq - optarg), eq + 1);
	case 'h':
		fputs(iotrial_usage, stdout);
		exit(0);
	default: /* '?' and ':' are cli_args_parse's */
		return -EINVAL;
	}
}

/* The option getopt_long just took, as written: "--log x.log" and "-o DIR" leave optind past
 * their value, so the option is the word before it; "--log=x.log" is cut at the '='. */
static const char *opt_word(char **argv)
{
	const char *w = argv[optind - 1];

	return w[0] != '-' && optind >= 3 ? argv[optind - 2] : w;
}

static int opt_len(char **argv)
{
	const char *w = opt_word(argv);

	return (int)strcspn(w, "=");
}

/* --resume DIR: one job file, its results into DIR, results.json among them (the
 * checkpoint), on one rank. 0 or -EINVAL after saying why. */
static int check_resume(const struct cli_args *args)
{
	const char *why = NULL;

	if (!args->resume)
		return 0;
	if (args->nfiles != 1)
		why = "--resume takes one job file";
	else if (args->outdir)
		why = "--resume DIR writes into DIR: -o is not for it";
	else if (!rep_list_has(&args->formats, "json"))
		why = "--resume needs json among -f's formats: results.json is the checkpoint";
	else if (dist_size() > 1)
		why = "--resume runs on one rank, not under mpirun";
	if (why)
		fprintf(stderr, "iotrial: %s\n", why);
	return why ? -EINVAL : 0;
}

int cli_args_parse(int argc, char **argv, struct cli_args *args, bool for_run)
{
	static const struct option longopts[] = {
	    {"set", required_argument, NULL, 's'},
	    {"progress", required_argument, NULL, 'p'},
	    {"force", no_argument, NULL, 'F'},
	    {"estimate-from", required_argument, NULL, 'E'},
	    {"probe", no_argument, NULL, 'P'},
	    {"keep-going", no_argument, NULL, 'k'},
	    {"log", required_argument, NULL, 'L'},
	    {"resume", required_argument, NULL, 'R'},
	    {"checkpoint-interval", required_argument, NULL, 'C'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int opt, ret;

	args->progress = -1;
	args->checkpoint_ns = 5000000000ull;
	rep_list_default(&args->formats);
	optind = 1;
	opterr = 0; /* cli_bad_option says it, naming the command's help */
	while ((opt = getopt_long(argc, argv, ":o:f:qh", longopts, NULL)) != -1) {
		if (!for_run && opt != 's' && opt != 'h' && opt != '?' && opt != ':' &&
		    opt != 'E' && opt != 'P') {
			fprintf(stderr, "iotrial: option '%.*s' is for 'iotrial run'\n",
				opt_len(argv), opt_word(argv));
			return -EINVAL;
		}
		if (for_run && opt == 'P') {
			fprintf(stderr, "iotrial: option '%.*s' is for 'iotrial validate'\n",
				opt_len(argv), opt_word(argv));
			return -EINVAL;
		}
		if (opt == '?' || opt == ':') {
			cli_bad_option(opt, argv);
			return -EINVAL;
		}
		if ((ret = parse_option(args, opt)) < 0)
			return ret;
	}
	args->files = argv + optind;
	args->nfiles = argc - optind;
	if (args->nfiles == 0) {
		fprintf(stderr, "iotrial: no job file given\n");
		return -EINVAL;
	}
	if (for_run &&
	    (ret = cli_stream_check(args->outdir, &args->formats, args->formats_given)) < 0)
		return ret;
	return check_resume(args);
}

int cli_env_check(void)
{
	const char *clock = getenv("IOTRIAL_CLOCK");

	/* A misspelt value must not time a run with the clock it was meant to rule out. */
	if (clock && *clock && strcmp(clock, "monotonic") != 0) {
		fprintf(stderr,
			"iotrial: IOTRIAL_CLOCK='%s' is no clock iotrial knows: 'monotonic', or "
			"unset\n",
			clock);
		return -EINVAL;
	}
	return 0;
}

int cli_exit_status(int err, int usage)
{
	if (err != -ENOMEM)
		return usage;
	fputs("iotrial: out of memory\n", stderr);
	return EXIT_RUN;
}
