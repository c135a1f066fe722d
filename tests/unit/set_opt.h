/* For the unit tests that run a worker: set a job key of `j` from its text, as a job file
 * would (cmocka asserts on any failure). Include after cmocka.h. */
#ifndef IOTRIAL_TEST_SET_OPT_H
#define IOTRIAL_TEST_SET_OPT_H

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

#endif
