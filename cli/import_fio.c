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

#define EXIT_PARTIAL 3	    /* a partial import: some option could not be mapped */
#define IMP_MAX_JOBS 4096   /* as many as an iotrial job file takes */
#define IMP_MAX_OPTS 100000 /* bounds the work: a real file has a few hundred */

struct imp_device {
	char *name, *path;
};

struct imp {
	const char *file;
	struct imp_job *jobs;
	size_t njobs;
	struct imp_job defaults;
	char *top_name, *top_desc;
	struct imp_device *devs; /* the targets under /dev, one device each */
	size_t ndevs;
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
	free(j->base);
	free(j->wait_for);
	free(j->dev_path);
}

static void imp_release(struct imp *im)
{
	for (size_t i = 0; i < im->njobs; i++)
		imp_job_release(&im->jobs[i]);
	free(im->jobs);
	imp_job_release(&im->defaults);
	free(im->top_name);
	free(im->top_desc);
	for (size_t i = 0; i < im->ndevs; i++) {
		free(im->devs[i].name);
		free(im->devs[i].path);
	}
	free(im->devs);
}

/* A job's name, unique among the jobs before it (fio allows two sections of one name):
 * `want`, else `want-K`, K one more than the earlier jobs that wanted the same name, so that
 * many sections of one name cost one try each. */
static char *imp_unique_name(const struct imp *im, size_t upto, const char *want)
{
	unsigned k = 1;
	char *name = strdup(want);

	for (size_t i = 0; i < upto; i++)
		k += !strcmp(im->jobs[i].base, want);
	while (name) {
		bool taken = false;
		for (size_t i = 0; i < upto && !taken; i++)
			taken = !strcmp(im->jobs[i].name, name);
		if (!taken)
			return name;
		free(name);
		if (asprintf(&name, "%s-%u", want, k++) < 0)
			name = NULL;
	}
	return NULL;
}

/* Every job with its effective options: the [global] sections above it, then its own. */
static int imp_build(struct imp *im, const struct fio_ini *f)
{
	struct imp_opt *opts = NULL;
	size_t nglobal = 0, total = 0;
	int ret = 0;

	for (size_t s = 0; s < f->nsecs && ret >= 0; s++) {
		const struct fio_section *sec = &f->secs[s];
		bool global = !strcmp(sec->name, "global");
		size_t n = nglobal + sec->nopts;
		struct imp_opt *no = realloc(opts, (n ? n : 1) * sizeof(*no));
		struct imp_job *nj;

		if (!no) {
			ret = -ENOMEM;
			break;
		}
		opts = no;
		total += global ? 0 : n;
		if (!global && (im->njobs == IMP_MAX_JOBS || total > IMP_MAX_OPTS)) {
			fprintf(
			    stderr, "%s:%u:1: %s\n", im->file, sec->line,
			    im->njobs == IMP_MAX_JOBS
				? "more than 4096 jobs: an iotrial job file takes at most 4096"
				: "more than 100000 options to import, counting each [global] option once per job below it");
			ret = -E2BIG;
			break;
		}
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
		nj->base = nj->name ? strdup(nj->name) : NULL;
		if (!nj->fio_name || !nj->name || !nj->base) {
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
	return a->global && b->global && a->value && b->value && !a->key == !b->key &&
	       (!a->key || !strcmp(a->key, b->key)) && !strcmp(a->value, b->value);
}

/* The entry of `j` equal to `want`, looked for from *cur on (what [global] gave every job
 * comes in the same order in each, so the next one is found at once), then from the start. */
static struct imp_entry *imp_find(const struct imp_job *j, const struct imp_entry *want,
				  size_t *cur)
{
	for (size_t k = 0; k < j->n; k++) {
		size_t i = (*cur + k) % j->n;
		if (imp_entry_eq(&j->e[i], want)) {
			*cur = i;
			return &j->e[i];
		}
	}
	return NULL;
}

/* Drop the entries hoisted out of `j` (value NULL), in one pass. */
static void imp_compact(struct imp_job *j)
{
	size_t w = 0;

	for (size_t i = 0; i < j->n; i++)
		if (j->e[i].value)
			j->e[w++] = j->e[i];
	j->n = w;
}

/* What came from [global] and every job has alike goes into defaults:, once. */
static int imp_hoist(struct imp *im)
{
	size_t *cur = calloc(im->njobs, sizeof(*cur));

	if (!cur)
		return -ENOMEM;
	for (size_t i = 0; i < im->jobs[0].n; i++) {
		struct imp_entry *e = &im->jobs[0].e[i];
		bool everywhere = e->global;
		for (size_t k = 1; k < im->njobs && everywhere; k++)
			everywhere = imp_find(&im->jobs[k], e, &cur[k]) != NULL;
		if (!everywhere)
			continue;
		struct imp_entry *nd = realloc(im->defaults.e, (im->defaults.n + 1) * sizeof(*nd));
		if (!nd) {
			free(cur);
			return -ENOMEM;
		}
		im->defaults.e = nd;
		nd[im->defaults.n++] = *e;
		e->key = e->value = NULL;
		for (size_t k = 1; k < im->njobs; k++) {
			struct imp_entry *x =
			    imp_find(&im->jobs[k], nd + im->defaults.n - 1, &cur[k]);
			free(x->key);
			free(x->value);
			x->key = x->value = NULL;
		}
	}
	for (size_t k = 0; k < im->njobs; k++)
		imp_compact(&im->jobs[k]);
	free(cur);
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

static bool imp_device_named(const struct imp *im, const char *name)
{
	for (size_t i = 0; i < im->ndevs; i++)
		if (!strcmp(im->devs[i].name, name))
			return true;
	return false;
}

/* The device of `path`: one per path, named after its last part (sdb, then sdb-2 for another
 * path of that name). NULL when out of memory. */
static const char *imp_device_of(struct imp *im, const char *path, const char *want)
{
	struct imp_device *nd, dev = {strdup(want), strdup(path)};
	unsigned k = 1;

	for (size_t i = 0; i < im->ndevs; i++)
		if (!strcmp(im->devs[i].path, path)) {
			free(dev.name);
			free(dev.path);
			return im->devs[i].name;
		}
	while (dev.name && imp_device_named(im, dev.name)) {
		free(dev.name);
		if (asprintf(&dev.name, "%s-%u", want, ++k) < 0)
			dev.name = NULL;
	}
	nd = dev.name && dev.path ? realloc(im->devs, (im->ndevs + 1) * sizeof(*nd)) : NULL;
	if (!nd) {
		free(dev.name);
		free(dev.path);
		return NULL;
	}
	im->devs = nd;
	nd[im->ndevs] = dev;
	return nd[im->ndevs++].name;
}

/* Each job's device: its name, unique among the devices, into its `device` line. */
static int imp_devices(struct imp *im)
{
	for (size_t i = 0; i < im->njobs; i++) {
		struct imp_job *j = &im->jobs[i];
		for (size_t k = 0; j->dev_path && k < j->n; k++) {
			const char *name;
			char *copy;
			if (!j->e[k].key || strcmp(j->e[k].key, "device"))
				continue;
			if (!(name = imp_device_of(im, j->dev_path, j->e[k].value)) ||
			    !(copy = strdup(name)))
				return -ENOMEM;
			free(j->e[k].value);
			j->e[k].value = copy;
		}
	}
	return 0;
}

/* A comment quotes the fio line: a control character in it would make the YAML invalid. */
static void imp_emit_comment(const char *indent, const char *text, FILE *out)
{
	fputs(indent, out);
	fputs("# ", out);
	for (const unsigned char *c = (const unsigned char *)text; *c; c++)
		fputc(*c < 0x20 || *c == 0x7f ? '?' : *c, out);
	fputc('\n', out);
}

static void imp_emit_entries(const struct imp_job *j, const char *indent, FILE *out)
{
	for (size_t i = 0; i < j->n; i++) {
		if (j->e[i].key)
			fprintf(out, "%s%s: %s\n", indent, j->e[i].key, j->e[i].value);
		else
			imp_emit_comment(indent, j->e[i].value, out);
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
	if (im->ndevs)
		fprintf(out, "devices:\n");
	for (size_t i = 0; i < im->ndevs; i++) {
		if (!(y = imp_yaml_scalar(im->devs[i].path)))
			return -ENOMEM;
		fprintf(out, "  %s: {path: %s}\n", im->devs[i].name, y);
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
		ret = imp_devices(&im);
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
