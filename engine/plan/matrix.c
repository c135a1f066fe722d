/* Matrix expansion: the cross product of a job's matrix values, minus excluded points.
 * The first key listed varies slowest, so instances come out in the order a reader
 * expects. */
#include <errno.h>

#include "model/jobkeys.h"
#include "engine/plan/plan.h"

/* Does point `idx` of job `j` match partial point `ex` (every key of ex has ex's value)? */
static bool matches(const struct job_spec *j, const uint32_t *idx, const struct matrix_point *ex)
{
	for (size_t i = 0; i < ex->n; i++) {
		bool found = false;
		for (size_t d = 0; d < j->nmatrix && !found; d++)
			found = job_key_value_eq(&j->matrix[d].values[idx[d]], &ex->kv[i]);
		if (!found)
			return false;
	}
	return true;
}

long matrix_size(const struct job_spec *j)
{
	size_t total = 1;

	for (size_t d = 0; d < j->nmatrix; d++) {
		if (j->matrix[d].n == 0)
			return -EINVAL;
		if (total > MATRIX_MAX_POINTS / j->matrix[d].n)
			return -E2BIG;
		total *= j->matrix[d].n;
	}
	return (long)total;
}

void matrix_point_at(const struct job_spec *j, size_t no, uint32_t *idx)
{
	/* idx is the mixed-radix digits of no, last dimension fastest. */
	for (size_t d = j->nmatrix, rest = no; d-- > 0;) {
		idx[d] = (uint32_t)(rest % j->matrix[d].n);
		rest /= j->matrix[d].n;
	}
}

bool matrix_excluded(const struct job_spec *j, const uint32_t *idx)
{
	for (size_t e = 0; j->rules && e < j->rules->nexclude; e++)
		if (matches(j, idx, &j->rules->exclude[e]))
			return true;
	return false;
}
