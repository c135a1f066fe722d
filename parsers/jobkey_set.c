/* Typing one job key from its text through the key table: units, bounds, enum names. Used
 * for job-file values, --set and matrix values alike. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"
#include "lib/units.h"
#include "parsers/yp.h"

/* An enum key's value by name; the error lists the names (with the nearest one). */
static int set_enum(const struct job_key *k, int *field, const char *text, char *err, size_t errlen)
{
	int idx = yp_enum_index(k->enums, text);
	const char *near;
	char list[256];

	if (idx >= 0) {
		*field = idx;
		return 0;
	}
	yp_enum_list(list, sizeof(list), k->enums);
	near = job_key_suggest(text, k->enums);
	if (near)
		snprintf(err, errlen, "unknown value '%s' (did you mean '%s'? expected one of: %s)",
			 text, near, list);
	else
		snprintf(err, errlen, "unknown value '%s' (expected one of: %s)", text, list);
	return -EINVAL;
}

static int set_double(const struct job_key *k, double *field, const char *text, char *err,
		      size_t errlen)
{
	const char *why = NULL;
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
	*field = x;
	return 0;
}

/* A size, duration or whole number into *u, its unit as the key's type says. */
static int parse_integer(const struct job_key *k, const char *text, uint64_t *u, char *err,
			 size_t errlen)
{
	const char *why = NULL;

	if (k->type == KT_SIZE && units_parse_size(text, u, &why) < 0)
		snprintf(err, errlen, "expected a size like 4KiB or 80MB, got '%s' (%s)", text,
			 why);
	else if (k->type == KT_DURATION && units_parse_duration(text, u, &why) < 0)
		snprintf(err, errlen, "expected a duration like 100ms or 60s, got '%s' (%s)", text,
			 why);
	else if (k->type == KT_UINT && units_parse_uint(text, u, &why) < 0)
		snprintf(err, errlen, "expected a whole number, got '%s' (%s)", text, why);
	else
		return 0;
	return -EINVAL;
}

/* Is `u` within the key's bounds? -ERANGE with a message (in bytes for a size) if not. */
static int check_bounds(const struct job_key *k, uint64_t u, const char *text, char *err,
			size_t errlen)
{
	if (u >= k->min && u <= k->max)
		return 0;
	if (k->type == KT_SIZE && u < k->min && k->min == 1)
		snprintf(err, errlen, "must be more than 0 bytes, got '%s'", text);
	else if (k->type == KT_SIZE && u < k->min)
		snprintf(err, errlen, "must be at least %llu bytes, got '%s'",
			 (unsigned long long)k->min, text);
	else if (k->type == KT_SIZE)
		snprintf(err, errlen, "must be at most %llu bytes, got '%s'",
			 (unsigned long long)k->max, text);
	else
		snprintf(err, errlen, "must be between %llu and %llu, got '%s'",
			 (unsigned long long)k->min, (unsigned long long)k->max, text);
	return -ERANGE;
}

int yp_set_job_key(struct job_spec *j, enum job_key_id id, const char *text, char *err,
		   size_t errlen)
{
	const struct job_key *k = &job_keys[id];
	void *field = (char *)j + k->off;
	const char *why = NULL;
	uint64_t u = 0;
	char *s;
	bool b;
	int ret;

	switch (k->type) {
	case KT_STRING:
		if (!(s = strdup(text)))
			return -ENOMEM;
		free(*(char **)field);
		*(char **)field = s;
		return 0;
	case KT_ENUM:
		return set_enum(k, field, text, err, errlen);
	case KT_DOUBLE:
		return set_double(k, field, text, err, errlen);
	case KT_BOOL:
		if (units_parse_bool(text, &b, &why) < 0) {
			snprintf(err, errlen, "expected true or false, got '%s'", text);
			return -EINVAL;
		}
		*(bool *)field = b;
		return 0;
	case KT_SIZE:
	case KT_DURATION:
	case KT_UINT:
		break;
	}
	if ((ret = parse_integer(k, text, &u, err, errlen)) < 0 ||
	    (ret = check_bounds(k, u, text, err, errlen)) < 0)
		return ret;
	if (k->type == KT_UINT)
		*(uint32_t *)field = (uint32_t)u;
	else
		*(uint64_t *)field = u;
	return 0;
}

int yp_job_defaults(struct job_spec *j)
{
	char err[256];

	memset(j, 0, sizeof(*j));
	for (int i = 0; i < JK_NKEYS; i++)
		if (job_keys[i].def && yp_set_job_key(j, i, job_keys[i].def, err, sizeof(err)) < 0)
			return -ENOMEM;
	return 0;
}
