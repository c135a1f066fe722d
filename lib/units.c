/* Units: strict parsing of sizes, durations, counts, booleans and fractions from job-file text,
 * and the human-readable formatting the text reporter prints. Sizes and durations share one
 * exact fixed-point parser, so "1.5GiB" is computed without floating point. */
#include "lib/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct units_unit {
	const char *name;
	uint64_t mult;
};

/* What differs between sizes and durations: the unit table and the words of the messages. */
struct units_class {
	const struct units_unit *units;
	size_t nunits;
	uint64_t bare_mult;
	bool bits_hint; /* a unit ending in lowercase 'b' means bits: say so */
	const char *empty;
	const char *negative;
	const char *not_whole;
	const char *overflow;
	const char *accepts;
};

static const struct units_unit units_size_units[] = {
    {"B", 1},
    {"kB", 1000ULL},
    {"KB", 1000ULL},
    {"MB", 1000000ULL},
    {"GB", 1000000000ULL},
    {"TB", 1000000000000ULL},
    {"PB", 1000000000000000ULL},
    {"KiB", 1ULL << 10},
    {"MiB", 1ULL << 20},
    {"GiB", 1ULL << 30},
    {"TiB", 1ULL << 40},
    {"PiB", 1ULL << 50},
};

static const struct units_class units_size_class = {
    .units = units_size_units,
    .nunits = sizeof(units_size_units) / sizeof(units_size_units[0]),
    .bare_mult = 1,
    .bits_hint = true,
    .empty = "empty size",
    .negative = "negative size",
    .not_whole = "not a whole number of bytes",
    .overflow = "size overflows 64 bits",
    .accepts = "sizes take B, kB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB",
};

static const struct units_unit units_duration_units[] = {
    {"ns", 1},
    {"us", 1000ULL},
    {"ms", 1000000ULL},
    {"s", 1000000000ULL},
    {"m", 60ULL * 1000000000ULL},
    {"min", 60ULL * 1000000000ULL},
    {"h", 3600ULL * 1000000000ULL},
};

static const struct units_class units_duration_class = {
    .units = units_duration_units,
    .nunits = sizeof(units_duration_units) / sizeof(units_duration_units[0]),
    .bare_mult = 1000000000ULL, /* a bare number is seconds, as in fio's runtime= */
    .bits_hint = false,
    .empty = "empty duration",
    .negative = "negative duration",
    .not_whole = "not a whole number of nanoseconds",
    .overflow = "duration overflows 64 bits",
    .accepts = "durations take ns, us, ms, s, m, min, h; a bare number is seconds",
};

/* Messages that quote the input are built here; see the contract in units.h. */
static _Thread_local char units_why_buf[192];

/* Quote at most this much of the input, so a pasted paragraph cannot drown the message. */
#define UNITS_QUOTE_MAX 32

static int units_fail(const char **why, const char *msg, int err)
{
	if (why)
		*why = msg;
	return err;
}

/* "<pre>'<token>'<post>", the token cut at UNITS_QUOTE_MAX characters. */
static int units_fail_quoted(const char **why, const char *pre, const char *tok, size_t toklen,
			     const char *post)
{
	int n = toklen > UNITS_QUOTE_MAX ? UNITS_QUOTE_MAX : (int)toklen;

	snprintf(units_why_buf, sizeof(units_why_buf), "%s'%.*s%s'%s", pre, n, tok,
		 toklen > UNITS_QUOTE_MAX ? "..." : "", post);
	return units_fail(why, units_why_buf, -EINVAL);
}

static uint64_t units_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Longest unit whose name is exactly tok[0..len) (exact) or a prefix of it (!exact). */
static const struct units_unit *units_find(const struct units_class *c, const char *tok, size_t len,
					   bool exact)
{
	const struct units_unit *best = NULL;

	for (size_t i = 0; i < c->nunits; i++) {
		size_t n = strlen(c->units[i].name);

		if (n > len || (exact && n != len) || memcmp(c->units[i].name, tok, n) != 0)
			continue;
		if (!best || n > strlen(best->name))
			best = &c->units[i];
	}
	return best;
}

static int units_unknown_unit(const struct units_class *c, const char *tok, size_t len,
			      const char **why)
{
	char post[128];

	if (c->bits_hint && tok[len - 1] == 'b')
		snprintf(post, sizeof(post), " (a lowercase 'b' means bits; %s)", c->accepts);
	else
		snprintf(post, sizeof(post), " (%s)", c->accepts);
	return units_fail_quoted(why, "unknown unit ", tok, len, post);
}

/*
 * The shared parser: DIGITS[.DIGITS][ ]UNIT. The fraction is kept as the exact rational
 * frac / 10^k and reduced, so the result is whole exactly when the reduced denominator
 * divides the unit's multiplier; no floating point, no 128-bit arithmetic.
 */
static int units_parse_scaled(const struct units_class *c, const char *s, uint64_t *out,
			      const char **why)
{
	const char *p = s, *frac_start = NULL, *rest;
	const struct units_unit *unit = NULL;
	uint64_t ip = 0, frac = 0, den = 1, mult, v;
	size_t frac_len = 0;
	bool ip_overflow = false;

	if (!s || !*s)
		return units_fail(why, c->empty, -EINVAL);
	if (*s == '-')
		return units_fail(why, c->negative, -EINVAL);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return units_fail(why, "hexadecimal is not accepted", -EINVAL);
	if (!isdigit((unsigned char)*s))
		return units_fail_quoted(why, "expected a number, got ", s, strlen(s), "");

	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (ip > (UINT64_MAX - d) / 10)
			ip_overflow = true;
		else
			ip = ip * 10 + d;
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return units_fail(why, "expected digits after '.'", -EINVAL);
		frac_start = p;
		while (isdigit((unsigned char)*p))
			p++;
		frac_len = (size_t)(p - frac_start);
		while (frac_len > 0 && frac_start[frac_len - 1] == '0')
			frac_len--;
		/* 10^19 is the largest power of ten in 64 bits. */
		if (frac_len > 19)
			return units_fail(why, "too many digits after the decimal point", -EINVAL);
		for (size_t i = 0; i < frac_len; i++) {
			frac = frac * 10 + (uint64_t)(frac_start[i] - '0');
			den *= 10;
		}
	}

	rest = p;
	if (p[0] == ' ' && isalpha((unsigned char)p[1]))
		p++;
	if (isalpha((unsigned char)*p)) {
		size_t len = 0;

		while (isalpha((unsigned char)p[len]))
			len++;
		unit = units_find(c, p, len, true);
		/* "4KiBx": name the garbage after a real unit rather than an unknown unit. */
		if (!unit)
			unit = units_find(c, p, len, false);
		if (!unit)
			return units_unknown_unit(c, p, len, why);
		rest = p + strlen(unit->name);
	}
	if (*rest)
		return units_fail_quoted(why, "trailing characters ", rest, strlen(rest), "");

	mult = unit ? unit->mult : c->bare_mult;
	if (ip_overflow || ip > UINT64_MAX / mult)
		return units_fail(why, c->overflow, -ERANGE);
	v = ip * mult;
	if (frac) {
		uint64_t g = units_gcd(frac, den), fn = frac / g, fd = den / g, add;

		if (mult % fd)
			return units_fail(why, c->not_whole, -EINVAL);
		add = fn * (mult / fd); /* < mult, since fn < fd */
		if (v > UINT64_MAX - add)
			return units_fail(why, c->overflow, -ERANGE);
		v += add;
	}
	*out = v;
	return units_fail(why, NULL, 0);
}

int units_parse_size(const char *s, uint64_t *out, const char **why)
{
	return units_parse_scaled(&units_size_class, s, out, why);
}

int units_parse_duration(const char *s, uint64_t *out_ns, const char **why)
{
	return units_parse_scaled(&units_duration_class, s, out_ns, why);
}

int units_parse_uint(const char *s, uint64_t *out, const char **why)
{
	const char *p = s;
	uint64_t v = 0;

	if (!s || !*s)
		return units_fail(why, "empty number", -EINVAL);
	if (*s == '-')
		return units_fail(why, "negative number", -EINVAL);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return units_fail(why, "hexadecimal is not accepted", -EINVAL);
	if (!isdigit((unsigned char)*s))
		return units_fail(why, "it does not start with a digit", -EINVAL);
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10) {
			while (isdigit((unsigned char)*p))
				p++;
			if (*p)
				break;
			return units_fail(why, "number overflows 64 bits", -ERANGE);
		}
		v = v * 10 + d;
	}
	if (*p == '.')
		return units_fail(why, "not a whole number", -EINVAL);
	if (*p)
		return units_fail_quoted(why, "trailing characters ", p, strlen(p), "");
	*out = v;
	return units_fail(why, NULL, 0);
}

int units_parse_bool(const char *s, bool *out, const char **why)
{
	static const char *const yes[] = {"true", "yes", "on"};
	static const char *const no[] = {"false", "no", "off"};

	for (size_t i = 0; s && i < 3; i++) {
		if (strcasecmp(s, yes[i]) == 0 || strcasecmp(s, no[i]) == 0) {
			*out = strcasecmp(s, yes[i]) == 0;
			return units_fail(why, NULL, 0);
		}
	}
	return units_fail(why, "expected true/false, yes/no or on/off", -EINVAL);
}

int units_parse_double(const char *s, double *out, const char **why)
{
	const char *p = s;
	char *end;
	double v;

	if (!s || !*s)
		return units_fail(why, "empty number", -EINVAL);
	if (*p == '+' || *p == '-')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return units_fail(why, "hexadecimal is not accepted", -EINVAL);
	/* strtod would also take white space, "inf" and "nan"; let it see only decimal text. */
	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return units_fail_quoted(why, "expected a number, got ", s, strlen(s), "");

	v = strtod(s, &end);
	if (*end == '%' && end[1] == '\0')
		v /= 100;
	else if (*end)
		return units_fail_quoted(why, "trailing characters ", end, strlen(end), "");
	/* Only overflow makes decimal text infinite: inf and nan were refused above. */
	if (!isfinite(v))
		return units_fail(why, "number out of range", -ERANGE);
	*out = v;
	return units_fail(why, NULL, 0);
}

/* Shared by size and rate: one decimal above bytes, moving up a unit when rounding reaches it. */
static size_t units_format_scaled(char *buf, size_t len, double v, bool binary, const char *suffix)
{
	static const char *const dec[] = {"B", "kB", "MB", "GB", "TB", "PB"};
	static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	const double base = binary ? 1024.0 : 1000.0;
	double a = fabs(v);
	size_t i = 0;

	if (!isfinite(v))
		return (size_t)snprintf(buf, len, "n/a");
	while (i < 5 && a >= base) {
		a /= base;
		i++;
	}
	/* 999.96 kB would print as "1000.0 kB"; say "1.0 MB" instead. */
	if (i < 5 && a >= base - (i ? 0.05 : 0.5)) {
		a /= base;
		i++;
	}
	return (size_t)snprintf(buf, len, "%s%.*f %s%s", v < 0 ? "-" : "", i ? 1 : 0, a,
				binary ? bin[i] : dec[i], suffix);
}

size_t units_format_size(char *buf, size_t len, double bytes, bool binary)
{
	return units_format_scaled(buf, len, bytes, binary, "");
}

size_t units_format_rate(char *buf, size_t len, double bytes_per_s, bool binary)
{
	return units_format_scaled(buf, len, bytes_per_s, binary, "/s");
}

size_t units_format_duration(char *buf, size_t len, double ns)
{
	static const char *const name[] = {"ns", "us", "ms", "s"};
	double a = fabs(ns);
	size_t i = 0;
	int decimals;

	if (!isfinite(ns))
		return (size_t)snprintf(buf, len, "n/a");
	/* Move up while the value, once rounded, would show four digits. */
	while (i < 3 && a >= 999.5) {
		a /= 1000;
		i++;
	}
	if (i == 0)
		decimals = 0; /* sub-nanosecond digits are noise */
	else if (a < 9.995)
		decimals = 2;
	else if (a < 99.95)
		decimals = 1;
	else
		decimals = 0;
	return (size_t)snprintf(buf, len, "%s%.*f %s", ns < 0 ? "-" : "", decimals, a, name[i]);
}

size_t units_format_size_exact(char *buf, size_t len, uint64_t bytes, bool binary)
{
	static const char *const dec[] = {"B", "kB", "MB", "GB", "TB", "PB"};
	static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	uint64_t d = bytes, b = bytes;
	int di = 0, bi = 0;

	while (bytes && di < 5 && d % 1000 == 0) {
		d /= 1000;
		di++;
	}
	while (bytes && bi < 5 && b % 1024 == 0) {
		b /= 1024;
		bi++;
	}
	if (bi > di || (bi == di && bi > 0 && binary))
		return (size_t)snprintf(buf, len, "%llu %s", (unsigned long long)b, bin[bi]);
	return (size_t)snprintf(buf, len, "%llu %s", (unsigned long long)d, dec[di]);
}

size_t units_format_count(char *buf, size_t len, double v)
{
	static const char *const mult[] = {"", "k", "M", "G", "T"};
	double a = fabs(v);
	size_t i = 0;

	if (!isfinite(v))
		return (size_t)snprintf(buf, len, "n/a");
	/* Move up while the value, once rounded to three digits, would show four. */
	while (i < 4 && a >= 999.5) {
		a /= 1000;
		i++;
	}
	return (size_t)snprintf(buf, len, "%s%.*f%s", v < 0 ? "-" : "",
				a == 0 || a >= 99.95 ? 0
				: a >= 9.995	     ? 1
						     : 2,
				a, mult[i]);
}

double units_rate_unit(double lo, bool binary, char *name, size_t len)
{
	static const char *const dec[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s"};
	static const char *const bin[] = {"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s", "PiB/s"};
	const double base = binary ? 1024.0 : 1000.0;
	double unit = 1;
	int i = 0;

	while (isfinite(lo) && lo > 0 && i < 5 && lo >= unit * base) {
		unit *= base;
		i++;
	}
	snprintf(name, len, "%s", binary ? bin[i] : dec[i]);
	return unit;
}
