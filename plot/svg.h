/*
 * The SVG drawing helpers every figure shares: scales (linear, log), "nice" ticks, units
 * picked for a range (MB/s, ms, GB in the job file's decimal or binary units), axes with
 * labels, lines and markers told apart without colour (dash patterns and marker shapes), and
 * escaping. Plain SVG 1.1 text into a stdio stream: no library, nothing fetched.
 */
#ifndef IOTRIAL_SVG_H
#define IOTRIAL_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One axis: the data range it shows and the pixels it spans (p0 for lo, p1 for hi). */
struct plot_axis {
	double lo, hi;
	bool log; /* log10; lo and hi must then be > 0 */
	double p0, p1;
};

/* A value as a pixel on axis `a` (clamped a little outside the frame). */
double plot_map(const struct plot_axis *a, double v);

/* A unit chosen for a range: values are divided by `div` and the axis says `name`. */
struct plot_unit {
	double div;
	char name[16];
};

void plot_unit_bytes(struct plot_unit *u, double max, bool binary); /* B, kB/KiB, MB/MiB, ... */
void plot_unit_rate(struct plot_unit *u, double max, bool binary);  /* MB/s, MiB/s, ... */
void plot_unit_ns(struct plot_unit *u, double max_ns);		    /* ns, us, ms, s */

#define PLOT_MAX_TICKS 16

struct plot_tick {
	double v; /* in data units (before the unit's div) */
	char label[32];
};

/* Ticks at 1, 2 or 5 × 10^k steps over [lo, hi], labelled in `u` (NULL: as is). Returns how
 * many (at most `max`). */
size_t plot_ticks_linear(double lo, double hi, const struct plot_unit *u, struct plot_tick *t,
			 size_t max);

/* Widen [*lo, *hi] to the outer ticks of plot_ticks_linear, so lines end on a grid line. */
void plot_nice_range(double *lo, double *hi);

/* Ticks at the powers of 10 within [lo, hi], labelled by `fmt` (value → text). */
size_t plot_ticks_log10(double lo, double hi, void (*fmt)(char *, size_t, double),
			struct plot_tick *t, size_t max);

/* Line styles that print in black and white: 0 solid, then dashes of different rhythm. */
#define PLOT_NSTYLES 6
const char *svg_dash(int style);

/* Write `s` (NULL: nothing) escaped for XML text and attribute values: & < > " ' as
 * entities, and each byte XML 1.0 cannot hold (a C0 control but tab, LF and CR; U+FFFE,
 * U+FFFF; a byte that is not UTF-8, as of a character cut in half) as U+FFFD, so the page
 * stays well-formed whatever a results.json holds. */
void svg_escape(FILE *out, const char *s);

/* svg_escape of the first `len` bytes of the string `s` (its NUL ends it sooner). */
void svg_escape_n(FILE *out, const char *s, size_t len);

/* <svg ...> with a <title> and the class "plot KIND" and id `id` the tests look for. */
void svg_open(FILE *out, const char *id, const char *kind, int w, int h, const char *title);
void svg_close(FILE *out);

/* The frame of a figure: grid lines and tick labels of both axes, their labels, a box. */
void svg_axes(FILE *out, const struct plot_axis *x, const struct plot_axis *y,
	      const struct plot_tick *xt, size_t nx, const struct plot_tick *yt, size_t ny,
	      const char *xlabel, const char *ylabel);

/* Text at (x, y): anchor "start", "middle" or "end"; `cls` a CSS class or NULL. */
void svg_text(FILE *out, double x, double y, const char *anchor, const char *cls, const char *fmt,
	      ...) __attribute__((format(printf, 6, 7)));

void svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *cls);

/* A marker of shape `style` (circle, square, triangle, diamond, ...), filled or hollow. */
void svg_marker(FILE *out, double x, double y, int style, bool filled);

/* A polyline: begin with its style and CSS class, add points, end. */
void svg_poly_begin(FILE *out, int style, const char *cls);
void svg_poly_point(FILE *out, double x, double y);
void svg_poly_end(FILE *out);

/* A legend entry at (x, y): a short line in `style` with its marker, then `label`. */
void svg_legend(FILE *out, double x, double y, int style, bool marker, const char *label);

#endif
