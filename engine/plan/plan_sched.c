/* The workers' scheduling (cpus, nice, ioprio, sched), parsed for them and checked against
 * what this process may do, before anything runs: a priority it may not take is a job-file
 * error at the key, not a failed trial. */
#include <errno.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/plan/plan.h"
#include "engine/plan/plan_internal.h"
#include "model/jobkeys.h"

/* Is capability `cap` in this process's effective set? */
static bool have_cap(int cap)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return false;
	return d[cap / 32].effective & (1u << (cap % 32));
}

/* May this process set nice value `nice` on its threads? Lowering it takes CAP_SYS_NICE or
 * an RLIMIT_NICE of at least 20 - nice. */
static bool nice_allowed(int nice)
{
	struct rlimit rl;

	errno = 0;
	int now = getpriority(PRIO_PROCESS, 0);
	if (errno == 0 && nice >= now)
		return true;
	if (have_cap(CAP_SYS_NICE))
		return true;
	return getrlimit(RLIMIT_NICE, &rl) == 0 &&
	       (rl.rlim_cur == RLIM_INFINITY || (long)rl.rlim_cur >= 20 - nice);
}

static bool rt_allowed(void)
{
	struct rlimit rl;

	if (have_cap(CAP_SYS_NICE))
		return true;
	return getrlimit(RLIMIT_RTPRIO, &rl) == 0 &&
	       (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= 1);
}

static void check_cpus(struct planner *pl, const struct instance *in, const struct wl_sched *s)
{
	cpu_set_t mine;

	if (sched_getaffinity(0, sizeof(mine), &mine) < 0)
		return;
	for (int c = 0; c < WL_CPUS_MAX; c++)
		if ((s->cpus[c / 64] >> (c % 64) & 1) &&
		    (c >= CPU_SETSIZE || !CPU_ISSET(c, &mine))) {
			plan_fail(
			    pl, PLAN_ESPEC, plan_where(in, JK_CPUS),
			    "key 'cpus': CPU %d is not one this process may run on (%d online)", c,
			    (int)sysconf(_SC_NPROCESSORS_ONLN));
			return;
		}
}

void plan_sched(struct planner *pl, struct instance *in)
{
	const struct job_spec *j = &in->job;
	struct wl_sched s = {0};
	char err[256];

	if (!j->cpus && !j->nice && !j->ioprio && !j->sched)
		return;
	if ((j->cpus && wl_cpus_parse(j->cpus, &s, err, sizeof(err)) < 0) ||
	    (j->nice && wl_nice_parse(j->nice, &s, err, sizeof(err)) < 0) ||
	    (j->ioprio && wl_ioprio_parse(j->ioprio, &s, err, sizeof(err)) < 0))
		return; /* the parser said so where it was written */
	s.policy = j->sched;
	if (j->workload == WL_COMMAND)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, j->cpus ? JK_CPUS : JK_SCHED),
		    "key '%s': a command runs as its own program; iotrial schedules its own workers only",
		    j->cpus ? "cpus" : "sched");
	if (s.cpus_set)
		check_cpus(pl, in, &s);
	if (s.nice_set && !nice_allowed(s.nice))
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_NICE),
		    "key 'nice': %d raises the priority, which this process may not (it needs CAP_SYS_NICE or RLIMIT_NICE)",
		    s.nice);
	if (s.ioprio_class == WL_IOPRIO_RT && !have_cap(CAP_SYS_NICE) && !have_cap(CAP_SYS_ADMIN))
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_IOPRIO),
		    "key 'ioprio': class rt needs CAP_SYS_NICE or CAP_SYS_ADMIN, which this process does not have");
	if (s.policy && !rt_allowed())
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_SCHED),
		    "key 'sched': real-time scheduling (%s) needs CAP_SYS_NICE or an RLIMIT_RTPRIO of at least 1, which this process does not have",
		    j->sched == 1 ? "fifo" : "rr");
	if (pl->status == PLAN_ESPEC)
		return;
	if (!in->wl && !(in->wl = calloc(1, sizeof(*in->wl)))) {
		plan_oom(pl);
		return;
	}
	in->wl->scheduled = true;
	in->wl->sched = s;
}
