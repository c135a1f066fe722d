/* Lifetime and naming helpers for the experiment spec (see spec.h). */
#include "engine/spec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/jobkeys.h"

void spec_job_release(struct job_spec *j)
{
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
	for (int i = 0; i < JK_NKEYS; i++)
		if (job_keys[i].type == KT_STRING)
			*(char **)((char *)dst + job_keys[i].off) = NULL;
	for (int i = 0; i < JK_NKEYS; i++) {
		const char *v = *(char *const *)((const char *)src + job_keys[i].off);
		char **f = (char **)((char *)dst + job_keys[i].off);
		if (job_keys[i].type == KT_STRING && v && !(*f = strdup(v)))
			goto fail;
	}
	if (src->name && !(dst->name = strdup(src->name)))
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
