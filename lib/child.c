/* Shell commands as children (see child.h): one way to start them and one way to stop them,
 * for every caller. */
#include "lib/child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHILD_POLL_NS  10000000L     /* how often child_wait looks */
#define CHILD_GRACE_NS 1000000000ull /* from SIGTERM to SIGKILL */

pid_t child_start(const char *cmd, int out)
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		return -errno;
	if (pid != 0)
		return pid;
	setpgid(0, 0);
	/* A worker thread blocks the stop signals (trial_slot.c): its command does not. */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* Not past iotrial's end (a SIGKILL of it, or a second Ctrl-C). */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	if (out >= 0) {
		int in = open("/dev/null", O_RDONLY);
		if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
			_exit(127);
	}
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	_exit(127);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int child_wait(pid_t pid, bool (*stop)(const void *arg), const void *arg, bool *stopped)
{
	struct timespec tick = {0, CHILD_POLL_NS};
	uint64_t term_ns = 0; /* when the group got SIGTERM; 0: not yet */
	int status = 0;

	/* Also here: the parent may look before the child has made its group. */
	setpgid(pid, pid);
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (stop && stop(arg)) {
			if (!term_ns) {
				kill(-pid, SIGTERM);
				term_ns = now_ns();
			} else if (now_ns() - term_ns > CHILD_GRACE_NS) {
				kill(-pid, SIGKILL);
			}
		}
		nanosleep(&tick, NULL);
	}
	/* The shell may end at SIGTERM while what it started ignores it: the rest of its group
	 * gets the same grace, then SIGKILL, so no part of a stopped command outlives it. */
	while (term_ns && kill(-pid, 0) == 0 && now_ns() - term_ns <= CHILD_GRACE_NS)
		nanosleep(&tick, NULL);
	if (term_ns)
		kill(-pid, SIGKILL);
	*stopped = term_ns != 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
