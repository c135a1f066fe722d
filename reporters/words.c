/* Shared sentences of the text and HTML reports (see words.h). */
#include "reporters/words.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"
#include "model/metrics.h"

/* A fraction as the percentage it was given as: 0.995 is 99.5%, 0.95 is 95%. */
static void given_pct(char *b, size_t len, double v)
{
	if (isfinite(v))
		snprintf(b, len, "%.6g%%", 100 * v);
	else
		snprintf(b, len, "n/a");
}

/* The percentage is relative to the worse side's mean; the ± is the interval's half-width
 * on that scale. */
void words_verdict(char *buf, size_t len, const struct comparison *c)
{
	const struct metric *m = metric_find(c->metric);
	bool lower = m && m->lower_is_better;
	bool a_better = lower ? c->diff_mean < 0 : c->diff_mean > 0;
	const char *better = a_better ? c->a : c->b, *worse = a_better ? c->b : c->a;
	double worse_mean = a_better ? c->mean_b : c->mean_a;
	double pct = 100 * fabs(c->diff_mean) / fabs(worse_mean);
	double half = 100 * (c->ci_high - c->ci_low) / 2 / fabs(worse_mean);
	char level[32];

	given_pct(level, sizeof(level), c->confidence);
	if (!isfinite(c->ci_low))
		snprintf(buf, len, "%s vs %s (%s): n/a (each side needs at least 2 kept runs)",
			 c->a, c->b, c->metric);
	else if (!c->significant)
		snprintf(
		    buf, len,
		    "%s vs %s (%s): no significant difference (%.1f%% ± %.1f%%, %s confidence, %s)",
		    c->a, c->b, c->metric, pct, half, level, c->test);
	else
		snprintf(buf, len, "%s is %s than %s by %.1f%% ± %.1f%% (%s, %s confidence, %s)",
			 better, lower ? "faster" : "higher", worse, pct, half, c->metric, level,
			 c->test);
}

/* A size with three significant digits, "1.21 GB": a change point's place deserves more
 * than the one decimal of units_format_size. */
static void size3(char *b, size_t len, double v, bool binary)
{
	static const char *const dec[] = {"B", "kB", "MB", "GB", "TB", "PB"};
	static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	double k = binary ? 1024 : 1000;
	int u = 0;

	while (v >= k && u < 5) {
		v /= k;
		u++;
	}
	if (u == 0)
		snprintf(b, len, "%.0f B", v);
	else
		snprintf(b, len, "%.*f %s",
			 v < 10	   ? 2
			 : v < 100 ? 1
				   : 0,
			 v, binary ? bin[u] : dec[u]);
}

void words_change(char *buf, size_t len, const struct instance_result *ir,
		  const struct change_point *c, bool binary)
{
	const char *w = ir->workload ? ir->workload : "";
	const char *what = strstr(w, "write") ? "write" : strstr(w, "read") ? "read" : "I/O";
	char before[32], after[32], at[32], when[32];

	units_format_rate(before, sizeof(before), c->before, binary);
	units_format_rate(after, sizeof(after), c->after, binary);
	size3(at, sizeof(at), (double)c->at_bytes, binary);
	units_format_duration(when, sizeof(when), (double)c->at_ns);
	snprintf(buf, len, "%s rate %s from %s to %s after %s %s (%s)", what,
		 c->after < c->before ? "fell" : "rose", before, after, at,
		 !strcmp(what, "read")	  ? "read"
		 : !strcmp(what, "write") ? "written"
					  : "moved",
		 when);
}

size_t words_log_cut(char *buf, size_t len, const struct instance_result *ir)
{
	const char *why = NULL;
	size_t n = 0;

	for (size_t t = 0; t < ir->ntrials; t++)
		if (ir->trials[t].log_error && n++ == 0)
			why = ir->trials[t].log_error;
	if (n)
		snprintf(buf, len, "records/ lacks lines of %zu trial%s (%s)", n, n == 1 ? "" : "s",
			 why);
	return n;
}
