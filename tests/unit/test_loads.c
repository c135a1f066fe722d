/* Unit tests for engine/run/loads.c: loads_open_entry, the open of a copytree's source
 * entry, with the entry swapped between the look (fstatat, as the copy's walk makes it) and
 * the open. Whatever took its place, the open neither follows it nor waits on it, and says
 * what happened; a file replaced by a file is opened and described as it is now. */
#include "engine/run/loads.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

enum swap { TO_NOTHING, TO_FIFO, TO_SYMLINK, TO_DIR, TO_FILE };

/* Put `to` in the place of `name` in `dir` (the old entry moved aside, as a swapper would). */
static void swap_entry(int dir, const char *name, enum swap to)
{
	char aside[64];
	int fd;

	snprintf(aside, sizeof(aside), "%s.aside", name);
	assert_int_equal(renameat(dir, name, dir, aside), 0);
	switch (to) {
	case TO_NOTHING:
		break;
	case TO_FIFO:
		assert_int_equal(mkfifoat(dir, name, 0644), 0);
		break;
	case TO_SYMLINK:
		assert_int_equal(symlinkat("/etc/passwd", dir, name), 0);
		break;
	case TO_DIR:
		assert_int_equal(mkdirat(dir, name, 0755), 0);
		break;
	case TO_FILE:
		fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		assert_true(fd >= 0);
		assert_int_equal(fchmod(fd, 0600), 0);
		assert_int_equal(write(fd, "secret", 6), 6);
		close(fd);
		break;
	}
}

/* Remove `name` from `dir`, a folder or not; gone already is fine. */
static void remove_entry(int dir, const char *name)
{
	if (unlinkat(dir, name, 0) < 0 && errno != ENOENT)
		assert_int_equal(unlinkat(dir, name, AT_REMOVEDIR), 0);
}

static void test_swapped(void **state)
{
	static const struct {
		bool folder; /* the entry was a folder when looked at, else a file */
		enum swap to;
		int want; /* an fd (>= 0), or -errno */
		const char *msg;
	} cases[] = {
	    {false, TO_FIFO, -ESTALE,
	     "copytree: cannot open 'T/e': it was a file and is now a FIFO (replaced while the tree was copied), which iotrial leaves alone"},
	    {false, TO_SYMLINK, -ELOOP,
	     "copytree: cannot open 'T/e': it is a symbolic link, which iotrial does not follow"},
	    {false, TO_DIR, -ESTALE,
	     "copytree: cannot open 'T/e': it was a file and is now a folder (replaced while the tree was copied), which iotrial leaves alone"},
	    {true, TO_SYMLINK, -ELOOP,
	     "copytree: cannot read 'T/e': it is a symbolic link, which iotrial does not follow"},
	    {true, TO_FIFO, -ESTALE,
	     "copytree: cannot read 'T/e': it was a folder and is now a FIFO (replaced while the tree was copied), which iotrial leaves alone"},
	    {true, TO_FILE, -ESTALE,
	     "copytree: cannot read 'T/e': it was a folder and is now a file (replaced while the tree was copied), which iotrial leaves alone"},
	    {false, TO_NOTHING, -ENOENT, ""},
	    {false, TO_FILE, 0, ""},
	    {true, TO_DIR, 0, ""},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char tmp[] = "/tmp/iotrial-test-loads.XXXXXX", err[512] = "";
		struct stat seen, st;
		int dir, fd;

		assert_non_null(mkdtemp(tmp));
		dir = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		assert_true(dir >= 0);
		if (cases[i].folder) {
			assert_int_equal(mkdirat(dir, "e", 0755), 0);
		} else {
			fd = openat(dir, "e", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			assert_true(fd >= 0);
			close(fd);
		}
		assert_int_equal(fstatat(dir, "e", &seen, AT_SYMLINK_NOFOLLOW), 0);
		swap_entry(dir, "e", cases[i].to);

		fd = loads_open_entry(dir, "e", "T/e", seen.st_mode, &st, err, sizeof(err));
		if (cases[i].want < 0) {
			assert_int_equal(fd, cases[i].want);
			assert_string_equal(err, cases[i].msg);
		} else {
			assert_true(fd >= 0);
			/* What was opened, described by itself, not by the look before. */
			assert_int_equal(st.st_mode & S_IFMT, seen.st_mode & S_IFMT);
			assert_true(st.st_ino != seen.st_ino);
			if (!cases[i].folder)
				assert_int_equal(st.st_mode & 07777, 0600);
			assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
			close(fd);
		}
		remove_entry(dir, "e");
		remove_entry(dir, "e.aside");
		close(dir);
		assert_int_equal(rmdir(tmp), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_swapped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
