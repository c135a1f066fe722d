/*
 * The worker times every I/O on one clock (engine/io/fastclock.h): with submit_latency, an
 * I/O's start, its submission and its completion are three reads of that clock, so its slat
 * and clat are never negative and every I/O has both. The worker's clock follows
 * CLOCK_MONOTONIC only within a bound, so a submission time read from CLOCK_MONOTONIC
 * itself could lie before the I/O's start or after its completion. Here CLOCK_MONOTONIC
 * (clock_gettime, replaced for the whole binary) runs 2% fast in steps of 20 us each
 * millisecond (from its first read), which the worker's counter clock follows only at its 2 ms
 * settings: if any of the three reads came from CLOCK_MONOTONIC, I/Os would lose their slat and
 * clat. So for a rate-limited I/O: its latency counts from when it was due, and the wait for
 * that time must end on the worker's clock. Skipped where the worker's clock is
 * CLOCK_MONOTONIC itself (no counter to disagree).
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "engine/io/backends/backend.h"
#include "engine/io/fastclock.h"
#include "engine/io/worker.h"
#include "lib/cacheline.h"
#include "model/jobkeys.h"
#include "tests/unit/set_opt.h"

extern const struct be_ops be_null;

#define BLOCK	4096u
#define NBLOCKS 512u
#define STEP_NS 20000ull /* CLOCK_MONOTONIC's step each millisecond */

static int (*real_clock_gettime)(clockid_t, struct timespec *);
static uint64_t t0; /* the first CLOCK_MONOTONIC read once stepping: the steps count from it */
/* Set once the process's counter clock is calibrated: the check of the counters at its start
 * (engine/io/fastclock.c) would rightly find a clock that steps 20 us out of line with them. */
static atomic_int stepping;

int clock_gettime(clockid_t id, struct timespec *ts)
{
	uint64_t ns;
	int r;

	if (!real_clock_gettime)
		real_clock_gettime =
		    (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
	r = real_clock_gettime(id, ts);
	if (r < 0 || id != CLOCK_MONOTONIC || !atomic_load(&stepping))
		return r;
	ns = (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
	if (!t0)
		t0 = ns;
	ns += (ns - t0) / 1000000ull * STEP_NS;
	ts->tv_sec = (time_t)(ns / 1000000000ull);
	ts->tv_nsec = (long)(ns % 1000000000ull);
	return 0;
}

/* Skipped where the worker's clock is CLOCK_MONOTONIC itself; else past the process's
 * calibration, so that the worker reads the counter from its first I/O. */
static void counter_clock_or_skip(void)
{
	struct fastclock c;
	char err[256];

	fastclock_init(&c);
	if (c.mode == FASTCLOCK_MONO)
		skip();
	while (c.mode != FASTCLOCK_COUNTER)
		(void)fastclock_now(&c);
	atomic_store(&stepping, 1);
	if (be_registry_init(err, sizeof(err)) < 0)
		fail_msg("%s", err);
}

/* Random reads of `nblocks` blocks on the null backend with job `j`'s options, at `depth`,
 * as `w` (its other fields set by the caller) says; 0 or the worker's error. */
static int run_null(struct worker_job *w, struct job_spec *j, unsigned depth, uint64_t nblocks,
		    struct worker_out *o)
{
	struct be_config cfg = {.iodepth = depth, .job = j, .seed = 42};
	static atomic_int stop; /* w keeps its address */
	void *priv;
	int r;

	assert_non_null(priv = cacheline_zalloc(be_null.priv_size));
	assert_int_equal(be_null.init(priv, &cfg), 0);
	w->be = &be_null;
	w->priv = priv;
	w->wl = WL_RANDREAD;
	w->fd = w->src_fd = -1;
	w->chunk = BLOCK;
	w->region_len = nblocks * BLOCK;
	w->iodepth = depth;
	w->seed = 7;
	w->random_map = true;
	stop = 0;
	w->stop = &stop;
	w->rec_fd = w->int_fd = -1;
	r = worker_run(w, o);
	be_null.cleanup(priv);
	free(priv);
	return r;
}

static void test_split_on_one_clock(void **state)
{
	static struct job_spec j;
	static struct src_loc locs[JK_MAX];
	static struct worker_extra x;
	struct worker_job w = {0};
	struct worker_out o;

	(void)state;
	counter_clock_or_skip();
	memset(&j, 0, sizeof(j));
	j.key_loc = locs;
	set_opt(&j, "null_delay", "50us");
	w.split_lat = true;
	w.extra = &x;
	assert_int_equal(run_null(&w, &j, 4, NBLOCKS, &o), 0);
	assert_int_equal(o.ios, NBLOCKS);
	assert_int_equal(x.split_hist[0].count, o.ios);
	assert_int_equal(x.split_hist[1].count, o.ios);
}

/* A rate-limited job: an I/O's latency counts from when it was due, and the worker waits
 * for that time. If the wait ended on CLOCK_MONOTONIC, a worker's clock behind it would
 * find the I/O due later than it completed: a negative latency, ~2^64 in the figures. */
static void test_rate_on_one_clock(void **state)
{
	static struct job_spec j;
	static struct src_loc locs[JK_MAX];
	struct worker_job w = {0};
	struct worker_out o;

	(void)state;
	counter_clock_or_skip();
	memset(&j, 0, sizeof(j));
	j.key_loc = locs;
	w.rate_iops = 200000;
	assert_int_equal(run_null(&w, &j, 1, (uint64_t)NBLOCKS * 8, &o), 0);
	assert_int_equal(o.ios, NBLOCKS * 8);
	/* Each I/O waited at most for the machine's wake-up: far below a second. */
	if (o.lat.mean > 1e9)
		fail_msg("mean latency %.3g ns: some latency was negative", o.lat.mean);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_split_on_one_clock),
	    cmocka_unit_test(test_rate_on_one_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
