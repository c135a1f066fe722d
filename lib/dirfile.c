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

int dirfile_open(int dfd, const char *name, int flags, mode_t mode)
{
	int fd = openat(dfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode);

	return fd < 0 ? -errno : fd;
}

int dirfile_subdir(int dfd, const char *name)
{
	int fd;

	if (mkdirat(dfd, name, 0755) < 0 && errno != EEXIST)
		return -errno;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int dirfile_tmp(int dfd, const char *name, char *tmp, size_t len)
{
	unsigned char rnd[DIRFILE_TMP_RAND];
	int n = snprintf(tmp, len, ".%s.XXXXXX", name);

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
