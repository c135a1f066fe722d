/* For the unit tests that run a worker: set a job key of `j` from its text, as a job file
 * would (cmocka asserts on any failure), and free what that allocated. Include after
 * cmocka.h. */
#ifndef IOTRIAL_TEST_SET_OPT_H
#define IOTRIAL_TEST_SET_OPT_H

#include <stdlib.h>

#include "model/jobkeys.h"

static inline void set_opt(struct job_spec *j, const char *name, const char *text)
{
	const struct job_key *k = job_key_find(name);
	struct key_value v = {0};
	char err[256];

	assert_non_null(k);
	v.key = (enum job_key_id)job_key_id_of(k);
	assert_int_equal(job_key_parse(k, text, &v, err, sizeof(err)), 0);
	assert_int_equal(job_key_put(j, &v), 0);
	j->key_loc[v.key] = (struct src_loc){"test", 1, 1};
}

/* Free the options set_opt gave `j`: job_opt_put allocates them (model/spec.h), so a job
 * zeroed for another run without this leaks them (LeakSanitizer, make test-asan). */
static inline void drop_opts(struct job_spec *j)
{
	if (j->opts.own)
		free(j->opts.v);
	j->opts = (struct job_opts){NULL, 0, false};
}

#endif
