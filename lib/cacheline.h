/* Memory for per-worker state that workers write on every I/O: it starts on a cache line and
 * fills whole lines, so that one worker's writes never share a line with another's (false
 * sharing makes each write wait for the line to come back from the other core). */
#ifndef IOTRIAL_CACHELINE_H
#define IOTRIAL_CACHELINE_H

#include <stddef.h>

/* The cache line size assumed: that of x86-64 and most arm64 cores. */
#define CACHELINE 64

/* `size` bytes (at least 1), zeroed, starting on a cache line, rounded up to whole lines;
 * NULL when out of memory. Release with free(). */
void *cacheline_zalloc(size_t size);

#endif
