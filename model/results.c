/* The lifetime of the results structure (see results.h); summaries are in summary.c. */
#include "model/results.h"

#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

const struct param *results_param(const struct instance_result *ir, const char *key)
{
	for (size_t i = 0; i < ir->nparams; i++)
		if (!strcmp(ir->params[i].key, key))
			return &ir->params[i];
	return NULL;
}

void results_release(struct results *r)
{
	free(r->tool_name);
	free(r->tool_version);
	free(r->experiment);
	free(r->description);
	free(r->job_path);
	for (size_t i = 0; i < r->noverrides; i++) {
		free(r->overrides[i].key);
		free(r->overrides[i].value);
	}
	free(r->overrides);
	env_release(&r->env);
	for (size_t k = 0; k < r->ninst; k++) {
		struct instance_result *ir = &r->inst[k];
		free(ir->name);
		free(ir->job);
		free(ir->backend);
		free(ir->workload);
		for (size_t i = 0; i < ir->nparams; i++) {
			free(ir->params[i].key);
			free(ir->params[i].s);
		}
		free(ir->params);
		for (size_t i = 0; i < ir->ntrials; i++) {
			free(ir->trials[i].error);
			free(ir->trials[i].log_error);
			free(ir->trials[i].workers);
			free(ir->trials[i].sizes);
			free(ir->trials[i].hist);
			for (int h = 0; h < LAT_NKINDS; h++)
				free(ir->trials[i].pool_hist[h]);

			for (uint32_t n = 0; n < ir->trials[i].nranks; n++) {
				free(ir->trials[i].ranks[n].host);
				free(ir->trials[i].ranks[n].error);
			}
			free(ir->trials[i].ranks);
		}
		free(ir->trials);
		for (size_t i = 0; i < ir->nseries; i++)
			free(ir->series[i].pts);
		free(ir->series);
		free(ir->cps);
	}
	free(r->inst);
	for (size_t i = 0; i < r->ncmp; i++) {
		free(r->cmp[i].a);
		free(r->cmp[i].b);
		free(r->cmp[i].a_label);
		free(r->cmp[i].b_label);
		free(r->cmp[i].metric);
	}
	free(r->cmp);
	free(r->order);
	for (size_t i = 0; i < r->nresumptions; i++) {
		for (size_t k = 0; k < r->resumptions[i].nchanges; k++) {
			free(r->resumptions[i].changes[k].key);
			free(r->resumptions[i].changes[k].before);
			free(r->resumptions[i].changes[k].after);
		}
		free(r->resumptions[i].changes);
	}
	free(r->resumptions);
	spec_table_release(&r->table);
	for (size_t i = 0; i < r->nowned; i++)
		free(r->owned[i]);
	free(r->owned);
	memset(r, 0, sizeof(*r));
}

double results_cpu_per_byte(const struct instance_result *ir)
{
	double cpu = 0, bytes = 0;

	for (size_t i = 0; i < ir->ntrials; i++)
		if (ir->trials[i].kept) {
			cpu += ir->trials[i].cpu_user_s + ir->trials[i].cpu_sys_s;
			bytes += (double)ir->trials[i].bytes;
		}
	return bytes > 0 && isfinite(cpu) ? cpu / bytes : NAN;
}

double results_worker_rate(const struct instance_result *ir, uint32_t worker)
{
	double bytes = 0, seconds = 0;

	for (size_t i = 0; i < ir->ntrials; i++)
		for (uint32_t w = 0; ir->trials[i].kept && w < ir->trials[i].nworkers; w++)
			if (ir->trials[i].workers[w].worker == worker) {
				bytes += (double)ir->trials[i].workers[w].bytes;
				seconds += ir->trials[i].workers[w].seconds;
			}
	return seconds > 0 ? bytes / seconds : NAN;
}
