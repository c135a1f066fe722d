/* The null backend: no device is touched. By default every I/O completes at once, inside
 * queue(), so a run on it measures the engine's own cost per I/O (and makes end-to-end tests
 * deterministic). With null_delay, each I/O completes that long after it was queued and
 * comes back through reap(), as on io_uring or libaio: the asynchronous completion path, on
 * every machine. null_jitter spreads the delays, so completions overtake one another. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>

#include "engine/io/backends/backend.h"
#include "lib/rng.h"
#include "model/jobkeys.h"

#define SEC 1000000000ULL

struct null_opts {
	uint64_t delay_ns;  /* 0: complete inside queue() */
	uint64_t jitter_ns; /* each delay is delay_ns plus a uniform draw below this */
};

#define OFF(f) offsetof(struct null_opts, f)
/* Rows stop after `example` (model/jobkeys.h). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct job_key null_options[] = {
    {"null_delay", KT_DURATION, OFF(delay_ns), NULL, 0, 60 * SEC, NULL,
     "complete each I/O this long after it was queued, through reap(), as an asynchronous backend does (iodepth I/Os in flight); 0: at once, inside the submission",
     "null_delay: 50us"},
    {"null_jitter", KT_DURATION, OFF(jitter_ns), NULL, 0, 60 * SEC, NULL,
     "with null_delay: add a uniform random delay below this to each I/O, so that I/Os complete out of the order they were queued in",
     "null_jitter: 100us"},
    {NULL},
};
#pragma GCC diagnostic pop

extern const struct be_ops be_null;

/* Per worker, with null_delay: the I/Os in flight and when each is due. */
struct null_state {
	struct null_opts o;
	struct be_io **io;
	uint64_t *due;
	unsigned n, cap;
	uint64_t rng;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec;
}

static int null_init(void *priv, const struct be_config *cfg)
{
	struct null_state *st = priv;

	be_opts_load(&be_null, cfg->job, &st->o);
	if (!st->o.delay_ns)
		return 0;
	st->cap = cfg->iodepth ? cfg->iodepth : 1;
	st->rng = cfg->seed ^ 0x6e756c6cu;
	st->io = calloc(st->cap, sizeof(*st->io));
	st->due = calloc(st->cap, sizeof(*st->due));
	if (!st->io || !st->due) {
		free(st->io);
		free(st->due);
		return -ENOMEM;
	}
	return 0;
}

static int null_open(void *priv, int dirfd, const char *path, int flags, mode_t mode)
{
	return 0;
}

static int null_queue(void *priv, struct be_io *io)
{
	struct null_state *st = priv;
	uint64_t due;

	io->result = io->op == BE_FSYNC ? 0 : (int64_t)io->len;
	if (!st->o.delay_ns)
		return BE_DONE;
	if (st->n == st->cap)
		return BE_BUSY;
	due = now_ns() + st->o.delay_ns;
	if (st->o.jitter_ns)
		due += rng_next(&st->rng) % st->o.jitter_ns;
	st->io[st->n] = io;
	st->due[st->n++] = due;
	return BE_QUEUED;
}

/* Move the I/Os due by `now` to `out`, at most `max`, in the order they were queued (so
 * that without jitter they complete first in, first out); the earliest still pending in
 * *next. */
static unsigned take_due(struct null_state *st, uint64_t now, unsigned max, struct be_io **out,
			 uint64_t *next)
{
	unsigned n = 0, kept = 0;

	*next = UINT64_MAX;
	for (unsigned i = 0; i < st->n; i++) {
		if (st->due[i] <= now && n < max) {
			out[n++] = st->io[i];
			continue;
		}
		if (st->due[i] < *next)
			*next = st->due[i];
		st->io[kept] = st->io[i];
		st->due[kept++] = st->due[i];
	}
	st->n = kept;
	return n;
}

static void sleep_until(uint64_t when)
{
	struct timespec ts = {(time_t)(when / SEC), (long)(when % SEC)};

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* Sleep until enough are due (or the timeout ends), then hand back what is due. */
static int null_reap(void *priv, unsigned min, unsigned max, struct be_io **out,
		     const struct timespec *timeout)
{
	struct null_state *st = priv;
	uint64_t now = now_ns(), next, end = UINT64_MAX;
	unsigned n = 0;

	if (timeout)
		end = now + (uint64_t)timeout->tv_sec * SEC + (uint64_t)timeout->tv_nsec;
	for (;;) {
		n += take_due(st, now, max - n, out + n, &next);
		if (n >= min || n == max || st->n == 0 || now >= end)
			return (int)n;
		sleep_until(next < end ? next : end);
		now = now_ns();
	}
}

static int null_close(void *priv, int fd)
{
	return 0;
}

static void null_cleanup(void *priv)
{
	struct null_state *st = priv;

	free(st->io);
	free(st->due);
}

const struct be_ops be_null = {
    .name = "null",
    .help =
	"completes every I/O at once (or after null_delay, through reap), touches no device: the engine's own cost per I/O",
    .flags = BE_F_NOIO | BE_F_ASYNC,
    .max_iodepth = 65536,
    .priv_size = sizeof(struct null_state),
    .init = null_init,
    .open = null_open,
    .queue = null_queue,
    .reap = null_reap,
    .close = null_close,
    .cleanup = null_cleanup,
    .options = null_options,
    .opts_size = sizeof(struct null_opts),
};
