/*
 * Unit tests for engine/io/covermap: the blocks of a pass a mix of sizes covered. The first
 * free block after a covered one, round the end; a take stops at a covered block and at the
 * end; a give uncovers; the pass is full only when every block is covered, for counts
 * around a word's 64 bits.
 */
#include "engine/io/covermap.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void test_take_stops_at_covered_and_end(void **state)
{
	struct covermap c;

	(void)state;
	assert_int_equal(covermap_init(&c, 10), 0);
	assert_int_equal(covermap_take(&c, 4, 2), 2); /* 4, 5 */
	assert_int_equal(covermap_take(&c, 2, 8), 2); /* 2, 3: 4 is covered */
	assert_int_equal(covermap_take(&c, 8, 8), 2); /* 8, 9: the end */
	assert_int_equal(covermap_take(&c, 5, 1), 0); /* covered already */
	assert_int_equal(c.done, 6);
	assert_true(covermap_has(&c, 3) && !covermap_has(&c, 6) && !covermap_has(&c, 1));
	covermap_give(&c, 2, 2);
	assert_int_equal(c.done, 4);
	assert_false(covermap_has(&c, 2) || covermap_has(&c, 3));
	covermap_free(&c);
}

static void test_next_free_wraps(void **state)
{
	struct covermap c;

	(void)state;
	assert_int_equal(covermap_init(&c, 130), 0);
	assert_int_equal(covermap_next_free(&c, 7), 7);
	assert_int_equal(covermap_take(&c, 5, 125), 125); /* 5 to 129 */
	assert_int_equal(covermap_next_free(&c, 70), 0);  /* round the end, not 130 and up */
	assert_int_equal(covermap_take(&c, 0, 3), 3);
	assert_int_equal(covermap_next_free(&c, 129), 3);
	assert_int_equal(covermap_next_free(&c, 4), 4);
	assert_int_equal(covermap_take(&c, 3, 9), 2); /* 3, 4 */
	assert_true(covermap_full(&c));
	covermap_free(&c);
}

/* A pass of draws, each taking up to 5 blocks from the first free one: every block once,
 * and full exactly at the end; then clear starts a pass anew. */
static void test_full_pass(void **state)
{
	(void)state;
	for (uint64_t n = 1; n <= 200; n++) {
		struct covermap c;
		uint64_t covered = 0, b = 0;

		assert_int_equal(covermap_init(&c, n), 0);
		while (!covermap_full(&c)) {
			b = covermap_next_free(&c, (b * 37 + 11) % n);
			assert_true(b < n);
			uint64_t k = covermap_take(&c, b, 5);
			assert_true(k >= 1 && k <= 5);
			covered += k;
		}
		assert_int_equal(covered, n);
		covermap_clear(&c);
		assert_int_equal(c.done, 0);
		assert_int_equal(covermap_next_free(&c, n - 1), n - 1);
		covermap_free(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_take_stops_at_covered_and_end),
	    cmocka_unit_test(test_next_free_wraps),
	    cmocka_unit_test(test_full_pass),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
