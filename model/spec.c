/* Lifetime helpers for the parts of the experiment spec that need no key table (see
 * spec.h); a job's own strings are released through the table (model/jobkeys.c). */
#include "model/spec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void spec_table_release(struct table_spec *t)
{
	for (size_t i = 0; i < t->nrows; i++) {
		free(t->rows[i].job);
		free(t->rows[i].metric);
		free(t->rows[i].label);
	}
	free(t->rows);
	free(t->columns);
	memset(t, 0, sizeof(*t));
}

void spec_point_release(struct matrix_point *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->kv[i].s);
	free(p->kv);
	free(p->job);
	free(p->text);
	memset(p, 0, sizeof(*p));
}

bool spec_workload_writes(enum job_workload w)
{
	return w == WL_WRITE || w == WL_RANDWRITE || w == WL_COPY;
}

bool spec_workload_random(enum job_workload w)
{
	return w == WL_RANDREAD || w == WL_RANDWRITE;
}
