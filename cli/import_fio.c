/* iotrial import-fio FILE.fio: a fio job file as an iotrial YAML job file on stdout (see
 * import_fio.h and docs/fio.md). Exit status: 0 every option mapped; 3 some option could not
 * be (each is a "# not mapped" comment at its place); 2 the file cannot be read or is not a
 * fio job file (one line, FILE:LINE:COL, nothing on stdout); 1 out of memory. */
#include "cli/import_fio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "model/fio_names.h"
#include "parsers/jobfile.h"

#define EXIT_PARTIAL 3 /* a partial import: some option could not be mapped */

struct imp {
	const char *file;
	struct imp_job *jobs;
	size_t njobs;
	struct imp_job defaults;
	char *top_name, *top_desc;
};

static void imp_job_release(struct imp_job *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->e[i].key);
		free(j->e[i].value);
	}
	free(j->e);
	free(j->name);
	free(j->fio_name);
	free(j->wait_for);
}

static void imp_release(struct imp *im)
{
	for (size_t i = 0; i < im->njobs; i++)
		imp_job_release(&im->jobs[i]);
	free(im->jobs);
	imp_job_release(&im->defaults);
	free(im->top_name);
	free(im->top_desc);
}

/* A job's name, unique among the jobs before it (fio allows two sections of one name). */
static char *imp_unique_name(const struct imp *im, size_t upto, const char *want)
{
	char *name = imp_safe_name(want);

	for (unsigned k = 2; name; k++) {
		bool taken = false;
		for (size_t i = 0; i < upto && !taken; i++)
			taken = !strcmp(im->jobs[i].name, name);
		if (!taken)
			return name;
		free(name);
		name = NULL;
		char *s = imp_safe_name(want);
		if (s && asprintf(&name, "%s-%u", s, k) < 0)
			name = NULL;
		free(s);
	}
	return NULL;
}

/* Every job with its effective options: the [global] sections above it, then its own. */
static int imp_build(struct imp *im, const struct fio_ini *f)
{
	struct imp_opt *opts = NULL;
	size_t nglobal = 0;
	int ret = 0;

	for (size_t s = 0; s < f->nsecs && ret >= 0; s++) {
		const struct fio_section *sec = &f->secs[s];
		bool global = !strcmp(sec->name, "global");
		size_t n = nglobal + sec->nopts;
		struct imp_opt *no = realloc(opts, (n ? n : 1) * sizeof(*no));
		struct imp_job *nj;

		if (!no)
			return -ENOMEM;
		opts = no;
		for (size_t i = 0; i < sec->nopts; i++)
			opts[nglobal + i] = (struct imp_opt){&sec->opts[i], global};
		if (global) {
			nglobal = n;
			continue;
		}
		if (!(nj = realloc(im->jobs, (im->njobs + 1) * sizeof(*nj)))) {
			ret = -ENOMEM;
			break;
		}
		im->jobs = nj;
		nj += im->njobs++;
		memset(nj, 0, sizeof(*nj));
		nj->leader = im->njobs == 1;
		nj->fio_name = strdup(sec->name);
		nj->name = imp_safe_name(sec->name);
		if (!nj->fio_name || !nj->name) {
			ret = -ENOMEM;
			break;
		}
		ret = imp_map_job(nj, opts, n, &im->top_name, &im->top_desc);
		if (ret >= 0) {
			char *u = imp_unique_name(im, im->njobs - 1, nj->name);
			free(nj->name);
			nj->name = u;
			ret = u ? 0 : -ENOMEM;
		}
	}
	free(opts);
	return ret;
}

static bool imp_entry_eq(const struct imp_entry *a, const struct imp_entry *b)
{
	return a->global && b->global && !a->key == !b->key &&
	       (!a->key || !strcmp(a->key, b->key)) && !strcmp(a->value, b->value);
}

static const struct imp_entry *imp_find(const struct imp_job *j, const struct imp_entry *want)
{
	for (size_t i = 0; i < j->n; i++)
		if (imp_entry_eq(&j->e[i], want))
			return &j->e[i];
	return NULL;
}

/* What came from [global] and every job has alike goes into defaults:, once. */
static int imp_hoist(struct imp *im)
{
	struct imp_job *first = &im->jobs[0];

	for (size_t i = 0; i < first->n;) {
		struct imp_entry *e = &first->e[i];
		bool everywhere = e->global;
		for (size_t k = 1; k < im->njobs && everywhere; k++)
			everywhere = imp_find(&im->jobs[k], e) != NULL;
		if (!everywhere) {
			i++;
			continue;
		}
		struct imp_entry *nd = realloc(im->defaults.e, (im->defaults.n + 1) * sizeof(*nd));
		if (!nd)
			return -ENOMEM;
		im->defaults.e = nd;
		nd[im->defaults.n++] = *e;
		for (size_t k = 1; k < im->njobs; k++) {
			struct imp_job *j = &im->jobs[k];
			struct imp_entry *x = (struct imp_entry *)imp_find(j, e);
			free(x->key);
			free(x->value);
			memmove(x, x + 1, (size_t)(j->e + j->n - x - 1) * sizeof(*x));
			j->n--;
		}
		memmove(e, e + 1, (first->n - i - 1) * sizeof(*e));
		first->n--;
	}
	return 0;
}

/* fio runs the jobs between two stonewalls together: `with` the first of them. wait_for is
 * `after`. */
static int imp_graph(struct imp *im)
{
	size_t leader = 0;
	int ret = 0;

	for (size_t i = 0; i < im->njobs && ret >= 0; i++) {
		struct imp_job *j = &im->jobs[i];
		if (j->wait_for) {
			size_t k;
			for (k = 0; k < im->njobs && strcmp(im->jobs[k].fio_name, j->wait_for); k++)
				;
			if (k == im->njobs || k == i)
				ret = imp_comment(
				    j, false, true,
				    "not mapped: wait_for=%s (line %u): no other job is named '%s'",
				    j->wait_for, j->wait_line, j->wait_for);
			else
				ret = imp_set(j, "after", im->jobs[k].name, false);
			leader = i;
			continue;
		}
		if (j->leader)
			leader = i;
		else
			ret = imp_set(j, "with", im->jobs[leader].name, false);
	}
	return ret;
}

static void imp_emit_entries(const struct imp_job *j, const char *indent, FILE *out)
{
	for (size_t i = 0; i < j->n; i++) {
		if (j->e[i].key)
			fprintf(out, "%s%s: %s\n", indent, j->e[i].key, j->e[i].value);
		else
			fprintf(out, "%s# %s\n", indent, j->e[i].value);
	}
}

static size_t imp_count_unmapped(const struct imp_job *j)
{
	size_t n = 0;

	for (size_t i = 0; i < j->n; i++)
		n += j->e[i].unmapped;
	return n;
}

static int imp_emit(const struct imp *im, FILE *out)
{
	const char *base = strrchr(im->file, '/');
	char *exp, *y;

	base = base ? base + 1 : im->file;
	fprintf(
	    out,
	    "# Imported from %s by iotrial import-fio. Each fio option became an iotrial key, a\n"
	    "# \"note\" that says how, or a \"not mapped\" line that says why not (docs/fio.md).\n",
	    base);
	if (im->top_name) {
		exp = imp_safe_name(im->top_name);
	} else {
		exp = strdup(base);
		if (exp && strrchr(exp, '.') && strrchr(exp, '.') != exp)
			*strrchr(exp, '.') = 0;
		y = exp ? imp_safe_name(exp) : NULL;
		free(exp);
		exp = y;
	}
	if (!exp)
		return -ENOMEM;
	fprintf(out, "experiment: %s\n", exp);
	free(exp);
	if (im->top_desc) {
		if (!(y = imp_yaml_scalar(im->top_desc)))
			return -ENOMEM;
		fprintf(out, "description: %s\n", y);
		free(y);
	}
	if (im->defaults.n) {
		fprintf(out, "defaults:\n");
		imp_emit_entries(&im->defaults, "  ", out);
	}
	fprintf(out, "jobs:\n");
	for (size_t i = 0; i < im->njobs; i++) {
		fprintf(out, "  - name: %s\n", im->jobs[i].name);
		imp_emit_entries(&im->jobs[i], "    ", out);
	}
	return 0;
}

static int imp_options(void)
{
	for (const struct fio_name *n = fio_names; n->fio; n++) {
		const char *state = n->conv == FC_NONE	  ? "not supported"
				    : !fio_name_mapped(n) ? "not yet"
				    : n->conv == FC_NOTE  ? "note"
							  : "mapped";
		printf("%s\t%s\t%s\t%s\n", n->fio, n->key ? n->key : "-", state,
		       n->why	    ? n->why
		       : n->pending ? n->pending
				    : "");
	}
	return 0;
}

int cmd_import_fio(int argc, char **argv)
{
	struct imp im = {0};
	struct fio_ini f;
	struct diag d = {0};
	char *text = NULL;
	size_t len = 0, unmapped = 0;
	int ret;

	if (argc == 2 && !strcmp(argv[1], "--options"))
		return imp_options();
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(
		    stderr,
		    "usage: iotrial import-fio FILE.fio   (or --options: the fio options it knows)\n");
		return EXIT_USAGE;
	}
	im.file = argv[1];
	ret = yp_read_file(im.file, &text, &len, &d);
	if (!ret)
		ret = fio_ini_parse(im.file, text, len, &f, &d);
	free(text);
	diag_print(&d, stderr);
	diag_release(&d);
	if (ret)
		return ret == -ENOMEM ? EXIT_RUN : EXIT_USAGE;
	ret = imp_build(&im, &f);
	if (ret >= 0 && !im.njobs) {
		fprintf(stderr, "%s:1:1: no job in the file, only [global] sections\n", im.file);
		ret = -EINVAL;
	}
	if (ret >= 0)
		ret = imp_graph(&im);
	if (ret >= 0)
		ret = imp_hoist(&im);
	if (ret >= 0)
		ret = imp_emit(&im, stdout);
	unmapped = imp_count_unmapped(&im.defaults);
	for (size_t i = 0; i < im.njobs; i++)
		unmapped += imp_count_unmapped(&im.jobs[i]);
	imp_release(&im);
	fio_ini_release(&f);
	if (ret == -ENOMEM)
		fprintf(stderr, "iotrial: out of memory\n");
	if (ret < 0)
		return ret == -ENOMEM ? EXIT_RUN : EXIT_USAGE;
	if (fflush(stdout) != 0) {
		fprintf(stderr, "iotrial: cannot write the job file: %s\n", strerror(errno));
		return EXIT_RUN;
	}
	if (!unmapped)
		return 0;
	fprintf(stderr, "iotrial: %s: %zu fio option(s) not mapped; see the '# not mapped' lines\n",
		im.file, unmapped);
	return EXIT_PARTIAL;
}
