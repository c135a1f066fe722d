/* A worker's I/O buffers: allocated before the clock starts, on huge pages where the job
 * asks for them (huge_buffers), and freed after the trial. The planner's memory bound counts
 * them with buffers_bytes(), the same sum the allocation makes. */
#ifndef IOTRIAL_BUFFERS_H
#define IOTRIAL_BUFFERS_H

#include <stdbool.h>
#include <stdint.h>

/* Whether huge_buffers (`huge_bufs`) applies to I/Os of `chunk` bytes: only to I/Os of more
 * than a page, which reach the device as one segment per page on ordinary pages. */
bool buffers_huge(bool huge_bufs, uint64_t chunk);

/* The memory a worker's I/O buffers take: `depth` (0 counts as 1) x `chunk`, rounded up to
 * whole huge pages where buffers_huge(huge_bufs, chunk). */
uint64_t buffers_bytes(bool huge_bufs, uint32_t depth, uint64_t chunk);

/* Allocate `len` bytes of buffers into *bufs: page-aligned, or on huge pages (aligned to
 * one, rounded up to whole ones, madvise MADV_HUGEPAGE) when `huge`. The madvise is a hint:
 * where the kernel gives no huge page the buffers are ordinary pages, not an error.
 * Returns 0 or -ENOMEM; the caller frees *bufs with buffers_free(). */
int buffers_alloc(char **bufs, uint64_t len, bool huge);

/* Free what buffers_alloc() gave (NULL: nothing). */
void buffers_free(char *bufs);

#endif
