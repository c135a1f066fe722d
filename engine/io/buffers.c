/* A worker's I/O buffers (see buffers.h). An I/O of more than a page on ordinary pages
 * reaches the device as one segment per page wherever the pages are not contiguous: this
 * machine's virtio disk takes 254 segments a request, so a 1 MiB write went as two requests,
 * and its host handles each segment apart (128 KiB reads at depth 8: half the rate;
 * docs/performance.md#huge-buffers). On huge pages (2 MiB, aligned, transparent huge pages by
 * madvise) an I/O is one segment. The rounding up to a whole huge page costs up to 2 MiB of
 * memory where the kernel gives the page (a huge page is allocated whole), of address space
 * only where it does not. */
#include "engine/io/buffers.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#define BUF_ALIGN 4096
#define HUGE_PAGE (2u << 20)

bool buffers_huge(bool huge_bufs, uint64_t chunk)
{
	return huge_bufs && chunk > BUF_ALIGN;
}

/* `len` rounded up to whole huge pages: the one place the rounding is made. */
static uint64_t whole_huge(uint64_t len)
{
	return (len + HUGE_PAGE - 1) & ~(uint64_t)(HUGE_PAGE - 1);
}

uint64_t buffers_bytes(bool huge_bufs, uint32_t depth, uint64_t chunk)
{
	uint64_t len = (uint64_t)(depth ? depth : 1) * chunk;

	return buffers_huge(huge_bufs, chunk) ? whole_huge(len) : len;
}

int buffers_alloc(char **bufs, uint64_t len, bool huge)
{
	if (huge) {
		uint64_t whole = whole_huge(len);

		if (posix_memalign((void **)bufs, HUGE_PAGE, whole))
			return -ENOMEM;
		(void)madvise(*bufs, whole, MADV_HUGEPAGE);
		return 0;
	}
	return posix_memalign((void **)bufs, BUF_ALIGN, len) ? -ENOMEM : 0;
}

void buffers_free(char *bufs)
{
	free(bufs);
}
