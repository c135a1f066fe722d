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
#include "model/names.h"
#include "reporters/cells.h"
#include "reporters/reporter.h"
#include "reporters/text_lat.h"
#include "reporters/words.h"

#define NA "n/a"

struct col {
	const char *title;
	bool left;
};

/* The last two columns are shown only when the rows' confidence or error differ; else the
 * footer states the one pair they share. The rate column's title is its unit (rate_unit). */
static const struct col cols[] = {
    {"job", true},    {"workload", true}, {"runs", false}, {"seconds", false},
    {"rate", false},  {"±CI", false},	  {"IO/s", false}, {"lat mean", false},
    {"COV", false},   {"COV all", false}, {"need", false}, {"confidence", false},
    {"error", false},
};
#define NCOLS	   (sizeof(cols) / sizeof(cols[0]))
#define NCOLS_BASE (NCOLS - 2)
#define CELL	   48
#define COL_RATE   4

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

/* Past this many of the column's unit, one unit no longer reads: each cell says its own. */
#define RATE_SPAN 100000

/* A rate in the column's unit (its title), one decimal as units_format_rate gives it:
 * "103.5", "6.2"; whole from 1000 on ("2131": the column's smallest rate set the unit).
 * unit 0: with its own unit, "2.1 GB/s", under the title "rate". */
static void fmt_rate(char *b, double v, double unit, bool binary)
{
	if (!unit && isfinite(v)) {
		units_format_rate(b, CELL, v, binary);
		return;
	}
	v /= unit;
	fmt_num(b, v, v >= 999.95 ? "%.0f" : "%.1f");
}

/* The unit of the rate column of the measured rows or of the load, its name in `name`
 * (CELL bytes): the largest in which every rate is at least 1; or, when the largest rate
 * would then need more than five digits (a 40 kB/s row beside a 60 GB/s one), 0 and
 * "rate": each cell carries its own unit. */
static double rate_unit(const struct results *r, bool background, char *name)
{
	double lo = INFINITY, hi = 0, unit;

	for (size_t i = 0; i < r->ninst; i++) {
		double v = r->inst[i].summary.stat[METRIC_BW_BYTES].mean;
		if (r->inst[i].background != background || !isfinite(v) || v <= 0)
			continue;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	unit = units_rate_unit(lo, r->units == UNITS_BINARY, name, CELL);
	if (hi / unit < RATE_SPAN)
		return unit;
	snprintf(name, CELL, "rate");
	return 0;
}

static void row_cells(const struct results *r, const struct instance_result *ir, double unit,
		      char cells[NCOLS][CELL])
{
	const struct instance_summary *s = &ir->summary;
	bool binary = r->units == UNITS_BINARY;

	cells[0][0] = 0; /* the name: print_table takes it whole */
	snprintf(cells[1], CELL, "%s", ir->workload);
	snprintf(cells[2], CELL, "%u/%u", s->kept, s->runs);
	fmt_num(cells[3], s->stat[METRIC_SECONDS].mean, "%.3f");
	fmt_rate(cells[COL_RATE], s->stat[METRIC_BW_BYTES].mean, unit, binary);
	/* The half-width of the interval, relative to the mean, of the metric that varies. */
	const struct metric *pm = metric_find(s->metric);
	const struct stat_summary *m = metric_stat(s, pm ? pm : &metrics[METRIC_SECONDS]);
	fmt_pct(cells[5], (m->ci_high - m->ci_low) / 2 / m->mean);
	units_format_count(cells[6], CELL, s->stat[METRIC_IOPS].mean);
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
	const char *title[NCOLS];
	char unit_name[CELL];
	double unit = rate_unit(r, background, unit_name);

	if (!cells || !names) {
		free(cells);
		free(names);
		return -ENOMEM;
	}
	for (size_t c = 0; c < NCOLS; c++)
		title[c] = c == COL_RATE ? unit_name : cols[c].title;
	for (size_t c = 0; c < NCOLS; c++)
		w[c] = cells_width(title[c]);
	for (size_t i = 0; i < r->ninst; i++) {
		if (r->inst[i].background != background)
			continue;
		row_cells(r, &r->inst[i], unit, cells[n]);
		names[n] = r->inst[i].name;
		if (cells_width(names[n]) > w[0])
			w[0] = cells_width(names[n]);
		for (size_t c = 1; c < NCOLS; c++)
			if (cells_width(cells[n][c]) > w[c])
				w[c] = cells_width(cells[n][c]);
		n++;
	}
	if (n && background)
		fprintf(out, "\nbackground load (ran alongside, not measured):\n");
	for (size_t c = 0; n && c < ncols; c++)
		cells_put(out, title[c], w[c], cols[c].left, c + 1 == ncols);
	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < ncols; c++)
			cells_put(out, c ? cells[i][c] : names[i], w[c], cols[c].left,
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

/* Each worker's own rate where an instance has several (discwr2's "two copies, each
 * about half"): the summary's rate is their sum. */
static void print_copies(const struct results *r, FILE *out)
{
	bool any = false, binary = r->units == UNITS_BINARY;
	char rate[CELL];

	for (size_t i = 0; i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		if (ir->threads < 2 || ir->background || !isfinite(results_worker_rate(ir, 0)))
			continue;
		if (!any)
			fprintf(
			    out,
			    "\nrate of each worker (over the kept trials; the summary's rate is all of them):\n");
		any = true;
		fprintf(out, "  %s:", ir->name);
		for (uint32_t w = 0; w < ir->threads; w++) {
			double v = results_worker_rate(ir, w);
			if (isfinite(v))
				units_format_rate(rate, CELL, v, binary);
			else
				snprintf(rate, CELL, NA);
			fprintf(out, "%s worker %u %s", w ? "," : "", w, rate);
		}
		fputc('\n', out);
	}
}

/* Mixed workloads: the reads and the writes apart, mean over the kept runs. */

static void print_directions(const struct results *r, FILE *out)
{
	bool any = false;

	for (size_t i = 0; i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		if (!ir->workload ||
		    (strcmp(ir->workload, "readwrite") && strcmp(ir->workload, "randrw")))
			continue;
		if (!any)
			fprintf(out, "\nreads and writes (means over the kept runs):\n");
		any = true;
		for (int d = 0; d < 2; d++) {
			const struct dir_summary *ds = &ir->summary.dir[d];
			char iops[CELL], rate[CELL], lat[CELL], cov[CELL];
			units_format_count(iops, CELL, ds->iops.mean);
			units_format_rate(rate, CELL, ds->bw_bytes.mean, r->units == UNITS_BINARY);
			units_format_duration(lat, CELL, ds->lat_mean_ns.mean);
			fmt_pct(cov, ds->iops.cov);
			fprintf(out, "  %s %-5s  %s IO/s  %s  lat mean %s  COV %s\n", ir->name,
				d == DIR_READ ? "read" : "write", iops, rate, lat, cov);
		}
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

#define VARIANT_LEN 256

/* A parameter's value as text: strings as they are, sizes in bytes, as in the names. */
static void param_text(char *b, size_t len, const struct param *p)
{
	if (p->type == PV_STR)
		snprintf(b, len, "%s", p->s);
	else if (p->type == PV_BOOL)
		snprintf(b, len, "%s", p->b ? "true" : "false");
	else if (p->type == PV_REAL)
		snprintf(b, len, "%g", p->d);
	else
		snprintf(b, len, "%llu", (unsigned long long)p->u);
}

static bool param_same(const struct param *a, const struct param *b)
{
	if (a->type != b->type)
		return false;
	if (a->type == PV_STR)
		return !strcmp(a->s, b->s);
	return a->u == b->u && a->b == b->b && (a->type != PV_REAL || a->d == b->d);
}

/* What tells an instance apart from the others of its job in one column: its matrix keys
 * other than the column's, "buffer_size=4096,file_size=80000000" ("" when none). */
static void variant(char *b, size_t len, const struct instance_result *ir, const char *column)
{
	size_t n = 0;

	b[0] = 0;
	for (uint32_t place = 1; place <= ir->nparams; place++)
		for (size_t k = 0; k < ir->nparams; k++) {
			const struct param *p = &ir->params[k];
			char v[CELL];
			if (p->matrix != place || !strcmp(p->key, column))
				continue;
			param_text(v, sizeof(v), p);
			n += (size_t)snprintf(b + n, n < len ? len - n : 0, "%s%s=%s", n ? "," : "",
					      p->key, v);
		}
}

/* The instance of `job` in column `col` whose variant is `var`, or NULL. */
static const struct instance_result *table_cell(const struct results *r, const char *job,
						const char *key, const struct param *col,
						const char *var)
{
	char v[VARIANT_LEN];

	for (size_t i = 0; i < r->ninst; i++) {
		const struct param *p = results_param(&r->inst[i], key);
		if (strcmp(r->inst[i].job, job) || !p || !param_same(p, col))
			continue;
		variant(v, sizeof(v), &r->inst[i], key);
		if (!strcmp(v, var))
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

/* CPU seconds per GB moved (GiB with units: binary): the cost the paper compares between
 * file systems. */
static void format_cpu(char *b, const struct instance_result *ir, bool binary)
{
	double v = results_cpu_per_byte(ir) * (binary ? 1073741824.0 : 1e9);

	if (isfinite(v))
		snprintf(b, CELL, "%.3f s/%s", v, binary ? "GiB" : "GB");
	else
		snprintf(b, CELL, NA);
}

/* A descriptive row's cell: what the job file says about the column's device. */
static void about_cell(char *b, const struct table_row *row, const struct param *col)
{
	snprintf(b, CELL, NA);
	for (size_t k = 0; col->type == PV_STR && k < row->nfacts; k++)
		if (!strcmp(row->facts[k].key, col->s))
			snprintf(b, CELL, "%s", row->facts[k].value);
}

#define LAYOUT_COLS  32
#define LAYOUT_LINES 256

/* One line of the layout table: its title and a cell per column. */
struct layout_line {
	char label[240];
	char var[VARIANT_LEN]; /* a metric row's variant (see variant()) */
	char cell[LAYOUT_COLS][CELL];
};

/* The lines of a metric row: one, or, when the row's job has several instances in a column
 * (a matrix over more than the column's key), one per variant, its title saying which,
 * rather than a first match standing for all. */
static size_t row_lines(const struct results *r, const struct table_row *row,
			const struct param *const *colv, size_t ncol, struct layout_line *out,
			size_t room, bool *cut)
{
	const char *title = row->label ? row->label : row->job;
	char var[VARIANT_LEN];
	size_t nvar = 0;

	for (size_t i = 0; i < r->ninst; i++) {
		bool seen = false;
		if (strcmp(r->inst[i].job, row->job) ||
		    !results_param(&r->inst[i], r->table.columns))
			continue;
		variant(var, sizeof(var), &r->inst[i], r->table.columns);
		for (size_t k = 0; k < nvar && !seen; k++)
			seen = !strcmp(out[k].var, var);
		if (!seen && nvar == room)
			*cut = true;
		else if (!seen)
			snprintf(out[nvar++].var, VARIANT_LEN, "%s", var);
	}
	if (!nvar)
		out[nvar++].var[0] = 0;
	for (size_t v = 0; v < nvar; v++) {
		if (nvar > 1)
			snprintf(out[v].label, sizeof(out[v].label), "%.100s [%.120s]", title,
				 out[v].var);
		else
			snprintf(out[v].label, sizeof(out[v].label), "%.150s", title);
		for (size_t c = 0; c < ncol; c++) {
			const struct instance_result *ir =
			    table_cell(r, row->job, r->table.columns, colv[c], out[v].var);
			if (ir && !strcmp(row->metric, METRIC_TABLE_CPU))
				format_cpu(out[v].cell[c], ir, r->units == UNITS_BINARY);
			else if (ir)
				format_metric(out[v].cell[c], row->metric, &ir->summary,
					      r->units == UNITS_BINARY);
			else
				snprintf(out[v].cell[c], CELL, NA);
		}
	}
	return nvar;
}

/* report: {table: ...}: the values of one key as columns, a job's metric or a device's
 * description per row; n/a where a job did not run on a column's device. */
static int print_layout(const struct results *r, FILE *out)
{
	const struct table_spec *t = &r->table;
	const struct param *colv[LAYOUT_COLS];
	struct layout_line *lines;
	size_t ncol = 0, nlines = 0, lw = 0, cw[LAYOUT_COLS];
	char head[LAYOUT_COLS][CELL];
	bool cut = false;

	if (!t->columns)
		return 0;
	for (size_t i = 0; i < r->ninst; i++) {
		const struct param *p = results_param(&r->inst[i], t->columns);
		bool seen = false;
		for (size_t c = 0; p && c < ncol && !seen; c++)
			seen = param_same(p, colv[c]);
		if (p && !seen && ncol == LAYOUT_COLS)
			cut = true;
		else if (p && !seen)
			colv[ncol++] = p;
	}
	if (!(lines = calloc(LAYOUT_LINES, sizeof(*lines))))
		return -ENOMEM;
	for (size_t k = 0; k < t->nrows; k++) {
		const struct table_row *row = &t->rows[k];
		if (nlines == LAYOUT_LINES) {
			cut = true;
		} else if (row->about) {
			snprintf(lines[nlines].label, sizeof(lines[nlines].label), "%.150s",
				 row->label ? row->label : row->about);
			for (size_t c = 0; c < ncol; c++)
				about_cell(lines[nlines].cell[c], row, colv[c]);
			nlines++;
		} else {
			nlines += row_lines(r, row, colv, ncol, lines + nlines,
					    LAYOUT_LINES - nlines, &cut);
		}
	}
	for (size_t c = 0; c < ncol; c++) {
		param_text(head[c], CELL, colv[c]);
		cw[c] = cells_width(head[c]);
	}
	for (size_t l = 0; l < nlines; l++) {
		lw = cells_width(lines[l].label) > lw ? cells_width(lines[l].label) : lw;
		for (size_t c = 0; c < ncol; c++)
			cw[c] = cells_width(lines[l].cell[c]) > cw[c]
				    ? cells_width(lines[l].cell[c])
				    : cw[c];
	}
	fputc('\n', out);
	cells_put(out, "", lw, true, !ncol);
	for (size_t c = 0; c < ncol; c++)
		cells_put(out, head[c], cw[c], false, c + 1 == ncol);
	for (size_t l = 0; l < nlines; l++) {
		cells_put(out, lines[l].label, lw, true, !ncol);
		for (size_t c = 0; c < ncol; c++)
			cells_put(out, lines[l].cell[c], cw[c], false, c + 1 == ncol);
	}
	if (cut)
		fprintf(
		    out,
		    "(the table shows its first %d columns and %d lines; results.json holds every instance)\n",
		    LAYOUT_COLS, LAYOUT_LINES);
	free(lines);
	return 0;
}

/* What the columns mean. The confidence and error are stated once when every row shares
 * them, else the rows' own columns give them. */
static void print_footer(const struct results *r, FILE *out)
{
	const char *rate =
	    r->units == UNITS_BINARY
		? "binary units (KiB/s = 2^10 B/s, MiB/s = 2^20 B/s, GiB/s = 2^30 B/s)"
		: "decimal units (kB/s = 10^3 B/s, MB/s = 10^6 B/s, GB/s = 10^9 B/s)";
	char conf[CELL], err[CELL];

	if (levels_differ(r)) {
		fprintf(
		    out,
		    "\nrates in %s; IO/s: k = 10^3, M = 10^6; ±CI: half-width of the confidence interval of the mean at the row's confidence, relative; COV: stddev/mean (COV all: before the outlier policy); need: runs for the row's ±error at its confidence\n",
		    rate);
		return;
	}
	fmt_given_pct(conf, sizeof(conf), "",
		      r->ninst ? row_confidence(r, &r->inst[0]) : r->confidence);
	fmt_given_pct(err, sizeof(err), "±", r->ninst ? r->inst[0].summary.required.error : 0.03);
	fprintf(
	    out,
	    "\nrates in %s; IO/s: k = 10^3, M = 10^6; ±CI: half-width of the %s confidence interval of the mean, relative; COV: stddev/mean (COV all: before the outlier policy); need: runs for %s at %s confidence\n",
	    rate, conf, err, conf);
}

/* target.estimate: pilot: where the run count came from (the copy experiment's "20 pilot
 * runs gave 186, rounded to 200"). */
static void pilot_note(FILE *out, const struct instance_result *ir, int notes)
{
	const struct replication_info *rp = &ir->rep;
	char conf[CELL], err[CELL];
	uint32_t round = rp->round ? rp->round : 1;

	fmt_given_pct(conf, sizeof(conf), "", rp->confidence);
	fmt_given_pct(err, sizeof(err), "±", rp->error);
	fprintf(
	    out,
	    "%snote: %s: runs estimated from its pilot of %u runs, before outliers: %.0f for %s at %s confidence, rounded up to a multiple of %u: %.0f\n",
	    notes ? "" : "\n", ir->name, rp->pilot, rp->pilot_n, err, conf, round,
	    ceil(rp->pilot_n / round) * round);
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
	if (print_table(r, out, false) < 0 || print_table(r, out, true) < 0 ||
	    print_layout(r, out) < 0 || text_latency(r, out) < 0)
		return -ENOMEM;
	print_records(r, out);
	print_copies(r, out);
	print_directions(r, out);
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
		if (ir->rep.estimate == ESTIMATE_PILOT && isfinite(ir->rep.pilot_n))
			pilot_note(out, ir, notes++);
		if (ir->summary.stopped_by)
			fprintf(out, "%snote: %s: precision target: stopped by %s after %u runs\n",
				notes++ ? "" : "\n", ir->name, ir->summary.stopped_by,
				ir->summary.runs);
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
