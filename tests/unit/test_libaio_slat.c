/*
 * submit_latency over the libaio backend, with the kernel's side faked: this file defines
 * io_setup, io_submit, io_getevents and io_destroy, which the executable's own definitions
 * put in place of libaio's. The fake io_submit refuses with -EAGAIN now and then and takes
 * one iocb a call otherwise, so that commits take some of what was queued and reap()
 * submits the rest, or, refused, leaves some for the next commit. It notes for each I/O
 * whether a commit() handed it over; at each wait the I/Os the core stamped submitted must
 * be those, never one that was still pending or went with an earlier wait.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#ifdef HAVE_LIBAIO
#include <libaio.h>

#include "engine/io/backends/backend.h"
#include "engine/io/worker.h"
#include "lib/cacheline.h"
#include "model/jobkeys.h"

extern const struct be_ops be_libaio;

#define BLOCK	4096u
#define NBLOCKS 512u
#define DEPTH	8u

enum fk_state { FK_PENDING, FK_BY_COMMIT, FK_BY_REAP };

static struct {
	bool in_commit;		 /* inside be_libaio.commit, called by the core's push */
	unsigned calls;		 /* io_submit calls */
	struct be_io *q[DEPTH];	 /* queued, not yet reaped */
	enum fk_state st[DEPTH]; /* ... and how each was handed over, if it was */
	unsigned nq;
	struct be_io *kern[DEPTH]; /* taken, not yet reaped, oldest first */
	unsigned nkern;
	uint64_t stamped_bad;	/* stamped, but not handed over by a commit */
	uint64_t by_commit_all; /* I/Os that commits handed over */
	uint64_t stale;		/* commits that took an I/O a reap had left pending */
} fk;

static unsigned fk_find(const struct be_io *io)
{
	for (unsigned i = 0; i < fk.nq; i++)
		if (fk.q[i] == io)
			return i;
	fail_msg("an I/O the fake kernel never saw queued");
	return 0;
}

int io_setup(int maxevents, io_context_t *ctxp)
{
	(void)maxevents;
	*ctxp = (io_context_t)1;
	return 0;
}

int io_destroy(io_context_t ctx)
{
	(void)ctx;
	return 0;
}

/* Every third call is refused; the others take one iocb. */
int io_submit(io_context_t ctx, long nr, struct iocb *ios[])
{
	(void)ctx;
	if (nr <= 0)
		return 0;
	if (++fk.calls % 3 == 0)
		return -EAGAIN;
	assert_true(fk.nkern < DEPTH);
	fk.kern[fk.nkern++] = ios[0]->data;
	fk.st[fk_find(ios[0]->data)] = fk.in_commit ? FK_BY_COMMIT : FK_BY_REAP;
	fk.by_commit_all += fk.in_commit;
	return 1;
}

/* Every I/O taken is done: hand back the oldest, at most nr. */
int io_getevents(io_context_t ctx, long min_nr, long nr, struct io_event *events,
		 struct timespec *timeout)
{
	long n = (long)fk.nkern < nr ? (long)fk.nkern : nr;

	(void)ctx;
	(void)min_nr;
	(void)timeout;
	for (long i = 0; i < n; i++) {
		struct be_io *io = fk.kern[i];
		unsigned k = fk_find(io);
		memset(&events[i], 0, sizeof(events[i]));
		events[i].data = io;
		events[i].res = io->len;
		fk.q[k] = fk.q[--fk.nq];
		fk.st[k] = fk.st[fk.nq];
	}
	fk.nkern -= (unsigned)n;
	memmove(fk.kern, fk.kern + n, fk.nkern * sizeof(*fk.kern));
	return (int)n;
}

static int wrap_queue(void *priv, struct be_io *io)
{
	int r = be_libaio.queue(priv, io);

	if (r == BE_QUEUED) {
		assert_true(fk.nq < DEPTH);
		fk.st[fk.nq] = FK_PENDING;
		fk.q[fk.nq++] = io;
	}
	return r;
}

static int wrap_commit(void *priv)
{
	int r;

	fk.in_commit = true;
	r = be_libaio.commit(priv);
	fk.in_commit = false;
	return r;
}

/* The core stamps before it waits: what carries a time was handed over by a commit. */
static int wrap_reap(void *priv, unsigned min, unsigned max, struct be_io **out,
		     const struct timespec *timeout)
{
	int r;

	for (unsigned i = 0; i < fk.nq; i++)
		if (fk.q[i]->submit_ns && fk.q[i]->submit_ns != BE_SUBMIT_UNSEEN &&
		    fk.st[i] != FK_BY_COMMIT)
			fk.stamped_bad++;
	r = be_libaio.reap(priv, min, max, out, timeout);
	/* What the reap left pending (io_submit refused it) goes with a later commit. */
	for (unsigned i = 0; i < fk.nq; i++)
		fk.stale += fk.st[i] == FK_PENDING;
	return r;
}

static void test_libaio_partial(void **state)
{
	static struct job_spec j;
	static struct src_loc locs[JK_MAX];
	static atomic_int stop;
	static struct worker_extra x;
	struct be_ops ops = be_libaio;
	struct worker_job w = {0};
	struct worker_out o;
	struct be_config cfg = {.iodepth = DEPTH, .job = &j, .seed = 42};

	(void)state;
	ops.queue = wrap_queue;
	ops.commit = wrap_commit;
	ops.reap = wrap_reap;
	memset(&j, 0, sizeof(j));
	j.key_loc = locs;
	assert_non_null(w.priv = cacheline_zalloc(be_libaio.priv_size));
	assert_int_equal(be_libaio.init(w.priv, &cfg), 0);
	w.be = &ops;
	w.wl = WL_RANDREAD;
	w.fd = w.src_fd = 0;
	w.chunk = BLOCK;
	w.region_len = (uint64_t)NBLOCKS * BLOCK;
	w.iodepth = DEPTH;
	w.seed = 7;
	w.random_map = true;
	w.rec_fd = w.int_fd = -1;
	w.stop = &stop;
	w.split_lat = true;
	w.extra = &x;
	assert_int_equal(worker_run(&w, &o), 0);
	be_libaio.cleanup(w.priv);
	free(w.priv);
	assert_int_equal(o.ios, NBLOCKS);
	assert_true(fk.stale > 0); /* the case this test is for did come up */
	assert_int_equal(fk.stamped_bad, 0);
	assert_true(x.split_hist[0].count > 0);
	assert_true(x.split_hist[0].count <= fk.by_commit_all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_libaio_partial),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
int main(void)
{
	return 0; /* a build without libaio */
}
#endif
