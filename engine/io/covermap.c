/* The blocks of a pass a mix of sizes has covered (see covermap.h). */
#include "engine/io/covermap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Words of the map: the bits past the last block stay set, covered for good. */
static uint64_t words(const struct covermap *c)
{
	return c->n / 64 + 1;
}

int covermap_init(struct covermap *c, uint64_t n)
{
	c->n = n;
	c->bits = malloc(words(c) * sizeof(*c->bits));
	if (!c->bits)
		return -ENOMEM;
	covermap_clear(c);
	return 0;
}

void covermap_free(struct covermap *c)
{
	free(c->bits);
	c->bits = NULL;
}

void covermap_clear(struct covermap *c)
{
	memset(c->bits, 0, words(c) * sizeof(*c->bits));
	c->bits[c->n / 64] = ~0ull << (c->n % 64);
	c->done = 0;
}

uint64_t covermap_next_free(const struct covermap *c, uint64_t b)
{
	uint64_t w = b / 64, free_bits = ~c->bits[w] & (~0ull << (b % 64));

	/* Back at the first word, its bits below b count too: one is free. */
	while (!free_bits) {
		w = w + 1 == words(c) ? 0 : w + 1;
		free_bits = ~c->bits[w];
	}
	return w * 64 + (uint64_t)__builtin_ctzll(free_bits);
}

uint64_t covermap_take(struct covermap *c, uint64_t b, uint64_t want)
{
	uint64_t k = 0;

	while (k < want && b + k < c->n && !covermap_has(c, b + k)) {
		c->bits[(b + k) / 64] |= 1ull << ((b + k) % 64);
		k++;
	}
	c->done += k;
	return k;
}

void covermap_give(struct covermap *c, uint64_t b, uint64_t k)
{
	for (uint64_t i = b; i < b + k && i < c->n; i++)
		if (covermap_has(c, i)) {
			c->bits[i / 64] &= ~(1ull << (i % 64));
			c->done--;
		}
}
