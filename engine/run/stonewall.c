/* Stonewalling (see stonewall.h): the watch that stops every rank's workers of an instance
 * once one rank has done its size, and the wear_out top-up that follows it. */
#include "engine/run/stonewall.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "engine/dist/dist.h"

unsigned stonewall_index(size_t k)
{
	return k < 63 ? (unsigned)k : 63;
}

bool stonewall_applies(const struct inst_run *r)
{
	return r->in->job.stonewall != STONEWALL_NONE && !r->background && !r->in->job.runtime_ns;
}

bool stonewall_watched(const struct inst_run *r)
{
	return stonewall_applies(r) && (r->in->job.stonewall == STONEWALL_FIRST_DONE ||
					r->in->job.stonewall == STONEWALL_WEAR_OUT);
}

static bool inst_done(const struct inst_run *r)
{
	for (uint32_t w = 0; w < r->n; w++)
		if (!trial_slot_done(&r->slots[w]))
			return false;
	return true;
}

/* First done: the ranks' coordinating threads meet between short naps; an instance finished
 * on one rank is stopped on every rank. */
void stonewall_watch(struct inst_run *runs, size_t n, struct sync_area *sync)
{
	const struct timespec nap = {0, 2000000}; /* 2 ms between two meetings */
	uint64_t want = 0, seen = 0;

	for (size_t k = 0; k < n; k++)
		if (stonewall_watched(&runs[k]))
			want |= 1ull << stonewall_index(k);
	while ((seen & want) != want) {
		uint64_t mine = 0;
		for (size_t k = 0; k < n; k++)
			if (stonewall_watched(&runs[k]) && runs[k].ready && !runs[k].idle &&
			    inst_done(&runs[k]))
				mine |= 1ull << stonewall_index(k);
		if (dist_poll_or(&mine) < 0)
			dist_abort(1, "stonewall: cannot reach the other ranks");
		for (size_t k = 0; k < n; k++)
			if (mine & ~seen & (1ull << stonewall_index(k)))
				sync->sw_stop[stonewall_index(k)] = 1;
		seen |= mine;
		if ((seen & want) != want)
			nanosleep(&nap, NULL);
	}
}

/* What one rank says of one wear_out instance after the stonewall. */
struct sw_amount {
	uint64_t bytes;
	uint32_t failed, pad;
};

/* Start a top-up of worker `s`: on from where it stopped, `bytes` more, for at most the cap. */
static int topup_start(struct slot *s, uint64_t bytes)
{
	const struct worker_out *o = &s->sh->out;

	s->stonewall_bytes = o->bytes;
	s->job.limit = bytes;
	s->job.start_pos = o->pos;
	/* Random offsets: not the ones the stonewalled part already drew. A random map goes
	 * on along its passes (start_pos is its draws so far); without one, a new stream. */
	if (!s->job.random_map)
		s->job.seed = trial_seed(s->job.seed, 0x70b0, 1);
	worker_job_alone(&s->job); /* the logs cover the stonewalled part */
	s->job.cap_ns = s->run->in->job.stonewall_cap_ns;
	s->sh->done = 0;
	s->topup = true;
	return trial_slot_start(s);
}

/* Add a top-up's figures to the worker's; its time extends the worker's end. */
static void topup_fold(struct slot *s)
{
	worker_out_add(&s->sh->out, &s->sh->top);
	if (s->sh->ret == 0)
		s->sh->ret = s->sh->top_ret;
}

/* How many more bytes worker `s` can move before its size. */
static uint64_t slot_left(const struct slot *s)
{
	const struct worker_job *j = &s->job;
	uint64_t total =
	    spec_workload_random(j->wl) ? j->region_len / j->chunk * j->chunk : j->region_len;

	if (j->limit) /* io_limit (a top-up's own limit is set after this is asked) */
		total = j->limit;

	return s->sh->out.bytes < total ? total - s->sh->out.bytes : 0;
}

void stonewall_wear_out(struct trial_env *e, struct inst_run *runs, size_t n)
{
	int nr = dist_size();
	struct sw_amount *mine = calloc(n, sizeof(*mine)),
			 *all = calloc(n * (size_t)nr, sizeof(*all));

	if (!mine || !all)
		dist_abort(1, "out of memory");
	for (size_t k = 0; k < n; k++) {
		const struct inst_run *r = &runs[k];
		mine[k].failed = !r->ready || (r->tr && r->tr->failed);
		for (uint32_t w = 0; w < r->n; w++) {
			mine[k].bytes += r->slots[w].sh->out.bytes;
			mine[k].failed |= r->slots[w].sh->ret < 0;
		}
	}
	if (dist_allgather(mine, all, n * sizeof(*mine)) < 0)
		dist_abort(1, "stonewall: cannot reach the other ranks");
	for (size_t k = 0; k < n; k++) {
		struct inst_run *r = &runs[k];
		uint64_t most = 0, left;
		bool failed = false;
		if (!stonewall_watched(r) || r->in->job.stonewall != STONEWALL_WEAR_OUT)
			continue;
		for (int q = 0; q < nr; q++) {
			const struct sw_amount *a = &all[(size_t)q * n + k];
			failed |= a->failed != 0;
			most = a->bytes > most ? a->bytes : most;
		}
		if (failed || r->idle || !r->ready || mine[k].bytes >= most)
			continue;
		left = most - mine[k].bytes;
		for (uint32_t w = 0; w < r->n && left > 0 && !*e->stop; w++) {
			struct slot *s = &r->slots[w];
			uint64_t more = slot_left(s) < left ? slot_left(s) : left;
			int ret;
			if (!more)
				continue;
			left -= more;
			if ((ret = topup_start(s, more)) < 0)
				trial_error(r->tr, "wear_out: cannot start worker %u: %s", w,
					    strerror(-ret));
		}
	}
	for (size_t k = 0; k < n; k++)
		for (uint32_t w = 0; w < runs[k].n; w++)
			if (runs[k].slots[w].topup && runs[k].slots[w].started) {
				trial_slot_finish(&runs[k].slots[w]);
				topup_fold(&runs[k].slots[w]);
			}
	free(mine);
	free(all);
}
