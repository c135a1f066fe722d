/* The runner (see run.h): per trial, prepare files (create, lay out, drop from the page
 * cache), open them through the backend, run the worker loop, record the figures; at the
 * end remove every file and folder it created. */
#include "engine/run/run.h"
#include "engine/run/run_internal.h"

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
#include "engine/run/hooks.h"
#include "engine/run/logcut.h"
#include "engine/run/run_events.h"
#include "engine/run/run_results.h"
#include "engine/io/reclog.h"
#include "engine/stats/series.h"
#include "engine/run/trial.h"
#include "lib/dirfile.h"
#include "lib/stats.h"
#include "engine/io/worker.h"
#include "model/logname.h"
#include "model/names.h"

struct runner {
	struct plan *p;
	struct results *r;
	const struct run_opts *o;
	struct diag *d;
	uint64_t t0;
	struct ledger ledger;
	int *rec_fd, *int_fd;
	struct trial_env env;
	uint32_t *more; /* per unit: the runs a precision target still asks for */
	size_t k;	/* the trials run so far, in p->order */
	size_t failed;	/* how many of them failed */
	bool stopped;	/* the run stopped before its end (on_error: stop, a rank's set-up) */
	int err;	/* the run could not go on (-errno); 0: none */
	uint64_t last_checkpoint;
	struct hook_ctx hk;
	size_t open_stage;   /* the stage whose prepare hooks ran; SIZE_MAX: none */
	size_t hooks_failed; /* cleanups that failed: the run's status, not a trial's */
	struct run_events ev;
};

static void utc_now(char buf[32])
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* target.estimate: pilot. After the pilot, the needed runs once, from the pilot's runs
 * before the outlier policy (as the copy experiment estimated 186 from an untrimmed pilot
 * of 20), rounded up to a multiple of target.round (186 -> 200): the runs still missing. */
static double pilot_more(struct instance_result *ir, uint32_t max_runs)
{
	const struct instance_summary *s = &ir->summary;
	double goal;

	if (isnan(ir->rep.pilot_n))
		ir->rep.pilot_n = ceil(stat_required_runs(s->before.stddev, s->before.mean,
							  ir->rep.confidence, ir->rep.error));
	goal =
	    isfinite(ir->rep.pilot_n) ? ceil(ir->rep.pilot_n / ir->rep.round) * ir->rep.round : 0;
	goal = goal > max_runs ? max_runs : goal;
	if (s->runs >= goal) {
		ir->summary.stopped_by = stop_reason_names[s->runs >= max_runs && goal == max_runs
							       ? STOP_MAX
							       : STOP_PILOT_ESTIMATE];
		return 0;
	}
	ir->summary.stopped_by = NULL;
	return goal - s->runs;
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
			if (!in->job.rep->target)
				continue;
			results_summarize_one(ir);
			if (in->job.rep->estimate_pilot) {
				w = pilot_more(ir, pu->max_runs);
				want = w > want ? w : want;
				continue;
			}
			need = ir->summary.required.n;
			if (isfinite(need) && ir->summary.kept >= need) {
				ir->summary.stopped_by = stop_reason_names[STOP_PRECISION];
				continue;
			}
			if (pu->runs >= pu->max_runs) {
				ir->summary.stopped_by = stop_reason_names[STOP_MAX];
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
size_t run_more_round(struct plan *p, struct results *r, uint32_t *more, size_t stage)
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

/* A resumed run's log `fd` (records/FILE) cut back to the trials it keeps; the kept trials
 * that have no line left in it get their log_error, and one line says so: the run's exit
 * status is then 1 (docs/cli.md, Resuming). Returns as logcut_keep. */
static int resume_cut(struct runner *rn, struct instance_result *ir, int fd, int k,
		      const char *file)
{
	uint64_t *ios = calloc(ir->ntrials ? ir->ntrials : 1, sizeof(*ios));
	int cut, lost = 0;

	if (!ios)
		return -ENOMEM;
	cut = logcut_keep(fd, ir, k ? LOGCUT_INTERVALS : LOGCUT_RECORDS, ios);
	if (cut >= 0 && (lost = logcut_missing(ir, ios)) > 0)
		diag_add(
		    rn->d, NULL,
		    "job '%s': the log '%s/records/%s' lacks the lines of %d kept trial(s): it was cut or removed before the resumption (their log_error says so)",
		    ir->name, rn->o->dir, file, lost);
	free(ios);
	return lost < 0 ? lost : cut;
}

/* Rank 0's log of kind `k` (0 records, 1 intervals) for instance `ir` in records/ of the
 * result folder, created with its header; a resumed run's cut back to the trials it keeps
 * (logcut.h). Returns the fd, or -errno after a message in rn->d. */
static int open_log(struct runner *rn, struct instance_result *ir, int k)
{
	static const char *const header[2] = {RECLOG_HEADER, INTLOG_HEADER};
	const char *dir = rn->o->dir;
	size_t hlen = strlen(header[k]);
	int mode = rn->o->resumed ? O_RDWR : O_RDWR | O_TRUNC; /* read by logcut_partial */
	char *file = NULL;
	int fd = -1, dfd, err, cut = 1;
	bool kind;

	/* records/ and the logs in it by the held folder, never followed as symlinks: one
	 * planted there (a resumed run's folder) would have the log written, and cut,
	 * somewhere else. And a FIFO planted there must not block the open or the cut. */
	if ((dfd = dirfile_subdir(rn->o->dir_fd, "records")) < 0) {
		diag_add(rn->d, NULL, "cannot create '%s/records': %s%s", dir, strerror(-dfd),
			 dfd == -ELOOP || dfd == -ENOTDIR
			     ? " (a symbolic link or a file is in its place)"
			     : "");
		return dfd;
	}
	if (!(file = logname_records(ir->name, k))) {
		close(dfd);
		return -ENOMEM;
	}
	errno = 0;
	fd = dirfile_open(dfd, file, mode | O_CREAT | O_APPEND, 0644);
	close(dfd);
	/* Why the open refused it, when it did: not what a cut or a write of the log says. */
	kind = fd == -EINVAL || fd == -EMLINK;
	if (fd < 0)
		errno = -fd;
	if (fd >= 0 && rn->o->resumed && (cut = resume_cut(rn, ir, fd, k, file)) < 0)
		errno = -cut;
	if (fd < 0 || cut < 0 || (cut == 1 && write(fd, header[k], hlen) != (ssize_t)hlen)) {
		err = errno ? errno : EIO;
		diag_add(
		    rn->d, NULL, "cannot write the record log '%s/records/%s': %s%s", dir, file,
		    strerror(err),
		    err == ELOOP ? " (it is a symbolic link, which iotrial does not follow)"
		    : kind
			? " (not a regular file with one link: a FIFO, a device or a hard link, which iotrial does not open)"
			: "");
		if (fd >= 0)
			close(fd);
		free(file);
		return -err;
	}
	free(file);
	return fd;
}

/* A spool file for a log on a rank other than 0 (rank 0 gathers them: reclog.h). Returns
 * the fd or -errno, after saying why on stderr: only rank 0 prints the run's messages. */
static int open_spool(void)
{
	const char *tmp = getenv("TMPDIR");
	int fd = reclog_spool_open();

	if (fd < 0)
		fprintf(
		    stderr,
		    "iotrial: rank %d (%s): cannot create a spool file for the record logs in %s: %s\n",
		    dist_rank(), dist_host(), tmp && *tmp ? tmp : "/tmp", strerror(-fd));
	return fd;
}

/* The record and interval logs of every instance that asks, each with its header; on the
 * other ranks of a distributed run, a spool for each. 0 or -errno. */
static int open_logs(struct runner *rn)
{
	const char *dir = rn->o->dir;
	bool spool = dist_rank() != 0;

	for (size_t i = 0; i < rn->p->ninst; i++) {
		const struct job_spec *j = &rn->p->inst[i].job;
		int *fds[2] = {&rn->rec_fd[i], &rn->int_fd[i]};
		bool want[2] = {j->log_records, j->log_interval_ns > 0};

		for (int k = 0; k < 2; k++) {
			if (!want[k] || (!spool && !dir))
				continue;
			*fds[k] = spool ? open_spool() : open_log(rn, &rn->r->inst[i], k);
			if (*fds[k] < 0)
				return *fds[k];
			if (k == 0 && !spool)
				rn->r->inst[i].records = true;
		}
	}
	return 0;
}

/* Everything the run needs before its first trial: the log descriptor arrays, the ledger,
 * the logs. 0 or -errno. */
static int run_open(struct runner *rn)
{
	size_t n = rn->p->ninst + 1;
	int ret;

	rn->more = calloc(rn->p->nunits ? rn->p->nunits : 1, sizeof(*rn->more));
	rn->rec_fd = malloc(n * sizeof(int));
	rn->int_fd = malloc(n * sizeof(int));
	if (!rn->more || !rn->rec_fd || !rn->int_fd)
		return -ENOMEM;
	/* None open yet: a failure before open_logs leaves nothing for run_close to close. */
	for (size_t i = 0; i < rn->p->ninst; i++)
		rn->rec_fd[i] = rn->int_fd[i] = -1;
	if ((ret = ledger_init(&rn->ledger, rn->p->scratch)) < 0)
		return ret;
	return open_logs(rn);
}

/* Trial k failed: one line per measured instance that failed. */
static void say_failed(struct runner *rn, const struct plan_trial *pt)
{
	const struct plan_unit *u = &rn->p->units[pt->unit];

	for (size_t i = 0; i < u->nmeasured; i++) {
		const struct instance_result *ir = &rn->r->inst[u->inst[i]];
		const struct trial_result *tr = &ir->trials[pt->index];
		if (tr->failed)
			diag_add(rn->d, NULL, "job '%s' trial %u: %s", ir->name, pt->index,
				 tr->error ? tr->error : "failed");
	}
}

/* After a trial: does the run stop here (a rank could not set it up; on_error: stop)? */
static bool stop_after(struct runner *rn, const struct plan_trial *pt)
{
	const struct plan_unit *u = &rn->p->units[pt->unit];

	if (dist_size() > 1 && (rn->env.agreed & DIST_SETUP)) {
		diag_add(
		    rn->d, NULL,
		    "stopping the run: a rank could not set up trial %u of job '%s' (a distributed run stops rather than measure without it)",
		    pt->index, rn->r->inst[u->inst[0]].name);
		return true;
	}
	/* Threads or memory ran out: every later trial would fail the same way. */
	if (rn->env.no_worker)
		return true;
	if (rn->failed && rn->p->spec->stop_on_error) {
		diag_add(rn->d, NULL, "stopping the run after a failed trial (on_error: stop)");
		return true;
	}
	return false;
}

/* Hours of measurement must survive a kill -9 too: every few seconds, write what we have. */
static void checkpoint(struct runner *rn, bool now)
{
	const struct run_opts *o = rn->o;

	if (!o->checkpoint || (!now && worker_now_ns() - rn->last_checkpoint < o->checkpoint_ns))
		return;
	results_summarize(rn->r);
	utc_now(rn->r->finished_at);
	o->checkpoint(rn->r, o->checkpoint_arg);
	rn->last_checkpoint = worker_now_ns();
}

/* A prepare hook's outcome, the same on every rank: true when it failed on any. */
static bool hooks_agree(int ret)
{
	if (dist_size() == 1)
		return ret < 0;
	return dist_agree(ret < 0 ? DIST_SETUP : 0) & DIST_SETUP;
}

/* A stage's hooks: its cleanups after its last trial, its prepares before its first,
 * outside every trial. false when a prepare failed: the run stops. */
static bool stage_hooks(struct runner *rn, size_t k)
{
	struct plan *p = rn->p;

	if (k > 0 && (k == p->ntrials || p->units[p->order[k].unit].stage != rn->open_stage)) {
		rn->hooks_failed += hook_stage(&rn->hk, p, rn->open_stage, false) < 0;
		rn->open_stage = SIZE_MAX;
	}
	if (k == p->ntrials || rn->open_stage != SIZE_MAX)
		return true;
	rn->open_stage = p->units[p->order[k].unit].stage;
	if (!hooks_agree(hook_stage(&rn->hk, p, rn->open_stage, true)))
		return true;
	if (!*rn->o->stop)
		diag_add(rn->d, NULL, "stopping the run: a prepare hook failed");
	rn->failed++;
	rn->stopped = true;
	return false;
}

/* Trial `pt` at position k of the order ran to its end, unless an interrupt cut it short:
 * its place, on each instance's trial (a load's latest), is what a resumed run keeps. */
static void mark_done(struct runner *rn, size_t k, const struct plan_trial *pt)
{
	const struct plan_unit *u = &rn->p->units[pt->unit];

	if (*rn->o->stop || (rn->env.agreed & DIST_STOP))
		return;
	for (size_t i = 0; i < u->n; i++) {
		struct instance_result *ir = &rn->r->inst[u->inst[i]];
		size_t t = i < u->nmeasured ? pt->index : ir->ntrials - 1;
		if (t < ir->ntrials)
			ir->trials[t].seq = k + 1;
	}
}

/* The trials in order, until the last, a stop, or the user's interrupt. In a distributed
 * run every rank runs the same trials: whether to stop is agreed (trial_run), how many more
 * runs a precision target needs is rank 0's decision. */
static void run_trials(struct runner *rn)
{
	struct plan *p = rn->p;
	bool dist = dist_size() > 1;

	for (rn->k = rn->o->resume_done; dist ? !(rn->env.agreed & DIST_STOP) : !*rn->o->stop;
	     rn->k++) {
		size_t k = rn->k;
		/* Where a stage's trials end, a precision target may ask for more of them. */
		if (k > 0 && (k == p->ntrials || p->units[p->order[k].unit].stage !=
						     p->units[p->order[k - 1].unit].stage)) {
			size_t st = p->units[p->order[k - 1].unit].stage;
			if (run_more_round(p, rn->r, rn->more, st) > 0 &&
			    (rn->err = (int)plan_add_round(p, rn->more, st, k)) < 0) {
				diag_add(rn->d, NULL, "cannot plan more runs: %s",
					 strerror(-rn->err));
				break;
			}
			rn->err = 0;
		}
		if (!stage_hooks(rn, k) || k == p->ntrials)
			break;
		run_events_trial_start(&rn->ev, k, &p->order[k]);
		if (trial_run(&rn->env, &p->order[k]) < 0) {
			say_failed(rn, &p->order[k]);
			rn->failed++;
		}
		mark_done(rn, k, &p->order[k]);
		run_events_trial_end(&rn->ev, k, &p->order[k]);
		if ((rn->stopped = stop_after(rn, &p->order[k])))
			break;
		checkpoint(rn, false);
	}
}

/* Release what run_open took but the logs, remove what the run created. */
static void run_close(struct runner *rn)
{
	areas_release(&rn->env.areas);
	free(rn->more);
	ledger_finish(&rn->ledger, rn->d);
}

/* Close the logs, once run_conclude has read them. */
static void run_close_logs(struct runner *rn)
{
	for (size_t i = 0; rn->rec_fd && rn->int_fd && i < rn->p->ninst; i++) {
		if (rn->rec_fd[i] >= 0)
			close(rn->rec_fd[i]);
		if (rn->int_fd[i] >= 0)
			close(rn->int_fd[i]);
	}
	free(rn->rec_fd);
	free(rn->int_fd);
}

/* The results' last word: end time, peak memory, complete or not, series and change
 * points from the logs, summaries, why each precision target stopped, comparisons. */
static int run_conclude(struct runner *rn)
{
	struct plan *p = rn->p;
	struct results *r = rn->r;
	struct rusage ru;

	utc_now(r->finished_at);
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		r->max_rss_bytes = (uint64_t)ru.ru_maxrss * 1024;
	r->complete =
	    rn->k == p->ntrials && !*rn->o->stop && !(rn->env.agreed & DIST_STOP) && !rn->stopped;
	/* The logs are complete: their series and change points, once, read through the
	 * descriptors the run wrote them by (a name swapped meanwhile is not read). */
	for (size_t i = 0; rn->o->dir && rn->rec_fd && dist_rank() == 0 && i < p->ninst; i++)
		series_build(&r->inst[i],
			     (struct series_logs){rn->o->dir, rn->rec_fd[i], rn->int_fd[i]},
			     p->inst[i].job.log_records, p->inst[i].job.log_interval_ns > 0, rn->d);
	results_summarize(r);
	for (size_t i = 0; i < r->ninst; i++)
		if (p->inst[i].job.rep->target && !r->inst[i].summary.stopped_by)
			r->inst[i].summary.stopped_by =
			    stop_reason_names[r->complete ? STOP_MAX : STOP_INTERRUPTED];
	return run_results_compare(p, r);
}

int run_plan(struct plan *p, struct results *r, const struct run_opts *o, struct diag *d)
{
	struct runner rn = {.p = p, .r = r, .o = o, .d = d, .t0 = worker_now_ns()};
	int ret;

	rn.last_checkpoint = rn.t0;
	rn.hk = (struct hook_ctx){o->dir, o->dir ? o->dir_fd : -1, o->stop, d};
	rn.open_stage = SIZE_MAX;
	/* Resumed: trials go on from the last one's end, whatever the time it was down; the
	 * subtraction wraps after a reboot (a smaller clock), and so does every "now - t0". */
	if (o->resumed)
		rn.t0 -= o->resume_clock_ns;
	files_stop = o->stop;
	if (!o->resumed)
		utc_now(r->started_at);
	ret = run_open(&rn);
	rn.ev = (struct run_events){.obs = &o->observers, .p = p, .r = r, .t0 = rn.t0};
	rn.env = (struct trial_env){
	    .p = p,
	    .r = r,
	    .ledger = &rn.ledger,
	    .stop = o->stop,
	    .t0 = rn.t0,
	    .rec_fd = rn.rec_fd,
	    .int_fd = rn.int_fd,
	    .d = d,
	};
	run_events_hook(&rn.ev, &rn.env);
	run_events_start(&rn.ev);
	/* Every rank goes on, or none does. */
	if (dist_agree(ret < 0 ? DIST_SETUP : 0)) {
		if (ret == 0)
			diag_add(
			    d, NULL,
			    "stopping the run: another rank could not prepare it (its message says why); no trial ran");
		else if (!d->n)
			diag_add(d, NULL, "cannot prepare the run: %s", strerror(-ret));
		ret = ret < 0 ? ret : -EIO;
	} else {
		/* The folders named in the job file, held from now on: a symlink swapped in
		 * for one later is never followed. */
		files_hold(&rn.ledger, p);
		/* A resumption is on record from its start, even if it is killed again before
		 * its first trial ends. */
		checkpoint(&rn, o->resumed);
		if (p->spec->prepare &&
		    hooks_agree(hook_run(&rn.hk, NULL, "prepare", p->spec->prepare))) {
			diag_add(
			    d, NULL,
			    "stopping the run: the experiment's prepare hook failed; no trial ran");
			rn.failed++;
		} else {
			run_trials(&rn);
		}
		if (rn.open_stage != SIZE_MAX) /* stopped within the stage */
			rn.hooks_failed += hook_stage(&rn.hk, p, rn.open_stage, false) < 0;
		if (p->spec->cleanup)
			rn.hooks_failed += hook_run(&rn.hk, NULL, "cleanup", p->spec->cleanup) < 0;
	}
	run_close(&rn);
	if (ret == 0)
		ret = rn.err;
	if (run_conclude(&rn) < 0 && ret == 0) {
		diag_add(d, NULL, "cannot compare the jobs: out of memory");
		ret = -ENOMEM;
	}
	run_close_logs(&rn);
	if (ret == 0 && (rn.failed || rn.stopped || rn.hooks_failed || rn.env.logs_cut))
		ret = -EIO;
	if (ret == 0 && !r->complete)
		ret = -EINTR;
	if (rn.env.ivl_dropped)
		diag_add(
		    d, NULL,
		    "%llu interval(s) closed faster than they could be streamed: not in the event stream (the interval logs have them)",
		    (unsigned long long)rn.env.ivl_dropped);
	/* An interrupt ends the run as such, whatever the trial it cut short says (the exit
	 * status says so too: 130). */
	run_events_end(&rn.ev, *o->stop || (rn.env.agreed & DIST_STOP) ? -EINTR : ret);
	return ret;
}
