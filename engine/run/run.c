/* The runner (see run.h): per trial, prepare files (create, lay out, drop from the page
 * cache), open them through the backend, run the worker loop, record the figures; at the
 * end remove every file and folder it created. */
#include "engine/run/run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/dist/dist.h"
#include "engine/run/files.h"
#include "engine/io/reclog.h"
#include "engine/stats/series.h"
#include "engine/run/trial.h"
#include "model/jobkeys.h"
#include "engine/io/verify.h"
#include "lib/path.h"
#include "lib/version.h"
#include "engine/io/worker.h"

struct runner {
	struct plan *p;
	struct results *r;
	const struct run_opts *o;
	struct diag *d;
	uint64_t t0;
	struct ledger ledger;
	int *rec_fd, *int_fd;
};

static void utc_now(char buf[32])
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int add_param(struct instance_result *ir, const struct job_spec *j, const struct job_key *k)
{
	struct param *pa = &ir->params[ir->nparams];
	const void *field = (const char *)j + k->off;

	if (!(pa->key = strdup(k->name)))
		return -ENOMEM;
	switch (k->type) {
	case KT_STRING:
		if (*(char *const *)field) {
			pa->type = PV_STR;
			pa->s = strdup(*(char *const *)field);
		}
		break;
	case KT_ENUM:
		pa->type = PV_STR;
		pa->s = strdup(job_key_enum_name(k, *(const int *)field));
		break;
	case KT_DOUBLE:
		pa->type = PV_REAL;
		pa->d = *(const double *)field;
		break;
	case KT_BOOL:
		pa->type = PV_BOOL;
		pa->b = *(const bool *)field;
		break;
	case KT_UINT:
		pa->type = PV_UINT;
		pa->u = *(const uint32_t *)field;
		break;
	case KT_SIZE:
	case KT_DURATION:
		pa->u = *(const uint64_t *)field;
		/* 0 for a key without a default means unset (no runtime, no buffer_size). */
		pa->type = pa->u == 0 && !k->def ? PV_NULL : PV_UINT;
		break;
	}
	ir->nparams++;
	return 0;
}

int run_results_init(const struct plan *p, struct results *r)
{
	const struct exp_spec *s = p->spec;

	memset(r, 0, sizeof(*r));
	r->tool_name = strdup("iotrial");
	r->tool_version = strdup(IOTRIAL_VERSION);
	r->experiment = strdup(s->experiment);
	r->description = s->description ? strdup(s->description) : NULL;
	r->job_path = strdup(s->path);
	memcpy(r->job_sha256, s->sha256, sizeof(r->job_sha256));
	r->units = s->units;
	r->seed = p->seed;
	r->confidence = s->rep.confidence;
	r->order = strdup(s->rep.order == ORDER_SEQUENTIAL ? "sequential"
			  : s->rep.order == ORDER_RANDOM   ? "random"
							   : "interleaved");
	r->order_seed = p->order_seed;
	r->nranks = (uint32_t)dist_size();
	if (s->table.columns) {
		r->table.columns = strdup(s->table.columns);
		r->table.rows = calloc(s->table.nrows, sizeof(*r->table.rows));
		for (size_t i = 0; r->table.rows && i < s->table.nrows; i++) {
			const struct table_row *t = &s->table.rows[i];
			r->table.rows[i].job = strdup(t->job ? t->job : "");
			r->table.rows[i].metric = strdup(t->metric ? t->metric : "seconds");
			r->table.rows[i].label = t->label ? strdup(t->label) : NULL;
			r->table.nrows++;
		}
	}
	if (s->noverrides && !(r->overrides = calloc(s->noverrides, sizeof(*r->overrides))))
		return -ENOMEM;
	for (size_t i = 0; i < s->noverrides; i++) {
		r->overrides[i].key = strdup(s->overrides[i].key);
		r->overrides[i].value = strdup(s->overrides[i].value);
		r->noverrides++;
	}
	env_capture(&r->env);
	r->inst = calloc(p->ninst ? p->ninst : 1, sizeof(*r->inst));
	if (!r->inst)
		return -ENOMEM;
	for (size_t i = 0; i < p->ninst; i++) {
		const struct instance *in = &p->inst[i];
		struct instance_result *ir = &r->inst[r->ninst++];

		ir->name = strdup(in->name);
		ir->job = strdup(s->jobs[in->job_index].name);
		ir->backend = strdup(in->be->name);
		ir->workload = strdup(spec_workload_name(in->job.workload));
		ir->threads = in->job.threads ? in->job.threads : 1;
		ir->background = in->job.background;
		ir->params = calloc(JK_NKEYS, sizeof(*ir->params));
		if (!ir->params)
			return -ENOMEM;
		for (size_t k = 0; k < JK_NKEYS; k++)
			if (add_param(ir, &in->job, &job_keys[k]) < 0)
				return -ENOMEM;
		for (size_t k = 0; k < ir->nparams; k++)
			for (size_t m = 0; m < in->npoint; m++)
				if (!strcmp(ir->params[k].key, job_keys[in->point[m].key].name))
					ir->params[k].matrix = (uint32_t)m + 1;
		ir->rep = (struct replication_info){
		    .outliers = in->job.rep.outliers,
		    .trim_low = in->job.rep.trim_low,
		    .trim_high = in->job.rep.trim_high,
		    .outlier_k = in->job.rep.outlier_k,
		    .target = in->job.rep.target,
		    .pilot = in->job.rep.pilot,
		    .max = in->job.rep.max,
		    .confidence = in->job.rep.confidence,
		    .error = in->job.rep.error,
		    .metric = in->job.rep.metric,
		};
		/* Load's trials are added as it accompanies each measured trial. */
		if (!in->job.background && trial_results_grow(ir, in->warmup + in->runs) < 0)
			return -ENOMEM;
		if (!(in->be->flags & BE_F_NOIO)) {
			char *dir = path_dirname(in->data.path);
			if (dir && !in->data.create)
				env_add_target(&r->env, in->data.path);
			else if (dir)
				env_add_target(&r->env, dir);
			free(dir);
		}
	}
	return 0;
}

static void progress_line(struct runner *rn, size_t k, const struct plan_trial *pt)
{
	const struct plan_unit *u = &rn->p->units[pt->unit];

	if (!rn->o->progress)
		return;
	for (size_t i = 0; i < u->nmeasured; i++) {
		const struct instance_result *ir = &rn->r->inst[u->inst[i]];
		const struct trial_result *tr = &ir->trials[pt->index];
		fprintf(rn->o->progress, "[%zu/%zu] %s %s %u: ", k + 1, rn->p->ntrials, ir->name,
			tr->warmup ? "warm-up" : "trial", pt->index);
		if (tr->failed)
			fprintf(rn->o->progress, "failed: %s\n", tr->error ? tr->error : "?");
		else
			fprintf(rn->o->progress, "%.3f s, %.1f MB/s, %.0f IO/s\n", tr->seconds,
				tr->bw_bytes / 1e6, tr->iops);
	}
	fflush(rn->o->progress);
}

/* A precision target: how many more runs each unit needs, from its instances' kept runs
 * (a unit runs as long as its neediest instance). */
static size_t more_runs(struct plan *p, struct results *r, uint32_t *more, size_t stage)
{
	size_t total = 0;

	for (size_t u = 0; u < p->nunits; u++) {
		struct plan_unit *pu = &p->units[u];
		double want = 0;

		more[u] = 0;
		if (pu->stage != stage)
			continue;
		for (size_t k = 0; k < pu->nmeasured; k++) {
			struct instance *in = &p->inst[pu->inst[k]];
			struct instance_result *ir = &r->inst[pu->inst[k]];
			double need, w;
			if (!in->job.rep.target)
				continue;
			results_summarize_one(ir);
			need = ir->summary.required.n;
			if (isfinite(need) && ir->summary.kept >= need) {
				ir->summary.stopped_by = "precision";
				continue;
			}
			if (pu->runs >= pu->max_runs) {
				ir->summary.stopped_by = "max";
				continue;
			}
			ir->summary.stopped_by = NULL;
			/* Run up to the estimate (at least one more), then look again. */
			w = isfinite(need) ? ceil(need) - ir->summary.kept : 1;
			want = w > want ? w : want < 1 ? 1 : want;
		}
		if (want > pu->max_runs - pu->runs)
			want = pu->max_runs - pu->runs;
		more[u] = (uint32_t)want;
		total += more[u];
	}
	return total;
}

/* more_runs as rank 0 decides it, on every rank: the other ranks' results are theirs
 * alone, and every rank must run the same trials. */
static size_t more_round(struct plan *p, struct results *r, uint32_t *more, size_t stage)
{
	size_t total = more_runs(p, r, more, stage);

	if (dist_size() == 1)
		return total;
	if (dist_bcast(more, p->nunits * sizeof(*more)) < 0)
		dist_abort(1, "cannot agree on the next round of runs");
	total = 0;
	for (size_t u = 0; u < p->nunits; u++)
		total += more[u];
	return total;
}

/* The record and interval logs of every instance that asks, each with its header; on the
 * other ranks of a distributed run, a spool for each (rank 0 gathers them: reclog.h). */
static int open_logs(struct runner *rn, const char *dir)
{
	bool spool = dist_rank() != 0;
	int ret = -1;

	/* None open yet: a failure part way leaves nothing for run_plan to close by mistake. */
	for (size_t i = 0; i < rn->p->ninst; i++)
		rn->rec_fd[i] = rn->int_fd[i] = -1;
	for (size_t i = 0; i < rn->p->ninst; i++) {
		const struct job_spec *j = &rn->p->inst[i].job;
		int *fds[2] = {&rn->rec_fd[i], &rn->int_fd[i]};
		bool want[2] = {j->log_records, j->log_interval_ns > 0};
		const char *suffix[2] = {"csv", "intervals.csv"};
		const char *header[2] = {RECLOG_HEADER, INTLOG_HEADER};

		for (int k = 0; k < 2; k++) {
			char *path = NULL, *name = strdup(rn->r->inst[i].name);
			if (want[k] && spool && (ret = reclog_spool_open()) < 0) {
				/* Only rank 0 prints the run's messages: this one is ours alone. */
				fprintf(
				    stderr,
				    "iotrial: rank %d (%s): cannot create a spool file for the record logs in %s: %s\n",
				    dist_rank(), dist_host(),
				    getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR")
									  : "/tmp",
				    strerror(-ret));
				free(name);
				return ret;
			}
			if (want[k] && spool)
				*fds[k] = ret;
			if (!want[k] || spool || !dir || !name) {
				free(name);
				continue;
			}
			for (char *c = name; *c; c++)
				if (*c == '/')
					*c = '_';
			if (asprintf(&path, "%s/records", dir) < 0 ||
			    (mkdir(path, 0755) < 0 && errno != EEXIST)) {
				diag_add(rn->d, NULL, "cannot create '%s': %s", path ? path : dir,
					 strerror(errno));
				free(path);
				free(name);
				return -errno;
			}
			free(path);
			if (asprintf(&path, "%s/records/%s.%s", dir, name, suffix[k]) < 0)
				return -ENOMEM;
			*fds[k] =
			    open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
			if (*fds[k] < 0 || write(*fds[k], header[k], strlen(header[k])) !=
					       (ssize_t)strlen(header[k])) {
				diag_add(rn->d, NULL, "cannot write the record log '%s': %s", path,
					 strerror(errno));
				free(path);
				free(name);
				return -errno;
			}
			if (k == 0)
				rn->r->inst[i].records = true;
			free(path);
			free(name);
		}
	}
	return 0;
}

static void compare_all(const struct plan *p, struct results *r)
{
	if (!p->ncmp || !(r->cmp = calloc(p->ncmp, sizeof(*r->cmp))))
		return;
	for (size_t i = 0; i < p->ncmp; i++) {
		const struct plan_compare *pc = &p->cmp[i];
		struct comparison *c = &r->cmp[r->ncmp++];
		c->a = strdup(r->inst[pc->a].name);
		c->b = strdup(r->inst[pc->b].name);
		c->a_label = strdup(pc->c->a.text ? pc->c->a.text : "");
		c->b_label = strdup(pc->c->b.text ? pc->c->b.text : "");
		c->metric = strdup(pc->c->metric ? pc->c->metric : r->inst[pc->a].summary.metric);
		c->confidence = pc->c->confidence;
		results_compare(&r->inst[pc->a], &r->inst[pc->b], pc->c->paired, c);
	}
}

int run_plan(struct plan *p, struct results *r, const struct run_opts *o, struct diag *d)
{
	struct runner rn = {p, r, o, d, worker_now_ns(), {0}, NULL, NULL};
	uint32_t *more = calloc(p->nunits ? p->nunits : 1, sizeof(*more));
	size_t failed = 0, k = 0;
	uint64_t last_checkpoint = worker_now_ns();
	bool stopped = false, ok;
	struct trial_env env;
	bool dist = dist_size() > 1;

	rn.rec_fd = malloc((p->ninst + 1) * sizeof(int));
	rn.int_fd = malloc((p->ninst + 1) * sizeof(int));
	env = (struct trial_env){p, r, &rn.ledger, o->stop, rn.t0, rn.rec_fd, rn.int_fd, d, 0};
	files_stop = o->stop;
	utc_now(r->started_at);
	/* Every rank goes on, or none does. */
	ok = more && rn.rec_fd && rn.int_fd && ledger_init(&rn.ledger, p->scratch) == 0 &&
	     open_logs(&rn, o->dir) == 0;
	if (dist_agree(ok ? 0 : DIST_SETUP)) {
		if (ok)
			diag_add(
			    d, NULL,
			    "stopping the run: another rank could not prepare it (its message says why); no trial ran");
		goto out;
	}
	/* The folders named in the job file, held from now on: a symlink swapped in for one
	 * later is never followed. */
	files_hold(&rn.ledger, p);
	/* In a distributed run every rank runs the same trials: whether to stop is agreed
	 * (trial_run), how many more runs a precision target needs is rank 0's decision. */
	for (k = 0; dist ? !(env.agreed & DIST_STOP) : !*o->stop; k++) {
		/* Where a stage's trials end, a precision target may ask for more of them. */
		if (k > 0 && (k == p->ntrials || p->units[p->order[k].unit].stage !=
						     p->units[p->order[k - 1].unit].stage)) {
			size_t st = p->units[p->order[k - 1].unit].stage;
			if (more_round(p, r, more, st) > 0 && plan_add_round(p, more, st, k) < 0)
				break;
		}
		if (k == p->ntrials)
			break;
		const struct plan_trial *pt = &p->order[k];
		const struct plan_unit *u = &p->units[pt->unit];
		if (trial_run(&env, pt) < 0) {
			for (size_t i = 0; i < u->nmeasured; i++) {
				const struct trial_result *tr =
				    &r->inst[u->inst[i]].trials[pt->index];
				if (tr->failed)
					diag_add(d, NULL, "job '%s' trial %u: %s",
						 r->inst[u->inst[i]].name, pt->index,
						 tr->error ? tr->error : "failed");
			}
			failed++;
		}
		progress_line(&rn, k, pt);
		if (dist && (env.agreed & DIST_SETUP)) {
			diag_add(
			    d, NULL,
			    "stopping the run: a rank could not set up trial %u of job '%s' (a distributed run stops rather than measure without it)",
			    pt->index, r->inst[u->inst[0]].name);
			stopped = true;
			break;
		}
		if (failed && p->spec->stop_on_error) {
			diag_add(d, NULL, "stopping the run after a failed trial (on_error: stop)");
			stopped = true;
			break;
		}
		if (o->checkpoint && worker_now_ns() - last_checkpoint > 5000000000ull) {
			/* Hours of measurement must survive a kill -9 too: write what we have. */
			results_summarize(r);
			utc_now(r->finished_at);
			o->checkpoint(r, o->checkpoint_arg);
			last_checkpoint = worker_now_ns();
		}
	}
out:
	for (size_t i = 0; rn.rec_fd && rn.int_fd && i < p->ninst; i++) {
		if (rn.rec_fd[i] >= 0)
			close(rn.rec_fd[i]);
		if (rn.int_fd[i] >= 0)
			close(rn.int_fd[i]);
	}
	free(rn.rec_fd);
	free(rn.int_fd);
	free(more);
	ledger_finish(&rn.ledger, d);
	utc_now(r->finished_at);
	{
		struct rusage ru;
		if (getrusage(RUSAGE_SELF, &ru) == 0)
			r->max_rss_bytes = (uint64_t)ru.ru_maxrss * 1024;
	}
	r->complete = k == p->ntrials && !*o->stop && !(env.agreed & DIST_STOP) && !stopped;
	/* The logs are complete and closed: their series and change points, once. */
	for (size_t i = 0; o->dir && dist_rank() == 0 && i < p->ninst; i++)
		series_build(&r->inst[i], o->dir, p->inst[i].job.log_records,
			     p->inst[i].job.log_interval_ns > 0, d);
	results_summarize(r);
	for (size_t i = 0; i < r->ninst; i++)
		if (p->inst[i].job.rep.target && !r->inst[i].summary.stopped_by)
			r->inst[i].summary.stopped_by = r->complete ? "max" : "interrupted";
	compare_all(p, r);
	return failed || !r->complete ? 1 : 0;
}
