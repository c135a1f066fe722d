/* Unit tests for engine/run/areas: a mapping given back is handed out again for the same
 * size and kind, zeroed; another size or kind gets a mapping of its own; a shared one is
 * seen by a forked child's writes; past AREAS_KEPT the one given back longest ago is
 * unmapped, and on release all are (msync on an address not mapped fails with ENOMEM). */
#include "engine/run/areas.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

static bool mapped(void *p)
{
	return msync(p, 1, MS_ASYNC) == 0 || errno != ENOMEM;
}

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void test_reused_zeroed(void **state)
{
	static struct areas a;
	const size_t size = 78280;
	unsigned char *p = areas_get(&a, size, false), *q, *other;

	assert_non_null(p);
	assert_true(all_zero(p, size));
	memset(p, 0xa5, size);
	areas_put(&a, p, size, false);
	assert_true(mapped(p));
	other = areas_get(&a, size + 8, false); /* another size: not the kept one */
	assert_non_null(other);
	assert_ptr_not_equal(other, p);
	q = areas_get(&a, size, true); /* another kind: not the kept one */
	assert_non_null(q);
	assert_ptr_not_equal(q, p);
	areas_put(&a, q, size, true);
	q = areas_get(&a, size, false);
	assert_ptr_equal(q, p);
	assert_true(all_zero(q, size));
	areas_put(&a, q, size, false);
	areas_put(&a, other, size + 8, false);
	areas_release(&a);
	assert_false(mapped(p));
	assert_false(mapped(other));
	areas_put(&a, NULL, size, false); /* nothing */
}

static void test_shared_seen_by_child(void **state)
{
	static struct areas a;
	int *p = areas_get(&a, sizeof(int), true), st;
	pid_t pid;

	assert_non_null(p);
	areas_put(&a, p, sizeof(int), true);
	p = areas_get(&a, sizeof(int), true);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		*p = 42;
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(*p, 42);
	areas_put(&a, p, sizeof(int), true);
	areas_release(&a);
}

static void test_kept_at_most(void **state)
{
	static struct areas a;
	void *p[AREAS_KEPT + 2];

	for (size_t i = 0; i < AREAS_KEPT + 2; i++)
		assert_non_null(p[i] = areas_get(&a, 4096, false));
	for (size_t i = 0; i < AREAS_KEPT + 2; i++)
		areas_put(&a, p[i], 4096, false);
	/* The two given back first made room for the last two. */
	assert_false(mapped(p[0]));
	assert_false(mapped(p[1]));
	for (size_t i = 2; i < AREAS_KEPT + 2; i++)
		assert_true(mapped(p[i]));
	areas_release(&a);
	for (size_t i = 2; i < AREAS_KEPT + 2; i++)
		assert_false(mapped(p[i]));
}

/* A trial that filled every place (64 workers' slots) leaves room for the next trial's
 * areas of another size or kind: given back, they are kept, and handed out again. */
static void test_full_of_another_kind(void **state)
{
	static struct areas a;
	void *p[AREAS_KEPT], *q, *r;

	for (size_t i = 0; i < AREAS_KEPT; i++)
		assert_non_null(p[i] = areas_get(&a, 4096, false));
	for (size_t i = 0; i < AREAS_KEPT; i++)
		areas_put(&a, p[i], 4096, false);
	assert_non_null(q = areas_get(&a, 4096, true));
	assert_non_null(r = areas_get(&a, 368, false));
	areas_put(&a, q, 4096, true);
	areas_put(&a, r, 368, false);
	assert_true(mapped(q)); /* kept, not unmapped (a new mapping may land at q) */
	assert_true(mapped(r));
	assert_false(mapped(p[0]));
	assert_false(mapped(p[1]));
	assert_ptr_equal(areas_get(&a, 4096, true), q);
	assert_ptr_equal(areas_get(&a, 368, false), r);
	areas_put(&a, q, 4096, true);
	areas_put(&a, r, 368, false);
	areas_release(&a);
	assert_false(mapped(q));
	assert_false(mapped(r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_reused_zeroed),
	    cmocka_unit_test(test_shared_seen_by_child),
	    cmocka_unit_test(test_kept_at_most),
	    cmocka_unit_test(test_full_of_another_kind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
