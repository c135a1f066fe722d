/* iotrial report and iotrial compare: saved runs read back (model/results_json.c) and
 * written again by a reporter, or compared instance by instance. */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/diag.h"
#include "lib/visible.h"
#include "model/metrics.h"
#include "model/results.h"
#include "model/results_json.h"
#include "reporters/compare_text.h"
#include "reporters/reporter.h"

static int load_results(const char *path, struct results *r)
{
	struct diag d = {0};
	int ret = rj_load(path, r, &d);

	diag_print(&d, stderr);
	diag_release(&d);
	return ret ? EXIT_USAGE : 0;
}

/* Would writing `out` replace the results file `in` (the same file by another name: ./R.json,
 * a symbolic or hard link)? A measurement is not replaced by a report of it. */
static bool same_file(const char *in, const char *out)
{
	struct stat a, b;

	return stat(in, &a) == 0 && stat(out, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* What `out` is when it is there and not a regular file (a device node, a symbolic link, a
 * FIFO, a socket, a folder): the report is renamed into place, which would replace it (as
 * root, `-o /dev/null` would leave a regular file where the device was). NULL: missing, or
 * a regular file. */
static const char *not_a_file(const char *out)
{
	struct stat st;

	if (lstat(out, &st) < 0 || S_ISREG(st.st_mode))
		return NULL;
	return S_ISLNK(st.st_mode)			    ? "a symbolic link"
	       : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device node"
	       : S_ISFIFO(st.st_mode)			    ? "a FIFO"
	       : S_ISDIR(st.st_mode)			    ? "a folder"
							    : "a socket";
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const struct rep_ops *rep = rep_find("text");
	const char *outfile = NULL, *what;
	char names[128];
	struct results r;
	int opt, ret;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":f:o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!(rep = rep_find(optarg))) {
				rep_names(names, sizeof(names));
				fprintf(stderr, "iotrial: unknown format '%s' (expected %s)\n",
					optarg, names);
				cli_usage_hint("report");
				return EXIT_USAGE;
			}
			break;
		case 'o':
			if (!*optarg) {
				fprintf(stderr, "iotrial: -o takes a file name, not ''\n");
				cli_usage_hint("report");
				return EXIT_USAGE;
			}
			/* "-": stdout, as without -o (not a file named '-'). */
			outfile = strcmp(optarg, "-") ? optarg : NULL;
			break;
		case 'h':
			fputs(iotrial_usage, stdout);
			return 0;
		default:
			cli_bad_option(opt, argv);
			cli_usage_hint("report");
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "iotrial: report takes one results file\n");
		cli_usage_hint("report");
		return EXIT_USAGE;
	}
	if (outfile && same_file(argv[optind], outfile)) {
		fprintf(
		    stderr,
		    "iotrial: -o '%s' is the results file '%s' itself; write the report to another file\n",
		    outfile, argv[optind]);
		return EXIT_USAGE;
	}
	if (outfile && (what = not_a_file(outfile))) {
		fprintf(
		    stderr,
		    "iotrial: -o '%s' is %s, not a file: the report would replace it; name a new or regular file\n",
		    outfile, what);
		return EXIT_USAGE;
	}
	if (load_results(argv[optind], &r))
		return EXIT_USAGE;
	if (outfile)
		ret = rep_write_path(rep, &r, outfile);
	else
		ret = fflush(stdout) == 0 ? rep_write_fd(rep, &r, STDOUT_FILENO) : -errno;
	if (ret < 0)
		fprintf(stderr, "iotrial: cannot write %s: %s\n", outfile ? outfile : "stdout",
			strerror(-ret));
	results_release(&r);
	return ret < 0 ? EXIT_RUN : 0;
}

static int by_name(const void *x, const void *y)
{
	const struct instance_result *const *a = x, *const *b = y;

	return strcmp((*a)->name, (*b)->name);
}

/* Compare each instance of `a` with its namesake in `b` (found through a sorted index): by
 * `metric`, else by the metric A's instance was summarized by. Each comparison's metric is a
 * copy the caller frees. */
static int compare_all(const struct results *a, const struct results *b,
		       const struct metric *metric, double confidence, bool paired,
		       struct comparison *cmp, bool *b_matched)
{
	struct instance_result **idx = calloc(b->ninst ? b->ninst : 1, sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	for (size_t j = 0; j < b->ninst; j++)
		idx[j] = &b->inst[j];
	qsort(idx, b->ninst, sizeof(*idx), by_name);
	for (size_t i = 0; i < a->ninst; i++) {
		struct instance_result key = {.name = a->inst[i].name}, *kp = &key, **hit;
		struct comparison *c = &cmp[i];

		hit = b->ninst ? bsearch(&kp, idx, b->ninst, sizeof(*idx), by_name) : NULL;
		if (!hit)
			continue;
		b_matched[*hit - b->inst] = true;
		c->a = a->inst[i].name;
		c->b = (*hit)->name;
		const struct metric *m =
		    metric ? metric : metric_or_default(a->inst[i].summary.metric);
		if (!m) {
			/* Both strings are from A's file: shown with their controls written out. */
			visible_printf(stderr,
				       "iotrial: %s: unknown metric '%s'; choose one with --metric",
				       a->inst[i].name, a->inst[i].summary.metric);
			fputc('\n', stderr);
			free(idx);
			return -EINVAL;
		}
		if (!(c->metric = strdup(m->name))) {
			free(idx);
			return -ENOMEM;
		}
		c->confidence = confidence;
		results_compare(&a->inst[i], *hit, paired, c);
	}
	free(idx);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"metric", required_argument, NULL, 'm'},
	    {"confidence", required_argument, NULL, 'c'},
	    {"paired", no_argument, NULL, 'p'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct results a, b;
	struct comparison *cmp = NULL;
	bool paired = false, *b_matched = NULL;
	double confidence = 0.95;
	const struct metric *metric = NULL;
	char *end, list[128];
	int opt, ret;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			if (!(metric = metric_find(optarg))) {
				metric_list(list, sizeof(list), " or ");
				fprintf(stderr, "iotrial: --metric takes %s, not '%s'\n", list,
					optarg);
				cli_usage_hint("compare");
				return EXIT_USAGE;
			}
			break;
		case 'c':
			errno = 0;
			confidence = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(confidence > 0 && confidence < 1)) {
				fprintf(
				    stderr,
				    "iotrial: --confidence takes a number between 0 and 1, not '%s'\n",
				    optarg);
				cli_usage_hint("compare");
				return EXIT_USAGE;
			}
			break;
		case 'p':
			paired = true;
			break;
		case 'h':
			fputs(iotrial_usage, stdout);
			return 0;
		default:
			cli_bad_option(opt, argv);
			cli_usage_hint("compare");
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "iotrial: compare takes two results files\n");
		cli_usage_hint("compare");
		return EXIT_USAGE;
	}
	if (load_results(argv[optind], &a))
		return EXIT_USAGE;
	if (load_results(argv[optind + 1], &b)) {
		results_release(&a);
		return EXIT_USAGE;
	}
	cmp = calloc(a.ninst ? a.ninst : 1, sizeof(*cmp));
	b_matched = calloc(b.ninst ? b.ninst : 1, sizeof(*b_matched));
	if (!cmp || !b_matched) {
		fprintf(stderr, "iotrial: out of memory\n");
		ret = EXIT_RUN;
	} else if ((ret = compare_all(&a, &b, metric, confidence, paired, cmp, b_matched)) < 0) {
		if (ret == -ENOMEM)
			fprintf(stderr, "iotrial: out of memory\n");
		ret = ret == -ENOMEM ? EXIT_RUN : EXIT_USAGE;
	} else {
		rep_compare_text(argv[optind], &a, argv[optind + 1], &b, cmp, b_matched, stdout);
		ret = fflush(stdout) || ferror(stdout) ? EXIT_RUN : 0;
	}
	for (size_t i = 0; cmp && i < a.ninst; i++)
		free(cmp[i].metric);
	free(cmp);
	free(b_matched);
	results_release(&a);
	results_release(&b);
	return ret;
}

/* Run a command that may be one rank of a distributed run: join the run, refuse a
 * launch whose processes cannot see each other, leave the run afterwards. */
