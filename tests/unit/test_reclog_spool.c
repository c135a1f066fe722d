/* Unit tests for reclog_spool_open's file made by name, where O_TMPFILE is not supported:
 * this binary's own open, openat, unlink and unlinkat stand in for libc's (they come first
 * at link time), fail O_TMPFILE on demand, and can swap $TMPDIR for a fresh folder holding
 * a file of the spool's name just before the spool is unlinked. The spool must come back
 * O_APPEND and unlinked, leave nothing in $TMPDIR, and never unlink the file swapped in. */
#include "engine/io/reclog.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

static char dir[4096], moved[4200], victim[4400];
static bool fail_tmpfile; /* O_TMPFILE fails as on a file system without it */
static bool swap_armed;	  /* the next unlink swaps the folder first */

/* Put a fresh folder in place of `dir` (moved aside) holding a file named as the spool. */
static void swap(const char *path)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int fd;

	if (!swap_armed)
		return;
	swap_armed = false;
	snprintf(victim, sizeof(victim), "%s/%s", dir, name);
	if (rename(dir, moved) < 0 || mkdir(dir, 0700) < 0)
		return;
	fd = (int)syscall(SYS_openat, AT_FDCWD, victim, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd >= 0)
		close(fd);
}

int openat(int dfd, const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, int) : 0;
	va_end(ap);
	if (fail_tmpfile && (flags & O_TMPFILE) == O_TMPFILE) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return (int)syscall(SYS_openat, dfd, path, flags, mode);
}

#include "tests/unit/open_shim.h"

int unlinkat(int dfd, const char *path, int flags)
{
	swap(path);
	return (int)syscall(SYS_unlinkat, dfd, path, flags);
}

int unlink(const char *path)
{
	return unlinkat(AT_FDCWD, path, 0);
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(dir, sizeof(dir), "%s/iotrial-spool.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	snprintf(moved, sizeof(moved), "%s.moved", dir);
	return setenv("TMPDIR", dir, 1);
}

static int teardown(void **state)
{
	(void)state;
	if (*victim)
		syscall(SYS_unlinkat, AT_FDCWD, victim, 0);
	rmdir(moved);
	rmdir(dir);
	return 0;
}

/* Entries in `path` other than . and .., or -1 when it cannot be read. */
static int entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* The spool as reclog.h promises: appending, already unlinked. */
static void assert_spool(int fd)
{
	struct stat st;

	assert_true(fd >= 0);
	assert_true(fcntl(fd, F_GETFL) & O_APPEND);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_nlink, 0);
}

static void test_tmpfile(void **state)
{
	int fd;

	(void)state;
	fail_tmpfile = false;
	fd = reclog_spool_open();
	assert_spool(fd);
	close(fd);
	assert_int_equal(entries(dir), 0);
}

static void test_named(void **state)
{
	int fd;

	(void)state;
	fail_tmpfile = true;
	fd = reclog_spool_open();
	assert_spool(fd);
	close(fd);
	assert_int_equal(entries(dir), 0);
}

/* $TMPDIR replaced between the create and the unlink: the file swapped in stays, and the
 * spool is gone from the folder it was made in. */
static void test_named_swapped(void **state)
{
	int fd;

	(void)state;
	fail_tmpfile = true;
	swap_armed = true;
	fd = reclog_spool_open();
	assert_false(swap_armed);
	if (access(victim, F_OK) < 0)
		fail_msg("the file swapped in as '%s' was unlinked", victim);
	assert_spool(fd);
	close(fd);
	assert_int_equal(entries(moved), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tmpfile),
	    cmocka_unit_test(test_named),
	    cmocka_unit_test(test_named_swapped),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
