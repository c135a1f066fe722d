/* What iotrial shows without running anything: validate's resolved plan, its stages and its
 * estimated time, the backends and whether each works here (the job keys: keys.c). */
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/estimate.h"
#include "cli/load.h"
#include "engine/dist/dist.h"
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

/* The plan as validate shows it: the experiment, then every instance as resolved. */
static void print_plan(const struct plan *p)
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
		/* As the job file can state them, not rounded: 32 MiB, 80 MB. */
		units_format_size_exact(size, sizeof(size), j->file_size, s->units == UNITS_BINARY);
		units_format_size_exact(chunk, sizeof(chunk), in->chunk, s->units == UNITS_BINARY);
		printf(
		    "  %s: %s on %s, %s in %s I/Os, iodepth %u, sync %s%s, %u run(s) + %u warm-up\n",
		    in->name, spec_workload_name(j->workload), in->be->name, size, chunk,
		    j->iodepth, spec_sync_name(j->sync), j->direct ? ", O_DIRECT" : "", in->runs,
		    in->warmup);
		if (j->runtime_ns)
			printf("    each trial runs for %.3f s\n", (double)j->runtime_ns / 1e9);
		if (j->rep->target)
			print_target(j->rep);
		bool copy = j->workload == WL_COPY || j->workload == WL_COPYTREE;
		if (copy && in->src.path)
			printf("    source %s%s\n", in->src.path,
			       in->src.create ? " (laid out by iotrial)" : "");
		printf("    %s %s%s\n", copy ? "copy to" : "file", in->data.path,
		       in->data.create ? " (created by iotrial)" : "");
	}
}

/* The stages: which instances run together, one after the other. */
static void print_stages(const struct plan *p)
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

/* validate's last line: the plan's estimated time, with the hints of --estimate-from or
 * --probe. Returns 0 or the exit status of what failed (after saying why). */
static int validate_estimate(const struct cli_args *args, const char *file, const char *scratch,
			     const struct plan *p)
{
	struct est_hint *hints = NULL;
	struct plan_estimate e;
	char text[1024];
	int ret = 0;

	if (args->estimate_from && dist_rank() == 0)
		ret = cli_hints_from(args->estimate_from, p, &hints);
	else if (args->probe)
		ret = cli_probe(file, args->ov, args->nov, scratch, p, 0.3, &hints);
	if ((ret = load_agree_max(ret))) {
		free(hints);
		return ret;
	}
	estimate_plan(p, hints, &e);
	cli_estimate_text(text, sizeof(text), p, &e,
			  args->estimate_from ? "--estimate-from"
			  : args->probe	      ? "--probe"
					      : NULL,
			  false);
	if (dist_rank() == 0)
		printf("estimated time: %s\n", text);
	free(hints);
	return 0;
}

int cmd_validate(int argc, char **argv)
{
	struct cli_args args = {0};
	char *scratch = load_scratch_path();
	int worst = 0, err;

	if ((err = cli_args_parse(argc, argv, &args, false)) < 0) {
		if (err == -EINVAL)
			cli_usage_hint("validate");
		cli_args_release(&args);
		free(scratch);
		return cli_exit_status(err, EXIT_USAGE);
	}
	if (args.probe && args.estimate_from) {
		fputs("iotrial: give --estimate-from or --probe, not both\n", stderr);
		cli_usage_hint("validate");
		cli_args_release(&args);
		free(scratch);
		return EXIT_USAGE;
	}
	for (int i = 0; i < args.nfiles; i++) {
		struct exp_spec s;
		struct plan p;
		int ret =
		    load_job(args.files[i], args.ov, args.nov, scratch ? scratch : ".", &s, &p);
		if (ret) {
			worst = ret > worst ? ret : worst;
			continue;
		}
		if (dist_rank() == 0) {
			print_plan(&p);
			print_stages(&p);
		}
		ret = validate_estimate(&args, args.files[i], scratch ? scratch : ".", &p);
		worst = ret > worst ? ret : worst;
		plan_release(&p);
		spec_release(&s);
	}
	free(scratch);
	cli_args_release(&args);
	return worst;
}

int cmd_backends(int argc, char **argv)
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
