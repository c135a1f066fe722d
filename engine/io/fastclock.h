/* The worker's clock: CLOCK_MONOTONIC nanoseconds, read from the CPU's time-stamp counter
 * where it can be trusted (below). Each I/O reads the clock twice (its
 * start and its completion); through the vDSO a read costs about 25 ns on the machines
 * measured (an ordered rdtscp, the vDSO's sequence lock, the conversion), 50 of the 70 ns
 * a null I/O cost (docs/performance.md). A plain rdtsc and one multiply cost about 10 ns
 * and do not wait for the instructions before them. fio reads the TSC the same way (its
 * default clocksource=cpu where the TSC is reliable).
 *
 * How it stays on CLOCK_MONOTONIC. Where the kernel's clocksource is "tsc", the kernel has
 * checked that the counters of all CPUs agree and run at a constant rate, and
 * CLOCK_MONOTONIC is itself a linear function of the same counter (its slope slewed by NTP
 * by at most 0.05%). Where it is another (a virtual machine's kvm-clock, often chosen by
 * the boot line whatever the CPU), the counter is read only if the CPU says it is
 * invariant (as fio's clocksource=cpu) and a check at the process's start finds every
 * CPU's counter on one line with CLOCK_MONOTONIC, within 2 us. Each clock holds an anchor
 * (a counter value and its time) and a slope
 * (ns per tick, 32.32 fixed point). Every FASTCLOCK_SPAN_NS it reads CLOCK_MONOTONIC next to
 * the counter, takes the slope over everything since the clock's base (the process's
 * first pair, or the last setting that found the two more than 1 ms apart), and steers
 * toward CLOCK_MONOTONIC: ahead of the clock, the clock steps forward to it; behind, the
 * new slope is that slope plus the difference spread over the span. It never goes back: a
 * duration is never negative; it stays within about a microsecond of CLOCK_MONOTONIC and
 * its durations within 0.01% of its durations (tests/unit/test_fastclock.c). The
 * process's first fastclock_init waits until that first pair is FASTCLOCK_CAL_NS old.
 * Everywhere else (a counter not invariant or out of step, another architecture,
 * IOTRIAL_CLOCK=monotonic in the environment, a counter that went back), it reads
 * CLOCK_MONOTONIC.
 *
 * One clock per thread: not thread-safe, no locks. */
#ifndef IOTRIAL_FASTCLOCK_H
#define IOTRIAL_FASTCLOCK_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <x86intrin.h>
#define FASTCLOCK_TSC 1
#else
#define FASTCLOCK_TSC 0
#endif

/* How often the clock is set against CLOCK_MONOTONIC, and how old the process's first pair
 * must be before the counter is used. */
#define FASTCLOCK_SPAN_NS 2000000ull
#define FASTCLOCK_CAL_NS  2000000ull

enum fastclock_mode {
	FASTCLOCK_MONO,	       /* CLOCK_MONOTONIC on every read */
	FASTCLOCK_CALIBRATING, /* CLOCK_MONOTONIC until the first pair is old enough */
	FASTCLOCK_COUNTER,     /* the counter, on the anchor and slope */
};

struct fastclock {
	uint64_t tsc;  /* anchor: a counter value */
	uint64_t ns;   /* ... and the clock's time at it */
	uint64_t mult; /* ns per tick << 32 */
	uint64_t span; /* ticks from the anchor to the next setting; 0 until calibrated */
	enum fastclock_mode mode;
	/* The pair the slope is taken from: the process's first, or where the counter and
	 * CLOCK_MONOTONIC last parted (one ran while the other stood still). */
	uint64_t bt, bn;
};

static inline uint64_t fastclock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Whether a process may read the counter, before it has looked at the counters themselves. */
enum fastclock_counter {
	FASTCLOCK_NO_COUNTER,	  /* CLOCK_MONOTONIC on every read */
	FASTCLOCK_KERNEL_CHECKED, /* the kernel keeps CLOCK_MONOTONIC on the counter */
	FASTCLOCK_TO_CHECK,	  /* the CPU says invariant: usable once the counters are in step */
};

/* May the counter be read, with IOTRIAL_CLOCK's value `env` (NULL: unset), the kernel's
 * clocksource (its sysfs line; NULL: unknown) and whether the CPU says its counter is
 * invariant? Only on x86-64, and never with IOTRIAL_CLOCK "monotonic". */
int fastclock_counter_usable(const char *env, const char *clocksource, int invariant);

/* Take the process's first pair of the counter and CLOCK_MONOTONIC now (once; later calls
 * do nothing), so that the first fastclock_init or fastclock_kind waits only what is left
 * of FASTCLOCK_CAL_NS since. Optional: without it, they take the pair themselves. */
void fastclock_start(void);

/* Are the counters of every CPU this process may run on on one line with CLOCK_MONOTONIC,
 * within 2 us? The check a process makes at its start where the kernel's clocksource is
 * not tsc, from a pair of its own: takes FASTCLOCK_CAL_NS and a visit to each CPU by the
 * calling thread (its CPU set restored after). 1 or 0 (also where there is no counter).
 * Every CPU a thread may be pinned to is visited, not only the process's CPU set. */
int fastclock_counters_in_step(void);

/* The clock this process's workers time their I/Os with: "tsc" where fastclock_init reads the
 * counter, "monotonic" where it reads CLOCK_MONOTONIC (a clock that later finds the counter
 * gone back turns to CLOCK_MONOTONIC on its own; that is not seen here). The first call in a
 * process takes what fastclock_init's first does. */
const char *fastclock_kind(void);

/* The slope of `ns` nanoseconds over `ticks` (> 0) of the counter: ns per tick << 32. */
uint64_t fastclock_slope(uint64_t ns, uint64_t ticks);

/* Set `c` up: the counter where it can be used, else CLOCK_MONOTONIC. The process's first
 * call takes FASTCLOCK_CAL_NS (the slope's first span). */
void fastclock_init(struct fastclock *c);

/* A read outside the anchor's span (or while calibrating): set the clock against
 * CLOCK_MONOTONIC, then the time at `tsc`. */
uint64_t fastclock_slow(struct fastclock *c, uint64_t tsc);

/* The time now, CLOCK_MONOTONIC nanoseconds. */
static inline uint64_t fastclock_now(struct fastclock *c)
{
#if FASTCLOCK_TSC
	if (c->mode != FASTCLOCK_MONO) {
		uint64_t t = __rdtsc(), d = t - c->tsc;
		/* Unsigned: a counter below the anchor (d wraps) takes the slow path too. */
		if (d < c->span)
			return c->ns + ((d * c->mult) >> 32);
		return fastclock_slow(c, t);
	}
#endif
	return fastclock_mono_ns();
}

#endif
