/* Planner tests: job files (as text) planned without touching a disk (every file under the
 * scratch folder, which the planner never examines), checked on the plan itself: matrix
 * expansion and exclude, the place of a matrix value, files shared between instances,
 * stages and trial order, compare pairs, and the bounds on a plan's size. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/plan/plan.h"
#include "parsers/jobfile.h"

/* Planning writes nothing, but checks that the scratch folder's parent is a folder it may
 * write in: /tmp, as on every Linux system. */
#define SCRATCH "/tmp/iotrial-unit-scratch.none"

static const struct expand_var builtins[] = {{"scratch", SCRATCH}};

struct planned {
	struct exp_spec s;
	struct plan p;
	struct diag d;
	int status; /* plan_build's */
};

/* Parse `text` (it must be a valid job file) and plan it into `pl`. */
static void plan_text(const char *text, struct planned *pl)
{
	struct yp_options o = {NULL, 0, builtins, 1, NULL, NULL};

	memset(pl, 0, sizeof(*pl));
	if (yp_load_string("job.yaml", text, strlen(text), &o, &pl->s, &pl->d) < 0)
		fail_msg("%s", pl->d.n ? pl->d.msgs[0] : "the job file is refused");
	pl->status = plan_build(&pl->s, SCRATCH, 42, &pl->p, &pl->d);
}

static void planned_release(struct planned *pl)
{
	plan_release(&pl->p);
	spec_release(&pl->s);
	diag_release(&pl->d);
}

static void test_matrix_order_and_values(void **state)
{
	static const char *names[] = {
	    "r[block_size=4096,iodepth=1]", "r[block_size=4096,iodepth=2]",
	    "r[block_size=4096,iodepth=4]", "r[block_size=8192,iodepth=1]",
	    "r[block_size=8192,iodepth=2]", "r[block_size=8192,iodepth=4]",
	};
	static const unsigned depths[] = {1, 2, 4};
	struct planned pl;

	(void)state;
	plan_text("jobs:\n"
		  "  - name: r\n"
		  "    workload: read\n"
		  "    backend: null\n"
		  "    file_size: 64KiB\n"
		  "    matrix:\n"
		  "      block_size: [4KiB, 8KiB]\n"
		  "      iodepth: [1, 2, 4]\n",
		  &pl);
	assert_int_equal(pl.status, 0);
	assert_int_equal(pl.p.ninst, 6);
	for (size_t i = 0; i < 6; i++) {
		const struct instance *in = &pl.p.inst[i];
		const struct src_loc *loc;
		/* The first key varies slowest; the job's values are the point's. */
		assert_string_equal(in->name, names[i]);
		assert_int_equal(in->npoint, 2);
		assert_int_equal(in->job.block_size, i < 3 ? 4096 : 8192);
		assert_int_equal(in->job.iodepth, depths[i % 3]);
		assert_int_equal(instance_point(in, 1, &loc)->u, in->job.iodepth);
		/* The place of its own value in the list: line 8, column 17 + 3 per value. */
		assert_int_equal(loc->line, 8);
		assert_int_equal(loc->col, 17 + 3 * (i % 3));
		assert_ptr_equal(instance_key_loc(in, JK_IODEPTH), loc);
		/* The strings of the parsed job are shared, not copied. */
		assert_ptr_equal(in->job.name, pl.s.jobs[0].name);
	}
	planned_release(&pl);
}

static void test_exclude(void **state)
{
	struct planned pl;

	(void)state;
	plan_text(
	    "jobs:\n"
	    "  - {name: r, workload: read, backend: null, file_size: 64KiB,\n"
	    "     matrix: {block_size: [4KiB, 8KiB], iodepth: [1, 2]},\n"
	    "     exclude: [{block_size: 8KiB, iodepth: 1}, {block_size: 4KiB, iodepth: 2}]}\n",
	    &pl);
	assert_int_equal(pl.status, 0);
	assert_int_equal(pl.p.ninst, 2);
	assert_string_equal(pl.p.inst[0].name, "r[block_size=4096,iodepth=1]");
	assert_string_equal(pl.p.inst[1].name, "r[block_size=8192,iodepth=2]");
	/* point_no counts the excluded points too: the instance's values come from it. */
	assert_int_equal(pl.p.inst[1].point_no, 3);
	assert_int_equal(instance_point(&pl.p.inst[1], 0, NULL)->u, 8192);
	planned_release(&pl);
}

/* An error found in one instance points at its own matrix value, not at the job. */
static void test_error_at_matrix_value(void **state)
{
	struct planned pl;

	(void)state;
	plan_text("jobs:\n"
		  "  - {name: r, workload: read, backend: null, file_size: 64KiB,\n"
		  "     matrix: {iodepth: [1, 2], block_size: [4KiB, 128KiB]}}\n",
		  &pl);
	assert_int_equal(pl.status, PLAN_ESPEC);
	assert_int_equal(pl.d.n, 2);
	assert_string_equal(
	    pl.d.msgs[0],
	    "job.yaml:3:51: key 'block_size': 131072 bytes is larger than file_size (65536 bytes)");
	planned_release(&pl);
}

static void test_shared_file(void **state)
{
	struct planned pl;
	const struct plan_file *first;

	(void)state;
	/* Copies of one source file under the scratch folder: made once, for all of them. */
	plan_text("defaults: {workload: copy, source: \"${scratch}/src.bin\"}\n"
		  "jobs:\n"
		  "  - {name: c, file_size: 64KiB}\n"
		  "  - {name: m, matrix: {file_size: [32KiB, 128KiB]}}\n"
		  "  - {name: o, file_size: 64KiB, source: \"${scratch}/other.bin\"}\n",
		  &pl);
	assert_int_equal(pl.status, 0);
	assert_int_equal(pl.p.ninst, 4);
	first = &pl.p.inst[0].src;
	assert_string_equal(first->path, SCRATCH "/src.bin");
	assert_true(first->create);
	assert_null(first->owner);
	/* The first instance owns the file, laid out as large as the largest use. */
	assert_ptr_equal(pl.p.inst[1].src.owner, first);
	assert_ptr_equal(pl.p.inst[2].src.owner, first);
	assert_int_equal(first->size, 128 * 1024);
	assert_null(pl.p.inst[3].src.owner);
	assert_string_equal(pl.p.inst[3].src.path, SCRATCH "/other.bin");
	/* A copy's destination is its own. */
	for (size_t i = 0; i < 4; i++)
		assert_null(pl.p.inst[i].data.owner);
	planned_release(&pl);
}

/* {device} is expanded once per job and device: the job's other instances borrow it. */
static void test_expansion_shared(void **state)
{
	struct planned pl;

	(void)state;
	plan_text("devices: {a: \"${scratch}/a\", b: \"${scratch}/b\"}\n"
		  "jobs:\n"
		  "  - {name: r, workload: read, backend: null, file_size: 64KiB, device: a,\n"
		  "     target: \"{device}/f\", matrix: {device: [a, b], iodepth: [1, 2]}}\n",
		  &pl);
	assert_int_equal(pl.status, 0);
	assert_int_equal(pl.p.ninst, 4);
	for (size_t i = 0; i < 4; i++)
		assert_string_equal(pl.p.inst[i].job.target,
				    i < 2 ? SCRATCH "/a/f" : SCRATCH "/b/f");
	assert_true(pl.p.inst[0].own_target);
	assert_false(pl.p.inst[1].own_target);
	assert_ptr_equal(pl.p.inst[1].job.target, pl.p.inst[0].job.target);
	assert_true(pl.p.inst[2].own_target);
	assert_ptr_equal(pl.p.inst[3].job.target, pl.p.inst[2].job.target);
	planned_release(&pl);
}

/* Each job's stage, in the order of its instances. */
static void stages_of(const struct plan *p, size_t *stage)
{
	for (size_t u = 0; u < p->nunits; u++)
		for (size_t k = 0; k < p->units[u].n; k++)
			stage[p->units[u].inst[k]] = p->units[u].stage;
}

static void test_stages(void **state)
{
	struct planned pl;
	size_t stage[4];

	(void)state;
	plan_text("replication: {runs: 2, order: sequential}\n"
		  "defaults: {workload: read, backend: null, file_size: 64KiB}\n"
		  "jobs:\n"
		  "  - {name: a, after: [c]}\n"
		  "  - {name: b}\n"
		  "  - {name: c}\n"
		  "  - {name: d, with: c}\n",
		  &pl);
	assert_int_equal(pl.status, 0);
	assert_int_equal(pl.p.nstages, 3);
	stages_of(&pl.p, stage);
	/* c (with d) must come before a, and b after a, as the file lists them. */
	assert_int_equal(stage[2], 0);
	assert_int_equal(stage[3], 0);
	assert_int_equal(stage[0], 1);
	assert_int_equal(stage[1], 2);
	/* Sequential: each unit's two trials one after the other, stage by stage. */
	assert_int_equal(pl.p.ntrials, 6);
	for (size_t k = 0; k < pl.p.ntrials; k++) {
		assert_int_equal(pl.p.order[k].index, k % 2);
		assert_int_equal(pl.p.units[pl.p.order[k].unit].stage, k / 2);
	}
	planned_release(&pl);
}

static void test_graph_errors(void **state)
{
	struct planned pl;

	(void)state;
	plan_text("defaults: {workload: read, backend: null, file_size: 64KiB}\n"
		  "jobs:\n"
		  "  - {name: a, after: [b]}\n"
		  "  - {name: b, after: [a]}\n",
		  &pl);
	assert_int_equal(pl.status, PLAN_ESPEC);
	assert_int_equal(pl.d.n, 1);
	assert_string_equal(
	    pl.d.msgs[0],
	    "job.yaml:3:5: key 'after': the jobs wait for each other in a cycle (job 'a' is in it)");
	planned_release(&pl);
}

static void test_compare_pairs(void **state)
{
	struct planned pl;

	(void)state;
	plan_text("devices: {usb: \"${scratch}/usb\", sata: \"${scratch}/sata\"}\n"
		  "jobs:\n"
		  "  - {name: c, workload: read, backend: null, file_size: 64KiB, device: usb,\n"
		  "     matrix: {device: [usb, sata], block_size: [4KiB, 8KiB, 16KiB]}}\n"
		  "compare:\n"
		  "  - {a: {device: usb}, b: {device: sata}}\n",
		  &pl);
	assert_int_equal(pl.status, 0);
	assert_int_equal(pl.p.ncmp, 3);
	for (size_t i = 0; i < pl.p.ncmp; i++) {
		const struct instance *a = &pl.p.inst[pl.p.cmp[i].a];
		const struct instance *b = &pl.p.inst[pl.p.cmp[i].b];
		/* Each block size against its own: every key the comparison does not name equal. */
		assert_string_equal(a->job.device, "usb");
		assert_string_equal(b->job.device, "sata");
		assert_int_equal(a->job.block_size, 4096u << i);
		assert_int_equal(b->job.block_size, a->job.block_size);
	}
	planned_release(&pl);
}

static void test_compare_ambiguous(void **state)
{
	struct planned pl;

	(void)state;
	plan_text("jobs:\n"
		  "  - {name: c, workload: read, backend: null, file_size: 64KiB,\n"
		  "     matrix: {iodepth: [1, 2], block_size: [4KiB, 8KiB]}}\n"
		  "compare:\n"
		  "  - {a: {iodepth: 1, block_size: 4KiB}, b: {iodepth: 2}}\n",
		  &pl);
	assert_int_equal(pl.status, PLAN_ESPEC);
	assert_int_equal(pl.d.n, 1);
	assert_string_equal(
	    pl.d.msgs[0],
	    "job.yaml:5:5: key 'compare': 'c[iodepth=1,block_size=4096]' (a) matches more than one instance of 'iodepth=2' (b); name more keys on each side");
	planned_release(&pl);
}

/* Jobs sharing one matrix of `points` points through an alias. */
static char *alias_jobs(size_t jobs, unsigned to)
{
	size_t cap = 256 + jobs * 96, o;
	char *t = malloc(cap);

	assert_non_null(t);
	o = (size_t)snprintf(
	    t, cap,
	    "jobs:\n  - {name: j0, workload: read, backend: null, file_size: 64KiB, matrix: &m {rate_iops: {from: 1, to: %u, step: 1}, iodepth: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}}\n",
	    to);
	for (size_t k = 1; k < jobs; k++)
		o += (size_t)snprintf(
		    t + o, cap - o,
		    "  - {name: j%zu, workload: read, backend: null, file_size: 64KiB, matrix: *m}\n",
		    k);
	return t;
}

static void test_bounds(void **state)
{
	struct planned pl;
	char *text;

	(void)state;
	/* 10 jobs x 10000 points: exactly the bound. */
	text = alias_jobs(10, 1000);
	plan_text(text, &pl);
	assert_int_equal(pl.status, 0);
	assert_int_equal(pl.p.ninst, PLAN_MAX_INSTANCES);
	assert_string_equal(pl.p.inst[PLAN_MAX_INSTANCES - 1].name,
			    "j9[rate_iops=1000,iodepth=10]");
	planned_release(&pl);
	free(text);
	/* One point more: refused before anything is built, at the job that crosses it. */
	text = alias_jobs(11, 1000);
	plan_text(text, &pl);
	assert_int_equal(pl.status, PLAN_ESPEC);
	assert_int_equal(pl.p.ninst, 0);
	assert_int_equal(pl.d.n, 1);
	assert_string_equal(
	    pl.d.msgs[0],
	    "job.yaml:12:5: the plan expands to 110000 job instances (the matrix points of its 11 jobs, before exclude), more than the bound of 100000");
	planned_release(&pl);
	free(text);
	/* One job past the bound alone. */
	plan_text(
	    "jobs:\n"
	    "  - {name: j0, workload: read, backend: null, file_size: 64KiB,\n"
	    "     matrix: {rate_iops: {from: 1, to: 10000, step: 1}, iodepth: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]}}\n",
	    &pl);
	assert_int_equal(pl.status, PLAN_ESPEC);
	assert_int_equal(pl.d.n, 1);
	assert_string_equal(
	    pl.d.msgs[0],
	    "job.yaml:2:5: key 'matrix': job 'j0' expands to more than 100000 points");
	planned_release(&pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_matrix_order_and_values),
	    cmocka_unit_test(test_exclude),
	    cmocka_unit_test(test_error_at_matrix_value),
	    cmocka_unit_test(test_shared_file),
	    cmocka_unit_test(test_expansion_shared),
	    cmocka_unit_test(test_stages),
	    cmocka_unit_test(test_graph_errors),
	    cmocka_unit_test(test_compare_pairs),
	    cmocka_unit_test(test_compare_ambiguous),
	    cmocka_unit_test(test_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
