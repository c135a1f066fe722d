/* The tables of the model: every metric's row and accessor, the name tables of the
 * enumerations both ways, and the shape of results.json's field tables. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/metrics.h"
#include "model/names.h"
#include "model/results.h"
#include "model/rfield.h"
#include "model/rj.h"

/* What each metric must read from a trial whose figures are all different, and the rest of
 * its row: a new metric is a new line here. */
static const struct {
	const char *name;
	double value;
	bool lower_is_better;
	enum metric_format format;
} want[] = {
    {"seconds", 1.5, true, MF_SECONDS},
    {"bw_bytes", 2e6, false, MF_RATE},
    {"iops", 300, false, MF_COUNT},
    {"lat_mean_ns", 4000, true, MF_DURATION},
};

static void test_metrics(void **state)
{
	struct trial_result t = {0};
	struct instance_summary s = {0};
	char list[128];

	t.seconds = 1.5;
	t.bw_bytes = 2e6;
	t.iops = 300;
	t.lat.mean = 4000;
	t.lat.max = 9999;
	assert_int_equal(METRIC_N, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < METRIC_N; i++) {
		const struct metric *m = metric_find(want[i].name);
		assert_ptr_equal(m, &metrics[i]);
		assert_string_equal(m->name, want[i].name);
		assert_true(metric_value(m, &t) == want[i].value);
		assert_int_equal(m->lower_is_better, want[i].lower_is_better);
		assert_int_equal(m->format, want[i].format);
		assert_non_null(m->unit);
		assert_non_null(m->label);
		/* Each metric has its own summary. */
		s.stat[i].mean = (double)i + 0.5;
		assert_true(metric_stat(&s, m)->mean == (double)i + 0.5);
		assert_ptr_equal(metric_stat_mut(&s, m), &s.stat[i]);
	}
	assert_null(metric_find("lat_mean"));
	assert_null(metric_find(NULL));
	assert_true(isnan(metric_value(NULL, &t)));
	assert_ptr_equal(metric_or_default(NULL), &metrics[METRIC_SECONDS]);
	assert_null(metric_or_default("mbps"));
	metric_list(list, sizeof(list), " or ");
	assert_string_equal(list, "seconds, bw_bytes, iops or lat_mean_ns");
	metric_list(list, sizeof(list), ", ");
	assert_string_equal(list, "seconds, bw_bytes, iops, lat_mean_ns");
}

static void round_trip(const char *const *names, int n, const char *listed)
{
	char list[128];

	for (int v = 0; v < n; v++) {
		assert_non_null(names_get(names, v));
		assert_int_equal(names_find(names, names_get(names, v)), v);
	}
	assert_null(names_get(names, n));
	assert_null(names_get(names, -1));
	assert_int_equal(names_find(names, "no such name"), -1);
	assert_int_equal(names_find(names, NULL), -1);
	names_list(list, sizeof(list), names);
	assert_string_equal(list, listed);
}

static void test_names(void **state)
{
	round_trip(outlier_policy_names, OUTLIERS_MAD + 1, "none, trim, iqr or mad");
	assert_string_equal(names_get(outlier_policy_names, OUTLIERS_IQR), "iqr");
	round_trip(order_names, ORDER_RANDOM + 1, "interleaved, sequential or random");
	assert_string_equal(names_get(order_names, ORDER_SEQUENTIAL), "sequential");
	round_trip(units_names, UNITS_BINARY + 1, "decimal or binary");
	assert_string_equal(names_get(units_names, UNITS_BINARY), "binary");
	round_trip(series_kind_names, SERIES_INTERVALS + 1, "records or intervals");
	round_trip(cmp_test_names, CMP_PAIRED_T + 1, "welch or paired-t");
	round_trip(stop_reason_names, STOP_PILOT_ESTIMATE + 1,
		   "precision, max, interrupted or pilot estimate");
	round_trip(estimate_names, ESTIMATE_PILOT + 1, "kept or pilot");
}

/* Every row of a field table can be walked both ways: keys unique within an object, nested
 * rows with their tables, enum rows with names, custom rows with both hooks. */
static size_t check_table(const struct rf_table *t, int depth)
{
	size_t rows = t->n;

	assert_true(depth < 8);
	assert_true(t->n > 0);
	for (size_t i = 0; i < t->n; i++) {
		const struct rfield *f = &t->f[i];
		assert_non_null(f->key);
		for (size_t k = 0; k < i; k++)
			if (!strcmp(t->f[k].key, f->key))
				fail_msg("key '%s' twice in one object", f->key);
		if (f->type == RF_OBJ || f->type == RF_ARR || f->type == RF_METRICS)
			rows += check_table(f->sub, depth + 1);
		if (f->type == RF_ARR) {
			assert_true(f->count_size == sizeof(uint32_t) ||
				    f->count_size == sizeof(size_t));
			assert_true(f->size > 0);
		}
		if (f->type == RF_ENUM)
			assert_non_null(f->names);
		if (f->type == RF_CONST)
			assert_non_null(f->text);
		if (f->type == RF_FIXED)
			assert_true(f->size > 1);
		if (f->type == RF_CUSTOM) {
			assert_non_null(f->get);
			assert_non_null(f->put);
		}
		if (f->flags & RF_NULL_UNLESS)
			assert_non_null(f->when);
	}
	return rows;
}

static void test_field_tables(void **state)
{
	/* The top level starts with the schema, which the reader checks first. */
	assert_string_equal(rf_results.f[0].key, "schema");
	assert_string_equal(rf_results.f[0].text, RF_SCHEMA);
	assert_true(check_table(&rf_results, 0) > 100);
}

/* A key added in a later version is required only of files that version wrote. */
struct demo {
	uint32_t old_key, new_key;
};
static const struct rfield demo_rows[] = {
    {.key = "old_key", .type = RF_U32, .flags = RF_REQ, .off = offsetof(struct demo, old_key)},
    {.key = "new_key",
     .type = RF_U32,
     .flags = RF_REQ,
     .off = offsetof(struct demo, new_key),
     .since = "0.10.0"},
};
static const struct rf_table demo_table = {.f = demo_rows, .n = 2};

static unsigned read_demo(const char *version, const char *text)
{
	struct results r = {.tool_version = (char *)version};
	struct diag d = {0};
	struct rj c = {"d.json", &d, &r, 0, false};
	struct demo v = {0};
	json_t *o = json_loads(text, 0, NULL);

	assert_non_null(o);
	rf_read(&c, o, "", &demo_table, &v, NULL);
	json_decref(o);
	if (c.nerr)
		assert_string_equal(d.msgs[0], "d.json: new_key: missing (expected an integer)");
	diag_release(&d);
	return c.nerr;
}

static void test_since(void **state)
{
	assert_int_equal(read_demo("0.9.3", "{\"old_key\": 1}"), 0);
	assert_int_equal(read_demo("0.10.0", "{\"old_key\": 1}"), 1);
	assert_int_equal(read_demo("1.0.0", "{\"old_key\": 1}"), 1);
	assert_int_equal(read_demo("1.0.0", "{\"old_key\": 1, \"new_key\": 2}"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_metrics),
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_field_tables),
	    cmocka_unit_test(test_since),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
