/* Unit tests for lib/child.c: a shell command's status as a shell shows it, its output into
 * the descriptor given, and the TERM-then-KILL stop of its whole process group. */
#include "lib/child.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Asked to stop 0.3 s after `arg` (a start time), time for the shell to set its traps. */
static bool later(const void *arg)
{
	return now_s() - *(const double *)arg > 0.3;
}

/* `cmd` run to its end (asking `stop` while it runs): its status, and in *stopped whether it
 * was signalled. */
static int run(const char *cmd, int out, bool (*stop)(const void *), bool *stopped)
{
	double t0 = now_s();
	pid_t pid = child_start(cmd, out);

	assert_true(pid > 0);
	return child_wait(pid, stop, &t0, stopped);
}

static void test_status(void **state)
{
	static const struct {
		const char *cmd;
		int want;
	} cases[] = {
	    {"true", 0},
	    {"exit 3", 3},
	    {"kill -9 $$", 128 + 9},
	    {"exec /nonexistent/x 2>/dev/null", 127},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool stopped = true;
		assert_int_equal(run(cases[i].cmd, -1, NULL, &stopped), cases[i].want);
		assert_false(stopped);
	}
}

static void test_output(void **state)
{
	char path[] = "/tmp/iotrial-test-child.XXXXXX", buf[64] = "";
	int fd = mkstemp(path);
	bool stopped;

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	/* stdin is /dev/null: cat ends at once and adds nothing. */
	assert_int_equal(run("echo out; echo err >&2; cat", fd, NULL, &stopped), 0);
	assert_int_equal(pread(fd, buf, sizeof(buf) - 1, 0), 8);
	assert_string_equal(buf, "out\nerr\n");
	close(fd);
}

/* Asked to stop: SIGTERM to the whole group (the shell and its sleep); 143 says that it, not
 * the sleep's end (0) nor SIGKILL (137), ended the shell. */
static void test_term(void **state)
{
	bool stopped = false;

	(void)state;
	assert_int_equal(run("sleep 30 & wait", -1, later, &stopped), 128 + 15);
	assert_true(stopped);
}

/* A command that ignores SIGTERM gets SIGKILL a second later (137, not the sleep's end). */
static void test_kill(void **state)
{
	double t0 = now_s();
	bool stopped = false;

	(void)state;
	assert_int_equal(run("trap '' TERM; sleep 30 & wait", -1, later, &stopped), 128 + 9);
	assert_true(stopped);
	assert_true(now_s() - t0 >= 1.3);
}

/* How many processes of group `pgid` are alive (zombies aside: whoever reaps the orphans
 * of this machine's PID 1 may take its time). */
static int alive_in_group(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[300], line[512], state;
		int group;
		FILE *f;
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		if (fgets(line, sizeof(line), f) && strrchr(line, ')') &&
		    sscanf(strrchr(line, ')') + 1, " %c %*d %d", &state, &group) == 2 &&
		    group == pgid && state != 'Z' && state != 'X')
			n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

/* The shell ends at SIGTERM, but what it started ignores it: the group still gets SIGKILL a
 * second later, and nothing of it is alive a moment after child_wait returns (not 30 s later). */
static void test_group_after_shell(void **state)
{
	double t0 = now_s();
	pid_t pid = child_start("sh -c 'trap \"\" TERM; exec sleep 30' & wait", -1);
	bool stopped = false;

	(void)state;
	assert_true(pid > 0);
	assert_int_equal(child_wait(pid, later, &t0, &stopped), 128 + 15);
	assert_true(stopped);
	for (int i = 0; i < 100 && alive_in_group(pid); i++)
		usleep(10000); /* a SIGKILL sent takes effect a moment later */
	assert_int_equal(alive_in_group(pid), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_status),
	    cmocka_unit_test(test_output),
	    cmocka_unit_test(test_term),
	    cmocka_unit_test(test_kill),
	    cmocka_unit_test(test_group_after_shell),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
