/* iotrial run (see run_cmd.h): each job file is loaded, planned and checked, its result
 * folder taken, the runner started with the command line's observers (progress, --log, the
 * event stream), and its results written; a queue of job files runs them in turn (cli/batch.c
 * keeps its state), and --resume goes on with an interrupted run from its checkpoint. */
#include "cli/run_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/batch.h"
#include "cli/cli.h"
#include "cli/estimate.h"
#include "cli/load.h"
#include "cli/outdir.h"
#include "cli/progress.h"
#include "cli/resume.h"
#include "cli/room.h"
#include "cli/runlog.h"
#include "cli/stream.h"
#include "engine/dist/dist.h"
#include "engine/io/fastclock.h"
#include "engine/run/resume.h"
#include "engine/run/run.h"
#include "engine/run/run_results.h"
#include "engine/stats/changepoint.h"
#include "engine/stats/series.h"
#include "reporters/reporter.h"

/* Take the folder this job file's results go into (rank 0 only): with one job file, the -o
 * folder itself; else a new <experiment>-<UTC time> folder under -o DIR or results/. */
static int result_folder(const struct cli_args *args, const struct exp_spec *s, struct outdir *od)
{
	char stamp[32], *base = NULL;
	time_t t = time(NULL);
	struct tm tm;
	int ret;

	if (cli_stream_only(args->outdir))
		return 0; /* -o -: no folder, stdout has it all */
	if (args->outdir && args->nfiles == 1)
		return outdir_claim(od, args->outdir, args->force);
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	if (asprintf(&base, "%s-%s", s->experiment, stamp) < 0) {
		fprintf(stderr, "iotrial: out of memory\n");
		return -ENOMEM;
	}
	ret = outdir_new(od, args->outdir ? args->outdir : "results", base);
	free(base);
	return ret;
}

/* --resume: the checkpoint's trials into `r` (fresh from run_results_init), matched to the
 * plan; where the run goes on into `ro`, the kept trials that failed into *failed. Returns 0 or
 * an exit status, after one line. */
static int resume_into(const struct cli_args *args, struct plan *p, struct results *from,
		       struct results *r, struct run_opts *ro, size_t *failed)
{
	struct resume_point at;
	struct diag d = {0};
	time_t t = time(NULL);
	char now[32];
	struct tm tm;
	int ret;

	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	ret = run_resume(p, r, from, now, &at, &d);
	if (ret == -EINVAL)
		fprintf(stderr, "iotrial: cannot resume from '%s': %s\n", args->resume,
			d.n ? d.msgs[0] : "its checkpoint does not fit the plan");
	else if (ret < 0)
		fputs("iotrial: out of memory\n", stderr);
	diag_release(&d);
	if (ret < 0)
		return ret == -EINVAL ? EXIT_USAGE : EXIT_RUN;
	ro->resumed = true;
	ro->resume_done = at.done;
	ro->resume_clock_ns = at.clock_ns;
	*failed = at.failed;
	return 0;
}

/* Load job file `file` into `s` and `p`; with --resume, first read the checkpoint into `from`
 * (held open as *ckpt_fd), plan with its seed, and check that the job file and the overrides
 * are its. Returns 0 or an exit status (then nothing is left to release). */
static int load_one(const char *file, const struct cli_args *args, const char *scratch,
		    struct results *from, int *ckpt_fd, struct exp_spec *s, struct plan *p)
{
	int ret;

	memset(from, 0, sizeof(*from));
	if (!args->resume)
		return load_job(file, args->ov, args->nov, scratch, s, p);
	if ((ret = cli_resume_load(args->resume, from, ckpt_fd)))
		return ret;
	if ((ret = load_job_seeded(file, args->ov, args->nov, scratch, from->seed, s, p)) == 0 &&
	    (ret = cli_resume_match(args->resume, from, s))) {
		plan_release(p);
		spec_release(s);
	}
	if (ret) {
		results_release(from);
		close(*ckpt_fd);
		*ckpt_fd = -1;
	}
	return ret;
}

/* One job file's run, from its plan to its results: what the steps of run_one share. */
struct file_run {
	struct cli_args *args;
	bool lead; /* rank 0: it writes the results and prints; the other ranks measure quietly */
	struct exp_spec s;
	struct plan p;
	struct results r, from; /* the results; with --resume, its checkpoint's first */
	struct diag d;
	struct run_opts ro;
	struct outdir own, *od; /* a folder of its own; the one it writes (own, a batch's, none) */
	struct cli_progress pg;
	/* Where the checkpoints go, and whether one failed. */
	struct cli_checkpoints ckpt;
	struct est_hint *hints; /* --estimate-from: what each instance's trials take */
	size_t failed;		/* --resume: the kept trials that failed */
	int ckpt_fd;		/* --resume: the checkpoint read (cli_resume_load) */
};

/* Before anything is taken: the hints of --estimate-from, the machine's checks of the plan,
 * the results to fill. Returns 0 or an exit status, the same on every rank. */
static int check_plan(struct file_run *fr)
{
	int ret = 0;

	/* A results file that cannot be read is a usage error: nothing has run yet. */
	if (fr->lead && fr->args->estimate_from)
		ret = cli_hints_from(fr->args->estimate_from, &fr->p, &fr->hints);
	if ((ret = load_agree_max(ret)))
		return ret;
	if (load_settle(run_preflight(&fr->p, &fr->d) < 0 ? EXIT_RUN : 0, &fr->d))
		return EXIT_RUN;
	if (run_results_init(&fr->p, &fr->r) < 0) {
		fprintf(stderr, "iotrial: out of memory\n");
		return EXIT_RUN;
	}
	return 0;
}

/* What a plan's result files take on disk at most. Measured with every format written
 * (json, csv, text, html), 20-point matrices on the null and io_uring backends: 11 KiB an
 * instance, 2.6 KiB a trial, 0.8 KiB more a trial for each worker's row; taken with room. */
#define RESULTS_BASE_BYTES     (64u << 10)
#define RESULTS_INSTANCE_BYTES (16u << 10)
#define RESULTS_TRIAL_BYTES    (4u << 10)
#define RESULTS_WORKER_BYTES   (1u << 10)
/* A logging job's series (engine/stats/series.h) are most of its results: measured, 110
 * bytes a point in results.json and 15 in report.html; a change point, 190 in results.json,
 * 200 in report.html and 100 in summary.txt; taken with room. */
#define RESULTS_POINT_BYTES 160u
#define RESULTS_CP_BYTES    640u

/* The points and change points of one kind of series of an instance of `runs` measured
 * trials: as many points a trial as series_build gives, the most when all of them ran. */
static uint64_t series_bytes(uint64_t runs)
{
	uint64_t per = runs ? SERIES_BUDGET / runs : SERIES_POINTS;

	per = per > SERIES_POINTS	? SERIES_POINTS
	      : per < SERIES_MIN_POINTS ? SERIES_MIN_POINTS
					: per;
	return runs * (per * RESULTS_POINT_BYTES + CP_MAX * RESULTS_CP_BYTES);
}

/* With log_histogram, a trial's latency buckets are kept twice: its lat_hist, and in
 * trial_hists a histogram of each kind (all; read and write of a mixed workload; slat and
 * clat with submit_latency). Measured, 45 to 80 bytes a bucket, a few hundred buckets (64
 * for each doubling of the latency between the fastest I/O and the slowest); taken with
 * room: 512 buckets of 96 bytes. */
#define RESULTS_HIST_BYTES (48u << 10)

static uint64_t hists_bytes(const struct job_spec *j)
{
	if (!j->log_histogram)
		return 0;
	return (2 + 2 * (uint64_t)spec_workload_mixed(j->workload) +
		2 * (uint64_t)j->submit_latency) *
	       RESULTS_HIST_BYTES;
}

/* A comparison (compare:): an object in results.json, a sentence in summary.txt, a figure
 * with a mark for each trial of both sides in report.html. Measured, 4.6 KB with 10 trials a
 * side (80 bytes a mark); taken with room. */
#define RESULTS_COMPARE_BYTES	     (4u << 10)
#define RESULTS_COMPARED_TRIAL_BYTES 128u

static uint64_t results_bytes(const struct plan *p)
{
	uint64_t bytes = RESULTS_BASE_BYTES;

	for (size_t k = 0; k < p->ncmp; k++) {
		uint64_t marks =
		    (uint64_t)p->inst[p->cmp[k].a].max_runs + p->inst[p->cmp[k].b].max_runs;

		bytes += RESULTS_COMPARE_BYTES + marks * RESULTS_COMPARED_TRIAL_BYTES;
	}

	for (size_t i = 0; i < p->ninst; i++) {
		const struct instance *in = &p->inst[i];
		uint64_t workers = (uint64_t)in->job.threads * in->rank_n;
		uint64_t trial = RESULTS_TRIAL_BYTES +
				 (workers > 1 ? workers * RESULTS_WORKER_BYTES : 0) +
				 hists_bytes(&in->job);
		uint64_t kinds = (uint64_t)in->job.log_records + (in->job.log_interval_ns > 0);

		bytes += RESULTS_INSTANCE_BYTES + ((uint64_t)in->warmup + in->max_runs) * trial;
		bytes += kinds * series_bytes(in->max_runs);
	}
	return bytes;
}

/* Room for the results, kept from the start (see outdir_reserve); where the disk has less,
 * the run goes on, warned. */
static void keep_room(struct file_run *fr)
{
	uint64_t bytes = results_bytes(&fr->p);
	int ret = outdir_reserve(fr->od, bytes);

	if (ret < 0)
		fprintf(
		    stderr,
		    "iotrial: warning: cannot keep %.1f MiB in result folder '%s' for the results: %s; if the disk fills during the run, they may not be written\n",
		    (double)bytes / (1 << 20), fr->od->path, strerror(-ret));
}

/* The checkpoint's trials into the results (--resume), then the result folder: `claimed` (a
 * batch's), the one --resume names, or one of its own. Returns 0 or an exit status, the same
 * on every rank. */
static int take_folder(struct file_run *fr, struct outdir *claimed)
{
	const struct cli_args *args = fr->args;
	const char *room_at;
	int ret;

	/* Every check of --resume is done before its folder is taken: a refusal changes nothing
	 * there. */
	if (args->resume &&
	    (ret = resume_into(args, &fr->p, &fr->from, &fr->r, &fr->ro, &fr->failed)))
		return ret;
	results_release(&fr->from);
	/* The room is weighed before the folder is taken: a refusal makes no folder. Where it
	 * goes: a batch's folder, the one --resume names, -o DIR (the folder, or where a batch's
	 * is made), or results/ (NULL), where a folder of its own is made. */
	room_at = claimed ? claimed->path : args->resume ? args->resume : args->outdir;
	if (!cli_stream_only(args->outdir) &&
	    (ret = room_check(&fr->p, room_at, fr->lead ? results_bytes(&fr->p) : 0,
			      claimed != NULL)))
		return ret;
	ret = !fr->lead || claimed ? 0
	      : args->resume	   ? outdir_resume(&fr->own, args->resume)
				   : result_folder(args, &fr->s, &fr->own);
	/* Another run that took the folder between the read of its checkpoint and this lock
	 * went on with it: what was read is no longer the run (--resume: one rank). */
	if (ret == 0 && args->resume && !cli_resume_same(&fr->own, fr->ckpt_fd))
		return CLI_RESUME_AGAIN;
	if (ret == 0 && fr->lead && fr->od->path)
		keep_room(fr);
	return load_agree_max(ret == -EBUSY && args->resume ? EXIT_USAGE : ret < 0 ? EXIT_RUN : 0);
}

/* Progress on stderr, when asked (rank 0): auto, on a terminal unless -q; always, a line per
 * trial where stderr is no terminal. Whether it is drawn: out of memory, the run goes on
 * without it. */
static bool watch_progress(struct file_run *fr)
{
	const struct cli_args *args = fr->args;
	struct cli_progress *pg = &fr->pg;

	if (!fr->lead || !(args->progress == 1 ||
			   (args->progress == -1 && !args->quiet && isatty(STDERR_FILENO))))
		return false;
	pg->out = stderr;
	pg->tty = isatty(STDERR_FILENO);
	if (cli_progress_plan(pg, &fr->p, fr->hints) < 0) {
		fprintf(stderr, "iotrial: out of memory\n");
		pg->out = NULL;
		return false;
	}
	return true;
}

/* What the runner is told to do besides running: the folder for the record logs, the
 * checkpoint (results.json, when asked for and there is a folder), and its observers on
 * rank 0: progress, --log, the event stream. Returns 0 or an exit status, the same on every
 * rank. */
static int set_run_opts(struct file_run *fr, struct runlog *log)
{
	struct run_opts *ro = &fr->ro;
	int err = 0;

	ro->dir = fr->od->path;
	ro->dir_fd = fr->od->fd;
	ro->checkpoint = fr->lead ? cli_checkpoint : NULL;
	fr->ckpt = (struct cli_checkpoints){.od = fr->od, .pg = &fr->pg};
	ro->checkpoint_arg = &fr->ckpt;
	if (!rep_list_has(&fr->args->formats, "json") || !fr->od->path)
		ro->checkpoint = NULL; /* results.json was not asked for, or has no folder */
	if (watch_progress(fr))
		err = run_observe(&ro->observers, &cli_progress_observer, &fr->pg);
	if (!err && fr->lead && log->fd >= 0)
		err = run_observe(&ro->observers, &runlog_observer, log);
	if (!err && fr->lead && cli_stream_events(&fr->args->stream))
		err = run_observe(&ro->observers, &cli_stream_observer, &fr->args->stream);
	if (err)
		fprintf(stderr, "iotrial: cannot observe the run: %s\n", strerror(-err));
	if (fr->lead && !fr->od->path)
		cli_stream_warn_logs(&fr->p);
	return load_agree_max(err ? EXIT_RUN : 0);
}

/* After the run (`st`: what run_plan returned): its messages, then, on rank 0, its results
 * into the folder or onto the stream. Returns the job file's exit status. */
static int write_out(struct file_run *fr, int st)
{
	struct cli_args *args = fr->args;
	int ret;

	cli_progress_end(&fr->pg);
	if (fr->lead)
		diag_print(&fr->d, stderr);
	ret = st < 0 || fr->failed || (fr->lead && cli_logs_cut(&fr->r)) ? EXIT_RUN : 0;
	if (fr->lead) {
		outdir_unreserve(fr->od);
		st = fr->od->path ? cli_write_results(&fr->r, fr->od, &args->formats,
						      args->quiet || args->stream.on)
				  : cli_stream_results(&args->stream, &fr->r, &args->formats);
		ret = st > ret ? st : ret;
		st = cli_stream_status(&args->stream);
		ret = st > ret ? st : ret;
	}
	if (cli_stop_signal)
		ret = 128 + cli_stop_signal;
	return ret;
}

/* run_one's work, once: CLI_RESUME_AGAIN when a --resume must read its checkpoint again. */
static int run_once(const char *file, struct cli_args *args, const char *scratch,
		    struct outdir *claimed, struct runlog *log, char **where)
{
	struct file_run fr = {
	    .args = args,
	    .lead = dist_rank() == 0,
	    .ro = {.stop = &cli_stop_signal, .checkpoint_ns = args->checkpoint_ns},
	    .own = OUTDIR_INIT,
	    .ckpt_fd = -1};
	int ret;

	if ((ret = load_one(file, args, scratch, &fr.from, &fr.ckpt_fd, &fr.s, &fr.p)))
		return ret;
	fr.od = claimed ? claimed : &fr.own;
	if (args->resume && fr.from.complete) {
		if ((ret = cli_resume_complete(args, &fr.from, fr.ckpt_fd)) != CLI_RESUME_AGAIN)
			*where = strdup(args->resume);
	} else if (!(ret = check_plan(&fr)) && !(ret = take_folder(&fr, claimed)) &&
		   !(ret = set_run_opts(&fr, log))) {
		if (fr.lead)
			*where = strdup(fr.od->path ? fr.od->path : "-");
		ret = write_out(&fr, run_plan(&fr.p, &fr.r, &fr.ro, &fr.d));
	}
	if (fr.ckpt_fd >= 0)
		close(fr.ckpt_fd);
	free(fr.hints);
	results_release(&fr.from);
	results_release(&fr.r);
	diag_release(&fr.d);
	outdir_release(&fr.own);
	plan_release(&fr.p);
	spec_release(&fr.s);
	return ret;
}

/* Run job file `file` into the result folder `claimed` (a batch's, taken before the first
 * file ran; on rank 0 only) or one of its own (NULL), logging each trial into `log`; the
 * folder's name into `*where` (malloc'd) once it has one. Returns its exit status. */
static int run_one(const char *file, struct cli_args *args, const char *scratch,
		   struct outdir *claimed, struct runlog *log, char **where)
{
	int ret;

	/* --resume: each time again, another run went on with the folder in between and moved
	 * it on; one that keeps doing so is not waited for. */
	for (int tries = 0;
	     (ret = run_once(file, args, scratch, claimed, log, where)) == CLI_RESUME_AGAIN;
	     tries++)
		if (tries == 4) {
			fprintf(
			    stderr,
			    "iotrial: cannot resume from '%s': its checkpoint changed each time it was read: another iotrial run goes on with it\n",
			    args->resume);
			return EXIT_USAGE;
		}
	return ret;
}

/* Every job file of a queue is read and planned before any runs: a mistake in the third file
 * of a queue left overnight is found now, not after the first two have run for hours. A plan
 * the machine refuses as it stands (a file that would be written over, too little space)
 * stops the queue too, though an earlier file might have changed that: such a file belongs
 * in a queue of its own. Returns 0 or the worst exit status, after a line saying so. */
static int check_all(const struct cli_args *args, const char *scratch)
{
	int worst = 0, bad = 0;

	for (int i = 0; i < args->nfiles; i++) {
		struct exp_spec s;
		struct plan p;
		int ret = load_job(args->files[i], args->ov, args->nov, scratch, &s, &p);
		if (ret) {
			worst = ret > worst ? ret : worst;
			bad++;
			continue;
		}
		/* Its folder will be made in the batch folder, made in -o DIR or results/. */
		ret = room_check(&p, args->outdir, results_bytes(&p), false);
		plan_release(&p);
		spec_release(&s);
		if (ret) {
			worst = ret > worst ? ret : worst;
			bad++;
		}
	}
	if (bad && dist_rank() == 0)
		fprintf(stderr, "iotrial: %d of %d job files cannot run: nothing was run\n", bad,
			args->nfiles);
	return worst;
}

/* Take the batch folder and every job file's result folder (several job files, rank 0):
 * an exit status. */
static int batch_start(struct batch *b, const struct cli_args *args, const char *scratch)
{
	int st = dist_rank() == 0 ? batch_init(b, args->files, (size_t)args->nfiles) : 0;

	if ((st = load_agree_max(st == -ENOMEM ? EXIT_RUN : st < 0 ? EXIT_USAGE : 0)))
		return st;
	if ((st = check_all(args, scratch)))
		return st;
	b->keep_going = args->keep_going;
	b->log = args->log;
	st = dist_rank() == 0 ? batch_open(b, args->outdir, args->force) : 0;
	return load_agree_max(st < 0 ? EXIT_RUN : 0);
}

/* Run the job files in turn: after one fails, the rest only with --keep-going. */
static int run_files(struct cli_args *args, const char *scratch, struct batch *b,
		     struct runlog *log)
{
	bool lead = dist_rank() == 0, queue = args->nfiles > 1;
	int worst = 0;

	/* Ranks interrupted at different moments still agree on the next job file. */
	for (int i = 0; i < args->nfiles && !load_agree_max(cli_stop_signal || cli_stdout_closed);
	     i++) {
		char *where = NULL;
		int ret;
		if (lead && queue)
			batch_begin(b, (size_t)i);
		runlog_file(log, "file-start", args->files[i], NULL, -1);
		log->file = args->files[i];
		ret = run_one(args->files[i], args, scratch, lead && queue ? &b->e[i].od : NULL,
			      log, &where);
		runlog_file(log, "file-end", args->files[i], where, ret);
		free(where);
		if (lead && queue)
			batch_end(b, (size_t)i, ret);
		if (ret > worst || ret >= 128)
			worst = ret;
		if (load_agree_max(ret && !args->keep_going))
			break;
	}
	return worst;
}

/* Before any job file: the arguments into `args`, the scratch folder into `*scratch`, the
 * signals, and stdout for the stream when it is asked for. Returns 0 or an exit status. */
static int start(int argc, char **argv, struct cli_args *args, char **scratch)
{
	int err;

	if ((err = cli_args_parse(argc, argv, args, true)) < 0) {
		if (err == -EINVAL)
			cli_usage_hint("run");
		return cli_exit_status(err, EXIT_USAGE);
	}
	if (load_agree_max((*scratch = load_scratch_path()) ? 0 : EXIT_RUN)) {
		if (!*scratch)
			fprintf(stderr, "iotrial: cannot resolve the scratch folder: %s\n",
				strerror(errno));
		return EXIT_RUN;
	}
	cli_signals_install();
	if (args->nfiles > 1 && args->outdir && !strcmp(args->outdir, "-")) {
		fprintf(stderr,
			"iotrial: -o - streams one job file; run the files one at a time\n");
		cli_usage_hint("run");
		return EXIT_USAGE;
	}
	return cli_stream_open(&args->stream, args->outdir, &args->formats) < 0 ? EXIT_RUN : 0;
}

/* The job files, with --log and, for several, the batch folder: the worst exit status. */
static int run_queue(struct cli_args *args, const char *scratch)
{
	struct batch b = {.dir_fd = -1, .own = OUTDIR_INIT};
	struct runlog log = RUNLOG_INIT;
	int worst, err;

	err = dist_rank() == 0 && args->log ? runlog_open(&log, args->log) : 0;
	if ((worst = load_agree_max(err < 0 ? EXIT_RUN : 0)))
		goto out;
	if (args->nfiles > 1 && (worst = batch_start(&b, args, scratch)))
		goto out;
	worst = run_files(args, scratch, &b, &log);
	if (cli_stop_signal && worst < 128)
		worst = 128 + cli_stop_signal;
	if ((log.failed || b.write_failed) && !worst)
		worst = EXIT_RUN;
	if (b.dir_fd >= 0) {
		batch_finish(&b, worst);
		if (b.write_failed && !worst)
			worst = EXIT_RUN;
	}
out:
	batch_release(&b);
	runlog_close(&log);
	return worst;
}

int cmd_run(int argc, char **argv)
{
	struct cli_args args = {0};
	char *scratch = NULL;
	int worst;

	if (!(worst = start(argc, argv, &args, &scratch))) {
		/* The clock's first slope takes 2 ms: from here, loading and planning count. */
		fastclock_start();
		worst = run_queue(&args, scratch);
	}
	cli_stream_close(&args.stream);
	free(scratch);
	cli_args_release(&args);
	return worst;
}
