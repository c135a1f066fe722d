/* The lock file of a result folder (see outlock.h): one flock per folder, so two runs never
 * share it, and the holder's pid in the file, so the refused run can name it. */
#include "cli/outlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/dirfile.h"

/* The pid another run wrote into the lock file it holds, or 0. */
static long lock_holder(int fd)
{
	char buf[24] = {0};

	if (pread(fd, buf, sizeof(buf) - 1, 0) <= 0)
		return 0;
	return strtol(buf, NULL, 10);
}

/* Take OUTLOCK_NAME with flock. A run that lets go removes the file while it still holds the
 * lock; one that opened it just before then locks a file that is no longer there (no link
 * left), so the lock counts only when the name still leads to the locked file, and that is
 * asked first: a file gone, or another in its place, is tried again, never called foreign
 * (dirfile_open does the same between its look and its open). Returns the descriptor, -EBUSY
 * (with the holder's pid in *holder), -EAGAIN (still changing after 100 tries) or -errno. */
static int lock_take(int dfd, long *holder)
{
	for (int tries = 0; tries < 100; tries++) {
		/* A FIFO or a device in its place is looked at, never opened (dirfile_open). */
		int fd = dirfile_open(dfd, OUTLOCK_NAME, O_RDWR | O_CREAT, 0644);
		struct stat a, b;
		char pid[24];
		bool gone;
		int n;

		if (dirfile_refused(fd))
			return -EEXIST; /* not a file iotrial made: never write into it */
		if (fd < 0)
			return fd;
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int err = errno;
			*holder = lock_holder(fd);
			close(fd);
			return err == EWOULDBLOCK ? -EBUSY : -err;
		}
		gone = fstatat(dfd, OUTLOCK_NAME, &b, AT_SYMLINK_NOFOLLOW) < 0;
		if (fstat(fd, &a) < 0 || (gone && errno != ENOENT)) {
			int err = errno;
			close(fd);
			return -err;
		}
		/* Gone, or another file in its place: the run before let go; look again. */
		if (gone || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
			close(fd);
			continue;
		}
		if (dirfile_fit(&a) < 0) {
			close(fd);
			return -EEXIST; /* not a file iotrial made: never write into it */
		}
		n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
		if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
			int err = errno ? errno : EIO;
			unlinkat(dfd, OUTLOCK_NAME, 0);
			close(fd);
			return -err;
		}
		return fd;
	}
	return -EAGAIN; /* taken and let go 100 times over: no holder to name */
}

int outlock_take(int dfd, const char *path)
{
	long holder = 0;
	int ret = lock_take(dfd, &holder);

	if (ret == -EBUSY)
		fprintf(
		    stderr,
		    "iotrial: result folder '%s' is in use by another iotrial run (pid %ld): wait for it to end, or choose another folder\n",
		    path, holder);
	else if (ret == -EEXIST)
		fprintf(stderr,
			"iotrial: result folder '%s' holds a '%s' that iotrial did not make\n",
			path, OUTLOCK_NAME);
	else if (ret < 0)
		fprintf(stderr, "iotrial: cannot write to result folder '%s': %s\n", path,
			strerror(-ret));
	return ret;
}

long outlock_holder(const char *path)
{
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int fd = dfd < 0 ? -1 : dirfile_open(dfd, OUTLOCK_NAME, O_RDONLY, 0);
	long holder = 0;

	/* A lock taken and let go at once, on the file as it is: nothing is written. */
	if (fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK)
		holder = lock_holder(fd) > 0 ? lock_holder(fd) : -1;
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	return holder;
}

bool outlock_foreign(const char *path)
{
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	bool foreign = false;

	if (dfd >= 0)
		foreign = dirfile_refused(dirfile_stat(dfd, OUTLOCK_NAME, &st));
	if (dfd >= 0)
		close(dfd);
	return foreign;
}
