/* The skeleton backend: the annotated example to copy when writing a backend (the walk
 * through is docs/backends.md#writing-a-backend). It is a real, registered backend, tested
 * like the others: queue() only takes note of each I/O, reap() carries the noted ones out
 * with pread/pwrite/fsync and hands them back, so it keeps up to iodepth I/Os "in flight"
 * and moves real data through the asynchronous completion path on any machine, with one
 * option of its own (skeleton_order) to show how a backend declares one.
 *
 * A backend is this file plus one line in registry.c. Everything the core needs is in the
 * `static const struct be_ops` at the bottom; every hook returns 0, a count, or -errno, and
 * an I/O's outcome is one field, io->result (bytes done, or -errno). Retrying a short
 * transfer, timing, verifying and counting are the core's business, not the backend's. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/io/backends/backend.h"
#include "model/jobkeys.h"

/* The options, typed: one field per row of skeleton_options below. be_opts_load() fills it
 * from the job in init(), so the I/O path reads a plain field, never a table. */
struct skeleton_opts {
	int order; /* 0 fifo, 1 lifo: the index of the name in order_names */
};

static const char *const order_names[] = {"fifo", "lifo", NULL};

/* The option table: name (the backend's name, then '_'), type, where it goes in the struct
 * above, default (as a job file writes it), bounds (for numbers; dmin and dmax after the
 * example for KT_DOUBLE), enum names, one line of help, an example. `iotrial keys skeleton`
 * prints it, docs/backends.md holds it (a test compares), the parser types and bounds each
 * value with its file:line:column, and the planner refuses it on a job of another backend.
 * A rule between two options goes into a check hook (see synthetic.c). */
#define OFF(f) offsetof(struct skeleton_opts, f)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct job_key skeleton_options[] = {
    {"skeleton_order", KT_ENUM, OFF(order), "fifo", 0, 0, order_names,
     "the order reap() hands completions back in: fifo (as queued) or lifo (the last queued first, so that I/Os overtake one another)",
     "skeleton_order: lifo"},
    {NULL},
};
#pragma GCC diagnostic pop

extern const struct be_ops be_skeleton;

/* Per-worker state. The core allocates priv_size bytes of it, zeroed and on cache lines of
 * the worker's own, before init(), and frees it after cleanup(). */
struct skeleton {
	struct skeleton_opts o;
	struct be_io **queued; /* noted by queue(), carried out by reap() */
	unsigned n, depth;
	unsigned committed; /* how many of queued[] commit() handed over */
};

/* probe: can this backend work here? A kernel interface would be set up and torn down
 * here, and the reason written to `why` when the kernel refuses ("io_uring_setup:
 * Operation not permitted"); plain system calls always work. Optional. */
static int skeleton_probe(char *why, size_t len)
{
	return 0;
}

/* init: once per worker and trial, before any file is opened and before the clock starts:
 * read the options, size the queues by cfg->iodepth, create kernel objects. A failure here
 * fails the trial, named after the backend, before any I/O. */
static int skeleton_init(void *priv, const struct be_config *cfg)
{
	struct skeleton *s = priv;

	be_opts_load(&be_skeleton, cfg->job, &s->o);
	s->depth = cfg->iodepth ? cfg->iodepth : 1;
	s->queued = calloc(s->depth, sizeof(*s->queued));
	return s->queued ? 0 : -ENOMEM;
}

/* open and close: here plain file descriptors (be_plain_open, be_plain_close in the table
 * below). A backend that registers files with the kernel would do it in its own open. */

/* queue: start one I/O. Return BE_DONE when it completed here (io->result set), BE_QUEUED
 * when it will come back through reap(), BE_BUSY when there is no room now (the core reaps,
 * then offers it again), or -errno when it cannot be submitted at all. */
static int skeleton_queue(void *priv, struct be_io *io)
{
	struct skeleton *s = priv;

	if (s->n == s->depth)
		return BE_BUSY;
	s->queued[s->n++] = io;
	return BE_QUEUED;
}

/* One I/O carried out, as the sync backend does it: EINTR is retried, a short transfer is
 * reported as it is (the core comes back for the rest). */
static void skeleton_do(struct be_io *io)
{
	ssize_t r;

	do {
		if (io->op == BE_READ)
			r = pread(io->fd, io->buf, io->len, (off_t)io->offset);
		else if (io->op == BE_WRITE)
			r = pwrite(io->fd, io->buf, io->len, (off_t)io->offset);
		else
			r = fsync(io->fd);
	} while (r < 0 && errno == EINTR);
	io->result = r < 0 ? -errno : r;
}

/* commit: push what queue() prepared to the kernel, for backends that batch (io_uring's
 * io_uring_submit, libaio's io_submit). Returns how many of the queued I/Os the kernel took,
 * the oldest first, or -errno; the core stamps those submitted now (submit_latency). Here the
 * "kernel" is reap(), which carries out every noted I/O: commit hands it all that is noted.
 * Optional; shown for the walk through. */
static int skeleton_commit(void *priv)
{
	struct skeleton *s = priv;
	unsigned took = s->n - s->committed;

	s->committed = s->n;
	return (int)took;
}

/* reap: hand over what is still prepared, wait for at least `min` completions (no longer
 * than `timeout` when it is set), and put at most `max` of them in `out`. Returns the count
 * or -errno. Called only while I/Os are in flight. Here every noted I/O is done at once, so
 * there is never a wait. */
static int skeleton_reap(void *priv, unsigned min, unsigned max, struct be_io **out,
			 const struct timespec *timeout)
{
	struct skeleton *s = priv;
	unsigned n = s->n < max ? s->n : max;

	for (unsigned i = 0; i < n; i++) {
		out[i] = s->queued[s->o.order == 1 ? s->n - 1 - i : i];
		skeleton_do(out[i]);
	}
	if (s->o.order == 0)
		memmove(s->queued, s->queued + n, (s->n - n) * sizeof(*s->queued));
	s->n -= n;
	s->committed = s->n; /* reap() hands over what commit() did not */
	return (int)n;
}

/* cleanup: release what init() made; called once after a successful init(). */
static void skeleton_cleanup(void *priv)
{
	struct skeleton *s = priv;

	free(s->queued);
}

/* The ops table, last in the file: name, help (one line for `iotrial backends`), flags
 * (fixed at compile time: BE_F_ASYNC keeps iodepth > 1 I/Os in flight, BE_F_DIRECT takes
 * O_DIRECT, BE_F_NOIO touches no device, BE_F_VIRTUAL keeps simulated time), the deepest
 * queue it takes, the per-worker state's size, the hooks, and the options. */
const struct be_ops be_skeleton = {
    .name = "skeleton",
    .help =
	"the example for backend authors: pread/pwrite carried out in reap(), iodepth I/Os queued",
    .flags = BE_F_ASYNC | BE_F_DIRECT,
    .max_iodepth = 4096,
    .priv_size = sizeof(struct skeleton),
    .probe = skeleton_probe,
    .init = skeleton_init,
    .open = be_plain_open,
    .queue = skeleton_queue,
    .commit = skeleton_commit,
    .reap = skeleton_reap,
    .close = be_plain_close,
    .cleanup = skeleton_cleanup,
    .options = skeleton_options,
    .opts_size = sizeof(struct skeleton_opts),
};
