/* copytree and command workloads (see loads.h). */
#include "engine/loads.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/files.h"

static bool stopped(const struct worker_job *w)
{
	return *w->stop || (w->stop_bg && *w->stop_bg);
}

static void record(struct worker_out *o, uint64_t t0, uint64_t bytes)
{
	uint64_t t = worker_now_ns();

	hist_record(&o->hist, t - t0);
	welford_add(&o->lat, (double)(t - t0));
	o->bytes += bytes;
	o->ios++;
}

/* Copy one file like cp -p: contents in `chunk`-byte steps, then mode and times. */
static int copy_file(const struct worker_job *w, const char *from, const char *to,
		     const struct stat *st, char *buf, struct worker_out *o, char *err,
		     size_t errlen)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	uint64_t off = 0;
	int ret = 0;

	if (in < 0) {
		snprintf(err, errlen, "copytree: cannot open '%s': %s", from, strerror(errno));
		return -errno;
	}
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, st->st_mode & 07777);
	if (out < 0) {
		ret = -errno;
		snprintf(err, errlen, "copytree: cannot create '%s': %s", to, strerror(errno));
		close(in);
		return ret;
	}
	while (!stopped(w)) {
		uint64_t t0 = worker_now_ns();
		ssize_t n = pread(in, buf, w->chunk, (off_t)off), done = 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			snprintf(err, errlen, "copytree: read '%s' at offset %llu: %s", from,
				 (unsigned long long)off, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		while (done < n) {
			ssize_t m = pwrite(out, buf + done, (size_t)(n - done), (off_t)(off + (uint64_t)done));
			if (m < 0 && errno == EINTR)
				continue;
			if (m <= 0) {
				ret = m < 0 ? -errno : -EIO;
				snprintf(err, errlen, "copytree: write '%s' at offset %llu: %s%s", to,
					 (unsigned long long)(off + (uint64_t)done), strerror(-ret),
					 ret == -ENOSPC ? " (the disk is full)" : "");
				goto out;
			}
			done += m;
		}
		record(o, t0, (uint64_t)n);
		off += (uint64_t)n;
	}
	if (ret == 0 && w->fsync_end && fsync(out) < 0)
		ret = -errno;
out:
	if (ret == 0) {
		struct timespec times[2] = {st->st_atim, st->st_mtim};
		futimens(out, times);
	}
	close(out);
	close(in);
	return ret;
}

/* Copy the tree under `from` into `to` (created), depth first. */
static int copy_tree(const struct worker_job *w, const char *from, const char *to, char *buf,
		     struct worker_out *o, char *err, size_t errlen, int depth)
{
	DIR *d;
	struct dirent *e;
	int ret = 0;

	if (depth > 64) {
		snprintf(err, errlen, "copytree: '%s' is nested too deep", from);
		return -ELOOP;
	}
	if (mkdir(to, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "copytree: cannot create '%s': %s", to, strerror(errno));
		return -errno;
	}
	if (!(d = opendir(from))) {
		snprintf(err, errlen, "copytree: cannot read '%s': %s", from, strerror(errno));
		return -errno;
	}
	while (ret == 0 && !stopped(w) && (e = readdir(d))) {
		char *a = NULL, *b = NULL;
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (asprintf(&a, "%s/%s", from, e->d_name) < 0 ||
		    asprintf(&b, "%s/%s", to, e->d_name) < 0)
			ret = -ENOMEM;
		else if (lstat(a, &st) < 0)
			ret = 0; /* gone while we looked: rsync would say so and go on */
		else if (S_ISDIR(st.st_mode))
			ret = copy_tree(w, a, b, buf, o, err, errlen, depth + 1);
		else if (S_ISREG(st.st_mode))
			ret = copy_file(w, a, b, &st, buf, o, err, errlen);
		free(a);
		free(b);
	}
	closedir(d);
	return ret;
}

static int copytree(const struct worker_job *w, const char *src, const char *dst, char *err,
		    size_t errlen, struct worker_out *o)
{
	char *buf = malloc(w->chunk);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	o->start_ns = worker_now_ns();
	do {
		ret = copy_tree(w, src, dst, buf, o, err, errlen, 0);
		/* The deepest path would fill the message; the tree's top says where. */
		if (ret == -ELOOP)
			snprintf(err, errlen, "copytree: folders in '%s' nest more than 64 deep", src);
		/* As load, copy again from scratch until told to stop. */
		if (w->stop_bg && !stopped(w))
			files_remove_path(dst);
	} while (ret == 0 && w->stop_bg && !stopped(w));
	o->end_ns = worker_now_ns();
	free(buf);
	return ret;
}

/* Run `cmd` once; stop it (its whole process group) when told to. Returns its exit
 * status, or -errno. */
static int run_command(const struct worker_job *w, const char *cmd, char *err, size_t errlen)
{
	struct timespec tick = {0, 10 * 1000 * 1000};
	pid_t pid = fork();
	int status = 0;
	uint64_t killed = 0;

	if (pid < 0) {
		snprintf(err, errlen, "command: cannot start: %s", strerror(errno));
		return -errno;
	}
	if (pid == 0) {
		setpgid(0, 0);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (stopped(w)) {
			/* TERM first; KILL if it has not gone within a second. */
			if (!killed) {
				kill(-pid, SIGTERM);
				killed = worker_now_ns();
			} else if (worker_now_ns() - killed > 1000000000ull) {
				kill(-pid, SIGKILL);
			}
		}
		nanosleep(&tick, NULL);
	}
	if (killed)
		return 0; /* stopped on purpose */
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int command(const struct worker_job *w, const char *cmd, char *err, size_t errlen,
		   struct worker_out *o)
{
	int ret;

	o->start_ns = worker_now_ns();
	do {
		uint64_t t0 = worker_now_ns();
		ret = run_command(w, cmd, err, errlen);
		if (ret > 0 && !w->stop_bg) {
			snprintf(err, errlen, "command exited with status %d: %s", ret, cmd);
			o->errors++;
			ret = -EIO;
		}
		record(o, t0, 0);
	} while (ret >= 0 && w->stop_bg && !stopped(w));
	o->end_ns = worker_now_ns();
	return ret < 0 ? ret : 0;
}

int loads_run(const struct worker_job *w, const struct job_spec *j, const char *src,
	      const char *dst, char *err, size_t errlen, struct worker_out *o)
{
	memset(o, 0, sizeof(*o));
	hist_init(&o->hist);
	welford_init(&o->lat);
	if (!worker_gate(w))
		return 0; /* cancelled before the start */
	if (j->workload == WL_COMMAND)
		return command(w, j->command, err, errlen, o);
	return copytree(w, src, dst, err, errlen, o);
}
