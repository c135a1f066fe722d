/* The worker loop: one worker's share of one trial. It keeps up to iodepth I/Os in flight
 * through a backend, times each from submission to completion, retries short transfers,
 * and stops at the size or time bound, at the first error, or when told to. */
#ifndef IOTRIAL_WORKER_H
#define IOTRIAL_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/io/backends/backend.h"
#include "engine/stats/hist.h"
#include "model/spec.h"
#include "model/wlopts.h"
#include "lib/stats.h"

/* A worker's figures so far, published every WORKER_TALLY_NS or so for the coordinating
 * thread's progress line; in shared memory when the worker is a process. Only ever stored by
 * its worker and loaded by the coordinator, relaxed: a figure may be a moment old. */
struct worker_tally {
	atomic_uint_least64_t bytes, ios; /* measured so far (not the ramp's) */
};

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "a tally must be a lock-free atomic");

#define WORKER_TALLY_NS 100000000ull /* 0.1 s: the line is redrawn at most 4 times a second */

struct worker_job {
	const struct be_ops *be;
	void *priv; /* the backend's per-worker state, after init */
	enum job_workload wl;
	int fd;		     /* the data file: read, written, or the copy's destination */
	int src_fd;	     /* copy: the source */
	uint64_t chunk;	     /* bytes per I/O */
	uint64_t region_off; /* the part of the file this worker covers */
	uint64_t region_len;
	uint64_t runtime_ns; /* 0: one pass over the region (size-bound) */
	uint32_t iodepth;
	bool fsync_end;	     /* fsync inside the timed region, after the last write */
	uint32_t sync_every; /* after this many writes, wait for them and sync; 0: never */
	bool sync_data;	     /* that sync is fdatasync(2), not fsync(2) */
	uint64_t seed;	     /* random offsets */
	bool random_map;     /* random offsets: each block once per pass (else with replacement) */
	const struct wl_dist *dist; /* random offsets drawn from this skew; NULL: uniform */
	/* Each I/O's size drawn from this mix (chunk is its largest; random offsets are
	 * multiples of its smallest); NULL: every I/O chunk bytes. */
	const struct wl_sizes *sizes;
	const struct wl_sched *sched; /* applied by the worker's thread first; NULL: none */
	/* Where worker_out.extra goes: memory the coordinator reads (shared, for worker
	 * processes); needed when mixed or sync_every, else NULL. */
	struct worker_extra *extra;

	bool mixed; /* readwrite, randrw: each I/O reads or writes, by a seeded draw */
	/* submit_latency: time each I/O's submission (slat) and completion (clat) apart, into
	 * extra (which it then needs); the queued I/Os are committed before each wait. */
	bool split_lat;

	uint32_t read_pct; /* ... reading with this probability, in percent */
	bool verify;	   /* writes carry the verify pattern, reads are checked */
	bool huge_bufs;	   /* I/Os of more than a page: buffers on huge pages (buffers.h) */

	uint64_t verify_seed;	   /* the pattern's seed */
	bool verify_check_seed;	   /* false: accept the pattern under any seed */
	const atomic_int *stop;	   /* non-zero: stop issuing, drain, return */
	const atomic_int *stop_bg; /* also stops it (background load); may be NULL */
	/* Stonewall: raised by the coordinator when another rank has done its size; stops it
	 * like `stop`, noted in `stopped` when it had not reached its bound. May be NULL. */
	const atomic_int *stop_sw;
	uint64_t cap_ns; /* size-bound: issue nothing new this long after the start; 0: none */
	uint64_t limit;	 /* size-bound: bytes to move; 0: the region's */
	/* Where to go on from: sequential, the region offset of the first I/O; random with
	 * random_map, the random map's draws already done (see randmap_init). */
	uint64_t start_pos;
	pthread_barrier_t
	    *barrier; /* all workers of a trial wait here, buffers ready; may be NULL */
	/* When set, waited on before `barrier`: the coordinator learns that every worker is
	 * ready (and may meet the other ranks) before it opens `barrier`. */
	pthread_barrier_t *ready;
	const atomic_int *cancel; /* raised before `barrier` opens: no I/O; may be NULL */
	uint32_t stride_n,
	    stride_i;	      /* strided file: chunk k of the region is chunk k * stride_n +
				 stride_i of the file (the ranks interleave); 0: contiguous */
	int rec_fd;	      /* per-record log, O_APPEND; -1: none */
	int int_fd;	      /* per-interval log, O_APPEND; -1: none */
	uint64_t interval_ns; /* the interval log's bucket */
	/* Each closed interval is also put here for the coordinator to stream (an event
	 * observer listens); NULL: none. Written once per interval, never per I/O. */
	struct worker_ivl_ring *ivl_ring;
	uint32_t trial, worker, rank; /* for the logs' lines */
	uint64_t ramp_ns;	      /* run this long first, uncounted */
	uint64_t rate;		      /* bytes per second; 0: unthrottled */
	uint32_t rate_iops;	      /* I/Os per second; 0: unthrottled */
	uint64_t think_ns;	      /* pause after each completion */
	struct worker_tally *tally;   /* published now and then; NULL: none */
};

#define WORKER_PROGRESS 128

/* The last WORKER_IVL_RING intervals a worker closed, for the coordinating thread to read
 * while the worker runs (in shared memory for a worker process). The worker fills entry
 * head % WORKER_IVL_RING, then raises head (release); the reader copies the entries it has
 * not seen, then checks that head has not lapped them meanwhile. Relaxed atomics: a reader
 * never sees a torn value, only a lapped entry, which it counts as dropped. */
#define WORKER_IVL_RING 256
/* A worker process shares the ring through a mapping: only a lock-free atomic is also
 * address-free there. */
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "the interval ring needs lock-free 64-bit atomics");
struct worker_ivl_copy {
	uint64_t start_ns, end_ns, bytes, ios, lat_sum_ns;
};
struct worker_ivl_ring {
	atomic_uint_fast64_t head; /* intervals put so far */
	struct worker_ivl {
		atomic_uint_fast64_t start_ns, end_ns; /* from the worker's measured start */
		atomic_uint_fast64_t bytes, ios, lat_sum_ns;
	} e[WORKER_IVL_RING];
};

/* Copy the intervals put since `*seen` into `out` (room for WORKER_IVL_RING), oldest first,
 * and move `*seen` on; `*dropped` grows by those lapped before they were read. Returns how
 * many were copied. */
unsigned worker_ivl_take(struct worker_ivl_ring *ring, uint64_t *seen, struct worker_ivl_copy *out,
			 uint64_t *dropped);

struct worker_extra {
	/* mixed: the reads' [0] and the writes' [1] share of bytes, ios, hist and lat. */
	struct worker_dir {
		uint64_t bytes, ios;
		struct hist hist;
		struct welford lat;
	} dir[2];
	/* sync_every: the syncs of the measured window, timed apart from the I/Os. */
	uint64_t syncs;
	struct hist sync_hist;
	struct welford sync_lat;
	/* split_lat: queued to taken by the kernel [0], taken to seen complete [1]. */
	struct hist split_hist[2];
	struct welford split_lat[2];
};

/* A worker's logs, each with its own first write error (worker_out.log_err). */
enum worker_log {
	WORKER_LOG_RECORDS,   /* one line per I/O (records/NAME.csv) */
	WORKER_LOG_INTERVALS, /* one line per interval (records/NAME.intervals.csv) */
	WORKER_NLOGS,
};

/* huge_buffers, as a worker's buffers got it (worker_out.hpages). */
enum worker_hpages {
	WORKER_HP_OFF, /* not asked for: huge_buffers false, or I/Os of one page */
	/* asked for, to be read by the coordinator once every worker is ready (engine/run's
	 * trial_slots_hpages): then MEASURED or UNKNOWN; never read, it is unknown too */
	WORKER_HP_ASKED,
	WORKER_HP_MEASURED, /* asked for; worker_out.hpage_bytes of them are on huge pages */
	WORKER_HP_FALLBACK, /* asked for, but the backend could not pin them (RLIMIT_MEMLOCK):
			     * taken again on ordinary pages, not measured */
	WORKER_HP_UNKNOWN,  /* asked for; smaps could not say how many */
};

struct worker_out {

	struct hist hist; /* latency of every I/O, ns */
	struct welford lat;
	uint64_t bytes, ios, errors;
	uint64_t size_ios[WL_SIZES_MAX]; /* block_split with sizes listed: I/Os of each */
	uint64_t size_cut[WL_SIZES_MAX]; /* ... of those, cut short by the random map */
	/* Mixed directions and sync_every: three more histograms, only for the jobs that use
	 * them (worker_job.extra, zeroed by worker_run); NULL: none. */
	struct worker_extra *extra;
	uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC, absolute */
	double cpu_user_s, cpu_sys_s;
	/* The first error: which operation, where, and -errno (0: none). */
	int err;
	enum be_opcode err_op;
	uint64_t err_offset;
	uint32_t err_len;
	bool err_eof;		/* a read found the end of the file early */
	const char *verify_why; /* err == -EILSEQ: what was wrong at err_offset */
	/* A log that could not be written (-errno, by enum worker_log; 0: whole): its logging
	 * stopped there. */
	int log_err[WORKER_NLOGS];
	bool stopped; /* ended before its size: stop_sw raised, or cap_ns reached */
	uint64_t pos; /* where the next I/O would have started: start_pos for a top-up */
	/* Its I/O buffers, once filled, before the start: where they are in its process, their
	 * size (0: none, the set-up failed first), and how they got huge_buffers. */
	uint64_t buf_addr, buf_bytes, hpage_bytes;
	enum worker_hpages hpages;
	/* Progress samples, (time, bytes so far), at least prog_step ns apart; when full, every
	 * other one is dropped and the step doubles, so a run of any length fits. */
	uint32_t nprog;
	uint64_t prog_step;
	uint64_t prog_t[WORKER_PROGRESS], prog_b[WORKER_PROGRESS];
};

/* Worker w's bytes at absolute time t, from its progress samples (linear in between). */
double worker_bytes_at(const struct worker_out *o, uint64_t t);

/* Untie a copy of a trial's job from that trial, for a run after it (a wear_out top-up,
 * verify's read-back): no ramp, no start barriers, no cancel or stonewall flag, no logs.
 * A new field that ties a job to its trial is dropped here too. */
void worker_job_alone(struct worker_job *w);

/* Add `more`, a continuation of the same worker (a wear_out top-up), to `o`: figures
 * summed, histograms and moments merged, the later end, the first error kept. Progress
 * samples, `pos` and the buffers' figures stay `o`'s. */
void worker_out_add(struct worker_out *o, const struct worker_out *more);

/* Run one trial's I/O for one worker. `o` is initialised here. Returns 0 when the trial
 * ran to its bound, or the first error's -errno (details in `o`); -ENOMEM when buffers
 * cannot be had. Buffers are allocated before the clock starts. */
int worker_run(const struct worker_job *w, struct worker_out *o);

/* Wait on w->ready, then on w->barrier (each when set). Returns false when the trial was
 * cancelled meanwhile (w->cancel raised): the worker then does no I/O. */
bool worker_gate(const struct worker_job *w);

/* The current CLOCK_MONOTONIC time in ns. */
uint64_t worker_now_ns(void);

#endif
