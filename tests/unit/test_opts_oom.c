/* Out of memory setting a backend option: job_opt_put (model/jobkeys_ext.c) grows a job's
 * own options with realloc and copies borrowed ones with malloc, so setting one can fail.
 * yp_set_job_key must then say so in `err`, which every caller prints as it stands (an
 * uninitialised buffer in parsers/jobfile.c and parsers/matrix.c), and leave the job as it
 * was. malloc and realloc are this program's own, failing once on cue. */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/io/backends/backend.h"
#include "model/jobkeys.h"
#include "parsers/yp.h"

static int fail_next; /* the next malloc or realloc returns NULL */

void *malloc(size_t n)
{
	static void *(*real)(size_t);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "malloc");
	if (fail_next) {
		fail_next = 0;
		return NULL;
	}
	return real(n);
}

void *realloc(void *p, size_t n)
{
	static void *(*real)(void *, size_t);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "realloc");
	if (fail_next) {
		fail_next = 0;
		return NULL;
	}
	return real(p, n);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_option_oom),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
