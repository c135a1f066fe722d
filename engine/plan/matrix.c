/* Matrix expansion: the cross product of a job's matrix values, minus excluded points.
 * The first key listed varies slowest, so instances come out in the order a reader
 * expects. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"
#include "engine/plan/plan.h"

/* Does point `pt` match partial point `ex` (every key of ex has ex's value in pt)? */
static bool matches(const struct key_value *pt, size_t n, const struct matrix_point *ex)
{
	for (size_t i = 0; i < ex->n; i++) {
		bool found = false;
		for (size_t k = 0; k < n && !found; k++)
			found = job_key_value_eq(&pt[k], &ex->kv[i]);
		if (!found)
			return false;
	}
	return true;
}

int matrix_points(const struct job_spec *j, struct matrix_point **points, struct src_loc **locs,
		  size_t *n)
{
	size_t total = 1, dims = j->nmatrix, kept = 0;
	size_t *idx;

	for (size_t d = 0; d < dims; d++) {
		if (j->matrix[d].n == 0)
			return -EINVAL;
		if (total > MATRIX_MAX_POINTS / j->matrix[d].n)
			return -E2BIG;
		total *= j->matrix[d].n;
	}
	*points = calloc(total, sizeof(**points));
	*locs = calloc(total * (dims ? dims : 1), sizeof(**locs));
	idx = calloc(dims ? dims : 1, sizeof(*idx));
	if (!*points || !*locs || !idx) {
		free(idx);
		return -ENOMEM;
	}
	for (size_t p = 0; p < total; p++) {
		struct matrix_point *pt = &(*points)[kept];
		bool excluded = false;

		/* idx is the mixed-radix digits of p, last dimension fastest. */
		for (size_t d = dims, rest = p; d-- > 0;) {
			idx[d] = rest % j->matrix[d].n;
			rest /= j->matrix[d].n;
		}
		pt->kv = calloc(dims ? dims : 1, sizeof(*pt->kv));
		if (!pt->kv) {
			free(idx);
			return -ENOMEM;
		}
		for (size_t d = 0; d < dims; d++) {
			pt->kv[d] = j->matrix[d].values[idx[d]];
			pt->kv[d].s = pt->kv[d].s ? strdup(pt->kv[d].s) : NULL;
			(*locs)[kept * dims + d] = j->matrix[d].locs[idx[d]];
		}
		pt->n = dims;
		for (size_t e = 0; e < j->nexclude && !excluded; e++)
			excluded = matches(pt->kv, dims, &j->exclude[e]);
		if (excluded)
			spec_point_release(pt);
		else
			kept++;
	}
	free(idx);
	*n = kept;
	return 0;
}

void matrix_points_free(struct matrix_point *points, struct src_loc *locs, size_t n)
{
	for (size_t i = 0; points && i < n; i++)
		spec_point_release(&points[i]);
	free(points);
	free(locs);
}
