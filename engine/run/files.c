/* Files around the trials: laying out files
 * before their first trial (through the ledger, which also removes them), opening them for
 * the workers, dropping them from the page cache, asking how much of one is cached, and
 * the O_DIRECT probe. */
#include "engine/run/files.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/io/verify.h"
#include "engine/run/look.h"
#include "lib/path.h"

#define LAYOUT_CHUNK (1u << 20)

const atomic_int *files_stop;

static void error_msg(char **msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void error_msg(char **msg, const char *fmt, ...)
{
	va_list ap;

	if (*msg)
		return;
	va_start(ap, fmt);
	if (vasprintf(msg, fmt, ap) < 0)
		*msg = NULL;
	va_end(ap);
}

uint32_t files_count(const struct job_spec *j)
{
	return j->threads > 1 && j->file_per_thread ? j->threads : 1;
}

char *files_worker_path(const char *path, const struct job_spec *j, uint32_t w)
{
	char *out = NULL;

	if (files_count(j) == 1)
		return strdup(path);
	return asprintf(&out, "%s.%u", path, w) < 0 ? NULL : out;
}

/* Write `size` bytes of varied data (the verify pattern under `seed` when `verify`) into
 * `fd`, then fsync: what reads find on the device. */
static int fill(int fd, const char *path, uint64_t size, bool verify, uint64_t seed, char **msg)
{
	uint64_t done = 0;
	char *buf = malloc(LAYOUT_CHUNK);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	/* Varied bytes, not zeros: a device that compresses must not get an easy ride. */
	for (size_t i = 0; i < LAYOUT_CHUNK; i++)
		buf[i] = (char)(i * 2654435761u >> 13);
	while (done < size) {
		if (files_stop && *files_stop) {
			ret = -EINTR;
			error_msg(msg, "laying out '%s': interrupted", path);
			goto out;
		}
		size_t n = size - done < LAYOUT_CHUNK ? (size_t)(size - done) : LAYOUT_CHUNK;
		if (verify)
			verify_fill(buf, n, done, seed);
		ssize_t w = pwrite(fd, buf, n, (off_t)done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			error_msg(msg, "laying out '%s': write at offset %llu: %s%s", path,
				  (unsigned long long)done, strerror(-ret),
				  ret == -ENOSPC ? " (the disk is full)" : "");
			goto out;
		}
		done += (uint64_t)w;
	}
	if (fsync(fd) < 0) {
		ret = -errno;
		error_msg(msg, "laying out '%s': fsync: %s", path, strerror(errno));
	}
out:
	free(buf);
	return ret;
}

/* A source tree for copytree: `files` files of equal share of `size` bytes, eight to a
 * folder, so the copy walks folders as well as files. Everything in it is made relative to
 * the tree's root, with O_EXCL, and noted in the tree's log. */
static int layout_tree(struct ledger *l, const char *root, uint64_t size, uint32_t files, bool keep,
		       char **msg)
{
	int ret = 0, sub = -1;
	const struct ledger_entry *t = ledger_mktree(l, root, 0755, keep, &ret, msg);
	char name[32];

	if (!t)
		return ret;
	for (uint32_t i = 0; i < files && ret == 0; i++) {
		int fd;
		if (i % 8 == 0) {
			if (sub >= 0)
				close(sub);
			snprintf(name, sizeof(name), "d%u", i / 8);
			if (mkdirat(t->fd, name, 0755) < 0 ||
			    (sub = openat(t->fd, name,
					  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
			    (ret = ledger_tree_note(t->log, sub)) < 0) {
				ret = ret < 0 ? ret : -errno;
				error_msg(msg, "cannot create the folder '%s/%s': %s", root, name,
					  strerror(-ret));
				break;
			}
		}
		snprintf(name, sizeof(name), "f%u.dat", i);
		fd = openat(sub, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 || (ret = ledger_tree_note(t->log, fd)) < 0) {
			ret = ret < 0 ? ret : -errno;
			error_msg(msg, "cannot create '%s/d%u/%s': %s", root, i / 8, name,
				  strerror(-ret));
		} else {
			char *path = NULL;
			if (asprintf(&path, "%s/d%u/%s", root, i / 8, name) < 0)
				ret = -ENOMEM;
			else
				ret =
				    fill(fd, path, size / files ? size / files : 1, false, 0, msg);
			free(path);
		}
		if (fd >= 0)
			close(fd);
	}
	if (sub >= 0)
		close(sub);
	return ret;
}

int files_layout(struct ledger *l, const struct plan_file *f, uint64_t size, bool verify,
		 uint64_t seed, uint32_t tree_files, bool keep, char **msg)
{
	int fd, ret = 0;

	if (f->layout == LAYOUT_TREE)
		return layout_tree(l, f->path, size, tree_files, keep, msg);
	if ((fd = ledger_create(l, f->path, O_WRONLY, 0644, keep, msg)) < 0)
		return fd;
	if (f->layout == LAYOUT_ALLOC) {
		ret = posix_fallocate(fd, 0, (off_t)size);
		if (ret == EOPNOTSUPP || ret == EINVAL)
			ret = ftruncate(fd, (off_t)size) < 0 ? errno : 0;
		if (ret)
			error_msg(msg, "cannot allocate %llu bytes for '%s': %s",
				  (unsigned long long)size, f->path, strerror(ret));
		ret = -ret;
	} else if (f->layout == LAYOUT_FILL) {
		ret = fill(fd, f->path, size, verify, seed, msg);
	}
	close(fd);
	return ret;
}

/* Open, through backend `be`, the file `look` (O_PATH, checked) stands for; without /proc,
 * `path` by its name as the ledger says. Returns the fd or -errno (and maybe be's why). */
static int open_looked(const struct ledger *l, const struct be_ops *be, void *priv,
		       const char *path, int look, int flags)
{
	const struct ledger_entry *e = ledger_find(l, path);
	const char *name = path;
	int dirfd = AT_FDCWD, extra = 0, fd;
	char proc[32];

	look_name(look, proc, sizeof(proc));
	/* O_NONBLOCK: a FIFO put in the file's place must not hold the open, and the run,
	 * forever (a signal does not end an open that waits for a FIFO's other end). */
	fd = be->open(priv, AT_FDCWD, proc, flags | O_NONBLOCK, 0);
	if (fd == -ENOENT) {
		/* No /proc: by the name, checked again after the open. */
		if (e)
			ledger_where(l, e, &dirfd, &name, &extra);
		fd = be->open(priv, dirfd, name, flags | extra | O_NONBLOCK, 0);
	}
	return fd;
}

int files_open(const struct ledger *l, const struct be_ops *be, void *priv, const char *path,
	       int flags, char *err, size_t errlen)
{
	const struct ledger_entry *e = ledger_find(l, path);
	bool io = !(be->flags & BE_F_NOIO);
	int fd, ret, look = -1;

	/* A backend that touches no device opens nothing real: no look, no check. */
	if (io && (look = look_at(l, path, err, errlen)) < 0)
		return look;
	err[0] = 0;
	fd = io ? open_looked(l, be, priv, path, look, flags)
		: be->open(priv, AT_FDCWD, path, flags, 0);
	if (look >= 0)
		close(look);
	if (fd == -ENXIO) {
		/* O_WRONLY | O_NONBLOCK on a FIFO that nobody reads. */
		snprintf(
		    err, errlen,
		    "'%s' is no longer a file or a block device (a FIFO, a socket or a character device was put in its place during the run): not using it",
		    path);
		return fd;
	}
	if (fd < 0 && err[0]) {
		/* The backend said why (be_config.why is this buffer). */
		char why[256];
		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "cannot open '%s': %s", path, why);
		return fd;
	}
	if (fd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(-fd));
		return fd;
	}
	if (!io)
		return fd;
	ret = look_check(e, path, fd, err, errlen);
	if (ret == 0 && (ret = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
	}
	if (ret < 0) {
		be->close(priv, fd);
		return ret;
	}
	return fd;
}

/* Pin the existing file `f` of `in` (its target, or a copy's or copytree's source) as the
 * plan saw it; as it is now when the plan did not see it (a file the ranks share, which the
 * first of them creates). */
static void pin(struct ledger *l, const struct plan *p, const struct instance *in,
		const struct plan_file *f, bool writes)
{
	const struct plan_id *id = plan_seen(p, in, f);
	struct stat seen = {0};

	if (!id) {
		ledger_pin(l, f->path, NULL, writes);
		return;
	}
	seen.st_dev = id->dev;
	seen.st_ino = id->ino;
	seen.st_rdev = id->rdev;
	/* A copytree's existing source is a folder: the plan refuses anything else. */
	if (f == &in->src && in->job.workload == WL_COPYTREE)
		seen.st_mode = S_IFDIR;
	else
		seen.st_mode = id->rdev ? S_IFBLK : S_IFREG;
	ledger_pin(l, f->path, &seen, writes);
}

/* Hold the folder `dir`: the one the plan checked, or none (see ledger_dir_as). */
static void hold_dir(struct ledger *l, const struct plan *p, const char *dir)
{
	const struct plan_dir *pd = plan_dir_find(p, dir);
	struct stat seen = {0};

	if (!pd) {
		ledger_dir(l, dir, NULL);
		return;
	}
	seen.st_dev = pd->dev;
	seen.st_ino = pd->ino;
	ledger_dir_as(l, dir, &seen, NULL);
}

void files_hold(struct ledger *l, const struct plan *p)
{
	for (size_t i = 0; i < p->ninst; i++) {
		const struct instance *in = &p->inst[i];
		const struct plan_file *files[2] = {&in->data, &in->src};
		if ((in->be->flags & BE_F_NOIO) || in->job.workload == WL_COMMAND)
			continue;
		for (int k = 0; k < 2; k++) {
			const struct plan_file *f = files[k];
			char *dir;
			if (!f->path)
				continue;
			if (!f->create) {
				/* An existing file must stay what it is: what the plan checked
				 * (for a write: not mounted, allow_overwrite), not whatever the
				 * path leads to by now, which may be a file the job file does
				 * not name. */
				pin(l, p, in, f, k == 0 && spec_workload_writes(in->job.workload));
				continue;
			}
			/* A folder under the scratch folder is made when first used. */
			if ((dir = path_dirname(f->path)) &&
			    !(p->scratch && path_under(dir, p->scratch)))
				hold_dir(l, p, dir);
			free(dir);
		}
	}
}

/* Write back and drop `path`'s pages, so the next read comes from the device. */
void files_drop_cache(const struct ledger *l, const char *path)
{
	char err[256];
	int fd = look_open(l, path, O_RDONLY, err, sizeof(err));

	if (fd < 0)
		return;
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

/* The fraction of the first `len` bytes of `path` that is in the page cache; NAN if unknown. */
double files_cached_fraction(const struct ledger *l, const char *path, uint64_t len)
{
	char err[256];
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *vec = NULL;
	uint64_t pages, in = 0;
	double frac = NAN;
	void *map;
	int fd;

	if (len == 0 || (fd = look_open(l, path, O_RDONLY, err, sizeof(err))) < 0)
		return NAN;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NAN;
	pages = (len + (uint64_t)page - 1) / (uint64_t)page;
	vec = malloc(pages);
	if (vec && mincore(map, len, vec) == 0) {
		for (uint64_t i = 0; i < pages; i++)
			in += vec[i] & 1;
		frac = (double)in / (double)pages;
	}
	free(vec);
	munmap(map, len);
	return frac;
}

/* Does the file system holding `path` (a file, or a folder to create one in) take O_DIRECT?
 * The probe file is made relative to the folder, O_EXCL, and removed only while it is the
 * one just made. -ESTALE: the existing file is no longer a file or a block device. */
static int probe_direct(const char *path, bool exists)
{
	char probe[64];
	struct stat made, now;
	int dfd, fd, ret = 0;

	if (exists) {
		/* Looked at first: a FIFO or a device put in the file's place is never opened
		 * (nor blamed on the file system, which a FIFO's EINVAL would). */
		char err[256], proc[32];
		int look = look_at(NULL, path, err, sizeof(err));
		if (look < 0)
			return look == -EINVAL ? -ESTALE : look;
		look_name(look, proc, sizeof(proc));
		if ((fd = open(proc, O_RDONLY | O_DIRECT | O_NONBLOCK | O_CLOEXEC)) < 0 &&
		    errno == ENOENT)
			fd = open(path, O_RDONLY | O_DIRECT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		ret = fd < 0 ? -errno : 0;
		close(look);
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if ((dfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	snprintf(probe, sizeof(probe), ".iotrial-direct-probe.%ld", (long)getpid());
	fd = openat(dfd, probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_DIRECT | O_CLOEXEC,
		    0600);
	ret = fd < 0 ? -errno : 0;
	if (fd >= 0 && fstat(fd, &made) == 0 &&
	    fstatat(dfd, probe, &now, AT_SYMLINK_NOFOLLOW) == 0 && made.st_dev == now.st_dev &&
	    made.st_ino == now.st_ino)
		unlinkat(dfd, probe, 0);
	if (fd >= 0)
		close(fd);
	close(dfd);
	return ret;
}

/* The nearest existing folder at or above `path`. */
static char *existing_dir(const char *path)
{
	char *dir = strdup(path);
	struct stat st;

	while (dir && stat(dir, &st) < 0) {
		char *up = path_dirname(dir);
		free(dir);
		dir = up;
	}
	return dir;
}

int run_preflight(const struct plan *p, struct diag *d)
{
	int bad = 0;

	for (size_t i = 0; i < p->ninst; i++) {
		const struct instance *in = &p->inst[i];
		const struct plan_file *files[2] = {&in->data, &in->src};
		char why[256] = "";

		/* A backend this machine refuses (io_uring under seccomp, say) is found here,
		 * before any I/O, not in the middle of a run. Each backend is asked once. */
		bool asked = false;
		for (size_t k = 0; k < i && !asked; k++)
			asked = p->inst[k].be == in->be;
		if (!asked && in->be->probe && in->be->probe(why, sizeof(why)) < 0) {
			diag_add(d,
				 instance_key_loc(in, JK_BACKEND)->file
				     ? instance_key_loc(in, JK_BACKEND)
				     : &in->job.loc,
				 "key 'backend': '%s' does not work on this machine: %s",
				 in->be->name, why);
			bad++;
		}
		if (!in->job.direct || (in->be->flags & BE_F_NOIO))
			continue;
		for (int k = 0; k < 2; k++) {
			const struct plan_file *f = files[k];
			char *dir;
			int ret;

			if (!f->path || (k == 1 && in->job.workload != WL_COPY))
				continue;
			dir = f->create ? path_dirname(f->path) : NULL;
			if (dir) {
				char *up = existing_dir(dir);
				free(dir);
				dir = up;
			}
			if (f->create && !dir)
				return -ENOMEM; /* iotrial.c then says: out of memory */
			ret = probe_direct(f->create ? dir : f->path, !f->create);
			if (ret == -EINVAL)
				diag_add(
				    d, instance_key_loc(in, JK_DIRECT),
				    "key 'direct': '%s' is on a file system that refuses O_DIRECT (tmpfs or a FUSE file system?)",
				    f->create ? dir : f->path);
			else if (ret == -ESTALE)
				diag_add(
				    d, instance_key_loc(in, JK_DIRECT),
				    "key 'direct': '%s' is no longer a file or a block device (a FIFO, a socket or a character device was put in its place): not using it",
				    f->path);
			else if (ret < 0)
				diag_add(d, instance_key_loc(in, JK_DIRECT),
					 "key 'direct': cannot open '%s' with O_DIRECT: %s",
					 f->create ? dir : f->path, strerror(-ret));
			bad += ret < 0;
			free(dir);
		}
	}
	return bad ? -EOPNOTSUPP : 0;
}
