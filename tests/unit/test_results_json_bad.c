/* results.json that must be refused: each broken file gives one exact message (a syntax
 * error with its line and column, a wrong type with the key's path), a file that lacks what
 * the contract requires gives every problem, and hostile shapes give messages, never a
 * crash. The round trip: test_results_json.c. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "model/results_json.h"
#include "reporters/reporter.h"
#include "tests/unit/results_sample.h"

/* Load `text` (named "r.json") and expect it refused with exactly `msg`. */
static void expect_error(const char *text, const char *msg)
{
	struct results r;
	struct diag d = {0};

	assert_int_equal(rj_load_string("r.json", text, strlen(text), &r, &d), -EINVAL);
	if (d.n != 1)
		fail_msg("%zu messages for '%.60s', the first '%s'", d.n, text,
			 d.n ? d.msgs[0] : "");
	assert_string_equal(d.msgs[0], msg);
	diag_release(&d);
}

/* The round-trip file with one edit: key `key` of jobs[1] (`in` "job"), of its summary
 * ("summary"), its replication ("replication"), its trials[2] ("trial") or of the report
 * table's rows[`in` "row0" or "row2"] set to `v`, or removed when `v` is NULL. */
static char *edited(const char *in, const char *key, json_t *v)
{
	struct results a;
	char *text;
	json_t *root, *o;

	build(&a);
	text = to_json(&a);
	results_release(&a);
	root = json_loads(text, 0, NULL);
	free(text);
	assert_non_null(root);
	o = json_array_get(json_object_get(root, "jobs"), 1);
	if (!strcmp(in, "summary"))
		o = json_object_get(o, "summary");
	else if (!strcmp(in, "replication"))
		o = json_object_get(o, "replication");
	else if (!strcmp(in, "trial"))
		o = json_array_get(json_object_get(o, "trials"), 2);
	else if (!strncmp(in, "row", 3))
		o = json_array_get(
		    json_object_get(json_object_get(json_object_get(root, "report"), "table"),
				    "rows"),
		    (size_t)(in[3] - '0'));
	assert_non_null(o);
	if (v)
		assert_int_equal(json_object_set_new(o, key, v), 0);
	else
		assert_int_equal(json_object_del(o, key), 0);
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	return text;
}

static void test_bad_inputs(void **state)
{
	struct results r;
	struct diag d = {0};
	char *text;
	bool found;

	expect_error("hello", "r.json:1:5: '[' or '{' expected near 'hello'");
	expect_error("{\"schema\": \"iotrial.results/1\",\n \"jobs\": [}",
		     "r.json:2:11: unexpected token near '}'");
	expect_error("", "r.json: empty file, not an iotrial results file");
	expect_error("{\"schema\": \"fio/3\"}",
		     "r.json: not an iotrial results file (schema \"fio/3\", expected "
		     "\"iotrial.results/1\")");
	expect_error("[1, 2]",
		     "r.json: not an iotrial results file (no \"schema\": \"iotrial.results/1\")");
	expect_error("{\"a\": 1, \"a\": 2}", "r.json:1:12: duplicate object key near '\"a\"'");

	text = edited("trial", "seconds", json_string("fast"));
	expect_error(text, "r.json: jobs[1].trials[2].seconds: expected a number");
	free(text);
	text = edited("trial", "index", json_integer(-1));
	expect_error(text, "r.json: jobs[1].trials[2].index: expected an integer from 0 to "
			   "4294967295");
	free(text);
	text = edited("trial", "ios", json_integer(-1));
	expect_error(text, "r.json: jobs[1].trials[2].ios: expected an integer from 0 to "
			   "9223372036854775807");
	free(text);
	text = edited("trial", "kept", json_null());
	expect_error(text, "r.json: jobs[1].trials[2].kept: expected true or false");
	free(text);
	text = edited("trial", "huge_buffers",
		      json_pack("{s:s,s:i,s:n}", "state", "most", "bytes", 4096, "huge_bytes"));
	expect_error(text, "r.json: jobs[1].trials[2].huge_buffers.state: expected off, granted, "
			   "partial, none, fallback or unknown, not 'most'");
	free(text);
	text = edited("trial", "huge_buffers", json_pack("{s:s,s:i}", "state", "none", "bytes", 1));
	expect_error(
	    text,
	    "r.json: jobs[1].trials[2].huge_buffers.huge_bytes: missing (expected an integer)");
	free(text);
	text = edited("job", "matrix", json_pack("[s]", "nope"));
	expect_error(text, "r.json: jobs[1].matrix[0]: 'nope' is not a key of params");
	free(text);
	text = edited("summary", "runs", json_real(2.5));
	expect_error(text, "r.json: jobs[1].summary.runs: expected an integer from 0 to "
			   "4294967295");
	free(text);
	text = edited("replication", "estimate", json_string("later"));
	expect_error(text, "r.json: jobs[1].replication.estimate: expected kept or pilot, not "
			   "'later'");
	free(text);
	/* A report row shows a job's metric or describes the devices: each needs its keys. */
	text = edited("row0", "job", NULL);
	expect_error(text, "r.json: report.table.rows[0].job: missing (expected a string)");
	free(text);
	text = edited("row2", "values", NULL);
	expect_error(text, "r.json: report.table.rows[2].values: missing (expected an object)");
	free(text);
	text = edited("row2", "values", json_pack("{s:i}", "usb", 1));
	expect_error(text, "r.json: report.table.rows[2].values.usb: expected a string");
	free(text);

	/* A file that lacks what the contract requires: every problem, one line each. */
	assert_int_equal(
	    rj_load_string("r.json", "{\"schema\": \"iotrial.results/1\"}", 31, &r, &d), -EINVAL);
	assert_true(d.n > 3);
	/* In the order the keys are written (the field table's). */
	assert_string_equal(d.msgs[0], "r.json: tool: missing (expected an object)");
	found = false;
	for (size_t i = 0; i < d.n; i++)
		found = found || !strcmp(d.msgs[i], "r.json: jobs: missing (expected an array)");
	assert_true(found);
	diag_release(&d);

	assert_int_equal(rj_load("/nonexistent/results.json", &r, &d), -ENOENT);
	assert_string_equal(d.msgs[0],
			    "/nonexistent/results.json: cannot open: No such file or directory");
	diag_release(&d);
}

/* Hostile shapes: wrong types at every level must give messages, never a crash. */
static void test_hostile(void **state)
{
	static const char *const texts[] = {
	    "{\"schema\": \"iotrial.results/1\", \"jobs\": 5, \"comparisons\": {}, \"env\": []}",
	    "{\"schema\": \"iotrial.results/1\", \"jobs\": [1, [], {\"trials\": [null, {}]}]}",
	    "{\"schema\": \"iotrial.results/1\", \"jobs\": [{\"params\": {\"a\": [1]}, "
	    "\"matrix\": [1, \"b\"], \"summary\": {\"seconds\": 3}, \"replication\": "
	    "{\"outliers\": \"most\"}}]}",
	    "{\"schema\": \"iotrial.results/1\", \"started_at\": "
	    "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", \"env\": {\"targets\": [{}]}}",
	    "{\"schema\": \"iotrial.results/1\", \"jobs\": [" /* many bad entries: capped */
	    "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}",
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct results r;
		struct diag d = {0};
		assert_int_equal(rj_load_string("h.json", texts[i], strlen(texts[i]), &r, &d),
				 -EINVAL);
		assert_true(d.n > 0 && d.n <= 21);
		diag_release(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bad_inputs),
	    cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
