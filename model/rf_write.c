/* results.json written by walking the field tables (see rfield.h). Every jansson call is
 * checked: an allocation that fails fails the whole write with -ENOMEM, so no job, trial or
 * comparison is ever left out of a file silently. */
#include "model/rfield.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/utf8.h"
#include "model/metrics.h"
#include "model/names.h"
#include "model/results.h"

json_t *rf_json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *rf_json_str(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	char *fixed, *at;
	json_t *v;

	if (!s)
		return json_null();
	if ((v = json_string(s)))
		return v;
	/* Not UTF-8 (or out of memory): each stray byte becomes U+FFFD, three bytes. */
	if (!(fixed = at = malloc(3 * strlen(s) + 1)))
		return NULL;
	while (*u) {
		size_t n = utf8_seq_len(u);
		if (n) {
			memcpy(at, u, n);
			at += n;
			u += n;
		} else {
			memcpy(at, "\xef\xbf\xbd", 3);
			at += 3;
			u++;
		}
	}
	*at = 0;
	v = json_string(fixed);
	free(fixed);
	return v;
}

int rf_append(json_t *a, json_t *v)
{
	if (!a || !v) {
		json_decref(v);
		return -ENOMEM;
	}
	return json_array_append_new(a, v) ? -ENOMEM : 0;
}

int rf_set(json_t *o, const char *key, json_t *v)
{
	if (!o || !v) {
		json_decref(v);
		return -ENOMEM;
	}
	return json_object_set_new(o, key, v) ? -ENOMEM : 0;
}

static json_t *write_object(const struct rf_table *t, const void *base, const void *owner);

#define AT(base, off) ((const char *)(base) + (off))

static json_t *write_string(const char *s)
{
	return rf_json_str(s);
}

static size_t array_len(const struct rfield *f, const void *base)
{
	return f->count_size == sizeof(uint32_t) ? *(const uint32_t *)AT(base, f->count_off)
						 : *(const size_t *)AT(base, f->count_off);
}

/* Entry i of array field f, or NULL when its table leaves it out. */
static const void *array_entry(const struct rfield *f, const void *base, size_t i)
{
	const void *entry = *(const char *const *)AT(base, f->off) + i * f->size;

	return f->sub->include && !f->sub->include(entry) ? NULL : entry;
}

static json_t *write_array(const struct rfield *f, const void *base)
{
	size_t n = array_len(f, base);
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++) {
		const void *entry = array_entry(f, base, i);
		if (entry && rf_append(a, write_object(f->sub, entry, base)) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* One object per metric, in the metric table's order. */
static int write_metrics(json_t *o, const struct rfield *f, const void *base, const void *owner)
{
	for (size_t k = 0; k < METRIC_N; k++) {
		const void *st = AT(base, f->off + k * sizeof(struct stat_summary));
		if (rf_set(o, metrics[k].name, write_object(f->sub, st, owner)) < 0)
			return -ENOMEM;
	}
	return 0;
}

static json_t *write_uint(const struct rfield *f, uint64_t v)
{
	return v == 0 && (f->flags & RF_ZERO_NULL) ? json_null() : json_integer((json_int_t)v);
}

static json_t *write_value(const struct rfield *f, const void *base, const void *owner)
{
	const void *p = AT(base, f->off);
	int v;

	if (f->put)
		return f->put(base, owner, f);
	switch (f->type) {
	case RF_U32:
		return write_uint(f, *(const uint32_t *)p);
	case RF_U64:
	case RF_SEED:
		return write_uint(f, *(const uint64_t *)p);
	case RF_REAL:
	case RF_FRACTION:
		return rf_json_num(*(const double *)p);
	case RF_BOOL:
		return json_boolean(*(const bool *)p);
	case RF_STR:
		return write_string(*(char *const *)p);
	case RF_NAME:
		return write_string(*(const char *const *)p);
	case RF_FIXED:
		return rf_json_str((const char *)p);
	case RF_ENUM:
		/* An enum is int-sized (C11 6.7.2.2 leaves it open; the compilers we build with
		 * agree). */
		return write_string(names_get(f->names, *(const int *)p));
	case RF_TRISTATE:
		v = *(const int *)p;
		return v < 0 ? json_null() : json_boolean(v);
	case RF_CONST:
		return json_string(f->text);
	case RF_OBJ:
		return write_object(f->sub, p, owner);
	case RF_ARR:
		return write_array(f, base);
	default:
		return NULL;
	}
}

static json_t *write_object(const struct rf_table *t, const void *base, const void *owner)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < t->n; i++) {
		const struct rfield *f = &t->f[i];
		bool on = !f->when || f->when(base, owner);
		int ret;
		if (!on && !(f->flags & RF_NULL_UNLESS))
			continue;
		if (f->type == RF_METRICS)
			ret = write_metrics(o, f, base, owner);
		else
			ret = rf_set(o, f->key, on ? write_value(f, base, owner) : json_null());
		if (ret < 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

json_t *rf_write_object(const struct rf_table *t, const void *base, const void *owner)
{
	return write_object(t, base, owner);
}

/* A member of the top level: an array of objects goes to the sink an entry at a time. */
static int stream_field(const struct rfield *f, const struct results *r, bool on,
			const struct rf_sink *s, void *ctx)
{
	int ret;

	if (!on || f->type != RF_ARR || f->put)
		return s->member(ctx, f->key, on ? write_value(f, r, NULL) : json_null());
	if ((ret = s->open(ctx, f->key)) < 0)
		return ret;
	for (size_t i = 0, n = array_len(f, r); i < n; i++) {
		const void *entry = array_entry(f, r, i);
		if (entry && (ret = s->entry(ctx, write_object(f->sub, entry, r))) < 0)
			return ret;
	}
	return s->close(ctx);
}

int rf_write_stream(const struct results *r, const struct rf_sink *s, void *ctx)
{
	const struct rf_table *t = &rf_results;

	for (size_t i = 0; i < t->n; i++) {
		const struct rfield *f = &t->f[i];
		bool on = !f->when || f->when(r, NULL);
		int ret = 0;
		if (!on && !(f->flags & RF_NULL_UNLESS))
			continue;
		for (size_t k = 0; f->type == RF_METRICS && !ret && k < METRIC_N; k++) {
			const void *st = AT(r, f->off + k * sizeof(struct stat_summary));
			ret = s->member(ctx, metrics[k].name, write_object(f->sub, st, NULL));
		}
		if (f->type != RF_METRICS)
			ret = stream_field(f, r, on, s, ctx);
		if (ret < 0)
			return ret;
	}
	return 0;
}
