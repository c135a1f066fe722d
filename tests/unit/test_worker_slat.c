/*
 * submit_latency stamps an I/O "submitted" only when the kernel took it: a backend's commit()
 * says how many of the queued I/Os it handed over (the oldest first). A backend may take
 * fewer than were queued (a full submission queue, libaio's -EAGAIN), or none, as io_uring
 * does with io_uring_batch_submit, where queue() and reap() hand the I/Os over out of the
 * worker's sight. Here a shim over the null backend (null_delay) takes at most `take` of
 * the queued I/Os per commit and hands over the rest with the wait; at each wait it checks
 * that no I/O it had not taken carries a submission time, and at the end that every I/O it
 * took has a slat and a clat and no other does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/io/backends/backend.h"
#include "engine/io/worker.h"
#include "lib/cacheline.h"
#include "model/jobkeys.h"
#include "tests/unit/set_opt.h"

extern const struct be_ops be_null;

#define BLOCK	4096u
#define NBLOCKS 512u
#define DEPTH	8u

/* The shim's view of the I/Os in flight: queued, and whether a commit took each. */
static struct {
	void *priv;
	unsigned take; /* at most this many per commit */
	struct be_io *q[DEPTH];
	bool taken[DEPTH];
	unsigned nq;
	uint64_t took;	      /* I/Os that commits took */
	uint64_t stamped_bad; /* I/Os stamped submitted that no commit took */
} sh;

static int slot_of(const struct be_io *io)
{
	for (unsigned i = 0; i < sh.nq; i++)
		if (sh.q[i] == io)
			return (int)i;
	return -1;
}

static int shim_queue(void *priv, struct be_io *io)
{
	int r = be_null.queue(sh.priv, io);

	(void)priv;
	if (r == BE_QUEUED) {
		assert_true(sh.nq < DEPTH);
		sh.taken[sh.nq] = false;
		sh.q[sh.nq++] = io;
	}
	return r;
}

/* Takes the oldest untaken I/Os, at most `take`; says how many. */
static int shim_commit(void *priv)
{
	unsigned n = 0;

	(void)priv;
	for (unsigned i = 0; i < sh.nq && n < sh.take; i++)
		if (!sh.taken[i]) {
			sh.taken[i] = true;
			n++;
		}
	sh.took += n;
	return (int)n;
}

static int shim_reap(void *priv, unsigned min, unsigned max, struct be_io **out,
		     const struct timespec *timeout)
{
	int n;

	(void)priv;
	/* The core stamps before it waits: what carries a time now must have been taken. */
	for (unsigned i = 0; i < sh.nq; i++) {
		if (sh.q[i]->submit_ns && !sh.taken[i])
			sh.stamped_bad++;
		sh.taken[i] = true; /* handed over with the wait: no later commit counts it */
	}
	n = be_null.reap(sh.priv, min, max, out, timeout);
	for (int k = 0; k < n; k++) {
		int i = slot_of(out[k]);
		assert_true(i >= 0);
		sh.nq--;
		sh.q[i] = sh.q[sh.nq];
		sh.taken[i] = sh.taken[sh.nq];
	}
	return n;
}

static const struct be_ops shim_ops = {
    .name = "shim",
    .queue = shim_queue,
    .commit = shim_commit,
    .reap = shim_reap,
};

/* NBLOCKS random reads at DEPTH through the shim, each commit taking at most `take`; the
 * split histograms in `x`. */
static void run_shim(unsigned take, struct worker_extra *x, struct worker_out *o)
{
	static struct job_spec j;
	static struct src_loc locs[JK_MAX];
	static atomic_int stop;
	struct worker_job w = {0};
	struct be_config cfg = {.iodepth = DEPTH, .job = &j, .seed = 42};
	char err[256];

	if (be_registry_init(err, sizeof(err)) < 0)
		fail_msg("%s", err);
	memset(&j, 0, sizeof(j));
	j.key_loc = locs;
	set_opt(&j, "null_delay", "20us");
	memset(&sh, 0, sizeof(sh));
	sh.take = take;
	assert_non_null(sh.priv = cacheline_zalloc(be_null.priv_size));
	assert_int_equal(be_null.init(sh.priv, &cfg), 0);
	memset(x, 0, sizeof(*x));
	w.be = &shim_ops;
	w.priv = sh.priv;
	w.wl = WL_RANDREAD;
	w.fd = w.src_fd = -1;
	w.chunk = BLOCK;
	w.region_len = (uint64_t)NBLOCKS * BLOCK;
	w.iodepth = DEPTH;
	w.seed = 7;
	w.random_map = true;
	stop = 0;
	w.stop = &stop;
	w.rec_fd = w.int_fd = -1;
	w.split_lat = true;
	w.extra = x;
	assert_int_equal(worker_run(&w, o), 0);
	be_null.cleanup(sh.priv);
	free(sh.priv);
	assert_int_equal(o->ios, NBLOCKS);
}

/* Each commit takes one: only that one is stamped, the rest wait for a later commit or go
 * with the wait, unstamped. */
static void test_partial_commit(void **state)
{
	static struct worker_extra x;
	struct worker_out o;

	(void)state;
	run_shim(1, &x, &o);
	assert_int_equal(sh.stamped_bad, 0);
	assert_true(sh.took > 0 && sh.took < NBLOCKS);
	assert_int_equal(x.split_hist[0].count, sh.took);
	assert_int_equal(x.split_hist[1].count, sh.took);
}

/* A backend that holds every I/O back until the wait (io_uring with
 * io_uring_batch_submit): no I/O has a slat it could show. */
static void test_held_commit(void **state)
{
	static struct worker_extra x;
	struct worker_out o;

	(void)state;
	run_shim(0, &x, &o);
	assert_int_equal(sh.stamped_bad, 0);
	assert_int_equal(sh.took, 0);
	assert_int_equal(x.split_hist[0].count, 0);
	assert_int_equal(x.split_hist[1].count, 0);
}

/* Each commit takes all it was given: every I/O has its slat and clat. */
static void test_full_commit(void **state)
{
	static struct worker_extra x;
	struct worker_out o;

	(void)state;
	run_shim(DEPTH, &x, &o);
	assert_int_equal(sh.stamped_bad, 0);
	assert_int_equal(x.split_hist[0].count, sh.took);
	assert_true(sh.took > NBLOCKS / 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_partial_commit),
	    cmocka_unit_test(test_held_commit),
	    cmocka_unit_test(test_full_commit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
