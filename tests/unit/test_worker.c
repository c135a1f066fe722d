/* Worker loop tests (engine/io/worker.c) over the asynchronous completion path on any
 * machine: null with null_delay (completions through reap, out of order with null_jitter),
 * skeleton reading /dev/zero (out of order by its lifo option, whatever the timing), and
 * fault wrapped around null (errors mid-queue, short reads). A counting shim between the
 * worker and the backend checks what the loop asks of it: the queue depth held, every I/O
 * reaped before the worker returns, nothing new queued once the stop flag is up, and how
 * many I/Os each commit hands over (docs/performance.md, "Submitting in pairs, then in
 * batches of four"). */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <unistd.h>

#include "engine/io/backends/backend.h"
#include "engine/io/worker.h"
#include "lib/cacheline.h"
#include "model/jobkeys.h"
#include "tests/unit/set_opt.h"

extern const struct be_ops be_null, be_fault, be_skeleton;

#define BLOCK	4096u
#define NBLOCKS 512u

/* What the shim saw, and the backend it passes everything to. */
struct shim {
	const struct be_ops *be;
	void *priv;
	unsigned inflight, max_inflight;
	uint64_t queued, done_at_once, reaped, queued_after_stop;
	uint64_t stop_after; /* raise the stop flag after this many completions; 0: never */
	uint64_t last_seq;
	bool out_of_order;
	atomic_int *stop;
	/* Commits: each hands over at most the size due (two first in a round, then four with
	 * random offsets, two again with sequential ones), no two of its I/Os abutting where it
	 * holds more than two (the kernel plugs it then); reap() starts a new round. */
	bool grow;
	unsigned uncommitted, due;
	uint64_t lo[64], hi[64]; /* the uncommitted I/Os' byte ranges */
	uint64_t commits, commits_big, commits_over, commits_abut, left_over;
};

static struct shim sh;

static void seen(struct be_io *io)
{
	if (sh.reaped + sh.done_at_once > 0 && io->seq < sh.last_seq)
		sh.out_of_order = true;
	sh.last_seq = io->seq;
	if (sh.stop_after && sh.reaped + sh.done_at_once >= sh.stop_after)
		*sh.stop = 1;
}

static int shim_queue(void *priv, struct be_io *io)
{
	int r = sh.be->queue(sh.priv, io);

	if (*sh.stop)
		sh.queued_after_stop++;
	if (r == BE_QUEUED) {
		sh.queued++;
		if (sh.uncommitted < 64) {
			sh.lo[sh.uncommitted] = io->offset;
			sh.hi[sh.uncommitted] = io->offset + io->len;
		}
		sh.uncommitted++;
		if (++sh.inflight > sh.max_inflight)
			sh.max_inflight = sh.inflight;
	} else if (r == BE_DONE) {
		sh.done_at_once++;
		seen(io);
	}
	return r;
}

/* Whether two of the uncommitted I/Os abut (a plug would make one request of them). */
static bool batch_abuts(void)
{
	unsigned n = sh.uncommitted < 64 ? sh.uncommitted : 64;

	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < n; k++)
			if (i != k && sh.hi[i] == sh.lo[k])
				return true;
	return false;
}

static int shim_commit(void *priv)
{
	if (sh.uncommitted) {
		sh.commits++;
		sh.commits_big += sh.uncommitted > 2;
		sh.commits_over += sh.uncommitted > sh.due;
		sh.commits_abut += sh.uncommitted > 2 && batch_abuts();
		sh.due = sh.grow ? 4 : 2;
		sh.uncommitted = 0;
	}
	return sh.be->commit ? sh.be->commit(sh.priv) : 0;
}

static int shim_reap(void *priv, unsigned min, unsigned max, struct be_io **out,
		     const struct timespec *timeout)
{
	int n = sh.be->reap(sh.priv, min, max, out, timeout);

	assert_true(min <= sh.inflight);
	/* What is left goes with the wait: never more than the next commit would have taken. */
	sh.left_over += sh.uncommitted > sh.due;
	sh.commits_abut += sh.uncommitted > 2 && batch_abuts();
	sh.uncommitted = 0;
	sh.due = 2;
	for (int i = 0; i < n; i++) {
		sh.reaped++;
		sh.inflight--;
		seen(out[i]);
	}
	return n;
}

static struct be_ops shim_ops = {
    .name = "shim",
    .queue = shim_queue,
    .commit = shim_commit,
    .reap = shim_reap,
};

static atomic_int stop_flag;
static int data_fd = -1; /* the file a backend that does I/O reads (/dev/zero) */

/* Zero job `j`, with room for where each key was set (a parsed job allocates its own). */
static void job_zero(struct job_spec *j)
{
	static struct src_loc locs[JK_MAX];

	drop_opts(j); /* a test that runs twice zeroes its job again */
	memset(j, 0, sizeof(*j));
	memset(locs, 0, sizeof(locs));
	j->key_loc = locs;
}

/* Set option `name` of job `j` to the value `text` types to, as the job file would. */
/* One trial of workload `wl` over NBLOCKS blocks at `depth` over `be`, through the shim,
 * which raises the stop flag after `stop_after` completions (0: never). */
static int run_wl(const struct be_ops *be, struct job_spec *j, enum job_workload wl, unsigned depth,
		  uint64_t stop_after, struct worker_out *o)
{
	struct be_config cfg = {.iodepth = depth, .job = j, .seed = 42};
	struct worker_job w = {0};
	static struct worker_extra x; /* a mixed workload's per-direction figures */
	int ret;

	memset(&sh, 0, sizeof(sh));
	stop_flag = 0;
	sh.be = be;
	sh.stop = &stop_flag;
	sh.stop_after = stop_after;
	sh.grow = wl == WL_RANDREAD || wl == WL_RANDRW;
	sh.due = 2;
	assert_non_null(sh.priv = cacheline_zalloc(be->priv_size));
	assert_int_equal(be->init(sh.priv, &cfg), 0);
	shim_ops.flags = be->flags;
	shim_ops.max_iodepth = be->max_iodepth;
	w.be = &shim_ops;
	w.priv = sh.priv;
	w.wl = wl;
	if (wl == WL_RANDRW || wl == WL_READWRITE) {
		w.mixed = true;
		w.read_pct = 50;
		w.extra = &x;
	}
	w.fd = w.src_fd = data_fd;
	w.chunk = BLOCK;
	w.region_len = (uint64_t)NBLOCKS * BLOCK;
	w.iodepth = depth;
	w.seed = 7;
	w.random_map = true;
	w.stop = &stop_flag;
	w.rec_fd = w.int_fd = -1;
	ret = worker_run(&w, o);
	be->cleanup(sh.priv);
	free(sh.priv);
	return ret;
}

/* One randread trial, as run_wl. */
static int run(const struct be_ops *be, struct job_spec *j, unsigned depth, uint64_t stop_after,
	       struct worker_out *o)
{
	return run_wl(be, j, WL_RANDREAD, depth, stop_after, o);
}

static int setup(void **state)
{
	char err[256];

	if (be_registry_init(err, sizeof(err)) < 0)
		fail_msg("%s", err);
	return 0;
}

static void test_null_async_out_of_order(void **state)
{
	static struct job_spec j;
	struct worker_out o;

	job_zero(&j);
	/* Jitter far above the timer's slack and a loaded machine's wake-up delays: I/Os
	 * queued later come due first, whenever the worker wakes. */
	set_opt(&j, "null_delay", "10us");
	set_opt(&j, "null_jitter", "10ms");
	assert_int_equal(run(&be_null, &j, 8, 0, &o), 0);
	assert_int_equal(o.ios, NBLOCKS);
	assert_int_equal(o.bytes, (uint64_t)NBLOCKS * BLOCK);
	assert_int_equal(o.errors, 0);
	assert_int_equal(sh.done_at_once, 0); /* every one came back through reap */
	assert_int_equal(sh.reaped, NBLOCKS);
	assert_true(sh.out_of_order);
	assert_int_equal(sh.max_inflight, 8); /* the queue depth held */
	assert_int_equal(sh.inflight, 0);
}

static void test_null_async_in_order(void **state)
{
	static struct job_spec j;
	struct worker_out o;

	job_zero(&j);
	set_opt(&j, "null_delay", "10us");
	assert_int_equal(run(&be_null, &j, 8, 0, &o), 0);
	assert_int_equal(o.ios, NBLOCKS);
	assert_int_equal(sh.max_inflight, 8);
	assert_false(sh.out_of_order); /* no jitter: first in, first out */
}

/* skeleton, reading /dev/zero: its lifo order makes completions overtake one another
 * whatever the timing; fifo keeps them in order. */
static void test_skeleton_order(void **state)
{
	static struct job_spec j;
	struct worker_out o;

	assert_true((data_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC)) >= 0);
	job_zero(&j);
	set_opt(&j, "skeleton_order", "lifo");
	assert_int_equal(run(&be_skeleton, &j, 8, 0, &o), 0);
	assert_int_equal(o.ios, NBLOCKS);
	assert_int_equal(o.bytes, (uint64_t)NBLOCKS * BLOCK);
	assert_int_equal(sh.reaped, NBLOCKS);
	assert_int_equal(sh.max_inflight, 8);
	assert_true(sh.out_of_order);
	job_zero(&j);
	assert_int_equal(run(&be_skeleton, &j, 8, 0, &o), 0);
	assert_int_equal(o.ios, NBLOCKS);
	assert_false(sh.out_of_order);
	close(data_fd);
	data_fd = -1;
}

static void test_null_async_depth_one(void **state)
{
	static struct job_spec j;
	struct worker_out o;

	job_zero(&j);
	set_opt(&j, "null_delay", "5us");
	assert_int_equal(run(&be_null, &j, 1, 0, &o), 0);
	assert_int_equal(o.ios, NBLOCKS);
	assert_int_equal(sh.max_inflight, 1);
	assert_false(sh.out_of_order);
}

static void test_null_at_once(void **state)
{
	static struct job_spec j;
	struct worker_out o;

	job_zero(&j);
	assert_int_equal(run(&be_null, &j, 8, 0, &o), 0);
	assert_int_equal(o.ios, NBLOCKS);
	assert_int_equal(sh.done_at_once, NBLOCKS);
	assert_int_equal(sh.reaped, 0);
}

/* fault over null with null_delay: the table the planner would give the job. */
static const struct be_ops *fault_over_null(struct job_spec *j)
{
	const struct be_ops *be;

	set_opt(j, "fault_backend", "null");
	set_opt(j, "null_delay", "10us");
	set_opt(j, "null_jitter", "30us");
	assert_non_null(be = be_wrap(&be_fault, &be_null));
	assert_true(be->flags & BE_F_ASYNC);
	assert_true(be->flags & BE_F_NOIO);
	return be;
}

static void test_fault_error_mid_queue(void **state)
{
	static struct job_spec j;
	struct worker_out o;

	job_zero(&j);
	const struct be_ops *be = fault_over_null(&j);
	set_opt(&j, "fault_eio_offset", "1000000"); /* inside block 244 */
	assert_int_equal(run(be, &j, 16, 0, &o), -EIO);
	assert_int_equal(o.err, -EIO);
	assert_int_equal(o.err_offset, 244 * BLOCK);
	assert_int_equal(o.err_op, BE_READ);
	assert_true(o.errors >= 1);
	assert_true(o.ios < NBLOCKS);
	assert_int_equal(sh.done_at_once, 0); /* the error came back through reap */
	assert_true(sh.max_inflight > 1);     /* with others in flight */
	assert_int_equal(sh.inflight, 0);     /* and they were all reaped before the return */
}

static void test_fault_short_reads(void **state)
{
	static struct job_spec j;
	struct worker_out o;

	job_zero(&j);
	const struct be_ops *be = fault_over_null(&j);
	set_opt(&j, "fault_short", "true");
	assert_int_equal(run(be, &j, 8, 0, &o), 0);
	assert_int_equal(o.errors, 0);
	assert_int_equal(o.ios, NBLOCKS);
	assert_int_equal(o.bytes, (uint64_t)NBLOCKS * BLOCK);
	/* 4096 bytes come back 2048, 1024, ..., 1, 1: 13 submissions each. */
	assert_int_equal(sh.queued, 13 * NBLOCKS);
	assert_int_equal(sh.max_inflight, 8);
}

/* skeleton completes everything it holds in each reap, as a disk that answers in bursts:
 * every round after the first refills all 32 slots. Random offsets: a commit of 2, then
 * commits of at most 4 (fewer where the next I/O abuts one of the batch), what is left with
 * the wait, in every round (a round that did not start again at 2 would hand over 4 first);
 * no two I/Os of a commit of more than two abut. Sequential ones: fifteen pairs a round, never
 * more, so that no plug merges them. Mixed workloads as their offsets are. */
static void test_commit_sizes(void **state)
{
	static const enum job_workload random[] = {WL_RANDREAD, WL_RANDRW};
	static const enum job_workload sequential[] = {WL_READ, WL_READWRITE};
	static struct job_spec j;
	struct worker_out o;
	const uint64_t rounds = NBLOCKS / 32;

	(void)state;
	/* Reads give zeros, writes are dropped. */
	assert_true((data_fd = open("/dev/zero", O_RDWR | O_CLOEXEC)) >= 0);
	for (int i = 0; i < 2; i++) {
		job_zero(&j);
		assert_int_equal(run_wl(&be_skeleton, &j, random[i], 32, 0, &o), 0);
		assert_int_equal(o.ios, NBLOCKS);
		assert_int_equal(sh.commits_over, 0);
		assert_int_equal(sh.commits_abut, 0);
		assert_int_equal(sh.left_over, 0);
		/* 2 + 7 x 4 + 2 with the wait: 8 commits a round, more where an I/O abutted. */
		assert_true(sh.commits >= 8 * rounds);
		assert_true(sh.commits_big >= 4 * rounds);
	}
	for (int i = 0; i < 2; i++) {
		job_zero(&j);
		assert_int_equal(run_wl(&be_skeleton, &j, sequential[i], 32, 0, &o), 0);
		assert_int_equal(o.ios, NBLOCKS);
		assert_int_equal(sh.commits_over, 0);
		assert_int_equal(sh.commits_abut, 0);
		assert_int_equal(sh.left_over, 0);
		assert_int_equal(sh.commits, 15 * rounds);
		assert_int_equal(sh.commits_big, 0);
	}
	close(data_fd);
	data_fd = -1;
}

static void test_stop_flag(void **state)
{
	static struct job_spec j;
	struct worker_out o;

	job_zero(&j);
	set_opt(&j, "null_delay", "10us");
	assert_int_equal(run(&be_null, &j, 8, 100, &o), 0);
	assert_true(o.ios >= 100);
	assert_true(o.ios <= 100 + 8);
	assert_int_equal(o.errors, 0);
	assert_int_equal(sh.queued_after_stop, 0); /* nothing new once the flag was up */
	assert_int_equal(sh.inflight, 0);	   /* what was in flight was reaped */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_null_async_out_of_order),
	    cmocka_unit_test(test_null_async_in_order),
	    cmocka_unit_test(test_null_async_depth_one),
	    cmocka_unit_test(test_skeleton_order),
	    cmocka_unit_test(test_commit_sizes),
	    cmocka_unit_test(test_null_at_once),
	    cmocka_unit_test(test_fault_error_mid_queue),
	    cmocka_unit_test(test_fault_short_reads),
	    cmocka_unit_test(test_stop_flag),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
