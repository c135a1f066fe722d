/* What iotrial shows without running anything: the resolved plan and its stages
 * (validate), the backends and whether each works here (the job keys: keys.c). */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "engine/io/backends/backend.h"
#include "model/jobkeys.h"
#include "model/names.h"
#include "engine/plan/plan.h"
#include "lib/units.h"

/* A precision target: the runs shown above are its pilot; how the rest will be decided. */
static void print_target(const struct replication_spec *r)
{
	printf("    precision target: ±%g%% at %g%% confidence, pilot %u, max %u, estimated %s",
	       100 * r->error, 100 * r->confidence, r->pilot, r->max,
	       r->estimate_pilot ? "once from the pilot before outliers" : "from the kept runs");
	if (r->estimate_pilot && r->round > 1)
		printf(", rounded up to a multiple of %u", r->round);
	putchar('\n');
}

void cli_print_plan(const struct plan *p)
{
	const struct exp_spec *s = p->spec;
	char size[32], chunk[32];

	printf("experiment %s: %zu job instance(s), %zu trial(s), order %s, seed %s, units %s\n",
	       s->experiment, p->ninst, p->ntrials, names_get(order_names, (int)s->rep.order),
	       s->seed_set ? "fixed" : "chosen at run time",
	       s->units == UNITS_BINARY ? "binary (MiB = 2^20 B)" : "decimal (MB = 10^6 B)");
	for (size_t i = 0; i < p->ninst; i++) {
		const struct instance *in = &p->inst[i];
		const struct job_spec *j = &in->job;
		units_format_size(size, sizeof(size), (double)j->file_size,
				  s->units == UNITS_BINARY);
		units_format_size(chunk, sizeof(chunk), (double)in->chunk,
				  s->units == UNITS_BINARY);
		printf(
		    "  %s: %s on %s, %s in %s I/Os, iodepth %u, sync %s%s, %u run(s) + %u warm-up\n",
		    in->name, spec_workload_name(j->workload), in->be->name, size, chunk,
		    j->iodepth, spec_sync_name(j->sync), j->direct ? ", O_DIRECT" : "", in->runs,
		    in->warmup);
		if (j->runtime_ns)
			printf("    each trial runs for %.3f s\n", (double)j->runtime_ns / 1e9);
		if (j->rep.target)
			print_target(&j->rep);
		bool copy = j->workload == WL_COPY || j->workload == WL_COPYTREE;
		if (copy && in->src.path)
			printf("    source %s%s\n", in->src.path,
			       in->src.create ? " (laid out by iotrial)" : "");
		printf("    %s %s%s\n", copy ? "copy to" : "file", in->data.path,
		       in->data.create ? " (created by iotrial)" : "");
	}
}

void cli_print_stages(const struct plan *p)
{
	for (size_t st = 0; st < p->nstages; st++) {
		const char *seen[64];
		size_t nseen = 0;
		printf("stage %zu:", st + 1);
		for (int bg = 0; bg < 2; bg++)
			for (size_t u = 0; u < p->nunits; u++) {
				const struct plan_unit *pu = &p->units[u];
				for (size_t k = 0; pu->stage == st && k < pu->n; k++) {
					const struct instance *in = &p->inst[pu->inst[k]];
					const char *job = p->spec->jobs[in->job_index].name;
					bool dup = false;
					if (in->job.background != bg)
						continue;
					for (size_t i = 0; i < nseen && !dup; i++)
						dup = !strcmp(seen[i], job);
					if (dup || nseen == 64)
						continue;
					printf("%s%s%s",
					       nseen == 0 ? " "
					       : bg	  ? " + "
							  : ", ",
					       job, bg ? " (background)" : "");
					seen[nseen++] = job;
				}
			}
		printf("\n");
	}
}

int cmd_backends(void)
{
	printf("%-10s %-6s %s\n", "backend", "works", "about");
	for (size_t i = 0; be_registry[i]; i++) {
		const struct be_ops *be = be_registry[i];
		char why[256] = "";
		int r = be->probe ? be->probe(why, sizeof(why)) : 0;
		printf("%-10s %-6s %s%s%s\n", be->name, r == 0 ? "yes" : "no", be->help,
		       r ? ": " : "", r ? why : "");
	}
	if (!be_find("io_uring"))
		printf("%-10s %-6s not compiled in (install %s and rebuild)\n", "io_uring", "no",
		       be_missing_library("io_uring"));
	if (!be_find("libaio"))
		printf("%-10s %-6s not compiled in (install %s and rebuild)\n", "libaio", "no",
		       be_missing_library("libaio"));
	return 0;
}

/* Read a saved results file, printing its problems. Returns 0 or EXIT_USAGE. */
