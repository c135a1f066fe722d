/* The reporters over one small run whose figures are known: each one writes, and writes the
 * field it is for where it belongs; the registry finds each by name. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "model/metrics.h"
#include "model/results.h"
#include "reporters/reporter.h"
#include "tests/unit/report_string.h"

#define NTRIALS 3

/* One instance, copy[device=usb], three kept trials of 80 MB at 80 MB/s, 1 ms a record. */
static void build(struct results *r)
{
	struct instance_result *ir;

	memset(r, 0, sizeof(*r));
	r->tool_name = strdup("iotrial");
	r->tool_version = strdup("0.1.0");
	r->experiment = strdup("exp");
	r->job_path = strdup("exp.yaml");
	snprintf(r->started_at, sizeof(r->started_at), "2026-01-01T00:00:00Z");
	snprintf(r->finished_at, sizeof(r->finished_at), "2026-01-01T00:00:03Z");
	r->complete = true;
	r->seed = 17;
	r->confidence = 0.95;
	r->nranks = 1;
	r->order = strdup("sequential");
	r->ninst = 1;
	ir = r->inst = calloc(1, sizeof(*r->inst));
	ir->name = strdup("copy[device=usb]");
	ir->job = strdup("copy");
	ir->backend = strdup("sync");
	ir->workload = strdup("copy");
	ir->threads = 1;
	ir->nparams = 1;
	ir->params = calloc(1, sizeof(*ir->params));
	ir->params[0] = (struct param){.key = strdup("device"), .matrix = 1, .type = PV_STR};
	ir->params[0].s = strdup("usb");
	ir->rep = (struct replication_info){.confidence = 0.95, .error = 0.03, .outlier_k = NAN};
	ir->ntrials = NTRIALS;
	ir->trials = calloc(NTRIALS, sizeof(*ir->trials));
	for (uint32_t i = 0; i < NTRIALS; i++) {
		struct trial_result *t = &ir->trials[i];
		t->index = i;
		t->ran = true;
		t->seconds = 1.0;
		t->bytes = 80000000;
		t->ios = 1000;
		t->iops = 1000;
		t->bw_bytes = 8e7;
		t->lat = (struct lat_summary){1e6, 1e6, 1e6, 0, 1e6, 1e6, 1e6, 1e6, 1e6, 1e6, 1e6};
		t->cpu_user_s = t->cpu_sys_s = 0.1;
		t->cached = t->cached_after = NAN;
	}
	results_summarize(r);
}

static void test_text(void **state)
{
	struct results r;
	char *s;

	build(&r);
	s = report("text", &r);
	assert_non_null(strstr(s, "exp\nstarted 2026-01-01T00:00:00Z, seed 17"));
	/* The row: name, workload, kept/ran, seconds, rate (its unit the column's title),
	 * IO/s (scaled), mean latency. */
	assert_non_null(
	    strstr(s, "\njob               workload  runs  seconds  MB/s   ±CI   IO/s  lat mean"));
	assert_non_null(
	    strstr(s, "\ncopy[device=usb]  copy       3/3    1.000  80.0  0.0%  1.00k   1.00 ms"));
	assert_non_null(strstr(s, " 1.00 ms "));
	free(s);
	r.units = UNITS_BINARY;
	s = report("text", &r);
	assert_non_null(strstr(s, "  MiB/s  "));
	assert_non_null(strstr(s, "  76.3  "));
	free(s);
	results_release(&r);
}

static void test_csv(void **state)
{
	struct results r;
	char *s;

	build(&r);
	s = report("csv", &r);
	assert_non_null(strstr(s, "experiment,job,device,trial,warmup,kept,failed,dropped,seconds,"
				  "bytes,ios,iops,bw_bytes,"));
	assert_non_null(strstr(s, "\nexp,copy[device=usb],usb,2,false,true,false,false,1,80000000,"
				  "1000,1000,80000000,"));
	/* log_error beside error, empty when the logs are whole. */
	assert_non_null(strstr(s, ",backend,workload,error,log_error,read_ios,"));
	assert_non_null(strstr(s, ",sync,copy,,,0,0,"));
	free(s);
	/* Quoted per RFC 4180 when it holds a comma or a quote. */
	r.inst[0].trials[1].log_error = strdup("rank 1: \"x\", y");
	s = report("csv", &r);
	assert_non_null(strstr(s, ",sync,copy,,\"rank 1: \"\"x\"\", y\",0,0,"));
	free(s);
	results_release(&r);
}

static void test_json(void **state)
{
	struct results r;
	json_error_t err;
	json_t *root, *sum;
	char *s;

	build(&r);
	s = report("json", &r);
	root = json_loads(s, 0, &err);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(root, "schema")),
			    "iotrial.results/1");
	sum = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "summary");
	/* Every metric's summary, under its name. */
	for (size_t k = 0; k < METRIC_N; k++)
		assert_non_null(json_object_get(sum, metrics[k].name));
	assert_true(json_real_value(json_object_get(json_object_get(sum, "bw_bytes"), "mean")) ==
		    8e7);
	json_decref(root);
	free(s);

	/* A string that is missing is written as null: the job stays in the file. */
	free(r.inst[0].name);
	r.inst[0].name = NULL;
	s = report("json", &r);
	root = json_loads(s, 0, &err);
	assert_int_equal(json_array_size(json_object_get(root, "jobs")), 1);
	assert_true(json_is_null(
	    json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "name")));
	json_decref(root);
	free(s);
	results_release(&r);
}

/* results.json is written a piece at a time (reporters/json.c): its bytes must be jansson's
 * own dump of the whole tree, indentation and separators included, with two jobs, an empty
 * array (comparisons) and nested objects and arrays. */
static void test_json_layout(void **state)
{
	struct results r, r2;
	json_error_t err;
	json_t *root;
	char *s, *whole;
	size_t n;

	build(&r);
	build(&r2);
	r.inst = realloc(r.inst, 2 * sizeof(*r.inst));
	assert_non_null(r.inst);
	r.inst[1] = r2.inst[0];
	r.ninst = 2;
	r2.ninst = 0;
	results_release(&r2);
	s = report("json", &r);
	root = json_loads(s, 0, &err);
	assert_non_null(root);
	assert_int_equal(json_array_size(json_object_get(root, "jobs")), 2);
	assert_int_equal(json_array_size(json_object_get(root, "comparisons")), 0);
	whole = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	assert_non_null(whole);
	n = strlen(whole);
	assert_int_equal(strlen(s), n + 1);
	assert_memory_equal(s, whole, n);
	assert_int_equal(s[n], '\n');
	free(whole);
	json_decref(root);
	free(s);
	results_release(&r);
}

static void test_html(void **state)
{
	struct results r;
	char *s;

	build(&r);
	s = report("html", &r);
	assert_true(!strncmp(s, "<!DOCTYPE html>", 15));
	assert_non_null(strstr(s, "<table class=\"summary\" id=\"summary-measured\">"));
	assert_non_null(strstr(s, "<td>3/3</td><td>1.000</td><td>80.0 MB/s</td>"));
	assert_non_null(strstr(s, "</html>"));
	/* No trial with a problem: no list of them, nothing said. */
	assert_null(strstr(s, "id=\"problems\""));
	assert_null(strstr(s, "lacks lines"));
	free(s);
	/* A trial whose log lacks lines, another that failed: listed, said under the summary. */
	r.inst[0].trials[1].log_error = strdup("No space left on device");
	r.inst[0].trials[2].failed = true;
	r.inst[0].trials[2].error =
	    strdup("write 'a<b' at offset 0 (4096 bytes): Input/output error");
	s = report("html", &r);
	assert_non_null(strstr(
	    s, "<p class=\"note\" id=\"problems-said\">1 trial failed; records/ lacks lines of 1 "
	       "trial (No space left on device), whose figures are whole all the same: see <a "
	       "href=\"#problems\">trials with problems</a>.</p>"));
	assert_non_null(strstr(s, "<h2 id=\"problems\">"));
	assert_non_null(strstr(s, "<tr class=\"problem\" id=\"problem-0-1\">"));
	assert_non_null(strstr(s, "<td>1</td><td class=\"l why error\">-</td><td class=\"l why "
				  "log-error\">No space left on device</td></tr>"));
	assert_non_null(strstr(s, "<td>2</td><td class=\"l why error\">write &#39;a&lt;b&#39; at "
				  "offset 0 (4096 bytes): Input/output error</td><td class=\"l why "
				  "log-error\">-</td></tr>"));
	assert_null(strstr(s, "id=\"problem-0-0\""));
	free(s);
	/* A results.json's version, like any of its strings, is text, never markup. */
	free(r.tool_version);
	r.tool_version = strdup("0.1</p><script>alert(1)</script>");
	s = report("html", &r);
	assert_null(strstr(s, "<script>alert(1)"));
	assert_non_null(
	    strstr(s, "Written by iotrial 0.1&lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;. "));
	free(s);
	results_release(&r);
}

static void test_registry(void **state)
{
	struct rep_list l = {0};
	char names[128];

	for (size_t i = 0; rep_registry[i]; i++) {
		assert_ptr_equal(rep_find(rep_registry[i]->name), rep_registry[i]);
		assert_non_null(rep_registry[i]->file);
		assert_non_null(rep_registry[i]->write);
	}
	assert_null(rep_find("pdf"));
	assert_null(rep_find(""));
	assert_ptr_equal(rep_find_n("json,csv", 4), rep_find("json"));
	assert_null(rep_find_n("jso", 3));
	rep_names(names, sizeof(names));
	assert_string_equal(names, "text, json, csv, html, ndjson");

	/* By default every reporter but the ones written on request (html, ndjson). */
	rep_list_default(&l);
	assert_true(rep_list_has(&l, "text"));
	assert_true(rep_list_has(&l, "json"));
	assert_true(rep_list_has(&l, "csv"));
	assert_false(rep_list_has(&l, "html"));
	assert_false(rep_list_has(&l, "ndjson"));
	/* -f html,csv,csv: each once, in registry order. */
	l.n = 0;
	rep_list_add(&l, rep_find("html"));
	rep_list_add(&l, rep_find("csv"));
	rep_list_add(&l, rep_find("csv"));
	assert_int_equal(l.n, 2);
	assert_ptr_equal(l.rep[0], rep_find("csv"));
	assert_ptr_equal(l.rep[1], rep_find("html"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_text), cmocka_unit_test(test_csv),
	    cmocka_unit_test(test_json), cmocka_unit_test(test_json_layout),
	    cmocka_unit_test(test_html), cmocka_unit_test(test_registry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
