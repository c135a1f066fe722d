/* Typed getters for the results.json reader (see rj.h). */
#include "model/rj.h"

#include "model/metrics.h"
#include "model/names.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rj_error(struct rj *c, const char *where, const char *key, const char *fmt, ...)
{
	struct src_loc loc = {c->name, 0, 0};
	char body[512];
	va_list ap;

	if (++c->nerr > MAX_ERRORS) {
		if (c->nerr == MAX_ERRORS + 1)
			diag_add(c->d, &loc, "too many problems; the rest are not shown");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	diag_add(c->d, &loc, "%s%s%s: %s", where, *where && key ? "." : "", key ? key : "", body);
}

/* Stop walking the file: too many problems already, or memory ran out. */
bool rj_stop(const struct rj *c)
{
	return c->nerr > MAX_ERRORS || c->nomem;
}

/* where.key, then `suffix`, into buf (PATH_LEN bytes). A longer path (a huge params key) is
 * cut short: it is only for messages. */
void rj_path_cat(char *buf, const char *where, const char *key, const char *suffix)
{
	const char *parts[] = {where, *where ? "." : "", key, suffix};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		for (const char *s = parts[i]; *s && n + 1 < PATH_LEN; s++)
			buf[n++] = *s;
	buf[n] = 0;
}

void rj_path_key(char *buf, const char *where, const char *key)
{
	rj_path_cat(buf, where, key, "");
}

void rj_path_index(char *buf, const char *where, const char *key, size_t i)
{
	char idx[32];

	snprintf(idx, sizeof(idx), "[%zu]", i);
	rj_path_cat(buf, where, key, idx);
}

/* The member `key` of object `o`, or NULL (with a message when `req`). */
json_t *rj_member(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		  const char *what)
{
	json_t *v = json_object_get(o, key);

	if (!v && req)
		rj_error(c, where, key, "missing (expected %s)", what);
	return v;
}

json_t *rj_get_obj(struct rj *c, json_t *o, const char *where, const char *key, bool req)
{
	json_t *v = rj_member(c, o, where, key, req, "an object");

	if (v && !json_is_object(v)) {
		rj_error(c, where, key, "expected an object");
		return NULL;
	}
	return v;
}

json_t *rj_get_arr(struct rj *c, json_t *o, const char *where, const char *key, bool req)
{
	json_t *v = rj_member(c, o, where, key, req, "an array");

	if (v && !json_is_array(v)) {
		rj_error(c, where, key, "expected an array");
		return NULL;
	}
	if (v && json_array_size(v) > RJ_MAX_ENTRIES) {
		rj_error(c, where, key, "more than %u entries", RJ_MAX_ENTRIES);
		return NULL;
	}
	return v;
}

/* A number or null (NAN); missing and optional is NAN too. */
void rj_get_real(struct rj *c, json_t *o, const char *where, const char *key, bool req, double *out)
{
	json_t *v = rj_member(c, o, where, key, req, "a number");

	*out = NAN;
	if (!v || json_is_null(v))
		return;
	if (!json_is_number(v)) {
		rj_error(c, where, key, "expected a number");
		return;
	}
	*out = json_number_value(v);
}

/* A fraction strictly between 0 and 1 (a confidence, a relative error), or null (NAN). A
 * value outside would print as "500% confidence" in a report. */
void rj_get_fraction(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		     double *out)
{
	rj_get_real(c, o, where, key, req, out);
	if (isfinite(*out) && !(*out > 0 && *out < 1)) {
		rj_error(c, where, key, "must be between 0 and 1 (exclusive), got %g", *out);
		*out = NAN;
	}
}

/* An integer in [lo, hi] (null too when `nullable`). Returns true when *out was set. */
bool rj_get_int(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		bool nullable, json_int_t lo, json_int_t hi, json_int_t *out)
{
	json_t *v = rj_member(c, o, where, key, req, "an integer");

	if (!v || (nullable && json_is_null(v)))
		return false;
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
		if (lo == INT64_MIN)
			rj_error(c, where, key, "expected an integer%s",
				 nullable ? " or null" : "");
		else
			rj_error(c, where, key, "expected an integer from %lld to %lld%s",
				 (long long)lo, (long long)hi, nullable ? " or null" : "");
		return false;
	}
	*out = json_integer_value(v);
	return true;
}

/* A count, a size or a time: 0 to 2^63-1, none of them reaches 2^63, so a negative number
 * is a damaged file. null (when `nullable`) and missing leave 0. */
void rj_get_u64(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		bool nullable, uint64_t *out)
{
	json_int_t v;

	*out = 0;
	if (rj_get_int(c, o, where, key, req, nullable, 0, INT64_MAX, &v))
		*out = (uint64_t)v;
}

/* Any 64 bits (a seed): the writer casts uint64_t to json_int_t, so the cast back restores
 * values of 2^63 and above. Missing leaves 0. */
void rj_get_bits64(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		   uint64_t *out)
{
	json_int_t v;

	*out = 0;
	if (rj_get_int(c, o, where, key, req, false, INT64_MIN, INT64_MAX, &v))
		*out = (uint64_t)v;
}

void rj_get_u32(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		bool nullable, uint32_t *out)
{
	json_int_t v;

	*out = 0;
	if (rj_get_int(c, o, where, key, req, nullable, 0, UINT32_MAX, &v))
		*out = (uint32_t)v;
}

void rj_get_bool(struct rj *c, json_t *o, const char *where, const char *key, bool req, bool *out)
{
	json_t *v = rj_member(c, o, where, key, req, "true or false");

	*out = false;
	if (v && !json_is_boolean(v))
		rj_error(c, where, key, "expected true or false");
	else if (v)
		*out = json_is_true(v);
}

/* A string (or null when `nullable`), pointing into the JSON tree; NULL for null, missing
 * or the wrong type. */
const char *rj_get_str(struct rj *c, json_t *o, const char *where, const char *key, bool req,
		       bool nullable)
{
	json_t *v = rj_member(c, o, where, key, req, "a string");

	if (!v || (nullable && json_is_null(v)))
		return NULL;
	if (!json_is_string(v)) {
		rj_error(c, where, key, "expected a string%s", nullable ? " or null" : "");
		return NULL;
	}
	return json_string_value(v);
}

char *rj_dup(struct rj *c, const char *s)
{
	char *t = s ? strdup(s) : NULL;

	if (s && !t)
		c->nomem = true;
	return t;
}

/* `s` for a const char * field: a static string when it is one the engine uses, else a copy
 * the results own (freed by results_release). */
const char *rj_own(struct rj *c, const char *s)
{
	const struct metric *m = metric_find(s);
	struct results *r = c->r;
	int i;
	char **o;

	if (!s)
		return NULL;
	if (m)
		return m->name;
	if ((i = names_find(cmp_test_names, s)) >= 0)
		return cmp_test_names[i];
	if ((i = names_find(stop_reason_names, s)) >= 0)
		return stop_reason_names[i];
	if (!(o = realloc(r->owned, (r->nowned + 1) * sizeof(*o))) || !(o[r->nowned] = strdup(s))) {
		if (o)
			r->owned = o;
		c->nomem = true;
		return NULL;
	}
	r->owned = o;
	return r->owned[r->nowned++];
}

/* Copy a string member into a fixed buffer, refusing what does not fit. */
void rj_get_fixed(struct rj *c, json_t *o, const char *where, const char *key, char *buf,
		  size_t size)
{
	const char *s = rj_get_str(c, o, where, key, true, false);

	buf[0] = 0;
	if (s && strlen(s) >= size)
		rj_error(c, where, key, "longer than %zu characters", size - 1);
	else if (s)
		memcpy(buf, s, strlen(s) + 1);
}

/* Make room for entry `n` of an array of `size`-byte entries, zeroed. */
void *rj_grow(struct rj *c, void *arr, size_t *cap, size_t n, size_t size)
{
	void *p = arr;

	if (n >= *cap) {
		size_t ncap = *cap ? 2 * *cap : 4;
		if (!(p = realloc(arr, ncap * size))) {
			c->nomem = true;
			return NULL;
		}
		*cap = ncap;
	}
	memset((char *)p + n * size, 0, size);
	return p;
}
