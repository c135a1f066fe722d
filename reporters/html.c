/* report.html: one self-contained page (inline CSS and SVG, a few lines of plain JS for the
 * toggles, nothing fetched) that opens in any browser and prints in black and white. The
 * figures are drawn by plot/; this file lays out the page and the tables around them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"
#include "lib/utf8.h"
#include "model/metrics.h"
#include "plot/figures.h"
#include "plot/svg.h"
#include "reporters/lat_table.h"
#include "reporters/reporter.h"
#include "reporters/words.h"

#define CELL	     64
#define LATENCY_OPEN 12	 /* more instances than this: their latency plots start folded */
#define PROBLEMS_MAX 100 /* trials listed with problems; results.json holds every one */
#define SET_KEY_MAX  50	 /* bytes of a --set key shown; results.json holds the whole key */

static const char css[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#000;"
    "background:#fff;max-width:1100px;margin:0 auto;padding:1em 1.5em}"
    "h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.25em;margin:1.6em 0 .4em;border-bottom:1px solid #000}"
    "h3{font-size:1.05em;margin:1.2em 0 .3em}"
    "table{border-collapse:collapse;margin:.4em 0;font-size:.92em}"
    "th,td{padding:.2em .6em;border-bottom:1px solid #bbb;text-align:right;vertical-align:top;white-space:nowrap}"
    "table.meta td,td.name,td.why{white-space:normal}td.name{word-break:normal;max-width:24em}"
    "th{border-bottom:2px solid #000}td.l,th.l{text-align:left}"
    "table.meta td,table.meta th{text-align:left;border:0;padding:.05em .8em .05em 0}"
    "code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;word-break:break-all}"
    "figure{margin:.8em 0;break-inside:avoid;page-break-inside:avoid}"
    "figcaption{font-size:.9em;margin-top:.2em}"
    ".note{font-style:italic}.verdict{font-weight:600}"
    "svg.plot{width:100%;max-width:720px;height:auto;display:block;font-size:12px}"
    "svg.plot-latency{max-width:360px}"
    ".grid-lat{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:.5em}"
    "svg .grid{stroke:#ddd;stroke-width:1}svg .tick,svg .frame{stroke:#000;fill:none}"
    "svg .ticklabel{font-size:11px}svg .axislabel{font-size:12px}svg .legend{font-size:12px}"
    "svg .line{fill:none;stroke:#000;stroke-width:1.6}svg .line.faint{stroke:#777;stroke-width:1}"
    "svg .mark{fill:#000;stroke:#000}svg .mark.hollow{fill:#fff;stroke-width:1.3}"
    "svg .mark.cross{fill:none;stroke-width:1.5}"
    "svg .errbar{stroke:#000;stroke-width:1.2}svg .meanbar{stroke:#000;stroke-width:3}"
    "svg .changepoint{stroke:#000;stroke-width:1.5;stroke-dasharray:6 3}"
    "svg .cplabel{font-size:12px;font-weight:600}"
    "button{font:inherit;margin:.3em 0}"
    "@media print{body{max-width:none;padding:0;font-size:11pt}button{display:none}"
    "h2{break-after:avoid}}";

static const char js[] =
    "(function(){var d=document.querySelectorAll('details');"
    "function all(o){for(var i=0;i<d.length;i++)d[i].open=o;}"
    "var b=document.getElementById('toggle-all');"
    "if(b)b.addEventListener('click',function(){var o=b.getAttribute('data-open')!=='1';"
    "all(o);b.setAttribute('data-open',o?'1':'0');b.textContent=o?'Fold all':'Unfold all';});"
    "window.addEventListener('beforeprint',function(){all(true);});"
    "document.documentElement.setAttribute('data-ready','1');})();";

static void esc(FILE *out, const char *s)
{
	svg_escape(out, s ? s : "");
}

/* An instance name that may wrap after its commas and its bracket, not mid-word. Escaped a
 * stretch at a time, each ending at one of them, never a byte alone: a byte of a UTF-8
 * character alone is not one (svg_escape would write it as U+FFFD). */
static void name_wrapping(FILE *out, const char *s)
{
	while (s && *s) {
		size_t n = strcspn(s, ",[");
		svg_escape_n(out, s, n + (s[n] != 0));
		if (s[n])
			fputs("<wbr>", out);
		s += n + (s[n] != 0);
	}
}

/* Both key and value may come from results.json (a --set key): both escaped. */
static void meta_row(FILE *out, const char *key, const char *val, bool mono)
{
	fputs("<tr><th>", out);
	esc(out, key);
	fprintf(out, "</th><td%s>", mono ? " class=\"mono\"" : "");
	esc(out, val && *val ? val : "n/a");
	fputs("</td></tr>\n", out);
}

/* A --set row, its key cut to SET_KEY_MAX bytes at a character's start and the cut
 * marked. */
static void override_row(FILE *out, const struct spec_override *o)
{
	char buf[SET_KEY_MAX + 16];
	size_t n = utf8_cut(o->key, SET_KEY_MAX);
	bool cut = o->key[n] != 0;

	snprintf(buf, sizeof(buf), "--set %.*s%s", (int)n, o->key, cut ? "…" : "");
	meta_row(out, buf, o->value, true);
}

static void header(const struct results *r, FILE *out)
{
	char buf[128];

	fputs("<header><h1>", out);
	esc(out, r->experiment);
	fputs("</h1>\n", out);
	if (r->description) {
		fputs("<p class=\"description\">", out);
		esc(out, r->description);
		fputs("</p>\n", out);
	}
	fputs("<table class=\"meta\" id=\"meta\">\n", out);
	meta_row(out, "job file", r->job_path, true);
	meta_row(out, "job file SHA-256", r->job_sha256, true);
	for (size_t i = 0; i < r->noverrides; i++)
		override_row(out, &r->overrides[i]);
	meta_row(out, "started", r->started_at, false);
	meta_row(out, "finished", r->finished_at, false);
	meta_row(out, "complete", r->complete ? "yes" : "no: figures cover the trials that ran",
		 false);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)r->seed);
	meta_row(out, "seed", buf, true);
	meta_row(out, "trial order", r->order, false);
	meta_row(out, "units",
		 r->units == UNITS_BINARY ? "binary (MiB = 2^20 bytes)"
					  : "decimal (MB = 10^6 bytes)",
		 false);
	utf8_snprintf(buf, sizeof(buf), "%s %s", r->tool_name ? r->tool_name : "?",
		      r->tool_version ? r->tool_version : "?");
	meta_row(out, "written by", buf, false);
	fputs("</table></header>\n", out);
}

static void environment(const struct results *r, FILE *out)
{
	const struct run_env *e = &r->env;
	char buf[64];

	fputs("<h2 id=\"environment\">Environment</h2>\n<table class=\"meta\">\n", out);
	meta_row(out, "host", e->hostname, false);
	meta_row(out, "kernel", e->kernel, false);
	meta_row(out, "CPU", e->cpu_model, false);
	snprintf(buf, sizeof(buf), "%u", e->cpus);
	meta_row(out, "CPUs", e->cpus ? buf : NULL, false);
	units_format_size(buf, sizeof(buf), (double)e->mem_bytes, r->units == UNITS_BINARY);
	meta_row(out, "memory", e->mem_bytes ? buf : NULL, false);
	snprintf(buf, sizeof(buf), "%u", r->nranks ? r->nranks : 1);
	meta_row(out, "ranks", buf, false);
	fputs("</table>\n", out);
	if (!e->ntargets)
		return;
	fputs(
	    "<table id=\"targets\"><tr><th class=\"l\">target</th><th class=\"l\">file system</th>"
	    "<th class=\"l\">device</th><th class=\"l\">model</th><th>rotational</th><th>block size</th></tr>\n",
	    out);
	for (size_t i = 0; i < e->ntargets; i++) {
		const struct env_target *t = &e->targets[i];
		fputs("<tr><td class=\"l mono\">", out);
		esc(out, t->path);
		fputs("</td><td class=\"l\">", out);
		esc(out, t->fs_type ? t->fs_type : "n/a");
		fputs("</td><td class=\"l mono\">", out);
		esc(out, t->device ? t->device : "n/a");
		fputs("</td><td class=\"l\">", out);
		esc(out, t->model ? t->model : "n/a");
		fprintf(out, "</td><td>%s</td><td>",
			t->rotational < 0 ? "n/a"
			: t->rotational	  ? "yes"
					  : "no");
		if (t->logical_block_size)
			fprintf(out, "%llu B", (unsigned long long)t->logical_block_size);
		else
			fputs("n/a", out);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void cell_num(FILE *out, double v, const char *fmt)
{
	fputs("<td>", out);
	if (isfinite(v))
		fprintf(out, fmt, v);
	else
		fputs("n/a", out);
	fputs("</td>", out);
}

static void summary_row(const struct results *r, const struct instance_result *ir, FILE *out)
{
	const struct instance_summary *s = &ir->summary;
	const struct metric *pm = metric_find(s->metric);
	const struct stat_summary *m = metric_stat(s, pm ? pm : &metrics[METRIC_SECONDS]);
	const struct stat_summary *bw = &s->stat[METRIC_BW_BYTES],
				  *lat = &s->stat[METRIC_LAT_MEAN_NS];
	char c[CELL];

	fputs("<tr><td class=\"l mono name\">", out);
	name_wrapping(out, ir->name);
	fputs("</td><td class=\"l\">", out);
	esc(out, ir->workload);
	fprintf(out, "</td><td>%u/%u</td>", s->kept, s->runs);
	cell_num(out, s->stat[METRIC_SECONDS].mean, "%.3f");
	if (isfinite(bw->mean))
		units_format_rate(c, CELL, bw->mean, r->units == UNITS_BINARY);
	fprintf(out, "<td>%s</td>", isfinite(bw->mean) ? c : "n/a");
	/* Half the interval's width relative to the mean, as the text summary shows it. */
	cell_num(out, 100 * (m->ci_high - m->ci_low) / 2 / m->mean, "&plusmn;%.1f%%");
	cell_num(out, s->stat[METRIC_IOPS].mean, "%.0f");
	if (isfinite(lat->mean))
		units_format_duration(c, CELL, lat->mean);
	fprintf(out, "<td>%s</td>", isfinite(lat->mean) ? c : "n/a");
	cell_num(out, 100 * m->cov, "%.1f%%");
	if (ir->rep.outliers != OUTLIERS_NONE)
		cell_num(out, 100 * s->before.cov, "%.1f%%");
	else
		fputs("<td>-</td>", out);
	cell_num(out, s->required.n, "%.0f");
	fputs("</tr>\n", out);
}

/* Under the summary table, for the whole run: how many trials failed, how many lack lines
 * in records/ (log_error: a full disk) and the first one's reason, as the text summary says
 * it per job, and where they are listed. Nothing when none. */
static void problems_said(const struct results *r, FILE *out)
{
	size_t failed = 0, cut = 0;
	const char *why = NULL;

	for (size_t i = 0; i < r->ninst; i++)
		for (size_t k = 0; k < r->inst[i].ntrials; k++) {
			const struct trial_result *t = &r->inst[i].trials[k];
			failed += t->ran && t->failed;
			if (t->log_error && cut++ == 0)
				why = t->log_error;
		}
	if (!failed && !cut)
		return;
	fputs("<p class=\"note\" id=\"problems-said\">", out);
	if (failed)
		fprintf(out, "%zu trial%s failed%s", failed, failed == 1 ? "" : "s",
			cut ? "; " : "");
	if (cut) {
		fprintf(out, "records/ lacks lines of %zu trial%s (", cut, cut == 1 ? "" : "s");
		esc(out, why);
		fputs("), whose figures are whole all the same", out);
	}
	fputs(": see <a href=\"#problems\">trials with problems</a>.</p>\n", out);
}

static void summary(const struct results *r, FILE *out)
{
	fputs("<h2 id=\"summary\">Summary</h2>\n", out);
	for (int bg = 0; bg < 2; bg++) {
		size_t n = 0;
		for (size_t i = 0; i < r->ninst; i++)
			n += r->inst[i].background == (bg == 1);
		if (!n)
			continue;
		if (bg)
			fputs("<h3>Background load (ran alongside, not measured)</h3>\n", out);
		fprintf(out,
			"<table class=\"summary\" id=\"summary-%s\"><tr><th class=\"l\">job</th>"
			"<th class=\"l\">workload</th><th>runs</th><th>seconds</th><th>rate</th>"
			"<th>CI</th><th>IO/s</th><th>lat mean</th><th>COV</th><th>COV all</th>"
			"<th>need</th></tr>\n",
			bg ? "background" : "measured");
		for (size_t i = 0; i < r->ninst; i++)
			if (r->inst[i].background == (bg == 1))
				summary_row(r, &r->inst[i], out);
		fputs("</table>\n", out);
	}
	fprintf(out,
		"<p>runs: kept/ran; rate in %s; CI: half-width of the %.6g%% confidence interval "
		"of the mean, relative; COV: stddev/mean (COV all: before the outlier policy); "
		"need: runs for the stated precision.</p>\n",
		r->units == UNITS_BINARY ? "MiB/s (2^20 B/s)" : "MB/s (10^6 B/s)",
		100 * (isfinite(r->confidence) ? r->confidence : 0.95));
	problems_said(r, out);
}

/* The summary's pooled latency, as the text summary shows it (lat_table.h), and why a row
 * says n/a. 0 or -ENOMEM. */
static int pooled(const struct results *r, FILE *out)
{
	struct lat_table t;
	char why[1024];

	if (lat_table_init(&t, r) < 0)
		return -ENOMEM;
	if (!t.nrows)
		return 0;
	fputs("<h3 id=\"pooled\">Latency: every I/O of the kept trials, pooled</h3>\n"
	      "<table class=\"pooled\">\n",
	      out);
	for (size_t l = 0; l < t.nrows; l++) {
		const char *tag = l ? "td" : "th";
		fprintf(out, "<tr><%s class=\"l mono name\">", tag);
		name_wrapping(out, t.rows[l].name);
		fprintf(out, "</%s>", tag);
		for (size_t c = 1; c < t.ncols; c++) {
			fprintf(out, "<%s>", tag);
			esc(out, t.rows[l].cell[c]);
			fprintf(out, "</%s>", tag);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	if (t.cut)
		fprintf(
		    out,
		    "<p class=\"note\">The first %d percentiles; results.json holds every one.</p>\n",
		    LAT_MAX_PCOLS);
	for (size_t i = 0; i < r->ninst; i++)
		if (lat_table_why(why, sizeof(why), &r->inst[i])) {
			fputs("<p class=\"note why-na\">", out);
			esc(out, why);
			fputs(".</p>\n", out);
		}
	fputs(
	    "<p>Percentiles: nearest rank over the merged histograms of the kept trials, within 1/128 of the exact value.</p>\n",
	    out);
	lat_table_release(&t);
	return 0;
}

/* Each trial that failed or whose record or interval log lacks lines, with why (error,
 * log_error), the first PROBLEMS_MAX of them. */
static void problems(const struct results *r, FILE *out)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ninst; i++)
		for (size_t k = 0; k < r->inst[i].ntrials; k++) {
			const struct trial_result *t = &r->inst[i].trials[k];
			if (!t->ran || (!t->failed && !t->log_error) || n++ >= PROBLEMS_MAX)
				continue;
			if (n == 1)
				fputs("<h2 id=\"problems\">Trials with problems</h2>\n"
				      "<table class=\"problems\"><tr><th class=\"l\">job</th>"
				      "<th>trial</th><th class=\"l\">failed</th>"
				      "<th class=\"l\">records/ lacks lines</th></tr>\n",
				      out);
			fprintf(
			    out,
			    "<tr class=\"problem\" id=\"problem-%zu-%u\"><td class=\"l mono name\">",
			    i, t->index);
			name_wrapping(out, r->inst[i].name);
			fprintf(out, "</td><td>%u</td><td class=\"l why error\">", t->index);
			esc(out, !t->failed ? "-" : t->error ? t->error : "failed");
			fputs("</td><td class=\"l why log-error\">", out);
			esc(out, t->log_error ? t->log_error : "-");
			fputs("</td></tr>\n", out);
		}
	if (!n)
		return;
	fputs("</table>\n", out);
	if (n > PROBLEMS_MAX)
		fprintf(
		    out,
		    "<p class=\"note\">The first %d of %zu; results.json holds every one.</p>\n",
		    PROBLEMS_MAX, n);
	fputs("<p>failed: the trial's first error (<code>error</code> in results.json); records/ "
	      "lacks lines: why its record or interval log does (<code>log_error</code>), its "
	      "figures measured apart from the logs.</p>\n",
	      out);
}

static void note(FILE *out, const char *what, const char *why)
{
	fputs("<p class=\"note\">", out);
	esc(out, what);
	fputs(": not drawn: ", out);
	esc(out, why);
	fputs(".</p>\n", out);
}

/* Each job's matrix keys, one figure per key, in the job file's order. */
static void sweeps(const struct results *r, FILE *out)
{
	int n = 0;

	for (size_t i = 0; i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		bool first = true, any = false;
		for (size_t k = 0; k < i && first; k++)
			first = strcmp(r->inst[k].job, ir->job) != 0;
		if (!first || ir->background)
			continue;
		/* A key with numbers (sizes, counts) goes on the x axis; the others name lines.
		 * Only a matrix of names alone is drawn against a name. */
		bool numeric = false;
		for (size_t p = 0; p < ir->nparams; p++)
			numeric =
			    numeric || (ir->params[p].matrix && (ir->params[p].type == PV_UINT ||
								 ir->params[p].type == PV_REAL));
		for (uint32_t pos = 1; pos <= ir->nparams; pos++)
			for (size_t p = 0; p < ir->nparams; p++) {
				const char *why = NULL, *key = ir->params[p].key;
				char caption[256];
				if (ir->params[p].matrix != pos ||
				    (numeric && ir->params[p].type != PV_UINT &&
				     ir->params[p].type != PV_REAL))
					continue;
				if (!n && !any)
					fputs("<h2 id=\"sweeps\">Matrix sweeps</h2>\n", out);
				any = true;
				fputs("<figure>\n", out);
				utf8_snprintf(
				    caption, sizeof(caption), "%s: %s against %s", ir->job,
				    ir->summary.metric ? ir->summary.metric : metrics[0].name, key);
				if (plot_sweep(out, r, ir->job, key, n, &why)) {
					fputs("<figcaption>", out);
					esc(out, caption);
					fprintf(
					    out,
					    "; points: mean of the kept trials, bars: its %.6g%% "
					    "confidence interval; one line per value of the other "
					    "matrix keys.</figcaption>\n",
					    100 * ir->rep.confidence);
				} else {
					note(out, caption, why);
				}
				fputs("</figure>\n", out);
				n++;
			}
	}
}

static void comparisons(const struct results *r, FILE *out)
{
	char verdict[1024];

	if (r->ncmp)
		fputs("<h2 id=\"comparisons\">Comparisons</h2>\n", out);
	for (size_t i = 0; i < r->ncmp; i++) {
		const struct comparison *c = &r->cmp[i];
		const char *why = NULL;
		fputs("<figure>\n", out);
		words_verdict(verdict, sizeof(verdict), c);
		if (!plot_compare(out, r, c, (int)i, &why))
			note(out, c->a, why);
		fprintf(out, "<figcaption class=\"verdict\" id=\"verdict-%zu\">", i);
		esc(out, verdict);
		fputs("</figcaption>\n</figure>\n", out);
	}
}

static bool has_kind(const struct instance_result *ir, enum series_kind k)
{
	for (size_t i = 0; i < ir->nseries; i++)
		if (ir->series[i].kind == k)
			return true;
	return false;
}

static bool wants_intervals(const struct instance_result *ir)
{
	const struct param *p = results_param(ir, "log_interval");

	return p && p->type == PV_UINT && p->u > 0;
}

/* The record and interval logs: the discwr2 figure, and each change point said. */
static void series(const struct results *r, FILE *out)
{
	char line[512];
	bool any = false;

	for (size_t i = 0; i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		bool want[2] = {ir->records || has_kind(ir, SERIES_RECORDS),
				wants_intervals(ir) || has_kind(ir, SERIES_INTERVALS)};
		char cut[512];
		if (!want[0] && !want[1])
			continue;
		if (!any)
			fputs("<h2 id=\"series\">Series and change points</h2>\n", out);
		any = true;
		fputs("<h3>", out);
		esc(out, ir->name);
		fputs("</h3>\n", out);
		if (words_log_cut(cut, sizeof(cut), ir)) {
			fputs("<p class=\"note log-cut\">", out);
			esc(out, cut);
			fputs(": its series hold the lines there are; see <a "
			      "href=\"#problems\">trials with problems</a>.</p>\n",
			      out);
		}
		for (int k = 0; k < 2; k++) {
			const char *why = NULL;
			if (!want[k])
				continue;
			fputs("<figure>\n", out);
			if (plot_series(out, r, ir, (enum series_kind)k, (int)i, &why))
				fprintf(
				    out,
				    "<figcaption>%s; dashed rules: change points.</figcaption>\n",
				    k == SERIES_RECORDS
					? "Rate of each stretch of records (bytes over the time its I/Os took) against the bytes done"
					: "Rate per interval (all workers) against time");
			else
				note(out,
				     k == SERIES_RECORDS ? "records series" : "intervals series",
				     why);
			fputs("</figure>\n", out);
		}
		fputs("<ul class=\"changepoints\">\n", out);
		for (size_t k = 0; k < ir->ncps; k++) {
			const struct change_point *c = &ir->cps[k];
			words_change(line, sizeof(line), ir, c, r->units == UNITS_BINARY);
			fprintf(out, "<li class=\"changepoint\">trial %u, %s log: ", c->trial,
				c->kind == SERIES_RECORDS ? "record" : "interval");
			esc(out, line);
			fputs("</li>\n", out);
		}
		if (!ir->ncps && ir->nseries)
			fputs("<li class=\"nochange\">no lasting change of level</li>\n", out);
		fputs("</ul>\n", out);
	}
}

static void latencies(const struct results *r, FILE *out)
{
	if (!r->ninst)
		return;
	fprintf(out,
		"<h2 id=\"latency\">Latency percentiles</h2>\n"
		"<p>Per instance, one line per kept trial: p50 to p99.99 of its I/Os' latency, "
		"both axes logarithmic. <button id=\"toggle-all\" type=\"button\">%s</button></p>\n"
		"<details%s><summary>%zu instance%s</summary><div class=\"grid-lat\">\n",
		r->ninst > LATENCY_OPEN ? "Unfold all" : "Fold all",
		r->ninst > LATENCY_OPEN ? "" : " open", r->ninst, r->ninst == 1 ? "" : "s");
	for (size_t i = 0; i < r->ninst; i++) {
		const char *why = NULL;
		fputs("<figure>\n", out);
		if (!plot_latency(out, r, &r->inst[i], (int)i, &why))
			note(out, "latency percentiles", why);
		fputs("<figcaption class=\"mono\">", out);
		esc(out, r->inst[i].name);
		fputs("</figcaption>\n</figure>\n", out);
	}
	fputs("</div></details>\n", out);
}

static int html_report(const struct results *r, FILE *out)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      out);
	esc(out, r->experiment);
	fprintf(out, " - iotrial report</title>\n<style>%s</style>\n</head>\n<body>\n", css);
	header(r, out);
	environment(r, out);
	summary(r, out);
	if (pooled(r, out) < 0)
		return -ENOMEM;
	problems(r, out);
	sweeps(r, out);
	comparisons(r, out);
	series(r, out);
	latencies(r, out);
	if (!r->complete)
		fputs(
		    "<p class=\"note\">The run did not complete; figures cover the trials that ran.</p>\n",
		    out);
	/* The version is read back from results.json, as anything in it may be: escaped. */
	fputs("<footer><p>Written by iotrial ", out);
	esc(out, r->tool_version ? r->tool_version : "");
	fprintf(out,
		". Every figure is drawn from results.json; methods: docs/statistics.md.</p>"
		"</footer>\n<script>%s</script>\n</body></html>\n",
		js);
	return ferror(out) ? -EIO : 0;
}

const struct rep_ops rep_html = {
    .name = "html",
    .file = "report.html",
    .on_request = true,
    .write = html_report,
};
