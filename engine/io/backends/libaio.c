/* The libaio backend: Linux native AIO (io_submit/io_getevents), up to iodepth I/Os in
 * flight. queue() only prepares an iocb; commit() submits the pending batch in one call, and
 * reap() submits what is still pending before it waits.
 * Built only when the Makefile finds libaio (WITH_LIBAIO). */
#include "engine/io/backends/backend.h"

#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AIO_EAGAIN_TRIES 1000 /* x 1 ms, when nothing is in flight to free room */

struct aio_state {
	io_context_t ctx;
	unsigned depth;
	struct iocb *iocbs;  /* the pending batch, in order: iocbs[0..npending) */
	struct iocb **batch; /* batch[i] == &iocbs[i], the array io_submit takes */
	struct io_event *events;
	struct be_io **failed; /* refused by io_submit; handed back by the next reap */
	unsigned npending;     /* prepared, not yet submitted */
	unsigned forgot;       /* the first of them, left by a reap: the core counts them gone */
	unsigned nkernel;      /* submitted, not yet reaped */
	unsigned nfailed;
};

/* Drop the first `n` iocbs of the pending batch. The kernel copies an iocb during
 * io_submit, so the submitted ones are free for reuse as soon as it returns. */
static void aio_drop_pending(struct aio_state *s, unsigned n)
{
	s->npending -= n;
	memmove(s->iocbs, s->iocbs + n, s->npending * sizeof(*s->iocbs));
}

static int aio_init(void *priv, const struct be_config *cfg)
{
	struct aio_state *s = priv;
	int r = -ENOMEM;

	s->depth = cfg->iodepth ? cfg->iodepth : 1;
	s->iocbs = calloc(s->depth, sizeof(*s->iocbs));
	s->batch = calloc(s->depth, sizeof(*s->batch));
	s->events = calloc(s->depth, sizeof(*s->events));
	s->failed = calloc(s->depth, sizeof(*s->failed));
	if (!s->iocbs || !s->batch || !s->events || !s->failed)
		goto fail_alloc;
	for (unsigned i = 0; i < s->depth; i++)
		s->batch[i] = &s->iocbs[i];
	/* libaio returns -errno itself; errno is not set. */
	s->ctx = 0;
	r = io_setup((int)s->depth, &s->ctx);
	if (r < 0)
		goto fail_alloc;
	return 0;

fail_alloc:
	free(s->iocbs);
	free(s->batch);
	free(s->events);
	free(s->failed);
	return r;
}

static int aio_queue(void *priv, struct be_io *io)
{
	struct aio_state *s = priv;
	unsigned busy = s->npending + s->nkernel + s->nfailed;
	struct iocb *cb;
	int r;

	if (io->op == BE_FSYNC) {
		/* IOCB_CMD_FSYNC is refused (-EINVAL) by many file systems, so fsync is done
		 * here, synchronously. It waits for the I/Os already started to finish first,
		 * so that it covers them, as an fsync after those writes would. */
		if (busy)
			return BE_BUSY;
		do
			r = fsync(io->fd);
		while (r < 0 && errno == EINTR);
		io->result = r < 0 ? -errno : 0;
		return BE_DONE;
	}
	if (busy >= s->depth)
		return BE_BUSY;
	cb = &s->iocbs[s->npending++];
	if (io->op == BE_READ)
		io_prep_pread(cb, io->fd, io->buf, io->len, (long long)io->offset);
	else
		io_prep_pwrite(cb, io->fd, io->buf, io->len, (long long)io->offset);
	cb->data = io;
	return BE_QUEUED;
}

/* Submit the pending batch; returns how many of those queued since the last reap left it,
 * oldest first (a refused one too: it is done). A refused iocb becomes that I/O's result (-errno),
 * so the core reports it with its op and offset. -EAGAIN while others are in flight keeps the rest
 * pending: reaping frees room, and the core commits again before it queues more. With nothing in
 * flight nothing will free room, so retry for about a second first. */
static int aio_commit(void *priv)
{
	struct aio_state *s = priv;
	unsigned tries = 0, taken = 0;
	int r;

	while (s->npending > 0) {
		r = io_submit(s->ctx, (long)s->npending, s->batch);
		if (r == -EAGAIN && s->nkernel > 0)
			break;
		if (r == -EAGAIN && tries++ < AIO_EAGAIN_TRIES) {
			usleep(1000);
			continue;
		}
		if (r < 0) {
			/* io_submit stops at the first iocb it refuses: that one failed. */
			struct be_io *io = s->iocbs[0].data;
			io->result = r;
			s->failed[s->nfailed++] = io;
			r = 1;
		} else if (r == 0) {
			break;
		} else {
			s->nkernel += (unsigned)r;
		}
		aio_drop_pending(s, (unsigned)r);
		taken += (unsigned)r;
	}
	/* What a reap could not submit went first; the core no longer counts it as queued. */
	r = (int)(taken < s->forgot ? taken : s->forgot);
	s->forgot -= (unsigned)r;
	return (int)taken - r;
}

static int64_t aio_result(const struct io_event *ev)
{
	/* res is unsigned long but holds bytes or a negative errno; res2 is a second error
	 * slot some drivers use. */
	long res = (long)ev->res, res2 = (long)ev->res2;

	if (res >= 0 && res2 != 0)
		return res2 < 0 ? res2 : -EIO;
	return res;
}

static int aio_reap(void *priv, unsigned min, unsigned max, struct be_io **out,
		    const struct timespec *timeout)
{
	struct aio_state *s = priv;
	unsigned n = 0, want, room;
	int r;

	/* The core leaves the last batch for reap() to submit; AIO has no call that submits and
	 * waits at once, so io_submit goes first. Never wait with iocbs still pending. */
	if (s->npending > 0)
		aio_commit(s);
	/* Refused (-EAGAIN), these go with a later commit, which must not count them for the
	 * I/Os the core queues after this reap (submit_latency). */
	s->forgot = s->npending;
	while (s->nfailed > 0 && n < max)
		out[n++] = s->failed[--s->nfailed];
	if (n == max || s->nkernel == 0)
		return (int)n;
	want = min > n ? min - n : 0;
	if (want > s->nkernel)
		want = s->nkernel;
	room = max - n < s->nkernel ? max - n : s->nkernel;
	/* A timed wait returns what completed by then, possibly nothing; io_getevents may change
	 * the timespec it is given, so it gets a copy. A signal ends a timed wait early. */
	if (timeout) {
		struct timespec left = *timeout;
		r = io_getevents(s->ctx, (long)want, (long)room, s->events, &left);
		if (r == -EINTR)
			r = 0;
	} else {
		do
			r = io_getevents(s->ctx, (long)want, (long)room, s->events, NULL);
		while (r == -EINTR);
	}
	if (r < 0)
		return n ? (int)n : r;
	s->nkernel -= (unsigned)r;
	for (int i = 0; i < r; i++) {
		struct be_io *io = s->events[i].data;
		io->result = aio_result(&s->events[i]);
		out[n++] = io;
	}
	return (int)n;
}

static void aio_cleanup(void *priv)
{
	struct aio_state *s = priv;

	/* io_destroy waits for whatever is still in flight. */
	io_destroy(s->ctx);
	free(s->iocbs);
	free(s->batch);
	free(s->events);
	free(s->failed);
}

static int aio_probe(char *why, size_t len)
{
	io_context_t ctx = 0;
	int r = io_setup(1, &ctx);
	const char *hint = "";

	if (r == 0)
		return io_destroy(ctx);
	if (r == -EAGAIN)
		hint = " (fs.aio-max-nr reached?)";
	else if (r == -ENOSYS)
		hint = " (kernel built without CONFIG_AIO?)";
	else if (r == -EPERM)
		hint = " (seccomp?)";
	snprintf(why, len, "io_setup: %s%s", strerror(-r), hint);
	return r;
}

const struct be_ops be_libaio = {
    .name = "libaio",
    .help =
	"Linux AIO; use direct: true, else most file systems finish it synchronously in io_submit",
    .flags = BE_F_ASYNC | BE_F_DIRECT,
    .max_iodepth = 4096,
    .priv_size = sizeof(struct aio_state),
    .probe = aio_probe,
    .init = aio_init,
    .open = be_plain_open,
    .queue = aio_queue,
    .commit = aio_commit,
    .reap = aio_reap,
    .close = be_plain_close,
    .cleanup = aio_cleanup,
};
