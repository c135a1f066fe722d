/* Unit tests for fio's vocabulary (model/fio_names.c) and its ini dialect (parsers/fio_ini.c):
 * each unit fio writes and what iotrial writes for it, each time, and how lines are read.
 * Table-driven; one row per case. */
#include "model/fio_names.h"
#include "parsers/fio_ini.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

struct conv_case {
	const char *fio;
	bool flag;	  /* kb_base=1000 for sizes; a bare number in microseconds for times */
	const char *want; /* NULL: refused */
};

static const struct conv_case size_cases[] = {
    {"4k", false, "4KiB"},     {"4K", false, "4KiB"},	  {"4kb", false, "4KiB"},
    {"4KB", false, "4KiB"},    {"4ki", false, "4kB"},	  {"4KiB", false, "4kB"},
    {"256K", false, "256KiB"}, {"10g", false, "10GiB"},	  {"1t", false, "1TiB"},
    {"2p", false, "2PiB"},     {"1.5m", false, "1.5MiB"}, {"4096", false, "4096"},
    {"4096b", false, "4096"},  {"4k", true, "4kB"},	  {"4ki", true, "4KiB"},
    {"10M", true, "10MB"},     {"", false, NULL},	  {"k", false, NULL},
    {"4x", false, NULL},       {"4kk", false, NULL},	  {"-4k", false, NULL},
    {"4 k", false, NULL},      {"0x10", false, NULL},	  {"4kib2", false, NULL},
};

static const struct conv_case time_cases[] = {
    {"60", false, "60s"},	 {"250", true, "250us"},  {"10m", false, "10m"},
    {"2h", false, "2h"},	 {"1d", false, "24h"},	  {"500ms", false, "500ms"},
    {"500msec", false, "500ms"}, {"20us", false, "20us"}, {"20usec", false, "20us"},
    {"5s", false, "5s"},	 {"5sec", false, "5s"},	  {"5S", false, "5s"},
    {"1.5s", false, NULL},	 {"", false, NULL},	  {"5x", false, NULL},
    {"ms", false, NULL},
};

static void test_sizes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(size_cases) / sizeof(size_cases[0]); i++) {
		const struct conv_case *c = &size_cases[i];
		char out[64] = "";
		int ret = fio_size_to_iotrial(c->fio, c->flag, out, sizeof(out));
		if (!c->want) {
			if (ret != -EINVAL)
				fail_msg("size '%s': expected refused, got '%s'", c->fio, out);
			continue;
		}
		if (ret != 0 || strcmp(out, c->want))
			fail_msg("size '%s' (kb_base=%s): expected '%s', got %d '%s'", c->fio,
				 c->flag ? "1000" : "1024", c->want, ret, out);
	}
}

static void test_times(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(time_cases) / sizeof(time_cases[0]); i++) {
		const struct conv_case *c = &time_cases[i];
		char out[64] = "";
		int ret = fio_time_to_iotrial(c->fio, c->flag, out, sizeof(out));
		if (!c->want) {
			if (ret != -EINVAL)
				fail_msg("time '%s': expected refused, got '%s'", c->fio, out);
			continue;
		}
		if (ret != 0 || strcmp(out, c->want))
			fail_msg("time '%s': expected '%s', got %d '%s'", c->fio, c->want, ret,
				 out);
	}
}

static void test_value_hints(void **state)
{
	static const struct {
		const char *key, *text, *want;
	} cases[] = {
	    {"direct", "1", "true"},	   {"verify", "0", "false"},
	    {"direct", "yes", NULL},	   {"block_size", "4k", "4KiB"},
	    {"file_size", "10m", "10MiB"}, {"file_size", "4096", NULL},
	    {"file_size", "4kb", NULL},	   {"file_size", "4KiB", NULL},
	    {"block_size", "1G", "1GiB"},  {"backend", "psync", "sync"},
	    {"backend", "posixaio", NULL}, {"workload", "rw", "readwrite"},
	    {"no_such_key", "1", NULL},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[64];
		const char *got = fio_value_hint(cases[i].key, cases[i].text, out, sizeof(out));
		if (!cases[i].want != !got || (got && strcmp(got, cases[i].want)))
			fail_msg("%s: %s: expected '%s', got '%s'", cases[i].key, cases[i].text,
				 cases[i].want ? cases[i].want : "(none)", got ? got : "(none)");
	}
}

static void test_table(void **state)
{
	(void)state;
	/* Every name once; a mapped row names a key, a row without one says why. */
	for (const struct fio_name *n = fio_names; n->fio; n++) {
		assert_ptr_equal(fio_name_find(n->fio), n);
		if (n->conv == FC_NONE || n->conv == FC_NOTE)
			assert_non_null(n->why);
	}
	assert_null(fio_name_find("no_such_option"));
	assert_true(fio_name_mapped(fio_name_find("bs")));
	assert_false(fio_name_mapped(fio_name_find("iodepth_batch")));
}

static void test_ini_lines(void **state)
{
	const char *text = "; comment\n# comment\n[global]\n  bs = 4k ; trailing\n"
			   "time_based\r\nfilename=/a#b\n\n[job one]\nrw=read\n";
	struct fio_ini f;
	struct diag d = {0};

	(void)state;
	assert_int_equal(fio_ini_parse("t.fio", text, strlen(text), &f, &d), 0);
	assert_int_equal(f.nsecs, 2);
	assert_string_equal(f.secs[0].name, "global");
	assert_int_equal(f.secs[0].nopts, 3);
	assert_string_equal(f.secs[0].opts[0].key, "bs");
	assert_string_equal(f.secs[0].opts[0].value, "4k");
	assert_int_equal(f.secs[0].opts[0].line, 4);
	assert_string_equal(f.secs[0].opts[1].key, "time_based");
	assert_null(f.secs[0].opts[1].value);
	assert_string_equal(f.secs[0].opts[2].value, "/a");
	assert_string_equal(f.secs[1].name, "job one");
	assert_int_equal(f.secs[1].line, 8);
	fio_ini_release(&f);
	diag_release(&d);
}

static void test_sniff(void **state)
{
	(void)state;
	assert_true(fio_ini_sniff("a.fio", "x: 1\n", 5));
	assert_true(fio_ini_sniff("a.ini", "", 0));
	assert_true(fio_ini_sniff("a.yaml", "; c\n\n  [job]  \nrw=read\n", 22));
	assert_false(fio_ini_sniff("a.yaml", "jobs: []\n", 9));
	assert_false(fio_ini_sniff("a.yaml", "[a, b]\n", 7));
	assert_false(fio_ini_sniff("a.yaml", "# only a comment\n", 17));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sizes),	cmocka_unit_test(test_times),
	    cmocka_unit_test(test_value_hints), cmocka_unit_test(test_table),
	    cmocka_unit_test(test_ini_lines),	cmocka_unit_test(test_sniff),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
