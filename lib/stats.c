/*
 * Statistics over repeated measurements: Welford accumulators, normal and Student-t quantiles
 * (t through the regularized incomplete beta function), sample summaries with confidence
 * intervals, and the number of runs a target error needs. No printing here.
 */
#include "lib/stats.h"

#include <errno.h>
#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Above this df the Cornish-Fisher series is good to 1e-12 even at p = 1e-15, while the beta
 * route loses digits to lgamma cancellation and needs ever more fraction terms. */
#define STAT_T_SERIES_DF    3000.0
#define STAT_CF_MAX_TERMS   20000
#define STAT_SOLVE_MAX_ITER 400

void welford_init(struct welford *w)
{
	w->n = 0;
	w->mean = 0.0;
	w->m2 = 0.0;
}

void welford_merge(struct welford *dst, const struct welford *src)
{
	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	double na = (double)dst->n, nb = (double)src->n, n = na + nb;
	double delta = src->mean - dst->mean;
	dst->mean += delta * (nb / n);
	dst->m2 += src->m2 + delta * delta * (na * nb / n);
	dst->n += src->n;
}

double welford_stddev(const struct welford *w)
{
	if (w->n < 2)
		return NAN;
	return sqrt(w->m2 / (double)(w->n - 1));
}

double welford_rms(const struct welford *w)
{
	if (w->n == 0)
		return NAN;
	return sqrt(w->mean * w->mean + w->m2 / (double)w->n);
}

/* Horner evaluation of c[0] + c[1] r + ... + c[7] r^7, the shape of every AS241 polynomial. */
static double stat_poly7(const double c[8], double r)
{
	double s = c[7];
	for (int i = 6; i >= 0; i--)
		s = s * r + c[i];
	return s;
}

double stat_normal_quantile(double p)
{
	/* Wichura (1988), Applied Statistics 37, algorithm AS241 PPND16. */
	static const double a[8] = {
	    3.3871328727963666080e0,  1.3314166789178437745e+2, 1.9715909503065514427e+3,
	    1.3731693765509461125e+4, 4.5921953931549871457e+4, 6.7265770927008700853e+4,
	    3.3430575583588128105e+4, 2.5090809287301226727e+3,
	};
	static const double b[8] = {
	    1.0,
	    4.2313330701600911252e+1,
	    6.8718700749205790830e+2,
	    5.3941960214247511077e+3,
	    2.1213794301586595867e+4,
	    3.9307895800092710610e+4,
	    2.8729085735721942674e+4,
	    5.2264952788528545610e+3,
	};
	static const double c[8] = {
	    1.42343711074968357734e0,  4.63033784615654529590e0,  5.76949722146069140550e0,
	    3.64784832476320460504e0,  1.27045825245236838258e0,  2.41780725177450611770e-1,
	    2.27238449892691845833e-2, 7.74545014278341407640e-4,
	};
	static const double d[8] = {
	    1.0,
	    2.05319162663775882187e0,
	    1.67638483018380384940e0,
	    6.89767334985100004550e-1,
	    1.48103976427480074590e-1,
	    1.51986665636164571966e-2,
	    5.47593808499534494600e-4,
	    1.05075007164441684324e-9,
	};
	static const double e[8] = {
	    6.65790464350110377720e0,  5.46378491116411436990e0,  1.78482653991729133580e0,
	    2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
	    2.71155556874348757815e-5, 2.01033439929228813265e-7,
	};
	static const double f[8] = {
	    1.0,
	    5.99832206555887937690e-1,
	    1.36929880922735805310e-1,
	    1.48753612908506148525e-2,
	    7.86869131145613259100e-4,
	    1.84631831751005468180e-5,
	    1.42151175831644588870e-7,
	    2.04426310338993978564e-15,
	};

	if (!(p > 0.0 && p < 1.0))
		return NAN;

	double q = p - 0.5;
	if (fabs(q) <= 0.425) {
		double r = 0.180625 - q * q;
		return q * stat_poly7(a, r) / stat_poly7(b, r);
	}

	/* Tails: work with the smaller of p, 1 - p so that no digits are lost near 1. */
	double r = sqrt(-log(q < 0.0 ? p : 1.0 - p));
	double z;
	if (r <= 5.0) {
		r -= 1.6;
		z = stat_poly7(c, r) / stat_poly7(d, r);
	} else {
		r -= 5.0;
		z = stat_poly7(e, r) / stat_poly7(f, r);
	}
	return q < 0.0 ? -z : z;
}

/* lgamma_r: plain lgamma writes the global signgam, a data race between worker threads. */
static double stat_lgamma(double x)
{
	int sign;
	return lgamma_r(x, &sign);
}

/*
 * Continued fraction of the incomplete beta function, evaluated by the modified Lentz method:
 * I_x(a, b) = x^a (1-x)^b / (a B(a, b)) * 1 / (1 + d1 / (1 + d2 / (1 + ...))), with
 * d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)) and d(2m) = m(b-m) x / ((a+2m-1)(a+2m)).
 * Converges quickly for x < (a+1)/(a+b+2); callers use the symmetry I_x(a,b) = 1 - I_y(b,a)
 * otherwise.
 */
static double stat_beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double f = tiny, c = f, d = 0.0;

	for (int k = 1; k <= STAT_CF_MAX_TERMS; k++) {
		double num;
		if (k == 1) {
			num = 1.0;
		} else {
			int j = k - 1, m = j / 2;
			if (j & 1)
				num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
			else
				num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		}
		d = 1.0 + num * d;
		if (fabs(d) < tiny)
			d = tiny;
		d = 1.0 / d;
		c = 1.0 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		double delta = c * d;
		f *= delta;
		if (fabs(delta - 1.0) < 1e-16)
			break;
	}
	return f;
}

/*
 * Regularized incomplete beta I_x(a, b) into *@ix and its complement I_y(b, a) into *@iy, where
 * y = 1 - x. The caller passes x, y and their logs separately: for the t distribution they come
 * from t^2/df without the cancellation that 1 - x would cause.
 */
static void stat_ibeta(double a, double b, double x, double y, double lx, double ly, double *ix,
		       double *iy)
{
	double lfront = a * lx + b * ly - (stat_lgamma(a) + stat_lgamma(b) - stat_lgamma(a + b));

	if (x < (a + 1.0) / (a + b + 2.0)) {
		*ix = exp(lfront) * stat_beta_cf(a, b, x) / a;
		*iy = 1.0 - *ix;
	} else {
		*iy = exp(lfront) * stat_beta_cf(b, a, y) / b;
		*ix = 1.0 - *iy;
	}
}

/*
 * For t >= 0: the upper tail P(T > t) into *@tail, the centre P(|T| < t) into *@centre, and
 * log of the density at t into *@lpdf. With r = t^2/df, x = 1/(1+r):
 * P(|T| > t) = I_x(df/2, 1/2).
 */
static void stat_t_probs(double t, double df, double *tail, double *centre, double *lpdf)
{
	double u = t / sqrt(df);
	double x, y, lx, ly;

	if (u > 1e150) {
		/* r overflows; log1p(r) == log(r) to double precision out here. */
		lx = -2.0 * log(u);
		ly = 0.0;
		x = exp(lx);
		y = 1.0;
	} else {
		double r = u * u;
		x = 1.0 / (1.0 + r);
		y = r / (1.0 + r);
		lx = -log1p(r);
		ly = r > 0.0 ? -log1p(1.0 / r) : -INFINITY;
	}

	double ix, iy;
	if (t == 0.0) {
		ix = 1.0;
		iy = 0.0;
	} else {
		stat_ibeta(df / 2.0, 0.5, x, y, lx, ly, &ix, &iy);
	}
	*tail = ix / 2.0;
	*centre = iy;
	*lpdf = stat_lgamma((df + 1.0) / 2.0) - stat_lgamma(df / 2.0) - 0.5 * log(df * M_PI) +
		(df + 1.0) / 2.0 * lx;
}

/* Abramowitz & Stegun 26.7.5: t quantile as a series in 1/df around the normal quantile z. */
static double stat_t_series(double z, double df)
{
	double z2 = z * z;
	double g1 = (z2 + 1.0) * z / 4.0;
	double g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
	double g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
	double g4 =
	    ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92160.0;
	return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

/*
 * Solve for t > 0 with P(T > t) = q (when q < 1/4) or P(|T| < t) = 1 - 2q (otherwise: near the
 * centre the tail sits next to 1/2 and would lose digits). Newton steps on log-probability
 * against log t are exact for power-law tails, so heavy tails at small df converge too; every
 * step is kept inside a bracket and replaced by a geometric bisection when it leaves it.
 */
static double stat_t_solve(double q, double centre_target, double df, double t0)
{
	bool use_tail = q < 0.25;
	double target = log(use_tail ? q : centre_target);
	double lo = 0.0, hi = INFINITY, t = t0;

	for (int iter = 0; iter < STAT_SOLVE_MAX_ITER; iter++) {
		double tail, centre, lpdf;
		stat_t_probs(t, df, &tail, &centre, &lpdf);

		/* g > 0 means t is too large; dg is the derivative of g against log t. */
		double g, dg;
		if (use_tail) {
			g = target - log(tail);
			dg = exp(lpdf + log(t) - log(tail));
		} else {
			g = log(centre) - target;
			dg = 2.0 * exp(lpdf + log(t) - log(centre));
		}
		if (g == 0.0)
			return t;
		if (g > 0.0)
			hi = t;
		else
			lo = t;

		double step = -g / dg;
		double next = t * exp(step);
		if (!(next > lo && next < hi)) {
			if (isinf(hi))
				next = t * 16.0;
			else if (lo == 0.0)
				next = hi / 16.0;
			else
				next = hi > 2.0 * lo ? sqrt(lo) * sqrt(hi) : lo + (hi - lo) / 2.0;
			step = log(next / t);
		}
		if (isinf(next))
			return INFINITY;
		t = next;
		if (fabs(step) < 1e-14 || (isfinite(hi) && hi - lo <= 4.0 * DBL_EPSILON * hi))
			break;
	}
	return t;
}

double stat_t_quantile(double p, double df)
{
	if (!(p > 0.0 && p < 1.0) || !(df > 0.0))
		return NAN;
	if (p == 0.5)
		return 0.0;

	/* Both subtractions are exact (Sterbenz) in the ranges they are used in. */
	double q = p < 0.5 ? p : 1.0 - p;
	double centre = p < 0.5 ? 1.0 - 2.0 * p : 2.0 * (p - 0.5);
	double z = -stat_normal_quantile(q);
	double t;

	if (isinf(df))
		t = z;
	else if (df > STAT_T_SERIES_DF)
		t = stat_t_series(z, df);
	else
		t = stat_t_solve(q, centre, df, df >= 1.0 ? stat_t_series(z, df) : z);
	return p < 0.5 ? -t : t;
}

static int stat_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int stat_summarize(const double *x, size_t n, double confidence, struct stat_summary *out)
{
	if (!out || (n > 0 && !x) || !(confidence > 0.0 && confidence < 1.0))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;

	struct stat_summary s = {
	    .n = n,
	    .mean = NAN,
	    .stddev = NAN,
	    .cov = NAN,
	    .median = NAN,
	    .min = NAN,
	    .max = NAN,
	    .ci_low = NAN,
	    .ci_high = NAN,
	    .confidence = confidence,
	};
	if (n == 0) {
		*out = s;
		return 0;
	}

	double *sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, x, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), stat_cmp_double);

	/* Two passes over the sorted copy: the mean, then squared deviations from it. */
	double sum = 0.0;
	for (size_t i = 0; i < n; i++)
		sum += sorted[i];
	s.mean = sum / (double)n;
	s.min = sorted[0];
	s.max = sorted[n - 1];
	s.median = n % 2 ? sorted[n / 2] : sorted[n / 2 - 1] / 2.0 + sorted[n / 2] / 2.0;

	if (n >= 2) {
		double ss = 0.0;
		for (size_t i = 0; i < n; i++)
			ss += (sorted[i] - s.mean) * (sorted[i] - s.mean);
		s.stddev = sqrt(ss / (double)(n - 1));
		if (s.mean != 0.0)
			s.cov = s.stddev / fabs(s.mean);
		double half = stat_t_quantile((1.0 + confidence) / 2.0, (double)(n - 1)) *
			      s.stddev / sqrt((double)n);
		s.ci_low = s.mean - half;
		s.ci_high = s.mean + half;
	}
	free(sorted);
	*out = s;
	return 0;
}

double stat_required_runs(double stddev, double mean, double confidence, double error)
{
	if (!(stddev >= 0.0) || !isfinite(stddev) || !isfinite(mean) || mean == 0.0 ||
	    !(error > 0.0) || !(confidence > 0.0 && confidence < 1.0))
		return NAN;

	double z = stat_normal_quantile((1.0 + confidence) / 2.0);
	double root = z * stddev / (error * fabs(mean));
	return ceil(root * root * (1.0 - 1e-12));
}
