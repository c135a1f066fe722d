/* The text summary: an aligned table, one row per job instance, in the units the job file
 * asked for (decimal: MB/s = 10^6 B/s; binary: MiB/s), then notes on what needs a reader's
 * attention: failed trials, reads served from memory, too few runs. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "model/metrics.h"
#include "reporters/reporter.h"
#include "reporters/words.h"

#define NA "n/a"

struct col {
	const char *title;
	bool left;
};

/* The last two columns are shown only when the rows' confidence or error differ; else the
 * footer states the one pair they share. */
static const struct col cols[] = {
    {"job", true},    {"workload", true}, {"runs", false}, {"seconds", false},
    {"rate", false},  {"±CI", false},	  {"IO/s", false}, {"lat mean", false},
    {"COV", false},   {"COV all", false}, {"need", false}, {"confidence", false},
    {"error", false},
};
#define NCOLS	   (sizeof(cols) / sizeof(cols[0]))
#define NCOLS_BASE (NCOLS - 2)
#define CELL	   48

static void fmt_num(char *b, double v, const char *f)
{
	if (isfinite(v))
		snprintf(b, CELL, f, v);
	else
		snprintf(b, CELL, NA);
}

static void fmt_pct(char *b, double v)
{
	if (isfinite(v))
		snprintf(b, CELL, "%.1f%%", 100 * v);
	else
		snprintf(b, CELL, NA);
}

/* A fraction as the percentage it was given as: 0.995 is 99.5%, 0.025 is 2.5%, 0.95 is 95%. */
static void fmt_given_pct(char *b, size_t len, const char *sign, double v)
{
	if (isfinite(v))
		snprintf(b, len, "%s%.6g%%", sign, 100 * v);
	else
		snprintf(b, len, NA);
}

/* Value `v` of metric `m` in a cell: a rate in the job file's units, a duration in a unit
 * that suits it, a count or seconds as numbers; n/a when not measured. */
static void format_value(char *b, const struct metric *m, double v, bool binary)
{
	if (!isfinite(v))
		snprintf(b, CELL, NA);
	else if (m->format == MF_RATE)
		units_format_rate(b, CELL, v, binary);
	else if (m->format == MF_DURATION)
		units_format_duration(b, CELL, v);
	else if (m->format == MF_COUNT)
		fmt_num(b, v, "%.0f");
	else
		fmt_num(b, v, "%.3f");
}

/* The confidence and relative error a row's ±CI and need were computed for. */
static double row_confidence(const struct results *r, const struct instance_result *ir)
{
	return isfinite(ir->summary.required.confidence) ? ir->summary.required.confidence
							 : r->confidence;
}

static bool same(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* Do the rows differ in confidence or error? Then each row says its own. */
static bool levels_differ(const struct results *r)
{
	for (size_t i = 1; i < r->ninst; i++)
		if (!same(row_confidence(r, &r->inst[i]), row_confidence(r, &r->inst[0])) ||
		    !same(r->inst[i].summary.required.error, r->inst[0].summary.required.error))
			return true;
	return false;
}

static void row_cells(const struct results *r, const struct instance_result *ir,
		      char cells[NCOLS][CELL])
{
	const struct instance_summary *s = &ir->summary;
	bool binary = r->units == UNITS_BINARY;

	cells[0][0] = 0; /* the name: print_table takes it whole */
	snprintf(cells[1], CELL, "%s", ir->workload);
	snprintf(cells[2], CELL, "%u/%u", s->kept, s->runs);
	fmt_num(cells[3], s->stat[METRIC_SECONDS].mean, "%.3f");
	format_value(cells[4], &metrics[METRIC_BW_BYTES], s->stat[METRIC_BW_BYTES].mean, binary);
	/* The half-width of the interval, relative to the mean, of the metric that varies. */
	const struct metric *pm = metric_find(s->metric);
	const struct stat_summary *m = metric_stat(s, pm ? pm : &metrics[METRIC_SECONDS]);
	fmt_pct(cells[5], (m->ci_high - m->ci_low) / 2 / m->mean);
	format_value(cells[6], &metrics[METRIC_IOPS], s->stat[METRIC_IOPS].mean, binary);
	format_value(cells[7], &metrics[METRIC_LAT_MEAN_NS], s->stat[METRIC_LAT_MEAN_NS].mean,
		     binary);
	fmt_pct(cells[8], m->cov);
	/* Before the outlier policy, so its effect shows (12% -> 3% in the copy experiment). */
	if (ir->rep.outliers != OUTLIERS_NONE)
		fmt_pct(cells[9], s->before.cov);
	else
		snprintf(cells[9], CELL, "-");
	fmt_num(cells[10], s->required.n, "%.0f");
	fmt_given_pct(cells[11], CELL, "", row_confidence(r, ir));
	fmt_given_pct(cells[12], CELL, "±", s->required.error);
}

/* Display width of a UTF-8 string (the ± sign is two bytes, one column). */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void put_cell(FILE *out, const char *s, size_t w, bool left, bool last)
{
	size_t pad = w - width(s);

	if (!left)
		fprintf(out, "%*s", (int)pad, "");
	fputs(s, out);
	if (left && !last)
		fprintf(out, "%*s", (int)pad, "");
	fputs(last ? "\n" : "  ", out);
}

/* One sentence per comparison: which side is better, by how much, how sure (words.c). */
static void print_comparisons(const struct results *r, FILE *out)
{
	char line[1024];

	for (size_t i = 0; i < r->ncmp; i++) {
		words_verdict(line, sizeof(line), &r->cmp[i]);
		fprintf(out, "%s%s\n", i ? "" : "\n", line);
	}
}

/* The summary table of the measured instances, or of the background load. */
static int print_table(const struct results *r, FILE *out, bool background)
{
	char(*cells)[NCOLS][CELL] = calloc(r->ninst ? r->ninst : 1, sizeof(*cells));
	/* The names whole, not cut to a cell: a sweep's instances often differ only at the
	 * end of their names. */
	const char **names = calloc(r->ninst ? r->ninst : 1, sizeof(*names));
	size_t w[NCOLS], n = 0, ncols = levels_differ(r) ? NCOLS : NCOLS_BASE;

	if (!cells || !names) {
		free(cells);
		free(names);
		return -ENOMEM;
	}
	for (size_t c = 0; c < NCOLS; c++)
		w[c] = width(cols[c].title);
	for (size_t i = 0; i < r->ninst; i++) {
		if (r->inst[i].background != background)
			continue;
		row_cells(r, &r->inst[i], cells[n]);
		names[n] = r->inst[i].name;
		if (width(names[n]) > w[0])
			w[0] = width(names[n]);
		for (size_t c = 1; c < NCOLS; c++)
			if (width(cells[n][c]) > w[c])
				w[c] = width(cells[n][c]);
		n++;
	}
	if (n && background)
		fprintf(out, "\nbackground load (ran alongside, not measured):\n");
	for (size_t c = 0; n && c < ncols; c++)
		put_cell(out, cols[c].title, w[c], cols[c].left, c + 1 == ncols);
	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < ncols; c++)
			put_cell(out, c ? cells[i][c] : names[i], w[c], cols[c].left,
				 c + 1 == ncols);
	free(names);
	free(cells);
	return 0;
}

/* discwr2's summary: the time of every record (I/O) of the kept trials. */
static void print_records(const struct results *r, FILE *out)
{
	bool any = false;

	for (size_t i = 0; i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		char lo[CELL], hi[CELL], avg[CELL], rms[CELL];
		if (!ir->records || !isfinite(ir->summary.rec_mean_ns))
			continue;
		if (!any)
			fprintf(
			    out,
			    "\nrecord times (every I/O of the kept trials; records/ holds each one):\n");
		any = true;
		units_format_duration(lo, CELL, ir->summary.rec_min_ns);
		units_format_duration(hi, CELL, ir->summary.rec_max_ns);
		units_format_duration(avg, CELL, ir->summary.rec_mean_ns);
		units_format_duration(rms, CELL, ir->summary.rec_rms_ns);
		fprintf(out, "  %s: min %s, max %s, avg %s, rms %s\n", ir->name, lo, hi, avg, rms);
	}
}

/* The lasting changes of level found in the record and interval logs. */
static void print_changes(const struct results *r, FILE *out)
{
	char line[512];
	bool any = false;

	for (size_t i = 0; i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		for (size_t k = 0; k < ir->ncps; k++) {
			const struct change_point *c = &ir->cps[k];
			if (!any)
				fprintf(
				    out,
				    "\nchange points (lasting changes of level in records/):\n");
			any = true;
			words_change(line, sizeof(line), ir, c, r->units == UNITS_BINARY);
			fprintf(out, "  %s, trial %u, %s log: %s\n", ir->name, c->trial,
				c->kind == SERIES_RECORDS ? "record" : "interval", line);
		}
	}
}

static const struct instance_result *table_cell(const struct results *r, const char *job,
						const char *key, const struct param *col)
{
	for (size_t i = 0; i < r->ninst; i++) {
		const struct param *p = results_param(&r->inst[i], key);
		if (strcmp(r->inst[i].job, job) || !p || p->type != col->type)
			continue;
		if ((p->type == PV_STR && !strcmp(p->s, col->s)) ||
		    (p->type != PV_STR && p->u == col->u && p->b == col->b))
			return &r->inst[i];
	}
	return NULL;
}

/* A layout table's cell: the mean of the row's metric, with its unit. */
static void format_metric(char *b, const char *metric, const struct instance_summary *s,
			  bool binary)
{
	const struct metric *m = metric_find(metric);

	if (m && m->format == MF_SECONDS)
		fmt_num(b, metric_stat(s, m)->mean, "%.3f s");
	else if (m)
		format_value(b, m, metric_stat(s, m)->mean, binary);
	else
		snprintf(b, CELL, NA);
}

/* report: {table: ...}: the values of one key as columns, a job's metric per row. */
static void print_layout(const struct results *r, FILE *out)
{
	const struct table_spec *t = &r->table;
	const struct param *colv[32];
	size_t ncol = 0, lw = 0;
	char cell[CELL];

	if (!t->columns)
		return;
	for (size_t i = 0; i < r->ninst && ncol < 32; i++) {
		const struct param *p = results_param(&r->inst[i], t->columns);
		bool seen = false;
		for (size_t c = 0; p && c < ncol && !seen; c++)
			seen = p->type == colv[c]->type &&
			       (p->type == PV_STR ? !strcmp(p->s, colv[c]->s) : p->u == colv[c]->u);
		if (p && !seen)
			colv[ncol++] = p;
	}
	for (size_t k = 0; k < t->nrows; k++) {
		const char *label = t->rows[k].label ? t->rows[k].label : t->rows[k].job;
		lw = width(label) > lw ? width(label) : lw;
	}
	fprintf(out, "\n%*s", (int)lw, "");
	for (size_t c = 0; c < ncol; c++) {
		if (colv[c]->type == PV_STR)
			snprintf(cell, CELL, "%s", colv[c]->s);
		else
			snprintf(cell, CELL, "%llu", (unsigned long long)colv[c]->u);
		fprintf(out, "  %14s", cell);
	}
	fputc('\n', out);
	for (size_t k = 0; k < t->nrows; k++) {
		const struct table_row *row = &t->rows[k];
		const char *label = row->label ? row->label : row->job;
		put_cell(out, label, lw, true, false);
		for (size_t c = 0; c < ncol; c++) {
			const struct instance_result *ir =
			    table_cell(r, row->job, t->columns, colv[c]);
			if (ir)
				format_metric(cell, row->metric, &ir->summary,
					      r->units == UNITS_BINARY);
			else
				snprintf(cell, CELL, "-");
			fprintf(out, "%s%14s", c ? "  " : "", cell);
		}
		fputc('\n', out);
	}
}

/* What the columns mean. The confidence and error are stated once when every row shares
 * them, else the rows' own columns give them. */
static void print_footer(const struct results *r, FILE *out)
{
	const char *rate = r->units == UNITS_BINARY ? "MiB/s (2^20 B/s)" : "MB/s (10^6 B/s)";
	char conf[CELL], err[CELL];

	if (levels_differ(r)) {
		fprintf(
		    out,
		    "\nrate in %s; ±CI: half-width of the confidence interval of the mean at the row's confidence, relative; COV: stddev/mean (COV all: before the outlier policy); need: runs for the row's ±error at its confidence\n",
		    rate);
		return;
	}
	fmt_given_pct(conf, sizeof(conf), "",
		      r->ninst ? row_confidence(r, &r->inst[0]) : r->confidence);
	fmt_given_pct(err, sizeof(err), "±", r->ninst ? r->inst[0].summary.required.error : 0.03);
	fprintf(
	    out,
	    "\nrate in %s; ±CI: half-width of the %s confidence interval of the mean, relative; COV: stddev/mean (COV all: before the outlier policy); need: runs for %s at %s confidence\n",
	    rate, conf, err, conf);
}

static int text_report(const struct results *r, FILE *out)
{
	int notes = 0;

	fprintf(out, "%s%s%s\n", r->experiment, r->description ? ": " : "",
		r->description ? r->description : "");
	fprintf(out, "started %s, seed %llu, %s%s", r->started_at, (unsigned long long)r->seed,
		r->env.hostname ? "host " : "", r->env.hostname ? r->env.hostname : "");
	/* Distributed: what a rate means (docs/distributed.md has the other aggregates). */
	if (r->nranks > 1)
		fprintf(
		    out,
		    " (rank 0 of %u; a trial's rate is every rank's bytes over the slowest rank's time)",
		    r->nranks);
	fputs("\n\n", out);
	if (print_table(r, out, false) < 0 || print_table(r, out, true) < 0)
		return -ENOMEM;
	print_layout(r, out);
	print_records(r, out);
	print_changes(r, out);
	print_comparisons(r, out);
	print_footer(r, out);
	for (size_t i = 0; i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		size_t failed = 0;
		for (size_t t = 0; t < ir->ntrials; t++)
			failed += ir->trials[t].failed;
		if (failed) {
			const char *first = NULL;
			for (size_t t = 0; t < ir->ntrials && !first; t++)
				first = ir->trials[t].error;
			fprintf(out, "%snote: %s: %zu trial(s) failed; the first: %s\n",
				notes++ ? "" : "\n", ir->name, failed, first ? first : "?");
		}
		if (ir->reads_cached)
			fprintf(
			    out,
			    "%snote: %s: reads were served from the page cache (memory), not the device\n",
			    notes++ ? "" : "\n", ir->name);
		if (ir->summary.stopped_by)
			fprintf(out, "%snote: %s: precision target: stopped by %s after %u runs\n",
				notes++ ? "" : "\n", ir->name, ir->summary.stopped_by,
				ir->summary.runs);
		if (isfinite(ir->summary.required.n) && ir->summary.required.n > ir->summary.kept)
			fprintf(
			    out,
			    "%snote: %s: %u kept runs; the data suggest %.0f for the stated precision\n",
			    notes++ ? "" : "\n", ir->name, ir->summary.kept,
			    ir->summary.required.n);
	}
	if (!r->complete)
		fprintf(out,
			"\nnote: the run did not complete; figures cover the trials that ran\n");
	return ferror(out) ? -EIO : 0;
}

const struct rep_ops rep_text = {
    .name = "text",
    .file = "summary.txt",
    .write = text_report,
};
