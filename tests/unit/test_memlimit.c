/*
 * Unit tests for lib/memlimit: memory.max's text, the cgroup v2 line of /proc/PID/cgroup,
 * and the smallest limit of a cgroup and those above it, over a fake cgroup tree in a
 * temporary folder.
 */
#include "lib/memlimit.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

static void test_parse_max(void **state)
{
	static const struct {
		const char *text;
		int ret;
		uint64_t want;
	} cases[] = {
	    {"max\n", 0, 0},
	    {"max", 0, 0},
	    {"1073741824\n", 0, 1073741824},
	    {"4096", 0, 4096},
	    {"18446744073709551615\n", 0, UINT64_MAX},
	    {"18446744073709551616\n", -EINVAL, 0},
	    {"-1\n", -EINVAL, 0},
	    {" 4096\n", -EINVAL, 0},
	    {"4096 kB\n", -EINVAL, 0},
	    {"maximum\n", -EINVAL, 0},
	    {"", -EINVAL, 0},
	};

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		uint64_t got = 12345;
		int ret = memlimit_parse_max(cases[k].text, &got);
		if (ret != cases[k].ret || (ret == 0 && got != cases[k].want))
			fail_msg("'%s': %d %llu, want %d %llu", cases[k].text, ret,
				 (unsigned long long)got, cases[k].ret,
				 (unsigned long long)cases[k].want);
	}
}

static void test_cgroup_path(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(memlimit_cgroup_path("0::/user.slice/a.scope\n", out, sizeof(out)), 0);
	assert_string_equal(out, "/user.slice/a.scope");
	/* hybrid: the v1 controllers' lines first */
	assert_int_equal(memlimit_cgroup_path("4:memory:/x\n1:cpu:/\n0::/\n", out, sizeof(out)), 0);
	assert_string_equal(out, "/");
	assert_int_equal(memlimit_cgroup_path("0::/no/newline", out, sizeof(out)), 0);
	assert_string_equal(out, "/no/newline");
	assert_int_equal(memlimit_cgroup_path("4:memory:/x\n1:cpu:/\n", out, sizeof(out)), -ENOENT);
	assert_int_equal(memlimit_cgroup_path("", out, sizeof(out)), -ENOENT);
	assert_int_equal(memlimit_cgroup_path("0::/a/very/long/path\n", out, 8), -ENAMETOOLONG);
}

static char root[] = "/tmp/iotrial-test-memlimit.XXXXXX";

/* Write `text` into root/rel (folders made on the way). */
static void put(const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		(void)mkdir(path, 0700);
		*slash = '/';
	}
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

static uint64_t limit(void)
{
	char proc[512], mnt[512];

	snprintf(proc, sizeof(proc), "%s/cgroup", root);
	snprintf(mnt, sizeof(mnt), "%s/fs", root);
	return memlimit_cgroup(proc, mnt);
}

static void test_cgroup_tree(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(root));
	/* No files: no limit. */
	assert_int_equal(limit(), 0);
	put("cgroup", "1:memory:/v1\n0::/a/b\n");
	assert_int_equal(limit(), 0);
	/* Its own, "max": none; then a limit of its own. */
	put("fs/a/b/memory.max", "max\n");
	assert_int_equal(limit(), 0);
	put("fs/a/b/memory.max", "3221225472\n");
	assert_int_equal(limit(), 3221225472u);
	/* A smaller one above it caps it; a larger one above does not. */
	put("fs/a/memory.max", "1073741824\n");
	assert_int_equal(limit(), 1073741824u);
	put("fs/a/memory.max", "8589934592\n");
	assert_int_equal(limit(), 3221225472u);
	/* A container's namespace root ("/") has its own, smaller still. */
	put("fs/memory.max", "536870912\n");
	assert_int_equal(limit(), 536870912u);
	put("cgroup", "0::/\n");
	assert_int_equal(limit(), 536870912u);
	/* Nonsense in a file is no limit, not a crash. */
	put("fs/memory.max", "lots\n");
	assert_int_equal(limit(), 0);
	/* cgroup v1 only: nothing to say. */
	put("cgroup", "4:memory:/a\n");
	assert_int_equal(limit(), 0);
	{
		char rm[600];
		snprintf(rm, sizeof(rm), "rm -rf '%s'", root);
		assert_int_equal(system(rm), 0);
	}
}

/* The cgroup's limit binds only where it is smaller than the machine's memory. */
static void test_least(void **state)
{
	int cg = -1;

	(void)state;
	assert_int_equal(memlimit_least(8ull << 30, 0, &cg), 8ull << 30);
	assert_int_equal(cg, 0);
	assert_int_equal(memlimit_least(8ull << 30, 1ull << 30, &cg), 1ull << 30);
	assert_int_equal(cg, 1);
	assert_int_equal(memlimit_least(8ull << 30, 16ull << 30, &cg), 8ull << 30);
	assert_int_equal(cg, 0);
	assert_int_equal(memlimit_least(0, 1ull << 30, &cg), 1ull << 30);
	assert_int_equal(cg, 1);
	assert_int_equal(memlimit_least(0, 0, &cg), 0);
	assert_int_equal(cg, 0);
}

/* On this machine: the usable memory is the physical, or a smaller cgroup limit. */
static void test_usable(void **state)
{
	int cg = -1;
	uint64_t phys = memlimit_physical(), use = memlimit_usable(&cg);

	(void)state;
	assert_true(phys > 0);
	assert_true(cg == 0 || cg == 1);
	if (cg)
		assert_true(use < phys);
	else
		assert_int_equal(use, phys);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_max),	cmocka_unit_test(test_cgroup_path),
	    cmocka_unit_test(test_cgroup_tree), cmocka_unit_test(test_least),
	    cmocka_unit_test(test_usable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
