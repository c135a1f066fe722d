/* The synthetic backend: touches no device and keeps simulated time. Each trial's service
 * time is drawn from a known distribution (sim_dist, sim_mean, sim_stddev), with injected
 * outliers (sim_outliers, sim_outlier_factor), and spread evenly over the trial's I/Os.
 * Because the truth is known, tests use it to check the statistics end to end: confidence
 * interval coverage, required runs, outlier policies. With sim_cache_size it models one
 * thing about a device: a write cache that runs out (each I/O drawn around sim_mean until
 * the worker has written sim_cache_size bytes, around sim_after_mean after), so a series'
 * change points can be checked against where the cliff was put. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/io/backends/backend.h"
#include "lib/rng.h"
#include "model/jobkeys.h"
#include "model/spec.h"

#define SEC 1000000000ULL
#define TiB (1024ULL * 1024 * 1024 * 1024)

/* The options, as be_opts_load() types them from a job. */
struct synth_opts {
	int dist; /* 0 normal, 1 lognormal */
	uint64_t mean_ns, stddev_ns;
	/* A write cache that runs out: per-I/O times, mean until cache_size bytes were
	 * written, then after_mean. 0: no cache model. */
	uint64_t cache_size, after_mean_ns;
	double outliers;       /* probability that a trial is an outlier */
	double outlier_factor; /* an outlier's time is multiplied by this */
};

static const char *const dist_names[] = {"normal", "lognormal", NULL};

#define OFF(f) offsetof(struct synth_opts, f)
/* Rows stop after `example` but for the KT_DOUBLE ones (model/jobkeys.h). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct job_key synth_options[] = {
    {"sim_dist", KT_ENUM, OFF(dist), "normal", 0, 0, dist_names,
     "the distribution of each trial's service time (normal, lognormal)", "sim_dist: lognormal"},
    {"sim_mean", KT_DURATION, OFF(mean_ns), "10ms", 1, 3600 * SEC, NULL,
     "the true mean of a trial's service time", "sim_mean: 20ms"},
    {"sim_stddev", KT_DURATION, OFF(stddev_ns), "1ms", 0, 3600 * SEC, NULL,
     "the true standard deviation of a trial's service time", "sim_stddev: 2ms"},
    {"sim_cache_size", KT_SIZE, OFF(cache_size), NULL, 0, 16 * TiB, NULL,
     "a write cache that runs out: each worker's writes take sim_mean per I/O (sim_stddev its deviation) until this many bytes were written, then sim_after_mean per I/O; needs sim_after_mean",
     "sim_cache_size: 1.2GB"},
    {"sim_after_mean", KT_DURATION, OFF(after_mean_ns), NULL, 0, 3600 * SEC, NULL,
     "with sim_cache_size: the mean service time of one I/O once the cache is full",
     "sim_after_mean: 51ms"},
    {"sim_outliers", KT_DOUBLE, OFF(outliers), "0", 0, 0, NULL,
     "the probability that a trial is an injected outlier", "sim_outliers: 0.05", 0, 1},
    {"sim_outlier_factor", KT_DOUBLE, OFF(outlier_factor), "3", 0, 0, NULL,
     "an outlier trial takes this many times its drawn time", "sim_outlier_factor: 5", 1, 1000},
    {NULL},
};
#pragma GCC diagnostic pop

extern const struct be_ops be_synthetic;

struct synth {
	uint64_t per_io_ns;	 /* the trial's time / its I/O count */
	uint64_t first_extra_ns; /* the remainder, given to the first I/O */
	bool first_done;
	/* The cache model (sim_cache_size > 0): each I/O's time drawn on its own. */
	struct synth_opts o;
	uint64_t seed, written;
	double factor; /* sim_outlier_factor for an outlier trial, else 1 */
};

/* A standard normal draw (Box-Muller). */
static double normal(uint64_t *s)
{
	double u1 = rng_uniform(s), u2 = rng_uniform(s);
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* One draw of mean `mean` and standard deviation `sd`, by sim_dist. */
static double draw(uint64_t *seed, int dist, double mean, double sd)
{
	double t;

	if (dist == 1) {
		/* The lognormal whose mean and stddev are the ones asked for. */
		double s2 = log(1 + sd * sd / (mean * mean));
		return exp(log(mean) - s2 / 2 + sqrt(s2) * normal(seed));
	}
	/* A normal truncated at 1 ns: with sd well below the mean this never bites. */
	do
		t = mean + sd * normal(seed);
	while (t < 1);
	return t;
}

/* The cache model needs both of its keys. */
static int synth_check(const void *opts, char *why, size_t len, const char **key)
{
	const struct synth_opts *o = opts;

	if (!o->cache_size == !o->after_mean_ns)
		return 0;
	*key = o->cache_size ? "sim_cache_size" : "sim_after_mean";
	snprintf(why, len, "the cache model needs both sim_cache_size and sim_after_mean");
	return -EINVAL;
}

static int synth_init(void *priv, const struct be_config *cfg)
{
	struct synth *st = priv;
	const struct synth_opts *o = &st->o;
	const struct job_spec *j = cfg->job;
	uint64_t seed = cfg->seed ^ 0x73796e74u, ios;
	double t;

	be_opts_load(&be_synthetic, j, &st->o);
	t = draw(&seed, o->dist, (double)o->mean_ns, (double)o->stddev_ns);
	st->factor = 1;
	if (o->outliers > 0 && rng_uniform(&seed) < o->outliers)
		st->factor = o->outlier_factor;
	t *= st->factor;
	st->seed = seed;
	st->written = 0;
	/* Spread over the trial's I/Os: file_size in block_size steps (buffer_size for a copy). */
	uint64_t chunk = (j->workload == WL_COPY || j->workload == WL_COPYTREE) && j->buffer_size
			     ? j->buffer_size
			     : j->block_size;
	ios = j->runtime_ns ? 1 : j->file_size / (chunk ? chunk : 1);
	if (ios == 0)
		ios = 1;
	st->per_io_ns = (uint64_t)llround(t) / ios;
	st->first_extra_ns = (uint64_t)llround(t) - st->per_io_ns * ios;
	st->first_done = false;
	return 0;
}

static int synth_open(void *priv, int dirfd, const char *path, int flags, mode_t mode)
{
	return 0;
}

static int synth_queue(void *priv, struct be_io *io)
{
	struct synth *st = priv;
	const struct synth_opts *o = &st->o;

	io->result = io->op == BE_FSYNC ? 0 : (int64_t)io->len;
	if (o->cache_size && io->op != BE_FSYNC) {
		bool full = io->op == BE_WRITE && st->written >= o->cache_size;
		double mean = (double)(full ? o->after_mean_ns : o->mean_ns);
		/* The deviation keeps its share of the mean on both sides of the cliff. */
		double sd = (double)o->stddev_ns * mean / (double)o->mean_ns;
		io->sim_ns = (uint64_t)llround(draw(&st->seed, o->dist, mean, sd) * st->factor);
		if (io->op == BE_WRITE)
			st->written += io->len;
		return BE_DONE;
	}
	io->sim_ns = st->per_io_ns + (st->first_done ? 0 : st->first_extra_ns);
	st->first_done = true;
	return BE_DONE;
}

static int synth_close(void *priv, int fd)
{
	return 0;
}

const struct be_ops be_synthetic = {
    .name = "synthetic",
    .help = "simulated trial times from a known distribution (sim_* keys): for testing statistics",
    .flags = BE_F_NOIO | BE_F_VIRTUAL | BE_F_ASYNC,
    .max_iodepth = 65536,
    .priv_size = sizeof(struct synth),
    .init = synth_init,
    .open = synth_open,
    .queue = synth_queue,
    .close = synth_close,
    .options = synth_options,
    .opts_size = sizeof(struct synth_opts),
    .check = synth_check,
};
