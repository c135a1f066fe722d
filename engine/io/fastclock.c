/* The worker's clock: set-up, calibration and steering (see fastclock.h). */
#include "engine/io/fastclock.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if FASTCLOCK_TSC
#include <cpuid.h>
#endif

/* The process's first pair of a counter value and CLOCK_MONOTONIC: every clock's slope is
 * taken from it, over as long a time as there is. */
static struct {
	int how;    /* fastclock_counter_usable's answer */
	int usable; /* the counter may be used (fastclock_counter_usable, in_step_since) */
	uint64_t tsc, ns;
} base;
static pthread_once_t pair_once = PTHREAD_ONCE_INIT, base_once = PTHREAD_ONCE_INIT;

#if FASTCLOCK_TSC
/* A counter value and CLOCK_MONOTONIC read together: the counter halfway between two
 * ordered reads around the clock's, of the tightest of `tries`; returns how far apart
 * those two were (ticks). Two reads a few ns apart
 * here may also be microseconds apart (the first call of the process, or a virtual CPU
 * that lost its turn between them): an error of a microsecond in a pair is one of 500 ppm
 * in a slope over 2 ms. */
static uint64_t pair(uint64_t *tsc, uint64_t *ns, int tries)
{
	uint64_t best = UINT64_MAX;
	unsigned aux;

	for (int i = 0; i < tries; i++) {
		uint64_t a = __rdtscp(&aux), n = fastclock_mono_ns(), b = __rdtscp(&aux);
		if (b >= a && b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = n;
		}
	}
	if (best == UINT64_MAX) {
		*tsc = __rdtscp(&aux);
		*ns = fastclock_mono_ns();
	}
	return best;
}

/* The kernel's clocksource, "" when unknown. */
static void kernel_clocksource(char *cs, size_t size)
{
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	cs[0] = 0;
	if (!f)
		return;
	if (!fgets(cs, (int)size, f))
		cs[0] = 0;
	fclose(f);
}
#endif

int fastclock_counter_usable(const char *env, const char *clocksource, int invariant)
{
	if (!FASTCLOCK_TSC || (env && strcmp(env, "monotonic") == 0))
		return FASTCLOCK_NO_COUNTER;
	/* The kernel keeps CLOCK_MONOTONIC on the TSC: then it has found the counters in step
	 * across CPUs and steady. */
	if (clocksource && (strcmp(clocksource, "tsc\n") == 0 || strcmp(clocksource, "tsc") == 0))
		return FASTCLOCK_KERNEL_CHECKED;
	/* Another clocksource need not mean the counter is bad: a virtual machine's kernel is
	 * often told to keep time by its hypervisor's clock (kvm-clock, itself the counter
	 * scaled) and not to trust the TSC, whatever the CPU says. Where the CPU says the
	 * counter runs at one rate in every power state, iotrial checks the rest itself. */
	return invariant ? FASTCLOCK_TO_CHECK : FASTCLOCK_NO_COUNTER;
}

#if FASTCLOCK_TSC
/* Does the CPU say its counter runs at one rate in every P-, C- and T-state (CPUID
 * 0x80000007, EDX bit 8: "invariant TSC"; /proc/cpuinfo's constant_tsc and nonstop_tsc)?
 * fio's clocksource=cpu trusts the counter on this alone. */
static int cpu_invariant_tsc(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000007)
		return 0;
	if (!__get_cpuid(0x80000007, &a, &b, &c, &d))
		return 0;
	return (d & (1u << 8)) != 0;
}

/* How far a CPU's pair may lie off the line through the base and the first pair. Where the
 * counters are in step the pairs agree to tens of ns; the line's slope, taken over 2 ms,
 * is within 500 ppm: 50 ns over the 100 us the check takes. */
#define IN_STEP_NS 2000

/* Is this CPU's pair on the line with slope `mult` through (t0, n0)? A pair whose reads
 * lay more than a microsecond apart (the virtual CPU lost its turn) says nothing: up to 4
 * are taken. 1 in step, 0 not (or no pair could be taken). */
static int cpu_in_step(uint64_t t0, uint64_t n0, uint64_t mult)
{
	uint64_t wide = ((uint64_t)1000 << 32) / mult, t = 0, n = 0, at;

	for (int i = 0; i < 4; i++) {
		if (pair(&t, &n, 8) > wide)
			continue;
		if (t < t0)
			return 0;
		at = n0 + (uint64_t)(((unsigned __int128)(t - t0) * mult) >> 32);
		return (at > n ? at - n : n - at) <= IN_STEP_NS;
	}
	return 0;
}

/* Are the counters of every CPU a thread of the process may run on in step with
 * CLOCK_MONOTONIC and so with each other, a pair (bt, bn) taken FASTCLOCK_CAL_NS or more
 * before? The calling thread visits each CPU in turn (its own CPU set restored after) and
 * takes a pair there: each must lie on the line through (bt, bn) and the pair taken first.
 * Every CPU the machine has, not only those of the process's CPU set: a job's `cpus` may
 * pin a worker outside it (taskset sets a mask, not a bound); a CPU that no thread of the
 * process may use (a cpuset's bound, offline) refuses the visit with EINVAL and is passed.
 * Counters set apart (a host that did not sync its virtual CPUs, two sockets out of step)
 * would time an I/O started on one CPU and completed on another by their difference. 1 or
 * 0. */
static int in_step_since(uint64_t bt, uint64_t bn)
{
	cpu_set_t own;
	uint64_t t0 = 0, n0 = 0, mult;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int ok = 1, visited = 0;

	if (ncpu < 1 || ncpu > CPU_SETSIZE ||
	    pthread_getaffinity_np(pthread_self(), sizeof(own), &own) != 0)
		return 0;
	pair(&t0, &n0, 8);
	if (t0 <= bt || n0 <= bn)
		return 0;
	if (!(mult = fastclock_slope(n0 - bn, t0 - bt)))
		return 0;
	for (int cpu = 0; ok && cpu < (int)ncpu; cpu++) {
		cpu_set_t one;
		int r;

		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if ((r = pthread_setaffinity_np(pthread_self(), sizeof(one), &one)) == EINVAL)
			continue;
		ok = r == 0 && cpu_in_step(t0, n0, mult);
		visited++;
	}
	if (pthread_setaffinity_np(pthread_self(), sizeof(own), &own) != 0)
		ok = 0;
	return ok && visited > 0;
}

/* Until CLOCK_MONOTONIC reads `ns`. */
static void sleep_until(uint64_t ns)
{
	struct timespec ts = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}
#endif

int fastclock_counters_in_step(void)
{
#if FASTCLOCK_TSC
	uint64_t bt = 0, bn = 0;

	pair(&bt, &bn, 1);
	pair(&bt, &bn, 8);
	sleep_until(bn + FASTCLOCK_CAL_NS);
	return in_step_since(bt, bn);
#else
	return 0;
#endif
}

/* The process's first pair, where the counter may be used. */
static void base_pair(void)
{
#if FASTCLOCK_TSC
	char cs[32];

	kernel_clocksource(cs, sizeof(cs));
	base.how = fastclock_counter_usable(getenv("IOTRIAL_CLOCK"), cs, cpu_invariant_tsc());
	if (base.how == FASTCLOCK_NO_COUNTER)
		return;
	/* The first reads of the process are slow (the vDSO's pages): one pair to warm up. */
	pair(&base.tsc, &base.ns, 1);
	pair(&base.tsc, &base.ns, 8);
#endif
}

void fastclock_start(void)
{
	pthread_once(&pair_once, base_pair);
}

static void base_init(void)
{
#if FASTCLOCK_TSC
	pthread_once(&pair_once, base_pair);
	if (base.how == FASTCLOCK_NO_COUNTER)
		return;
	/* Once a process, before its first worker's trial starts (fastclock_init is called
	 * before the start barrier): every clock then reads the counter from its first read.
	 * Else a trial within the first 2 ms (a short one, or the first few of a run) was
	 * timed by CLOCK_MONOTONIC through the slow path, slower than either clock. From the
	 * first pair: taken by fastclock_start at the process's start, the wait is what is
	 * left of the 2 ms after loading the job file and planning. */
	sleep_until(base.ns + FASTCLOCK_CAL_NS);
	base.usable = base.how == FASTCLOCK_KERNEL_CHECKED || in_step_since(base.tsc, base.ns);
#endif
}

void fastclock_init(struct fastclock *c)
{
	pthread_once(&base_once, base_init);
	*c = (struct fastclock){.mode = base.usable ? FASTCLOCK_CALIBRATING : FASTCLOCK_MONO,
				.bt = base.tsc,
				.bn = base.ns};
}

const char *fastclock_kind(void)
{
	pthread_once(&base_once, base_init);
	return base.usable ? "tsc" : "monotonic";
}

uint64_t fastclock_slope(uint64_t ns, uint64_t ticks)
{
	/* 128 bits: ns << 32 passes 2^64 after 4.3 s. */
	return (uint64_t)(((unsigned __int128)ns << 32) / ticks);
}

#if FASTCLOCK_TSC
/* How far the line may be from CLOCK_MONOTONIC at a setting (beyond NTP's share) before
 * the clock takes a new base. */
#define REBASE_NS 1000000ull

/* ns per tick << 32, from the clock's base to (tsc, ns). */
static uint64_t slope(const struct fastclock *c, uint64_t tsc, uint64_t ns)
{
	return fastclock_slope(ns - c->bn, tsc - c->bt);
}

/* The time at counter value t on the clock's current line (t at or after the anchor). */
static uint64_t on_line(const struct fastclock *c, uint64_t t)
{
	return c->ns + (uint64_t)(((unsigned __int128)(t - c->tsc) * c->mult) >> 32);
}

static void set_line(struct fastclock *c, uint64_t tsc, uint64_t ns, uint64_t mult)
{
	c->tsc = tsc;
	c->ns = ns;
	c->mult = mult;
	c->span = (uint64_t)(((unsigned __int128)FASTCLOCK_SPAN_NS << 32) / mult);
}
#endif

uint64_t fastclock_slow(struct fastclock *c, uint64_t t)
{
#if FASTCLOCK_TSC
	uint64_t tm = 0, ns = 0, m, hi, truth, line;
	int64_t err, limit;
	int wide;

	if (c->mode == FASTCLOCK_MONO)
		return fastclock_mono_ns();
	if (c->mode == FASTCLOCK_CALIBRATING) {
		/* One read of CLOCK_MONOTONIC, as without the counter, until the pair is old. */
		ns = fastclock_mono_ns();
		if (ns - c->bn < FASTCLOCK_CAL_NS)
			return ns;
		pair(&tm, &ns, 8);
		if (tm <= c->bt)
			return ns;
		set_line(c, tm, ns, slope(c, tm, ns));
		c->mode = FASTCLOCK_COUNTER;
		return ns;
	}
	/* No read so far returned more than the line's value at the span's end (the fast path
	 * reads only within it): while the clock cannot be set, it stays there. So it does
	 * for a pair whose reads lay more than a microsecond apart (the CPU went elsewhere
	 * between them: the pair could be that far off; the next read tries again). */
	hi = on_line(c, c->tsc + c->span);
	wide = pair(&tm, &ns, 3) > (uint64_t)(((unsigned __int128)1000 << 32) / c->mult);
	if (!wide && tm <= c->tsc) {
		/* The counter went back behind the anchor (suspend to RAM resets it): it no
		 * longer says where CLOCK_MONOTONIC is, and this clock reads CLOCK_MONOTONIC
		 * from here on, once that has passed every value read so far (hi). */
		while ((ns = fastclock_mono_ns()) < hi)
			;
		c->mode = FASTCLOCK_MONO;
		return ns;
	}
	/* A read a few ticks behind the anchor (not seen: an early rdtsc, another CPU's
	 * counter) is taken at the anchor, whose value no read so far has passed unless the
	 * counter went back; hi would be up to a span ahead of the next reads. */
	if (t <= c->tsc)
		return c->ns;
	if (wide || tm < t)
		return hi;
	/* Where CLOCK_MONOTONIC is at or past that value, the clock takes its time: a step
	 * forward, never back. Where it is behind (the clock ran fast), the clock waits at that
	 * value and then runs slower, so that the two meet a span later. */
	/* CLOCK_MONOTONIC at t, against the line's time there. Normally within a few us (and
	 * NTP's 0.05% of the time since the anchor); far apart, the counter ran while
	 * CLOCK_MONOTONIC stood still (suspend to idle, a paused virtual machine) or the other
	 * way, and a slope over that time would be wrong for the rest of the run: the slope is
	 * taken from here on, the last one kept until this base is FASTCLOCK_CAL_NS old. */
	truth = ns - (uint64_t)(((unsigned __int128)(tm - t) * c->mult) >> 32);
	line = on_line(c, t);
	if ((line > truth ? line - truth : truth - line) >
	    REBASE_NS + (truth > c->ns ? truth - c->ns : 0) / 256) {
		if (truth < hi) {
			/* The counter ran alone, less than a span after the anchor: hi, which no
			 * read so far has passed, is then ahead of CLOCK_MONOTONIC by up to a span,
			 * and holding there would time the next I/Os up to 2 ms off. Once, after
			 * the machine stood still: wait for CLOCK_MONOTONIC to pass hi, and take
			 * the clock's time there. */
			while (fastclock_mono_ns() < hi)
				;
			pair(&tm, &ns, 3);
			c->bt = tm;
			c->bn = ns;
			set_line(c, tm, ns, c->mult);
			return ns;
		}
		c->bt = tm;
		c->bn = ns;
	}
	m = ns - c->bn < FASTCLOCK_CAL_NS ? c->mult : slope(c, tm, ns);
	if (truth >= hi) {
		set_line(c, tm, ns, m);
		return truth;
	}
	/* Ahead at t, but CLOCK_MONOTONIC has passed that value by the pair (the thread lost
	 * the CPU between the two): the clock takes its time at the pair, as above. Steering
	 * toward it instead would speed the clock up by the time lost over a span. */
	if (ns >= hi) {
		set_line(c, tm, ns, m);
		return hi;
	}
	/* Behind (err < 0) by at most a sixteenth of the span per span (not seen: the pairs
	 * agree to tens of ns). */
	err = (int64_t)(ns - hi);
	limit = (int64_t)(FASTCLOCK_SPAN_NS / 16);
	if (err < -limit)
		err = -limit;
	{
		uint64_t span = (uint64_t)(((unsigned __int128)FASTCLOCK_SPAN_NS << 32) / m);
		int64_t adj = (int64_t)((__int128)err * ((__int128)1 << 32) / (__int128)span);
		set_line(c, tm, hi, (uint64_t)((int64_t)m + adj));
	}
	return hi;
#else
	(void)c;
	(void)t;
	return fastclock_mono_ns();
#endif
}
