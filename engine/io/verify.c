/* The verify pattern (see verify.h). Header: offset, seed, CRC-32 (zlib) of the body, magic;
 * the body is pseudo-random from (seed, offset), so it neither compresses nor dedupes. */
#include "engine/io/verify.h"

#include <errno.h>
#include <string.h>
#include <zlib.h>

#define MAGIC 0x696f7472u /* "iotr" */

struct unit_header {
	uint64_t offset;
	uint64_t seed;
	uint32_t crc;
	uint32_t magic;
};

#define BODY (VERIFY_UNIT - sizeof(struct unit_header))

static inline uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void verify_fill(void *buf, size_t len, uint64_t offset, uint64_t seed)
{
	for (size_t u = 0; u + VERIFY_UNIT <= len; u += VERIFY_UNIT) {
		unsigned char *p = (unsigned char *)buf + u;
		struct unit_header h = {offset + u, seed, 0, MAGIC};
		uint64_t s = seed ^ mix(offset + u);

		for (size_t i = sizeof(h); i + 8 <= VERIFY_UNIT; i += 8) {
			uint64_t v = mix(s += 0x9e3779b97f4a7c15ull);
			memcpy(p + i, &v, 8);
		}
		h.crc = (uint32_t)crc32(0, p + sizeof(h), BODY);
		memcpy(p, &h, sizeof(h));
	}
}

int verify_check(const void *buf, size_t len, uint64_t offset, uint64_t seed, bool check_seed,
		 uint64_t *bad, const char **why)
{
	for (size_t u = 0; u + VERIFY_UNIT <= len; u += VERIFY_UNIT) {
		const unsigned char *p = (const unsigned char *)buf + u;
		struct unit_header h;

		memcpy(&h, p, sizeof(h));
		*bad = offset + u;
		if (h.magic != MAGIC || h.crc != (uint32_t)crc32(0, p + sizeof(h), BODY)) {
			*why = "checksum mismatch (the block is corrupt or was never written)";
			return -EILSEQ;
		}
		if (h.offset != offset + u) {
			*why = "the block belongs at another offset (a misplaced write)";
			return -EILSEQ;
		}
		if (check_seed && h.seed != seed) {
			*why = "the block is from another run (a lost write)";
			return -EILSEQ;
		}
	}
	return 0;
}
