/* The synthetic backend: touches no device and keeps simulated time. Each trial's service
 * time is drawn from a known distribution (sim_dist, sim_mean, sim_stddev), with injected
 * outliers (sim_outliers, sim_outlier_factor), and spread evenly over the trial's I/Os.
 * Because the truth is known, tests use it to check the statistics end to end: confidence
 * interval coverage, required runs, outlier policies. With sim_cache_size it models one
 * thing about a device: a write cache that runs out (each I/O drawn around sim_mean until
 * the worker has written sim_cache_size bytes, around sim_after_mean after), so a series'
 * change points can be checked against where the cliff was put. */
#include <math.h>
#include <stdint.h>

#include "engine/io/backends/backend.h"
#include "lib/rng.h"
#include "model/spec.h"

struct synth {
	uint64_t per_io_ns;	 /* the trial's time / its I/O count */
	uint64_t first_extra_ns; /* the remainder, given to the first I/O */
	bool first_done;
	/* The cache model (sim_cache_size > 0): each I/O's time drawn on its own. */
	const struct job_spec *job;
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

static int synth_init(void *priv, const struct be_config *cfg)
{
	struct synth *st = priv;
	const struct job_spec *j = cfg->job;
	uint64_t seed = cfg->seed ^ 0x73796e74u, ios;
	double mean = (double)j->sim_mean_ns, sd = (double)j->sim_stddev_ns, t;

	t = draw(&seed, j->sim_dist, mean, sd);
	st->factor = 1;
	if (j->sim_outliers > 0 && rng_uniform(&seed) < j->sim_outliers)
		st->factor = j->sim_outlier_factor;
	t *= st->factor;
	st->job = j;
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
	const struct job_spec *j = st->job;

	io->result = io->op == BE_FSYNC ? 0 : (int64_t)io->len;
	if (j->sim_cache_size && io->op != BE_FSYNC) {
		bool full = io->op == BE_WRITE && st->written >= j->sim_cache_size;
		double mean = (double)(full ? j->sim_after_mean_ns : j->sim_mean_ns);
		/* The deviation keeps its share of the mean on both sides of the cliff. */
		double sd = (double)j->sim_stddev_ns * mean / (double)j->sim_mean_ns;
		io->sim_ns = (uint64_t)llround(draw(&st->seed, j->sim_dist, mean, sd) * st->factor);
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
};
