/* A backend's options, read from a job into the backend's own struct through its table (see
 * be_ops.options): once per worker and trial, in init, so the I/O path reads plain fields. */
#include <string.h>

#include "engine/io/backends/backend.h"
#include "model/jobkeys.h"

/* Store value `u` (as struct key_value holds it) into the field row `k` describes. */
static void store(const struct job_key *k, uint64_t u, void *opts)
{
	void *f = (char *)opts + k->off;

	switch (k->type) {
	case KT_SIZE:
	case KT_DURATION:
		memcpy(f, &u, sizeof(uint64_t));
		break;
	case KT_UINT: {
		uint32_t v = (uint32_t)u;
		memcpy(f, &v, sizeof(v));
		break;
	}
	case KT_BOOL: {
		bool v = u != 0;
		memcpy(f, &v, sizeof(v));
		break;
	}
	case KT_ENUM: {
		int v = (int)u;
		memcpy(f, &v, sizeof(v));
		break;
	}
	case KT_DOUBLE:
		memcpy(f, &u, sizeof(double));
		break;
	case KT_STRING:
		break; /* job_keys_extend refuses string options */
	}
}

void be_opts_load(const struct be_ops *be, const struct job_spec *j, void *out)
{
	memset(out, 0, be->opts_size);
	for (const struct job_key *k = be->options; k && k->name; k++) {
		int id = job_key_id_of(k);
		if (id >= 0)
			store(k, job_opt_get(j, (enum job_key_id)id), out);
	}
}

bool be_opt_set(const struct job_spec *j, const char *name)
{
	const struct job_key *k = job_key_find(name);
	int id = k ? job_key_id_of(k) : -1;

	return id >= 0 && j->key_loc[id].file;
}

const struct be_ops *be_inner(const struct be_ops *be, const struct job_spec *j, const char **name)
{
	unsigned char opts[BE_OPTS_MAX];

	*name = NULL;
	if (!be->inner)
		return NULL;
	be_opts_load(be, j, opts);
	*name = be->inner(opts);
	return *name ? be_find(*name) : NULL;
}

size_t be_option_ids(const struct be_ops *be, const struct job_spec *j, int *ids)
{
	const struct be_ops *inner;
	const char *name;
	size_t n = 0;

	/* A wrapper's inner backend wraps nothing (be_wrap): two rounds at most. */
	for (int round = 0; be && round < 2; round++, be = inner) {
		for (const struct job_key *k = be->options; k && k->name && n < JK_EXT_MAX; k++)
			if ((ids[n] = job_key_id_of(k)) >= 0)
				n++;
		inner = be_inner(be, j, &name);
	}
	return n;
}
