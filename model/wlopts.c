/* Parsing the structured workload values (see wlopts.h). */
#include "model/wlopts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

/* The next field of `*s` up to `sep` (or the end) into `buf`; false at the end, or when the
 * field does not fit. */
static bool next_field(const char **s, char sep, char *buf, size_t len)
{
	const char *end;
	size_t n;

	if (!*s)
		return false;
	end = strchr(*s, sep);
	n = end ? (size_t)(end - *s) : strlen(*s);
	if (n >= len)
		return false;
	memcpy(buf, *s, n);
	buf[n] = 0;
	*s = end ? end + 1 : NULL;
	return true;
}

static int parse_num(const char *text, double *x)
{
	const char *why;

	return units_parse_double(text, x, &why);
}

/* A number that must be written without '%': a share that is a percentage already (normal's
 * sigma, a zone's access and size) or no fraction at all (zipf's theta). units_parse_double
 * divides by 100 at a '%', so normal:10% was a sigma of 0.1%, silently. 0, or -EINVAL after
 * saying so into err. */
static int no_percent_sign(const char *text, const char *what, char *err, size_t errlen)
{
	if (!strchr(text, '%'))
		return 0;
	snprintf(err, errlen, "%s is written without '%%', got '%s'", what, text);
	return -EINVAL;
}

/* zoned:A/S:A/S...: access and size percentages, each list adding to 100. */
static int parse_zones(const char *rest, struct wl_dist *d, char *err, size_t errlen)
{
	double access = 0, size = 0;
	char field[64];

	while (rest && next_field(&rest, ':', field, sizeof(field))) {
		char *slash = strchr(field, '/');
		double a, s;
		if (d->nzones == WL_ZONES_MAX) {
			snprintf(err, errlen, "more than %d zones", WL_ZONES_MAX);
			return -ERANGE;
		}
		if (!slash)
			goto bad;
		*slash = 0;
		if (no_percent_sign(field, "a zone's access share (a percentage)", err, errlen) ||
		    no_percent_sign(slash + 1, "a zone's size (a percentage)", err, errlen))
			return -EINVAL;
		if (parse_num(field, &a) < 0 || parse_num(slash + 1, &s) < 0)
			goto bad;
		if (a < 0 || a > 100 || s <= 0 || s > 100) {
			snprintf(
			    err, errlen,
			    "zone '%s/%s': the access share must be 0 to 100 and the size share above 0 and at most 100",
			    field, slash + 1);
			return -ERANGE;
		}
		d->zone_access[d->nzones] = a;
		d->zone_size[d->nzones++] = s;
		access += a;
		size += s;
	}
	if (rest || d->nzones == 0)
		goto bad;
	if (access < 99.999 || access > 100.001 || size < 99.999 || size > 100.001) {
		snprintf(
		    err, errlen,
		    "the zones' access shares add to %g and their sizes to %g; each must add to 100",
		    access, size);
		return -ERANGE;
	}
	return 0;
bad:
	snprintf(
	    err, errlen,
	    "expected zones like zoned:60/10:30/20:10/70 (ACCESS%%/SIZE%% each), got 'zoned:%s'",
	    rest ? rest : "");
	return -EINVAL;
}

int wl_dist_parse(const char *text, struct wl_dist *d, char *err, size_t errlen)
{
	static const char *const names[] = {"uniform", "zipf", "pareto", "normal", "zoned"};
	char name[16], p1[64] = "", p2[64] = "";
	const char *rest = text;
	int kind = -1;

	memset(d, 0, sizeof(*d));
	d->center = 0.5;
	if (!next_field(&rest, ':', name, sizeof(name)))
		goto bad;
	for (int i = 0; i < 5; i++)
		if (!strcmp(name, names[i]))
			kind = i;
	if (kind < 0)
		goto bad;
	d->kind = (enum wl_dist_kind)kind;
	if (d->kind == WL_DIST_ZONED)
		return parse_zones(rest, d, err, errlen);
	if (rest && !next_field(&rest, ':', p1, sizeof(p1)))
		goto bad;
	if (rest && !next_field(&rest, ':', p2, sizeof(p2)))
		goto bad;
	if (rest || (*p2 && d->kind != WL_DIST_NORMAL) || (*p1 && d->kind == WL_DIST_UNIFORM))
		goto bad;
	/* fio's defaults when the parameter is left out: zipf 1.1, pareto 0.2. */
	if (!*p1 && d->kind == WL_DIST_NORMAL)
		goto bad;
	d->param = d->kind == WL_DIST_ZIPF ? 1.1 : 0.2;
	if ((d->kind == WL_DIST_ZIPF &&
	     no_percent_sign(p1, "zipf's theta (an exponent, not a percentage)", err, errlen)) ||
	    (d->kind == WL_DIST_NORMAL &&
	     no_percent_sign(p1, "normal's sigma (a percentage of the region)", err, errlen)))
		return -EINVAL;
	if (*p1 && parse_num(p1, &d->param) < 0)
		goto bad;
	if (*p2 && parse_num(p2, &d->center) < 0)
		goto bad;
	if (d->kind == WL_DIST_ZIPF && !(d->param > 0 && d->param <= 100)) {
		snprintf(err, errlen, "zipf's theta must be above 0 and at most 100, got %s", p1);
		return -ERANGE;
	}
	if (d->kind == WL_DIST_PARETO && !(d->param > 0 && d->param < 1)) {
		snprintf(err, errlen, "pareto's h must be between 0 and 1 (exclusive), got %s", p1);
		return -ERANGE;
	}
	if (d->kind == WL_DIST_NORMAL && !(d->param > 0 && d->param <= 100)) {
		snprintf(
		    err, errlen,
		    "normal's sigma is a percentage of the region: above 0 and at most 100, got %s",
		    p1);
		return -ERANGE;
	}
	if (d->kind == WL_DIST_NORMAL && !(d->center >= 0 && d->center <= 1)) {
		snprintf(err, errlen, "normal's center must be between 0 and 1, got %s", p2);
		return -ERANGE;
	}
	return 0;
bad:
	snprintf(
	    err, errlen,
	    "expected uniform, zipf:THETA, pareto:H, normal:SIGMA[:CENTER] or zoned:ACCESS/SIZE:..., got '%s'",
	    text);
	return -EINVAL;
}

static int size_of(const char *text, uint64_t *out, char *err, size_t errlen)
{
	const char *why;

	if (units_parse_size(text, out, &why) < 0) {
		snprintf(err, errlen, "expected a size like 4KiB, got '%s' (%s)", text, why);
		return -EINVAL;
	}
	if (*out == 0 || *out > (1ull << 30)) {
		snprintf(err, errlen, "a block size must be more than 0 and at most 1GiB, got '%s'",
			 text);
		return -ERANGE;
	}
	return 0;
}

static int parse_range(const char *text, const char *dash, struct wl_sizes *s, char *err,
		       size_t errlen)
{
	char lo[64];
	size_t n = (size_t)(dash - text);
	int r;

	if (n >= sizeof(lo))
		n = sizeof(lo) - 1;
	memcpy(lo, text, n);
	lo[n] = 0;
	if ((r = size_of(lo, &s->min, err, errlen)) < 0 ||
	    (r = size_of(dash + 1, &s->max, err, errlen)) < 0)
		return r;
	if (s->min > s->max) {
		snprintf(err, errlen, "a range MIN-MAX needs MIN <= MAX, got '%s'", text);
		return -ERANGE;
	}
	s->range = true;
	return 0;
}

int wl_sizes_parse(const char *text, struct wl_sizes *s, char *err, size_t errlen)
{
	const char *rest = text, *dash = strchr(text, '-');
	char field[96];
	uint32_t total = 0;

	memset(s, 0, sizeof(*s));
	if (dash && !strchr(text, ':'))
		return parse_range(text, dash, s, err, errlen);
	while (rest && next_field(&rest, ',', field, sizeof(field))) {
		char *colon = strchr(field, ':');
		uint64_t w;
		const char *why;
		int r;
		if (!colon)
			goto bad;
		*colon = 0;
		if (s->n == WL_SIZES_MAX) {
			snprintf(err, errlen, "more than %d block sizes", WL_SIZES_MAX);
			return -ERANGE;
		}
		if ((r = size_of(field, &s->size[s->n], err, errlen)) < 0)
			return r;
		if (units_parse_uint(colon + 1, &w, &why) < 0 || w > 100) {
			snprintf(
			    err, errlen,
			    "the weight of %s must be a whole percentage, 0 to 100, without '%%', got '%s'",
			    field, colon + 1);
			return -ERANGE;
		}
		for (uint32_t i = 0; i < s->n; i++)
			if (s->size[i] == s->size[s->n]) {
				snprintf(err, errlen, "block size %s is listed twice", field);
				return -EINVAL;
			}
		s->pct[s->n] = (uint32_t)w;
		total += (uint32_t)w;
		if (!s->min || s->size[s->n] < s->min)
			s->min = s->size[s->n];
		if (s->size[s->n] > s->max)
			s->max = s->size[s->n];
		s->n++;
	}
	if (rest || s->n == 0)
		goto bad;
	if (total != 100) {
		snprintf(err, errlen, "the weights add to %u; they must add to 100", total);
		return -ERANGE;
	}
	return 0;
bad:
	snprintf(
	    err, errlen,
	    "expected sizes with weights like {4KiB: 60, 64KiB: 40} or a range like 4KiB-64KiB, got '%s'",
	    text);
	return -EINVAL;
}

int wl_mix_parse(const char *text, uint32_t *read_pct, char *err, size_t errlen)
{
	const char *rest = text;
	char field[64];
	long have[2] = {-1, -1};

	while (rest && next_field(&rest, ',', field, sizeof(field))) {
		char *colon = strchr(field, ':');
		uint64_t v;
		const char *why;
		int dir;
		if (!colon)
			goto bad;
		*colon = 0;
		dir = !strcmp(field, "read") ? 0 : !strcmp(field, "write") ? 1 : -1;
		if (dir < 0 || have[dir] >= 0)
			goto bad;
		if (units_parse_uint(colon + 1, &v, &why) < 0 || v > 100) {
			snprintf(
			    err, errlen,
			    "the %s share must be a whole percentage, 0 to 100, without '%%', got '%s'",
			    field, colon + 1);
			return -ERANGE;
		}
		have[dir] = (long)v;
	}
	if (rest || (have[0] < 0 && have[1] < 0))
		goto bad;
	if (have[0] >= 0 && have[1] >= 0 && have[0] + have[1] != 100) {
		snprintf(err, errlen, "read %ld and write %ld add to %ld; a mix must add to 100",
			 have[0], have[1], have[0] + have[1]);
		return -ERANGE;
	}
	*read_pct = (uint32_t)(have[0] >= 0 ? have[0] : 100 - have[1]);
	return 0;
bad:
	snprintf(err, errlen, "expected a mix like {read: 70, write: 30}, got '%s'", text);
	return -EINVAL;
}

int wl_dist_check(const char *text, char *err, size_t errlen)
{
	struct wl_dist d;

	return wl_dist_parse(text, &d, err, errlen);
}

int wl_sizes_check(const char *text, char *err, size_t errlen)
{
	struct wl_sizes s;

	return wl_sizes_parse(text, &s, err, errlen);
}

int wl_mix_check(const char *text, char *err, size_t errlen)
{
	uint32_t r;

	return wl_mix_parse(text, &r, err, errlen);
}

uint64_t wl_sizes_misaligned(const struct wl_sizes *s, uint64_t align)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (s->size[i] % align)
			return s->size[i];
	return 0;
}
