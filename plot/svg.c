/* SVG drawing helpers (see svg.h). Coordinates are written with one decimal: enough for a
 * screen or a printer, and it keeps a 512-point line small. */
#include "plot/svg.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "lib/utf8.h"

double plot_map(const struct plot_axis *a, double v)
{
	double lo = a->log ? log10(a->lo) : a->lo, hi = a->log ? log10(a->hi) : a->hi;
	double x = a->log ? (v > 0 ? log10(v) : lo) : v, f;

	f = hi > lo ? (x - lo) / (hi - lo) : 0.5;
	/* A value off the axis is drawn just past its end, never far off the picture. */
	f = f < -0.05 ? -0.05 : f > 1.05 ? 1.05 : f;
	return a->p0 + f * (a->p1 - a->p0);
}

static void pick(struct plot_unit *u, double max, double k, const char *const *names, size_t n,
		 const char *suffix)
{
	size_t i = 0;
	double div = 1;

	while (i + 1 < n && max >= div * k) {
		div *= k;
		i++;
	}
	u->div = div;
	snprintf(u->name, sizeof(u->name), "%s%s", names[i], suffix);
}

void plot_unit_bytes(struct plot_unit *u, double max, bool binary)
{
	static const char *const dec[] = {"B", "kB", "MB", "GB", "TB", "PB"};
	static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

	pick(u, max, binary ? 1024 : 1000, binary ? bin : dec, 6, "");
}

void plot_unit_rate(struct plot_unit *u, double max, bool binary)
{
	static const char *const dec[] = {"B", "kB", "MB", "GB", "TB", "PB"};
	static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

	pick(u, max, binary ? 1024 : 1000, binary ? bin : dec, 6, "/s");
}

void plot_unit_ns(struct plot_unit *u, double max_ns)
{
	static const char *const names[] = {"ns", "us", "ms", "s"};

	pick(u, max_ns, 1000, names, 4, "");
}

static double nice_step(double range, size_t want)
{
	double raw = range / (double)want, mag, f;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

void plot_nice_range(double *lo, double *hi)
{
	double step;

	if (!(*hi > *lo)) {
		double pad = *hi != 0 ? fabs(*hi) * 0.1 : 1;
		*lo -= pad;
		*hi += pad;
	}
	step = nice_step(*hi - *lo, 5);
	*lo = floor(*lo / step) * step;
	*hi = ceil(*hi / step) * step;
}

size_t plot_ticks_linear(double lo, double hi, const struct plot_unit *u, struct plot_tick *t,
			 size_t max)
{
	double step = nice_step(hi - lo, 5), div = u ? u->div : 1;
	size_t n = 0;

	/* n < max bounds the loop whatever the rounding. NOLINTBEGIN(cert-flp30-c) */
	for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9 && n < max;
	     v += step) {
		/* NOLINTEND(cert-flp30-c) */
		double shown = fabs(v) < step * 1e-9 ? 0 : v / div;
		t[n].v = v;
		snprintf(t[n].label, sizeof(t[n].label), "%.4g", shown);
		n++;
	}
	return n;
}

size_t plot_ticks_log10(double lo, double hi, void (*fmt)(char *, size_t, double),
			struct plot_tick *t, size_t max)
{
	size_t n = 0;

	/* n < max bounds the loop whatever the rounding. NOLINTNEXTLINE(cert-flp30-c) */
	for (double e = ceil(log10(lo) - 1e-9); e <= log10(hi) + 1e-9 && n < max; e++) {
		t[n].v = pow(10, e);
		fmt(t[n].label, sizeof(t[n].label), t[n].v);
		n++;
	}
	return n;
}

const char *svg_dash(int style)
{
	static const char *const dash[PLOT_NSTYLES] = {"", "7 4", "2 3", "9 3 2 3", "4 2", "12 4"};

	return dash[(style % PLOT_NSTYLES + PLOT_NSTYLES) % PLOT_NSTYLES];
}

/* May XML 1.0 hold the UTF-8 character of `n` bytes at `p`? Tab, LF, CR, and from U+0020
 * on, but for U+FFFE and U+FFFF. */
static bool xml_char(const unsigned char *p, size_t n)
{
	if (n == 1)
		return *p >= 0x20 || *p == '\t' || *p == '\n' || *p == '\r';
	return !(n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe);
}

void svg_escape_n(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end;

	if (!s)
		return;
	end = p + len;
	while (p < end && *p) {
		/* utf8_seq_len stops at the NUL, so it reads nothing past the string. */
		size_t n = utf8_seq_len(p);
		if (!n || n > (size_t)(end - p) || !xml_char(p, n)) {
			/* Not a character XML may hold, or a byte that starts none (a character
			 * cut in half): U+FFFD, as results.json writes a stray byte. */
			fputs("\xef\xbf\xbd", out);
			p += n && n <= (size_t)(end - p) ? n : 1;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		switch (*p++) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			fputc(p[-1], out);
		}
	}
}

void svg_escape(FILE *out, const char *s)
{
	svg_escape_n(out, s, s ? strlen(s) : 0);
}

void svg_open(FILE *out, const char *id, const char *kind, int w, int h, const char *title)
{
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot %s\" id=\"", kind);
	svg_escape(out, id);
	fprintf(out, "\" viewBox=\"0 0 %d %d\" role=\"img\"><title>", w, h);
	svg_escape(out, title);
	fputs("</title>\n", out);
}

void svg_close(FILE *out)
{
	fputs("</svg>\n", out);
}

void svg_text(FILE *out, double x, double y, const char *anchor, const char *cls, const char *fmt,
	      ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	utf8_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s%s>", x, y, anchor,
		cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	svg_escape(out, buf);
	fputs("</text>\n", out);
}

void svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *cls)
{
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"%s\"/>\n", x1,
		y1, x2, y2, cls);
}

void svg_axes(FILE *out, const struct plot_axis *x, const struct plot_axis *y,
	      const struct plot_tick *xt, size_t nx, const struct plot_tick *yt, size_t ny,
	      const char *xlabel, const char *ylabel)
{
	double left = x->p0, right = x->p1, bottom = y->p0, top = y->p1;

	fputs("<g class=\"axes\">\n", out);
	for (size_t i = 0; i < nx; i++) {
		double px = plot_map(x, xt[i].v);
		svg_line(out, px, top, px, bottom, "grid");
		svg_line(out, px, bottom, px, bottom + 4, "tick");
		svg_text(out, px, bottom + 16, "middle", "ticklabel", "%s", xt[i].label);
	}
	for (size_t i = 0; i < ny; i++) {
		double py = plot_map(y, yt[i].v);
		svg_line(out, left, py, right, py, "grid");
		svg_line(out, left - 4, py, left, py, "tick");
		svg_text(out, left - 7, py + 4, "end", "ticklabel", "%s", yt[i].label);
	}
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"frame\"/>\n",
		left, top, right - left, bottom - top);
	svg_text(out, (left + right) / 2, bottom + 36, "middle", "axislabel", "%s", xlabel);
	fprintf(
	    out,
	    "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\" class=\"axislabel\">",
	    left - 48, (top + bottom) / 2);
	svg_escape(out, ylabel);
	fputs("</text>\n</g>\n", out);
}

void svg_marker(FILE *out, double x, double y, int style, bool filled)
{
	const char *fill = filled ? "mark" : "mark hollow";
	double r = 3.5;

	switch ((style % 5 + 5) % 5) {
	case 0:
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" class=\"%s\"/>\n", x, y, r,
			fill);
		break;
	case 1:
		fprintf(
		    out,
		    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"%s\"/>\n",
		    x - r, y - r, 2 * r, 2 * r, fill);
		break;
	case 2:
		fprintf(out, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" class=\"%s\"/>\n", x,
			y - r - 1, x + r + 1, y + r, x - r - 1, y + r, fill);
		break;
	case 3:
		fprintf(out,
			"<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" class=\"%s\"/>\n", x,
			y - r - 1, x + r + 1, y, x, y + r + 1, x - r - 1, y, fill);
		break;
	default:
		fprintf(
		    out,
		    "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" class=\"mark cross\"/>\n",
		    x - r, y - r, x + r, y + r, x - r, y + r, x + r, y - r);
	}
}

void svg_poly_begin(FILE *out, int style, const char *cls)
{
	const char *dash = svg_dash(style);

	fprintf(out, "<polyline class=\"%s\"%s%s%s points=\"", cls,
		*dash ? " stroke-dasharray=\"" : "", dash, *dash ? "\"" : "");
}

void svg_poly_point(FILE *out, double x, double y)
{
	fprintf(out, "%.1f,%.1f ", x, y);
}

void svg_poly_end(FILE *out)
{
	fputs("\"/>\n", out);
}

void svg_legend(FILE *out, double x, double y, int style, bool marker, const char *label)
{
	svg_poly_begin(out, style, "line");
	svg_poly_point(out, x, y);
	svg_poly_point(out, x + 28, y);
	svg_poly_end(out);
	if (marker)
		svg_marker(out, x + 14, y, style, true);
	svg_text(out, x + 34, y + 4, "start", "legend", "%s", label);
}
