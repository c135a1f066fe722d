/* Out of memory setting a backend option: job_opt_put (model/jobkeys_ext.c) grows a job's
 * own options with realloc and copies borrowed ones with malloc, so setting one can fail.
 * yp_set_job_key must then say so in `err`, which every caller prints as it stands (an
 * uninitialised buffer in parsers/jobfile.c and parsers/matrix.c), and leave the job as it
 * was. malloc and realloc are this program's own, failing once on cue. */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/io/backends/backend.h"
#include "model/jobkeys.h"
#include "parsers/jobfile.h"
#include "parsers/yp.h"

static int fail_next; /* the next malloc or realloc returns NULL */
static long fail_at;  /* > 0: the fail_at-th malloc or realloc from now returns NULL */

/* Does this allocation fail? */
static int failing(void)
{
	if (fail_next) {
		fail_next = 0;
		return 1;
	}
	return fail_at > 0 && --fail_at == 0;
}

void *malloc(size_t n)
{
	static void *(*real)(size_t);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "malloc");
	return failing() ? NULL : real(n);
}

void *realloc(void *p, size_t n)
{
	static void *(*real)(void *, size_t);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "realloc");
	return failing() ? NULL : real(p, n);
}

/* `text` as option `id` of `j` with the allocation it needs failing: -ENOMEM and a message
 * (err starts as garbage with no terminator, as a caller's stack buffer may). */
static void put_fails(struct job_spec *j, enum job_key_id id, const char *text)
{
	char err[64];

	memset(err, 'x', sizeof(err));
	fail_next = 1;
	assert_int_equal(yp_set_job_key(j, id, text, err, sizeof(err)), -ENOMEM);
	assert_int_equal(fail_next, 0); /* the failure was the option's, not one before it */
	assert_non_null(memchr(err, 0, sizeof(err)));
	assert_string_equal(err, "out of memory");
}

static void test_option_oom(void **state)
{
	struct job_spec tmpl, job, in;
	char err[256] = "";
	enum job_key_id delay, jitter;

	assert_int_equal(be_registry_init(err, sizeof(err)), 0);
	delay = (enum job_key_id)job_key_id_of(job_key_find("null_delay"));
	jitter = (enum job_key_id)job_key_id_of(job_key_find("null_jitter"));
	assert_int_equal(yp_job_defaults(&tmpl), 0);
	assert_int_equal(spec_job_copy(&job, &tmpl), 0);
	/* The job's own options, grown (realloc). */
	put_fails(&job, delay, "5us");
	assert_int_equal(job.opts.n, 0);
	assert_int_equal(yp_set_job_key(&job, delay, "5us", err, sizeof(err)), 0);
	/* A plan instance's, borrowed (plan.c instance_init) and copied (malloc). */
	in = job;
	job_opts_borrow(&in);
	put_fails(&in, jitter, "1us");
	put_fails(&in, delay, "6us");
	assert_ptr_equal(in.opts.v, job.opts.v); /* still borrowed: nothing to free */
	assert_int_equal(in.opts.n, 1);
	assert_int_equal(job_opt_get(&in, delay), 5000);
	spec_job_release(&job);
	spec_job_release(&tmpl);
}

/* A job file that is right, backend options set in defaults, on a job and in a matrix,
 * loaded with its k-th allocation failing, for every k the load reaches: -ENOMEM each
 * time (or 0, where the failure is survived), never -EINVAL, so the command line exits 1
 * (out of memory), not 2 (a bad file). Before: 24 of them were "the job file is empty"
 * (libyaml's load failing without saying why) and 5 "key '...': out of memory" as a bad
 * value. */
static void test_load_oom(void **state)
{
	static const char job[] =
	    "experiment: oom\n"
	    "defaults: {backend: null, null_delay: 1us}\n"
	    "jobs:\n"
	    "  - {name: a, workload: randread, null_jitter: 2us, matrix: {null_delay: [1us, 3us]}}\n";
	char err[256] = "";
	bool reached = true;

	assert_int_equal(be_registry_init(err, sizeof(err)), 0);
	for (long k = 1; reached; k++) {
		struct exp_spec s;
		struct diag d = {0};
		int ret;

		fail_at = k;
		ret = yp_load_string("oom.yaml", job, sizeof(job) - 1, NULL, &s, &d);
		reached = fail_at == 0; /* else the load made fewer than k allocations */
		fail_at = 0;
		if (ret == -EINVAL)
			fail_msg("allocation %ld failing: -EINVAL (%s)", k, d.n ? d.msgs[0] : "");
		if (ret == 0)
			spec_release(&s);
		diag_release(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_option_oom),
	    cmocka_unit_test(test_load_oom),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
