/* The one pseudo-random generator iotrial uses: splitmix64 — seeds well from any value,
 * one add and two multiply-xorshifts per draw, and the same sequence on every machine, so
 * a recorded seed replays a run. Not for cryptography. */
#ifndef IOTRIAL_RNG_H
#define IOTRIAL_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1): 53 random bits, never 0 or 1. */
static inline double rng_uniform(uint64_t *state)
{
	return ((double)(rng_next(state) >> 11) + 0.5) / 9007199254740992.0;
}

#endif
