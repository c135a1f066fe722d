/* One trial of one unit (see trial.h): files prepared, workers started together on one
 * barrier as threads or processes, stonewalled across ranks when the job asks, background
 * load stopped once the measured workers are done, figures merged per instance, written data
 * read back when verify asks. */
#include "engine/run/trial.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/dist/dist.h"
#include "engine/run/files.h"
#include "engine/run/stonewall.h"
#include "engine/run/trial_files.h"
#include "engine/run/trial_ivl.h"
#include "engine/run/trial_merge.h"
#include "engine/run/trial_slot.h"
#include "engine/io/worker.h"

int trial_results_grow(struct instance_result *ir, size_t n)
{
	struct trial_result *nt;

	if (n <= ir->ntrials)
		return 0;
	if (!(nt = realloc(ir->trials, n * sizeof(*nt))))
		return -ENOMEM;
	ir->trials = nt;
	for (size_t t = ir->ntrials; t < n; t++) {
		struct trial_result *tr = &nt[t];
		memset(tr, 0, sizeof(*tr));
		tr->lat =
		    (struct lat_summary){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
		tr->index = (uint32_t)t;
		tr->seconds = tr->iops = tr->bw_bytes = tr->cached = tr->cached_after = NAN;
		tr->cpu_user_s = tr->cpu_sys_s = NAN;
		tr->agg = (struct rank_aggregate){NAN, NAN, NAN, NAN, NAN, NAN, 0};
		for (int d = 0; d < 2; d++)
			tr->dir[d] = (struct dir_result){
			    0,
			    0,
			    NAN,
			    NAN,
			    {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN}};
	}
	ir->ntrials = n;
	return 0;
}

/* The part of the file worker w covers: its own file, all of a shared file for random
 * workloads, or its slice of a shared file for sequential ones. */
static void region(const struct job_spec *j, uint64_t chunk, uint32_t w, uint64_t *off,
		   uint64_t *len)
{
	uint64_t slice;

	*off = 0;
	*len = j->file_size;
	if (j->offset || j->offset_increment) {
		*off = j->offset + w * j->offset_increment;
		return;
	}
	if (!spec_job_sliced(j) || j->threads == 0) /* 0: never, for the division below */
		return;

	slice = j->file_size / j->threads / chunk * chunk;
	*off = slice * w;
	*len = w + 1 == j->threads ? j->file_size - *off : slice;
}

/* Worker w's job in instance run `r` (instance `inst`, the unit's k-th): its region of
 * the file, its seeds, its stop flags in `sync`, its logs, its pace. */
static void slot_job(struct trial_env *e, struct inst_run *r, size_t inst_k, size_t inst,
		     uint32_t index, struct sync_area *sync, uint32_t w)
{
	const struct instance *in = r->in;
	const struct job_spec *j = &in->job;
	struct slot *s = &r->slots[w];
	uint64_t off, len;

	region(j, in->chunk, w, &off, &len);
	/* One file for the ranks: this rank's region in one piece, or every rank_n-th
	 * chunk. */
	if (j->layout == RANK_LAYOUT_SHARED && in->rank_n > 1)
		off += (uint64_t)(dist_rank() - (int)in->rank_lo) * j->file_size;
	s->job = (struct worker_job){
	    .be = in->be,
	    .wl = j->workload,
	    .fd = -1,
	    .src_fd = -1,
	    .chunk = in->chunk,
	    .region_off = off,
	    .region_len = len,
	    /* Load runs until the measured workers are done. */
	    .runtime_ns = r->background ? UINT64_MAX / 4 : j->runtime_ns,
	    .iodepth = j->iodepth,
	    .limit = j->io_limit,
	    .fsync_end = spec_workload_writes(j->workload) && j->sync == SYNC_FSYNC_END,
	    .sync_every = j->fsync_every ? j->fsync_every : j->fdatasync_every,
	    .sync_data = !j->fsync_every,

	    /* Each rank its own offsets (rank 0: as in a serial run). */
	    .seed = trial_seed(e->p->seed + (uint64_t)dist_rank() * 0x9e3779b97f4a7c15ull,
			       inst * 1024 + w, index),
	    /* A skew draws with replacement, as fio's random_distribution does. */
	    .random_map = j->random_map && !(in->wl && in->wl->skewed),
	    .dist = in->wl && in->wl->skewed ? &in->wl->dist : NULL,
	    .sizes = in->wl && in->wl->split ? &in->wl->sizes : NULL,
	    .mixed = in->wl && in->wl->mixed,
	    .sched = in->wl && in->wl->scheduled ? &in->wl->sched : NULL,

	    .read_pct = in->wl ? in->wl->read_pct : 0,

	    .stop = j->worker_mode == WORKER_PROCESS ? &sync->stop : e->stop,
	    .stop_bg = r->background ? &sync->bg_stop : NULL,
	    .stop_sw = stonewall_watched(r) ? &sync->sw_stop[stonewall_index(inst_k)] : NULL,
	    .cap_ns = stonewall_applies(r) ? j->stonewall_cap_ns : 0,
	    .barrier = &sync->barrier,
	    .ready = &sync->ready,
	    .cancel = &sync->cancel,
	    .stride_n = j->layout == RANK_LAYOUT_STRIDED && in->rank_n > 1 ? in->rank_n : 0,
	    .stride_i = (uint32_t)(dist_rank() - (int)in->rank_lo),
	    .rec_fd = e->rec_fd[inst],
	    .int_fd = e->int_fd[inst],
	    .interval_ns = j->log_interval_ns,
	    .ivl_ring = e->event && j->log_interval_ns && !r->background ? &s->sh->ivl : NULL,
	    .trial = index,
	    .worker = w,
	    .rank = (uint32_t)dist_rank(),
	    .ramp_ns = j->ramp_ns,
	    .rate = j->rate,
	    .rate_iops = j->rate_iops,
	    .think_ns = j->think_time_ns,
	    .verify = j->verify,
	    .huge_bufs = j->huge_buffers,
	    .tally = r->background ? NULL : &s->sh->tally,
	    .split_lat = j->submit_latency,
	};
	if (j->verify && (!spec_workload_writes(j->workload) || j->workload == WL_COPY)) {
		/* Reads check the layout's pattern; a file iotrial did not lay out may
		 * come from an earlier run, so then only offsets and checksums count. */
		const struct plan_file *f = j->workload == WL_COPY ? &in->src : &in->data;
		s->job.verify_seed = trial_layout_seed(e->p, f->path);
		s->job.verify_check_seed = plan_file_root((struct plan_file *)f)->create;
	} else if (j->verify) {
		s->job.verify_seed = s->job.seed;
	}
}

/* Set up instance k of the unit for this trial: its trial record, workers and files. */
static int setup(struct trial_env *e, const struct plan_trial *pt, struct inst_run *r,
		 size_t inst_k, size_t inst, struct sync_area *sync, bool processes)
{
	struct instance *in = &e->p->inst[inst];
	const struct job_spec *j = &in->job;
	bool copy = j->workload == WL_COPY || j->workload == WL_COPYTREE;
	uint32_t index;

	r->in = in;
	r->ledger = e->ledger;
	r->ir = &e->r->inst[inst];
	r->background = j->background;
	/* Load accompanies every trial of its unit: its own trials simply count on. */
	index = r->background ? (uint32_t)r->ir->ntrials : pt->index;
	if (trial_results_grow(r->ir, (size_t)index + 1) < 0)
		return -ENOMEM;
	r->tr = &r->ir->trials[index];
	r->tr->warmup = pt->warmup;
	r->tr->ran = true;
	if (!plan_on_rank(in, dist_rank())) {
		r->idle = true; /* the job runs on other ranks: no workers here */
		return 0;
	}
	r->n = j->threads ? j->threads : 1;
	if (!(r->slots = calloc(r->n, sizeof(*r->slots))))
		return -ENOMEM;
	for (uint32_t w = 0; w < r->n; w++) {
		struct slot *s = &r->slots[w];
		s->run = r;
		s->worker = w;
		s->stop_user = e->stop;
		s->stop_fwd = &sync->stop;
		s->sh = areas_get(&e->areas, sizeof(*s->sh), processes);
		s->data_path = files_worker_path(in->data.path, j, w);
		s->src_path = copy ? files_worker_path(in->src.path, j, w) : NULL;
		if (!s->sh || !s->data_path || (copy && !s->src_path))
			return -ENOMEM;
		/* Mixed directions and syncs: their histograms, for the run and a top-up. */
		if ((in->wl && in->wl->mixed) || j->fsync_every || j->fdatasync_every ||
		    j->submit_latency) {
			struct worker_extra *x =
			    areas_get(&e->areas, 2 * sizeof(struct worker_extra), processes);
			if (!x)
				return -ENOMEM;
			s->extra = x;
		}
		slot_job(e, r, inst_k, inst, index, sync, w);
	}
	return trial_prepare(e, r);
}

static void teardown(struct trial_env *e, struct inst_run *r, bool processes)
{
	for (uint32_t w = 0; r->slots && w < r->n; w++) { /* no slots: their calloc failed */
		struct slot *s = &r->slots[w];
		free(s->data_path);
		free(s->src_path);
		areas_put(&e->areas, s->extra, 2 * sizeof(struct worker_extra), processes);
		areas_put(&e->areas, s->sh, sizeof(*s->sh), processes);
	}
	free(r->slots);
	free(r->hist);
}

/* Does a unit work on a file its ranks share? Then its first rank lays it out before the
 * others open it. The same answer on every rank: it depends on the plan alone. */
static bool unit_shares_file(const struct plan *p, const struct plan_unit *u)
{
	for (size_t k = 0; k < u->n; k++) {
		const struct instance *in = &p->inst[u->inst[k]];
		if (in->job.layout != RANK_LAYOUT_PER_RANK && in->rank_n > 1 &&
		    !(in->be->flags & BE_F_NOIO))
			return true;
	}
	return false;
}

/* One trial of one unit under way, as trial_run's steps share it. */
struct unit_trial {
	struct trial_env *e;
	const struct plan_unit *u;
	struct inst_run *runs;	/* one per instance of the unit */
	struct sync_area *sync; /* in shared memory when some worker is a process */
	bool processes, dist;	/* some worker is a process; more than one rank */
	bool go;		/* every instance set up, and some worker to run */
	bool watch;		/* a stonewall watched across ranks */
	unsigned nworkers;	/* started on the barrier */
	uint64_t t_sync;	/* this rank's exit from the ranks' start barrier */
};

/* Set up every instance of the unit: 0, or the first measured instance's -errno (a
 * background job's failure is its own). Exits when memory runs out in a distributed run,
 * where the other ranks are already on their way to the barrier. */
static int setup_unit(struct unit_trial *t, const struct plan_trial *pt)
{
	int ret = 0;

	for (size_t k = 0; k < t->u->n; k++) {
		struct inst_run *run = &t->runs[k];
		int r = setup(t->e, pt, run, k, t->u->inst[k], t->sync, t->processes);
		run->ready = r == 0;
		if (r < 0 && !run->tr && t->dist)
			dist_abort(1, "out of memory");
		if (r < 0 && run->tr)
			trial_error(run->tr, "cannot set up the trial: %s", strerror(-r));
		if (r < 0 && !run->background)
			ret = r;
		t->nworkers += run->ready ? run->n : 0;
	}
	return ret;
}

/* Start every worker; they open their files, then wait on `ready`, set for as many as did
 * start (trial_slots_start). Returns 0 or -errno; a worker that could not be started has
 * failed the trial, and stops the run (e->no_worker). */
static int start_workers(struct unit_trial *t)
{
	int ret = trial_slots_start(t->runs, t->u->n, t->sync, t->processes);

	if (ret < 0)
		t->e->no_worker = true;
	pthread_barrier_wait(&t->sync->ready);
	trial_slots_hpages(t->runs, t->u->n);
	return ret;
}

/* Every worker has its files open and its buffers: could every rank get there? The ranks
 * agree, then start together; a trial some rank cannot run is cancelled on all. */
static void start_together(struct unit_trial *t, int ret)
{
	struct trial_env *e = t->e;
	int mine = ret < 0 ? DIST_SETUP : 0;

	for (size_t k = 0; k < t->u->n; k++)
		for (uint32_t w = 0;
		     t->go && t->runs[k].ready && !t->runs[k].background && w < t->runs[k].n; w++)
			if (t->runs[k].slots[w].sh->ret < 0)
				mine |= DIST_SETUP;
	e->agreed = dist_agree(mine | (*e->stop ? DIST_STOP : 0));
	if (t->dist && (e->agreed & DIST_SETUP))
		t->sync->cancel = 1; /* no rank measures a trial that some rank cannot run */
	/* A stonewall across ranks: only when every rank runs the trial (agreed is the same on
	 * every rank, the rest depends on the plan). With one rank, first done is done. */
	for (size_t k = 0; k < t->u->n; k++)
		t->watch |= t->dist && !(e->agreed & DIST_SETUP) && stonewall_watched(&t->runs[k]);
	/* Every rank starts here; its times count from its own exit (clocks differ). */
	dist_barrier();
	t->t_sync = worker_now_ns();
	if (t->go)
		pthread_barrier_wait(&t->sync->barrier);
}

/* Tell e->tick what the measured workers moved so far. */
static void tick(struct unit_trial *t, const struct plan_trial *pt)
{
	struct trial_tick tk = {pt, 0, 0, worker_now_ns() - t->t_sync};

	for (size_t k = 0; k < t->u->n; k++)
		for (uint32_t w = 0; !t->runs[k].background && w < t->runs[k].n; w++) {
			struct worker_tally *tl = &t->runs[k].slots[w].sh->tally;
			tk.bytes += atomic_load_explicit(&tl->bytes, memory_order_relaxed);
			tk.ios += atomic_load_explicit(&tl->ios, memory_order_relaxed);
		}
	t->e->tick(&tk, t->e->tick_arg);
}

/* With a progress line: wait for the measured workers, ticking every TRIAL_TICK_NS
 * meanwhile; each is waited for the moment it ends, so the trial takes no longer. Not under
 * a stonewall across ranks, whose watch must meet the other ranks meanwhile; on the user's
 * interrupt, the usual wait takes over (it passes the stop on to worker processes). */
static void watch_workers(struct unit_trial *t, const struct plan_trial *pt)
{
	uint64_t next = worker_now_ns() + TRIAL_TICK_NS;

	if (!t->e->tick || t->watch || !t->go)
		return;
	for (size_t k = 0; k < t->u->n; k++)
		for (uint32_t w = 0; !t->runs[k].background && w < t->runs[k].n; w++)
			while (!trial_slot_wait(&t->runs[k].slots[w], next)) {
				if (*t->e->stop)
					return;
				tick(t, pt);
				next = worker_now_ns() + TRIAL_TICK_NS;
			}
}

/* Wait for the measured workers (stonewalled across ranks when watched, topped up for
 * wear_out), then stop the load and wait for it. */
static void wait_workers(struct unit_trial *t)
{
	if (t->go && !t->watch)
		trial_stream_intervals(t->e, t->runs, t->u->n);
	if (t->watch)
		stonewall_watch(t->runs, t->u->n, t->sync);
	for (size_t k = 0; t->go && k < t->u->n; k++)
		for (uint32_t w = 0; !t->runs[k].background && w < t->runs[k].n; w++)
			trial_slot_finish(&t->runs[k].slots[w]);
	if (t->watch)
		stonewall_wear_out(t->e, t->runs, t->u->n);
	if (!t->go)
		return;
	t->sync->bg_stop = 1;
	for (size_t k = 0; k < t->u->n; k++)
		for (uint32_t w = 0; w < t->runs[k].n; w++)
			trial_slot_finish(&t->runs[k].slots[w]);
	trial_slots_release(t->sync);
}

/* Merge each instance's workers into its trial, read back what it wrote, remove a copy's
 * destinations. Returns DIST_FAILED when a measured trial failed on this rank. */
static int merge_unit(struct unit_trial *t)
{
	struct trial_env *e = t->e;
	int mine = 0;

	for (size_t k = 0; t->go && k < t->u->n; k++)
		trial_note_cached_after(&t->runs[k]);
	for (size_t k = 0; k < t->u->n; k++) {
		struct inst_run *r = &t->runs[k];
		if (r->ready) {
			trial_merge(e, r);
			if (!r->tr->failed && r->in->job.verify && !r->background &&
			    spec_workload_writes(r->in->job.workload) &&
			    !(r->in->be->flags & BE_F_NOIO) && !t->sync->cancel)
				trial_verify_back(e, r);
		}
		/* An interrupted trial is cut short: it is reported, never kept. */
		if (*e->stop && r->tr)
			trial_error(r->tr, "interrupted");
		trial_remove_destinations(e, t->u, r);
		if (r->tr && r->tr->failed && !r->background)
			mine |= DIST_FAILED;
	}
	return mine;
}

/* A background job that failed: the measurement stands, but not as "under load": say so
 * on both sides. */
static void load_failed(struct unit_trial *t, const struct inst_run *r)
{
	diag_add(t->e->d, NULL,
		 "background job '%s' failed: %s; the jobs it ran with ran without it", r->ir->name,
		 r->tr->error ? r->tr->error : "?");
	for (size_t m = 0; m < t->u->n; m++)
		if (!t->runs[m].background && t->runs[m].tr)
			t->runs[m].tr->load_failed = true;
}

/* Decide which trials are kept, release every instance's run, and return the trial's
 * result: `ret` when set, else -EIO when a measured trial failed (on any rank). */
static int conclude_unit(struct unit_trial *t, int ret)
{
	struct trial_env *e = t->e;

	for (size_t k = 0; k < t->u->n; k++) {
		struct inst_run *r = &t->runs[k];
		if (t->dist && (e->agreed & DIST_SETUP) && r->tr && !r->tr->failed &&
		    !r->background)
			trial_error(r->tr, "not run: a rank could not set up the trial");
		if (r->ready && r->tr && !r->tr->failed && ret == 0)
			r->tr->kept = !r->tr->warmup && !r->background;
		if (r->tr && r->tr->failed && !r->background && ret == 0)
			ret = -EIO;
		if (r->background && r->tr && r->tr->failed && !*e->stop)
			load_failed(t, r);
		teardown(e, r, t->processes);
	}
	if (ret == 0 && t->dist && (e->agreed & (DIST_FAILED | DIST_SETUP)))
		ret = -EIO;
	return ret;
}

int trial_run(struct trial_env *e, const struct plan_trial *pt)
{
	struct unit_trial t = {.e = e, .u = &e->p->units[pt->unit], .dist = dist_size() > 1};
	int ret, mine;

	e->agreed = 0;
	for (size_t k = 0; k < t.u->n; k++)
		t.processes |= e->p->inst[t.u->inst[k]].job.worker_mode == WORKER_PROCESS;
	t.runs = calloc(t.u->n, sizeof(*t.runs));
	if (!t.runs || !(t.sync = areas_get(&e->areas, sizeof(*t.sync), t.processes))) {
		free(t.runs);
		if (t.dist) /* the other ranks are on their way to the barrier */
			dist_abort(1, "out of memory");
		return -ENOMEM;
	}
	ret = setup_unit(&t, pt);
	/* A file the ranks share is laid out by its first rank during set-up: the others open
	 * it only once that is done. */
	if (t.dist && unit_shares_file(e->p, t.u))
		dist_barrier();
	t.go = ret == 0 && t.nworkers > 0;
	if (t.go)
		ret = start_workers(&t);
	start_together(&t, ret);
	watch_workers(&t, pt);
	wait_workers(&t);
	mine = merge_unit(&t);
	/* Rank 0 merges every rank's figures and log lines (and notes a log that lacks lines,
	 * a single rank's too); every rank learns whether one failed. */
	if (t.dist)
		trial_reduce_unit(e, t.u, t.runs, t.t_sync);
	trial_gather_logs(e, t.u, t.runs);
	if (t.dist)
		e->agreed |= dist_agree(mine | (*e->stop ? DIST_STOP : 0));
	ret = conclude_unit(&t, ret);
	areas_put(&e->areas, t.sync, sizeof(*t.sync), t.processes);
	free(t.runs);
	return ret;
}
