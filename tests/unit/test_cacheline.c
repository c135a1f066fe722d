/*
 * Unit tests for engine/cacheline: every allocation starts on a cache line, is zeroed over
 * whole lines, and no two allocations share a line, whatever their sizes.
 */
#include "lib/cacheline.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define N 64

/* Allocations of `size` bytes, interleaved with others, never share a line. */
static void check_size(size_t size)
{
	unsigned char *p[N];
	uintptr_t first[N], last[N];

	for (int i = 0; i < N; i++) {
		p[i] = cacheline_zalloc(size);
		assert_non_null(p[i]);
		assert_int_equal((uintptr_t)p[i] % CACHELINE, 0);
		first[i] = (uintptr_t)p[i] / CACHELINE;
		last[i] = ((uintptr_t)p[i] + (size ? size : 1) - 1) / CACHELINE;
		for (size_t b = 0; b < (size + CACHELINE - 1) / CACHELINE * CACHELINE; b++)
			if (p[i][b] != 0)
				fail_msg("size %zu: byte %zu of allocation %d is not zero", size, b,
					 i);
		memset(p[i], 0xa5, size);
	}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			if (i != j && first[i] <= last[j] && first[j] <= last[i])
				fail_msg("size %zu: allocations %d and %d share a cache line", size,
					 i, j);
	for (int i = 0; i < N; i++)
		free(p[i]);
}

static void test_sizes(void **state)
{
	static const size_t sizes[] = {0, 1, 8, 40, 63, 64, 65, 100, 250, 4000, 4097};

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		check_size(sizes[k]);
}

static void test_overflow(void **state)
{
	(void)state;
	assert_null(cacheline_zalloc(SIZE_MAX));
	assert_null(cacheline_zalloc(SIZE_MAX - 10));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
