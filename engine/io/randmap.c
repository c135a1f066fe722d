/* The random map's set-up and its passes' keys (see randmap.h). */
#include "engine/io/randmap.h"

#include "lib/rng.h"

void randmap_pass(struct randmap *m, uint64_t pass)
{
	/* The pass number, mixed, picks a stream of its own from the seed: neighbouring passes
	 * (and seeds) share no keys. */
	uint64_t p = pass, st = m->seed ^ rng_next(&p);

	m->pass = pass;
	m->i = 0;
	for (int r = 0; r < RANDMAP_ROUNDS; r++) {
		m->xkey[r] = rng_next(&st) & m->mask;
		m->mkey[r] = (rng_next(&st) & m->mask) | 1;
		m->akey[r] = rng_next(&st) & m->mask;
	}
}

void randmap_restart(struct randmap *m)
{
	if (m->i > 0)
		randmap_pass(m, m->pass + 1);
}

void randmap_init(struct randmap *m, uint64_t n, uint64_t seed, uint64_t start)
{
	unsigned bits = 0;

	m->n = n ? n : 1;
	m->mask = 0;
	while (m->mask < m->n - 1) {
		m->mask = m->mask << 1 | 1;
		bits++;
	}
	/* Half the width, rounded up: the xorshift folds the high half onto the low. The second
	 * by a third, rounded down: on 4 bits a second shift by 2 (as the first) left the
	 * next-block table 40 times as uneven as a shuffle's, a shift by 1 does not. */
	m->shift = bits > 1 ? (bits + 1) / 2 : 1;
	m->shift2 = bits >= 6 ? bits / 3 : 1;
	m->seed = seed;
	randmap_pass(m, start / m->n);
	m->i = start % m->n;
}
