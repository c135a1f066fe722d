/* Trial order over units: sequential (all runs of a unit, then the next), interleaved
 * (round r holds run r of every unit, so a slow drift of the machine hits all alike), or
 * random (shuffled with a recorded seed). Warm-ups always come first. Units of a later
 * stage never run before a unit of an earlier stage, so `after` holds whatever the order.
 * A precision target's extra runs are appended in rounds by plan_add_round. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/plan/plan.h"
#include "lib/rng.h"

static int append(struct plan *p, size_t *cap, size_t unit, bool warmup)
{
	if (p->ntrials == *cap) {
		size_t nc = *cap ? 2 * *cap : 64;
		struct plan_trial *no = realloc(p->order, nc * sizeof(*no));
		if (!no)
			return -ENOMEM;
		p->order = no;
		*cap = nc;
	}
	/* Indexes follow the order trials run in, within their unit. */
	p->order[p->ntrials++] = (struct plan_trial){unit, p->units[unit].next_index++, warmup};
	return 0;
}

/* Shuffle order[from..to) (Fisher-Yates), then renumber so indexes follow run order. */
static void shuffle(struct plan *p, size_t from, size_t to)
{
	for (size_t i = to; i-- > from + 1;) {
		size_t j = from + (size_t)(rng_next(&p->order_rng) % (i - from + 1));
		struct plan_trial t = p->order[i];
		p->order[i] = p->order[j];
		p->order[j] = t;
	}
	for (size_t i = from; i < to; i++)
		p->units[p->order[i].unit].next_index--;
	for (size_t i = from; i < to; i++)
		p->order[i].index = p->units[p->order[i].unit].next_index++;
}

/* Append `count[u]` trials of each unit u of stage `st`, in the plan's order. */
static int add(struct plan *p, size_t *cap, const uint32_t *count, bool warmup, size_t st)
{
	size_t from = p->ntrials;
	uint32_t most = 0;

	for (size_t u = 0; u < p->nunits; u++)
		if (p->units[u].stage == st && count[u] > most)
			most = count[u];
	if (p->spec->rep.order == ORDER_SEQUENTIAL) {
		for (size_t u = 0; u < p->nunits; u++)
			for (uint32_t t = 0; p->units[u].stage == st && t < count[u]; t++)
				if (append(p, cap, u, warmup) < 0)
					return -ENOMEM;
		return 0;
	}
	for (uint32_t r = 0; r < most; r++)
		for (size_t u = 0; u < p->nunits; u++)
			if (p->units[u].stage == st && r < count[u] &&
			    append(p, cap, u, warmup) < 0)
				return -ENOMEM;
	if (p->spec->rep.order == ORDER_RANDOM && !warmup)
		shuffle(p, from, p->ntrials);
	return 0;
}

/* Stage by stage (so `after` holds): its warm-ups, then its measured trials. */
int plan_order(struct plan *p)
{
	uint32_t *warm = calloc(p->nunits ? p->nunits : 1, sizeof(*warm));
	uint32_t *runs = calloc(p->nunits ? p->nunits : 1, sizeof(*runs));
	size_t cap = 0;
	int ret = 0;

	if (!warm || !runs)
		ret = -ENOMEM;
	for (size_t u = 0; ret == 0 && u < p->nunits; u++) {
		warm[u] = p->units[u].warmup;
		runs[u] = p->units[u].runs;
	}
	for (size_t st = 0; ret == 0 && st < p->nstages; st++)
		if (add(p, &cap, warm, true, st) < 0 || add(p, &cap, runs, false, st) < 0)
			ret = -ENOMEM;
	if (ret == 0 && !p->order && !(p->order = calloc(1, sizeof(*p->order))))
		ret = -ENOMEM;
	free(warm);
	free(runs);
	return ret;
}

ssize_t plan_add_round(struct plan *p, const uint32_t *more, size_t st, size_t at)
{
	size_t before = p->ntrials, cap = before, n;
	struct plan_trial *tmp;

	if (add(p, &cap, more, false, st) < 0)
		return -ENOMEM;
	n = p->ntrials - before;
	/* Appended at the end; move them to `at`, where the stage's trials end. */
	if (n && at < before) {
		if (!(tmp = malloc(n * sizeof(*tmp))))
			return -ENOMEM;
		memcpy(tmp, p->order + before, n * sizeof(*tmp));
		memmove(p->order + at + n, p->order + at, (before - at) * sizeof(*tmp));
		memcpy(p->order + at, tmp, n * sizeof(*tmp));
		free(tmp);
	}
	for (size_t u = 0; u < p->nunits; u++)
		p->units[u].runs += more[u];
	return (ssize_t)n;
}
