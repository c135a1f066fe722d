/* The io_uring backend (liburing): one ring per worker, I/Os prepared by queue(), pushed to
 * the kernel by commit(), collected in batches by reap(), which hands over what is still
 * prepared in the same io_uring_enter as its wait.
 * Built only when the Makefile finds liburing (WITH_LIBURING). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <liburing.h>

#include "engine/io/backends/backend.h"

#define URING_MAX_DEPTH 4096

struct uring {
	struct io_uring ring;
	unsigned depth;	   /* ring entries: the iodepth rounded up to a power of two */
	unsigned pending;  /* SQEs prepared but not yet taken by the kernel */
	unsigned inflight; /* queued and not yet reaped, so reap() never waits for nothing */
	struct io_uring_cqe **cqes; /* `depth` slots for io_uring_peek_batch_cqe */
};

static unsigned uring_min(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

static unsigned uring_roundup(unsigned n)
{
	unsigned p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* The ring's setup flags. SQPOLL (IORING_SETUP_SQPOLL, sq_thread_idle, sq_thread_cpu) would
 * be chosen here, from an option of this backend: a row in an io_uring option table and a
 * field in the struct it types into, read in uring_init with be_opts_load() (skeleton.c
 * shows the pattern; docs/backends.md#writing-a-backend, step 4). */
static void uring_params(const struct be_config *cfg, struct io_uring_params *p)
{
	memset(p, 0, sizeof(*p));
	/* SUBMIT_ALL: one bad SQE must not strand the ones behind it in the SQ ring.
	 * COOP_TASKRUN: completions need not interrupt the worker; it reaps when it is ready. */
	p->flags = IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN;
}

static int uring_init(void *priv, const struct be_config *cfg)
{
	struct uring *u = priv;
	struct io_uring_params p;
	int r;

	u->depth = uring_roundup(cfg->iodepth ? cfg->iodepth : 1);
	if (u->depth > URING_MAX_DEPTH)
		return -EINVAL;
	u->cqes = calloc(u->depth, sizeof(*u->cqes));
	if (!u->cqes)
		return -ENOMEM;
	uring_params(cfg, &p);
	r = io_uring_queue_init_params(u->depth, &u->ring, &p);
	if (r == -EINVAL) {
		/* Kernels before 5.19 know neither flag; the ring works without them. */
		uring_params(cfg, &p);
		p.flags &= ~(IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN);
		r = io_uring_queue_init_params(u->depth, &u->ring, &p);
	}
	if (r < 0)
		goto fail_ring;
	/* Registered files (io_uring_register_files_sparse) and fixed buffers
	 * (io_uring_register_buffers) would be set up here. */
	return 0;

fail_ring:
	free(u->cqes);
	u->cqes = NULL;
	return r;
}

static int uring_open(void *priv, int dirfd, const char *path, int flags, mode_t mode)
{
	/* With registered files, the fd would also go into a slot of the file table here. */
	return be_plain_open(priv, dirfd, path, flags, mode);
}

/* Hand the kernel what is prepared; returns the count it took, or -errno. */
static int uring_submit(struct uring *u)
{
	int r;

	do
		r = io_uring_submit(&u->ring);
	while (r == -EINTR);
	if (r > 0)
		u->pending -= uring_min((unsigned)r, u->pending);
	return r;
}

/* The one place an I/O becomes an SQE: fixed files (IOSQE_FIXED_FILE) and fixed buffers
 * (io_uring_prep_read_fixed) would be chosen here. */
static void uring_prep(struct io_uring_sqe *sqe, struct be_io *io)
{
	switch (io->op) {
	case BE_READ:
		io_uring_prep_read(sqe, io->fd, io->buf, io->len, io->offset);
		break;
	case BE_WRITE:
		io_uring_prep_write(sqe, io->fd, io->buf, io->len, io->offset);
		break;
	default:
		io_uring_prep_fsync(sqe, io->fd, 0);
		break;
	}
	io_uring_sqe_set_data(sqe, io);
}

static int uring_queue(void *priv, struct be_io *io)
{
	struct uring *u = priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe) {
		int r = uring_submit(u);

		/* The kernel is short of room: the caller reaps and then queues again. */
		if (r == -EAGAIN || r == -EBUSY)
			return BE_BUSY;
		if (r < 0)
			return r;
		sqe = io_uring_get_sqe(&u->ring);
		if (!sqe)
			return BE_BUSY;
	}
	uring_prep(sqe, io);
	u->pending++;
	u->inflight++;
	return BE_QUEUED;
}

/* Returns 0 or -errno; -EAGAIN and -EBUSY mean "reap, then commit again". The kernel may
 * take fewer SQEs than prepared; the rest stay in the SQ ring for the next submit. */
static int uring_commit(void *priv)
{
	struct uring *u = priv;
	int r;

	if (!u->pending)
		return 0;
	r = uring_submit(u);
	return r < 0 ? r : 0;
}

/* Copy what the CQ ring holds (up to `max`) into `out`; returns how many. */
static unsigned uring_harvest(struct uring *u, unsigned max, struct be_io **out)
{
	unsigned n = io_uring_peek_batch_cqe(&u->ring, u->cqes, max);

	for (unsigned i = 0; i < n; i++) {
		struct be_io *io = io_uring_cqe_get_data(u->cqes[i]);

		io->result = u->cqes[i]->res;
		out[i] = io;
	}
	io_uring_cq_advance(&u->ring, n);
	u->inflight -= n;
	return n;
}

/* Wait for `want` completions, at most `ts` long when set (-ETIME then). */
static int uring_wait(struct uring *u, unsigned want, struct __kernel_timespec *ts)
{
	struct io_uring_cqe *cqe;

	if (ts)
		return io_uring_wait_cqes(&u->ring, &cqe, want, ts, NULL);
	return io_uring_wait_cqe_nr(&u->ring, &cqe, want);
}

/* Submit what is prepared and wait for `want` completions, in one io_uring_enter; at most
 * `ts` long when set (-ETIME then). When the kernel has no room for more, wait for the I/Os
 * it already has. Returns >= 0 or -errno. */
static int uring_submit_wait(struct uring *u, unsigned want, struct __kernel_timespec *ts)
{
	struct io_uring_cqe *cqe;
	int r;

	if (!u->pending)
		return uring_wait(u, want, ts);
	if (ts) {
		/* Returns 0 or -errno, not a count: the SQ ring says what the kernel took. */
		r = io_uring_submit_and_wait_timeout(&u->ring, &cqe, want, ts, NULL);
		u->pending = io_uring_sq_ready(&u->ring);
	} else {
		r = io_uring_submit_and_wait(&u->ring, want);
		if (r > 0)
			u->pending -= uring_min((unsigned)r, u->pending);
	}
	if ((r == -EAGAIN || r == -EBUSY) && u->inflight > u->pending)
		r = uring_wait(u, uring_min(want, u->inflight - u->pending), ts);
	return r;
}

static int uring_reap(void *priv, unsigned min, unsigned max, struct be_io **out,
		      const struct timespec *timeout)
{
	struct uring *u = priv;
	struct __kernel_timespec kts, *ts = NULL;
	unsigned got = 0;
	int r;

	if (timeout) {
		/* Without IORING_FEAT_EXT_ARG (kernels before 5.11), liburing would time the wait
		 * with a timeout SQE, whose CQE the harvest would take for an I/O. */
		if (!(u->ring.features & IORING_FEAT_EXT_ARG))
			return -EOPNOTSUPP;
		kts.tv_sec = timeout->tv_sec;
		kts.tv_nsec = timeout->tv_nsec;
		ts = &kts;
	}
	if (max > u->depth)
		max = u->depth;
	if (min > max)
		min = max;
	for (;;) {
		got += uring_harvest(u, max - got, out + got);
		if (got >= min || u->inflight == 0) {
			/* No wait needed: what is prepared still goes to the kernel now. */
			if (u->pending && (r = uring_submit(u)) < 0 && r != -EAGAIN &&
			    r != -EBUSY && got == 0)
				return r;
			return (int)got;
		}
		/* Waiting on SQEs the kernel has not taken would never end: submit them too. */
		r = uring_submit_wait(u, uring_min(min - got, u->inflight), ts);
		/* A timed wait is waited once: what completed meanwhile, possibly nothing. */
		if (ts && (r >= 0 || r == -ETIME || r == -EINTR))
			return (int)(got + uring_harvest(u, max - got, out + got));
		/* A signal (say, the user's Ctrl-C) is not an outcome: the caller drains. */
		if (r == -EINTR)
			continue;
		if (r < 0)
			return got ? (int)got : r;
	}
}

static void uring_cleanup(void *priv)
{
	struct uring *u = priv;

	io_uring_queue_exit(&u->ring);
	free(u->cqes);
}

/* Whether this process may make a ring at all: containers' seccomp profiles and the
 * kernel.io_uring_disabled sysctl refuse io_uring_setup even where liburing is installed. */
static int uring_probe(char *why, size_t len)
{
	struct io_uring ring;
	const char *hint = "";
	FILE *f;
	int r = io_uring_queue_init(1, &ring, 0), disabled = 0;

	if (r == 0) {
		io_uring_queue_exit(&ring);
		return 0;
	}
	f = fopen("/proc/sys/kernel/io_uring_disabled", "re");
	if (f) {
		if (fscanf(f, "%d", &disabled) != 1)
			disabled = 0;
		fclose(f);
	}
	if ((r == -EPERM || r == -EACCES) && disabled == 2)
		hint = " (kernel.io_uring_disabled=2)";
	else if ((r == -EPERM || r == -EACCES) && disabled == 1)
		hint = " (kernel.io_uring_disabled=1 and not in kernel.io_uring_group)";
	else if (r == -EPERM || r == -EACCES)
		hint = " (blocked by seccomp or kernel.io_uring_disabled?)";
	else if (r == -ENOSYS)
		hint = " (kernel without io_uring, or blocked by seccomp?)";
	else if (r == -ENOMEM)
		hint = " (RLIMIT_MEMLOCK too low for the ring?)";
	snprintf(why, len, "io_uring_setup: %s%s", strerror(-r), hint);
	return r;
}

const struct be_ops be_io_uring = {
    .name = "io_uring",
    .help = "io_uring via liburing, iodepth I/Os in flight per worker; direct: true adds O_DIRECT",
    .flags = BE_F_ASYNC | BE_F_DIRECT,
    .max_iodepth = URING_MAX_DEPTH,
    .priv_size = sizeof(struct uring),
    .probe = uring_probe,
    .init = uring_init,
    .open = uring_open,
    .queue = uring_queue,
    .commit = uring_commit,
    .reap = uring_reap,
    .close = be_plain_close,
    .cleanup = uring_cleanup,
};
