/* Lifetime and naming helpers for the experiment spec (see spec.h). */
#include "model/spec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/jobkeys.h"

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
		job_key_value_release(&p->kv[i]);
	free(p->kv);
	free(p->job);
	free(p->text);
	memset(p, 0, sizeof(*p));
}

void spec_job_release(struct job_spec *j)
{
	for (size_t d = 0; d < j->nmatrix; d++) {
		for (size_t i = 0; i < j->matrix[d].n; i++)
			job_key_value_release(&j->matrix[d].values[i]);
		free(j->matrix[d].values);
		free(j->matrix[d].locs);
	}
	free(j->matrix);
	for (size_t i = 0; i < j->nexclude; i++)
		spec_point_release(&j->exclude[i]);
	free(j->exclude);
	for (size_t i = 0; i < j->nafter; i++)
		free(j->after[i]);
	free(j->after);
	free(j->rep.metric);
	free(j->name);
	j->name = NULL;
	for (size_t i = 0; i < JK_NKEYS; i++)
		if (job_keys[i].type == KT_STRING)
			free(*(char **)((char *)j + job_keys[i].off));
	memset(j, 0, sizeof(*j));
}

int spec_job_copy(struct job_spec *dst, const struct job_spec *src)
{
	*dst = *src;
	dst->name = NULL;
	dst->rep.metric = NULL;
	dst->matrix = NULL;
	dst->nmatrix = 0;
	dst->exclude = NULL;
	dst->nexclude = 0;
	dst->after = NULL;
	dst->nafter = 0;
	for (int i = 0; i < JK_NKEYS; i++)
		if (job_keys[i].type == KT_STRING)
			*(char **)((char *)dst + job_keys[i].off) = NULL;
	for (int i = 0; i < JK_NKEYS; i++) {
		if (job_keys[i].type != KT_STRING)
			continue;
		const char *v = *(char *const *)((const char *)src + job_keys[i].off);
		char **f = (char **)((char *)dst + job_keys[i].off);
		if (v && !(*f = strdup(v)))
			goto fail;
	}
	if (src->name && !(dst->name = strdup(src->name)))
		goto fail;
	if (src->rep.metric && !(dst->rep.metric = strdup(src->rep.metric)))
		goto fail;
	return 0;
fail:
	spec_job_release(dst);
	return -ENOMEM;
}

void spec_release(struct exp_spec *s)
{
	free(s->path);
	free(s->experiment);
	free(s->description);
	for (size_t i = 0; i < s->ndevices; i++) {
		free(s->devices[i].name);
		free(s->devices[i].path);
	}
	free(s->devices);
	for (size_t i = 0; i < s->njobs; i++)
		spec_job_release(&s->jobs[i]);
	free(s->jobs);
	for (size_t i = 0; i < s->noverrides; i++) {
		free(s->overrides[i].key);
		free(s->overrides[i].value);
	}
	free(s->overrides);
	free(s->scratch);
	free(s->rep.metric);
	for (size_t i = 0; i < s->ncompares; i++) {
		spec_point_release(&s->compares[i].a);
		spec_point_release(&s->compares[i].b);
		free(s->compares[i].metric);
	}
	free(s->compares);
	spec_table_release(&s->table);
	memset(s, 0, sizeof(*s));
}

const char *spec_workload_name(enum job_workload w)
{
	return job_key_enum_name(&job_keys[JK_WORKLOAD], (int)w);
}

const char *spec_sync_name(enum job_sync s)
{
	return job_key_enum_name(&job_keys[JK_SYNC], (int)s);
}

bool spec_workload_writes(enum job_workload w)
{
	return w == WL_WRITE || w == WL_RANDWRITE || w == WL_COPY;
}

bool spec_workload_random(enum job_workload w)
{
	return w == WL_RANDREAD || w == WL_RANDWRITE;
}
