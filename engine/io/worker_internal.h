/* The worker loop's parts (worker.c, worker_io.c): its state, and the calls that hand I/Os
 * to the backend and take back their completions. Only for engine/worker*.c. */
#ifndef IOTRIAL_WORKER_INTERNAL_H
#define IOTRIAL_WORKER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "engine/io/covermap.h"
#include "engine/io/distrib.h"
#include "engine/io/fastclock.h"
#include "engine/io/randmap.h"
#include "engine/io/reclog.h"
#include "engine/io/reclog_writer.h"
#include "engine/io/worker.h"

/* One worker's run of one trial. */
/* The first commit of a round of queuing: at most this many I/Os. Linux holds back a
 * submission of three or more block I/Os until it has built every one of them (a block plug,
 * io_uring's and aio's threshold is 2), so none reaches the device before the last is ready,
 * and adjacent ones merge into bigger requests. Two reach the device as they are built, in
 * the sizes the job asked for. See worker_push_batch and docs/performance.md. */
#define SUBMIT_BATCH 2
/* With random offsets, the later commits of a round: at most this many I/Os, none two of
 * them abutting. Four notify the device once instead of four times, and hold the first of
 * them back by the building of three more (a few us); a bigger batch would hold it longer,
 * and put that into every latency. See worker_push_batch. */
#define BATCH_MAX 4

struct loop {
	const struct worker_job *w;
	struct worker_out *o;
	struct be_io *slots;
	struct be_io **free_list, **ready, **reaped;
	unsigned nfree, nready, inflight;
	uint64_t pos;	  /* sequential: next offset within the region */
	uint64_t wpos;	  /* readwrite: the writes' own next offset (pos is the reads') */
	uint64_t dir_rng; /* mixed: the directions' own stream, apart from the offsets' */

	uint64_t nblocks; /* random: whole units in the region */
	uint64_t unit;	  /* random offsets are multiples of this: chunk, or a mix's smallest */

	struct randmap map;    /* random with random_map: the order of the blocks */
	struct covermap cover; /* ... and a mix of sizes: the blocks of the pass covered */
	struct distrib *dist;  /* random with a skewed distribution; NULL: uniform */
	uint64_t issued;       /* bytes started (size bound) */
	uint64_t total;	       /* bytes a size-bound trial moves */
	uint64_t deadline;     /* time bound; 0: none */
	uint64_t cap;	       /* a size bound's time cap (stonewall); 0: none */
	uint64_t rng;
	uint64_t seq;
	unsigned unpushed; /* queued to the backend since its last commit */
	unsigned push_at;  /* commit once this many are queued (worker_push_batch) */
	/* random offsets: the byte ranges of the I/Os queued since the last commit */
	uint64_t batch_lo[BATCH_MAX], batch_hi[BATCH_MAX];
	/* split_lat: the I/Os queued since the last commit, for it to stamp (depth of room) */
	struct be_io **pend;
	unsigned npend;
	int fatal; /* a commit or a pause's reap failed for good (-errno); 0: none */
	unsigned busy_spins;
	bool stopping;
	uint32_t since_sync; /* sync_every: writes issued since the last sync */
	bool sync_due;	     /* ... reached: sync once the writes in flight are done */
	uint64_t *vclock;    /* BE_F_VIRTUAL: the simulated clock; NULL: CLOCK_MONOTONIC */
	uint64_t ramp_end;   /* while running: the end of the ramp; 0 once measuring */
	uint64_t window;     /* I/Os issued before this are ramp, not measurement */
	uint64_t pace_ns; /* rate, rate_iops: the time between two I/O starts (per byte for rate) */
	uint64_t sched;	  /* when the next I/O is due to start (rate-limited) */
	bool any_done;	  /* think_time: an I/O has completed, so pause before the next */
	struct reclog_writer *rec;			 /* log_records */
	struct reclog *ivl;				 /* log_interval */
	uint64_t ivl_start, ivl_end, ivl_bytes, ivl_ios; /* the current log interval */
	uint64_t prog_next;				 /* when the next progress sample is due */
	uint64_t tally_next;				 /* when the tally is next published */
	uint64_t note_next; /* the earlier of the two: the one test on the I/O path */
	double ivl_lat;
	struct fastclock clk; /* the I/Os' clock (CLOCK_MONOTONIC ns, see fastclock.h) */
};

/* The time now on the worker's clock: what every I/O's start and completion are read
 * from. */
static inline uint64_t loop_now(struct loop *l)
{
	return fastclock_now(&l->clk);
}

/* Start `io` through the backend: false when it is busy (the io is then kept for later).
 * An I/O done at once is completed here. */
bool worker_submit(struct loop *l, struct be_io *io);

/* After a successful worker_submit(): push a full batch when more I/Os follow in this round
 * (`more`). The last batch of a round is left for worker_reap(), which hands it over with
 * its wait. */
void worker_push_batch(struct loop *l, bool more);

/* Wait for at least `min` completions (at most `timeout` when set, then maybe fewer) and
 * handle them. Returns how many, or -errno. */
int worker_reap(struct loop *l, unsigned min, const struct timespec *timeout);

/* Wait until `when` (CLOCK_MONOTONIC ns), for a rate's schedule or think_time, handling
 * completions meanwhile. */
void worker_pause_until(struct loop *l, uint64_t when);

/* fsync the data file after the last write, as one more backend operation: 0 or -errno. */
int worker_fsync_end(struct loop *l);

/* sync_every: fsync or fdatasync the data file (every write issued before it has
 * completed), timed apart from the I/Os. 0 or -errno (noted in the output). */
int worker_sync(struct loop *l);

/* After an error, wait for what is still in flight; false when the backend cannot say. */

bool worker_drain(struct loop *l);

/* Write the current log interval and open the next. */
void worker_interval_close(struct loop *l);

#endif
