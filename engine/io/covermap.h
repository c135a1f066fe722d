/* The blocks a random workload with a mix of sizes has covered in the current pass of its
 * random map. One I/O then spans several of the map's blocks (multiples of the mix's
 * smallest size), so the map's order alone would let I/Os overlap within a pass and leave
 * other blocks out. fio's random map keeps a bitmap for this; so does this, one bit a
 * block, and uses it as fio does: an I/O drawn at a covered block starts at the first one
 * not covered after it (round the end), and is cut short at the next covered one (or the
 * region's end); the pass ends when every block is covered. */
#ifndef IOTRIAL_COVERMAP_H
#define IOTRIAL_COVERMAP_H

#include <stdbool.h>
#include <stdint.h>

struct covermap {
	uint64_t *bits; /* NULL: not in use */
	uint64_t n;	/* blocks */
	uint64_t done;	/* blocks covered in this pass */
};

/* Room for n blocks, none covered: 0 or -ENOMEM. */
int covermap_init(struct covermap *c, uint64_t n);

void covermap_free(struct covermap *c);

/* None covered: a new pass. */
void covermap_clear(struct covermap *c);

static inline bool covermap_full(const struct covermap *c)
{
	return c->done == c->n;
}

static inline bool covermap_has(const struct covermap *c, uint64_t b)
{
	return c->bits[b / 64] >> (b % 64) & 1;
}

/* The first block not covered at or after b, round the end; the map is not full. */
uint64_t covermap_next_free(const struct covermap *c, uint64_t b);

/* Cover up to `want` blocks from b on, stopping before the first covered one and at the
 * end: how many (at least 1 when b itself is not covered). */
uint64_t covermap_take(struct covermap *c, uint64_t b, uint64_t want);

/* Uncover the k blocks from b on (an I/O drawn but not issued). */
void covermap_give(struct covermap *c, uint64_t b, uint64_t k);

#endif
