/* The worker loop (see worker.h). Hot path: per I/O one offset, one queue call, one clock
 * read at its start, one histogram record; one clock read per batch of completions. A copy
 * is a read followed by a write of the same chunk; its latency spans both. */
#include "engine/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "engine/cacheline.h"
#include "engine/randmap.h"
#include "engine/reclog.h"
#include "engine/rng.h"
#include "engine/verify.h"

#define BUF_ALIGN 4096

/* The most I/Os handed to the kernel in one call while more are being queued. Linux holds
 * back a submission of three or more block I/Os until it has built every one of them (a
 * block plug, io_uring's and aio's threshold is 2), so none reaches the device before the
 * last is ready, and adjacent ones merge into bigger requests. Two at a time reach the device
 * as they are built, in the sizes the job asked for. See docs/performance.md. */
#define SUBMIT_BATCH 2

/* A pause (rate, think_time) looks at the stop flags at least this often. */
#define PAUSE_SLICE_NS 100000000ull

bool worker_gate(const struct worker_job *w)
{
	if (w->ready)
		pthread_barrier_wait(w->ready);
	if (w->barrier)
		pthread_barrier_wait(w->barrier);
	return !(w->cancel && *w->cancel);
}

uint64_t worker_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct loop {
	const struct worker_job *w;
	struct worker_out *o;
	struct be_io *slots;
	struct be_io **free_list, **ready, **reaped;
	unsigned nfree, nready, inflight;
	uint64_t pos;	   /* sequential: next offset within the region */
	uint64_t nblocks;  /* random: whole chunks in the region */
	struct randmap map; /* random with random_map: the order of the blocks */
	uint64_t issued;   /* bytes started (size bound) */
	uint64_t total;	   /* bytes a size-bound trial moves */
	uint64_t deadline; /* time bound; 0: none */
	uint64_t cap;	   /* a size bound's time cap (stonewall); 0: none */
	uint64_t rng;
	uint64_t seq;
	unsigned unpushed; /* queued to the backend since its last commit */
	int fatal;	   /* a commit or a pause's reap failed for good (-errno); 0: none */
	unsigned busy_spins;
	bool stopping;
	uint64_t *vclock; /* BE_F_VIRTUAL: the simulated clock; NULL: CLOCK_MONOTONIC */
	uint64_t ramp_end;    /* while running: the end of the ramp; 0 once measuring */
	uint64_t window;      /* I/Os issued before this are ramp, not measurement */
	uint64_t pace_ns;     /* rate, rate_iops: the time between two I/O starts (per byte for rate) */
	uint64_t sched;       /* when the next I/O is due to start (rate-limited) */
	bool any_done;        /* think_time: an I/O has completed, so pause before the next */
	struct reclog *rec, *ivl;
	uint64_t ivl_start, ivl_end, ivl_bytes, ivl_ios; /* the current log interval */
	uint64_t prog_next; /* when the next progress sample is due */
	double ivl_lat;
};

static void cpu_now(double *user, double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static void note_error(struct loop *l, const struct be_io *io, int err, bool eof)
{
	struct worker_out *o = l->o;

	o->errors++;
	if (!o->err) {
		o->err = err;
		o->err_op = io->op;
		o->err_offset = io->offset;
		o->err_len = io->len;
		o->err_eof = eof;
	}
	l->stopping = true;
}

/* Where an offset of the worker's region lies in the file: there, or in a strided file,
 * in this rank's chunks. */
static inline uint64_t place(const struct worker_job *w, uint64_t off)
{
	if (w->stride_n < 2)
		return off;
	return ((off / w->chunk) * w->stride_n + w->stride_i) * w->chunk + off % w->chunk;
}

/* Point `io` at `len` bytes at region offset `off`, as a new I/O. */
static void io_fill(struct loop *l, struct be_io *io, uint64_t off, uint64_t len)
{
	const struct worker_job *w = l->w;

	io->offset = io->base_offset = place(w, w->region_off + off);
	io->buf = io->base_buf;
	io->len = (uint32_t)len;
	io->full_len = (uint32_t)len;
	io->done = 0;
	io->phase = 0;
	if (w->wl == WL_COPY) {
		io->op = BE_READ;
		io->fd = w->src_fd;
	} else {
		io->op = (w->wl == WL_READ || w->wl == WL_RANDREAD) ? BE_READ : BE_WRITE;
		io->fd = w->fd;
	}
	if (w->verify && io->op == BE_WRITE)
		verify_fill(io->base_buf, len, io->base_offset, w->verify_seed);
}

/* Prepare the next new I/O in `io`; false when the trial's bound is reached. */
static bool next_io(struct loop *l, struct be_io *io)
{
	const struct worker_job *w = l->w;
	uint64_t off, len = w->chunk;

	if (l->deadline || l->ramp_end) {
		/* time-bound, or ramping up: keep going around the file */
	} else if (l->issued >= l->total) {
		return false;
	}
	if (l->nblocks && w->random_map) {
		off = randmap_next(&l->map) * w->chunk;
	} else if (l->nblocks) {
		/* With replacement: a block may come again before every other has come once. */
		uint64_t r = rng_next(&l->rng);
		off = (uint64_t)(((unsigned __int128)r * l->nblocks) >> 64) * w->chunk;
	} else {
		if (l->pos >= w->region_len)
			l->pos = 0;
		off = l->pos;
		if (len > w->region_len - off)
			len = w->region_len - off;
		l->pos += len;
	}
	l->issued += len;
	io->seq = l->seq++;
	io_fill(l, io, off, len);
	return true;
}

/* Note (t, bytes so far) for first-done figures across ranks; thin out when full. */
static void progress(struct loop *l, uint64_t t)
{
	struct worker_out *o = l->o;

	if (o->nprog == WORKER_PROGRESS) {
		for (uint32_t i = 0; i < WORKER_PROGRESS / 2; i++) {
			o->prog_t[i] = o->prog_t[2 * i + 1];
			o->prog_b[i] = o->prog_b[2 * i + 1];
		}
		o->nprog = WORKER_PROGRESS / 2;
		o->prog_step *= 2;
	}
	o->prog_t[o->nprog] = t;
	o->prog_b[o->nprog++] = o->bytes;
	l->prog_next = t + o->prog_step;
}

double worker_bytes_at(const struct worker_out *o, uint64_t t)
{
	uint64_t t0 = o->start_ns, b0 = 0;

	if (t <= o->start_ns)
		return 0;
	if (t >= o->end_ns || o->nprog == 0)
		return t >= o->end_ns ? (double)o->bytes : 0;
	for (uint32_t i = 0; i < o->nprog; i++) {
		if (o->prog_t[i] >= t) {
			double f = o->prog_t[i] > t0 ? (double)(t - t0) / (double)(o->prog_t[i] - t0) : 1;
			return (double)b0 + f * (double)(o->prog_b[i] - b0);
		}
		t0 = o->prog_t[i];
		b0 = o->prog_b[i];
	}
	/* After the last sample and before the end: on toward the total. */
	return (double)b0 + (double)(t - t0) / (double)(o->end_ns - t0) * (double)(o->bytes - b0);
}

/* Write the current log interval and open the next. */
static void interval_close(struct loop *l)
{
	uint64_t t0 = l->o->start_ns;

	reclog_interval(l->ivl, l->ivl_start - t0, l->ivl_end - t0, l->ivl_bytes, l->ivl_ios,
			l->ivl_lat);
	l->ivl_start = l->ivl_end;
	l->ivl_end += l->w->interval_ns;
	l->ivl_bytes = l->ivl_ios = 0;
	l->ivl_lat = 0;
}

static bool stop_asked(const struct worker_job *w)
{
	return *w->stop || (w->stop_bg && *w->stop_bg);
}

/* Sleep until `when` (CLOCK_MONOTONIC ns), in slices of at most PAUSE_SLICE_NS so that a
 * stop request is seen within that. */
static void sleep_until(const struct worker_job *w, uint64_t when)
{
	for (;;) {
		uint64_t now = worker_now_ns(), until = when;
		if (now >= when || stop_asked(w))
			return;
		if (until - now > PAUSE_SLICE_NS)
			until = now + PAUSE_SLICE_NS;
		struct timespec ts = {(time_t)(until / 1000000000ull),
				      (long)(until % 1000000000ull)};
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

/* The ramp is over: measurement starts now, from a clean slate. */
static void start_window(struct loop *l, uint64_t now)
{
	l->ramp_end = 0;
	l->window = now;
	l->issued = 0;
	l->o->start_ns = now;
	l->deadline = l->w->runtime_ns ? now + l->w->runtime_ns : 0;
	l->cap = l->w->cap_ns ? now + l->w->cap_ns : 0;
	if (l->ivl) {
		l->ivl_start = now;
		l->ivl_end = now + l->w->interval_ns;
	}
}

/* The I/O that opened the measured window is its first: it counts toward the size bound.
 * With a random map it becomes draw 0 of a pass of the window's own, so that a size-bound
 * window visits every block once, whatever the ramp drew. */
static void window_first(struct loop *l, struct be_io *io)
{
	l->issued = io->len;
	if (l->nblocks && l->w->random_map) {
		randmap_unnext(&l->map);
		randmap_restart(&l->map);
		io_fill(l, io, randmap_next(&l->map) * l->w->chunk, io->len);
	}
}

/* Hand the kernel the I/Os queued since the last commit. Done after every SUBMIT_BATCH of
 * them and before any sleep: an I/O must not wait in the backend while the worker sleeps,
 * its clock running. The backend's reap() hands over whatever is left, with its wait. A
 * kernel without room now (-EAGAIN, -EBUSY) is no error: reap() tries again. */
static void push(struct loop *l)
{
	int r = 0;

	if (l->unpushed && l->w->be->commit)
		r = l->w->be->commit(l->w->priv);
	l->unpushed = 0;
	if (r < 0 && r != -EAGAIN && r != -EBUSY && !l->fatal)
		l->fatal = r;
}

/* Handle a finished submission that was seen complete at `now` (CLOCK_MONOTONIC ns):
 * retry a short transfer, move a copy on to its write, or count the I/O and free its slot. */
static void complete(struct loop *l, struct be_io *io, uint64_t now)
{
	struct worker_out *o = l->o;
	uint64_t t;

	if (io->result < 0 || (io->result == 0 && io->len > 0)) {
		note_error(l, io, io->result < 0 ? (int)io->result : -ENODATA, io->result == 0);
		l->free_list[l->nfree++] = io;
		return;
	}
	io->done += (uint64_t)io->result;
	if (io->done < io->full_len) {
		/* A short transfer: go on from where it stopped, within the same I/O. */
		io->buf = (char *)io->base_buf + io->done;
		io->offset = io->base_offset + io->done;
		io->len = io->full_len - (uint32_t)io->done;
		l->ready[l->nready++] = io;
		return;
	}
	io->buf = io->base_buf;
	io->offset = io->base_offset;
	io->len = io->full_len;
	if (l->w->verify && io->op == BE_READ) {
		uint64_t bad;
		const char *why;
		if (verify_check(io->buf, io->len, io->offset, l->w->verify_seed,
				 l->w->verify_check_seed, &bad, &why) < 0) {
			struct be_io at = *io;
			at.offset = bad;
			at.len = VERIFY_UNIT;
			if (!o->err)
				o->verify_why = why;
			note_error(l, &at, -EILSEQ, false);
			l->free_list[l->nfree++] = io;
			return;
		}
	}
	if (l->w->wl == WL_COPY && io->phase == 0) {
		io->phase = 1;
		io->op = BE_WRITE;
		io->fd = l->w->fd;
		io->done = 0;
		l->ready[l->nready++] = io;
		return;
	}
	if (l->vclock) {
		/* Simulated time, counted from the trial's start: the backend says how long the
		 * I/O took. */
		t = o->start_ns + (*l->vclock += io->sim_ns);
		io->start_ns = t - io->sim_ns;
	} else {
		t = now;
	}
	l->any_done = true;
	l->free_list[l->nfree++] = io;
	if (io->start_ns < l->window)
		return; /* issued during the ramp: not measured */
	hist_record(&o->hist, t - io->start_ns);
	welford_add(&o->lat, (double)(t - io->start_ns));
	o->bytes += io->full_len;
	if (t >= l->prog_next)
		progress(l, t);
	o->ios++;
	if (l->rec)
		reclog_record(l->rec, io->seq, io->base_offset, io->full_len,
			      io->start_ns - o->start_ns, t - io->start_ns);
	if (l->ivl) {
		while (t >= l->ivl_end)
			interval_close(l);
		l->ivl_bytes += io->full_len;
		l->ivl_ios++;
		l->ivl_lat += (double)(t - io->start_ns);
	}
}

/* Submit `io`; false when the backend is busy (the io is then kept for later). */
static bool submit(struct loop *l, struct be_io *io)
{
	int r = l->w->be->queue(l->w->priv, io);

	if (r == BE_BUSY) {
		l->busy_spins++;
		return false;
	}
	l->busy_spins = 0;
	if (r == BE_QUEUED) {
		l->inflight++;
		l->unpushed++;
		return true;
	}
	if (r != BE_DONE)
		io->result = r;
	complete(l, io, l->vclock ? 0 : worker_now_ns());
	return true;
}

/* After a successful submit(): push a full batch when more I/Os follow in this round. The
 * last batch of a round is left for reap(), which hands it over with its wait. */
static void push_batch(struct loop *l, bool more)
{
	if (l->unpushed >= SUBMIT_BATCH && more)
		push(l);
}

/* Wait for at least `min` completions (at most `timeout` when set, then maybe fewer) and
 * handle them. The backend hands the kernel what is still queued first. One clock read for
 * the batch: its I/Os were seen complete together. */
static int reap(struct loop *l, unsigned min, const struct timespec *timeout)
{
	int n = l->w->be->reap(l->w->priv, min, l->inflight, l->reaped, timeout);
	uint64_t now;

	l->unpushed = 0;
	if (n <= 0)
		return n;
	now = l->vclock ? 0 : worker_now_ns();
	l->inflight -= (unsigned)n;
	for (int i = 0; i < n; i++)
		complete(l, l->reaped[i], now);
	return n;
}

/* Wait until `when` (CLOCK_MONOTONIC ns): a rate's schedule, or think_time. What is queued
 * goes to the kernel first, and the completions of the I/Os in flight are handled as they
 * come, so that their latency ends when they complete, not when the pause does. With
 * nothing in flight, or a backend that cannot time its wait, it sleeps. */
static void pause_until(struct loop *l, uint64_t when)
{
	push(l);
	while (l->inflight > 0 && !l->fatal) {
		uint64_t now = worker_now_ns(), left;
		struct timespec ts;
		int r;

		if (now >= when || stop_asked(l->w))
			return;
		left = when - now < PAUSE_SLICE_NS ? when - now : PAUSE_SLICE_NS;
		ts.tv_sec = (time_t)(left / 1000000000ull);
		ts.tv_nsec = (long)(left % 1000000000ull);
		r = reap(l, 1, &ts);
		if (r == -EOPNOTSUPP)
			break;
		if (r < 0)
			l->fatal = r;
	}
	sleep_until(l->w, when);
}

/* When the next new I/O starts. Rate-limited I/Os are due on a fixed schedule, and their
 * latency counts from when they were due, not from when they were issued: a stalled
 * device then shows in the tail instead of vanishing into a late start (no coordinated
 * omission). */
static uint64_t issue_time(struct loop *l, const struct be_io *io)
{
	const struct worker_job *w = l->w;
	uint64_t now;

	if (l->vclock)
		return l->o->start_ns + *l->vclock; /* simulated: no waiting, no real clock */
	if (w->think_ns && l->any_done)
		pause_until(l, worker_now_ns() + w->think_ns);
	if (!l->pace_ns)
		return worker_now_ns();
	now = worker_now_ns();
	if (l->sched == 0)
		l->sched = now;
	if (l->sched > now)
		pause_until(l, l->sched);
	now = l->sched;
	l->sched += w->rate ? l->pace_ns * io->len / 1000000 : l->pace_ns;
	return now;
}

static int fsync_end(struct loop *l)
{
	struct be_io io = {.op = BE_FSYNC, .fd = l->w->fd};
	struct be_io *out;
	int r, tries = 0;

	while ((r = l->w->be->queue(l->w->priv, &io)) == BE_BUSY && ++tries < 1000)
		if (l->w->be->commit)
			l->w->be->commit(l->w->priv);
	if (r == BE_BUSY) {
		r = -EAGAIN;
		io.result = r;
	} else if (r == BE_QUEUED) {
		/* reap() submits it and waits for it. */
		r = l->w->be->reap(l->w->priv, 1, 1, &out, NULL);
		if (r < 0)
			return r;
	} else if (r < 0) {
		io.result = r;
	}
	if (io.result < 0) {
		note_error(l, &io, (int)io.result, false);
		return (int)io.result;
	}
	return 0;
}

static int loop_run(struct loop *l)
{
	const struct worker_job *w = l->w;
	int r;

	for (;;) {
		/* Retries and copy writes first, then new I/Os while there is room. */
		while (l->nready > 0) {
			struct be_io *io = l->ready[--l->nready];
			if (io->unsent) {
				/* Its latency starts when the backend takes it, not while it
				 * waited. */
				io->start_ns = worker_now_ns();
				io->unsent = false;
			}
			if (!submit(l, io)) {
				l->ready[l->nready++] = io;
				break;
			}
			push_batch(l, l->nready > 0 || (l->nfree > 0 && !l->stopping));
		}
		while (l->nready == 0 && l->nfree > 0 && !l->stopping) {
			struct be_io *io = l->free_list[l->nfree - 1];
			bool sw = w->stop_sw && *w->stop_sw;
			if (*w->stop || (w->stop_bg && *w->stop_bg) || sw || !next_io(l, io)) {
				/* Told to stop with its size not yet done: stonewalled. */
				if (sw && (l->deadline || l->ramp_end || l->issued < l->total))
					l->o->stopped = true;
				l->stopping = true;
				break;
			}
			l->nfree--;
			io->start_ns = issue_time(l, io);
			if (l->ramp_end && io->start_ns >= l->ramp_end) {
				start_window(l, io->start_ns);
				window_first(l, io);
			}
			if ((l->deadline && io->start_ns >= l->deadline) ||
			    (l->cap && io->start_ns >= l->cap)) {
				/* Not issued: a top-up (wear_out) starts again from here. */
				l->issued -= io->len;
				if (!l->nblocks)
					l->pos -= io->len;
				else if (w->random_map)
					randmap_unnext(&l->map);
				if (!l->deadline)
					l->o->stopped = true;
				l->free_list[l->nfree++] = io;
				l->stopping = true;
				break;
			}
			if (!submit(l, io)) {
				io->unsent = true;
				l->ready[l->nready++] = io;
				break;
			}
			push_batch(l, l->nfree > 0);
		}
		if (l->fatal)
			return l->fatal;
		if (l->inflight == 0) {
			if (l->nready == 0 && (l->stopping || l->nfree == 0))
				break;
			/* Busy with nothing in flight: nothing will ever free a slot. */
			if (l->busy_spins > 1000)
				return -EAGAIN;
			continue;
		}
		/* What is still queued goes to the kernel with the wait (one io_uring_enter). */
		if ((r = reap(l, 1, NULL)) < 0)
			return r;
	}
	return 0;
}

/* After an error, wait for what is still in flight: its buffers must outlive it. Returns
 * false when the backend cannot say, and the buffers must then be left alone. */
static bool drain(struct loop *l)
{
	while (l->inflight > 0) {
		int n = l->w->be->reap(l->w->priv, 1, l->inflight, l->reaped, NULL);
		if (n < 0)
			return false;
		l->inflight -= (unsigned)n;
	}
	return true;
}

int worker_run(const struct worker_job *w, struct worker_out *o)
{
	struct loop l = {.w = w, .o = o};
	unsigned depth = w->iodepth ? w->iodepth : 1;
	char *bufs = NULL;
	double u0, s0;
	int ret = -ENOMEM;
	bool barrier_done = false;

	memset(o, 0, sizeof(*o));
	o->prog_step = 1000000; /* 1 ms, doubling as the run grows */
	hist_init(&o->hist);
	welford_init(&o->lat);
	/* Written on every I/O: on cache lines of this worker's own. */
	l.slots = cacheline_zalloc(depth * sizeof(*l.slots));
	l.free_list = cacheline_zalloc(depth * sizeof(*l.free_list));
	l.ready = cacheline_zalloc(depth * sizeof(*l.ready));
	l.reaped = cacheline_zalloc(depth * sizeof(*l.reaped));
	if (!l.slots || !l.free_list || !l.ready || !l.reaped ||
	    posix_memalign((void **)&bufs, BUF_ALIGN, depth * w->chunk))
		goto out;
	/* Not zeros: a device that compresses or deduplicates must not get an easy ride. */
	l.rng = w->seed ^ 0x5bd1e995u;
	for (uint64_t i = 0; i + 8 <= depth * w->chunk; i += 8) {
		uint64_t v = rng_next(&l.rng);
		memcpy(bufs + i, &v, 8);
	}
	for (unsigned i = 0; i < depth; i++) {
		l.slots[i].buf = l.slots[i].base_buf = bufs + (size_t)i * w->chunk;
		l.free_list[l.nfree++] = &l.slots[depth - 1 - i];
	}
	l.rng = w->seed;
	l.total = w->region_len;
	if (spec_workload_random(w->wl)) {
		l.nblocks = w->region_len / w->chunk;
		l.total = l.nblocks * w->chunk;
	}
	if (w->limit)
		l.total = w->limit;
	l.pos = w->start_pos;
	if (l.nblocks && w->random_map)
		randmap_init(&l.map, l.nblocks, w->seed, w->start_pos);

	/* Random offsets: no readahead, as fio's default (fadvise_hint) asks. Else each buffered
	 * read of a missing block brings in its neighbours too, and about half of a pass of
	 * 4 KiB reads then finds its block in the page cache. Advice only: a file system that
	 * ignores it is not an error. */
	if (l.nblocks && !(w->be->flags & BE_F_NOIO))
		posix_fadvise(w->fd, 0, 0, POSIX_FADV_RANDOM);
	if (w->rec_fd >= 0 && (l.rec = cacheline_zalloc(sizeof(*l.rec))))
		reclog_init(l.rec, w->rec_fd, w->trial, w->worker, w->rank);
	if (w->int_fd >= 0 && w->interval_ns && (l.ivl = cacheline_zalloc(sizeof(*l.ivl))))
		reclog_init(l.ivl, w->int_fd, w->trial, w->worker, w->rank);
	/* rate: ns per MB (scaled by each I/O's size); rate_iops: ns per I/O. */
	if (w->rate)
		l.pace_ns = (uint64_t)(1e15 / (double)w->rate);
	else if (w->rate_iops)
		l.pace_ns = 1000000000ull / w->rate_iops;
	barrier_done = true;
	if (!worker_gate(w)) {
		ret = 0; /* cancelled before the start: nothing measured, nothing wrong here */
		goto out;
	}

	cpu_now(&u0, &s0);
	uint64_t vclock = 0;
	if (w->be->flags & BE_F_VIRTUAL)
		l.vclock = &vclock;
	start_window(&l, worker_now_ns());
	if (w->ramp_ns) {
		l.ramp_end = o->start_ns + w->ramp_ns;
		l.window = UINT64_MAX; /* nothing counts until the ramp ends */
		l.deadline = 0;
	}
	ret = loop_run(&l);
	if (ret < 0 && !drain(&l)) {
		/* The kernel may still write into these buffers: leak them rather than free. */
		bufs = NULL;
		l.slots = NULL;
	}
	if (ret == 0 && w->fsync_end && !o->err)
		ret = fsync_end(&l);
	o->end_ns = l.vclock ? o->start_ns + vclock : worker_now_ns();
	o->pos = l.nblocks && w->random_map ? randmap_drawn(&l.map) : l.pos;
	if (l.ivl) {
		if (l.ivl_ios || l.ivl_start < o->end_ns) {
			l.ivl_end = o->end_ns;
			interval_close(&l);
		}
		o->log_err = reclog_flush(l.ivl);
	}
	if (l.rec && reclog_flush(l.rec) < 0 && !o->log_err)
		o->log_err = l.rec->err;
	cpu_now(&o->cpu_user_s, &o->cpu_sys_s);
	o->cpu_user_s -= u0;
	o->cpu_sys_s -= s0;
	if (ret == 0 && o->err)
		ret = o->err;
out:
	if (!barrier_done)
		worker_gate(w); /* the others must not wait for us forever */
	free(l.rec);
	free(l.ivl);
	free(bufs);
	free(l.slots);
	free(l.free_list);
	free(l.ready);
	free(l.reaped);
	return ret;
}
