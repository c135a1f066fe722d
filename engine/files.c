/* Files and folders around the trials: folders under the scratch folder, laying out files
 * before their first trial, dropping them from the page cache, asking how much of one is
 * cached, the O_DIRECT probe, and removing what iotrial created. */
#include "engine/files.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/verify.h"

#define LAYOUT_CHUNK (1u << 20)

const volatile sig_atomic_t *files_stop;

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

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void files_remove_path(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode))
		nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	else
		unlink(path);
}

/* A source tree for copytree: `files` files of equal share of `size` bytes, eight to a
 * folder, so the copy walks folders as well as files. */
static int layout_tree(struct file_dirs *dirs, const char *scratch, const char *root, uint64_t size,
		       uint32_t files, char **msg)
{
	char *path = NULL;
	int ret = 0;

	if ((ret = files_make_dirs(dirs, scratch, root)) < 0 ||
	    (mkdir(root, 0755) < 0 && (ret = -errno) != -EEXIST)) {
		error_msg(msg, "cannot create the folder '%s': %s", root, strerror(-ret));
		return ret;
	}
	ret = 0;
	for (uint32_t i = 0; i < files && ret == 0; i++) {
		struct plan_file f = {0};
		if (i % 8 == 0) {
			free(path);
			if (asprintf(&path, "%s/d%u", root, i / 8) < 0)
				return -ENOMEM;
			if (mkdir(path, 0755) < 0 && errno != EEXIST) {
				ret = -errno;
				error_msg(msg, "cannot create the folder '%s': %s", path,
					  strerror(errno));
				break;
			}
		}
		if (asprintf(&f.path, "%s/f%u.dat", path, i) < 0) {
			ret = -ENOMEM;
			break;
		}
		f.layout = LAYOUT_FILL;
		ret = files_layout(dirs, scratch, &f, size / files ? size / files : 1, false, 0, 0,
				   msg);
		free(f.path);
	}
	free(path);
	return ret;
}

char *files_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* Create the folders between the scratch folder and `path`'s parent. */
int files_make_dirs(struct file_dirs *fd, const char *scratch, const char *path)
{
	size_t base = strlen(scratch);
	char *dir = files_dirname(path);
	int ret = 0;

	if (!dir)
		return -ENOMEM;
	if (strncmp(dir, scratch, base) || (dir[base] != '/' && dir[base] != 0)) {
		free(dir);
		return 0;
	}
	for (size_t i = base; ret == 0; i++) {
		char c = dir[i];
		if (c != '/' && c != 0)
			continue;
		dir[i] = 0;
		if (mkdir(dir, 0700) == 0) {
			char **nd = realloc(fd->dirs, (fd->n + 1) * sizeof(*nd));
			if (nd) {
				fd->dirs = nd;
				fd->dirs[fd->n++] = strdup(dir);
			}
		} else if (errno != EEXIST) {
			ret = -errno;
		}
		dir[i] = c;
		if (c == 0)
			break;
	}
	free(dir);
	return ret;
}

int files_layout(struct file_dirs *dirs, const char *scratch, struct plan_file *f, uint64_t size,
		 bool verify, uint64_t seed, uint32_t tree_files, char **msg)
{
	uint64_t done = 0;
	char *buf = NULL;
	int fd, ret = 0;

	if (f->layout == LAYOUT_TREE) {
		ret = layout_tree(dirs, scratch, f->path, size, tree_files, msg);
		f->laid_out = true;
		return ret;
	}
	if ((ret = files_make_dirs(dirs, scratch, f->path)) < 0) {
		error_msg(msg, "cannot create the folder for '%s': %s", f->path, strerror(-ret));
		return ret;
	}
	fd = open(f->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		error_msg(msg, "cannot create '%s': %s", f->path, strerror(errno));
		return ret;
	}
	f->laid_out = true; /* it exists now: it must be removed at the end */
	if (f->layout == LAYOUT_ALLOC) {
		ret = posix_fallocate(fd, 0, (off_t)size);
		if (ret == EOPNOTSUPP || ret == EINVAL)
			ret = ftruncate(fd, (off_t)size) < 0 ? errno : 0;
		if (ret)
			error_msg(msg, "cannot allocate %llu bytes for '%s': %s",
				  (unsigned long long)size, f->path, strerror(ret));
		ret = -ret;
		goto out;
	}
	if (f->layout != LAYOUT_FILL)
		goto out;
	if (!(buf = malloc(LAYOUT_CHUNK))) {
		ret = -ENOMEM;
		goto out;
	}
	/* Varied bytes, not zeros: a device that compresses must not get an easy ride. */
	for (size_t i = 0; i < LAYOUT_CHUNK; i++)
		buf[i] = (char)(i * 2654435761u >> 13);
	while (done < size) {
		if (files_stop && *files_stop) {
			ret = -EINTR;
			error_msg(msg, "laying out '%s': interrupted", f->path);
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
			error_msg(msg, "laying out '%s': write at offset %llu: %s%s", f->path,
				  (unsigned long long)done, strerror(-ret),
				  ret == -ENOSPC ? " (the disk is full)" : "");
			goto out;
		}
		done += (uint64_t)w;
	}
	if (fsync(fd) < 0) {
		ret = -errno;
		error_msg(msg, "laying out '%s': fsync: %s", f->path, strerror(errno));
	}
out:
	free(buf);
	close(fd);
	return ret;
}

/* Write back and drop `path`'s pages, so the next read comes from the device. */
void files_drop_cache(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

/* The fraction of the first `len` bytes of `path` that is in the page cache; NAN if unknown. */
double files_cached_fraction(const char *path, uint64_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *vec = NULL;
	uint64_t pages, in = 0;
	double frac = NAN;
	void *map;
	int fd;

	if (len == 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
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

/* Does the file system holding `path` (a file, or a folder to create one in) take O_DIRECT? */
static int probe_direct(const char *path, bool exists)
{
	char *probe = NULL;
	int fd, ret = 0;

	if (exists) {
		fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
		ret = fd < 0 ? -errno : 0;
	} else {
		if (asprintf(&probe, "%s/.iotrial-direct-probe.%ld", path, (long)getpid()) < 0)
			return -ENOMEM;
		fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0600);
		ret = fd < 0 ? -errno : 0;
		if (fd >= 0)
			unlink(probe);
		free(probe);
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/* The nearest existing folder at or above `path`. */
static char *existing_dir(const char *path)
{
	char *dir = strdup(path);
	struct stat st;

	while (dir && stat(dir, &st) < 0) {
		char *up = files_dirname(dir);
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
				 in->job.key_loc[JK_BACKEND].file ? &in->job.key_loc[JK_BACKEND]
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
			dir = f->create ? files_dirname(f->path) : NULL;
			if (dir) {
				char *up = existing_dir(dir);
				free(dir);
				dir = up;
			}
			ret = probe_direct(f->create ? dir : f->path, !f->create);
			if (ret == -EINVAL)
				diag_add(
				    d, &in->job.key_loc[JK_DIRECT],
				    "key 'direct': '%s' is on a file system that refuses O_DIRECT (tmpfs or a FUSE file system?)",
				    f->create ? dir : f->path);
			else if (ret < 0)
				diag_add(d, &in->job.key_loc[JK_DIRECT],
					 "key 'direct': cannot open '%s' with O_DIRECT: %s",
					 f->create ? dir : f->path, strerror(-ret));
			bad += ret < 0;
			free(dir);
		}
	}
	return bad ? 1 : 0;
}

void files_remove(const struct plan *p, struct file_dirs *fd)
{
	for (size_t i = 0; i < p->ninst; i++) {
		const struct instance *in = &p->inst[i];
		const struct plan_file *files[2] = {&in->data, &in->src};
		for (int k = 0; k < 2; k++) {
			const struct plan_file *f = files[k];
			if (f->owner || !f->create || !f->laid_out || in->job.keep_files ||
			    (in->be->flags & BE_F_NOIO))
				continue;
			/* Every worker's copy: as many as the most threads that used it. */
			for (uint32_t w = 0; w < (f->copies > 1 ? f->copies : 1); w++) {
				char *path = f->copies > 1 ? NULL : strdup(f->path);
				if (!path && asprintf(&path, "%s.%u", f->path, w) < 0)
					continue;
				files_remove_path(path);
				free(path);
			}
		}
	}
	while (fd->n > 0) {
		char *dir = fd->dirs[--fd->n];
		rmdir(dir); /* fails, rightly, when kept files are inside */
		free(dir);
	}
	free(fd->dirs);
	fd->dirs = NULL;
}
