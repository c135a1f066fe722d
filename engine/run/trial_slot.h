/* A trial under way, as trial.c, stonewall.c and trial_merge.c share it: each instance's
 * run, its workers' slots (started and waited for in trial_slot.c), the flags the workers
 * see, and the small helpers all three use. Not for other files: trial.h is the interface. */
#ifndef IOTRIAL_TRIAL_SLOT_H
#define IOTRIAL_TRIAL_SLOT_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/plan/plan.h"
#include "model/results.h"
#include "engine/io/worker.h"

/* What a worker hands back: in shared memory when workers are processes. */
struct shared {
	struct worker_out out;
	int ret;
	char err[1024];	       /* a message naming one or two paths, whole */
	atomic_int done;       /* the worker has returned (the coordinator polls it) */
	struct worker_out top; /* a wear_out top-up's figures, until folded into `out` */
	int top_ret;
	struct worker_tally tally;  /* its figures so far, for the progress line */
	struct worker_ivl_ring ivl; /* its closed intervals, while an observer listens */
};

struct inst_run;

struct slot {
	const struct inst_run *run;
	uint32_t worker;
	struct worker_job job;
	char *data_path, *src_path;
	struct shared *sh;
	pthread_t thread;
	pid_t pid;
	sem_t *launch; /* trial_slots_start's gate, waited on before `job.ready` is used */
	/* A worker process watches `stop_fwd` (shared), which its coordinator raises once the
	 * user's `stop_user` is: a signal to iotrial alone reaches no worker process. */
	const atomic_int *stop_user;
	atomic_int *stop_fwd;
	bool started;
	bool topup;		    /* this start is a wear_out top-up: into sh->top */
	uint64_t stonewall_bytes;   /* its bytes before a top-up */
	struct worker_extra *extra; /* mixed, sync_every: two, the run's and a top-up's */
	uint64_t ivl_seen;	    /* the intervals of sh->ivl streamed so far */
};

struct inst_run {
	struct instance *in;
	struct ledger *ledger; /* what this run created: opened, made and removed through it */
	struct instance_result *ir;
	struct trial_result *tr;
	bool background;
	bool ready; /* files prepared: its workers start */
	bool idle;  /* not run on this rank (ranks:): takes part in the collectives only */
	uint32_t n;
	struct slot *slots;
	struct hist *hist; /* merged over its workers (merge), until the ranks' reduction */
	struct welford lat;
	uint64_t first, last; /* its workers' first start and last end; first UINT64_MAX: none */
	int log_err[WORKER_NLOGS]; /* each log's first write error (-errno); 0: none */
};

/* Worker processes see these flags through a shared mapping: an atomic works across
 * processes only when it is lock-free (then it is address-free too). */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the trial's flags must be lock-free atomics");

/* The barriers and flags, shared with process workers: `ready` tells the coordinating
 * thread that every worker is ready; it meets the other ranks, then opens `barrier`. */
struct sync_area {
	pthread_barrier_t ready, barrier;
	sem_t launch; /* opened once the barriers count the workers that did start */
	atomic_int bg_stop;
	atomic_int stop;   /* the user's interrupt, for worker processes */
	atomic_int cancel; /* another rank could not set up: no I/O in this trial */
	/* Stonewall: instance k's measured workers stop when flag stonewall_index(k) is raised. */
	atomic_int sw_stop[64];
};

/* Start worker `s` (a thread, or a process with worker_mode: process).
 * Returns 0 or -errno; s->started says whether trial_slot_finish must wait for it. */
int trial_slot_start(struct slot *s);

/* Start the workers of every ready instance of `runs` (n of them) and set the barriers of
 * `sync` for those that did start and this thread; each waits on sync->launch until then,
 * so one that cannot be started (pthread_create or fork failing) leaves none waiting
 * forever. Returns 0, or the first -errno: that worker's trial is failed, no more are
 * started, and sync->cancel is raised (the started ones do no I/O, and can be finished as
 * usual). Undo with trial_slots_release once every worker is finished. */
int trial_slots_start(struct inst_run *runs, size_t n, struct sync_area *sync, bool processes);

/* huge_buffers: once every started worker of the `n` runs is past `ready` (its buffers
 * filled), how many bytes of each one's buffers the kernel put on huge pages, into its
 * worker_out (hpage_bytes, or WORKER_HP_UNKNOWN). Not timed: the workers wait on `barrier`. */
void trial_slots_hpages(struct inst_run *runs, size_t n);

/* Destroy what trial_slots_start set up in `sync`. */
void trial_slots_release(struct sync_area *sync);

/* Has the worker returned? A worker process that died never says so: look, without reaping
 * it (trial_slot_finish does that). */
bool trial_slot_done(const struct slot *s);

/* Wait for a started worker to end, as trial_slot_finish does, but no later than
 * `until_ns` (CLOCK_MONOTONIC): true once it has ended and been waited for, false when it
 * was still running at `until_ns`. */
bool trial_slot_wait(struct slot *s, uint64_t until_ns);

/* Wait for a started worker to end (a dead worker process fails its slot). */
void trial_slot_finish(struct slot *s);

/* Fail trial `tr`; its `error` is the first message it was given. */
void trial_error(struct trial_result *tr, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* open(2) flags for job `j`'s data file: read or write, O_DIRECT, O_SYNC/O_DSYNC. */
int trial_open_flags(const struct job_spec *j, bool writes);

/* The verify pattern's seed for a file laid out at `path`. */
uint64_t trial_layout_seed(const struct plan *p, const char *path);

/* A seed for (a, b) derived from `seed`: trials and workers each get their own. */
uint64_t trial_seed(uint64_t seed, uint64_t a, uint64_t b);

#endif
