/* The figures of one instance: its series with change points marked (discwr2's figure),
 * and its latency percentiles (see figures.h). */
#include "plot/figures.h"

#include <math.h>
#include <string.h>

#include "lib/units.h"
#include "lib/utf8.h"
#include "model/names.h"
#include "plot/plot_internal.h"
#include "plot/svg.h"

#define W     720
#define H     380
#define LW    360
#define LH    250
#define MAXLN 12 /* trials drawn as lines of their own style; more share one grey */

static double xof(const struct series_point *p, enum series_kind k)
{
	return k == SERIES_RECORDS ? (double)p->at_bytes : (double)p->at_ns;
}

static double cp_x(const struct change_point *c)
{
	return c->kind == SERIES_RECORDS ? (double)c->at_bytes : (double)c->at_ns;
}

static bool drawn(const struct instance_result *ir, const struct series *s)
{
	for (size_t i = 0; i < ir->ntrials; i++)
		if (ir->trials[i].index == s->trial)
			return ir->trials[i].kept || !ir->trials[i].failed;
	return true;
}

bool plot_series(FILE *out, const struct results *r, const struct instance_result *ir,
		 enum series_kind kind, int n, const char **why)
{
	bool binary = r->units == UNITS_BINARY;
	double xhi = 0, yhi = 0;
	size_t lines = 0, nxt, nyt;
	struct plot_tick xt[PLOT_MAX_TICKS], yt[PLOT_MAX_TICKS];
	struct plot_unit xu, yu;
	char xlabel[96], ylabel[96], id[48], title[256];
	const char *w = ir->workload ? ir->workload : "";
	const char *what = strstr(w, "write") ? "write" : strstr(w, "read") ? "read" : "I/O";

	for (size_t i = 0; i < ir->nseries; i++) {
		const struct series *s = &ir->series[i];
		if (s->kind != kind || !drawn(ir, s))
			continue;
		for (size_t k = 0; k < s->npts; k++) {
			xhi = fmax(xhi, xof(&s->pts[k], kind));
			if (isfinite(s->pts[k].value))
				yhi = fmax(yhi, s->pts[k].value);
		}
		lines += s->npts > 0;
	}
	if (!lines || !(xhi > 0) || !(yhi > 0)) {
		*why = kind == SERIES_RECORDS ? "results.json holds no records series for it"
					      : "results.json holds no intervals series for it";
		return false;
	}
	if (kind == SERIES_RECORDS) {
		plot_unit_bytes(&xu, xhi, binary);
		snprintf(xlabel, sizeof(xlabel), "bytes %s (%s)",
			 !strcmp(what, "read")	  ? "read"
			 : !strcmp(what, "write") ? "written"
						  : "moved",
			 xu.name);
	} else {
		plot_unit_ns(&xu, xhi);
		snprintf(xlabel, sizeof(xlabel), "time since the trial's start (%s)", xu.name);
	}
	plot_unit_rate(&yu, yhi, binary);
	snprintf(ylabel, sizeof(ylabel), "%s rate (%s)", what, yu.name);
	struct plot_axis xa = {0, xhi, false, 80, W - 30}, ya = {0, yhi * 1.08, false, H - 60, 30};
	plot_nice_range(&xa.lo, &xa.hi);
	plot_nice_range(&ya.lo, &ya.hi);
	xa.lo = ya.lo = 0;
	nxt = plot_ticks_linear(xa.lo, xa.hi, &xu, xt, PLOT_MAX_TICKS);
	nyt = plot_ticks_linear(ya.lo, ya.hi, &yu, yt, PLOT_MAX_TICKS);
	snprintf(id, sizeof(id), "series-%d-%s", n, names_get(series_kind_names, (int)kind));
	utf8_snprintf(title, sizeof(title), "%s: %s rate per %s", ir->name, what,
		      kind == SERIES_RECORDS ? "record" : "interval");
	svg_open(out, id, "plot-series", W, H, title);
	svg_axes(out, &xa, &ya, xt, nxt, yt, nyt, xlabel, ylabel);
	size_t k = 0;
	for (size_t i = 0; i < ir->nseries; i++) {
		const struct series *s = &ir->series[i];
		if (s->kind != kind || !drawn(ir, s) || !s->npts)
			continue;
		svg_poly_begin(out, lines > MAXLN ? 0 : (int)k,
			       lines > MAXLN ? "line faint" : "line");
		for (size_t p = 0; p < s->npts; p++)
			if (isfinite(s->pts[p].value))
				svg_poly_point(out, plot_map(&xa, xof(&s->pts[p], kind)),
					       plot_map(&ya, s->pts[p].value));
		svg_poly_end(out);
		if (lines > 1 && lines <= 4) {
			char lab[32];
			snprintf(lab, sizeof(lab), "trial %u", s->trial);
			svg_legend(out, W - 150, 46 + 18 * (double)k, (int)k, false, lab);
		}
		k++;
	}
	/* Change points: a dashed rule and the levels on either side. */
	for (size_t i = 0; i < ir->ncps; i++) {
		const struct change_point *c = &ir->cps[i];
		char b[32], a[32];
		double px;
		if (c->kind != kind)
			continue;
		px = plot_map(&xa, cp_x(c));
		svg_line(out, px, ya.p1, px, ya.p0, "changepoint");
		units_format_rate(b, sizeof(b), c->before, binary);
		units_format_rate(a, sizeof(a), c->after, binary);
		svg_text(out, px + 4, ya.p1 + 14 + 14 * (double)(i % 3), "start", "cplabel",
			 "%s → %s", b, a);
	}
	svg_close(out);
	return true;
}

static const double pct[] = {0.5, 0.9, 0.95, 0.99, 0.999, 0.9999};
static const char *const pct_name[] = {"p50", "p90", "p95", "p99", "p99.9", "p99.99"};

static void lat_values(const struct lat_summary *l, double *v)
{
	v[0] = l->p50;
	v[1] = l->p90;
	v[2] = l->p95;
	v[3] = l->p99;
	v[4] = l->p99_9;
	v[5] = l->p99_99;
}

static void fmt_duration(char *b, size_t len, double ns)
{
	units_format_duration(b, len, ns);
}

/* A trial worth a line: kept, or, when none is, any measured trial that did not fail. */
static bool lat_trial(const struct trial_result *t, bool any_kept)
{
	return t->ran && !t->warmup && !t->failed && t->ios && (t->kept || !any_kept);
}

bool plot_latency(FILE *out, const struct results *r, const struct instance_result *ir, int n,
		  const char **why)
{
	double lo = INFINITY, hi = 0, v[6];
	bool any_kept = false;
	size_t lines = 0, nyt, k = 0;
	struct plot_tick xt[6], yt[PLOT_MAX_TICKS];
	char id[32], title[256];

	for (size_t i = 0; i < ir->ntrials; i++)
		any_kept = any_kept || (ir->trials[i].kept && ir->trials[i].ios);
	for (size_t i = 0; i < ir->ntrials; i++) {
		if (!lat_trial(&ir->trials[i], any_kept))
			continue;
		lat_values(&ir->trials[i].lat, v);
		for (int p = 0; p < 6; p++)
			if (isfinite(v[p]) && v[p] > 0) {
				lo = fmin(lo, v[p]);
				hi = fmax(hi, v[p]);
			}
		lines++;
	}
	if (!lines || !(hi > 0)) {
		*why = "no trial with completed I/Os and latency percentiles";
		return false;
	}
	/* Whole decades, so the log grid has lines to read against. */
	lo = pow(10, floor(log10(lo)));
	hi = pow(10, ceil(log10(hi * 1.0001)));
	/* x: the "nines", 1 / (1 - p), on a log scale: p99 is twice as far as p90. */
	struct plot_axis xa = {2, 10000, true, 70, LW - 20}, ya = {lo, hi, true, LH - 50, 14};
	for (int p = 0; p < 6; p++) {
		xt[p].v = 1 / (1 - pct[p]);
		snprintf(xt[p].label, sizeof(xt[p].label), "%s", pct_name[p] + 1);
	}
	nyt = plot_ticks_log10(lo, hi, fmt_duration, yt, PLOT_MAX_TICKS);
	snprintf(id, sizeof(id), "latency-%d", n);
	utf8_snprintf(title, sizeof(title), "%s: latency percentiles", ir->name);
	svg_open(out, id, "plot-latency", LW, LH, title);
	svg_axes(out, &xa, &ya, xt, 6, yt, nyt, "percentile", "latency (log scale)");
	for (size_t i = 0; i < ir->ntrials; i++) {
		if (!lat_trial(&ir->trials[i], any_kept))
			continue;
		lat_values(&ir->trials[i].lat, v);
		svg_poly_begin(out, 0, lines > 1 ? "line faint" : "line");
		for (int p = 0; p < 6; p++)
			if (isfinite(v[p]) && v[p] > 0)
				svg_poly_point(out, plot_map(&xa, xt[p].v), plot_map(&ya, v[p]));
		svg_poly_end(out);
		/* Markers on the first line only: many trials' markers would be a blot. */
		for (int p = 0; p < 6 && k == 0; p++)
			if (isfinite(v[p]) && v[p] > 0)
				svg_marker(out, plot_map(&xa, xt[p].v), plot_map(&ya, v[p]), 0,
					   true);
		k++;
	}
	svg_text(out, LW - 22, 28, "end", "legend", "%zu trial%s", lines, lines == 1 ? "" : "s");
	svg_close(out);
	return true;
}
