/* The results before any trial and after the last (see run_results.h): every instance with
 * its params and unmeasured trials, and at the end the comparisons the job file asks for. */
#include "engine/run/run_results.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/dist/dist.h"
#include "engine/io/backends/backend.h"
#include "engine/io/fastclock.h"
#include "engine/run/trial.h"
#include "lib/path.h"
#include "lib/version.h"
#include "model/jobkeys.h"
#include "model/names.h"

/* Parameter `id` of job `j` into the next of ir->params. */
static int add_param(struct instance_result *ir, const struct job_spec *j, enum job_key_id id)
{
	const struct job_key *k = job_key_row(id);
	struct param *pa = &ir->params[ir->nparams];
	struct key_value v;
	int ret = 0;

	if (job_key_get(j, id, &v) < 0)
		return -ENOMEM;
	if (!(pa->key = strdup(k->name))) {
		job_key_value_release(&v);
		return -ENOMEM;
	}
	ir->nparams++; /* from here on results_release frees it */
	switch (k->type) {
	case KT_STRING:
		if (v.s) {
			pa->type = PV_STR;
			pa->s = v.s;
			v.s = NULL;
		}
		break;
	case KT_ENUM:
		pa->type = PV_STR;
		if (!(pa->s = strdup(job_key_enum_name(k, (int)v.u))))
			ret = -ENOMEM;
		break;
	case KT_DOUBLE:
		pa->type = PV_REAL;
		memcpy(&pa->d, &v.u, sizeof(pa->d));
		break;
	case KT_BOOL:
		pa->type = PV_BOOL;
		pa->b = v.u != 0;
		break;
	case KT_UINT:
		pa->type = PV_UINT;
		pa->u = v.u;
		break;
	case KT_SIZE:
	case KT_DURATION:
		pa->u = v.u;
		/* 0 for a key without a default means unset (no runtime, no buffer_size). */
		pa->type = pa->u == 0 && !k->def ? PV_NULL : PV_UINT;
		break;
	}
	job_key_value_release(&v);
	return ret;
}

/* The instance's parameters: every key of the job key table, then the options of its
 * backend (and of the one a wrapper wraps), none of any other backend. */
static int add_params(struct instance_result *ir, const struct instance *in)
{
	int ids[JK_EXT_MAX];
	size_t n = be_option_ids(in->be, &in->job, ids);

	if (!(ir->params = calloc(JK_NKEYS + n, sizeof(*ir->params))))
		return -ENOMEM;
	for (size_t k = 0; k < JK_NKEYS; k++)
		if (add_param(ir, &in->job, (enum job_key_id)k) < 0)
			return -ENOMEM;
	for (size_t k = 0; k < n; k++)
		if (add_param(ir, &in->job, (enum job_key_id)ids[k]) < 0)
			return -ENOMEM;
	for (size_t k = 0; k < ir->nparams; k++)
		for (size_t m = 0; m < in->npoint; m++)
			if (!strcmp(ir->params[k].key, job_key_row(in->of->matrix[m].key)->name))
				ir->params[k].matrix = (uint32_t)m + 1;
	return 0;
}

/* strdup that counts a failure in *bad (so a run of them is checked once); NULL stays NULL. */
static char *dup_or_note(const char *s, int *bad)
{
	char *d = s ? strdup(s) : NULL;

	*bad |= s && !d;
	return d;
}

/* What the results say of the run as a whole: tool, experiment, job file, seed, order, the
 * report table, the --set options. 0 or -ENOMEM. */
static int results_head(const struct plan *p, struct results *r)
{
	const struct exp_spec *s = p->spec;
	int bad = 0;

	r->tool_name = dup_or_note("iotrial", &bad);
	r->tool_version = dup_or_note(IOTRIAL_VERSION, &bad);
	r->experiment = dup_or_note(s->experiment, &bad);
	r->description = dup_or_note(s->description, &bad);
	r->job_path = dup_or_note(s->path, &bad);
	memcpy(r->job_sha256, s->sha256, sizeof(r->job_sha256));
	r->units = s->units;
	r->seed = p->seed;
	r->confidence = s->rep.confidence;
	r->order = dup_or_note(names_get(order_names, (int)s->rep.order), &bad);
	r->order_seed = p->order_seed;
	r->nranks = (uint32_t)dist_size();
	if (s->table.columns && spec_table_copy(&r->table, &s->table) < 0)
		return -ENOMEM;
	if (s->noverrides && !(r->overrides = calloc(s->noverrides, sizeof(*r->overrides))))
		return -ENOMEM;
	for (size_t i = 0; i < s->noverrides; i++) {
		r->overrides[i].key = dup_or_note(s->overrides[i].key, &bad);
		r->overrides[i].value = dup_or_note(s->overrides[i].value, &bad);
		r->noverrides++;
	}
	return bad ? -ENOMEM : 0;
}

/* Instance `in`'s entry: names, every effective key as a param (matrix ones marked), its
 * replication policy, its trials (unmeasured), its target in the environment. */
static int results_instance(const struct plan *p, const struct instance *in, struct results *r,
			    struct instance_result *ir)
{
	int bad = 0, ret;
	char err[256];

	ir->name = dup_or_note(in->name, &bad);
	ir->job = dup_or_note(p->spec->jobs[in->job_index].name, &bad);
	ir->backend = dup_or_note(in->be->name, &bad);
	ir->workload = dup_or_note(spec_workload_name(in->job.workload), &bad);
	ir->threads = in->job.threads ? in->job.threads : 1;
	ir->background = in->job.background;
	ir->submit_latency = in->job.submit_latency;
	/* Checked when the job file was read; the default stands in should it fail here. */
	if (pct_list_parse(in->job.percentiles, &ir->pcts, err, sizeof(err)) < 0)
		pct_list_default(&ir->pcts);
	if (bad || add_params(ir, in) < 0)
		return -ENOMEM;
	ir->rep = (struct replication_info){
	    .outliers = in->job.rep->outliers,
	    .trim_low = in->job.rep->trim_low,
	    .trim_high = in->job.rep->trim_high,
	    .outlier_k = in->job.rep->outlier_k,
	    .target = in->job.rep->target,
	    .pilot = in->job.rep->pilot,
	    .max = in->job.rep->max,
	    .estimate = in->job.rep->estimate_pilot ? ESTIMATE_PILOT : ESTIMATE_KEPT,
	    .round = in->job.rep->round ? in->job.rep->round : 1,
	    .pilot_n = NAN,
	    .confidence = in->job.rep->confidence,
	    .error = in->job.rep->error,
	    .metric = in->job.rep->metric,
	};
	/* Load's trials are added as it accompanies each measured trial. */
	if (!in->job.background && trial_results_grow(ir, in->warmup + in->runs) < 0)
		return -ENOMEM;
	if (!(in->be->flags & BE_F_NOIO)) {
		char *dir = path_dirname(in->data.path);
		if (!dir)
			return -ENOMEM;
		/* Best effort: a target that cannot be described is left out, not fatal. */
		ret = env_add_target(&r->env, in->data.create ? dir : in->data.path);
		free(dir);
		if (ret == -ENOMEM)
			return ret;
	}
	return 0;
}

int run_results_init(const struct plan *p, struct results *r)
{
	int ret;

	memset(r, 0, sizeof(*r));
	if ((ret = results_head(p, r)) < 0)
		return ret;
	/* A field of the machine that cannot be read stays unknown; only memory is fatal. */
	if ((ret = env_capture(&r->env)) == -ENOMEM)
		return ret;
	/* The engine decides the workers' clock; the results only record it. */
	if (!(r->env.clock = strdup(fastclock_kind())))
		return -ENOMEM;
	if (!(r->inst = calloc(p->ninst ? p->ninst : 1, sizeof(*r->inst))))
		return -ENOMEM;
	for (size_t i = 0; i < p->ninst; i++)
		if ((ret = results_instance(p, &p->inst[i], r, &r->inst[r->ninst++])) < 0)
			return ret;
	return 0;
}

int run_results_compare(const struct plan *p, struct results *r)
{
	int bad = 0;

	if (!p->ncmp)
		return 0;
	if (!(r->cmp = calloc(p->ncmp, sizeof(*r->cmp))))
		return -ENOMEM;
	for (size_t i = 0; i < p->ncmp; i++) {
		const struct plan_compare *pc = &p->cmp[i];
		struct comparison *c = &r->cmp[r->ncmp++];
		c->a = dup_or_note(r->inst[pc->a].name, &bad);
		c->b = dup_or_note(r->inst[pc->b].name, &bad);
		c->a_label = dup_or_note(pc->c->a.text ? pc->c->a.text : "", &bad);
		c->b_label = dup_or_note(pc->c->b.text ? pc->c->b.text : "", &bad);
		c->metric = dup_or_note(
		    pc->c->metric ? pc->c->metric : r->inst[pc->a].summary.metric, &bad);
		c->confidence = pc->c->confidence;
		results_compare(&r->inst[pc->a], &r->inst[pc->b], pc->c->paired, c);
	}
	return bad ? -ENOMEM : 0;
}
