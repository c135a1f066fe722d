/* Job-file parser tests: a table of bad inputs and the exact message each gets, and what
 * good inputs resolve to (defaults in layers, --set, variables, units). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "parsers/jobfile.h"

static const char *fake_env(const char *name, void *arg)
{
	if (!strcmp(name, "SIZE"))
		return "80MB";
	if (!strcmp(name, "EMPTY"))
		return "";
	return NULL;
}

static const struct expand_var builtins[] = {{"scratch", "/scratch"}};

static int load(const char *text, const struct spec_override *ov, size_t nov, struct exp_spec *s,
		struct diag *d)
{
	struct yp_options o = {ov, nov, builtins, 1, fake_env, NULL};
	memset(d, 0, sizeof(*d));
	return yp_load_string("job.yaml", text, strlen(text), &o, s, d);
}

struct bad_case {
	const char *text;
	const char *message; /* the first message, exactly */
	size_t count;	     /* how many messages */
};

static const struct bad_case bad[] = {
    {"jobs:\n  - name: a\n    workload: read\n    blok_size: 4KiB\n",
     "job.yaml:4:5: key 'blok_size': unknown key (did you mean 'block_size'?)", 1},
    {"jobs:\n  - name: a\n    workload: read\n    block_size: -4KiB\n",
     "job.yaml:4:17: key 'block_size': expected a size like 4KiB or 80MB, got '-4KiB' (negative size)",
     1},
    {"jobs:\n  - name: a\n    workload: read\n    file_size: 0\n",
     "job.yaml:4:16: key 'file_size': must be more than 0 bytes, got '0'", 1},
    {"jobs:\n  - name: a\n    workload: raed\n",
     "job.yaml:3:15: key 'workload': unknown value 'raed' (did you mean 'read'? expected one of: read, write, randread, randwrite, copy, copytree, command, readwrite, randrw)",
     1},
    {"jobs:\n  - name: a\n    workload: read\n   file_size: 4MiB\n",
     "job.yaml:4:4: yaml: did not find expected '-' indicator while parsing a block collection", 1},
    {"jobs:\n  - name: a\n    workload: [read]\n",
     "job.yaml:3:15: key 'workload': expected a value, got a list", 1},
    {"jobs:\n  - name: a\n    workload: read\n    file_size: ${NOPE}\n",
     "job.yaml:4:16: key 'file_size': variable 'NOPE' is not set (use ${NOPE:-default} for a default)",
     1},
    {"jobs:\n  - name: a\n    workload: read\n    iodepth: 0\n",
     "job.yaml:4:14: key 'iodepth': must be between 1 and 4096, got '0'", 1},
    {"jobs:\n  - name: a\n    workload: read\n    invalidate: maybe\n",
     "job.yaml:4:17: key 'invalidate': expected true or false, got 'maybe'", 1},
    {"jobs:\n  - name: a\n    workload: read\n    runtime: 10 parsecs\n",
     "job.yaml:4:14: key 'runtime': expected a duration like 100ms or 60s, got '10 parsecs' (unknown unit 'parsecs' (durations take ns, us, ms, s, m, min, h; a bare number is seconds))",
     1},
    {"jobs:\n  - name: a\n",
     "job.yaml:2:5: key 'workload': job 'a' has no workload (read, write, randread, randwrite, readwrite, randrw, copy, copytree or command)",
     1},
    {"jobs:\n  - name: a\n    workload: read\n  - name: a\n    workload: write\n",
     "job.yaml:4:5: key 'name': job name 'a' is used twice (also at line 2)", 1},
    {"experiment: x\n", "job.yaml:1:1: key 'jobs': missing: an experiment needs a list of jobs", 1},
    {"experimnt: x\njobs: []\n",
     "job.yaml:1:1: key 'experimnt': unknown key (did you mean 'experiment'?)", 2},
    {"jobs:\n  - name: a\n    workload: read\n    workload: write\n",
     "job.yaml:4:5: key 'workload': duplicate key (first set at line 3)", 1},
    /* Each copy once, naming the first: not once per earlier copy. */
    {"seed: 1\nseed: 2\nseed: 3\nseed: 4\njobs:\n  - {name: a, workload: read}\n",
     "job.yaml:2:1: key 'seed': duplicate key (first set at line 1)", 3},
    {"jobs:\n  - {name: a, workload: read}\n  - {name: a, workload: read}\n"
     "  - {name: a, workload: read}\n",
     "job.yaml:3:5: key 'name': job name 'a' is used twice (also at line 2)", 2},
    {"jobs:\n  - {name: a, workload: read, matrix: {iodepth: [1, 1, 1, 1]}}\n",
     "job.yaml:2:53: key 'iodepth': '1' is listed twice", 3},
    {"", "job.yaml:1:1: the job file is empty", 1},
    /* A key that is no name: where it is, not as the parent key's own error. */
    {"jobs:\n  - name: a\n    workload: read\n    [x]: 1\n",
     "job.yaml:4:5: a key in 'jobs' must be a plain name, got a list", 1},
    {"[x]: 1\njobs:\n  - {name: a, workload: read}\n",
     "job.yaml:1:1: a key must be a plain name, got a list", 1},
    /* A job repeated by an alias: its line is the anchor's, which the message says. */
    {"jobs:\n  - &j {name: a, workload: read}\n  - *j\n",
     "job.yaml:2:5: key 'name': job name 'a' is used twice (an alias repeats the job at line 2)",
     1},
    {"- a\n- b\n", "job.yaml:1:1: expected a job file (a mapping), got a list", 1},
    {"replication: {runs: 0}\njobs:\n  - {name: a, workload: read}\n",
     "job.yaml:1:21: key 'runs': must be between 1 and 1000000, got '0'", 1},
    {"replication: {confidence: 2}\njobs:\n  - {name: a, workload: read}\n",
     "job.yaml:1:27: key 'confidence': must be between 0 and 1 (exclusive), got '2'", 1},
    {"units: metric\njobs:\n  - {name: a, workload: read}\n",
     "job.yaml:1:8: key 'units': unknown value 'metric' (expected decimal or binary)", 1},
    {"defaults: {name: x}\njobs:\n  - {name: a, workload: read}\n",
     "job.yaml:1:12: key 'name': a job's name is set on the job, not in defaults", 1},
    {"jobs:\n  - name: a\n    workload: read\n    file_size: 4kb\n",
     "job.yaml:4:16: key 'file_size': expected a size like 4KiB or 80MB, got '4kb' (unknown unit 'kb' (a lowercase 'b' means bits; sizes take B, kB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB))",
     1},
    {"jobs:\n  - name: a b\n    workload: read\n",
     "job.yaml:2:11: key 'name': 'a b' is not a job name (letters, digits, '_', '-', '.')", 1},
    {"jobs:\n  - name: a\n    workload: copy\n    matrix:\n      buffer_size: {from: 0, to: 1MiB, step: x2}\n",
     "job.yaml:5:20: key 'buffer_size': from is 0, which a step of x2 never leaves", 1},
};

static void test_bad_inputs(void **state)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct exp_spec s;
		struct diag d;
		int ret = load(bad[i].text, NULL, 0, &s, &d);

		if (ret != -EINVAL || d.n != bad[i].count || strcmp(d.msgs[0], bad[i].message)) {
			print_error("case %zu:\n%s\nwant (%zu): %s\n", i, bad[i].text, bad[i].count,
				    bad[i].message);
			for (size_t k = 0; k < d.n; k++)
				print_error("got: %s\n", d.msgs[k]);
		}
		assert_int_equal(ret, -EINVAL);
		assert_int_equal(d.n, bad[i].count);
		assert_string_equal(d.msgs[0], bad[i].message);
		assert_null(s.jobs);
		diag_release(&d);
	}
}

static void test_every_error_reported(void **state)
{
	struct exp_spec s;
	struct diag d;
	const char *text = "jobs:\n  - name: a\n    workload: read\n    blok_size: 1\n"
			   "  - name: b\n    workload: write\n    file_size: lots\n";

	assert_int_equal(load(text, NULL, 0, &s, &d), -EINVAL);
	assert_int_equal(d.n, 2);
	assert_non_null(strstr(d.msgs[0], "job.yaml:4:5:"));
	assert_non_null(strstr(d.msgs[1], "job.yaml:7:16:"));
	diag_release(&d);
}

static void test_defaults_layers(void **state)
{
	struct exp_spec s;
	struct diag d;
	const char *text = "experiment: layers\n"
			   "defaults: {block_size: 8KiB, file_size: \"${SIZE}\"}\n"
			   "jobs:\n"
			   "  - {name: a, workload: randread}\n"
			   "  - {name: b, workload: write, block_size: 1MiB, sync: osync}\n";

	assert_int_equal(load(text, NULL, 0, &s, &d), 0);
	assert_int_equal(s.njobs, 2);
	assert_string_equal(s.experiment, "layers");
	assert_int_equal(s.jobs[0].block_size, 8192);
	assert_int_equal(s.jobs[0].file_size, 80000000);
	assert_int_equal(s.jobs[0].workload, WL_RANDREAD);
	assert_int_equal(s.jobs[0].sync, SYNC_NONE);
	assert_true(s.jobs[0].invalidate);
	assert_string_equal(s.jobs[0].backend, "sync");
	assert_int_equal(s.jobs[1].block_size, 1048576);
	assert_int_equal(s.jobs[1].sync, SYNC_OSYNC);
	assert_int_equal(s.rep.runs, 1);
	assert_true(s.rep.confidence > 0.949 && s.rep.confidence < 0.951);
	assert_int_equal(strlen(s.sha256), 64);
	spec_release(&s);
}

static void test_overrides(void **state)
{
	struct exp_spec s;
	struct diag d;
	const struct spec_override ov[] = {
	    {"block_size", "16KiB"},
	    {"b.file_size", "1MiB"},
	    {"replication.runs", "7"},
	    {"seed", "42"},
	};
	const char *text = "jobs:\n  - {name: a, workload: read, block_size: 4KiB}\n"
			   "  - {name: b, workload: read}\n";

	assert_int_equal(load(text, ov, 4, &s, &d), 0);
	assert_int_equal(s.jobs[0].block_size, 16384);
	assert_int_equal(s.jobs[1].block_size, 16384);
	assert_int_equal(s.jobs[0].file_size, 64 << 20);
	assert_int_equal(s.jobs[1].file_size, 1 << 20);
	assert_int_equal(s.rep.runs, 7);
	assert_true(s.seed_set);
	assert_int_equal(s.seed, 42);
	assert_int_equal(s.noverrides, 4);
	assert_string_equal(s.overrides[1].key, "b.file_size");
	spec_release(&s);

	const struct spec_override bad_ov[] = {{"c.file_size", "1MiB"}};
	assert_int_equal(load(text, bad_ov, 1, &s, &d), -EINVAL);
	assert_string_equal(d.msgs[0], "--set 'c.file_size=1MiB': no job is named 'c'");
	diag_release(&d);
	const struct spec_override bad_val[] = {{"block_size", "big"}};
	assert_int_equal(load(text, bad_val, 1, &s, &d), -EINVAL);
	assert_non_null(
	    strstr(d.msgs[0], "--set 'block_size=big': key 'block_size': expected a size"));
	diag_release(&d);
	/* A replication value refused names its key, as for any key; an unknown one once. */
	const struct spec_override bad_rep[] = {
	    {"replication.runs", "0"}, {"a.replication.runs", "0"}, {"replication.runz", "1"}};
	assert_int_equal(load(text, bad_rep, 3, &s, &d), -EINVAL);
	assert_string_equal(d.msgs[0], "--set 'replication.runs=0': key 'replication.runs': "
				       "must be between 1 and 1000000, got '0'");
	assert_string_equal(d.msgs[1], "--set 'a.replication.runs=0': key 'replication.runs': "
				       "must be between 1 and 1000000, got '0'");
	assert_string_equal(d.msgs[2],
			    "--set 'replication.runz=1': unknown replication key 'runz'");
	diag_release(&d);
}

static void test_devices_and_builtins(void **state)
{
	struct exp_spec s;
	struct diag d;
	const char *text =
	    "devices:\n  usb: {path: \"${USB_DIR:-${scratch}/usb}\"}\n"
	    "  sata: /mnt/sata\n"
	    "jobs:\n  - {name: a, workload: copy, device: usb, target: \"{device}\"}\n";

	assert_int_equal(load(text, NULL, 0, &s, &d), 0);
	assert_int_equal(s.ndevices, 2);
	assert_string_equal(s.devices[0].name, "usb");
	assert_string_equal(s.devices[0].path, "/scratch/usb");
	assert_string_equal(s.devices[1].path, "/mnt/sata");
	assert_string_equal(s.jobs[0].target, "{device}"); /* the planner resolves it */
	assert_string_equal(s.jobs[0].device, "usb");
	assert_int_equal(s.jobs[0].key_loc[JK_TARGET].line, 5);
	spec_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bad_inputs),
	    cmocka_unit_test(test_every_error_reported),
	    cmocka_unit_test(test_defaults_layers),
	    cmocka_unit_test(test_overrides),
	    cmocka_unit_test(test_devices_and_builtins),
	};
	return cmocka_run_group_tests_name("jobfile", tests, NULL, NULL);
}
