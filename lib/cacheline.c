/* Cache-line-aligned zeroed allocations for per-worker state (see cacheline.h). */
#include "lib/cacheline.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *cacheline_zalloc(size_t size)
{
	size_t whole;
	void *p;

	if (size == 0)
		size = 1;
	if (size > SIZE_MAX - (CACHELINE - 1))
		return NULL;
	whole = (size + CACHELINE - 1) / CACHELINE * CACHELINE;
	p = aligned_alloc(CACHELINE, whole);
	return p ? memset(p, 0, whole) : NULL;
}
