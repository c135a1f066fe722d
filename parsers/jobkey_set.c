/* Setting one job key from its text (typed through its row by job_key_parse), for job-file
 * values, --set and matrix values alike; and a job with every key at its default. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"
#include "parsers/yp.h"

int yp_set_job_key(struct job_spec *j, enum job_key_id id, const char *text, char *err,
		   size_t errlen)
{
	struct key_value v = {id, 0, NULL};
	int r = job_key_parse(job_key_row(id), text, &v, err, errlen);

	if (r == 0)
		r = job_key_put(j, &v);
	if (r == -E2BIG)
		snprintf(err, errlen, "a job sets at most %d backend options", JOB_OPTS_MAX);
	job_key_value_release(&v);
	return r;
}

int yp_job_defaults(struct job_spec *j)
{
	char err[256];

	memset(j, 0, sizeof(*j));
	if (!(j->key_loc = calloc(JK_MAX, sizeof(*j->key_loc))))
		return -ENOMEM;
	for (int i = 0; i < JK_NKEYS; i++)
		if (job_keys[i].def &&
		    yp_set_job_key(j, i, job_keys[i].def, err, sizeof(err)) < 0) {
			spec_job_release(j);
			return -ENOMEM;
		}
	return 0;
}
