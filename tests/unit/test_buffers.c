/*
 * Unit tests for engine/io/buffers: the page sizes read from the kernel's file (or the
 * fallback), the size a worker's buffers take (what the planner counts) and that the
 * allocation is that size, aligned as asked.
 */
#include "engine/io/buffers.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_size_file),
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_bytes),
	    cmocka_unit_test(test_alloc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
