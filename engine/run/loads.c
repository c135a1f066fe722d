/* copytree and command workloads (see loads.h). */
#include "engine/run/loads.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/run/ledger.h"
#include "lib/child.h"

static bool stopped(const struct worker_job *w)
{
	return *w->stop || (w->stop_bg && *w->stop_bg);
}

/* Why `path` could not be opened: ELOOP from O_NOFOLLOW means the name is a symlink now
 * (swapped in while the tree was copied), which needs saying in words. */
static void open_error(char *err, size_t errlen, const char *what, const char *path, int e)
{
	if (e == ELOOP)
		snprintf(
		    err, errlen,
		    "copytree: cannot %s '%s': it is a symbolic link, which iotrial does not follow",
		    what, path);
	else
		snprintf(err, errlen, "copytree: cannot %s '%s': %s", what, path, strerror(e));
}

static void record(struct worker_out *o, uint64_t t0, uint64_t bytes)
{
	uint64_t t = worker_now_ns();

	hist_record(&o->hist, t - t0);
	welford_add(&o->lat, (double)(t - t0));
	o->bytes += bytes;
	o->ios++;
}

/* What a file of mode `m` is, for a message. */
static const char *kind_of(mode_t m)
{
	return S_ISREG(m)    ? "a file"
	       : S_ISDIR(m)  ? "a folder"
	       : S_ISLNK(m)  ? "a symbolic link"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
			     : "something else";
}

/* The message for an entry that was `was` when its folder was read and is `now` when
 * opened; returns the -errno that goes with it. */
static int replaced(char *err, size_t errlen, const char *what, const char *path, mode_t was,
		    mode_t now)
{
	if (S_ISLNK(now)) {
		open_error(err, errlen, what, path, ELOOP);
		return -ELOOP;
	}
	snprintf(
	    err, errlen,
	    "copytree: cannot %s '%s': it was %s and is now %s (replaced while the tree was copied), which iotrial leaves alone",
	    what, path, kind_of(was), kind_of(now));
	return -ESTALE;
}

int loads_open_entry(int from, const char *name, const char *path, mode_t seen, struct stat *st,
		     char *err, size_t errlen)
{
	bool dir = S_ISDIR(seen);
	const char *what = dir ? "read" : "open";
	/* O_NONBLOCK: a FIFO swapped in must not hold the open, and the run, forever. */
	int fd = openat(from, name,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
			    (dir ? O_DIRECTORY : 0));
	struct stat now;

	if (fd < 0) {
		int e = errno;
		if (e == ENOENT)
			return -ENOENT;
		/* O_DIRECTORY | O_NOFOLLOW says ENOTDIR for a symlink too: say what is there
		 * now (only for the message; nothing was opened). */
		if ((e == ENOTDIR || e == ELOOP) &&
		    fstatat(from, name, &now, AT_SYMLINK_NOFOLLOW) == 0)
			return replaced(err, errlen, what, path, seen, now.st_mode);
		open_error(err, errlen, what, path, e);
		return -e;
	}
	if (fstat(fd, st) < 0 || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		int e = errno;
		open_error(err, errlen, what, path, e);
		close(fd);
		return -e;
	}
	if ((st->st_mode & S_IFMT) != (seen & S_IFMT)) {
		close(fd);
		return replaced(err, errlen, what, path, seen, st->st_mode);
	}
	return fd;
}

/* Copy one file like cp -p from the open `in` (closed here; `st` is its fstat): contents
 * in `chunk`-byte steps, then mode and times. Not the set-user-ID, set-group-ID and sticky
 * bits: the copy is owned by whoever runs iotrial (root, often), not by the source's owner,
 * and cp -p and rsync -a drop them too when they cannot keep the owner. The copy is made with
 * O_EXCL in a folder the copy made, and noted in the tree's log. */
static int copy_file(const struct worker_job *w, int in, int to_dir, const char *name,
		     const char *from, const char *to, const struct stat *st, char *buf, int log,
		     struct worker_out *o, char *err, size_t errlen)
{
	uint64_t off = 0;
	int ret = 0;
	int out = openat(to_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			 st->st_mode & 0777);

	if (out < 0 || (ret = ledger_tree_note(log, out)) < 0) {
		ret = ret < 0 ? ret : -errno;
		open_error(err, errlen, "create", to, -ret);
		if (out >= 0)
			close(out);
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
			ssize_t m = pwrite(out, buf + done, (size_t)(n - done),
					   (off_t)(off + (uint64_t)done));
			if (m < 0 && errno == EINTR)
				continue;
			if (m <= 0) {
				ret = m < 0 ? -errno : -EIO;
				snprintf(err, errlen, "copytree: write '%s' at offset %llu: %s%s",
					 to, (unsigned long long)(off + (uint64_t)done),
					 strerror(-ret),
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
		fchmod(out, st->st_mode & 0777); /* the open's mode went through the umask */
	}
	close(out);
	close(in);
	return ret;
}

struct walk;
static int copy_dir(struct walk *k, int src, int to, const char *name, const char *fp,
		    const char *tp, int depth);

struct walk {
	const struct worker_job *w;
	const char *top; /* the source tree's root, for the message of a tree nested too deep */
	char *buf;
	int log;
	struct worker_out *o;
	char *err;
	size_t errlen;
};

/* Copy the entry `name` of the folder open as `from`, which was `seen` (a file or a
 * folder) when the folder was read: what is copied, and how, is decided on what the open
 * gave, never on the name, which may lead elsewhere by now. */
static int copy_entry(struct walk *k, int from, int to, const char *name, const char *fp,
		      const char *tp, mode_t seen, int depth)
{
	struct stat st = {0}; /* set when the open succeeds */
	int fd = loads_open_entry(from, name, fp, seen, &st, k->err, k->errlen);

	if (fd == -ENOENT)
		return 0; /* gone while we looked: rsync would say so and go on */
	if (fd < 0)
		return fd;
	if (S_ISDIR(st.st_mode))
		return copy_dir(k, fd, to, name, fp, tp, depth);
	return copy_file(k->w, fd, to, name, fp, tp, &st, k->buf, k->log, k->o, k->err, k->errlen);
}

/* Copy what the folder open as `from` holds into the folder open as `to`, depth first,
 * never following a symlink on either side; `fp` and `tp` are their paths, for messages. */
static int copy_tree(struct walk *k, int from, int to, const char *fp, const char *tp, int depth)
{
	int rd = openat(from, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = rd < 0 ? NULL : fdopendir(rd);
	struct dirent *e;
	int ret = 0;

	if (depth > 64) {
		/* The deepest path would fill the message; the tree's top says where. */
		snprintf(k->err, k->errlen, "copytree: folders in '%s' nest more than 64 deep",
			 k->top);
		ret = -ELOOP;
	} else if (!d) {
		ret = -errno;
		open_error(k->err, k->errlen, "read", fp, -ret);
	}
	if (!d) {
		if (rd >= 0)
			close(rd);
		return ret;
	}
	while (ret == 0 && !stopped(k->w) && (e = readdir(d))) {
		char *a = NULL, *b = NULL;
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		/* What the folder holds now: files and folders are copied, the rest (a
		 * symlink, a FIFO, a device) left out. */
		if (asprintf(&a, "%s/%s", fp, e->d_name) < 0 ||
		    asprintf(&b, "%s/%s", tp, e->d_name) < 0)
			ret = -ENOMEM;
		else if (fstatat(from, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			ret = 0; /* gone while we looked: rsync would say so and go on */
		else if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))
			ret = copy_entry(k, from, to, e->d_name, a, b, st.st_mode, depth);
		free(a);
		free(b);
	}
	closedir(d);
	return ret;
}

/* Make the folder `name` in `to` (O_EXCL: it must be new) and copy into it the source
 * folder open as `src` (closed here). */
static int copy_dir(struct walk *k, int src, int to, const char *name, const char *fp,
		    const char *tp, int depth)
{
	int dst = -1, ret = 0;

	if (mkdirat(to, name, 0755) < 0 ||
	    (dst = openat(to, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
	    (ret = ledger_tree_note(k->log, dst)) < 0) {
		ret = ret < 0 ? ret : -errno;
		open_error(k->err, k->errlen, "create", tp, -ret);
	} else {
		ret = copy_tree(k, src, dst, fp, tp, depth + 1);
	}
	close(src);
	if (dst >= 0)
		close(dst);
	return ret;
}

static int copytree(const struct worker_job *w, const struct loads_tree *t, char *err,
		    size_t errlen, struct worker_out *o)
{
	struct walk k = {w, t->src, malloc(w->chunk), t->dst_log, o, err, errlen};
	int ret = 0;

	if (!k.buf)
		return -ENOMEM;
	if (t->src_fd < 0 || t->dst_fd < 0) {
		if (t->src_fd < 0 && t->src_why)
			snprintf(err, errlen, "copytree: %s", t->src_why);
		else if (t->src_fd < 0)
			snprintf(err, errlen, "copytree: cannot read '%s': %s", t->src,
				 strerror(-t->src_fd));
		else
			snprintf(err, errlen, "copytree: the folder '%s' was not made", t->dst);
		free(k.buf);
		return t->src_fd < 0 ? t->src_fd : -ENOENT;
	}
	o->start_ns = worker_now_ns();
	do {
		ret = copy_tree(&k, t->src_fd, t->dst_fd, t->src, t->dst, 0);
		/* As load, copy again from scratch until told to stop: empty the copy first,
		 * removing only what it made. */
		if (ret == 0 && w->stop_bg && !stopped(w) &&
		    (ret = ledger_tree_clear(t->dst_fd, t->dst_log, t->dst, err, errlen)) < 0 &&
		    ret == -ENOTEMPTY) {
			char why[256];
			snprintf(why, sizeof(why), "%s", err);
			snprintf(err, errlen, "copytree: emptying '%s' for the next round: %s",
				 t->dst, why);
		}
	} while (ret == 0 && w->stop_bg && !stopped(w));
	o->end_ns = worker_now_ns();
	free(k.buf);
	return ret;
}

/* child_wait's question for a command: is the job told to stop? */
static bool stop_asked(const void *w)
{
	return stopped(w);
}

/* Run `cmd` once; stop it (its whole process group) when told to. Returns its exit
 * status (0 when it was stopped on purpose), or -errno. */
static int run_command(const struct worker_job *w, const char *cmd, char *err, size_t errlen)
{
	pid_t pid = child_start(cmd, -1);
	bool killed = false;
	int st;

	if (pid < 0) {
		snprintf(err, errlen, "command: cannot start: %s", strerror(-pid));
		return pid;
	}
	st = child_wait(pid, stop_asked, w, &killed);
	return st >= 0 && killed ? 0 : st;
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

int loads_run(const struct worker_job *w, const struct job_spec *j, const struct loads_tree *t,
	      char *err, size_t errlen, struct worker_out *o)
{
	memset(o, 0, sizeof(*o));
	hist_init(&o->hist);
	welford_init(&o->lat);
	if (!worker_gate(w))
		return 0; /* cancelled before the start */
	if (j->workload == WL_COMMAND)
		return command(w, j->command, err, errlen, o);
	return copytree(w, t, err, errlen, o);
}
