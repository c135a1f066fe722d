/*
 * Unit tests for engine/io/buffers: the page sizes read from the kernel's file (or the
 * fallback), the size a worker's buffers take (what the planner counts) and that the
 * allocation is that size, aligned as asked.
 */
#include "engine/io/buffers.h"

#include <setjmp.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#define FALLBACK 12345u

static void test_size_file(void **state)
{
	static const struct {
		const char *text;
		uint64_t want;
	} cases[] = {
	    {"2097152\n", 2097152},   {"65536", 65536},
	    {"524288\n", 524288},     {"", FALLBACK},
	    {"abc\n", FALLBACK},      {"3000000\n", FALLBACK},
	    {"0\n", FALLBACK},	      {"2097152x\n", FALLBACK},
	    {"-2097152\n", FALLBACK}, {"2097152 4096\n", FALLBACK},
	};
	char path[] = "/tmp/iotrial-test-buffers.XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(cases[k].text, f);
		fclose(f);
		if (buffers_size_file(path, FALLBACK) != cases[k].want)
			fail_msg("'%s': %llu, want %llu", cases[k].text,
				 (unsigned long long)buffers_size_file(path, FALLBACK),
				 (unsigned long long)cases[k].want);
	}
	close(fd);
	unlink(path);
	assert_int_equal(buffers_size_file(path, FALLBACK), FALLBACK);
}

/* The sizes read from this machine: a power of two each, the huge page the larger. */
static void test_sizes(void **state)
{
	uint64_t page = buffers_page(), hp = buffers_hpage();

	(void)state;
	assert_int_equal((long)page, sysconf(_SC_PAGESIZE));
	assert_int_equal(hp & (hp - 1), 0);
	assert_true(hp >= page);
	assert_int_equal(hp, buffers_size_file(BUFFERS_HPAGE_FILE, BUFFERS_HPAGE_DEFAULT));
}

static void test_bytes(void **state)
{
	uint64_t page = buffers_page(), hp = buffers_hpage();

	(void)state;
	/* One page an I/O: never huge. */
	assert_false(buffers_huge(true, page));
	assert_int_equal(buffers_bytes(true, 1, page), page);
	assert_int_equal(buffers_bytes(true, 3, page), 3 * page);
	/* More than a page: whole huge pages. */
	assert_true(buffers_huge(true, page + 512));
	assert_int_equal(buffers_bytes(true, 1, 2 * page), hp);
	assert_int_equal(buffers_bytes(true, 0, 2 * page), hp);
	assert_int_equal(buffers_bytes(true, 1, hp), hp);
	assert_int_equal(buffers_bytes(true, 1, hp + 2 * page), 2 * hp);
	assert_int_equal(buffers_bytes(true, 4, hp / 2), 2 * hp);
	assert_int_equal(buffers_bytes(true, 5, hp / 2), 3 * hp);
	/* huge_buffers: false, the I/Os alone. */
	assert_false(buffers_huge(false, 2 * page));
	assert_int_equal(buffers_bytes(false, 5, 2 * page), 10 * page);
	assert_int_equal(buffers_bytes(false, 0, 2 * page), 2 * page);
}

/* What is allocated is what buffers_bytes() counts, aligned to the page it is on. */
static void test_alloc(void **state)
{
	static const struct {
		bool huge;
		uint32_t depth;
		uint64_t chunk_pages;
	} cases[] = {{true, 1, 16}, {true, 64, 16}, {true, 3, 1}, {false, 8, 16}, {false, 0, 2}};
	uint64_t page = buffers_page(), hp = buffers_hpage();

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct buffers b;
		uint64_t chunk = cases[k].chunk_pages * page;
		bool huge = buffers_huge(cases[k].huge, chunk);

		assert_int_equal(buffers_alloc(&b, cases[k].huge, cases[k].depth, chunk), 0);
		assert_non_null(b.base);
		assert_int_equal(b.huge, huge);
		assert_int_equal(b.len, buffers_bytes(cases[k].huge, cases[k].depth, chunk));
		assert_int_equal((uintptr_t)b.base % (huge ? hp : page), 0);
		memset(b.base, 0x5a, b.len);
		buffers_free(&b);
		assert_null(b.base);
	}
}

/* Write a fake smaps into `path`: a mapping before the buffers, then theirs (from `lo`, or
 * from lo - `merged` when a neighbour merged into it) with `anon_kib` of AnonHugePages
 * (none: no such line), then one after. */
static void fake_smaps(const char *path, const struct buffers *b, uint64_t merged, long anon_kib)
{
	uintptr_t lo = (uintptr_t)b->base, hi = lo + b->len;
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "%lx-%lx rw-p 00000000 00:00 0 \nSize: 4 kB\nAnonHugePages: 2048 kB\n",
		(unsigned long)(lo - 3 * 4096 - merged), (unsigned long)(lo - 2 * 4096 - merged));
	fprintf(f, "%lx-%lx ---p 00000000 00:00 0 \nAnonHugePages:        0 kB\n",
		(unsigned long)(lo - 4096 - merged), (unsigned long)(lo - merged));
	fprintf(f, "%lx-%lx rw-p 00000000 00:00 0 \nSize: %lu kB\nAnonymous: 8 kB\n",
		(unsigned long)(lo - merged), (unsigned long)hi, (unsigned long)(b->len / 1024));
	if (anon_kib >= 0)
		fprintf(f, "AnonHugePages:  %8ld kB\n", anon_kib);
	fprintf(f, "FilePmdMapped:        0 kB\nVmFlags: rd wr mr mw me ac hg\n");
	fprintf(f, "%lx-%lx rw-p 00000000 00:00 0 \nAnonHugePages: 4096 kB\n",
		(unsigned long)(hi + 4096), (unsigned long)(hi + 2 * 4096 * 1024));
	fclose(f);
}

/* The AnonHugePages of the buffers' own mapping, and nothing when it is not theirs alone. */
static void test_hpage_bytes_parse(void **state)
{
	char path[] = "/tmp/iotrial-test-smaps.XXXXXX";
	int fd = mkstemp(path);
	struct buffers b;
	uint64_t got = 7;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(buffers_alloc(&b, true, 2, 64 << 10), 0);
	fake_smaps(path, &b, 0, 2048);
	assert_int_equal(buffers_hpage_bytes(&b, path, &got), 0);
	assert_int_equal(got, 2048 << 10);
	fake_smaps(path, &b, 0, 0);
	assert_int_equal(buffers_hpage_bytes(&b, path, &got), 0);
	assert_int_equal(got, 0);
	fake_smaps(path, &b, 2 << 20, 2048);
	assert_int_equal(buffers_hpage_bytes(&b, path, &got), -ERANGE);
	fake_smaps(path, &b, 0, -1);
	assert_int_equal(buffers_hpage_bytes(&b, path, &got), -ENOENT);
	unlink(path);
	assert_int_equal(buffers_hpage_bytes(&b, path, &got), -ENOENT);
	buffers_free(&b);
}

/* A page mapped like the buffers (read-write, anonymous, huge pages asked for) right before
 * or after `b`, where the kernel lets one be placed: it would merge into theirs. */
static void *neighbour(const struct buffers *b, bool after)
{
	uint64_t page = buffers_page();
	char *at = after ? b->base + b->len : b->base - page;
	void *p =
	    mmap(at, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	assert_int_equal(mprotect(p, page, PROT_READ | PROT_WRITE), 0);
	(void)madvise(p, page, MADV_HUGEPAGE);
	memset(p, 2, page);
	return p;
}

/* One pass for many buffers, given in any order: each exact mapping's huge pages, a merged
 * one refused, one in no mapping not found. */
static void test_hpage_scan(void **state)
{
	static const char text[] = "10000-20000 rw-p 00000000 00:00 0 \nAnonHugePages: 0 kB\n"
				   "200000-600000 rw-p 00000000 00:00 0 \nSize: 4096 kB\n"
				   "AnonHugePages:      4096 kB\nVmFlags: rd wr hg\n"
				   "600000-601000 ---p 00000000 00:00 0 \nAnonHugePages: 0 kB\n"
				   "800000-c00000 rw-p 00000000 00:00 0 \nAnonHugePages: 2048 kB\n"
				   "e00000-1000000 rw-p 00000000 00:00 0 \nAnonHugePages: 0 kB\n"
				   "7ffc0000-7ffe0000 rw-p 00000000 00:00 0 [stack]\n"
				   "AnonHugePages: 0 kB\n";
	struct buffers_span v[] = {
	    {0x2000000, 0x2200000, 9, 9}, /* past every mapping */
	    {0xe00000, 0x1000000, 9, 9},  /* exact, no huge page */
	    {0x200000, 0x600000, 9, 9},	  /* exact, two */
	    {0x700000, 0x780000, 9, 9},	  /* in no mapping */
	    {0x800000, 0xa00000, 9, 9},	  /* half of a larger one */
	};
	char path[] = "/tmp/iotrial-test-smaps.XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	assert_int_equal(buffers_hpage_scan(path, v, 5), 0);
	assert_int_equal(v[0].ret, -ENOENT);
	assert_int_equal(v[1].ret, 0);
	assert_int_equal(v[1].huge, 0);
	assert_int_equal(v[2].ret, 0);
	assert_int_equal(v[2].huge, 4096 << 10);
	assert_int_equal(v[3].ret, -ENOENT);
	assert_int_equal(v[4].ret, -ERANGE);
	unlink(path);
	assert_int_equal(buffers_hpage_scan(path, v, 5), -ENOENT);
	for (int k = 0; k < 5; k++)
		assert_int_equal(v[k].ret, -ENOENT);
}

/* On this machine: buffers allocated one after another, with mappings like theirs put right
 * beside them where there is room, are each a mapping of their own (smaps would show a merged
 * one as one), and what they have on huge pages is a whole number of huge pages, at most all
 * of them. */
static void test_hpage_bytes_here(void **state)
{
	struct buffers b[4];
	void *nb[4][2];
	uint64_t got, hp = buffers_hpage();

	(void)state;
	for (int k = 0; k < 4; k++) {
		assert_int_equal(buffers_alloc(&b[k], true, 4, 128 << 10), 0);
		memset(b[k].base, 1, b[k].len);
		nb[k][0] = neighbour(&b[k], false);
		nb[k][1] = neighbour(&b[k], true);
	}
	for (int k = 0; k < 4; k++) {
		assert_int_equal(buffers_hpage_bytes(&b[k], "/proc/self/smaps", &got), 0);
		assert_true(got <= b[k].len);
		assert_int_equal(got % hp, 0);
	}
	for (int k = 0; k < 4; k++) {
		buffers_free(&b[k]);
		for (int s = 0; s < 2; s++)
			if (nb[k][s])
				munmap(nb[k][s], buffers_page());
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_size_file),
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_bytes),
	    cmocka_unit_test(test_alloc),
	    cmocka_unit_test(test_hpage_bytes_parse),
	    cmocka_unit_test(test_hpage_scan),
	    cmocka_unit_test(test_hpage_bytes_here),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
