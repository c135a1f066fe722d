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

/* `len` bytes at an `align`-aligned address, with a PROT_NONE page either side: reserved
 * whole, then the parts not needed given back. A mapping whose neighbours differ from it in
 * protection never merges with them, so it stays one VMA of its own in smaps. */
static int map_aligned(struct buffers *b, uint64_t align)
{
	uint64_t page = buffers_page(), span = b->len + align + page;
	char *p = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a;

	if (p == MAP_FAILED)
		return -ENOMEM;
	/* p + page is page-aligned: rounding it up to `align` adds at most align - page. */
	a = p + ((uintptr_t)(p + page) + align - 1) / align * align - (uintptr_t)p;
	if (mprotect(a, b->len, PROT_READ | PROT_WRITE) < 0) {
		munmap(p, span);
		return -ENOMEM;
	}
	if (a - page > p)
		munmap(p, (size_t)(a - page - p));
	if (a + b->len + page < p + span)
		munmap(a + b->len + page, (size_t)(p + span - (a + b->len + page)));
	b->map = a - page;
	b->map_len = b->len + 2 * page;
	b->base = a;
	return 0;
}

int buffers_alloc(struct buffers *b, bool huge_bufs, uint32_t depth, uint64_t chunk)
{
	b->base = b->map = NULL;
	b->huge = buffers_huge(huge_bufs, chunk);
	b->len = buffers_bytes(huge_bufs, depth, chunk);
	if (map_aligned(b, b->huge ? buffers_hpage() : buffers_page()) < 0)
		return -ENOMEM;
	if (b->huge)
		(void)madvise(b->base, b->len, MADV_HUGEPAGE);
	return 0;
}

void buffers_free(struct buffers *b)
{
	if (b->map)
		munmap(b->map, b->map_len);
	b->base = b->map = NULL;
}

static int span_cmp(const void *a, const void *b)
{
	uintptr_t x = (*(const struct buffers_span *const *)a)->lo;
	uintptr_t y = (*(const struct buffers_span *const *)b)->lo;

	return x < y ? -1 : x > y;
}

/* smaps, in address order: a mapping's line "START-END perms ..." in hex, then its fields
 * ("AnonHugePages:    2048 kB") up to the next mapping's line. The spans, sorted, are met
 * in the same order: `next` is the first not yet reached, `in` the one whose mapping's
 * fields are being read. */
static void scan(FILE *f, struct buffers_span **sorted, size_t n)
{
	struct buffers_span *in = NULL;
	char *line = NULL;
	size_t cap = 0, next = 0;
	uintptr_t start, end;
	uint64_t kib;

	while (getline(&line, &cap, f) > 0) {
		/* A field's name starts with a capital that may be a hex digit ("AnonHugePages"),
		 * but is never followed by a '-'. */
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &start, &end) == 2) {
			in = NULL;
			while (next < n && sorted[next]->lo < start)
				next++; /* in no mapping, or in one past: -ENOENT or -ERANGE stays
					 */
			for (; next < n && sorted[next]->lo < end; next++) {
				struct buffers_span *sp = sorted[next];
				if (sp->lo == start && sp->hi == end)
					in = sp; /* -ENOENT until its AnonHugePages line */
				else
					sp->ret = -ERANGE; /* merged with a neighbour after all */
			}
			if (next == n && !in)
				break; /* past them all: the rest is not read */
		} else if (in && sscanf(line, "AnonHugePages: %" SCNu64 " kB", &kib) == 1) {
			in->huge = kib * 1024;
			in->ret = 0;
			in = NULL;
		}
	}
	free(line);
}

int buffers_hpage_scan(const char *smaps, struct buffers_span *v, size_t n)
{
	struct buffers_span **sorted = calloc(n ? n : 1, sizeof(*sorted));
	FILE *f = NULL;
	int ret = 0;

	if (!sorted || !(f = fopen(smaps, "re")))
		ret = !sorted ? -ENOMEM : errno ? -errno : -EIO;
	for (size_t i = 0; i < n; i++) {
		v[i].huge = 0;
		v[i].ret = ret ? ret : -ENOENT;
		if (sorted)
			sorted[i] = &v[i];
	}
	if (!ret) {
		qsort(sorted, n, sizeof(*sorted), span_cmp);
		scan(f, sorted, n);
	}
	if (f)
		fclose(f);
	free(sorted);
	return ret;
}

int buffers_hpage_bytes(const struct buffers *b, const char *smaps, uint64_t *out)
{
	struct buffers_span one = {(uintptr_t)b->base, (uintptr_t)b->base + b->len, 0, 0};

	if (!b->base)
		return -EINVAL;
	buffers_hpage_scan(smaps, &one, 1);
	if (one.ret == 0)
		*out = one.huge;
	return one.ret;
}
