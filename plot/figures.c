/* The figures of a replicated experiment: a matrix sweep with confidence intervals, and a
 * comparison's two distributions (see figures.h). Series and latency: series_plot.c. */
#include "plot/figures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"
#include "model/metrics.h"
#include "lib/units.h"
#include "lib/utf8.h"
#include "plot/plot_internal.h"
#include "plot/svg.h"

#define W    720
#define H    380
#define MAXG 12 /* lines in a sweep with a legend entry each */

void plot_format_param(char *buf, size_t len, const struct param *p, bool binary)
{
	const struct job_key *k = job_key_find(p->key);

	if (p->type == PV_UINT && k && k->type == KT_SIZE)
		plot_size3(buf, len, (double)p->u, binary);
	else if (p->type == PV_UINT && k && k->type == KT_DURATION)
		units_format_duration(buf, len, (double)p->u);
	else if (p->type == PV_UINT)
		snprintf(buf, len, "%llu", (unsigned long long)p->u);
	else if (p->type == PV_REAL)
		snprintf(buf, len, "%g", p->d);
	else if (p->type == PV_BOOL)
		snprintf(buf, len, "%s", p->b ? "true" : "false");
	else if (p->type == PV_STR)
		utf8_snprintf(buf, len, "%s", p->s);
	else
		snprintf(buf, len, "-");
}

void plot_size3(char *b, size_t len, double v, bool binary)
{
	struct plot_unit u;

	plot_unit_bytes(&u, v, binary);
	v /= u.div;
	if (u.div == 1)
		snprintf(b, len, "%.0f B", v);
	else
		snprintf(b, len, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v, u.name);
}

void plot_metric_axis(const struct metric *m, double max, bool binary, struct plot_unit *u,
		      char *label, size_t len, double *mul)
{
	*mul = 1;
	if (m->format == MF_SECONDS) {
		*mul = 1e9;
		plot_unit_ns(u, max * 1e9);
	} else if (m->format == MF_RATE) {
		plot_unit_rate(u, max, binary);
	} else if (m->format == MF_DURATION) {
		plot_unit_ns(u, max);
	} else {
		u->div = 1;
		snprintf(u->name, sizeof(u->name), "%s", m->unit);
	}
	snprintf(label, len, "%s (%s)", m->label, u->name);
}

const struct stat_summary *plot_metric_stat(const struct instance_summary *s, const char *name)
{
	const struct metric *m = metric_find(name);

	return m ? metric_stat(s, m) : NULL;
}

/* One instance of a sweep: where it goes and how it stands. */
struct pt {
	const struct instance_result *ir;
	const struct param *x;
	double xv; /* numeric x, or the category's index */
	int group;
	const struct stat_summary *st;
};

static bool numeric(const struct param *p)
{
	return p->type == PV_UINT || p->type == PV_REAL;
}

static double pval(const struct param *p)
{
	return p->type == PV_UINT ? (double)p->u : p->d;
}

static bool same_param(const struct param *a, const struct param *b)
{
	if (a->type != b->type)
		return false;
	return a->type == PV_STR ? !strcmp(a->s, b->s)
				 : a->u == b->u && a->b == b->b && a->d == b->d;
}

/* "device=usb, bs=4 kB": the instance's other matrix keys, which name its line. */
static void group_label(char *buf, size_t len, const struct instance_result *ir, const char *key,
			bool binary)
{
	size_t n = 0;

	buf[0] = 0;
	for (uint32_t pos = 1; pos <= ir->nparams; pos++)
		for (size_t i = 0; i < ir->nparams; i++) {
			const struct param *p = &ir->params[i];
			char v[64];
			if (p->matrix != pos || !strcmp(p->key, key) || n + 1 >= len)
				continue;
			plot_format_param(v, sizeof(v), p, binary);
			n += (size_t)utf8_snprintf(buf + n, len - n, "%s%s=%s", n ? ", " : "",
						   p->key, v);
		}
}

static int by_x(const void *a, const void *b)
{
	const struct pt *x = a, *y = b;

	return x->group != y->group ? x->group - y->group : (x->xv > y->xv) - (x->xv < y->xv);
}

bool plot_sweep(FILE *out, const struct results *r, const char *job, const char *key, int n,
		const char **why)
{
	bool binary = r->units == UNITS_BINARY, isnum = true, logx;
	struct pt *pts = calloc(r->ninst ? r->ninst : 1, sizeof(*pts));
	const struct param *cats[PLOT_MAX_TICKS];
	char labels[MAXG][128], lab[128], ylabel[64], id[32], title[256];
	size_t np = 0, ncat = 0, ng = 0, nxt, nyt;
	double xlo = INFINITY, xhi = -INFINITY, yhi = 0, mul;
	const char *metric = NULL;
	struct plot_tick xt[PLOT_MAX_TICKS], yt[PLOT_MAX_TICKS];
	struct plot_unit yu;

	if (!pts) {
		*why = "out of memory";
		return false;
	}
	for (size_t i = 0; i < r->ninst; i++) {
		const struct instance_result *ir = &r->inst[i];
		const struct param *p = results_param(ir, key);
		if (strcmp(ir->job, job) || ir->background || !p)
			continue;
		metric = metric		      ? metric
			 : ir->summary.metric ? ir->summary.metric
					      : metrics[0].name;
		pts[np] = (struct pt){ir, p, 0, 0, plot_metric_stat(&ir->summary, metric)};
		isnum = isnum && numeric(p);
		group_label(lab, sizeof(lab), ir, key, binary);
		size_t g = 0;
		while (g < ng && strcmp(labels[g], lab))
			g++;
		if (g == ng && ng < MAXG)
			snprintf(labels[ng++], sizeof(labels[0]), "%s", lab);
		pts[np].group = (int)(g < ng ? g : ng - 1);
		np++;
	}
	for (size_t i = 0; i < np; i++) {
		const struct stat_summary *s = pts[i].st;
		if (isnum) {
			pts[i].xv = pval(pts[i].x);
		} else {
			size_t c = 0;
			while (c < ncat && !same_param(cats[c], pts[i].x))
				c++;
			if (c == ncat && ncat < PLOT_MAX_TICKS)
				cats[ncat++] = pts[i].x;
			pts[i].xv = (double)(c < ncat ? c : ncat - 1);
		}
		xlo = fmin(xlo, pts[i].xv);
		xhi = fmax(xhi, pts[i].xv);
		if (s && isfinite(s->mean))
			yhi = fmax(yhi, isfinite(s->ci_high) ? s->ci_high : s->mean);
	}
	if (np < 2 || !(xhi > xlo) || !(yhi > 0) || !metric) {
		free(pts);
		*why = "fewer than two instances with a measured mean";
		return false;
	}
	qsort(pts, np, sizeof(*pts), by_x);
	/* A mean was measured, so the name is a metric's (plot_metric_stat found it). */
	plot_metric_axis(metric_find(metric), yhi, binary, &yu, ylabel, sizeof(ylabel), &mul);
	logx = isnum && xlo > 0 && xhi / xlo >= 8;
	struct plot_axis xa = {xlo, xhi, logx, 80, W - 200}, ya = {0, yhi * mul, false, H - 60, 20};
	if (!logx) {
		/* Room for the first and last bars. */
		double pad = (xhi - xlo) * 0.05;
		xa.lo -= pad;
		xa.hi += pad;
	} else {
		xa.lo /= 1.25;
		xa.hi *= 1.25;
	}
	plot_nice_range(&ya.lo, &ya.hi);
	ya.lo = 0;
	nyt = plot_ticks_linear(ya.lo, ya.hi, &yu, yt, PLOT_MAX_TICKS);
	/* x ticks at the values swept (they are what the job file lists). */
	nxt = 0;
	for (size_t i = 0; i < np && nxt < PLOT_MAX_TICKS; i++) {
		bool seen = false;
		for (size_t k = 0; k < nxt && !seen; k++)
			seen = xt[k].v == pts[i].xv;
		if (seen)
			continue;
		xt[nxt].v = pts[i].xv;
		plot_format_param(xt[nxt].label, sizeof(xt[nxt].label),
				  isnum ? pts[i].x : cats[(size_t)pts[i].xv], binary);
		nxt++;
	}
	snprintf(id, sizeof(id), "sweep-%d", n);
	utf8_snprintf(title, sizeof(title), "%s: %s against %s", job, metric, key);
	svg_open(out, id, "plot-sweep", W, H, title);
	svg_axes(out, &xa, &ya, xt, nxt, yt, nyt, logx ? "" : key, ylabel);
	if (logx)
		svg_text(out, (xa.p0 + xa.p1) / 2, H - 24, "middle", "axislabel", "%s (log scale)",
			 key);
	for (size_t g = 0; g < ng; g++) {
		/* Lines of different groups sit a few pixels apart, so their bars do not hide. */
		double dx = ((double)g - (double)(ng - 1) / 2) * 4;
		svg_poly_begin(out, (int)g, "line");
		for (size_t i = 0; i < np; i++)
			if (pts[i].group == (int)g && pts[i].st && isfinite(pts[i].st->mean))
				svg_poly_point(out, plot_map(&xa, pts[i].xv) + dx,
					       plot_map(&ya, pts[i].st->mean * mul));
		svg_poly_end(out);
		for (size_t i = 0; i < np; i++) {
			const struct stat_summary *s = pts[i].st;
			double px = plot_map(&xa, pts[i].xv) + dx;
			if (pts[i].group != (int)g || !s || !isfinite(s->mean))
				continue;
			if (isfinite(s->ci_low) && isfinite(s->ci_high)) {
				double y0 = plot_map(&ya, s->ci_low * mul),
				       y1 = plot_map(&ya, s->ci_high * mul);
				svg_line(out, px, y0, px, y1, "errbar");
				svg_line(out, px - 4, y0, px + 4, y0, "errbar");
				svg_line(out, px - 4, y1, px + 4, y1, "errbar");
			}
			svg_marker(out, px, plot_map(&ya, s->mean * mul), (int)g, true);
		}
		svg_legend(out, W - 190, 30 + 20 * (double)g, (int)g, true,
			   *labels[g] ? labels[g] : job);
	}
	svg_close(out);
	free(pts);
	return true;
}

/* Where trial i of a side goes across its column: spread evenly, in a fixed order. */
static double jitter(size_t i)
{
	return fmod((double)i * 0.6180339887, 1.0) - 0.5;
}

static const struct instance_result *find_inst(const struct results *r, const char *name)
{
	for (size_t i = 0; name && i < r->ninst; i++)
		if (!strcmp(r->inst[i].name, name))
			return &r->inst[i];
	return NULL;
}

bool plot_compare(FILE *out, const struct results *r, const struct comparison *c, int n,
		  const char **why)
{
	const struct instance_result *side[2] = {find_inst(r, c->a), find_inst(r, c->b)};
	const struct metric *m = metric_find(c->metric);
	double lo = INFINITY, hi = -INFINITY, mul;
	struct plot_tick yt[PLOT_MAX_TICKS], xt[2];
	struct plot_unit yu;
	char ylabel[64], id[32], title[256];
	size_t nyt, count = 0;

	if (!side[0] || !side[1] || !c->metric) {
		*why = "the results do not hold both instances of the comparison";
		return false;
	}
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < side[s]->ntrials; i++) {
			const struct trial_result *t = &side[s]->trials[i];
			double v = metric_value(m, t);
			if (!t->ran || t->warmup || t->failed || !isfinite(v))
				continue;
			lo = fmin(lo, v);
			hi = fmax(hi, v);
			count++;
		}
	if (!count || !m) {
		*why = "neither side has a measured trial";
		return false;
	}
	plot_metric_axis(m, hi, r->units == UNITS_BINARY, &yu, ylabel, sizeof(ylabel), &mul);
	struct plot_axis xa = {0, 1, false, 80, W - 200},
			 ya = {lo * mul, hi * mul, false, H - 60, 20};
	plot_nice_range(&ya.lo, &ya.hi);
	nyt = plot_ticks_linear(ya.lo, ya.hi, &yu, yt, PLOT_MAX_TICKS);
	for (int s = 0; s < 2; s++) {
		const char *lab = s ? c->b_label : c->a_label;
		xt[s].v = s ? 0.72 : 0.28;
		/* The selector as written ("device=usb") says best which side is which. */
		if (!lab || !*lab)
			lab = s ? c->b : c->a;
		snprintf(xt[s].label, sizeof(xt[s].label), "%s: %.*s", s ? "b" : "a",
			 (int)utf8_cut(lab, 26), lab);
	}
	snprintf(id, sizeof(id), "compare-%d", n);
	utf8_snprintf(title, sizeof(title), "%s: %s against %s", c->metric, c->a, c->b);
	svg_open(out, id, "plot-compare", W, H, title);
	svg_axes(out, &xa, &ya, xt, 2, yt, nyt,
		 "each trial (filled: kept; hollow: dropped by the outlier policy)", ylabel);
	for (int s = 0; s < 2; s++) {
		const struct stat_summary *st = metric_stat(&side[s]->summary, m);
		double cx = plot_map(&xa, xt[s].v), bx = cx + 70;
		size_t k = 0;
		for (size_t i = 0; i < side[s]->ntrials; i++) {
			const struct trial_result *t = &side[s]->trials[i];
			double v = metric_value(m, t);
			if (!t->ran || t->warmup || t->failed || !isfinite(v))
				continue;
			svg_marker(out, cx + 80 * jitter(k++), plot_map(&ya, v * mul), 0, t->kept);
		}
		/* The side's mean and interval, beside its points. */
		if (st && isfinite(st->mean)) {
			double ym = plot_map(&ya, st->mean * mul);
			if (isfinite(st->ci_low) && isfinite(st->ci_high)) {
				double y0 = plot_map(&ya, st->ci_low * mul),
				       y1 = plot_map(&ya, st->ci_high * mul);
				svg_line(out, bx, y0, bx, y1, "errbar");
				svg_line(out, bx - 5, y0, bx + 5, y0, "errbar");
				svg_line(out, bx - 5, y1, bx + 5, y1, "errbar");
			}
			svg_line(out, bx - 9, ym, bx + 9, ym, "meanbar");
		}
	}
	svg_text(out, W - 190, 34, "start", "legend", "bar: mean and its");
	svg_text(out, W - 190, 50, "start", "legend", "confidence interval");
	svg_close(out);
	return true;
}
