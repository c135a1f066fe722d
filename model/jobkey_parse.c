/* Typing one job key from its text through its row: units, bounds, enum names. The job-file
 * parser, --set and matrix values go through it, and so do the defaults of the keys a backend
 * declares (model/jobkeys_ext.c), which is why it lives in the model and not in a parser. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "model/jobkeys.h"

static int enum_index(const char *const *names, const char *v)
{
	for (int i = 0; names && names[i]; i++)
		if (!strcmp(names[i], v))
			return i;
	return -1;
}

static void enum_list(char *buf, size_t len, const char *const *names)
{
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; names && names[i] && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", names[i]);
}

static int parse_enum(const struct job_key *k, const char *text, struct key_value *v, char *err,
		      size_t errlen)
{
	char list[256];
	int idx = enum_index(k->enums, text);
	const char *near;

	if (idx >= 0) {
		v->u = (uint64_t)idx;
		return 0;
	}
	enum_list(list, sizeof(list), k->enums);
	near = job_key_suggest(text, k->enums);
	if (near)
		snprintf(err, errlen, "unknown value '%s' (did you mean '%s'? expected one of: %s)",
			 text, near, list);
	else
		snprintf(err, errlen, "unknown value '%s' (expected one of: %s)", text, list);
	return -EINVAL;
}

static int parse_double(const struct job_key *k, const char *text, struct key_value *v, char *err,
			size_t errlen)
{
	const char *why;
	double x;

	if (units_parse_double(text, &x, &why) < 0) {
		snprintf(err, errlen, "expected a number, got '%s'", text);
		return -EINVAL;
	}
	if (x < k->dmin || x > k->dmax) {
		snprintf(err, errlen, "must be between %g and %g, got '%s'", k->dmin, k->dmax,
			 text);
		return -ERANGE;
	}
	memcpy(&v->u, &x, sizeof(x));
	return 0;
}

/* A duration's bounds as durations ("3600 s"), not as the nanoseconds they are kept in. */
static void range_duration(const struct job_key *k, const char *text, char *err, size_t errlen)
{
	char lo[32], hi[32];

	units_format_duration(lo, sizeof(lo), (double)k->min);
	units_format_duration(hi, sizeof(hi), (double)k->max);
	snprintf(err, errlen, "must be between %s and %s, got '%s'", lo, hi, text);
}

/* A size, duration or count, then its bounds. */
static int parse_number(const struct job_key *k, const char *text, struct key_value *v, char *err,
			size_t errlen)
{
	const char *why = NULL;
	uint64_t u = 0;

	if (k->type == KT_SIZE && units_parse_size(text, &u, &why) < 0) {
		snprintf(err, errlen, "expected a size like 4KiB or 80MB, got '%s' (%s)", text,
			 why);
		return -EINVAL;
	}
	if (k->type == KT_DURATION && units_parse_duration(text, &u, &why) < 0) {
		snprintf(err, errlen, "expected a duration like 100ms or 60s, got '%s' (%s)", text,
			 why);
		return -EINVAL;
	}
	if (k->type == KT_UINT && units_parse_uint(text, &u, &why) < 0) {
		snprintf(err, errlen, "expected a whole number, got '%s' (%s)", text, why);
		return -EINVAL;
	}
	if (u < k->min || u > k->max) {
		if (k->type == KT_SIZE && u < k->min && k->min == 1)
			snprintf(err, errlen, "must be more than 0 bytes, got '%s'", text);
		else if (k->type == KT_SIZE && u < k->min)
			snprintf(err, errlen, "must be at least %llu bytes, got '%s'",
				 (unsigned long long)k->min, text);
		else if (k->type == KT_SIZE)
			snprintf(err, errlen, "must be at most %llu bytes, got '%s'",
				 (unsigned long long)k->max, text);
		else if (k->type == KT_DURATION)
			range_duration(k, text, err, errlen);
		else
			snprintf(err, errlen, "must be between %llu and %llu, got '%s'",
				 (unsigned long long)k->min, (unsigned long long)k->max, text);
		return -ERANGE;
	}
	v->u = u;
	return 0;
}

int job_key_parse(const struct job_key *k, const char *text, struct key_value *v, char *err,
		  size_t errlen)
{
	const char *why;
	bool b;
	int r;

	v->u = 0;
	v->s = NULL;
	switch (k->type) {
	case KT_STRING:
		if (k->check && (r = k->check(text, err, errlen)) < 0)
			return r;
		return (v->s = strdup(text)) ? 0 : -ENOMEM;

	case KT_ENUM:
		return parse_enum(k, text, v, err, errlen);
	case KT_DOUBLE:
		return parse_double(k, text, v, err, errlen);
	case KT_BOOL:
		if (units_parse_bool(text, &b, &why) < 0) {
			snprintf(err, errlen, "expected true or false, got '%s'", text);
			return -EINVAL;
		}
		v->u = b;
		return 0;
	default:
		return parse_number(k, text, v, err, errlen);
	}
}
