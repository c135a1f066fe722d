/* `iotrial compare` output (see compare_text.h): one sentence per job instance, saying how B
 * differs from A, by how much relative to A, and how sure we are. */
#include "reporters/compare_text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/visible.h"
#include "model/metrics.h"

/* "P% ± H%" relative to A's mean; the difference itself when A's mean is 0. */
static void amount(char *buf, size_t len, const struct comparison *c)
{
	double base = fabs(c->mean_a), half = (c->ci_high - c->ci_low) / 2;

	if (base > 0 && isfinite(base))
		snprintf(buf, len, "%.1f%% ± %.1f%%", 100 * fabs(c->diff_mean) / base,
			 100 * half / base);
	else
		snprintf(buf, len, "%.4g ± %.4g", fabs(c->diff_mean), half);
}

static void compare_line(const char *name, const struct comparison *c, FILE *out)
{
	/* diff_mean is mean(A) - mean(B): positive means B is lower. */
	bool b_lower = c->diff_mean > 0;
	const struct metric *m = metric_find(c->metric);
	const char *word = m && m->lower_is_better ? (b_lower ? "faster" : "slower")
						   : (b_lower ? "lower" : "higher");
	char by[96];

	amount(by, sizeof(by), c);
	if (!isfinite(c->ci_low))
		visible_printf(out, "%s: n/a (%s: each side needs at least 2 kept runs)", name,
			       c->metric);
	else if (!c->significant)
		visible_printf(out, "%s: no significant difference (%s, %s, %.4g%% confidence, %s)",
			       name, by, c->metric, 100 * c->confidence, c->test);
	else
		visible_printf(out, "%s: B is %s than A by %s (%s, %.4g%% confidence, %s)", name,
			       word, by, c->metric, 100 * c->confidence, c->test);
	fputc('\n', out);
}

int rep_compare_text(const char *a_path, const struct results *a, const char *b_path,
		     const struct results *b, const struct comparison *cmp, const bool *b_matched,
		     FILE *out)
{
	/* Every string here but the words is from the files (someone else's run, perhaps):
	 * each line goes through visible_printf, its line end written apart. */
	visible_printf(out, "comparing A = %s (%s, started %s) with B = %s (%s, started %s)",
		       a_path, a->experiment, a->started_at, b_path, b->experiment, b->started_at);
	fputc('\n', out);
	for (size_t i = 0; i < a->ninst; i++) {
		if (cmp[i].b) {
			compare_line(a->inst[i].name, &cmp[i], out);
		} else {
			visible_printf(out, "%s: only in A", a->inst[i].name);
			fputc('\n', out);
		}
	}
	for (size_t j = 0; j < b->ninst; j++)
		if (!b_matched[j]) {
			visible_printf(out, "%s: only in B", b->inst[j].name);
			fputc('\n', out);
		}
	return ferror(out) ? -EIO : 0;
}
