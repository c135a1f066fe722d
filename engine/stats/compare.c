/* Two-sample comparisons (see compare.h). */
#include "engine/stats/compare.h"

#include <errno.h>
#include <math.h>

#include "lib/stats.h"
#include "model/names.h"

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	struct welford w;

	welford_init(&w);
	for (size_t i = 0; i < n; i++)
		welford_add(&w, x[i]);
	*mean = w.mean;
	*var = n > 1 ? w.m2 / (double)(n - 1) : NAN;
}

double cmp_welch_df(double va, size_t na, double vb, size_t nb)
{
	double qa = va / (double)na, qb = vb / (double)nb;

	return (qa + qb) * (qa + qb) / (qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1));
}

/* diff ± t·se; with se 0 (no spread at all) the interval collapses onto diff. */
static void interval(struct cmp_result *o, double se, double confidence)
{
	double t;

	if (!isfinite(se) || !isfinite(o->df)) {
		o->ci_low = o->ci_high = NAN;
		o->significant = false;
		return;
	}
	t = se > 0 ? stat_t_quantile((1 + confidence) / 2, o->df) : 0;
	o->ci_low = o->diff - t * se;
	o->ci_high = o->diff + t * se;
	o->significant = o->ci_low > 0 || o->ci_high < 0;
}

int cmp_welch(const double *a, size_t na, const double *b, size_t nb, double confidence,
	      struct cmp_result *out)
{
	double va, vb;

	if (na == 0 || nb == 0)
		return -EINVAL;
	mean_var(a, na, &out->mean_a, &va);
	mean_var(b, nb, &out->mean_b, &vb);
	out->na = na;
	out->nb = nb;
	out->test = cmp_test_names[CMP_WELCH];
	out->diff = out->mean_a - out->mean_b;
	out->ratio = out->mean_b != 0 ? out->mean_a / out->mean_b : NAN;
	if (na < 2 || nb < 2) {
		out->df = NAN;
		interval(out, NAN, confidence);
		return 0;
	}
	out->df = va + vb > 0 ? cmp_welch_df(va, na, vb, nb) : (double)(na + nb - 2);
	interval(out, sqrt(va / (double)na + vb / (double)nb), confidence);
	return 0;
}

int cmp_paired(const double *a, const double *b, size_t n, double confidence,
	       struct cmp_result *out)
{
	struct welford d, wa, wb;

	if (n == 0)
		return -EINVAL;
	welford_init(&d);
	welford_init(&wa);
	welford_init(&wb);
	for (size_t i = 0; i < n; i++) {
		welford_add(&d, a[i] - b[i]);
		welford_add(&wa, a[i]);
		welford_add(&wb, b[i]);
	}
	out->mean_a = wa.mean;
	out->mean_b = wb.mean;
	out->na = out->nb = n;
	out->test = cmp_test_names[CMP_PAIRED_T];
	out->diff = d.mean;
	out->ratio = wb.mean != 0 ? wa.mean / wb.mean : NAN;
	out->df = n > 1 ? (double)(n - 1) : NAN;
	interval(out, n > 1 ? sqrt(d.m2 / (double)(n - 1) / (double)n) : NAN, confidence);
	return 0;
}
