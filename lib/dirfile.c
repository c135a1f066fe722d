/* Files in a held folder (see dirfile.h): a look through O_PATH before any open, names
 * relative to the folder's descriptor, temporary names drawn here since mkstemp takes a
 * path, not a folder's descriptor. */
#include "lib/dirfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char tmp_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

int dirfile_fit(const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		return -ELOOP;
	if (!S_ISREG(st->st_mode))
		return -EINVAL;
	return st->st_nlink == 1 ? 0 : -EMLINK;
}

/* dirfile_fit, and -ESTALE for a file removed since its name was looked up (no link left):
 * gone, not refused. */
static int fit_linked(const struct stat *st)
{
	return S_ISREG(st->st_mode) && st->st_nlink == 0 ? -ESTALE : dirfile_fit(st);
}

/* Open the file `look` (O_PATH) stands for, NAME in `dfd`, with `flags`. */
static int reopen(int dfd, const char *name, int look, int flags)
{
	char proc[32];
	struct stat a, b;
	int fd, ret;

	/* /proc/self/fd/N is a link to the inode itself: not opened with O_NOFOLLOW. */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", look);
	do
		fd = open(proc, flags & ~(O_NOFOLLOW | O_TRUNC));
	while (fd < 0 && errno == EINTR);
	/* No /proc: by the name, then checked to be the inode looked at. */
	if (fd < 0 && errno == ENOENT)
		fd = openat(dfd, name, flags & ~O_TRUNC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &b) < 0 || fstat(look, &a) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	ret = a.st_dev != b.st_dev || a.st_ino != b.st_ino ? -ESTALE : fit_linked(&b);
	/* Cut only once it is known to be the file looked at: opened by name, O_TRUNC would
	 * have cut a file swapped in before the check. */
	if (!ret && (flags & O_TRUNC) && ftruncate(fd, 0) < 0)
		ret = -errno;
	if (ret < 0) {
		close(fd);
		return ret;
	}
	return fd;
}

int dirfile_stat(int dfd, const char *name, struct stat *st)
{
	if (fstatat(dfd, name, st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	return dirfile_fit(st);
}

bool dirfile_refused(int err)
{
	return err == -ELOOP || err == -EINVAL || err == -EMLINK;
}

int dirfile_open(int dfd, const char *name, int flags, mode_t mode)
{
	int base = (flags & ~(O_CREAT | O_EXCL)) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;

	/* Created or found: a name made between the look and the create, or removed or replaced
	 * between the look and the open (a run letting go of its lock file), is looked at
	 * again. */
	int fd = -EEXIST;

	for (int tries = 0; tries < 8; tries++) {
		int look = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;

		if (look < 0 && errno == ENOENT && (flags & O_CREAT)) {
			fd = openat(dfd, name, base | O_CREAT | O_EXCL, mode);
			if (fd >= 0 || errno != EEXIST)
				return fd >= 0 ? fd : -errno;
			fd = -EEXIST;
			continue;
		}
		if (look < 0)
			return -errno;
		fd = fstat(look, &st) < 0 ? -errno : fit_linked(&st);
		if (fd == 0)
			fd = reopen(dfd, name, look, base);
		close(look);
		/* -ENOENT here is reopen's by name: removed since the look. */
		if (fd != -ESTALE && fd != -ENOENT)
			return fd;
	}
	/* Still changing after 8 looks: the last error (an ESTALE of NFS's own is not a
	 * file iotrial did not make). */
	return fd;
}

int dirfile_subdir(int dfd, const char *name)
{
	int fd;

	if (mkdirat(dfd, name, 0755) < 0 && errno != EEXIST)
		return -errno;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return fd;
}

int dirfile_tmp(int dfd, const char *name, char *tmp, size_t len)
{
	unsigned char rnd[DIRFILE_TMP_RAND];
	int n = snprintf(tmp, len, ".%s.%sXXXXXX", name, DIRFILE_TMP_MARK);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	for (int tries = 0; tries < 100; tries++) {
		int fd;
		if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
			/* No entropy yet (early boot): the clock and the pid will do. */
			struct timespec ts;
			clock_gettime(CLOCK_MONOTONIC, &ts);
			for (size_t i = 0; i < sizeof(rnd); i++)
				rnd[i] =
				    (unsigned char)((ts.tv_nsec >> (i * 5)) ^ getpid() ^ tries);
		}
		for (int i = 0; i < DIRFILE_TMP_RAND; i++)
			tmp[n - DIRFILE_TMP_RAND + i] =
			    tmp_alphabet[rnd[i] % (sizeof(tmp_alphabet) - 1)];
		fd = openat(dfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/* Is `entry` a name dirfile_tmp gives for NAME: `.NAME.`, the mark, 6 of its letters? */
static bool is_tmp_name(const char *entry, const char *name)
{
	size_t n = strlen(entry), len = strlen(name), mark = sizeof(DIRFILE_TMP_MARK) - 1;

	if (n != len + 2 + DIRFILE_TMP_TAIL || entry[0] != '.' || strncmp(entry + 1, name, len) ||
	    entry[len + 1] != '.' || strncmp(entry + len + 2, DIRFILE_TMP_MARK, mark))
		return false;
	for (size_t i = len + 2 + mark; i < n; i++)
		if (!memchr(tmp_alphabet, entry[i], sizeof(tmp_alphabet) - 1))
			return false;
	return true;
}

bool dirfile_tmp_left(int dfd, const char *entry, const char *name)
{
	struct stat st;

	return is_tmp_name(entry, name) && dirfile_stat(dfd, entry, &st) == 0 &&
	       st.st_uid == geteuid() && (st.st_mode & 07777) == 0600;
}
