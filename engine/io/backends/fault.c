/* The fault backend: another backend (fault_backend, sync by default) with faults injected,
 * after SQLite's test VFS — EIO at an offset or at random, short transfers, ENOSPC past a byte
 * count, added latency. Tests use it to prove that errors are counted and reported with path
 * and offset, that short transfers are completed, and that a stalled device shows in the
 * latency tail; over an asynchronous backend (io_uring, libaio, null with null_delay) the
 * errors come back through reap(), among completions still in flight. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/io/backends/backend.h"
#include "lib/rng.h"
#include "model/jobkeys.h"

#define SEC 1000000000ULL

struct fault_opts {
	int backend;	       /* index into be_wrappable_names */
	uint64_t eio_offset;   /* EIO for the I/O covering this offset, when eio_offset_set */
	bool eio_offset_set;   /* (offset 0 is an offset like any other) */
	double eio_rate;       /* EIO with this probability per I/O */
	bool short_io;	       /* every transfer moves half its bytes at most */
	uint64_t enospc_after; /* writes fail with ENOSPC past this many bytes (0: never) */
	uint64_t delay_ns;     /* added to an I/O's time */
	uint32_t delay_every;  /* ... every this many I/Os (1: each) */
};

#define OFF(f) offsetof(struct fault_opts, f)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct job_key fault_options[] = {
    {"fault_backend", KT_ENUM, OFF(backend), "sync", 0, 0, be_wrappable_names,
     "the backend whose I/Os get the faults: any but synthetic and fault; an asynchronous one (io_uring, libaio, null with null_delay) hands the injected errors back among the completions",
     "fault_backend: io_uring"},
    {"fault_eio_offset", KT_SIZE, OFF(eio_offset), NULL, 0, UINT64_MAX - 1, NULL,
     "fail the I/O that covers this byte offset with EIO", "fault_eio_offset: 1MiB"},
    {"fault_eio_rate", KT_DOUBLE, OFF(eio_rate), "0", 0, 0, NULL,
     "fail each I/O with EIO with this probability", "fault_eio_rate: 0.001", 0, 1},
    {"fault_short", KT_BOOL, OFF(short_io), "false", 0, 1, NULL,
     "make every read and write a short transfer (half its bytes)", "fault_short: true"},
    {"fault_enospc_after", KT_SIZE, OFF(enospc_after), NULL, 0, UINT64_MAX - 1, NULL,
     "writes fail with ENOSPC once this many bytes were written in the trial",
     "fault_enospc_after: 8MiB"},
    {"fault_delay", KT_DURATION, OFF(delay_ns), NULL, 0, 3600 * SEC, NULL,
     "add this much time to an I/O, spent in its submission (see fault_delay_every)",
     "fault_delay: 100ms"},
    {"fault_delay_every", KT_UINT, OFF(delay_every), "1", 1, 1000000000, NULL,
     "delay every Nth I/O (1: every one)", "fault_delay_every: 500"},
    {NULL},
};
#pragma GCC diagnostic pop

extern const struct be_ops be_fault;

struct fault {
	struct fault_opts o;
	const struct be_ops *inner;
	void *ipriv; /* the inner backend's state, after this struct's cache lines */
	uint64_t rng;
	uint64_t ios;
	uint64_t written;
	unsigned inflight;     /* queued to the inner backend, not yet reaped from it */
	struct be_io **failed; /* failed here, handed back by the next reap() */
	unsigned nfailed, cap;
	/* The I/Os queued since the inner backend last handed its queue over, oldest first:
	 * true for one it has, false for one failed here. Its commit counts only the first;
	 * the core counts both (submit_latency stamps them by place). */
	bool *sent;
	unsigned nsent;
};

static const char *fault_inner(const void *opts)
{
	const struct fault_opts *o = opts;

	return be_wrappable_names[o->backend];
}

static int fault_init(void *priv, const struct be_config *cfg)
{
	struct fault *f = priv;
	int r;

	be_opts_load(&be_fault, cfg->job, &f->o);
	f->o.eio_offset_set = be_opt_set(cfg->job, "fault_eio_offset");
	f->inner = be_find(fault_inner(&f->o));
	if (!f->inner)
		return -ENOSYS; /* the planner said so already */
	f->ipriv = (char *)priv + be_fault.priv_size;
	f->rng = cfg->seed ^ 0xfa017u;
	f->cap = cfg->iodepth ? cfg->iodepth : 1;
	f->failed = calloc(f->cap, sizeof(*f->failed));
	f->sent = calloc(f->cap, sizeof(*f->sent));
	if (!f->failed || !f->sent) {
		free(f->failed);
		free(f->sent);
		return -ENOMEM;
	}
	if (f->inner->init && (r = f->inner->init(f->ipriv, cfg)) < 0) {
		free(f->failed);
		free(f->sent);
		return r;
	}
	return 0;
}

static int fault_open(void *priv, int dirfd, const char *path, int flags, mode_t mode)
{
	struct fault *f = priv;

	return f->inner->open(f->ipriv, dirfd, path, flags, mode);
}

/* The fault this I/O meets before it reaches the device: -EIO, -ENOSPC, or 0 for none. */
static int injected(struct fault *f, const struct be_io *io)
{
	const struct fault_opts *o = &f->o;

	if (io->op == BE_FSYNC)
		return 0;
	if (o->eio_offset_set && o->eio_offset >= io->offset &&
	    o->eio_offset < io->offset + io->len)
		return -EIO;
	if (o->eio_rate > 0 && rng_uniform(&f->rng) < o->eio_rate)
		return -EIO;
	if (io->op == BE_WRITE && o->enospc_after && f->written + io->len > o->enospc_after)
		return -ENOSPC;
	return 0;
}

/* A completion as the inner backend reported it, made short when asked. */
static void completed(struct fault *f, struct be_io *io)
{
	if (f->o.short_io && io->op != BE_FSYNC && io->len > 1 && io->result > io->len / 2)
		io->result = io->len / 2; /* the core must come back for the rest */
}

static void delay(const struct fault_opts *o, uint64_t n)
{
	struct timespec ts = {(time_t)(o->delay_ns / SEC), (long)(o->delay_ns % SEC)};

	if (!o->delay_ns || n % o->delay_every)
		return;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int fault_queue(void *priv, struct be_io *io)
{
	struct fault *f = priv;
	bool async = f->inner->flags & BE_F_ASYNC;
	int r;

	if (async && f->nfailed + f->inflight >= f->cap)
		return BE_BUSY;
	delay(&f->o, ++f->ios);
	if ((r = injected(f, io)) < 0) {
		io->result = r;
		if (!async)
			return BE_DONE;
		f->failed[f->nfailed++] = io;
		if (f->nsent < f->cap)
			f->sent[f->nsent++] = false;
		return BE_QUEUED;
	}
	r = f->inner->queue(f->ipriv, io);
	if (r == BE_BUSY || r < 0) {
		f->ios--;
		return r;
	}
	if (io->op == BE_WRITE)
		f->written += io->len;
	if (r == BE_QUEUED) {
		f->inflight++;
		if (f->nsent < f->cap)
			f->sent[f->nsent++] = true;
	} else
		completed(f, io);
	return r;
}

/* The inner backend's count of what it handed over, as a count of what the core queued:
 * the failed I/Os among them (and right after them) count too, being done. An inner backend
 * without commit() handed each over in its queue(), out of the core's sight: none. */
static int fault_commit(void *priv)
{
	struct fault *f = priv;
	unsigned took = 0, n = 0;
	int r;

	if (!f->inner->commit) {
		f->nsent = 0;
		return 0;
	}
	if ((r = f->inner->commit(f->ipriv)) <= 0)
		return r;
	while (n < f->nsent && (!f->sent[n] || took < (unsigned)r))
		took += f->sent[n++];
	f->nsent -= n;
	memmove(f->sent, f->sent + n, f->nsent * sizeof(*f->sent));
	return (int)n;
}

/* The failed ones first, then what the inner backend completes. */
static int fault_reap(void *priv, unsigned min, unsigned max, struct be_io **out,
		      const struct timespec *timeout)
{
	struct fault *f = priv;
	unsigned n;
	int r;

	/* In the order they failed: the first to fail is the error a trial reports. */
	n = f->nfailed < max ? f->nfailed : max;
	memcpy(out, f->failed, n * sizeof(*out));
	memmove(f->failed, f->failed + n, (f->nfailed - n) * sizeof(*f->failed));
	f->nfailed -= n;
	/* What the inner backend still holds goes now, with the wait or without it: the core
	 * counts nothing queued before this reap as handed over by a later commit. */
	f->nsent = 0;
	if (n >= min || n == max || !f->inflight) {
		if (f->inflight && f->inner->commit)
			f->inner->commit(f->ipriv);
		return (int)n;
	}
	r = f->inner->reap(f->ipriv, min - n, max - n, out + n, timeout);
	if (r < 0)
		return n ? (int)n : r;
	f->inflight -= (unsigned)r;
	for (int i = 0; i < r; i++)
		completed(f, out[n + (unsigned)i]);
	return (int)n + r;
}

static int fault_buffers(void *priv, void *base, size_t len)
{
	struct fault *f = priv;

	return f->inner->buffers ? f->inner->buffers(f->ipriv, base, len) : 0;
}

static int fault_close(void *priv, int fd)
{
	struct fault *f = priv;

	return f->inner->close(f->ipriv, fd);
}

static void fault_cleanup(void *priv)
{
	struct fault *f = priv;

	if (f->inner->cleanup)
		f->inner->cleanup(f->ipriv);
	free(f->failed);
	free(f->sent);
}

const struct be_ops be_fault = {
    .name = "fault",
    .help =
	"another backend (fault_backend, sync by default) with faults injected: EIO, short transfers, ENOSPC, delays",
    .flags = BE_F_DIRECT,
    .max_iodepth = 1,
    .priv_size = (sizeof(struct fault) + BE_PRIV_ALIGN - 1) / BE_PRIV_ALIGN * BE_PRIV_ALIGN,
    .init = fault_init,
    .open = fault_open,
    .buffers = fault_buffers,
    .queue = fault_queue,
    .commit = fault_commit,
    .reap = fault_reap,
    .close = fault_close,
    .cleanup = fault_cleanup,
    .options = fault_options,
    .opts_size = sizeof(struct fault_opts),
    .inner = fault_inner,
};
