/* A worker's I/O buffers (see buffers.h). An I/O of more than a page on ordinary pages
 * reaches the device as one segment per page wherever the pages are not contiguous: this
 * machine's virtio disk takes 254 segments a request, so a 1 MiB write went as two requests,
 * and its host handles each segment apart (128 KiB reads at depth 8: half the rate;
 * docs/performance.md#huge-buffers). On huge pages (aligned, transparent huge pages by
 * madvise) an I/O is one segment. The rounding up to a whole huge page costs up to one huge
 * page of memory where the kernel gives it (a huge page is allocated whole), of address
 * space only where it does not. */
#include "engine/io/buffers.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static pthread_once_t sizes_once = PTHREAD_ONCE_INIT;
static uint64_t page_size, hpage_size;

uint64_t buffers_size_file(const char *path, uint64_t fallback)
{
	FILE *f = fopen(path, "re");
	uint64_t v = 0;
	char end = 0;
	int n;

	if (!f)
		return fallback;
	n = fscanf(f, "%" SCNu64 "%c", &v, &end);
	fclose(f);
	if (n < 1 || (n == 2 && end != '\n') || v == 0 || (v & (v - 1)))
		return fallback;
	return v;
}

static void sizes_read(void)
{
	long p = sysconf(_SC_PAGESIZE);

	page_size = p > 0 ? (uint64_t)p : 4096;
	hpage_size = buffers_size_file(BUFFERS_HPAGE_FILE, BUFFERS_HPAGE_DEFAULT);
	if (hpage_size < page_size)
		hpage_size = BUFFERS_HPAGE_DEFAULT;
}

uint64_t buffers_page(void)
{
	pthread_once(&sizes_once, sizes_read);
	return page_size;
}

uint64_t buffers_hpage(void)
{
	pthread_once(&sizes_once, sizes_read);
	return hpage_size;
}

bool buffers_huge(bool huge_bufs, uint64_t chunk)
{
	return huge_bufs && chunk > buffers_page();
}

uint64_t buffers_bytes(bool huge_bufs, uint32_t depth, uint64_t chunk)
{
	uint64_t len = (uint64_t)(depth ? depth : 1) * chunk;
	uint64_t hp = buffers_hpage();

	return buffers_huge(huge_bufs, chunk) ? (len + hp - 1) / hp * hp : len;
}

int buffers_alloc(struct buffers *b, bool huge_bufs, uint32_t depth, uint64_t chunk)
{
	void *p;

	b->base = NULL;
	b->huge = buffers_huge(huge_bufs, chunk);
	b->len = buffers_bytes(huge_bufs, depth, chunk);
	if (posix_memalign(&p, b->huge ? buffers_hpage() : buffers_page(), b->len))
		return -ENOMEM;
	b->base = p;
	if (b->huge)
		(void)madvise(b->base, b->len, MADV_HUGEPAGE);
	return 0;
}

void buffers_free(struct buffers *b)
{
	free(b->base);
	b->base = NULL;
}
