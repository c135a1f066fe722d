/* Keys beyond the job key table (model/jobkeys_ext.c): what job_keys_extend refuses in a
 * backend's option table, how a lent option reads (its default, or what a job set), and that
 * every compiled-in backend's table passes (be_registry_init). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/io/backends/backend.h"
#include "model/jobkeys.h"

static const char *const colours[] = {"red", "blue", NULL};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct job_key good[] = {
    {"t_colour", KT_ENUM, 0, "blue", 0, 0, colours, "a colour", "t_colour: red"},
    {"t_wait", KT_DURATION, 8, "5ms", 0, 1000000000, NULL, "a wait", "t_wait: 1ms"},
    {NULL},
};
static const struct job_key string_row[] = {
    {"t_text", KT_STRING, 0, NULL, 0, 0, NULL, "text", "t_text: x"},
    {NULL},
};
static const struct job_key taken_row[] = {
    {"block_size", KT_SIZE, 0, NULL, 0, 10, NULL, "clash", "block_size: 1"},
    {NULL},
};
static const struct job_key bad_default[] = {
    {"t_n", KT_UINT, 0, "20", 0, 10, NULL, "a count", "t_n: 1"},
    {NULL},
};
static const struct job_key no_help[] = {
    {"t_m", KT_UINT, 0, "1", 0, 10, NULL, NULL, NULL},
    {NULL},
};
#pragma GCC diagnostic pop

struct refused {
	const struct job_key *rows;
	const char *err;
};

static const struct refused refused[] = {
    {string_row, "option 't_text' of t: a backend option cannot be a string"},
    {taken_row, "option 'block_size' of t: the name is taken"},
    {bad_default,
     "option 't_n' of t: its default '20' is refused: must be between 0 and 10, got '20'"},
    {no_help, "option 't_m' of t: it needs a help line and an example"},
};

static void test_refused(void **state)
{
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char err[256] = "";
		job_keys_extend_reset();
		assert_int_equal(job_keys_extend("t", refused[i].rows, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, refused[i].err);
		assert_int_equal(job_key_count(), JK_NKEYS);
	}
}

static void test_lent_option(void **state)
{
	static struct job_spec j;
	struct key_value v;
	char err[256], buf[64];
	int id;

	job_keys_extend_reset();
	assert_int_equal(job_keys_extend("t", good, err, sizeof(err)), 0);
	assert_int_equal(job_key_count(), JK_NKEYS + 2);
	id = job_key_id_of(job_key_find("t_wait"));
	assert_int_equal(id, JK_NKEYS + 1);
	assert_string_equal(job_key_owner((enum job_key_id)id), "t");
	assert_null(job_key_owner(JK_BLOCK_SIZE));
	memset(&j, 0, sizeof(j));
	assert_int_equal(job_key_get(&j, (enum job_key_id)id, &v), 0);
	assert_int_equal(v.u, 5000000); /* the default, typed when lent */
	v.u = 7;
	assert_int_equal(job_key_put(&j, &v), 0);
	assert_int_equal(job_opt_get(&j, (enum job_key_id)id), 7);
	v.key = (enum job_key_id)JK_NKEYS;
	assert_int_equal(job_key_get(&j, v.key, &v), 0);
	job_key_format(&v, buf, sizeof(buf));
	assert_string_equal(buf, "blue");
	/* The same name again is taken. */
	assert_int_equal(job_keys_extend("u", good, err, sizeof(err)), -EINVAL);
	job_keys_extend_reset();
	spec_job_release(&j);
}

static void test_full_job(void **state)
{
	static struct job_spec j;

	memset(&j, 0, sizeof(j));
	for (int i = 0; i < JOB_OPTS_MAX; i++)
		assert_int_equal(job_opt_put(&j, (enum job_key_id)(JK_NKEYS + i), 1), 0);
	assert_int_equal(job_opt_put(&j, (enum job_key_id)(JK_NKEYS + JOB_OPTS_MAX), 1), -E2BIG);
	assert_int_equal(job_opt_put(&j, (enum job_key_id)JK_NKEYS, 2), 0); /* set again: fits */
	spec_job_release(&j);
}

/* A plan's instance is its parsed job copied by assignment, borrowing the job's options:
 * a matrix point that sets one changes the instance's options, never the job's. */
static void test_borrowed_options(void **state)
{
	static struct job_spec job, in1, in2;
	const enum job_key_id a = JK_NKEYS, b = JK_NKEYS + 1;

	memset(&job, 0, sizeof(job));
	assert_int_equal(job_opt_put(&job, a, 1), 0);
	in1 = job;
	job_opts_borrow(&in1);
	assert_ptr_equal(in1.opts.v, job.opts.v); /* nothing copied until a point sets one */
	assert_int_equal(job_opt_put(&in1, a, 2), 0);
	in2 = job;
	job_opts_borrow(&in2);
	assert_int_equal(job_opt_put(&in2, b, 3), 0);
	assert_int_equal(job_opt_get(&job, a), 1);
	assert_int_equal(job.opts.n, 1);
	assert_int_equal(job_opt_get(&in1, a), 2);
	assert_int_equal(job_opt_get(&in2, a), 1);
	assert_int_equal(job_opt_get(&in2, b), 3);
	spec_job_release(&in2);
	spec_job_release(&in1);
	assert_int_equal(job_opt_get(&job, a), 1); /* still there: the instances freed their own */
	spec_job_release(&job);
}

static void test_registry(void **state)
{
	char err[256] = "";

	job_keys_extend_reset();
	assert_int_equal(be_registry_init(err, sizeof(err)), 0);
	assert_non_null(job_key_find("sim_mean"));
	assert_non_null(job_key_find("null_delay"));
	assert_string_equal(
	    job_key_owner((enum job_key_id)job_key_id_of(job_key_find("fault_short"))), "fault");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_refused),  cmocka_unit_test(test_lent_option),
	    cmocka_unit_test(test_full_job), cmocka_unit_test(test_borrowed_options),
	    cmocka_unit_test(test_registry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
