/* The worker loop's side of the backend (see worker_internal.h): I/Os handed over two at a
 * time, then four at a time for random offsets (no two abutting), the last ones with the
 * wait; completions taken in batches, one clock read each; pauses that go on handling
 * completions; the final fsync and the drain after an error. */
#include "engine/io/worker_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/io/verify.h"

/* A pause (rate, think_time) looks at the stop flags at least this often. */
#define PAUSE_SLICE_NS 100000000ull

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

/* A progress sample when due, and the tally for the progress line when due: at most one
 * test per I/O (note_next) whichever is asked for. */
static void note(struct loop *l, uint64_t t)
{
	struct worker_tally *tl = l->w->tally;

	if (t >= l->prog_next)
		progress(l, t);
	l->note_next = l->prog_next;
	if (!tl)
		return;
	if (t >= l->tally_next) {
		atomic_store_explicit(&tl->bytes, l->o->bytes, memory_order_relaxed);
		atomic_store_explicit(&tl->ios, l->o->ios, memory_order_relaxed);
		l->tally_next = t + WORKER_TALLY_NS;
	}
	if (l->tally_next < l->note_next)
		l->note_next = l->tally_next;
}

/* One more closed interval into the ring the coordinator streams from, as a seqlock's
 * writer: the release fence keeps head's last raise (which told readers this entry's
 * previous lap may be overwritten) before the entry's new values. */
static void ivl_put(struct worker_ivl_ring *ring, uint64_t start_ns, uint64_t end_ns,
		    uint64_t bytes, uint64_t ios, double lat_sum_ns)
{
	uint64_t h = atomic_load_explicit(&ring->head, memory_order_relaxed);
	struct worker_ivl *e = &ring->e[h % WORKER_IVL_RING];

	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&e->start_ns, start_ns, memory_order_relaxed);
	atomic_store_explicit(&e->end_ns, end_ns, memory_order_relaxed);
	atomic_store_explicit(&e->bytes, bytes, memory_order_relaxed);
	atomic_store_explicit(&e->ios, ios, memory_order_relaxed);
	atomic_store_explicit(&e->lat_sum_ns, (uint64_t)(lat_sum_ns + 0.5), memory_order_relaxed);
	atomic_store_explicit(&ring->head, h + 1, memory_order_release);
}

unsigned worker_ivl_take(struct worker_ivl_ring *ring, uint64_t *seen, struct worker_ivl_copy *out,
			 uint64_t *dropped)
{
	uint64_t head = atomic_load_explicit(&ring->head, memory_order_acquire), from = *seen;
	uint64_t ok;
	unsigned n = 0, lapped;

	if (head - from > WORKER_IVL_RING) {
		*dropped += head - from - WORKER_IVL_RING;
		from = head - WORKER_IVL_RING;
	}
	for (uint64_t i = from; i < head; i++) {
		struct worker_ivl *e = &ring->e[i % WORKER_IVL_RING];
		out[n++] = (struct worker_ivl_copy){
		    atomic_load_explicit(&e->start_ns, memory_order_relaxed),
		    atomic_load_explicit(&e->end_ns, memory_order_relaxed),
		    atomic_load_explicit(&e->bytes, memory_order_relaxed),
		    atomic_load_explicit(&e->ios, memory_order_relaxed),
		    atomic_load_explicit(&e->lat_sum_ns, memory_order_relaxed)};
	}
	/* The seqlock's reader: entries below `ok` may have been written again while they
	 * were copied (the worker lapped the reader); they are dropped, never half read. */
	atomic_thread_fence(memory_order_acquire);
	ok = atomic_load_explicit(&ring->head, memory_order_relaxed);
	ok = ok >= WORKER_IVL_RING ? ok - WORKER_IVL_RING + 1 : 0;
	lapped = ok > from ? (unsigned)(ok - from < n ? ok - from : n) : 0;
	memmove(out, out + lapped, (n - lapped) * sizeof(*out));
	*dropped += lapped;
	*seen = head;
	return n - lapped;
}

void worker_interval_close(struct loop *l)
{
	uint64_t t0 = l->o->start_ns;

	reclog_interval(l->ivl, l->ivl_start - t0, l->ivl_end - t0, l->ivl_bytes, l->ivl_ios,
			l->ivl_lat);
	if (l->w->ivl_ring)
		ivl_put(l->w->ivl_ring, l->ivl_start - t0, l->ivl_end - t0, l->ivl_bytes,
			l->ivl_ios, l->ivl_lat);
	l->ivl_start = l->ivl_end;
	l->ivl_end += l->w->interval_ns;
	l->ivl_bytes = l->ivl_ios = 0;
	l->ivl_lat = 0;
}

static bool stop_asked(const struct worker_job *w)
{
	return *w->stop || (w->stop_bg && *w->stop_bg);
}

/* Sleep until `when` on the worker's clock, in slices of at most PAUSE_SLICE_NS so that a
 * stop request is seen within that. On the worker's clock, not CLOCK_MONOTONIC, which it
 * follows only within a bound: a wait that ended on CLOCK_MONOTONIC could leave an I/O due
 * (its latency's start) after the worker's clock read at its completion. */
static void sleep_until(struct loop *l, uint64_t when)
{
	for (;;) {
		uint64_t now = loop_now(l), left = when - now;
		if (now >= when || stop_asked(l->w))
			return;
		if (left > PAUSE_SLICE_NS)
			left = PAUSE_SLICE_NS;
		struct timespec ts = {(time_t)(left / 1000000000ull), (long)(left % 1000000000ull)};
		nanosleep(&ts, NULL);
	}
}

/* Hand the kernel the I/Os queued since the last commit. Done when worker_push_batch says
 * and before any sleep: an I/O must not wait in the backend while the worker sleeps,
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
	/* submit_latency: what the kernel took (commit's count, oldest first) was submitted now
	 * (one clock read for the batch); the rest waits for a later commit, or goes with
	 * reap(), its slat unknown (worker_reap forgets it). The
	 * worker's own clock, as the I/O's start and completion: CLOCK_MONOTONIC itself may
	 * lie a little before or after it (fastclock.h), which would cost I/Os their split. */
	if (l->npend && r > 0) {
		unsigned took = (unsigned)r < l->npend ? (unsigned)r : l->npend;
		uint64_t now = loop_now(l);
		for (unsigned i = 0; i < took; i++)
			if (!l->pend[i]->submit_ns)
				l->pend[i]->submit_ns = now;
		l->npend -= took;
		memmove(l->pend, l->pend + took, l->npend * sizeof(*l->pend));
	}
}

/* submit_latency: an I/O's slat and clat, when it was submitted apart from its queueing. */
static void split_record(struct worker_extra *x, const struct be_io *io, uint64_t t)
{
	uint64_t s = io->submit_ns;

	if (!s || s == BE_SUBMIT_UNSEEN || s < io->start_ns || t < s)
		return;
	hist_record(&x->split_hist[0], s - io->start_ns);
	welford_add(&x->split_lat[0], (double)(s - io->start_ns));
	hist_record(&x->split_hist[1], t - s);
	welford_add(&x->split_lat[1], (double)(t - s));
}

/* Handle a finished submission that was seen complete at `now` (CLOCK_MONOTONIC ns):
 * retry a short transfer, move a copy on to its write, or count the I/O and free its slot.
 */
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
		/* Simulated time, counted from the trial's start: the backend says how long
		 * the I/O took. */
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
	o->ios++;
	if (t >= l->note_next)
		note(l, t);
	if (l->w->sizes && !l->w->sizes->range) {
		o->size_ios[io->size_i]++;
		o->size_cut[io->size_i] += io->full_len < l->w->sizes->size[io->size_i];
	}
	if (l->w->mixed) {
		struct worker_dir *d = &o->extra->dir[io->op == BE_WRITE];
		hist_record(&d->hist, t - io->start_ns);
		welford_add(&d->lat, (double)(t - io->start_ns));
		d->bytes += io->full_len;
		d->ios++;
	}
	if (l->pend)
		split_record(o->extra, io, t);

	if (l->rec)
		reclog_writer_add(l->rec, io->seq, io->base_offset, io->full_len,
				  io->start_ns - o->start_ns, t - io->start_ns);
	if (l->ivl) {
		while (t >= l->ivl_end)
			worker_interval_close(l);
		l->ivl_bytes += io->full_len;
		l->ivl_ios++;
		l->ivl_lat += (double)(t - io->start_ns);
	}
}

/* Whether `io` would touch an I/O queued since the last commit end to end: a plugged batch
 * would leave the two as one request. */
static bool abuts_batch(const struct loop *l, const struct be_io *io)
{
	uint64_t lo = io->offset, hi = io->offset + io->len;

	for (unsigned i = 0; i < l->unpushed && i < BATCH_MAX; i++)
		if (lo == l->batch_hi[i] || hi == l->batch_lo[i])
			return true;
	return false;
}

bool worker_submit(struct loop *l, struct be_io *io)
{
	int r;

	/* Random offsets: an I/O that abuts one of the batch starts the next batch. */
	if (l->nblocks && l->unpushed && abuts_batch(l, io))
		push(l);
	r = l->w->be->queue(l->w->priv, io);

	if (r == BE_BUSY) {
		l->busy_spins++;
		return false;
	}
	l->busy_spins = 0;
	if (r == BE_QUEUED) {
		if (l->unpushed < BATCH_MAX) {
			l->batch_lo[l->unpushed] = io->offset;
			l->batch_hi[l->unpushed] = io->offset + io->len;
		}
		l->inflight++;
		l->unpushed++;
		/* submit_latency: a backend without commit() submits in queue(). A short
		 * transfer's rest and a copy's write keep the first submission's time (push). */
		if (l->pend && l->w->be->commit)
			l->pend[l->npend++] = io;
		else if (l->pend && !io->submit_ns)
			io->submit_ns = loop_now(l);
		return true;
	}
	if (r != BE_DONE)
		io->result = r;
	complete(l, io, l->vclock ? 0 : loop_now(l));
	return true;
}

/* Commit what is queued once push_at I/Os wait: two at first, since Linux plugs a submission
 * of three or more and the device would wait while the whole batch is built. With random
 * offsets the later commits of a round take BATCH_MAX (2, 4, 4, ...), none two of them
 * abutting (worker_submit): the device is busy with the first ones by then, and a plugged
 * batch notifies it once (on a virtual disk, one VM exit) instead of once per I/O, in the
 * sizes the job asked for. Sequential offsets stay in pairs: a plug would merge them into
 * bigger requests. docs/performance.md, "Then: batches of four, for random offsets". */
void worker_push_batch(struct loop *l, bool more)
{
	if (l->unpushed < l->push_at || !more)
		return;
	push(l);
	if (l->nblocks)
		l->push_at = BATCH_MAX;
}

/* The backend hands the kernel what is still queued first. One clock read for the batch:
 * its I/Os were seen complete together. */
int worker_reap(struct loop *l, unsigned min, const struct timespec *timeout)
{
	int n;
	uint64_t now;

	/* submit_latency: commit apart from the wait, so the submission has its own time. */
	if (l->npend)
		push(l);
	n = l->w->be->reap(l->w->priv, min, l->inflight, l->reaped, timeout);

	/* What no commit took went with the wait, at a time the core does not see: no split,
	 * even for a copy's write that a later commit takes. */
	for (unsigned i = 0; i < l->npend; i++)
		if (!l->pend[i]->submit_ns)
			l->pend[i]->submit_ns = BE_SUBMIT_UNSEEN;
	l->npend = 0;
	l->unpushed = 0;
	l->push_at = SUBMIT_BATCH; /* a new round */
	if (n <= 0)
		return n;
	now = l->vclock ? 0 : loop_now(l);
	l->inflight -= (unsigned)n;
	for (int i = 0; i < n; i++)
		complete(l, l->reaped[i], now);
	return n;
}

/* What is queued goes to the kernel first, and the completions of the I/Os in flight are
 * handled as they come, so that their latency ends when they complete, not when the pause
 * does. With nothing in flight, or a backend that cannot time its wait, it sleeps. */
void worker_pause_until(struct loop *l, uint64_t when)
{
	push(l);
	while (l->inflight > 0 && !l->fatal) {
		uint64_t now = loop_now(l), left;
		struct timespec ts;
		int r;

		if (now >= when || stop_asked(l->w))
			return;
		left = when - now < PAUSE_SLICE_NS ? when - now : PAUSE_SLICE_NS;
		ts.tv_sec = (time_t)(left / 1000000000ull);
		ts.tv_nsec = (long)(left % 1000000000ull);
		r = worker_reap(l, 1, &ts);
		if (r == -EOPNOTSUPP)
			break;
		if (r < 0)
			l->fatal = r;
	}
	sleep_until(l, when);
}

int worker_fsync_end(struct loop *l)
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
		/* worker_reap() submits it and waits for it. */
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

int worker_sync(struct loop *l)
{
	const struct worker_job *w = l->w;
	struct worker_out *o = l->o;
	uint64_t t0 = loop_now(l), t1;
	int r = 0;

	l->sync_due = false;
	l->since_sync = 0;
	/* A backend without a device has nothing to sync; the sync is still counted. */
	if (!(w->be->flags & BE_F_NOIO) && w->fd >= 0 &&
	    (w->sync_data ? fdatasync(w->fd) : fsync(w->fd)) < 0)
		r = -errno;
	t1 = loop_now(l);
	if (r < 0) {
		struct be_io io = {.op = BE_FSYNC, .fd = w->fd};
		note_error(l, &io, r, false);
		return r;
	}
	if (t0 < l->window)
		return 0; /* during the ramp: not measured */
	o->extra->syncs++;
	hist_record(&o->extra->sync_hist, t1 - t0);
	welford_add(&o->extra->sync_lat, (double)(t1 - t0));

	return 0;
}

/* After an error, wait for what is still in flight: its buffers must outlive it. Returns

 * false when the backend cannot say, and the buffers must then be left alone. */
bool worker_drain(struct loop *l)
{
	while (l->inflight > 0) {
		int n = l->w->be->reap(l->w->priv, 1, l->inflight, l->reaped, NULL);
		if (n < 0)
			return false;
		l->inflight -= (unsigned)n;
	}
	return true;
}
