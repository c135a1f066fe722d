/* results.json read by walking the field tables (see rfield.h), through the typed getters of
 * rj_get.c: each member is checked against its row and named by its JSON path in a message
 * when it is missing or of the wrong type. */
#include "model/rfield.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/metrics.h"
#include "model/names.h"
#include "model/results.h"
#include "model/rj.h"

#define AT(base, off) ((char *)(base) + (off))

/* "1.2.3" as a number that orders versions: 1002003; unparsable parts count as 0. */
static unsigned long version_number(const char *v)
{
	unsigned a = 0, b = 0, d = 0;

	if (v)
		sscanf(v, "%u.%u.%u", &a, &b, &d);
	return a * 1000000ul + b * 1000ul + d;
}

/* Required when its row says so and the file is new enough to have it. */
static bool required(const struct rj *c, const struct rfield *f)
{
	if (!(f->flags & RF_REQ))
		return false;
	return !f->since || !c->r->tool_version ||
	       version_number(c->r->tool_version) >= version_number(f->since);
}

/* An object that is not there: what it would hold is unknown (NAN), not 0. */
static void clear(const struct rf_table *t, void *base)
{
	const double unknown = NAN;

	for (size_t i = 0; i < t->n; i++) {
		const struct rfield *f = &t->f[i];
		if (f->flags & RF_WRITE_ONLY)
			continue;
		if (f->type == RF_REAL || f->type == RF_FRACTION)
			memcpy(AT(base, f->off), &unknown, sizeof(unknown));
		else if (f->type == RF_OBJ)
			clear(f->sub, AT(base, f->off));
		else if (f->type == RF_METRICS)
			for (size_t k = 0; k < METRIC_N; k++)
				clear(f->sub, AT(base, f->off + k * sizeof(struct stat_summary)));
	}
}

static void read_enum(struct rj *c, json_t *o, const char *w, const struct rfield *f, int *out,
		      bool req)
{
	const char *s = rj_get_str(c, o, w, f->key, req, false);
	int v = names_find(f->names, s);
	char list[128];

	if (v >= 0) {
		*out = v;
	} else if (s) {
		names_list(list, sizeof(list), f->names);
		rj_error(c, w, f->key, "expected %s, not '%.40s'", list, s);
	}
}

static void read_tristate(struct rj *c, json_t *o, const char *w, const struct rfield *f, int *out,
			  bool req)
{
	json_t *v = rj_member(c, o, w, f->key, req, "true, false or null");

	*out = -1;
	if (v && json_is_boolean(v))
		*out = json_is_true(v);
	else if (v && !json_is_null(v))
		rj_error(c, w, f->key, "expected true, false or null");
}

static void read_const(struct rj *c, json_t *o, const char *w, const struct rfield *f, bool req)
{
	const char *s = rj_get_str(c, o, w, f->key, req, false);

	if (s && strcmp(s, f->text))
		rj_error(c, w, f->key, "expected %s, not '%.40s'", f->text, s);
}

static void read_object(struct rj *c, json_t *o, const char *w, const struct rfield *f, void *base,
			const void *owner, bool req)
{
	json_t *so = rj_get_obj(c, o, w, f->key, req);
	char ws[PATH_LEN];

	if (!so) {
		clear(f->sub, base);
		return;
	}
	rj_path_key(ws, w, f->key);
	rf_read(c, so, ws, f->sub, base, owner);
}

static void set_count(const struct rfield *f, void *base, size_t n)
{
	if (f->count_size == sizeof(uint32_t))
		*(uint32_t *)AT(base, f->count_off) = (uint32_t)n;
	else
		*(size_t *)AT(base, f->count_off) = n;
}

/* Entries grow as they parse, so memory stays in proportion to what the file holds. */
static void read_array(struct rj *c, json_t *o, const char *w, const struct rfield *f, void *base,
		       bool req)
{
	json_t *a = rj_get_arr(c, o, w, f->key, req), *v;
	char **arr = (char **)AT(base, f->off);
	size_t cap = 0, n = 0, i;
	char we[PATH_LEN];

	json_array_foreach(a, i, v)
	{
		char *grown;
		if (rj_stop(c))
			break;
		rj_path_index(we, w, f->key, i);
		if (!json_is_object(v)) {
			rj_error(c, we, NULL, "expected an object");
			continue;
		}
		if (!(grown = rj_grow(c, *arr, &cap, n, f->size)))
			break;
		*arr = grown;
		set_count(f, base, ++n);
		rf_read(c, v, we, f->sub, grown + (n - 1) * f->size, base);
	}
}

static void read_metrics(struct rj *c, json_t *o, const char *w, const struct rfield *f, void *base,
			 bool req)
{
	for (size_t k = 0; k < METRIC_N; k++) {
		struct rfield one = *f;
		one.key = metrics[k].name;
		one.off = f->off + k * sizeof(struct stat_summary);
		read_object(c, o, w, &one, AT(base, one.off), NULL, req);
	}
}

static void read_field(struct rj *c, json_t *o, const char *w, const struct rfield *f, void *base,
		       const void *owner)
{
	void *p = AT(base, f->off);
	bool req = required(c, f), nullable = f->flags & (RF_NULLABLE | RF_ZERO_NULL);

	if (f->flags & RF_MARK)
		*(bool *)AT(base, f->mark_off) = json_object_get(o, f->key) != NULL;
	switch (f->type) {
	case RF_U32:
		rj_get_u32(c, o, w, f->key, req, nullable, p);
		break;
	case RF_U64:
		rj_get_u64(c, o, w, f->key, req, nullable, p);
		break;
	case RF_SEED:
		rj_get_bits64(c, o, w, f->key, req, p);
		break;
	case RF_REAL:
		rj_get_real(c, o, w, f->key, req, p);
		break;
	case RF_FRACTION:
		rj_get_fraction(c, o, w, f->key, req, p);
		break;
	case RF_BOOL:
		rj_get_bool(c, o, w, f->key, req, p);
		break;
	case RF_STR:
		*(char **)p = rj_dup(c, rj_get_str(c, o, w, f->key, req, nullable));
		break;
	case RF_NAME:
		*(const char **)p = rj_own(c, rj_get_str(c, o, w, f->key, req, nullable));
		break;
	case RF_FIXED:
		rj_get_fixed(c, o, w, f->key, p, f->size);
		break;
	case RF_ENUM:
		read_enum(c, o, w, f, p, req);
		break;
	case RF_TRISTATE:
		read_tristate(c, o, w, f, p, req);
		break;
	case RF_CONST:
		read_const(c, o, w, f, req);
		break;
	case RF_OBJ:
		read_object(c, o, w, f, p, owner, req);
		break;
	case RF_ARR:
		read_array(c, o, w, f, base, req);
		break;
	case RF_METRICS:
		read_metrics(c, o, w, f, base, req);
		break;
	case RF_CUSTOM:
		f->get(c, o, w, base, f);
		break;
	}
}

void rf_read(struct rj *c, json_t *o, const char *where, const struct rf_table *t, void *base,
	     const void *owner)
{
	for (size_t i = 0; i < t->n && !rj_stop(c); i++)
		if (!(t->f[i].flags & RF_WRITE_ONLY))
			read_field(c, o, where, &t->f[i], base, owner);
	if (t->after)
		t->after(c, base);
}
