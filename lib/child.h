/* A shell command as a child process (lib/child.c): started in a process group of its own,
 * which dies with iotrial, and waited for; when asked to stop, the whole group gets SIGTERM,
 * then SIGKILL if it has not gone a second later. For the prepare and cleanup hooks and the
 * command workload. */
#ifndef IOTRIAL_CHILD_H
#define IOTRIAL_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

/* Start `/bin/sh -c cmd`, the leader of a process group of its own, which gets SIGKILL when
 * iotrial ends (a SIGKILL of it, or a second Ctrl-C). `out`: its stdout and stderr, with
 * /dev/null as its stdin; -1: all three inherited. Returns its pid, or -errno. */
pid_t child_start(const char *cmd, int out);

/* Wait for `pid` (from child_start) to end. Every 10 ms, `stop(arg)` is asked (a NULL `stop`:
 * never); once it says true, its process group gets SIGTERM, and SIGKILL when it has not
 * ended a second later. Returns its status as a shell shows it (its exit status, or 128 + N
 * for signal N), or -errno; `*stopped` says whether it was signalled. */
int child_wait(pid_t pid, bool (*stop)(const void *arg), const void *arg, bool *stopped);

#endif
