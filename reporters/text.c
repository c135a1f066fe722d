/* The text summary: an aligned table, one row per job instance, in the units the job file
 * asked for (decimal: MB/s = 10^6 B/s; binary: MiB/s), then notes on what needs a reader's
 * attention: failed trials, reads served from memory, too few runs. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "lib/visible.h"
#include "model/metrics.h"
#include "model/names.h"
#include "reporters/cells.h"
#include "reporters/reporter.h"
#include "reporters/text_lat.h"
#include "reporters/text_layout.h"
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
#define CELL	   CELLS_CELL
#define COL_RATE   4

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

/* One line of text that may quote strings from results.json (a name, an error), after a
 * blank line when `blank`: its control characters written out (lib/visible.h), so a string
 * can neither fake a line nor send the terminal an escape sequence. The line ends are ours. */
static void __attribute__((format(printf, 3, 4))) line(FILE *out, bool blank, const char *fmt, ...)
{
	va_list ap;

	if (blank)
		fputc('\n', out);
	va_start(ap, fmt);
	visible_vprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
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
	cells_num(b, v, v >= 999.95 ? "%.0f" : "%.1f");
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
	cells_num(cells[3], s->stat[METRIC_SECONDS].mean, "%.3f");
	fmt_rate(cells[COL_RATE], s->stat[METRIC_BW_BYTES].mean, unit, binary);
	/* The half-width of the interval, relative to the mean, of the metric that varies. */
	const struct metric *pm = metric_find(s->metric);
	const struct stat_summary *m = metric_stat(s, pm ? pm : &metrics[METRIC_SECONDS]);
	fmt_pct(cells[5], (m->ci_high - m->ci_low) / 2 / m->mean);
	units_format_count(cells[6], CELL, s->stat[METRIC_IOPS].mean);
	cells_value(cells[7], &metrics[METRIC_LAT_MEAN_NS], s->stat[METRIC_LAT_MEAN_NS].mean,
		    binary);
	fmt_pct(cells[8], m->cov);
	/* Before the outlier policy, so its effect shows (12% -> 3% in the copy experiment). */
	if (ir->rep.outliers != OUTLIERS_NONE)
		fmt_pct(cells[9], s->before.cov);
	else
		snprintf(cells[9], CELL, "-");
	cells_num(cells[10], s->required.n, "%.0f");
	fmt_given_pct(cells[11], CELL, "", row_confidence(r, ir));
	fmt_given_pct(cells[12], CELL, "±", s->required.error);
}

/* One sentence per comparison: which side is better, by how much, how sure (words.c). */
static void print_comparisons(const struct results *r, FILE *out)
{
	char verdict[1024];

	for (size_t i = 0; i < r->ncmp; i++) {
		words_verdict(verdict, sizeof(verdict), &r->cmp[i]);
		line(out, !i, "%s", verdict);
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

static bool has_records(const struct instance_result *ir)
{
	return ir->records && isfinite(ir->summary.rec_mean_ns);
}

/* A job whose logs lack lines but that has no record times to print them under (an interval
 * log alone, or no record left): a note. Returns 1 when it printed one. */
static int log_cut_note(FILE *out, const struct instance_result *ir, int notes)
{
	char why[512];
	bool said = !has_records(ir) && words_log_cut(why, sizeof(why), ir);

	if (said)
		line(out, !notes, "note: %s: %s", ir->name, why);
	return said;
}

/* discwr2's summary: the time of every record (I/O) of the kept trials; the trials whose
 * lines records/ lacks (a full disk), where there are any. */
static void print_records(const struct results *r, FILE *out)
{
	bool any = false, cut = false;
	char why[512];

	for (size_t i = 0; i < r->ninst; i++)
		cut |= has_records(&r->inst[i]) && words_log_cut(why, sizeof(why), &r->inst[i]);
	for (size_t i = 0; i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		char lo[CELL], hi[CELL], avg[CELL], rms[CELL];
		if (!has_records(ir))
			continue;
		if (!any)
			fprintf(
			    out,
			    "\nrecord times (every I/O of the kept trials; records/ holds each one%s):\n",
			    cut ? ", but for the trials said below" : "");
		any = true;
		units_format_duration(lo, CELL, ir->summary.rec_min_ns);
		units_format_duration(hi, CELL, ir->summary.rec_max_ns);
		units_format_duration(avg, CELL, ir->summary.rec_mean_ns);
		units_format_duration(rms, CELL, ir->summary.rec_rms_ns);
		line(out, false, "  %s: min %s, max %s, avg %s, rms %s", ir->name, lo, hi, avg,
		     rms);
		if (words_log_cut(why, sizeof(why), ir))
			line(out, false, "  %s: %s", ir->name, why);
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
		visible_printf(out, "  %s:", ir->name);
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
			line(out, false, "  %s %-5s  %s IO/s  %s  lat mean %s  COV %s", ir->name,
			     d == DIR_READ ? "read" : "write", iops, rate, lat, cov);
		}
	}
}

/* The lasting changes of level found in the record and interval logs. */
static void print_changes(const struct results *r, FILE *out)
{
	char what[512];
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
			words_change(what, sizeof(what), ir, c, r->units == UNITS_BINARY);
			line(out, false, "  %s, trial %u, %s log: %s", ir->name, c->trial,
			     c->kind == SERIES_RECORDS ? "record" : "interval", what);
		}
	}
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
	line(
	    out, !notes,
	    "note: %s: runs estimated from its pilot of %u runs, before outliers: %.0f for %s at %s confidence, rounded up to a multiple of %u: %.0f",
	    ir->name, rp->pilot, rp->pilot_n, err, conf, round, ceil(rp->pilot_n / round) * round);
}

/* huge_buffers: trials whose buffers did not all get the huge pages asked for, where the
 * kernel's mode would give them (under `never`, none is what env.thp already says). Large
 * I/Os ran at half the rate on ordinary pages here: a row measured so must not pass
 * silently. Returns whether it printed. */
static bool hpages_note(FILE *out, const struct results *r, const struct instance_result *ir,
			int notes)
{
	bool thp_on = r->env.thp && strcmp(r->env.thp, "never");
	size_t n = 0, shy = 0;
	int first = -1;

	for (size_t t = 0; t < ir->ntrials; t++) {
		const struct hpages_result *h = &ir->trials[t].hpages;
		if (!ir->trials[t].ran || !h->on || h->state == HP_OFF)
			continue;
		n++;
		if (h->state == HP_GRANTED || (h->state == HP_NONE && !thp_on))
			continue;
		shy++;
		if (first < 0)
			first = h->state;
	}
	if (!shy)
		return false;
	line(
	    out, !notes,
	    "note: %s: huge_buffers: %zu of %zu trial(s) ran with buffers not wholly on huge pages (the first: %s); see trials[].huge_buffers in results.json",
	    ir->name, shy, n, names_get(hpages_state_names, first));
	return true;
}

static int text_report(const struct results *r, FILE *out)
{
	int notes = 0;

	line(out, false, "%s%s%s", r->experiment, r->description ? ": " : "",
	     r->description ? r->description : "");
	visible_printf(out, "started %s, seed %llu, %s%s", r->started_at,
		       (unsigned long long)r->seed, r->env.hostname ? "host " : "",
		       r->env.hostname ? r->env.hostname : "");
	/* Distributed: what a rate means (docs/distributed.md has the other aggregates). */
	if (r->nranks > 1)
		fprintf(
		    out,
		    " (rank 0 of %u; a trial's rate is every rank's bytes over the slowest rank's time)",
		    r->nranks);
	fputs("\n\n", out);
	if (print_table(r, out, false) < 0 || print_table(r, out, true) < 0 ||
	    text_layout(r, out) < 0 || text_latency(r, out) < 0)
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
			line(out, !notes++, "note: %s: %zu trial(s) failed; the first: %s",
			     ir->name, failed, first ? first : "?");
		}
		if (ir->reads_cached)
			line(
			    out, !notes++,
			    "note: %s: reads were served from the page cache (memory), not the device",
			    ir->name);
		if (ir->rep.estimate == ESTIMATE_PILOT && isfinite(ir->rep.pilot_n))
			pilot_note(out, ir, notes++);
		notes += hpages_note(out, r, ir, notes);
		notes += log_cut_note(out, ir, notes);
		if (ir->summary.stopped_by)
			line(out, !notes++,
			     "note: %s: precision target: stopped by %s after %u runs", ir->name,
			     ir->summary.stopped_by, ir->summary.runs);
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
