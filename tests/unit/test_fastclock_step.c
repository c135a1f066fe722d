/*
 * Where the kernel keeps time by another clocksource than the counter (a virtual machine's
 * kvm-clock), a process reads the counter only if every CPU's counter lies on one line with
 * CLOCK_MONOTONIC (fastclock_counters_in_step, engine/io/fastclock.c). Here
 * CLOCK_MONOTONIC (clock_gettime, replaced for the whole binary) can be made to read ahead
 * on one CPU, as a counter set apart on that CPU would look: the check must refuse it, and
 * must leave the calling thread's CPU set as it found it. Skipped without a counter (not
 * x86-64) and, for the CPU set apart, on one CPU.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "engine/io/fastclock.h"

static int (*real_clock_gettime)(clockid_t, struct timespec *);
static atomic_int apart_cpu = -1; /* the CPU whose CLOCK_MONOTONIC reads ahead, or -1 */
static atomic_llong apart_ns;	  /* ... by how much */

int clock_gettime(clockid_t id, struct timespec *ts)
{
	int r, cpu = atomic_load(&apart_cpu);
	uint64_t ns;

	if (!real_clock_gettime)
		real_clock_gettime =
		    (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
	r = real_clock_gettime(id, ts);
	if (r < 0 || id != CLOCK_MONOTONIC || cpu < 0 || sched_getcpu() != cpu)
		return r;
	ns = (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec +
	     (uint64_t)atomic_load(&apart_ns);
	ts->tv_sec = (time_t)(ns / 1000000000ull);
	ts->tv_nsec = (long)(ns % 1000000000ull);
	return r;
}

/* The highest CPU the process may run on (and the lowest in *first), or -1 where it may run
 * on one only. */
static int last_of_two_or_more(int *first)
{
	cpu_set_t all;
	int last = -1;

	if (sched_getaffinity(0, sizeof(all), &all) < 0 || CPU_COUNT(&all) < 2)
		return -1;
	*first = -1;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &all)) {
			if (*first < 0)
				*first = cpu;
			last = cpu;
		}
	return last;
}

/* Does /proc/cpuinfo say the counter is invariant (nonstop_tsc)? Only there need the
 * counters of a machine be in step. */
static int invariant_here(void)
{
	char line[4096];
	int yes = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return 0;
	while (!yes && fgets(line, sizeof(line), f))
		yes = strncmp(line, "flags", 5) == 0 && strstr(line, " nonstop_tsc") != NULL;
	fclose(f);
	return yes;
}

static void test_in_step(void **state)
{
	cpu_set_t before, after;

	(void)state;
	if (!FASTCLOCK_TSC || !invariant_here())
		skip();
	assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof(before), &before), 0);
	assert_int_equal(fastclock_counters_in_step(), 1);
	assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof(after), &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
}

/* Read ahead on the last CPU by `ns`: in step or not? */
static int in_step_with_one_apart(long long ns)
{
	int first, cpu = last_of_two_or_more(&first), r;

	if (!FASTCLOCK_TSC || cpu < 0)
		skip();
	atomic_store(&apart_ns, ns);
	atomic_store(&apart_cpu, cpu);
	r = fastclock_counters_in_step();
	atomic_store(&apart_cpu, -1);
	return r;
}

static void test_one_cpu_apart(void **state)
{
	(void)state;
	/* 5 us: more than the check allows (2 us), far less than any I/O of a disk. */
	assert_int_equal(in_step_with_one_apart(5000), 0);
	assert_int_equal(in_step_with_one_apart(-5000), 0);
	assert_int_equal(in_step_with_one_apart(1000000), 0);
}

/* A thread pinned to one CPU of two (a worker pinned by `cpus` may be the first to set up a
 * clock), in a process whose other threads are too (taskset -c): the check still visits
 * every CPU a thread may be pinned to, and gives the thread its set back. */
struct pinned {
	int cpu, in_step, same_set;
};

static void *pinned_check(void *arg)
{
	struct pinned *p = arg;
	cpu_set_t one, after;

	CPU_ZERO(&one);
	CPU_SET(p->cpu, &one);
	if (pthread_setaffinity_np(pthread_self(), sizeof(one), &one) != 0)
		return NULL;
	p->in_step = fastclock_counters_in_step();
	p->same_set = pthread_getaffinity_np(pthread_self(), sizeof(after), &after) == 0 &&
		      CPU_EQUAL(&one, &after);
	return NULL;
}

static void test_pinned_caller(void **state)
{
	int first, cpu = last_of_two_or_more(&first);
	struct pinned p = {.in_step = -1};
	cpu_set_t all, one;
	pthread_t t;

	(void)state;
	if (!FASTCLOCK_TSC || cpu < 0)
		skip();
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	p.cpu = cpu;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	atomic_store(&apart_ns, 5000);
	atomic_store(&apart_cpu, first);
	assert_int_equal(pthread_create(&t, NULL, pinned_check, &p), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	atomic_store(&apart_cpu, -1);
	assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
	assert_int_equal(p.in_step, 0);
	assert_int_equal(p.same_set, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_in_step),
	    cmocka_unit_test(test_one_cpu_apart),
	    cmocka_unit_test(test_pinned_caller),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
