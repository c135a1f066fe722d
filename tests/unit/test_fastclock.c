/*
 * Unit tests for engine/io/fastclock: on a machine whose kernel keeps CLOCK_MONOTONIC on the
 * TSC, the worker's clock reads the counter and stays on CLOCK_MONOTONIC (every read between
 * two reads of it, within a microsecond), never goes back, measures durations as it does
 * (within 0.01%), also across sleeps longer than its span, and steers back onto it when
 * off (without going back), and neither goes back nor stops when the counter is found
 * behind its anchor; IOTRIAL_CLOCK=monotonic, or
 * another clocksource, gives CLOCK_MONOTONIC itself (the choice is tested apart).
 */
#include "engine/io/fastclock.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

/* A read of the clock against CLOCK_MONOTONIC read just before and after it. */
#define TOLERANCE_NS 1000

static void nap(long ns)
{
	struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
	nanosleep(&ts, NULL);
}

/* Read for `ns` of time (sleeping `nap_ns` every 4096 reads, when not 0); fail on a read
 * outside [before - TOLERANCE_NS, after + TOLERANCE_NS] once the clock reads the counter,
 * or on one earlier than the read before it. Returns the reads that used the counter. */
static uint64_t follow(struct fastclock *c, uint64_t ns, long nap_ns)
{
	uint64_t end = fastclock_mono_ns() + ns, prev = 0, counted = 0;

	for (uint64_t i = 0;; i++) {
		uint64_t before = fastclock_mono_ns();
		uint64_t t = fastclock_now(c);
		uint64_t after = fastclock_mono_ns();
		if (t < prev)
			fail_msg("read %llu: %llu after %llu: the clock went back",
				 (unsigned long long)i, (unsigned long long)t,
				 (unsigned long long)prev);
		if (c->mode == FASTCLOCK_COUNTER) {
			counted++;
			if (t + TOLERANCE_NS < before || t > after + TOLERANCE_NS)
				fail_msg("read %llu: %llu, CLOCK_MONOTONIC %llu..%llu",
					 (unsigned long long)i, (unsigned long long)t,
					 (unsigned long long)before, (unsigned long long)after);
		}
		prev = t;
		if (after >= end)
			return counted;
		if (nap_ns && i % 4096 == 4095)
			nap(nap_ns);
	}
}

static int counter_here(void)
{
	struct fastclock c;

	fastclock_init(&c);
	return c.mode != FASTCLOCK_MONO;
}

/* The process's first clock reads the counter from its first read: a worker's trial must
 * not be timed by CLOCK_MONOTONIC (a slower read, a latency that holds its cost) while
 * later trials are timed by the counter. First in main(): the process's first clock. */
static void test_first_read_on_counter(void **state)
{
	struct fastclock c;

	(void)state;
	fastclock_init(&c);
	if (c.mode == FASTCLOCK_MONO)
		skip();
	(void)fastclock_now(&c);
	assert_int_equal(c.mode, FASTCLOCK_COUNTER);
}

static void test_follows_monotonic(void **state)
{
	struct fastclock c;

	(void)state;
	if (!counter_here())
		skip();
	fastclock_init(&c);
	/* Calibrates within FASTCLOCK_CAL_NS, then reads the counter, across many spans. */
	assert_true(follow(&c, 50000000, 0) > 0);
	assert_int_equal(c.mode, FASTCLOCK_COUNTER);
	/* Sleeps longer than a span between reads: the next read sets the clock again. */
	follow(&c, 60000000, 3 * (long)FASTCLOCK_SPAN_NS);
	/* And tiny ones, as an I/O at depth 1 on a fast device. */
	follow(&c, 20000000, 20000);
}

/* CLOCK_MONOTONIC read around the clock: *lo and *hi; false when the three reads lay more
 * than TOLERANCE_NS apart (the CPU went elsewhere between them). */
static int bracket(struct fastclock *c, uint64_t *lo, uint64_t *t, uint64_t *hi)
{
	*lo = fastclock_mono_ns();
	*t = fastclock_now(c);
	*hi = fastclock_mono_ns();
	return *hi - *lo <= TOLERANCE_NS;
}

static void test_durations(void **state)
{
	struct fastclock c;

	(void)state;
	if (!counter_here())
		skip();
	fastclock_init(&c);
	follow(&c, 2 * FASTCLOCK_CAL_NS, 0);
	for (int k = 0; k < 5; k++) {
		uint64_t a0, f0, b0, a1, f1, b1;
		while (!bracket(&c, &a0, &f0, &b0))
			;
		nap(20000000);
		while (!bracket(&c, &a1, &f1, &b1))
			;
		/* Within 0.01% of what CLOCK_MONOTONIC can have measured between the two. */
		double df = (double)(f1 - f0), lo = (double)(a1 - b0), hi = (double)(b1 - a0);
		if (df < lo * 0.9999 || df > hi * 1.0001)
			fail_msg("20 ms: the clock measured %.0f ns, CLOCK_MONOTONIC %.0f..%.0f ns",
				 df, lo, hi);
	}
}

/* A clock that ran 0.1% fast (as after a poor first calibration) is ahead of
 * CLOCK_MONOTONIC by 2 us at the end of its span: it must wait there, not step back, and be
 * on CLOCK_MONOTONIC again a span later; one 0.1% slow catches up. */
static void test_steers_back(void **state)
{
	struct fastclock c;

	(void)state;
	if (!counter_here())
		skip();
	for (int sign = 1; sign >= -1; sign -= 2) {
		uint64_t prev = 0, end;
		fastclock_init(&c);
		follow(&c, 2 * FASTCLOCK_CAL_NS, 0);
		assert_int_equal(c.mode, FASTCLOCK_COUNTER);
		/* Set the clock now (a span of 0 sends the read to the slow path), so that it is
		 * off by the whole span's 2 us at the end of the next one. */
		c.span = 0;
		(void)fastclock_now(&c);
		c.mult = sign > 0 ? c.mult + c.mult / 1000 : c.mult - c.mult / 1000;
		end = fastclock_mono_ns() + 3 * FASTCLOCK_SPAN_NS;
		while (fastclock_mono_ns() < end) {
			uint64_t t = fastclock_now(&c);
			if (t < prev)
				fail_msg("%s: %llu after %llu: the clock went back",
					 sign > 0 ? "fast" : "slow", (unsigned long long)t,
					 (unsigned long long)prev);
			prev = t;
		}
		follow(&c, 20000000, 0);
	}
}

/* A clock ahead of CLOCK_MONOTONIC at a read past its span, whose setting comes long after
 * that read (the thread lost the CPU between the two): CLOCK_MONOTONIC is then past the
 * clock's value, and the durations after it must be CLOCK_MONOTONIC's, not sped up to
 * make up the time lost. */
static void test_late_setting(void **state)
{
	struct fastclock c;

	(void)state;
	if (!counter_here())
		skip();
	fastclock_init(&c);
	follow(&c, 2 * FASTCLOCK_CAL_NS, 0);
	assert_int_equal(c.mode, FASTCLOCK_COUNTER);
	c.span = 0; /* set the clock now */
	(void)fastclock_now(&c);
	c.ns += 50000; /* 50 us ahead */
	{
		uint64_t t = c.tsc + c.span, prev = c.ns, got, a0, f0, b0, a1, f1, b1;
		nap(10000000);
		got = fastclock_slow(&c, t);
		if (got < prev)
			fail_msg("%llu after %llu: the clock went back", (unsigned long long)got,
				 (unsigned long long)prev);
		while (!bracket(&c, &a0, &f0, &b0))
			;
		nap(200000);
		while (!bracket(&c, &a1, &f1, &b1))
			;
		/* Within 0.01% (and a read's tolerance) of what CLOCK_MONOTONIC measured. */
		if ((double)(f1 - f0) < (double)(a1 - b0) * 0.9999 - TOLERANCE_NS ||
		    (double)(f1 - f0) > (double)(b1 - a0) * 1.0001 + TOLERANCE_NS)
			fail_msg("the clock measured %llu ns, CLOCK_MONOTONIC %llu..%llu ns",
				 (unsigned long long)(f1 - f0), (unsigned long long)(a1 - b0),
				 (unsigned long long)(b1 - a0));
	}
}

/* The counter ran on while CLOCK_MONOTONIC stood still (suspend to idle: the TSC counts
 * on, CLOCK_MONOTONIC leaves the suspend out; a paused virtual machine): the next read finds
 * the counter 10 s past the anchor, CLOCK_MONOTONIC not. The slope since the clock's base
 * then no longer holds: the durations after it must still be CLOCK_MONOTONIC's. */
static void test_counter_ran_alone(void **state)
{
	struct fastclock c;
	uint64_t gap, a0, f0, b0, a1, f1, b1;

	(void)state;
	if (!counter_here())
		skip();
	fastclock_init(&c);
	follow(&c, 2 * FASTCLOCK_CAL_NS, 0);
	assert_int_equal(c.mode, FASTCLOCK_COUNTER);
#if FASTCLOCK_TSC
	/* A fresh anchor, so that the counter jumps less than a span after it: the clock could
	 * then only hold at the span's end, up to 2 ms ahead of CLOCK_MONOTONIC (the test
	 * passed only where the jump fell at a span's end). */
	c.tsc = __rdtsc();
	c.ns = fastclock_mono_ns();
#endif
	/* 10 s of ticks: the anchor and the base that far back on the counter. */
	gap = (uint64_t)(((unsigned __int128)10000000000ull << 32) / c.mult);
	c.tsc -= gap;
	c.bt -= gap;
	follow(&c, 10000000, 0);
	while (!bracket(&c, &a0, &f0, &b0))
		;
	nap(20000000);
	while (!bracket(&c, &a1, &f1, &b1))
		;
	if ((double)(f1 - f0) < (double)(a1 - b0) * 0.9999 ||
	    (double)(f1 - f0) > (double)(b1 - a0) * 1.0001)
		fail_msg("20 ms: the clock measured %llu ns, CLOCK_MONOTONIC %llu..%llu ns",
			 (unsigned long long)(f1 - f0), (unsigned long long)(a1 - b0),
			 (unsigned long long)(b1 - a0));
}

/* A read of a counter below the clock's anchor: the counter went back (suspend to RAM
 * resets it), or, for a few ticks, a read on another CPU. The clock must neither go back nor
 * stop: a stopped clock times every I/O at 0 and never reaches a trial's end. */
static void test_counter_behind_anchor(void **state)
{
	struct fastclock c;

	(void)state;
#if FASTCLOCK_TSC
	if (!counter_here())
		skip();
	for (int far = 0; far < 2; far++) {
		uint64_t a, t, b;
		fastclock_init(&c);
		follow(&c, 2 * FASTCLOCK_CAL_NS, 0);
		assert_int_equal(c.mode, FASTCLOCK_COUNTER);
		/* The counter 2^40 ticks (minutes) behind a new anchor; or one read 10 ticks
		 * behind it, as from another CPU, before the counter passes it again. */
		do { /* an anchor on CLOCK_MONOTONIC (a lost CPU here would put it behind) */
			c.ns = fastclock_mono_ns();
			c.tsc = __rdtsc();
		} while (fastclock_mono_ns() - c.ns > TOLERANCE_NS / 4);
		if (far) {
			c.tsc += 1ull << 40;
		} else {
			uint64_t prev = c.ns, got = fastclock_slow(&c, c.tsc - 10);
			if (got < prev || got > fastclock_mono_ns() + TOLERANCE_NS)
				fail_msg("near: %llu, the clock was at %llu",
					 (unsigned long long)got, (unsigned long long)prev);
		}
		follow(&c, 10000000, 0);
		while (!bracket(&c, &a, &t, &b))
			;
		if (t + TOLERANCE_NS < a || t > b + TOLERANCE_NS)
			fail_msg("%s: %llu, CLOCK_MONOTONIC %llu..%llu", far ? "far" : "near",
				 (unsigned long long)t, (unsigned long long)a,
				 (unsigned long long)b);
	}
#else
	skip();
#endif
}

/* The slope over a run of hours: ns << 32 no longer fits 64 bits after 4.3 s. */
static void test_slope_long_run(void **state)
{
	(void)state;
	/* 3 GHz: a third of a ns per tick. */
	assert_int_equal(fastclock_slope(3000000000ull, 9000000000ull), (1ull << 32) / 3);
	assert_int_equal(fastclock_slope(10 * 3600000000000ull, 3 * 10 * 3600000000000ull),
			 (1ull << 32) / 3);
	/* 100 days at 2.5 GHz. */
	assert_int_equal(fastclock_slope(8640000000000000ull, 21600000000000000ull),
			 (uint64_t)((1ull << 32) * 0.4));
}

static void test_monotonic_by_choice(void **state)
{
	struct fastclock c = {.mode = FASTCLOCK_MONO};
	uint64_t a, t, b;

	(void)state;
	a = fastclock_mono_ns();
	t = fastclock_now(&c);
	b = fastclock_mono_ns();
	assert_true(a <= t && t <= b);
	assert_int_equal(c.mode, FASTCLOCK_MONO);
}

static void test_when_counter(void **state)
{
	const int checked = FASTCLOCK_TSC ? FASTCLOCK_KERNEL_CHECKED : FASTCLOCK_NO_COUNTER;
	const int to_check = FASTCLOCK_TSC ? FASTCLOCK_TO_CHECK : FASTCLOCK_NO_COUNTER;

	(void)state;
	assert_int_equal(fastclock_counter_usable(NULL, "tsc\n", 0), checked);
	assert_int_equal(fastclock_counter_usable("", "tsc\n", 0), checked);
	assert_int_equal(fastclock_counter_usable("auto", "tsc", 1), checked);
	assert_int_equal(fastclock_counter_usable("monotonic", "tsc\n", 1), FASTCLOCK_NO_COUNTER);
	assert_int_equal(fastclock_counter_usable("monotonic", "kvm-clock\n", 1),
			 FASTCLOCK_NO_COUNTER);
	/* Another clocksource: the counter only where the CPU says it is invariant, and then
	 * only after the check of every CPU's counter. */
	assert_int_equal(fastclock_counter_usable(NULL, "kvm-clock\n", 0), FASTCLOCK_NO_COUNTER);
	assert_int_equal(fastclock_counter_usable(NULL, "kvm-clock\n", 1), to_check);
	assert_int_equal(fastclock_counter_usable(NULL, "tsc-early\n", 0), FASTCLOCK_NO_COUNTER);
	assert_int_equal(fastclock_counter_usable(NULL, "", 0), FASTCLOCK_NO_COUNTER);
	assert_int_equal(fastclock_counter_usable(NULL, NULL, 0), FASTCLOCK_NO_COUNTER);
	assert_int_equal(fastclock_counter_usable(NULL, NULL, 1), to_check);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_first_read_on_counter),
	    cmocka_unit_test(test_follows_monotonic),
	    cmocka_unit_test(test_durations),
	    cmocka_unit_test(test_steers_back),
	    cmocka_unit_test(test_counter_behind_anchor),
	    cmocka_unit_test(test_late_setting),
	    cmocka_unit_test(test_counter_ran_alone),
	    cmocka_unit_test(test_slope_long_run),
	    cmocka_unit_test(test_monotonic_by_choice),
	    cmocka_unit_test(test_when_counter),
	};
	if (getenv("IOTRIAL_CLOCK"))
		fprintf(stderr, "test_fastclock: IOTRIAL_CLOCK=%s in the environment\n",
			getenv("IOTRIAL_CLOCK"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
