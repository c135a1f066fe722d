/* A worker's scheduling (see worker_sched.h). */
#include "engine/io/worker_sched.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ioprio_set(2) has no glibc wrapper; its encoding is the kernel's (linux/ioprio.h). */
#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_WHO_PROCESS 1

int worker_sched_apply(const struct wl_sched *s, char *why, size_t len)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);

	if (s->cpus_set) {
		cpu_set_t set;
		CPU_ZERO(&set);
		for (int c = 0; c < WL_CPUS_MAX && c < CPU_SETSIZE; c++)
			if (s->cpus[c / 64] >> (c % 64) & 1)
				CPU_SET(c, &set);
		if (sched_setaffinity(tid, sizeof(set), &set) < 0)
			goto fail_errno_cpus;
	}
	if (s->nice_set && setpriority(PRIO_PROCESS, (id_t)tid, s->nice) < 0) {
		snprintf(why, len, "nice %d: %s", s->nice, strerror(errno));
		return -errno;
	}
	if (s->ioprio_class &&
	    syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, tid,
		    (int)s->ioprio_class << IOPRIO_CLASS_SHIFT | s->ioprio_level) < 0) {
		snprintf(why, len, "ioprio class %d level %d: %s", (int)s->ioprio_class,
			 s->ioprio_level, strerror(errno));
		return -errno;
	}
	if (s->policy) {
		struct sched_param sp = {.sched_priority = 1};
		if (sched_setscheduler(tid, s->policy == 1 ? SCHED_FIFO : SCHED_RR, &sp) < 0) {
			snprintf(why, len, "sched %s: %s", s->policy == 1 ? "fifo" : "rr",
				 strerror(errno));
			return -errno;
		}
	}
	return 0;
fail_errno_cpus:
	snprintf(why, len, "cpus: %s", strerror(errno));
	return -errno;
}
