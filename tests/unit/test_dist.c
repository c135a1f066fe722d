/*
 * Unit tests for the distributed layer as a run of one rank sees it (engine/dist/dist.h) and for
 * the `ranks:` values the planner accepts (plan_ranks): table-driven, with the launch check
 * fed a fake launcher's environment.
 */
#include "engine/dist/dist.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/plan/plan.h"

static void test_plan_ranks(void **state)
{
	static const struct {
		const char *text;
		uint32_t size;
		int ret;
		uint32_t lo, n;
		const char *msg; /* a part of the message, for errors */
	} cases[] = {
	    {"all", 1, 0, 0, 1, NULL},
	    {"all", 8, 0, 0, 8, NULL},
	    {"1", 4, 0, 0, 1, NULL},
	    {"4", 4, 0, 0, 4, NULL},
	    {"5", 4, -ERANGE, 0, 0,
	     "asks for 5 ranks, but the run has 4 (launch it with mpirun -np 5)"},
	    {"0", 4, -ERANGE, 0, 0, "between 1 and 65536"},
	    {"65537", 70000, -ERANGE, 0, 0, "between 1 and 65536"},
	    {"0-3", 4, 0, 0, 4, NULL},
	    {"2-3", 4, 0, 2, 2, NULL},
	    {"3-3", 4, 0, 3, 1, NULL},
	    {"2-4", 4, -ERANGE, 0, 0, "asks for ranks 2-4, but the run has 4"},
	    {"3-2", 4, -ERANGE, 0, 0, "A <= B"},
	    {"", 4, -EINVAL, 0, 0, "expected all"},
	    {"some", 4, -EINVAL, 0, 0, "got 'some'"},
	    {"-1", 4, -EINVAL, 0, 0, NULL},
	    {"1-", 4, -EINVAL, 0, 0, NULL},
	    {"1-2x", 4, -EINVAL, 0, 0, NULL},
	    {"2x", 4, -EINVAL, 0, 0, NULL},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t lo = 99, n = 99;
		char err[256] = "";
		int ret = plan_ranks(cases[i].text, cases[i].size, &lo, &n, err, sizeof(err));
		if (ret != cases[i].ret)
			fail_msg("plan_ranks('%s', %u) = %d, want %d (%s)", cases[i].text,
				 cases[i].size, ret, cases[i].ret, err);
		if (ret == 0 && (lo != cases[i].lo || n != cases[i].n))
			fail_msg("plan_ranks('%s', %u): ranks %u+%u, want %u+%u", cases[i].text,
				 cases[i].size, lo, n, cases[i].lo, cases[i].n);
		if (cases[i].msg && !strstr(err, cases[i].msg))
			fail_msg("plan_ranks('%s'): message '%s' lacks '%s'", cases[i].text, err,
				 cases[i].msg);
	}
}

static void test_instance_on_rank(void **state)
{
	struct instance in = {.rank_lo = 2, .rank_n = 2};

	assert_false(plan_on_rank(&in, 0));
	assert_false(plan_on_rank(&in, 1));
	assert_true(plan_on_rank(&in, 2));
	assert_true(plan_on_rank(&in, 3));
	assert_false(plan_on_rank(&in, 4));
	assert_false(plan_on_rank(&in, -1));
}

/* Before dist_init, and in a serial build at all times: rank 0 of 1, collectives trivial. */
static void test_one_rank(void **state)
{
	uint64_t mine[2] = {7, 8}, all[2] = {0, 0};
	char *buf = strdup("text"), why[256] = "";
	size_t len = 4;

	assert_int_equal(dist_rank(), 0);
	assert_int_equal(dist_size(), 1);
	assert_int_equal(dist_local_rank(), 0);
	assert_non_null(dist_host());
	assert_true(dist_host()[0] != 0);
	assert_int_equal(dist_barrier(), 0);
	assert_int_equal(dist_gather(mine, all, sizeof(mine)), 0);
	assert_memory_equal(mine, all, sizeof(mine));
	memset(all, 0, sizeof(all));
	assert_int_equal(dist_allgather(mine, all, sizeof(mine)), 0);
	assert_memory_equal(mine, all, sizeof(mine));
	assert_int_equal(dist_agree(DIST_FAILED | DIST_STOP), DIST_FAILED | DIST_STOP);
	assert_int_equal(dist_agree(0), 0);
	mine[0] = 0x8000000000000005ull;
	assert_int_equal(dist_poll_or(&mine[0]), 0);
	assert_true(mine[0] == 0x8000000000000005ull);
	assert_int_equal(dist_bcast_buf(&buf, &len), 0);
	assert_string_equal(buf, "text");
	assert_int_equal(len, 4);
	assert_int_equal(dist_check_peers("00", why, sizeof(why)), 0);
	free(buf);
}

/* Each process alone while the launcher says there are several: refused, naming why. */
static void test_launch_check(void **state)
{
	static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE",
					   "SLURM_STEP_NUM_TASKS"};
	char why[512];

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		unsetenv(vars[i]);
	assert_int_equal(dist_check_launch(why, sizeof(why)), 0);
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		setenv(vars[i], "1", 1);
		assert_int_equal(dist_check_launch(why, sizeof(why)), 0);
		setenv(vars[i], "junk", 1);
		assert_int_equal(dist_check_launch(why, sizeof(why)), 0);
		setenv(vars[i], "3", 1);
		why[0] = 0;
		assert_int_equal(dist_check_launch(why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, "launched as one of 3 processes"));
		assert_non_null(strstr(why, vars[i]));
		unsetenv(vars[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plan_ranks),
	    cmocka_unit_test(test_instance_on_rank),
	    cmocka_unit_test(test_one_rank),
	    cmocka_unit_test(test_launch_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
