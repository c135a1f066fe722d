/* Unit tests for the worker's two helpers around a run (engine/io/worker.c): adding a
 * continuation's figures to a worker's (a wear_out top-up), and untying a job from its
 * trial (a top-up, verify's read-back). */
#include "engine/io/worker.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* A worker_out with `n` I/Os of `lat` ns each, `bytes` in all, from `start` to `end`. */
static struct worker_out *out_of(uint64_t n, uint64_t lat, uint64_t bytes, uint64_t start,
				 uint64_t end)
{
	struct worker_out *o = calloc(1, sizeof(*o));

	assert_non_null(o);
	hist_init(&o->hist);
	welford_init(&o->lat);
	for (uint64_t i = 0; i < n; i++) {
		hist_record(&o->hist, lat);
		welford_add(&o->lat, (double)lat);
	}
	o->ios = n;
	o->bytes = bytes;
	o->start_ns = start;
	o->end_ns = end;
	o->cpu_user_s = 0.5;
	o->cpu_sys_s = 0.25;
	return o;
}

static void test_add_sums_and_merges(void **state)
{
	struct worker_out *o = out_of(3, 1000, 12288, 100, 500);
	struct worker_out *t = out_of(1, 5000, 4096, 600, 900);

	(void)state;
	o->pos = 12288;
	t->pos = 4096;
	worker_out_add(o, t);
	assert_int_equal(o->ios, 4);
	assert_int_equal(o->bytes, 16384);
	assert_int_equal(o->hist.count, 4);
	assert_int_equal(o->hist.max, 5000);
	assert_int_equal(o->lat.n, 4);
	assert_true(o->lat.mean > 1999.0 && o->lat.mean < 2001.0);
	assert_int_equal(o->start_ns, 100); /* the worker's own start */
	assert_int_equal(o->end_ns, 900);   /* the top-up's later end */
	assert_true(o->cpu_user_s > 0.99 && o->cpu_user_s < 1.01);
	assert_true(o->cpu_sys_s > 0.49 && o->cpu_sys_s < 0.51);
	assert_int_equal(o->pos, 12288); /* where the worker stopped, not the top-up */
	free(o);
	free(t);
}

static void test_add_keeps_the_first_error(void **state)
{
	struct worker_out *o = out_of(1, 1000, 4096, 100, 200);
	struct worker_out *t = out_of(1, 1000, 4096, 300, 400);

	(void)state;
	t->err = -EIO;
	t->err_op = BE_WRITE;
	t->err_offset = 8192;
	t->err_len = 4096;
	t->log_err[WORKER_LOG_INTERVALS] = -ENOSPC;
	worker_out_add(o, t);
	assert_int_equal(o->err, -EIO);
	assert_int_equal(o->err_op, BE_WRITE);
	assert_int_equal(o->err_offset, 8192);
	assert_int_equal(o->err_len, 4096);
	assert_int_equal(o->log_err[WORKER_LOG_INTERVALS], -ENOSPC);
	assert_int_equal(o->log_err[WORKER_LOG_RECORDS], 0);
	/* A second error does not replace the first. */
	t->err = -ENOSPC;
	t->err_offset = 1;
	t->log_err[WORKER_LOG_INTERVALS] = -EIO;
	t->log_err[WORKER_LOG_RECORDS] = -EFBIG;
	worker_out_add(o, t);
	assert_int_equal(o->err, -EIO);
	assert_int_equal(o->err_offset, 8192);
	assert_int_equal(o->log_err[WORKER_LOG_INTERVALS], -ENOSPC);
	/* Each log keeps its own: the record log's first is this one. */
	assert_int_equal(o->log_err[WORKER_LOG_RECORDS], -EFBIG);
	free(o);
	free(t);
}

static void test_job_alone(void **state)
{
	static atomic_int flag;
	pthread_barrier_t b;
	struct worker_job w = {
	    .ramp_ns = 5,
	    .stop = &flag,
	    .stop_sw = &flag,
	    .barrier = &b,
	    .ready = &b,
	    .cancel = &flag,
	    .rec_fd = 3,
	    .int_fd = 4,
	    .seed = 42,
	    .chunk = 4096,
	};

	(void)state;
	worker_job_alone(&w);
	assert_int_equal(w.ramp_ns, 0);
	assert_null(w.stop_sw);
	assert_null(w.barrier);
	assert_null(w.ready);
	assert_null(w.cancel);
	assert_int_equal(w.rec_fd, -1);
	assert_int_equal(w.int_fd, -1);
	/* What the job is stays: the user's stop, the seed, the size of an I/O. */
	assert_ptr_equal(w.stop, &flag);
	assert_int_equal(w.seed, 42);
	assert_int_equal(w.chunk, 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_add_sums_and_merges),
	    cmocka_unit_test(test_add_keeps_the_first_error),
	    cmocka_unit_test(test_job_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
