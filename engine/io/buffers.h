/* A worker's I/O buffers: allocated before the clock starts, on huge pages where the job
 * asks for them (huge_buffers), and freed after the trial. The planner's memory bound counts
 * them with buffers_bytes(), the size buffers_alloc() allocates. */
#ifndef IOTRIAL_BUFFERS_H
#define IOTRIAL_BUFFERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernel's transparent huge page size, where it says it. */
#define BUFFERS_HPAGE_FILE "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
/* ... and where it does not (a kernel without transparent huge pages): x86-64's. */
#define BUFFERS_HPAGE_DEFAULT (2u << 20)

/* A worker's buffers: `depth` slots of `chunk` bytes one after another from `base`. */
struct buffers {
	char *base;   /* NULL: none */
	uint64_t len; /* bytes allocated from base: buffers_bytes() of the request */
	bool huge;    /* on huge pages, as asked (aligned, whole huge pages, madvise) */
	/* The mapping they are in: base..base+len and a page either side, PROT_NONE, so that
	 * no neighbour ever merges into theirs (buffers_hpage_bytes reads theirs alone). */
	void *map;
	uint64_t map_len;
};

/* The size of a page and of a huge page on this machine, read once (the huge page's from
 * BUFFERS_HPAGE_FILE, BUFFERS_HPAGE_DEFAULT when it cannot be read). */
uint64_t buffers_page(void);
uint64_t buffers_hpage(void);

/* The size in bytes file `path` holds as one decimal number (what the kernel's
 * hpage_pmd_size says), or `fallback` when it cannot be read, is not a number, or is not a
 * power of two. */
uint64_t buffers_size_file(const char *path, uint64_t fallback);

/* Whether huge_buffers (`huge_bufs`) applies to I/Os of `chunk` bytes: only to I/Os of more
 * than a page, which reach the device as one segment per page on ordinary pages. */
bool buffers_huge(bool huge_bufs, uint64_t chunk);

/* The memory a worker's I/O buffers take: `depth` (0 counts as 1) x `chunk`, rounded up to
 * whole huge pages where buffers_huge(huge_bufs, chunk). */
uint64_t buffers_bytes(bool huge_bufs, uint32_t depth, uint64_t chunk);

/* Allocate buffers_bytes(huge_bufs, depth, chunk) bytes into *b, a mapping of their own
 * (zero-filled, faulted in when first touched): page-aligned, or on huge pages (aligned to
 * one, madvise MADV_HUGEPAGE) where buffers_huge(huge_bufs, chunk). The madvise is a hint:
 * where the kernel gives no huge page the buffers are ordinary pages, not an error.
 * Returns 0 or -ENOMEM (then b->base is NULL); the caller frees them with buffers_free(). */
int buffers_alloc(struct buffers *b, bool huge_bufs, uint32_t depth, uint64_t chunk);

/* Free what buffers_alloc() gave (none: nothing); b->base is then NULL. */
void buffers_free(struct buffers *b);

/* Some buffers as smaps shows them: their range, and what was found of it. */
struct buffers_span {
	uintptr_t lo, hi; /* base, base + len */
	uint64_t huge;	  /* ret 0: the bytes of its mapping on huge pages (AnonHugePages) */
	int ret; /* 0; -ENOENT: no mapping is it; -ERANGE: it is part of a larger one (whose huge
		  * pages would not all be its); -errno: the file could not be read */
};

/* For each of the `n` spans of `v` (any order), how many of its bytes are on huge pages,
 * from one pass over `smaps` (/proc/self/smaps, /proc/PID/smaps; another file for a test).
 * Read once the buffers were touched, outside any timed region: reading smaps walks the
 * page tables of the process and takes its memory map's lock, so a trial reads it once for
 * all its worker threads rather than once per worker. Returns 0, or -errno when nothing
 * could be read (then every span's ret is that). */
int buffers_hpage_scan(const char *smaps, struct buffers_span *v, size_t n);

/* buffers_hpage_scan() of b's buffers alone, into *out: 0, or the span's -errno. */
int buffers_hpage_bytes(const struct buffers *b, const char *smaps, uint64_t *out);

#endif
