/* The reporter registry and the atomic file writer they share (see reporter.h). */
#include "reporters/reporter.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/dirfile.h"
#include "lib/path.h"

/* Each reporter's ops, at the bottom of its own file (reporters/NAME.c). */
extern const struct rep_ops rep_text, rep_json, rep_csv, rep_html, rep_ndjson;

/* The registry: a new reporter is its file, its name in the line above and its entry here. */
const struct rep_ops *const rep_registry[] = {
    &rep_text, &rep_json, &rep_csv, &rep_html, &rep_ndjson, NULL,
};

const struct rep_ops *rep_find_n(const char *name, size_t len)
{
	for (size_t i = 0; rep_registry[i]; i++)
		if (strlen(rep_registry[i]->name) == len &&
		    !strncmp(rep_registry[i]->name, name, len))
			return rep_registry[i];
	return NULL;
}

const struct rep_ops *rep_find(const char *name)
{
	return rep_find_n(name, strlen(name));
}

void rep_names(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; rep_registry[i] && n < len; i++) {
		int w = snprintf(buf + n, len - n, "%s%s", i ? ", " : "", rep_registry[i]->name);
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

void rep_list_add(struct rep_list *l, const struct rep_ops *rep)
{
	size_t i = 0, at = 0;

	for (i = 0; i < l->n; i++)
		if (l->rep[i] == rep)
			return;
	if (l->n == REP_MAX)
		return;
	/* Registry order, whatever order -f named them in: the files are written in it. The list
	 * is kept in that order, so `at` counts its entries that come before `rep`. */
	for (size_t k = 0; rep_registry[k] && rep_registry[k] != rep; k++)
		at += at < l->n && l->rep[at] == rep_registry[k];
	memmove(&l->rep[at + 1], &l->rep[at], (l->n - at) * sizeof(l->rep[0]));
	l->rep[at] = rep;
	l->n++;
}

void rep_list_default(struct rep_list *l)
{
	l->n = 0;
	for (size_t i = 0; rep_registry[i]; i++)
		if (!rep_registry[i]->on_request)
			rep_list_add(l, rep_registry[i]);
}

bool rep_list_has(const struct rep_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->rep[i]->name, name))
			return true;
	return false;
}

/* Where a report goes: a file descriptor, and the first errno a write to it met. The stdio
 * stream only keeps an error flag, so without this a full disk would read as EIO. */
struct rep_sink {
	int fd;
	int err;
};

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
	struct rep_sink *s = cookie;
	size_t done = 0;

	if (s->err)
		return -1;
	while (done < n) {
		ssize_t w = write(s->fd, buf + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			s->err = w < 0 ? errno : EIO;
			return -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)n;
}

int rep_write_fd(const struct rep_ops *rep, const struct results *r, int fd)
{
	struct rep_sink sink = {fd, 0};
	cookie_io_functions_t io = {.write = sink_write};
	FILE *f = fopencookie(&sink, "w", io);
	int ret, closed;

	if (!f)
		return -errno;
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	ret = rep->write(r, f);
	closed = fclose(f);
	/* The errno of the write that failed wins over the writer's own guess (-EIO). */
	if (sink.err)
		return -sink.err;
	if (ret == 0 && closed != 0)
		ret = -EIO;
	return ret;
}

/* rep_write_at, the file given the permission bits and (as root) the owner of `was`, the
 * file it replaces, or 0644 when NULL. */
static int write_at(const struct rep_ops *rep, const struct results *r, int dfd, const char *name,
		    const struct stat *was)
{
	char tmp[NAME_MAX + 1], cut[NAME_MAX + 1];
	int fd, ret;

	/* The temporary file sits in the same folder, so the rename stays on one file system;
	 * both by the folder's descriptor, so a folder renamed meanwhile is still the one. */
	fd = dirfile_tmp(dfd, name, tmp, sizeof(tmp));
	/* A name of up to NAME_MAX bytes is the user's to give (report -o): its temporary
	 * file takes the start of it, so that the mark and the random part fit. */
	if (fd == -ENAMETOOLONG && strlen(name) <= NAME_MAX) {
		memcpy(cut, name, NAME_MAX - 2 - DIRFILE_TMP_TAIL);
		cut[NAME_MAX - 2 - DIRFILE_TMP_TAIL] = '\0';
		fd = dirfile_tmp(dfd, cut, tmp, sizeof(tmp));
	}
	if (fd < 0)
		return fd;
	ret = rep_write_fd(rep, r, fd);
	if (ret == 0 && fsync(fd) < 0)
		ret = -errno;
	if (ret == 0 && renameat(dfd, tmp, dfd, name) < 0)
		ret = -errno;
	if (ret != 0)
		unlinkat(dfd, tmp, 0);
	/* Its mode once renamed: a temporary file keeps dirfile_tmp's 0600, which (with the
	 * mark in its name) tells one a killed run left (removed by --resume and --force), and
	 * a private file replaced is never readable by others meanwhile. The owner before
	 * the mode: chown clears the set-id bits. */
	if (ret == 0 && was && geteuid() == 0 && fchown(fd, was->st_uid, was->st_gid) < 0)
		ret = -errno;
	if (ret == 0 && fchmod(fd, was ? was->st_mode & 0777 : 0644) < 0)
		ret = -errno;
	if (close(fd) != 0 && ret == 0)
		ret = -errno;
	return ret;
}

int rep_write_at(const struct rep_ops *rep, const struct results *r, int dfd, const char *name)
{
	return write_at(rep, r, dfd, name, NULL);
}

int rep_write_path(const struct rep_ops *rep, const struct results *r, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	struct stat st;
	bool there = lstat(path, &st) == 0;
	int dfd, ret;

	/* Renamed over only a regular file (or nothing): never a device, a link, a FIFO. */
	if (there && !S_ISREG(st.st_mode))
		return -EEXIST;
	if (!(dir = path_dirname(path)))
		return -ENOMEM;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (dfd < 0)
		return -errno;
	ret = write_at(rep, r, dfd, slash ? slash + 1 : path, there ? &st : NULL);
	close(dfd);
	return ret;
}

int rep_write_file(const struct rep_ops *rep, const struct results *r, int dfd)
{
	return rep_write_at(rep, r, dfd, rep->file);
}
