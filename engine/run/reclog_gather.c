/* The record and interval logs of a distributed run (see reclog.h): the other ranks spool
 * their lines to a file of their own while a trial runs, and after it stream them to rank 0,
 * which appends them to the log in the result folder. Rank 0 asks one rank at a time and
 * each message is at most one chunk, so rank 0's memory is one chunk however many lines a
 * rank logged and however many ranks there are; ranks on hosts without a shared file system
 * need nothing but MPI. */
#include "engine/io/reclog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/dist/dist.h"
#include "lib/dirfile.h"

/* Each message: this head, then up to RECLOG_CHUNK bytes of lines. */
struct head {
	int32_t err;   /* the sender's lines are incomplete: -errno; 0: they are whole */
	uint32_t last; /* no more messages from this rank for this log */
};

/* A spool by name in the folder `dfd` where O_TMPFILE is not supported: made and unlinked
 * through the folder's descriptor, so a TMPDIR renamed or swapped for a symlink meanwhile
 * neither receives the file nor loses one of its own to the unlink. */
static int spool_named(int dfd)
{
	char tmp[sizeof(".iotrial-spool.") + DIRFILE_TMP_TAIL];
	int fd = dirfile_tmp(dfd, "iotrial-spool", tmp, sizeof(tmp)), err;

	if (fd < 0)
		return fd;
	err = fcntl(fd, F_SETFL, O_APPEND) < 0 ? -errno : 0;
	if (unlinkat(dfd, tmp, 0) < 0 && !err)
		err = -errno;
	if (!err)
		return fd;
	close(fd);
	return err;
}

int reclog_spool_open(void)
{
	const char *dir = getenv("TMPDIR");
	int dfd, fd;

	if (!dir || !*dir)
		dir = "/tmp";
	/* O_PATH: the folder needs no read permission, only what creating a file in it needs. */
	if ((dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	fd = openat(dfd, ".", O_TMPFILE | O_RDWR | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0)
		fd = spool_named(dfd);
	close(dfd);
	return fd;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static ssize_t read_at(int fd, char *p, size_t n, off_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, p + got, n - got, off + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EIO; /* the spool shrank under us: not ours to explain */
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* Rank 0: take rank `from`'s lines, chunk by chunk, into `fd` (while it takes them). */
static int take(int from, int fd, char *buf, int *werr, int *bad_err)
{
	struct head h;
	int go = 1;
	ssize_t n;

	if (dist_send(from, &go, sizeof(go)) < 0)
		return -EIO;
	do {
		if ((n = dist_recv(from, buf, sizeof(h) + RECLOG_CHUNK)) < (ssize_t)sizeof(h))
			return -EIO;
		memcpy(&h, buf, sizeof(h));
		if (h.err && !*bad_err)
			*bad_err = h.err;
		if (fd >= 0 && !*werr)
			*werr = write_all(fd, buf + sizeof(h), (size_t)n - sizeof(h));
	} while (!h.last);
	return 0;
}

/* Another rank: wait for rank 0's turn, send the spool, empty it. */
static int give(int fd, int local_err)
{
	struct head h = {local_err, 0};
	struct stat st;
	off_t size = 0, off = 0;
	size_t cap;
	char *buf;
	int go;

	if (fd < 0 || fstat(fd, &st) < 0)
		h.err = h.err ? h.err : fd < 0 ? -EBADF : -errno;
	else
		size = st.st_size;
	cap = size < RECLOG_CHUNK ? (size_t)size : RECLOG_CHUNK;
	if (!(buf = malloc(sizeof(h) + cap)))
		dist_abort(1, "out of memory for a record log chunk");
	if (dist_recv(0, &go, sizeof(go)) != sizeof(go)) {
		free(buf);
		return -EIO;
	}
	do {
		size_t n = (size_t)(size - off) < cap ? (size_t)(size - off) : cap;
		ssize_t got = n ? read_at(fd, buf + sizeof(h), n, off) : 0;
		if (got < 0) {
			h.err = h.err ? h.err : (int32_t)got;
			got = 0;
		}
		off += got;
		h.last = got == 0 || off >= size;
		/* A write cut short (a full disk) leaves part of a line at the end: it would run
		 * into the next rank's first line at rank 0. The error is already in h.err. */
		while (h.last && got > 0 && buf[sizeof(h) + (size_t)got - 1] != '\n')
			got--;
		memcpy(buf, &h, sizeof(h));
		if (dist_send(0, buf, sizeof(h) + (size_t)got) < 0) {
			free(buf);
			return -EIO;
		}
	} while (!h.last);
	free(buf);
	/* Emptied, or the next trial would send these lines again. O_APPEND: the next lines
	 * start at offset 0. */
	while (fd >= 0 && ftruncate(fd, 0) < 0)
		if (errno != EINTR)
			dist_abort(1, "cannot empty the record log spool: %s", strerror(errno));
	return 0;
}

int reclog_gather(int fd, int local_err, int *bad_rank, int *bad_err)
{
	int n = dist_size(), werr = 0;
	char *buf;

	*bad_rank = 0;
	*bad_err = 0;
	if (n == 1)
		return 0;
	if (dist_rank() != 0) {
		if (give(fd, local_err) < 0)
			dist_abort(1, "cannot send the record log to rank 0");
		return 0;
	}
	if (!(buf = malloc(sizeof(struct head) + RECLOG_CHUNK)))
		dist_abort(1, "out of memory for a record log chunk");
	for (int r = 1; r < n; r++) {
		int err = 0;
		if (take(r, fd, buf, &werr, &err) < 0)
			dist_abort(1, "cannot receive the record log of rank %d", r);
		if (err && !*bad_err) {
			*bad_rank = r;
			*bad_err = err;
		}
	}
	free(buf);
	return werr;
}
