/* An LD_PRELOAD shim for t0023-plan-scale.sh and t0047-swaps.sh: pthread_create and fork
 * fail (EAGAIN) after SHIM_THREADS and SHIM_FORKS calls, and the file named SHIM_SWAP is
 * swapped just before iotrial first opens it with O_NOFOLLOW (the race a hostile user wins
 * once in a while, made certain); SHIM_SWAP_OPEN names a path swapped before its first
 * open(2) of any kind, SHIM_SWAP_OPENED one swapped just after its first open(2), and
 * SHIM_SWAP_STAT one swapped just after its first stat(2); SHIM_SWAP_SKIP=N lets the N
 * first of those calls through. SHIM_NO_PROC hides /proc/self/fd. What takes
 * its place: a symlink to SHIM_SWAP_LINK, or to the original (moved aside to NAME.aside),
 * or, as SHIM_SWAP_TO says, a FIFO ("fifo"), an empty folder ("dir") or a new file of mode
 * 0600 holding "secret" ("file"). SHIM_HOLD_OPEN names a path whose first open(2) waits
 * until the file SHIM_HOLD_GO exists, having created SHIM_HOLD_GO.waiting: a test runs
 * another iotrial in between, certain where this one stands (t0036-resume.sh). */
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

typedef int (*openat_fn)(int, const char *, int, ...);

static openat_fn real_openat(void)
{
	return (openat_fn)dlsym(RTLD_NEXT, "openat");
}

/* Put SHIM_SWAP_TO in the place of `path` (relative to `dirfd`), moved aside to NAME.aside. */
static void swap_now(int dirfd, const char *path)
{
	const char *to = getenv("SHIM_SWAP_TO") ? getenv("SHIM_SWAP_TO") : "symlink";
	const char *link = getenv("SHIM_SWAP_LINK");
	char aside[4096];

	snprintf(aside, sizeof(aside), "%s.aside", path);
	renameat(dirfd, path, dirfd, aside);
	if (!strcmp(to, "fifo")) {
		mkfifoat(dirfd, path, 0644);
	} else if (!strcmp(to, "dir")) {
		mkdirat(dirfd, path, 0755);
	} else if (!strcmp(to, "file")) {
		int fd = real_openat()(dirfd, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0) {
			(void)!write(fd, "secret", 6);
			close(fd);
		}
	} else {
		symlinkat(link ? link : aside, dirfd, path);
	}
}

/* Is `path` the one `var` names, met for the first time (of any of the swaps) after the
 * SHIM_SWAP_SKIP times (0 unless set) it is let through? */
static int first(const char *var, const char *path)
{
	const char *swap = getenv(var), *skip = getenv("SHIM_SWAP_SKIP");
	static atomic_int met;

	if (!swap || strcmp(path, swap) || (skip && atomic_fetch_add(&met, 1) < atoi(skip)))
		return 0;
	return !atomic_exchange(&swapped, 1);
}

/* SHIM_NO_PROC: /proc/self/fd is not there (ENOENT), as on a system without /proc. */
static int no_proc(const char *path)
{
	if (!getenv("SHIM_NO_PROC") || strncmp(path, "/proc/self/fd/", 14))
		return 0;
	errno = ENOENT;
	return 1;
}

/* SHIM_HOLD_OPEN: wait at the first open of that path until SHIM_HOLD_GO exists. */
static void hold(const char *path)
{
	const char *on = getenv("SHIM_HOLD_OPEN"), *go = getenv("SHIM_HOLD_GO");
	static atomic_int held;
	char waiting[4096];

	if (!on || !go || strcmp(path, on) || atomic_exchange(&held, 1))
		return;
	snprintf(waiting, sizeof(waiting), "%s.waiting", go);
	close(real_openat()(AT_FDCWD, waiting, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	while (access(go, F_OK) != 0)
		usleep(10000);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & O_CREAT) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (no_proc(path))
		return -1;
	if (dirfd == AT_FDCWD)
		hold(path);
	if (((flags & O_NOFOLLOW) && first("SHIM_SWAP", path)) ||
	    (dirfd == AT_FDCWD && first("SHIM_SWAP_OPEN", path)))
		swap_now(dirfd, path);
	int fd = real_openat()(dirfd, path, flags, mode);
	if (dirfd == AT_FDCWD && first("SHIM_SWAP_OPENED", path))
		swap_now(dirfd, path);
	return fd;
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & O_CREAT) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (no_proc(path))
		return -1;
	hold(path);
	if (first("SHIM_SWAP_OPEN", path))
		swap_now(AT_FDCWD, path);
	int fd = real_openat()(AT_FDCWD, path, flags, mode);
	if (first("SHIM_SWAP_OPENED", path))
		swap_now(AT_FDCWD, path);
	return fd;
}

int stat(const char *restrict path, struct stat *restrict st)
{
	int (*real)(const char *, struct stat *) =
	    (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "stat");
	int ret = real(path, st);

	if (first("SHIM_SWAP_STAT", path))
		swap_now(AT_FDCWD, path);
	return ret;
}
