/* Unit tests for engine/run/logcut.c: a resumed run's log cut back to the trials it keeps,
 * and the kept trials whose lines the log no longer holds, whole or in part: a record log
 * has one line per I/O, an interval log's ios fields add up to the trial's. */
#include "engine/run/logcut.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/io/reclog.h"

/* Three trials: 0 and 1 kept (seq), 2 cut short (no seq), each of 2 I/Os. */
#define REC0 "0,0,1,0,4096,10,5,0\n0,0,2,4096,4096,20,5,0\n"
#define REC1 "1,0,1,0,4096,10,5,0\n1,0,2,4096,4096,20,5,0\n"
#define REC2 "2,0,1,0,4096,10,5,0\n"
#define IVL0 "0,0,0,10,8192,2,1,1,5,0\n"
#define IVL1 "1,0,0,10,4096,1,1,1,5,0\n1,0,10,20,4096,1,1,1,5,0\n"

static const struct logcut_case {
	const char *what;
	enum logcut_kind kind;
	const char *log;
	size_t kept_len; /* what is left of the log */
	bool lost[2];	 /* which kept trials get log_error */
} cases[] = {
    {"whole",
     LOGCUT_RECORDS,
     RECLOG_HEADER REC0 REC1 REC2,
     sizeof(RECLOG_HEADER REC0 REC1) - 1,
     {false, false}},
    {"cut inside trial 1",
     LOGCUT_RECORDS,
     RECLOG_HEADER REC0 "1,0,1,0,4096,10,5,0\n",
     sizeof(RECLOG_HEADER REC0 "1,0,1,0,4096,10,5,0\n") - 1,
     {false, true}},
    {"cut inside a line of trial 1",
     LOGCUT_RECORDS,
     RECLOG_HEADER REC0 REC1 "1,0,3,8",
     sizeof(RECLOG_HEADER REC0 REC1) - 1,
     {false, false}},
    {"a line of trial 0 lost",
     LOGCUT_RECORDS,
     RECLOG_HEADER "0,0,1,0,4096,10,5,0\n" REC1,
     sizeof(RECLOG_HEADER "0,0,1,0,4096,10,5,0\n" REC1) - 1,
     {true, false}},
    {"a line added",
     LOGCUT_RECORDS,
     RECLOG_HEADER REC0 REC1 "1,0,3,0,4096,30,5,0\n",
     sizeof(RECLOG_HEADER REC0 REC1 "1,0,3,0,4096,30,5,0\n") - 1,
     {false, false}},
    {"header only", LOGCUT_RECORDS, RECLOG_HEADER, sizeof(RECLOG_HEADER) - 1, {true, true}},
    {"empty", LOGCUT_RECORDS, "", 0, {true, true}},
    {"intervals whole",
     LOGCUT_INTERVALS,
     INTLOG_HEADER IVL0 IVL1,
     sizeof(INTLOG_HEADER IVL0 IVL1) - 1,
     {false, false}},
    {"intervals cut inside trial 1",
     LOGCUT_INTERVALS,
     INTLOG_HEADER IVL0 "1,0,0,10,4096,1,1,1,5,0\n",
     sizeof(INTLOG_HEADER IVL0 "1,0,0,10,4096,1,1,1,5,0\n") - 1,
     {false, true}},
    {"intervals of trial 0 with fewer ios",
     LOGCUT_INTERVALS,
     INTLOG_HEADER "0,0,0,10,8192,1,1,1,5,0\n" IVL1,
     sizeof(INTLOG_HEADER "0,0,0,10,8192,1,1,1,5,0\n" IVL1) - 1,
     {true, false}},
};

static void logcut_cases(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct logcut_case *k = &cases[c];
		struct trial_result tr[3] = {{.index = 0, .seq = 1, .ios = 2},
					     {.index = 1, .seq = 2, .ios = 2},
					     {.index = 2, .seq = 0, .ios = 2}};
		struct instance_result ir = {.trials = tr, .ntrials = 3};
		uint64_t ios[3] = {0};
		int fd = memfd_create("log", 0);
		struct stat st;

		assert_true(fd >= 0);
		assert_int_equal(write(fd, k->log, strlen(k->log)), (ssize_t)strlen(k->log));
		assert_int_equal(logcut_keep(fd, &ir, k->kind, ios), k->log[0] == '\0');
		assert_int_equal(fstat(fd, &st), 0);
		assert_int_equal(st.st_size, (off_t)k->kept_len);
		assert_int_equal(logcut_missing(&ir, ios), k->lost[0] + k->lost[1]);
		for (int t = 0; t < 2; t++) {
			if (k->lost[t] != (tr[t].log_error != NULL))
				fail_msg("%s: trial %d: log_error %s", k->what, t,
					 tr[t].log_error ? tr[t].log_error : "(none)");
			free(tr[t].log_error);
		}
		assert_null(tr[2].log_error);
		close(fd);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(logcut_cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
