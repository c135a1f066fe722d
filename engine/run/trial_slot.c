/* A worker's slot in a trial (see trial_slot.h): started as a thread or as a process
 * that never outlives iotrial, its files opened through the run's ledger, the worker loop
 * (or a copytree or command) run, and waited for, passing the user's interrupt on to a
 * worker process. */
#include "engine/run/trial_slot.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/cacheline.h"
#include "engine/io/buffers.h"
#include "engine/run/files.h"
#include "engine/run/loads.h"
#include "engine/run/look.h"
#include "engine/io/worker.h"
#include "engine/io/worker_sched.h"

uint64_t trial_seed(uint64_t seed, uint64_t a, uint64_t b)
{
	uint64_t z = seed ^ (a * 0x9e3779b97f4a7c15ull) ^ (b + 0x632be59bd9b4e019ull + (a << 6));
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void trial_error(struct trial_result *tr, const char *fmt, ...)
{
	va_list ap;

	tr->failed = true;
	tr->kept = false;
	if (tr->error)
		return;
	va_start(ap, fmt);
	if (vasprintf(&tr->error, fmt, ap) < 0)
		tr->error = NULL;
	va_end(ap);
}

int trial_open_flags(const struct job_spec *j, bool writes)
{
	int fl = writes ? O_WRONLY : O_RDONLY;

	if (spec_workload_mixed(j->workload))
		fl = O_RDWR;

	if (j->direct)
		fl |= O_DIRECT;
	if (writes && j->sync == SYNC_OSYNC)
		fl |= O_SYNC;
	if (writes && j->sync == SYNC_ODSYNC)
		fl |= O_DSYNC;
	return fl;
}

/* The seed of the verify pattern a file is laid out with: one per path (without a
 * worker's suffix), so instances and workers that share a file agree on it. */
uint64_t trial_layout_seed(const struct plan *p, const char *path)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * 1099511628211ull;
	return trial_seed(p->seed, h, 0xf11e);
}

/* A copytree's own reading position in its source `path`: in the tree iotrial laid out, or
 * in the existing folder the plan checked (pinned: another folder or a symlink put in its
 * place is refused, with the reason in `why`). Returns the fd or -errno. */
static int tree_source(const struct ledger *l, const char *path, char *why, size_t len)
{
	const struct ledger_entry *from = ledger_find(l, path);
	int fd;

	if (from && from->fd < 0)
		return look_open(l, path, O_RDONLY | O_DIRECTORY, why, len);
	fd = from ? openat(from->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
		  : open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return fd;
}

/* A copytree or command worker: no backend, the loads (loads.h) do the work. */
static void slot_loads(struct slot *s)
{
	const struct job_spec *j = &s->run->in->job;
	struct loads_tree t = {s->src_path, s->data_path, -1, -1, -1, NULL};
	char why[512];

	if (j->workload == WL_COPYTREE) {
		/* Its own reading position in the source; the copy's root, made for it. */
		const struct ledger_entry *to = ledger_find(s->run->ledger, s->data_path);
		t.src_fd = tree_source(s->run->ledger, s->src_path, why, sizeof(why));
		t.src_why = t.src_fd == -ESTALE ? why : NULL;
		t.dst_fd = to ? to->fd : -1;
		t.dst_log = to ? to->log : -1;
	}
	s->sh->ret = loads_run(&s->job, j, &t, s->sh->err, sizeof(s->sh->err), &s->sh->out);
	if (t.src_fd >= 0)
		close(t.src_fd);
	s->sh->done = 1;
}

/* A worker: its own backend state and file descriptors, then the worker loop (which waits
 * on the barrier once its buffers are ready). */
static void *slot_main(void *arg)
{
	struct slot *s = arg;
	const struct instance *in = s->run->in;
	const struct job_spec *j = &in->job;
	bool copy = j->workload == WL_COPY, writes = spec_workload_writes(j->workload);
	struct be_config cfg = {j->iodepth,  j->direct,	 j,
				s->job.seed, s->sh->err, sizeof(s->sh->err)};
	void *priv;
	int ret = -ENOMEM, fd = -1, src = -1;
	struct worker_out *out = s->topup ? &s->sh->top : &s->sh->out;

	/* The run's histograms in the first, a top-up's in the second (trial.c). */
	s->job.extra = s->extra ? s->extra + s->topup : NULL;

	int *result = s->topup ? &s->sh->top_ret : &s->sh->ret;

	/* The barriers are set once the coordinator knows how many workers started. */
	if (s->launch && s->job.ready)
		while (sem_wait(s->launch) < 0 && errno == EINTR)
			;

	if (j->workload == WL_COPYTREE || j->workload == WL_COMMAND) {
		slot_loads(s);
		return NULL;
	}
	if (!(priv = cacheline_zalloc(in->be->priv_size)))
		goto fail;
	if (s->job.sched &&
	    (ret = worker_sched_apply(s->job.sched, s->sh->err, sizeof(s->sh->err))) < 0)
		goto fail;
	if (in->be->init && (ret = in->be->init(priv, &cfg)) < 0) {
		char why[sizeof(s->sh->err)];
		snprintf(why, sizeof(why), "%s", s->sh->err[0] ? s->sh->err : strerror(-ret));
		snprintf(s->sh->err, sizeof(s->sh->err), "backend '%s': cannot start: %.900s",
			 in->be->name, why);
		goto fail;
	}
	/* iotrial's own files relative to the folder it holds, and only while still its own
	 * (a copy's destination was made in prepare); a file named in the job file by path. */
	if (copy && (src = ret = files_open(s->run->ledger, in->be, priv, s->src_path,
					    trial_open_flags(j, false), s->sh->err,
					    sizeof(s->sh->err))) < 0)
		goto fail_cleanup;
	fd = ret = files_open(s->run->ledger, in->be, priv, s->data_path,
			      trial_open_flags(j, copy || writes), s->sh->err, sizeof(s->sh->err));
	if (fd < 0)
		goto fail_close;
	s->job.priv = priv;
	s->job.fd = fd;
	s->job.src_fd = src;
	*result = worker_run(&s->job, out);
	in->be->close(priv, fd);
	if (src >= 0)
		in->be->close(priv, src);
	if (in->be->cleanup)
		in->be->cleanup(priv);
	free(priv);
	s->sh->done = 1;
	return NULL;

fail_close:
	if (src >= 0)
		in->be->close(priv, src);
fail_cleanup:
	if (in->be->cleanup)
		in->be->cleanup(priv);
fail:
	if (!s->sh->err[0])
		snprintf(s->sh->err, sizeof(s->sh->err), "out of memory");
	*result = ret < 0 ? ret : -ENOMEM;
	out->errors = 1;
	worker_gate(&s->job); /* the others must not wait for us */
	free(priv);
	s->sh->done = 1;
	return NULL;
}

/* A worker thread takes none of the stop signals sent to iotrial; they all go to the thread
 * that started it, whose handler takes them one at a time and in the order sent (a SIGTERM
 * and then a SIGINT were taken in the other order when two threads ran the handler at once).
 * The threads a worker starts (the record log's writer) inherit this; a command it starts
 * gets every signal back (child_start). */
static int slot_thread_start(struct slot *s)
{
	sigset_t stops, old;
	int err;

	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stops, &old);
	err = pthread_create(&s->thread, NULL, slot_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

int trial_slot_start(struct slot *s)
{
	if (s->run->in->job.worker_mode == WORKER_PROCESS) {
		pid_t parent = getpid();
		s->pid = fork();
		if (s->pid < 0)
			return -errno;
		if (s->pid == 0) {
			/* Never outlive iotrial: a SIGKILL or a second Ctrl-C ends the workers
			 * too. A parent already gone before the signal was set: leave now. */
			if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
				_exit(1);
			slot_main(s);
			_exit(0);
		}
	} else if ((errno = slot_thread_start(s)) != 0) {
		return -errno;
	}
	s->started = true;
	return 0;
}

static void init_barriers(struct sync_area *sync, unsigned n, bool processes)
{
	pthread_barrierattr_t attr;

	pthread_barrierattr_init(&attr);
	if (processes)
		pthread_barrierattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_barrier_init(&sync->ready, &attr, n);
	pthread_barrier_init(&sync->barrier, &attr, n);
	pthread_barrierattr_destroy(&attr);
}

int trial_slots_start(struct inst_run *runs, size_t n, struct sync_area *sync, bool processes)
{
	unsigned started = 0;
	int ret = sem_init(&sync->launch, processes, 0) < 0 ? -errno : 0;

	for (size_t k = 0; k < n && ret == 0; k++)
		for (uint32_t w = 0; runs[k].ready && w < runs[k].n && ret == 0; w++) {
			runs[k].slots[w].launch = &sync->launch;
			if ((ret = trial_slot_start(&runs[k].slots[w])) == 0)
				started++;
			else
				trial_error(runs[k].tr,
					    "cannot start worker %u: %s (the run stops here)", w,
					    strerror(-ret));
		}
	if (ret < 0) {
		/* The workers that did start do no I/O: the trial is not run. */
		sync->cancel = 1;
		for (size_t k = 0; k < n; k++)
			if (runs[k].ready && !runs[k].tr->failed)
				trial_error(runs[k].tr,
					    "not run: a worker of the trial could not be started");
	}
	init_barriers(sync, started + 1, processes);
	for (unsigned i = 0; i < started; i++)
		sem_post(&sync->launch);
	return ret;
}

/* Worker s asked for huge pages and has its buffers. */
static struct worker_out *hpages_pending(const struct slot *s)
{
	struct worker_out *o = &s->sh->out;

	return s->started && o->hpages == WORKER_HP_ASKED && o->buf_bytes ? o : NULL;
}

static void hpages_note(struct worker_out *o, const struct buffers_span *sp)
{
	o->hpages = sp->ret < 0 ? WORKER_HP_UNKNOWN : WORKER_HP_MEASURED;
	o->hpage_bytes = sp->ret < 0 ? 0 : sp->huge;
}

/* One pass over this process's smaps for every worker thread; a worker process has a
 * memory of its own, read in its own smaps. */
void trial_slots_hpages(struct inst_run *runs, size_t n)
{
	struct buffers_span *v;
	struct worker_out **of, *o;
	size_t total = 0, m = 0;

	for (size_t k = 0; k < n; k++)
		for (uint32_t w = 0; runs[k].ready && w < runs[k].n; w++)
			total += hpages_pending(&runs[k].slots[w]) != NULL;
	if (!total)
		return;
	v = calloc(total, sizeof(*v));
	of = calloc(total, sizeof(*of));
	for (size_t k = 0; k < n; k++)
		for (uint32_t w = 0; runs[k].ready && w < runs[k].n; w++) {
			const struct slot *s = &runs[k].slots[w];
			struct buffers_span one;
			char path[64];
			if (!(o = hpages_pending(s)))
				continue;
			one = (struct buffers_span){o->buf_addr, o->buf_addr + o->buf_bytes, 0, 0};
			if (s->run->in->job.worker_mode == WORKER_PROCESS) {
				snprintf(path, sizeof(path), "/proc/%d/smaps", (int)s->pid);
				buffers_hpage_scan(path, &one, 1);
				hpages_note(o, &one);
			} else if (v && of) {
				v[m] = one;
				of[m++] = o;
			} else {
				o->hpages = WORKER_HP_UNKNOWN; /* out of memory: not read */
			}
		}
	if (m)
		buffers_hpage_scan("/proc/self/smaps", v, m);
	for (size_t i = 0; i < m; i++)
		hpages_note(of[i], &v[i]);
	free(v);
	free(of);
}

void trial_slots_release(struct sync_area *sync)
{
	pthread_barrier_destroy(&sync->barrier);
	pthread_barrier_destroy(&sync->ready);
	sem_destroy(&sync->launch);
}

bool trial_slot_done(const struct slot *s)
{
	siginfo_t si;

	if (!s->started || s->sh->done)
		return true;
	if (s->run->in->job.worker_mode != WORKER_PROCESS)
		return false;
	memset(&si, 0, sizeof(si));
	return waitid(P_PID, (id_t)s->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	       si.si_pid == s->pid;
}

bool trial_slot_wait(struct slot *s, uint64_t until_ns)
{
	struct timespec tick = {0, 10 * 1000 * 1000}, at;
	uint64_t now;

	if (!s->started)
		return true;
	if (s->run->in->job.worker_mode == WORKER_PROCESS) {
		/* A process: polled, as trial_slot_finish polls it, passing the user's stop on. */
		while (!trial_slot_done(s)) {
			if (s->stop_user && *s->stop_user && s->stop_fwd)
				*s->stop_fwd = 1;
			if ((now = worker_now_ns()) >= until_ns)
				return false;
			if (until_ns - now < 10000000ull)
				tick.tv_nsec = (long)(until_ns - now);
			nanosleep(&tick, NULL);
		}
		trial_slot_finish(s);
		return true;
	}
	/* A thread: joined the moment it ends (pthread_timedjoin_np counts in CLOCK_REALTIME). */
	now = worker_now_ns();
	clock_gettime(CLOCK_REALTIME, &at);
	if (until_ns > now) {
		uint64_t ns = (uint64_t)at.tv_nsec + (until_ns - now);
		at.tv_sec += (time_t)(ns / 1000000000ull);
		at.tv_nsec = (long)(ns % 1000000000ull);
	}
	if (pthread_timedjoin_np(s->thread, NULL, &at) != 0)
		return false;
	s->started = false;
	return true;
}

void trial_slot_finish(struct slot *s)
{
	struct timespec tick = {0, 10 * 1000 * 1000};
	int status = 0;
	pid_t got;

	if (!s->started)
		return;
	if (s->run->in->job.worker_mode == WORKER_PROCESS) {
		/* Poll, so that the user's interrupt is passed on while the worker runs. */
		while ((got = waitpid(s->pid, &status, WNOHANG)) == 0 ||
		       (got < 0 && errno == EINTR)) {
			if (s->stop_user && *s->stop_user && s->stop_fwd)
				*s->stop_fwd = 1;
			nanosleep(&tick, NULL);
		}
		if (!WIFEXITED(status) && !s->sh->ret) {
			s->sh->ret = -ECHILD;
			snprintf(s->sh->err, sizeof(s->sh->err), "worker process died (signal %d)",
				 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
		}
	} else {
		pthread_join(s->thread, NULL);
	}
	s->started = false;
}
