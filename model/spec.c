/* Lifetime helpers for the parts of the experiment spec that need no key table (see
 * spec.h); a job's own strings are released through the table (model/jobkeys.c). */
#include "model/spec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void spec_facts_release(struct device_fact *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].key);
		free(f[i].value);
	}
	free(f);
}

void spec_table_release(struct table_spec *t)
{
	/* A copy that failed to allocate its rows has none to free. */
	for (size_t i = 0; t->rows && i < t->nrows; i++) {
		free(t->rows[i].job);
		free(t->rows[i].metric);
		free(t->rows[i].label);
		free(t->rows[i].about);
		spec_facts_release(t->rows[i].facts, t->rows[i].nfacts);
	}
	free(t->rows);
	free(t->columns);
	memset(t, 0, sizeof(*t));
}

static char *dup_or(const char *s, bool *fail)
{
	char *t = s ? strdup(s) : NULL;

	*fail |= s && !t;
	return t;
}

static int row_copy(struct table_row *dst, const struct table_row *src)
{
	bool fail = false;

	dst->job = dup_or(src->job, &fail);
	dst->metric = dup_or(src->metric, &fail);
	dst->label = dup_or(src->label, &fail);
	dst->about = dup_or(src->about, &fail);
	if (src->nfacts && !(dst->facts = calloc(src->nfacts, sizeof(*dst->facts))))
		return -ENOMEM;
	for (size_t k = 0; k < src->nfacts; k++, dst->nfacts++) {
		dst->facts[k].key = dup_or(src->facts[k].key, &fail);
		dst->facts[k].value = dup_or(src->facts[k].value, &fail);
	}
	return fail ? -ENOMEM : 0;
}

int spec_table_copy(struct table_spec *dst, const struct table_spec *src)
{
	memset(dst, 0, sizeof(*dst));
	if (!(dst->columns = strdup(src->columns)) ||
	    !(dst->rows = calloc(src->nrows ? src->nrows : 1, sizeof(*dst->rows))))
		goto fail;
	for (size_t i = 0; i < src->nrows; i++)
		if (dst->nrows++, row_copy(&dst->rows[i], &src->rows[i]) < 0)
			goto fail;
	return 0;
fail:
	spec_table_release(dst);
	return -ENOMEM;
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
	return w == WL_WRITE || w == WL_RANDWRITE || w == WL_COPY || spec_workload_mixed(w);
}

bool spec_workload_random(enum job_workload w)
{
	return w == WL_RANDREAD || w == WL_RANDWRITE || w == WL_RANDRW;
}

bool spec_workload_mixed(enum job_workload w)
{
	return w == WL_READWRITE || w == WL_RANDRW;
}

bool spec_job_sliced(const struct job_spec *j)
{
	return j->threads > 1 && !j->file_per_thread && !spec_workload_random(j->workload) &&
	       !j->offset && !j->offset_increment;
}

uint64_t spec_job_extent(const struct job_spec *j)
{
	uint64_t workers = j->threads > 1 ? j->threads - 1 : 0;

	return j->offset + workers * j->offset_increment + j->file_size;
}
