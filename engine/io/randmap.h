/* The random map: the order in which a random workload visits the blocks of its region. A
 * pass visits each of the n blocks exactly once, in a pseudo-random order; the next pass
 * uses a new order. fio gets the same coverage from a bitmap of the blocks done (its default;
 * `norandommap` turns it off); this needs no map: O(1) memory whatever the file's size.
 *
 * How. Let m = 2^k be the smallest power of two >= n. A keyed bijection h on [0, m) is
 * built from steps that are each a bijection on k-bit numbers: xor with a key, multiply by
 * an odd key (odd numbers are invertible modulo 2^k), add a key, and x ^= x >> s (the top
 * s bits are kept, and each lower bit can be recovered from the ones above it). Four rounds
 * of (xor, multiply, xorshift by half the width, add, xorshift by a third) mix every input
 * bit into every output bit (the design of Kensler's "permute" for correlated
 * multi-jittered sampling, 2013, and of the murmur3 and splitmix64 finalizers). Without the
 * add and the second xorshift, small counts showed structure: the next-block table of 64
 * blocks was 88 times as uneven as a shuffle's, and only 4,096 of the 40,320 orders of 8
 * blocks could come. Draw i of a pass is h(i) when that is below n, else h(h(i)), and so
 * on ("cycle walking"): following h's cycle from i to the next value below n is itself a
 * bijection on [0, n), so the pass is a permutation of the blocks, exactly, for any n,
 * including 1 and numbers that are not powers of two.
 *
 * Cost. No division, no table: per evaluation of h, four multiplies, four adds and twelve
 * xors, shifts and masks each. The walks of one pass visit each value of [0, m) at most
 * once, so a pass costs at most m < 2n evaluations: under two per draw on average. One
 * draw walks at most m - n + 1; measured for n = 2^k + 1 (the worst ratio), k up to 26,
 * the longest walk of a pass was about k evaluations, as for a random permutation.
 *
 * Uniformity. Coverage is exact: after j passes every block was visited j times. The
 * order is pseudo-random, not drawn uniformly among all n! orders (twelve keys cannot
 * index them): the position of a block in a pass, the next block after a given one, and
 * the part of the file that the first half of a pass covers behave like those of a uniform
 * shuffle, for 5 blocks as for 65,536 (tests/unit/test_randmap.c checks them). The keys of
 * pass p come from (seed, p): the same seed gives the same offsets, pass after pass;
 * another seed, or another pass, another order. */
#ifndef IOTRIAL_RANDMAP_H
#define IOTRIAL_RANDMAP_H

#include <stdint.h>

#define RANDMAP_ROUNDS 4

struct randmap {
	uint64_t n;		/* blocks: 1 or more */
	uint64_t mask;		/* m - 1 */
	unsigned shift, shift2; /* half and a third of m's bits, rounded up (at least 1) */
	uint64_t seed;
	uint64_t pass; /* the current pass, from 0 */
	uint64_t i;    /* draws done in the current pass: 0 to n */
	/* The pass's keys: xor, multiply (odd), add. */
	uint64_t xkey[RANDMAP_ROUNDS], mkey[RANDMAP_ROUNDS], akey[RANDMAP_ROUNDS];
};

/* Set `m` up for n blocks (n >= 1) and `seed`, `start` draws in: the state after `start`
 * calls of randmap_next from draw 0 (a stonewall's top-up goes on from where it stopped). */
void randmap_init(struct randmap *m, uint64_t n, uint64_t seed, uint64_t start);

/* Begin pass `pass`: draw 0 of its own order comes next. */
void randmap_pass(struct randmap *m, uint64_t pass);

/* Begin a new pass unless the current one has not started (a ramp's draws are not the
 * measured window's: the window then starts a pass of its own). */
void randmap_restart(struct randmap *m);

/* The pass's bijection on [0, m). */
static inline uint64_t randmap_hash(const struct randmap *m, uint64_t x)
{
	for (int r = 0; r < RANDMAP_ROUNDS; r++) {
		x = ((x ^ m->xkey[r]) * m->mkey[r]) & m->mask;
		x ^= x >> m->shift;
		x = (x + m->akey[r]) & m->mask;
		x ^= x >> m->shift2;
	}
	return x;
}

/* Block j (0 <= j < n) of the current pass's order. */
static inline uint64_t randmap_at(const struct randmap *m, uint64_t j)
{
	uint64_t y = randmap_hash(m, j);

	while (y >= m->n)
		y = randmap_hash(m, y);
	return y;
}

/* The next block: each block once per pass, then a new pass. */
static inline uint64_t randmap_next(struct randmap *m)
{
	if (m->i == m->n)
		randmap_pass(m, m->pass + 1);
	return randmap_at(m, m->i++);
}

/* Take back the last draw (an I/O drawn but not issued); only right after randmap_next. */
static inline void randmap_unnext(struct randmap *m)
{
	m->i--;
}

/* Draws done since draw 0: what randmap_init's `start` takes to go on from here. */
static inline uint64_t randmap_drawn(const struct randmap *m)
{
	return m->pass * m->n + m->i;
}

#endif
