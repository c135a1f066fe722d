/* The worker loop (see worker.h). Hot path: per I/O one offset, one queue call, one clock
 * read at its start, one histogram record; one clock read per batch of completions. A copy
 * is a read followed by a write of the same chunk; its latency spans both. */
#include "engine/io/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "lib/cacheline.h"
#include "engine/io/buffers.h"
#include "engine/io/randmap.h"
#include "engine/io/reclog.h"
#include "lib/rng.h"
#include "engine/io/verify.h"
#include "engine/io/worker_internal.h"

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

static void cpu_now(double *user, double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
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
	io->submit_ns = 0;
	if (w->wl == WL_COPY) {
		io->op = BE_READ;
		io->fd = w->src_fd;
	} else {
		/* A mixed workload's direction was drawn in next_io; a refill keeps it. */
		if (!w->mixed)
			io->op = (w->wl == WL_READ || w->wl == WL_RANDREAD) ? BE_READ : BE_WRITE;
		io->fd = w->fd;
	}
	if (w->verify && io->op == BE_WRITE)
		verify_fill(io->base_buf, len, io->base_offset, w->verify_seed);
}

/* A size from the job's mix: a listed one by its weight (its index in *idx), or a multiple
 * of the range's smallest. */
static uint64_t draw_size(struct loop *l, uint16_t *idx)
{
	const struct wl_sizes *s = l->w->sizes;
	uint64_t r = rng_next(&l->rng);
	uint32_t pick, i = 0, acc;

	if (s->range)
		return s->min * (1 + (uint64_t)(((unsigned __int128)r * (s->max / s->min)) >> 64));
	pick = (uint32_t)(((unsigned __int128)r * 100) >> 64);
	for (acc = s->pct[0]; pick >= acc && i + 1 < s->n; acc += s->pct[++i])
		;
	*idx = (uint16_t)i;
	return s->size[i];
}

/* The random map's next offset for an I/O of *len bytes. With a mix of sizes it starts at the
 * first block the pass has not covered from the one drawn on, and is cut short at the next
 * covered one or at the region's end (as fio's random map does, covermap.h), so that no
 * byte is visited twice in a pass, and none left out. */
static uint64_t map_offset(struct loop *l, uint64_t *len)
{
	uint64_t b;

	if (!l->cover.bits)
		return randmap_next(&l->map) * l->unit;
	if (covermap_full(&l->cover)) {
		covermap_clear(&l->cover);
		randmap_pass(&l->map, l->map.pass + 1);
	}
	b = covermap_next_free(&l->cover, randmap_next(&l->map));
	/* Whole blocks only: a size that is not a multiple of the smallest is cut down to one,
	 * as fio does (without bs_unaligned), else the rest of its last block would be covered
	 * and never read. */
	uint64_t want = *len / l->unit;
	*len = covermap_take(&l->cover, b, want ? want : 1) * l->unit;
	return b * l->unit;
}

/* Take back the random map's last offset, of an I/O of `len` bytes at `off`, not issued. */
static void map_unoffset(struct loop *l, uint64_t off, uint64_t len)
{
	randmap_unnext(&l->map);
	if (l->cover.bits)
		covermap_give(&l->cover, off / l->unit, (len + l->unit - 1) / l->unit);
}

/* A random offset for an I/O of *len bytes, within the region. */
static uint64_t random_offset(struct loop *l, uint64_t *len)
{
	const struct worker_job *w = l->w;
	uint64_t off;

	if (l->dist) {
		off = distrib_next(l->dist, &l->rng) * l->unit;
	} else if (w->random_map) {
		off = map_offset(l, len);
	} else {
		/* With replacement: a block may come again before every other has come once. */
		uint64_t r = rng_next(&l->rng);
		off = (uint64_t)(((unsigned __int128)r * l->nblocks) >> 64) * l->unit;
	}
	/* An I/O bigger than the smallest size ends inside the region. */
	if (off + *len > w->region_len)
		off = (w->region_len - *len) / l->unit * l->unit;
	return off;
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
	if (w->mixed)
		io->op =
		    (uint32_t)(((unsigned __int128)rng_next(&l->dir_rng) * 100) >> 64) < w->read_pct
			? BE_READ
			: BE_WRITE;
	if (w->sizes)
		len = draw_size(l, &io->size_i);
	if (l->nblocks) {
		off = random_offset(l, &len);
	} else {
		/* readwrite: reads and writes each go through the region in order. */
		uint64_t *pos = w->mixed && io->op == BE_WRITE ? &l->wpos : &l->pos;
		if (*pos >= w->region_len)
			*pos = 0;
		off = *pos;
		if (len > w->region_len - off)
			len = w->region_len - off;
		*pos += len;
	}
	l->issued += len;
	io->seq = l->seq++;
	io_fill(l, io, off, len);
	if (w->sync_every && io->op == BE_WRITE && ++l->since_sync >= w->sync_every)
		l->sync_due = true;
	return true;
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
	if (l->nblocks && l->w->random_map && !l->dist) {
		uint64_t len = io->len;
		randmap_unnext(&l->map);
		randmap_restart(&l->map);
		if (l->cover.bits)
			covermap_clear(&l->cover);
		uint64_t off = random_offset(l, &len);
		io_fill(l, io, off, len);
	}
	l->issued = io->len;
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
		worker_pause_until(l, loop_now(l) + w->think_ns);
	if (!l->pace_ns)
		return loop_now(l);
	now = loop_now(l);
	if (l->sched == 0)
		l->sched = now;
	if (l->sched > now)
		worker_pause_until(l, l->sched);
	now = l->sched;
	l->sched += w->rate ? l->pace_ns * io->len / 1000000 : l->pace_ns;
	return now;
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
				io->start_ns = loop_now(l);
				io->unsent = false;
			}
			if (!worker_submit(l, io)) {
				l->ready[l->nready++] = io;
				break;
			}
			worker_push_batch(l, l->nready > 0 || (l->nfree > 0 && !l->stopping));
		}
		while (l->nready == 0 && l->nfree > 0 && !l->stopping) {
			struct be_io *io = l->free_list[l->nfree - 1];
			bool sw = w->stop_sw && *w->stop_sw;
			/* The sync follows the writes before it: first they complete. */
			if (l->sync_due && l->inflight > 0)
				break;
			if (l->sync_due && (r = worker_sync(l)) < 0)
				return r;
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
				if (!l->nblocks && w->mixed && io->op == BE_WRITE)
					l->wpos -= io->len;
				else if (!l->nblocks)
					l->pos -= io->len;
				else if (w->random_map && !l->dist)
					map_unoffset(l, io->base_offset - w->region_off, io->len);
				if (!l->deadline)
					l->o->stopped = true;
				l->free_list[l->nfree++] = io;
				l->stopping = true;
				break;
			}
			if (!worker_submit(l, io)) {
				io->unsent = true;
				l->ready[l->nready++] = io;
				break;
			}
			worker_push_batch(l, l->nfree > 0);
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
		if ((r = worker_reap(l, 1, NULL)) < 0)
			return r;
	}
	return 0;
}

/* The buffers allocated (on huge pages where `huge_bufs` applies), filled with varied bytes,
 * cut into the slots and shown to the backend. Returns 0, -ENOMEM, or the backend's error. */
static int buffers_init(struct loop *l, struct buffers *bufs, bool huge_bufs)
{
	const struct worker_job *w = l->w;
	unsigned depth = w->iodepth ? w->iodepth : 1;

	if (buffers_alloc(bufs, huge_bufs, depth, w->chunk) < 0)
		return -ENOMEM;
	/* Not zeros: a device that compresses or deduplicates must not get an easy ride. */
	l->rng = w->seed ^ 0x5bd1e995u;
	for (uint64_t i = 0; i + 8 <= depth * w->chunk; i += 8) {
		uint64_t v = rng_next(&l->rng);
		memcpy(bufs->base + i, &v, 8);
	}
	l->nfree = 0;
	for (unsigned i = 0; i < depth; i++) {
		l->slots[i].buf = l->slots[i].base_buf = bufs->base + (size_t)i * w->chunk;
		l->free_list[l->nfree++] = &l->slots[depth - 1 - i];
	}
	return w->be->buffers ? w->be->buffers(w->priv, bufs->base, depth * w->chunk) : 0;
}

/* Everything the loop needs before the clock starts: its slots and free list, the buffers
 * (filled with varied bytes, and shown to the backend), the bound, the random map, the logs,
 * the pace. Returns 0, -ENOMEM, or the backend's error for the buffers; what was allocated is in
 * `l` and `bufs` either way, for loop_free. */
static int loop_init(struct loop *l, struct buffers *bufs)
{
	const struct worker_job *w = l->w;
	unsigned depth = w->iodepth ? w->iodepth : 1;
	bool huge = buffers_huge(w->huge_bufs, w->chunk);
	int r;

	l->push_at = SUBMIT_BATCH;
	/* Written on every I/O: on cache lines of this worker's own. */
	l->slots = cacheline_zalloc(depth * sizeof(*l->slots));
	l->free_list = cacheline_zalloc(depth * sizeof(*l->free_list));
	l->ready = cacheline_zalloc(depth * sizeof(*l->ready));
	l->reaped = cacheline_zalloc(depth * sizeof(*l->reaped));
	if (w->split_lat && !(l->pend = cacheline_zalloc(depth * sizeof(*l->pend))))
		return -ENOMEM;
	if (!l->slots || !l->free_list || !l->ready || !l->reaped)
		return -ENOMEM;
	r = buffers_init(l, bufs, huge);
	/* A backend that pins the buffers (io_uring fixed buffers) is charged the whole huge
	 * page against RLIMIT_MEMLOCK, 2 MiB for a 64 KiB buffer: where that is refused, the
	 * ordinary pages the job would have had without huge_buffers. */
	if (r == -ENOMEM && huge) {
		buffers_free(bufs);
		r = buffers_init(l, bufs, false);
		l->o->hpages = WORKER_HP_FALLBACK;
	}
	if (r < 0)
		return r;
	/* Filled, so faulted in: the coordinator reads how they lie once every worker is ready. */
	l->o->buf_addr = (uintptr_t)bufs->base;
	l->o->buf_bytes = bufs->len;
	if (bufs->huge)
		l->o->hpages = WORKER_HP_ASKED;
	l->rng = w->seed;
	/* mixed: the directions' stream, of the seed too, apart from the offsets' */
	l->dir_rng = w->seed ^ 0x6a09e667f3bcc909ull;
	l->total = w->region_len;
	l->unit = w->sizes ? w->sizes->min : w->chunk;
	if (spec_workload_random(w->wl)) {
		l->nblocks = w->region_len / l->unit;
		l->total = l->nblocks * l->unit;
	}
	if (w->limit)
		l->total = w->limit;
	l->pos = w->start_pos;
	if (l->nblocks && w->random_map)
		randmap_init(&l->map, l->nblocks, w->seed, w->start_pos);
	/* A top-up goes on along the map's order with nothing covered yet. */
	if (l->nblocks && w->random_map && w->sizes && !w->dist &&
	    covermap_init(&l->cover, l->nblocks) < 0)
		return -ENOMEM;
	if (l->nblocks && w->dist) {
		if (!(l->dist = cacheline_zalloc(sizeof(*l->dist))))
			return -ENOMEM;
		distrib_init(l->dist, w->dist, l->nblocks, w->seed);
	}

	/* Random offsets: no readahead, as fio's default (fadvise_hint) asks. Else each buffered
	 * read of a missing block brings in its neighbours too, and about half of a pass of
	 * 4 KiB reads then finds its block in the page cache. Advice only: a file system that
	 * ignores it is not an error. */
	if (l->nblocks && !(w->be->flags & BE_F_NOIO))
		posix_fadvise(w->fd, 0, 0, POSIX_FADV_RANDOM);
	if (w->rec_fd >= 0 &&
	    (!(l->rec = cacheline_zalloc(sizeof(*l->rec))) ||
	     reclog_writer_start(l->rec, w->rec_fd, w->trial, w->worker, w->rank)))
		return -ENOMEM;
	if ((w->int_fd >= 0 || w->ivl_ring) && w->interval_ns &&
	    (l->ivl = cacheline_zalloc(sizeof(*l->ivl))))
		reclog_init(l->ivl, w->int_fd, w->trial, w->worker, w->rank);
	/* rate: ns per MB (scaled by each I/O's size); rate_iops: ns per I/O. */
	if (w->rate)
		l->pace_ns = (uint64_t)(1e15 / (double)w->rate);
	else if (w->rate_iops)
		l->pace_ns = 1000000000ull / w->rate_iops;
	return 0;
}

/* After the loop: the end time, where a top-up would go on, the last log interval and the
 * logs flushed. */
static void loop_end(struct loop *l, const uint64_t *vclock)
{
	const struct worker_job *w = l->w;
	struct worker_out *o = l->o;

	o->end_ns = l->vclock ? o->start_ns + *vclock : loop_now(l);
	o->pos = l->nblocks && w->random_map ? randmap_drawn(&l->map) : l->pos;
	if (l->ivl) {
		if (l->ivl_ios || l->ivl_start < o->end_ns) {
			l->ivl_end = o->end_ns;
			worker_interval_close(l);
		}
		o->log_err[WORKER_LOG_INTERVALS] = reclog_flush(l->ivl);
	}
	if (l->rec && reclog_writer_finish(l->rec) < 0)
		o->log_err[WORKER_LOG_RECORDS] = l->rec->text.err;
}

static void loop_free(struct loop *l, struct buffers *bufs)
{
	if (l->rec)
		reclog_writer_release(l->rec);
	free(l->rec);
	free(l->ivl);
	free(l->dist);
	covermap_free(&l->cover);
	buffers_free(bufs);
	free(l->slots);
	free(l->free_list);
	free(l->ready);
	free(l->reaped);
	free(l->pend);
}

int worker_run(const struct worker_job *w, struct worker_out *o)
{
	struct loop l = {.w = w, .o = o};
	struct buffers bufs = {0};
	uint64_t vclock = 0;
	double u0, s0;
	int ret;
	struct worker_extra *x = w->extra;

	memset(o, 0, sizeof(*o));
	o->prog_step = 1000000; /* 1 ms, doubling as the run grows */
	hist_init(&o->hist);
	welford_init(&o->lat);
	if ((o->extra = x)) {
		memset(x, 0, sizeof(*x));
		hist_init(&x->sync_hist);
		welford_init(&x->sync_lat);
		for (int d = 0; d < 2; d++) {
			hist_init(&x->dir[d].hist);
			welford_init(&x->dir[d].lat);
			hist_init(&x->split_hist[d]);
			welford_init(&x->split_lat[d]);
		}
	}

	fastclock_init(&l.clk);
	if ((ret = loop_init(&l, &bufs)) < 0) {

		worker_gate(w); /* the others must not wait for us forever */
		goto out;
	}
	if (!worker_gate(w))
		goto out; /* cancelled before the start: nothing measured, nothing wrong here */

	cpu_now(&u0, &s0);
	if (w->be->flags & BE_F_VIRTUAL)
		l.vclock = &vclock;
	start_window(&l, loop_now(&l));
	if (w->ramp_ns) {
		l.ramp_end = o->start_ns + w->ramp_ns;
		l.window = UINT64_MAX; /* nothing counts until the ramp ends */
		l.deadline = 0;
	}
	ret = loop_run(&l);
	if (ret < 0 && !worker_drain(&l)) {
		/* The kernel may still write into these buffers: leak them rather than free. */
		bufs = (struct buffers){0};
		l.slots = NULL;
	}
	if (ret == 0 && w->fsync_end && !o->err)
		ret = worker_fsync_end(&l);
	loop_end(&l, &vclock);
	cpu_now(&o->cpu_user_s, &o->cpu_sys_s);
	o->cpu_user_s -= u0;
	o->cpu_sys_s -= s0;
	if (l.rec) {
		/* The record log's thread works for this worker: its time counts too. */
		o->cpu_user_s += l.rec->cpu_user_s;
		o->cpu_sys_s += l.rec->cpu_sys_s;
	}
	if (ret == 0 && o->err)
		ret = o->err;
out:
	loop_free(&l, &bufs);
	return ret;
}
