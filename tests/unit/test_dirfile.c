/* Unit tests for lib/dirfile.c: the one check of "a regular file with one link" that the
 * result folder's code asks (dirfile_stat, dirfile_fit, dirfile_refused) gives, for each kind
 * of file planted in a folder, what dirfile_open gives, and a temporary file is one
 * dirfile_tmp_left takes for a killed run's while no look-alike of a user's is (a umask 077
 * backup, an older name, a link, a FIFO). Table-driven, in a fresh folder under $TMPDIR.
 * This binary's open and openat stand in for libc's (they come first at link time): to play
 * a system without /proc, and a swap between dirfile_open's look and its open. */
#include "lib/dirfile.h"

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

static char dir[4096];
static int dfd = -1;

/* no_proc: /proc/self/fd/N is not there. swap_to: at the first open of `swap_name` in the
 * folder that is not a look (O_PATH), `swap_to` takes its place, by a rename. */
static bool no_proc;
static const char *swap_name, *swap_to;

int openat(int at, const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, int) : 0;
	va_end(ap);
	if (no_proc && !strncmp(path, "/proc/self/fd/", 14)) {
		errno = ENOENT;
		return -1;
	}
	if (swap_name && at == dfd && !strcmp(path, swap_name) && !(flags & O_PATH)) {
		if (renameat(dfd, swap_to, dfd, swap_name) < 0)
			return -1;
		swap_name = NULL;
	}
	return (int)syscall(SYS_openat, at, path, flags, mode);
}

#include "tests/unit/open_shim.h"

/* A folder holding one of each kind: a file, a hard link pair, a symlink, a FIFO, a folder. */
static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/iotrial-dirfile.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir) || (dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	if ((fd = openat(dfd, "file", O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0)
		return -1;
	close(fd);
	if ((fd = openat(dfd, "linked", O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0)
		return -1;
	close(fd);
	if (linkat(dfd, "linked", dfd, "linked2", 0) < 0 || symlinkat("file", dfd, "symlink") < 0 ||
	    mkfifoat(dfd, "fifo", 0644) < 0 || mkdirat(dfd, "sub", 0755) < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	static const char *const names[] = {"file", "linked", "linked2", "symlink", "fifo"};

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlinkat(dfd, names[i], 0);
	unlinkat(dfd, "sub", AT_REMOVEDIR);
	close(dfd);
	rmdir(dir);
	return 0;
}

static const struct {
	const char *name;
	int want; /* dirfile_stat's and dirfile_open's answer */
} kinds[] = {
    {"file", 0},       {"linked", -EMLINK}, {"linked2", -EMLINK}, {"symlink", -ELOOP},
    {"fifo", -EINVAL}, {"sub", -EINVAL},    {"missing", -ENOENT},
};

static void test_stat(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct stat st;
		int got = dirfile_stat(dfd, kinds[i].name, &st);
		if (got != kinds[i].want)
			fail_msg("dirfile_stat(\"%s\") is %d, want %d", kinds[i].name, got,
				 kinds[i].want);
		if (dirfile_refused(got) != (got != 0 && got != -ENOENT))
			fail_msg("dirfile_refused(%d) for \"%s\" is %d", got, kinds[i].name,
				 dirfile_refused(got));
	}
}

/* The look and the open agree: what dirfile_stat passes, dirfile_open opens, and no more. */
static void test_open_agrees(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		int fd = dirfile_open(dfd, kinds[i].name, O_RDONLY, 0), got = fd < 0 ? fd : 0;
		if (fd >= 0)
			close(fd);
		if (got != kinds[i].want)
			fail_msg("dirfile_open(\"%s\") is %d, want %d", kinds[i].name, got,
				 kinds[i].want);
	}
}

/* An open file that gains a link after it was opened: the fstat says so. */
static void test_fit_open(void **state)
{
	struct stat st;
	int fd = dirfile_open(dfd, "file", O_RDONLY, 0);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(dirfile_fit(&st), 0);
	assert_int_equal(linkat(dfd, "file", dfd, "file2", 0), 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(dirfile_fit(&st), -EMLINK);
	unlinkat(dfd, "file2", 0);
	close(fd);
}

/* dirfile_tmp's file is a killed run's leftover as made (0600), not once given a mode. */
static void test_tmp_left(void **state)
{
	char tmp[64];
	int fd = dirfile_tmp(dfd, "results.json", tmp, sizeof(tmp));

	(void)state;
	assert_true(fd >= 0);
	assert_true(dirfile_tmp_left(dfd, tmp, "results.json"));
	assert_false(dirfile_tmp_left(dfd, tmp, "results.jso"));
	assert_false(dirfile_tmp_left(dfd, tmp, "summary.txt"));
	assert_int_equal(fchmod(fd, 0644), 0);
	assert_false(dirfile_tmp_left(dfd, tmp, "results.json"));
	assert_int_equal(fchmod(fd, 0600), 0);
	assert_int_equal(linkat(dfd, tmp, dfd, "tmp2", 0), 0);
	assert_false(dirfile_tmp_left(dfd, tmp, "results.json"));
	unlinkat(dfd, "tmp2", 0);
	unlinkat(dfd, tmp, 0);
	close(fd);
}

/* The names and kinds a user's or another's file may have beside a result file, each
 * planted 0600 (a cp under umask 077): only dirfile_tmp's name with its mark, a regular
 * file of ours with one link, is one to remove. */
static const struct {
	const char *name;
	char kind; /* f file, l hard link, s symlink, p FIFO, o another user's (as root) */
	bool left; /* dirfile_tmp_left's answer for NAME results.json */
} look[] = {
    {".results.json." DIRFILE_TMP_MARK "Ab12Cd", 'f', true},
    {".results.json.backup", 'f', false}, /* six letters: a user's cp */
    {".results.json.Ab12Cd", 'f', false}, /* an older iotrial's, or rsync's */
    {".results.json.before", 'f', false},
    {".results.json.iotrial-Ab12Cd", 'f', false},
    {".results.json." DIRFILE_TMP_MARK "Ab12C", 'f', false},
    {".results.json." DIRFILE_TMP_MARK "Ab12Cde", 'f', false},
    {".results.json." DIRFILE_TMP_MARK "Ab-2Cd", 'f', false},
    {"results.json." DIRFILE_TMP_MARK "Ab12Cd", 'f', false},
    {".results.json." DIRFILE_TMP_MARK "Lnk12C", 'l', false},
    {".results.json." DIRFILE_TMP_MARK "Sym12C", 's', false},
    {".results.json." DIRFILE_TMP_MARK "Fifo1C", 'p', false},
    {".results.json." DIRFILE_TMP_MARK "Oth12C", 'o', false},
};

static int plant(const char *name, char kind)
{
	int fd;

	if (kind == 's')
		return symlinkat("file", dfd, name);
	if (kind == 'p')
		return mkfifoat(dfd, name, 0600);
	if (kind == 'l')
		return linkat(dfd, "linked", dfd, name, 0);
	if ((fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0)
		return -1;
	if (fchmod(fd, 0600) < 0 || (kind == 'o' && fchown(fd, 65534, 65534) < 0)) {
		close(fd);
		return -1;
	}
	return close(fd);
}

static void test_tmp_look_alike(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(look) / sizeof(look[0]); i++) {
		if (look[i].kind == 'o' && geteuid() != 0)
			continue; /* only root gives a file away */
		if (plant(look[i].name, look[i].kind) < 0)
			fail_msg("cannot plant \"%s\": %s", look[i].name, strerror(errno));
		if (look[i].kind == 'l')
			assert_int_equal(fchmodat(dfd, "linked", 0600, 0), 0);
		if (dirfile_tmp_left(dfd, look[i].name, "results.json") != look[i].left)
			fail_msg("dirfile_tmp_left(\"%s\") is %d, want %d", look[i].name,
				 !look[i].left, look[i].left);
		unlinkat(dfd, look[i].name, 0);
	}
}

/* Without /proc, dirfile_open reopens by name: a hard link to another file put in place of
 * the file looked at is refused, and that other file is not cut by an O_TRUNC meanwhile. */
static void test_trunc_swapped(void **state)
{
	char buf[16] = "";
	int fd;

	(void)state;
	fd = openat(dfd, "theirs", O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "precious", 8), 8);
	close(fd);
	fd = openat(dfd, "ours", O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(linkat(dfd, "theirs", dfd, "theirs.link", 0), 0);
	no_proc = true;
	swap_name = "ours";
	swap_to = "theirs.link";
	fd = dirfile_open(dfd, "ours", O_WRONLY | O_TRUNC, 0);
	no_proc = false;
	swap_name = NULL;
	assert_int_equal(fd, -EMLINK);
	fd = openat(dfd, "theirs", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), 8);
	close(fd);
	assert_string_equal(buf, "precious");
	/* What it opens, it cuts: the file looked at, once checked. */
	unlinkat(dfd, "ours", 0);
	no_proc = true;
	fd = dirfile_open(dfd, "theirs", O_WRONLY | O_TRUNC, 0);
	no_proc = false;
	assert_true(fd >= 0);
	close(fd);
	fd = openat(dfd, "theirs", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), 0);
	close(fd);
	unlinkat(dfd, "theirs", 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stat),	   cmocka_unit_test(test_open_agrees),
	    cmocka_unit_test(test_fit_open),	   cmocka_unit_test(test_tmp_left),
	    cmocka_unit_test(test_tmp_look_alike), cmocka_unit_test(test_trunc_swapped),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
