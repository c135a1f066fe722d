/* The io_uring backend (liburing): one ring per worker, I/Os prepared by queue(), pushed to
 * the kernel by commit(), collected in batches by reap(), which hands over what is still
 * prepared in the same io_uring_enter as its wait. Its options are the knobs fio users
 * tune: registered files, fixed buffers, SQPOLL, polled completions (IOPOLL), submit and
 * complete batch sizes (docs/backends.md#io_uring).
 * Built only when the Makefile finds liburing (WITH_LIBURING). */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <liburing.h>

#include "engine/io/backends/backend.h"
#include "engine/io/backends/io_uring_opts.h"
#include "model/jobkeys.h"

#define URING_FILES 4 /* registered file slots: a worker opens at most two files */

extern const struct be_ops be_io_uring;

struct uring {
	struct io_uring ring;
	struct uring_opts o;
	char *why; /* where init and open explain a refusal (be_config.why) */
	size_t why_len;
	int files[URING_FILES]; /* registered files: the fd in each slot, -1: free */
	bool files_on;
	void *buf_base; /* the registered buffer (fixed buffers), NULL: none */
	size_t buf_len;
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

/* The ring's setup flags, from the options. */
static void uring_params(const struct uring_opts *o, struct io_uring_params *p)
{
	memset(p, 0, sizeof(*p));
	/* SUBMIT_ALL: one bad SQE must not strand the ones behind it in the SQ ring.
	 * COOP_TASKRUN: completions need not interrupt the worker; it reaps when it is ready. */
	p->flags = IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN;
	if (o->sqpoll) {
		/* The kernel refuses COOP_TASKRUN with SQPOLL: its thread runs the task work. */
		p->flags = IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SQPOLL;
		p->sq_thread_idle = (unsigned)(o->sqpoll_idle_ns / MSEC);
	}
	if (o->sqpoll && o->sqpoll_cpu != UINT32_MAX) {
		p->flags |= IORING_SETUP_SQ_AFF;
		p->sq_thread_cpu = o->sqpoll_cpu;
	}
	if (o->hipri)
		p->flags |= IORING_SETUP_IOPOLL;
}

/* Registered files: a table of URING_FILES empty slots, filled by open. */
static int uring_files_init(struct uring *u)
{
	int r;

	for (int i = 0; i < URING_FILES; i++)
		u->files[i] = -1;
	if (!u->o.register_files)
		return 0;
	if ((r = io_uring_register_files(&u->ring, u->files, URING_FILES)) < 0) {
		snprintf(u->why, u->why_len, "io_uring_register_files: %s", strerror(-r));
		return r;
	}
	u->files_on = true;
	return 0;
}

static int uring_init(void *priv, const struct be_config *cfg)
{
	struct uring *u = priv;
	struct io_uring_params p;
	int r;

	be_opts_load(&be_io_uring, cfg->job, &u->o);
	if (!be_opt_set(cfg->job, "io_uring_sqpoll_cpu"))
		u->o.sqpoll_cpu = UINT32_MAX;
	u->why = cfg->why;
	u->why_len = cfg->why ? cfg->why_len : 0;
	if (u->o.hipri && !cfg->direct) {
		snprintf(
		    u->why, u->why_len,
		    "io_uring_hipri (polled completions) needs direct: true: the page cache is never polled");
		return -EINVAL;
	}
	u->depth = uring_roundup(cfg->iodepth ? cfg->iodepth : 1);
	if (u->depth > URING_MAX_DEPTH)
		return -EINVAL;
	u->cqes = calloc(u->depth, sizeof(*u->cqes));
	if (!u->cqes)
		return -ENOMEM;
	uring_params(&u->o, &p);
	r = io_uring_queue_init_params(u->depth, &u->ring, &p);
	if (r == -EINVAL) {
		/* Kernels before 5.19 know neither flag; the ring works without them. */
		uring_params(&u->o, &p);
		p.flags &= ~(IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN);
		r = io_uring_queue_init_params(u->depth, &u->ring, &p);
	}
	if (r < 0) {
		snprintf(u->why, u->why_len, "io_uring_setup%s: %s",
			 u->o.sqpoll ? " with SQPOLL" : "", strerror(-r));
		goto fail_ring;
	}
	if ((r = uring_files_init(u)) < 0)
		goto fail_files;
	return 0;

fail_files:
	io_uring_queue_exit(&u->ring);
fail_ring:
	free(u->cqes);
	u->cqes = NULL;
	return r;
}

/* The sysfs queue folder of the block device holding `fd`'s file ("" when there is none). */
static void queue_dir(int fd, char *dir, size_t len)
{
	struct stat st;
	char probe[128];

	dir[0] = 0;
	if (fstat(fd, &st) < 0)
		return;
	dev_t d = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	/* A partition's queue is its disk's, one folder up. */
	snprintf(dir, len, "/sys/dev/block/%u:%u/queue", major(d), minor(d));
	if (access(dir, R_OK) == 0)
		return;
	snprintf(probe, sizeof(probe), "/sys/dev/block/%u:%u/../queue", major(d), minor(d));
	snprintf(dir, len, "%s", access(probe, R_OK) == 0 ? probe : "");
}

/* Polled completions need a device with poll queues: its queue/io_poll says 1. A file on
 * no block device (tmpfs, say) cannot be polled either. 0 or -EOPNOTSUPP (reason in why). */
static int check_poll(struct uring *u, int fd)
{
	char dir[160], file[192], v = '0';
	FILE *f;

	queue_dir(fd, dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/io_poll", dir);
	if (dir[0] && (f = fopen(file, "re"))) {
		if (fread(&v, 1, 1, f) != 1)
			v = '0';
		fclose(f);
	}
	if (v == '1')
		return 0;
	snprintf(
	    u->why, u->why_len,
	    "io_uring_hipri: its device cannot poll for completions (%s%s%s; NVMe needs the nvme module's poll_queues)",
	    dir[0] ? file : "on no block device", dir[0] ? " is " : "",
	    dir[0] ? (v == '1' ? "1" : "0") : "");
	return -EOPNOTSUPP;
}

static int uring_open(void *priv, int dirfd, const char *path, int flags, mode_t mode)
{
	struct uring *u = priv;
	int fd = be_plain_open(priv, dirfd, path, flags, mode), r, i;

	if (fd < 0)
		return fd;
	if (u->o.hipri && (r = check_poll(u, fd)) < 0)
		goto fail;
	if (!u->files_on)
		return fd;
	for (i = 0; i < URING_FILES && u->files[i] >= 0; i++)
		;
	r = i < URING_FILES ? io_uring_register_files_update(&u->ring, (unsigned)i, &fd, 1)
			    : -EMFILE;
	if (r < 0) {
		snprintf(u->why, u->why_len, "io_uring_register_files_update: %s", strerror(-r));
		goto fail;
	}
	u->files[i] = fd;
	return fd;

fail:
	close(fd);
	return r;
}

static int uring_close(void *priv, int fd)
{
	struct uring *u = priv;
	int none = -1;

	for (int i = 0; u->files_on && i < URING_FILES; i++)
		if (u->files[i] == fd) {
			io_uring_register_files_update(&u->ring, (unsigned)i, &none, 1);
			u->files[i] = -1;
		}
	return be_plain_close(priv, fd);
}

/* The worker's I/O buffers, one region: registered as one fixed buffer, so that every
 * I/O's buffer (a slot of it, or a short transfer's rest) lies inside buffer 0. */
static int uring_buffers(void *priv, void *base, size_t len)
{
	struct uring *u = priv;
	struct iovec iov = {base, len};
	int r;

	if (!u->o.fixed_buffers)
		return 0;
	if ((r = io_uring_register_buffers(&u->ring, &iov, 1)) < 0) {
		snprintf(u->why, u->why_len, "io_uring_register_buffers (%zu bytes): %s", len,
			 strerror(-r));
		return r;
	}
	u->buf_base = base;
	u->buf_len = len;
	return 0;
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

/* The slot of a registered fd (URING_FILES is small: a scan is cheaper than a map). */
static int file_slot(const struct uring *u, int fd)
{
	for (int i = 0; i < URING_FILES; i++)
		if (u->files[i] == fd)
			return i;
	return -1;
}

/* The one place an I/O becomes an SQE: registered files by slot (IOSQE_FIXED_FILE), fixed
 * buffers with the _fixed reads and writes. */
static void uring_prep(struct uring *u, struct io_uring_sqe *sqe, struct be_io *io)
{
	int slot = u->files_on ? file_slot(u, io->fd) : -1;
	int fd = slot >= 0 ? slot : io->fd;
	bool fixed = u->buf_base && (char *)io->buf >= (char *)u->buf_base &&
		     (char *)io->buf + io->len <= (char *)u->buf_base + u->buf_len;

	switch (io->op) {
	case BE_READ:
		if (fixed)
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->offset, 0);
		else
			io_uring_prep_read(sqe, fd, io->buf, io->len, io->offset);
		break;
	case BE_WRITE:
		if (fixed)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->offset, 0);
		else
			io_uring_prep_write(sqe, fd, io->buf, io->len, io->offset);
		break;
	default:
		io_uring_prep_fsync(sqe, fd, 0);
		break;
	}
	if (slot >= 0)
		io_uring_sqe_set_flags(sqe, IOSQE_FIXED_FILE);
	io_uring_sqe_set_data(sqe, io);
}

static int uring_queue(void *priv, struct be_io *io)
{
	struct uring *u = priv;
	struct io_uring_sqe *sqe;

	if (io->op == BE_FSYNC && u->o.hipri) {
		/* A polled ring takes reads and writes only: the sync is done here. */
		io->result = fsync(io->fd) < 0 ? -errno : 0;
		return BE_DONE;
	}
	sqe = io_uring_get_sqe(&u->ring);
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
	uring_prep(u, sqe, io);
	u->pending++;
	u->inflight++;
	/* io_uring_batch_submit: a full batch goes now, whatever the core does. */
	if (u->o.batch_submit && u->pending >= u->o.batch_submit) {
		int r = uring_submit(u);
		if (r < 0 && r != -EAGAIN && r != -EBUSY)
			return r;
	}
	return BE_QUEUED;
}

/* Returns how many SQEs the kernel took, or -errno; -EAGAIN and -EBUSY mean "reap, then
 * commit again". The kernel may take fewer SQEs than prepared (the oldest go first); the
 * rest stay in the SQ ring for the next submit. */
static int uring_commit(void *priv)
{
	struct uring *u = priv;
	int r;

	/* With io_uring_batch_submit, queue() hands over the full batches; the rest goes with
	 * the next wait (a pause's too: its timed reap submits). None goes here: none is
	 * stamped, as when each was handed over is not the core's to see. */
	if (!u->pending || u->o.batch_submit)
		return 0;
	r = uring_submit(u);
	return r;
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
		if (!(u->ring.features & IORING_FEAT_EXT_ARG)) {
			if (u->pending)
				uring_submit(
				    u); /* the caller sleeps instead: nothing left behind */
			return -EOPNOTSUPP;
		}
		kts.tv_sec = timeout->tv_sec;
		kts.tv_nsec = timeout->tv_nsec;
		ts = &kts;
	}
	if (max > u->depth)
		max = u->depth;
	if (u->o.batch_complete_max && max > u->o.batch_complete_max)
		max = u->o.batch_complete_max;
	/* io_uring_batch_complete_min: wait for more than asked, never for more than can come. */
	if (min && min < u->o.batch_complete_min)
		min = uring_min(u->o.batch_complete_min, u->inflight);
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
    .buffers = uring_buffers,
    .queue = uring_queue,
    .commit = uring_commit,
    .reap = uring_reap,
    .close = uring_close,
    .cleanup = uring_cleanup,
    .options = be_io_uring_options,
    .opts_size = sizeof(struct uring_opts),
    .check = be_io_uring_check,
};
