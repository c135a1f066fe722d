/* Access distributions: which block of a region a random workload touches next, when the
 * job asks for a skew (model/wlopts.h; fio's random_distribution). Each draw takes numbers
 * from the worker's own seeded generator, so a seed replays the same offsets.
 *
 * zipf:THETA  block of rank k (1..n) with probability k^-theta / H(n, theta), drawn exactly
 *             by rejection-inversion (Hoermann and Derflinger, 1996): O(1) per draw, no table.
 * pareto:H    rank floor((n - 1) * u^(log H / log(1 - H))), as fio draws it: the hottest
 *             fraction H of the blocks gets about 1 - H of the I/Os.
 * Both scatter rank k to a block through a seeded permutation (the random map's bijection),
 * as fio hashes its ranks, so the hot blocks are not all at the start of the region.
 * normal:SIGMA[:C]  a Gaussian around C * n with deviation SIGMA% of n, redrawn when it falls
 *             outside the region; not scattered: the hot part is one piece around C.
 * zoned:A/S:...  zone i (consecutive, S% of the region each) with probability A%, uniform
 *             inside it. */
#ifndef IOTRIAL_DISTRIB_H
#define IOTRIAL_DISTRIB_H

#include <stdint.h>

#include "engine/io/randmap.h"
#include "model/wlopts.h"

struct distrib {
	enum wl_dist_kind kind;
	uint64_t n;
	struct randmap perm; /* zipf, pareto: rank -> block */
	/* zipf (rejection-inversion): theta, H(1.5) - 1, H(n + 0.5), and the squeeze s */
	double theta, hx1, hn, s;
	double pow;	    /* pareto: log(h) / log(1 - h) */
	double mean, sigma; /* normal, in blocks */
	uint32_t nzones;
	double cum[WL_ZONES_MAX];		     /* zoned: cumulative access share, 0..1 */
	uint64_t lo[WL_ZONES_MAX], hi[WL_ZONES_MAX]; /* zoned: each zone's blocks [lo, hi) */
};

/* Set `d` up for `n` blocks (n >= 1) and the parsed distribution `spec` (not uniform). */
void distrib_init(struct distrib *d, const struct wl_dist *spec, uint64_t n, uint64_t seed);

/* The next block, 0 .. n-1, drawing from `rng`. */
uint64_t distrib_next(struct distrib *d, uint64_t *rng);

#endif
