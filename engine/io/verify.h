/* Data verification: a pattern every 512-byte unit of a file carries — its own offset, the
 * run's seed and a CRC-32 of its body — so a read can tell a good block from a torn,
 * misplaced, stale or corrupted one, whatever the I/O size or order that wrote it. */
#ifndef IOTRIAL_VERIFY_H
#define IOTRIAL_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VERIFY_UNIT 512u

/* Fill `buf` (len a multiple of VERIFY_UNIT) with the pattern for file offset `offset`
 * (a multiple of VERIFY_UNIT) under `seed`. */
void verify_fill(void *buf, size_t len, uint64_t offset, uint64_t seed);

/* Check `buf`, read from file offset `offset`. With `check_seed` false, the seed in each
 * unit is not compared (a file written by an earlier run). Returns 0, or -EILSEQ with the
 * offset of the first bad unit in *bad and a reason ("checksum", "offset", "seed") in
 * *why. */
int verify_check(const void *buf, size_t len, uint64_t offset, uint64_t seed, bool check_seed,
		 uint64_t *bad, const char **why);

#endif
