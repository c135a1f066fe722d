/* Look, check, then open what was looked at (see look.h). */
#include "engine/run/look.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int look_check(const struct ledger_entry *e, const char *path, int fd, char *err, size_t errlen)
{
	struct stat st;

	if (e)
		return ledger_check(e, fd, err, errlen);
	if (fstat(fd, &st) < 0) {
		int ret = -errno;
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(-ret));
		return ret;
	}
	if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))
		return 0;
	snprintf(
	    err, errlen,
	    "'%s' is no longer a file or a block device (a FIFO, a socket or a character device was put in its place during the run): not using it",
	    path);
	return -EINVAL;
}

/* The end of an open of `path`: `fd`, checked with look_check (closed when it fails), or,
 * when the open failed, its -errno `ret`; either way -errno comes with a message in `err`. */
static int checked(const struct ledger_entry *e, const char *path, int fd, int ret, char *err,
		   size_t errlen)
{
	if (fd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(-ret));
		return ret;
	}
	if ((ret = look_check(e, path, fd, err, errlen)) < 0) {
		close(fd);
		return ret;
	}
	return fd;
}

int look_at(const struct ledger *l, const char *path, char *err, size_t errlen)
{
	const struct ledger_entry *e = l ? ledger_find(l, path) : NULL;
	const char *name = path;
	int dirfd = AT_FDCWD, extra = 0, fd;

	if (e)
		ledger_where(l, e, &dirfd, &name, &extra);
	fd = openat(dirfd, name, O_PATH | O_CLOEXEC | (extra & O_NOFOLLOW));
	return checked(e, path, fd, fd < 0 ? -errno : 0, err, errlen);
}

void look_name(int look, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d", look);
}

int look_open(const struct ledger *l, const char *path, int flags, char *err, size_t errlen)
{
	const struct ledger_entry *e = ledger_find(l, path);
	const char *name = path;
	int dirfd = AT_FDCWD, extra = 0, look = look_at(l, path, err, errlen), fd, ret;
	char proc[32];

	if (look < 0)
		return look;
	look_name(look, proc, sizeof(proc));
	do
		fd = open(proc, flags | O_NONBLOCK | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0 && errno == ENOENT) {
		/* No /proc: by the name, as before the look; the check below still holds. */
		if (e)
			ledger_where(l, e, &dirfd, &name, &extra);
		fd = openat(dirfd, name, flags | extra | O_NONBLOCK | O_CLOEXEC);
	}
	ret = fd < 0 ? -errno : 0;
	close(look);
	return checked(e, path, fd, ret, err, errlen);
}
