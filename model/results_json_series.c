/* results.json → struct results, continued: each instance's `series` and `change_points`
 * (see docs/results.md). Both are optional, so files written before they existed read back
 * with none; what is there is checked like every other member. */
#include "model/names.h"
#include "model/rj.h"

#include <math.h>
#include <string.h>

static bool read_kind(struct rj *c, json_t *o, const char *w, const char *key, enum series_kind *k)
{
	const char *s = rj_get_str(c, o, w, key, true, false);
	int v = names_find(series_kind_names, s);

	if (v >= 0)
		*k = (enum series_kind)v;
	else if (s)
		rj_error(c, w, key, "expected records or intervals, not '%.40s'", s);
	return v >= 0;
}

/* The only unit this schema writes; a file that says otherwise is not what we draw. */
static void read_unit(struct rj *c, json_t *o, const char *w)
{
	const char *u = rj_get_str(c, o, w, "unit", true, false);

	if (u && strcmp(u, "bytes/s"))
		rj_error(c, w, "unit", "expected bytes/s, not '%.40s'", u);
}

/* One point: [at_bytes, at_ns, value], value null when it could not be measured. */
static bool read_point(struct rj *c, json_t *v, const char *w, struct series_point *p)
{
	json_t *b = json_array_get(v, 0), *t = json_array_get(v, 1), *y = json_array_get(v, 2);

	if (!json_is_array(v) || json_array_size(v) != 3 || !json_is_integer(b) ||
	    !json_is_integer(t) || json_integer_value(b) < 0 || json_integer_value(t) < 0 ||
	    !(json_is_number(y) || json_is_null(y))) {
		rj_error(
		    c, w, NULL,
		    "expected [at_bytes, at_ns, value]: two non-negative integers and a number");
		return false;
	}
	p->at_bytes = (uint64_t)json_integer_value(b);
	p->at_ns = (uint64_t)json_integer_value(t);
	p->value = json_is_null(y) ? NAN : json_number_value(y);
	return true;
}

static void read_one_series(struct rj *c, json_t *o, const char *w, struct series *s)
{
	json_t *pts = rj_get_arr(c, o, w, "points", true), *v;
	size_t cap = 0, i;
	char wp[PATH_LEN];

	read_kind(c, o, w, "kind", &s->kind);
	rj_get_u32(c, o, w, "trial", true, false, &s->trial);
	read_unit(c, o, w);
	json_array_foreach(pts, i, v)
	{
		struct series_point *p;
		if (rj_stop(c))
			break;
		rj_path_index(wp, w, "points", i);
		if (!(p = rj_grow(c, s->pts, &cap, s->npts, sizeof(*p))))
			break;
		s->pts = p;
		if (read_point(c, v, wp, &s->pts[s->npts]))
			s->npts++;
	}
}

static void read_change_point(struct rj *c, json_t *o, const char *w, struct change_point *k)
{
	read_kind(c, o, w, "series", &k->kind);
	rj_get_u32(c, o, w, "trial", true, false, &k->trial);
	rj_get_u64(c, o, w, "at_bytes", true, false, &k->at_bytes);
	rj_get_u64(c, o, w, "at_ns", true, false, &k->at_ns);
	rj_get_real(c, o, w, "before", true, &k->before);
	rj_get_real(c, o, w, "after", true, &k->after);
	read_unit(c, o, w);
}

void rj_read_series(struct rj *c, json_t *o, const char *w, struct instance_result *ir)
{
	json_t *a = rj_get_arr(c, o, w, "series", false), *v;
	size_t cap = 0, i;
	char ww[PATH_LEN];

	json_array_foreach(a, i, v)
	{
		struct series *s;
		if (rj_stop(c))
			break;
		rj_path_index(ww, w, "series", i);
		if (!json_is_object(v)) {
			rj_error(c, ww, NULL, "expected an object");
			continue;
		}
		if (!(s = rj_grow(c, ir->series, &cap, ir->nseries, sizeof(*s))))
			break;
		ir->series = s;
		read_one_series(c, v, ww, &ir->series[ir->nseries++]);
	}
	a = rj_get_arr(c, o, w, "change_points", false);
	cap = 0;
	json_array_foreach(a, i, v)
	{
		struct change_point *k;
		if (rj_stop(c))
			break;
		rj_path_index(ww, w, "change_points", i);
		if (!json_is_object(v)) {
			rj_error(c, ww, NULL, "expected an object");
			continue;
		}
		if (!(k = rj_grow(c, ir->cps, &cap, ir->ncps, sizeof(*k))))
			break;
		ir->cps = k;
		read_change_point(c, v, ww, &ir->cps[ir->ncps++]);
	}
}
