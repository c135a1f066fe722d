/* The percentile list (see pctlist.h). */
#include "model/pctlist.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

void pct_list_default(struct pct_list *l)
{
	*l = (struct pct_list){3, {50, 99, 99.9}};
}

uint32_t pct_ppm(double pct)
{
	return (uint32_t)lround(pct * 10000);
}

/* One entry, `s` (NUL-terminated), the `i`-th (from 1), after `prev`. */
static int parse_one(const char *s, unsigned i, double prev, double *out, char *err, size_t errlen)
{
	const char *why;
	double v;

	if (units_parse_double(s, &v, &why) < 0 || strchr(s, '%')) {
		snprintf(err, errlen,
			 "percentile %u: expected a number above 0 and at most 100, got '%s'", i,
			 s);
		return -EINVAL;
	}
	if (!(v > 0 && v <= 100)) {
		snprintf(err, errlen, "percentile %u: %s is not above 0 and at most 100", i, s);
		return -ERANGE;
	}
	/* Exact ranks need a whole number of parts per million, at least 1: 1e-300 was within
	 * the tolerance of 0 ppm, a p0 that results.json's reader refuses. */
	if (pct_ppm(v) == 0 || fabs(v * 10000 - (double)pct_ppm(v)) > 1e-6) {
		snprintf(err, errlen, "percentile %u: %s has more than four decimals", i, s);
		return -EINVAL;
	}
	if (i > 1 && pct_ppm(v) <= pct_ppm(prev)) {
		snprintf(
		    err, errlen,
		    "percentile %u: %s does not come after %g: list them in ascending order, each once",
		    i, s, prev);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int pct_list_parse(const char *text, struct pct_list *l, char *err, size_t errlen)
{
	char buf[64];
	const char *p = text;
	struct pct_list tmp = {0};

	if (!text) {
		pct_list_default(l);
		return 0;
	}
	for (;;) {
		size_t n = strcspn(p, ",");
		int r;
		if (tmp.n == PCT_LIST_MAX) {
			snprintf(err, errlen, "at most %d percentiles, got more", PCT_LIST_MAX);
			return -ERANGE;
		}
		if (n == 0 || n >= sizeof(buf)) {
			snprintf(
			    err, errlen,
			    "percentile %u: expected a number above 0 and at most 100, got '%.*s'",
			    tmp.n + 1, (int)(n < 32 ? n : 32), p);
			return -EINVAL;
		}
		memcpy(buf, p, n);
		buf[n] = 0;
		r = parse_one(buf, tmp.n + 1, tmp.n ? tmp.pct[tmp.n - 1] : 0, &tmp.pct[tmp.n], err,
			      errlen);
		if (r < 0)
			return r;
		tmp.n++;
		if (!p[n])
			break;
		p += n + 1;
	}
	*l = tmp;
	return 0;
}

int pct_list_check(const char *text, char *err, size_t errlen)
{
	struct pct_list l;

	return pct_list_parse(text, &l, err, errlen);
}

void pct_label(char *buf, size_t len, double pct)
{
	char num[32];
	size_t n = (size_t)snprintf(num, sizeof(num), "%.4f", pct);

	/* Four decimals hold every listed percentile exactly; print only those it needs. */
	while (n > 1 && num[n - 1] == '0')
		num[--n] = 0;
	if (n > 1 && num[n - 1] == '.')
		num[--n] = 0;
	snprintf(buf, len, "p%s", num);
}

void pct_key(char *buf, size_t len, double pct)
{
	pct_label(buf, len, pct);
	for (char *c = buf; *c; c++)
		if (*c == '.')
			*c = '_';
}
