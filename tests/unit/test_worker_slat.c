/*
 * submit_latency stamps an I/O "submitted" only when the kernel took it: a backend's commit()
 * says how many of the queued I/Os it handed over (the oldest first). A backend may take
 * fewer than were queued (a full submission queue, libaio's -EAGAIN), or none, as io_uring
 * does with io_uring_batch_submit, where queue() and reap() hand the I/Os over out of the
 * worker's sight. Here a shim over the null backend (null_delay) takes at most `take` of
 * the queued I/Os per commit and hands over the rest with the wait; at each wait it checks
 * that no I/O it had not taken carries a submission time, that each it took does, the time
 * of the commit that first took it, and at the end that every I/O it took has a slat and a
 * clat and no other does. A short transfer's rest and a copy's write are submitted again:
 * the I/O keeps the time of its first submission (its clat holds the rest).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/io/backends/backend.h"
#include "engine/io/worker.h"
#include "lib/cacheline.h"
#include "model/jobkeys.h"
#include "tests/unit/set_opt.h"

extern const struct be_ops be_null;

#define BLOCK	  4096u
#define NBLOCKS	  512u
#define DEPTH	  8u
#define NO_COMMIT UINT32_MAX /* run_shim_wl's take: a backend without commit() */

/* What the shim knows of one I/O (a slot of the worker's, by its address) since its first
 * submission: whether a commit took that, and the submission time the core gave it. */
struct shim_io {
	const struct be_io *io;
	bool first_taken;
	uint64_t stamp;
};

/* The shim's view of the I/Os in flight: queued, and whether a commit took each. */
static struct {
	void *priv;
	unsigned take; /* at most this many per commit */
	bool short_io; /* each I/O's first transfer moves half its bytes */
	struct be_io *q[DEPTH];
	bool taken[DEPTH];
	unsigned nq;
	struct shim_io ios[DEPTH];
	unsigned nios;
	uint64_t took;		/* submissions that commits took */
	uint64_t took_first;	/* ... of them first submissions of an I/O */
	uint64_t stamped_bad;	/* I/Os stamped submitted that no commit took */
	uint64_t unstamped_bad; /* I/Os a commit took first, not stamped by the wait */
	uint64_t restamped;	/* I/Os whose submission time changed once set */
} sh;

static struct shim_io *shim_io_of(const struct be_io *io)
{
	for (unsigned i = 0; i < sh.nios; i++)
		if (sh.ios[i].io == io)
			return &sh.ios[i];
	assert_true(sh.nios < DEPTH);
	sh.ios[sh.nios].io = io;
	return &sh.ios[sh.nios++];
}

static bool first_submission(const struct be_io *io)
{
	return io->phase == 0 && io->done == 0;
}

static bool stamped(const struct be_io *io)
{
	return io->submit_ns && io->submit_ns != BE_SUBMIT_UNSEEN;
}

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
	if (first_submission(io)) {
		struct shim_io *k = shim_io_of(io);
		k->first_taken = false;
		k->stamp = 0;
		assert_int_equal(io->submit_ns, 0); /* a new I/O */
	}
	if (r == BE_QUEUED) {
		assert_true(sh.nq < DEPTH);
		/* Without commit (NO_COMMIT), queue() hands it over as null does. */
		sh.taken[sh.nq] = sh.take == NO_COMMIT;
		if (sh.take == NO_COMMIT && first_submission(io)) {
			shim_io_of(io)->first_taken = true;
			sh.took_first++;
		}
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
			if (first_submission(sh.q[i])) {
				shim_io_of(sh.q[i])->first_taken = true;
				sh.took_first++;
			}
		}
	sh.took += n;
	return (int)n;
}

static int shim_reap(void *priv, unsigned min, unsigned max, struct be_io **out,
		     const struct timespec *timeout)
{
	int n;

	(void)priv;
	/* The core stamps before it waits: what carries a time now must have been taken by a
	 * commit the first time it was submitted, and what was must carry one, never changed. */
	for (unsigned i = 0; i < sh.nq; i++) {
		struct shim_io *k = shim_io_of(sh.q[i]);
		if (stamped(sh.q[i]) && !k->first_taken)
			sh.stamped_bad++;
		if (k->first_taken && !stamped(sh.q[i]))
			sh.unstamped_bad++;
		if (k->stamp && k->stamp != sh.q[i]->submit_ns)
			sh.restamped++;
		k->stamp = stamped(sh.q[i]) ? sh.q[i]->submit_ns : 0;
		sh.taken[i] = true; /* handed over with the wait: no later commit counts it */
	}
	n = be_null.reap(sh.priv, min, max, out, timeout);
	for (int k = 0; k < n; k++) {
		int i = slot_of(out[k]);
		assert_true(i >= 0);
		if (sh.short_io && out[k]->op == BE_READ && out[k]->len == out[k]->full_len)
			out[k]->result = out[k]->len / 2;
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

static const struct be_ops shim_no_commit_ops = {
    .name = "shim",
    .queue = shim_queue,
    .reap = shim_reap,
};

/* NBLOCKS random reads (or copies, `wl`) at DEPTH through the shim, each commit taking at
 * most `take`; the split histograms in `x`. */
static void run_shim_wl(enum job_workload wl, unsigned take, struct worker_extra *x,
			struct worker_out *o)
{
	static struct job_spec j;
	static struct src_loc locs[JK_MAX];
	static atomic_int stop;
	struct worker_job w = {0};
	struct be_config cfg = {.iodepth = DEPTH, .job = &j, .seed = 42};
	char err[256];

	if (be_registry_init(err, sizeof(err)) < 0)
		fail_msg("%s", err);
	drop_opts(&j); /* from the previous call */
	memset(&j, 0, sizeof(j));
	j.key_loc = locs;
	set_opt(&j, "null_delay", "20us");
	bool short_io = sh.short_io;

	memset(&sh, 0, sizeof(sh));
	sh.take = take;
	sh.short_io = short_io;
	assert_non_null(sh.priv = cacheline_zalloc(be_null.priv_size));
	assert_int_equal(be_null.init(sh.priv, &cfg), 0);
	memset(x, 0, sizeof(*x));
	w.be = take == NO_COMMIT ? &shim_no_commit_ops : &shim_ops;
	w.priv = sh.priv;
	w.wl = wl;
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
	assert_int_equal(sh.stamped_bad, 0);
	assert_int_equal(sh.unstamped_bad, 0);
	assert_int_equal(sh.restamped, 0);
	assert_int_equal(x->split_hist[0].count, sh.took_first);
	assert_int_equal(x->split_hist[1].count, sh.took_first);
}

static void run_shim(unsigned take, struct worker_extra *x, struct worker_out *o)
{
	sh.short_io = false;
	run_shim_wl(WL_RANDREAD, take, x, o);
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

/* A copy's write and a short transfer's rest are submitted again: each I/O keeps the time
 * its first submission was taken (never a later one, which would put the read or the
 * first part into its slat), or none when that went with the wait. */
static void test_resubmitted(void **state)
{
	static struct worker_extra x;
	struct worker_out o;
	static const unsigned takes[] = {1, 0, DEPTH, NO_COMMIT};

	(void)state;
	for (unsigned i = 0; i < sizeof(takes) / sizeof(takes[0]); i++) {
		sh.short_io = false;
		run_shim_wl(WL_COPY, takes[i], &x, &o);
		assert_true(sh.took > sh.took_first || takes[i] == 0 || takes[i] == NO_COMMIT);
		sh.short_io = true;
		run_shim_wl(WL_RANDREAD, takes[i], &x, &o);
		assert_true(sh.took > sh.took_first || takes[i] == 0 || takes[i] == NO_COMMIT);
		if (takes[i] == NO_COMMIT)
			assert_int_equal(sh.took_first, NBLOCKS);
	}
}

extern const struct be_ops be_fault, be_skeleton;

/* fault over skeleton, whose commit hands over every I/O it holds, reads the NBLOCKS blocks
 * of a file in order at DEPTH, the I/O at `bad` failing with EIO inside fault's queue(): it
 * never reaches skeleton, whose commit does not count it. The trial stops there; the I/Os
 * that completed must each have their split. */
static void run_fault(uint64_t bad, struct worker_extra *x, struct worker_out *o)
{
	static struct job_spec j;
	static struct src_loc locs[JK_MAX];
	static atomic_int stop;
	struct worker_job w = {0};
	struct be_config cfg = {.iodepth = DEPTH, .job = &j, .seed = 42};
	const struct be_ops *be;
	char err[256], path[] = "/tmp/iotrial-slat-XXXXXX", at[32];
	int fd;

	if (be_registry_init(err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_non_null(be = be_wrap(&be_fault, &be_skeleton));
	drop_opts(&j); /* from the previous call */
	memset(&j, 0, sizeof(j));
	j.key_loc = locs;
	set_opt(&j, "fault_backend", "skeleton");
	snprintf(at, sizeof(at), "%llu", (unsigned long long)bad);
	set_opt(&j, "fault_eio_offset", at);
	assert_true((fd = mkstemp(path)) >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, (off_t)NBLOCKS * BLOCK), 0);
	memset(x, 0, sizeof(*x));
	w.be = be;
	assert_non_null(w.priv = cacheline_zalloc(be->priv_size));
	assert_int_equal(be->init(w.priv, &cfg), 0);
	w.wl = WL_READ;
	w.fd = w.src_fd = fd;
	w.chunk = BLOCK;
	w.region_len = (uint64_t)NBLOCKS * BLOCK;
	w.iodepth = DEPTH;
	w.seed = 7;
	stop = 0;
	w.stop = &stop;
	w.rec_fd = w.int_fd = -1;
	w.split_lat = true;
	w.extra = x;
	assert_int_equal(worker_run(&w, o), -EIO);
	be->cleanup(w.priv);
	free(w.priv);
	close(fd);
}

/* Wherever in a batch the failed I/O lies, the others keep their place in the count of
 * what the kernel took: every I/O that completed has its slat. */
static void test_fault_in_batch(void **state)
{
	static struct worker_extra x;
	struct worker_out o;

	(void)state;
	for (uint64_t b = DEPTH; b < 2 * DEPTH; b++) {
		run_fault(b * BLOCK, &x, &o);
		assert_true(o.ios > 0);
		assert_int_equal(x.split_hist[0].count, o.ios);
		assert_int_equal(x.split_hist[1].count, o.ios);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_partial_commit), cmocka_unit_test(test_held_commit),
	    cmocka_unit_test(test_full_commit),	   cmocka_unit_test(test_resubmitted),
	    cmocka_unit_test(test_fault_in_batch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
