/* The text summary: an aligned table, one row per job instance, in the units the job file
 * asked for (decimal: MB/s = 10^6 B/s; binary: MiB/s), then notes on what needs a reader's
 * attention: failed trials, reads served from memory, too few runs. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/units.h"
#include "reporters/reporter.h"

#define NA "n/a"

struct col {
	const char *title;
	bool left;
};

static const struct col cols[] = {
	{"job", true},	 {"workload", true}, {"runs", false},	 {"seconds", false},
	{"rate", false}, {"±CI", false},     {"IO/s", false},	 {"lat mean", false},
	{"COV", false},	 {"need", false},
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))
#define CELL 48

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

static void row_cells(const struct results *r, const struct instance_result *ir,
		      char cells[NCOLS][CELL])
{
	const struct instance_summary *s = &ir->summary;
	bool binary = r->units == UNITS_BINARY;
	bool timed = s->required.metric && !strcmp(s->required.metric, "bw_bytes");

	snprintf(cells[0], CELL, "%s", ir->name);
	snprintf(cells[1], CELL, "%s", ir->workload);
	snprintf(cells[2], CELL, "%u/%u", s->kept, s->runs);
	fmt_num(cells[3], s->seconds.mean, "%.3f");
	if (isfinite(s->bw_bytes.mean))
		units_format_rate(cells[4], CELL, s->bw_bytes.mean, binary);
	else
		snprintf(cells[4], CELL, NA);
	/* The half-width of the interval, relative to the mean, of the metric that varies. */
	const struct stat_summary *m = timed ? &s->bw_bytes : &s->seconds;
	fmt_pct(cells[5], (m->ci_high - m->ci_low) / 2 / m->mean);
	fmt_num(cells[6], s->iops.mean, "%.0f");
	if (isfinite(s->lat_mean_ns.mean))
		units_format_duration(cells[7], CELL, s->lat_mean_ns.mean);
	else
		snprintf(cells[7], CELL, NA);
	fmt_pct(cells[8], m->cov);
	fmt_num(cells[9], s->required.n, "%.0f");
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

static int text_report(const struct results *r, FILE *out)
{
	char (*cells)[NCOLS][CELL] = calloc(r->ninst ? r->ninst : 1, sizeof(*cells));
	size_t w[NCOLS];
	int notes = 0;

	if (!cells)
		return -ENOMEM;
	for (size_t c = 0; c < NCOLS; c++)
		w[c] = width(cols[c].title);
	for (size_t i = 0; i < r->ninst; i++) {
		row_cells(r, &r->inst[i], cells[i]);
		for (size_t c = 0; c < NCOLS; c++)
			if (width(cells[i][c]) > w[c])
				w[c] = width(cells[i][c]);
	}
	fprintf(out, "%s%s%s\n", r->experiment, r->description ? ": " : "",
		r->description ? r->description : "");
	fprintf(out, "started %s, seed %llu, %s%s\n\n", r->started_at, (unsigned long long)r->seed,
		r->env.hostname ? "host " : "", r->env.hostname ? r->env.hostname : "");
	for (size_t c = 0; c < NCOLS; c++)
		put_cell(out, cols[c].title, w[c], cols[c].left, c + 1 == NCOLS);
	for (size_t i = 0; i < r->ninst; i++)
		for (size_t c = 0; c < NCOLS; c++)
			put_cell(out, cells[i][c], w[c], cols[c].left, c + 1 == NCOLS);
	free(cells);

	fprintf(out, "\nrate in %s; ±CI: half-width of the %.0f%% confidence interval of the mean, "
		     "relative; COV: stddev/mean; need: runs for ±%.0f%% at %.0f%% confidence\n",
		r->units == UNITS_BINARY ? "MiB/s (2^20 B/s)" : "MB/s (10^6 B/s)",
		100 * r->confidence,
		r->ninst ? 100 * r->inst[0].summary.required.error : 3.0, 100 * r->confidence);
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
			fprintf(out,
				"%snote: %s: reads were served from the page cache (memory), not the device\n",
				notes++ ? "" : "\n", ir->name);
		if (isfinite(ir->summary.required.n) && ir->summary.required.n > ir->summary.kept)
			fprintf(out, "%snote: %s: %u kept runs; the data suggest %.0f for the stated precision\n",
				notes++ ? "" : "\n", ir->name, ir->summary.kept,
				ir->summary.required.n);
	}
	if (!r->complete)
		fprintf(out, "\nnote: the run did not complete; figures cover the trials that ran\n");
	return ferror(out) ? -EIO : 0;
}

const struct rep_ops rep_text = {
	.name = "text",
	.file = "summary.txt",
	.write = text_report,
};
