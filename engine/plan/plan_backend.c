/* The planner's look at a job's backend options: the backend a wrapper wraps, every option
 * the job sets belonging to its backend (or to the one wrapped), and each backend's own rules
 * across its options. Nothing here knows any one backend: the options come from the tables
 * the backends declare (be_ops.options), by id. */
#include <stdio.h>
#include <string.h>

#include "engine/plan/plan_internal.h"
#include "model/jobkeys.h"

/* A wrapper (fault) runs on the table that gives it the capabilities of what it wraps. */
static bool resolve_wrapper(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	const struct be_ops *inner;
	const struct job_key *k;
	const char *name, *pkg;
	int id = -1;

	if (!in->be->inner)
		return true;
	inner = be_inner(in->be, j, &name);
	if (inner && (inner = be_wrap(in->be, inner))) {
		in->be = inner;
		return true;
	}
	/* The option that names the wrapped backend takes its names from be_wrappable_names. */
	for (k = in->be->options; k && k->name && id < 0; k++)
		if (k->enums == (const char *const *)be_wrappable_names)
			id = job_key_id_of(k);
	if (id < 0)
		id = JK_BACKEND;
	if (name && (pkg = be_missing_library(name)))
		plan_fail(pl, PLAN_EENV, plan_where(in, (enum job_key_id)id),
			  "key '%s': '%s' is not compiled into this build (install %s and rebuild)",
			  job_key_row((enum job_key_id)id)->name, name, pkg);
	else
		plan_fail(pl, PLAN_ESPEC, plan_where(in, (enum job_key_id)id),
			  "key '%s': backend '%s' cannot wrap '%s'",
			  job_key_row((enum job_key_id)id)->name, in->be->name, name ? name : "?");
	in->be = NULL;
	return false;
}

void plan_backend_text(const struct instance *in, char *buf, size_t len)
{
	const char *inner = NULL;

	be_inner(in->be, &in->job, &inner);
	if (inner)
		snprintf(buf, len, "%s over %s", in->be->name, inner);
	else
		snprintf(buf, len, "%s", in->be->name);
}

/* Every option the job sets must be one of its backend's (or of the one it wraps). */
static void check_owner(struct planner *pl, const struct instance *in)
{
	const struct job_spec *j = &in->job;
	int ids[JK_EXT_MAX];
	size_t n = be_option_ids(in->be, j, ids);
	char text[64];

	plan_backend_text(in, text, sizeof(text));
	for (size_t id = JK_NKEYS; id < job_key_count(); id++) {
		bool own = false;
		if (!j->key_loc[id].file)
			continue;
		for (size_t i = 0; i < n && !own; i++)
			own = ids[i] == (int)id;
		if (!own)
			plan_fail(
			    pl, PLAN_ESPEC, plan_where(in, (enum job_key_id)id),
			    "key '%s': %s is an option of backend %s; this job's backend is %s",
			    job_key_row((enum job_key_id)id)->name,
			    job_key_row((enum job_key_id)id)->name,
			    job_key_owner((enum job_key_id)id), text);
	}
}

/* Each backend's rules across its options, the wrapper's and then the wrapped one's. */
static void check_rules(struct planner *pl, const struct instance *in)
{
	const struct job_spec *j = &in->job;
	const struct be_ops *be = in->be, *next;
	const char *name;

	for (int round = 0; be && round < 2; round++, be = next) {
		unsigned char opts[BE_OPTS_MAX];
		const char *key = NULL;
		const struct job_key *k;
		char why[256];

		next = be_inner(be, j, &name);
		if (!be->check)
			continue;
		be_opts_load(be, j, opts);
		if (be->check(opts, why, sizeof(why), &key) == 0)
			continue;
		k = key ? job_key_find(key) : NULL;
		plan_fail(pl, PLAN_ESPEC,
			  k ? plan_where(in, (enum job_key_id)job_key_id_of(k))
			    : plan_where(in, JK_BACKEND),
			  "key '%s': %s", k ? k->name : "backend", why);
	}
}

void plan_backend_options(struct planner *pl, struct instance *in)
{
	if (!resolve_wrapper(pl, in))
		return;
	check_owner(pl, in);
	check_rules(pl, in);
}
