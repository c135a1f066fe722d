/* Trial order over units: sequential (all runs of a unit, then the next), interleaved
 * (round r holds run r of every unit, so a slow drift of the machine hits all alike), or
 * random (shuffled with a recorded seed). Warm-ups always come first. Units of a later
 * stage never run before a unit of an earlier stage, so `after` holds whatever the order.
 * A precision target's extra runs are appended in rounds by plan_add_round. */
#include <errno.h>
#include <stdlib.h>

#include "engine/plan.h"
#include "engine/rng.h"

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

/* Add `count[u]` trials of each unit u in the plan's order, stage by stage. */
static int add(struct plan *p, const uint32_t *count, bool warmup)
{
	size_t cap = p->ntrials, from = p->ntrials;

	for (size_t st = 0; st < p->nstages; st++) {
		size_t stage_from = p->ntrials;
		uint32_t most = 0;

		for (size_t u = 0; u < p->nunits; u++)
			if (p->units[u].stage == st && count[u] > most)
				most = count[u];
		if (p->spec->rep.order == ORDER_SEQUENTIAL) {
			for (size_t u = 0; u < p->nunits; u++)
				for (uint32_t t = 0; p->units[u].stage == st && t < count[u]; t++)
					if (append(p, &cap, u, warmup) < 0)
						return -ENOMEM;
			continue;
		}
		for (uint32_t r = 0; r < most; r++)
			for (size_t u = 0; u < p->nunits; u++)
				if (p->units[u].stage == st && r < count[u] &&
				    append(p, &cap, u, warmup) < 0)
					return -ENOMEM;
		if (p->spec->rep.order == ORDER_RANDOM && !warmup)
			shuffle(p, stage_from, p->ntrials);
	}
	return (int)(p->ntrials - from);
}

int plan_order(struct plan *p)
{
	uint32_t *count = calloc(p->nunits ? p->nunits : 1, sizeof(*count));
	int ret = -ENOMEM;

	if (!count)
		return -ENOMEM;
	for (size_t u = 0; u < p->nunits; u++)
		count[u] = p->units[u].warmup;
	if (add(p, count, true) < 0)
		goto out;
	for (size_t u = 0; u < p->nunits; u++)
		count[u] = p->units[u].runs;
	ret = add(p, count, false) < 0 ? -ENOMEM : 0;
	if (!p->order)
		p->order = calloc(1, sizeof(*p->order));
	ret = p->order ? ret : -ENOMEM;
out:
	free(count);
	return ret;
}

ssize_t plan_add_round(struct plan *p, const uint32_t *more)
{
	int n = add(p, more, false);

	if (n > 0)
		for (size_t u = 0; u < p->nunits; u++)
			p->units[u].runs += more[u];
	return n;
}
