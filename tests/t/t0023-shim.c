/* An LD_PRELOAD shim for t0023-plan-scale.sh and t0047-swaps.sh: pthread_create and fork
 * fail (EAGAIN) after SHIM_THREADS and SHIM_FORKS calls, and the file named SHIM_SWAP is
 * swapped just before iotrial first opens it with O_NOFOLLOW (the race a hostile user wins
 * once in a while, made certain): for a symlink to it (moved aside to NAME.aside), or, as
 * SHIM_SWAP_TO says, for a FIFO ("fifo"), an empty folder ("dir") or a new file of mode
 * 0600 holding "secret" ("file"). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static atomic_int threads, forks, swapped;

static int over(const char *var, atomic_int *n)
{
	const char *v = getenv(var);
	return v && atomic_fetch_add(n, 1) >= atoi(v);
}

int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg)
{
	int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) =
	    (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))dlsym(
		RTLD_NEXT, "pthread_create");
	if (over("SHIM_THREADS", &threads))
		return EAGAIN;
	return real(t, a, f, arg);
}

pid_t fork(void)
{
	pid_t (*real)(void) = (pid_t(*)(void))dlsym(RTLD_NEXT, "fork");
	if (over("SHIM_FORKS", &forks)) {
		errno = EAGAIN;
		return -1;
	}
	return real();
}

int openat(int dirfd, const char *path, int flags, ...)
{
	int (*real)(int, const char *, int, ...) =
	    (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	const char *swap = getenv("SHIM_SWAP");
	mode_t mode = 0;
	char aside[4096];

	if (flags & O_CREAT) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (swap && (flags & O_NOFOLLOW) && !strcmp(path, swap) && !atomic_exchange(&swapped, 1)) {
		snprintf(aside, sizeof(aside), "%s.aside", path);
		const char *to = getenv("SHIM_SWAP_TO") ? getenv("SHIM_SWAP_TO") : "symlink";
		renameat(dirfd, path, dirfd, aside);
		if (!strcmp(to, "fifo")) {
			mkfifoat(dirfd, path, 0644);
		} else if (!strcmp(to, "dir")) {
			mkdirat(dirfd, path, 0755);
		} else if (!strcmp(to, "file")) {
			int fd = real(dirfd, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
			if (fd >= 0) {
				(void)!write(fd, "secret", 6);
				close(fd);
			}
		} else {
			symlinkat(aside, dirfd, path);
		}
	}
	return real(dirfd, path, flags, mode);
}
