/* Unit tests for parsers/jobkey_set.c: one job key typed from its text through the key
 * table, every message exactly, and the field left alone on an error. Table-driven; keys
 * are looked up by name, so a row whose key is gone (moved to a backend) is skipped. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/jobkeys.h"
#include "parsers/yp.h"

struct set_case {
	const char *key, *text;
	int ret;
	const char *err;  /* the message on an error */
	const char *want; /* on success: the value read back, as job_key_format writes it */
};

static const struct set_case cases[] = {
    {"block_size", "64KiB", 0, NULL, "65536"},
    {"block_size", "0", -ERANGE, "must be more than 0 bytes, got '0'", NULL},
    {"block_size", "2GiB", -ERANGE, "must be at most 1073741824 bytes, got '2GiB'", NULL},
    {"block_size", "4kb!", -EINVAL, NULL, NULL}, /* the units parser says why */
    {"iodepth", "32", 0, NULL, "32"},
    {"iodepth", "0", -ERANGE, "must be between 1 and 4096, got '0'", NULL},
    {"iodepth", "many", -EINVAL, NULL, NULL},
    {"runtime", "100ms", 0, NULL, "100000000"},
    {"runtime", "soon", -EINVAL, NULL, NULL},
    {"direct", "true", 0, NULL, "true"},
    {"direct", "yes please", -EINVAL, "expected true or false, got 'yes please'", NULL},
    {"workload", "randread", 0, NULL, "randread"},
    {"workload", "randred", -EINVAL,
     "unknown value 'randred' (did you mean 'randread'? expected one of: read, write, randread, randwrite, copy, copytree, command, readwrite, randrw)",
     NULL},
    {"workload", "zzzzzzzz", -EINVAL,
     "unknown value 'zzzzzzzz' (expected one of: read, write, randread, randwrite, copy, copytree, command, readwrite, randrw)",
     NULL},
    {"target", "/tmp/x", 0, NULL, "/tmp/x"},
    {"sim_outlier_factor", "5", 0, NULL, NULL},
    {"sim_outlier_factor", "0.5", -ERANGE, "must be between 1 and 1000, got '0.5'", NULL},
    {"sim_outlier_factor", "five", -EINVAL, "expected a number, got 'five'", NULL},
};

static void test_set_job_key(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct set_case *c = &cases[i];
		const struct job_key *k = job_key_find(c->key);
		struct job_spec j, before;
		struct key_value v = {0}, was = {0};
		char err[512] = "", got[512];
		int ret;

		if (!k)
			continue;
		assert_int_equal(yp_job_defaults(&j), 0);
		assert_int_equal(spec_job_copy(&before, &j), 0);
		ret =
		    yp_set_job_key(&j, (enum job_key_id)(k - job_keys), c->text, err, sizeof(err));
		if (ret != c->ret)
			fail_msg("%s: '%s': returned %d, want %d (%s)", c->key, c->text, ret,
				 c->ret, err);
		if (c->err && strcmp(err, c->err))
			fail_msg("%s: '%s': says\n  %s\nwant\n  %s", c->key, c->text, err, c->err);
		if (ret < 0 && !err[0])
			fail_msg("%s: '%s': fails without a message", c->key, c->text);
		assert_int_equal(job_key_get(&j, (enum job_key_id)(k - job_keys), &v), 0);
		assert_int_equal(job_key_get(&before, (enum job_key_id)(k - job_keys), &was), 0);
		job_key_format(&v, got, sizeof(got));
		if (c->want && strcmp(got, c->want))
			fail_msg("%s: '%s': reads back '%s', want '%s'", c->key, c->text, got,
				 c->want);
		if (ret < 0 && !job_key_value_eq(&v, &was))
			fail_msg("%s: '%s': failed, yet changed the field to '%s'", c->key, c->text,
				 got);
		job_key_value_release(&v);
		job_key_value_release(&was);
		spec_job_release(&before);
		spec_job_release(&j);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_set_job_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
