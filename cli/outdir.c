/* The result folder (see outdir.h): a fresh name for each run, or the -o folder checked for
 * what it holds, emptied of an earlier run only on --force, locked, and probed for writing
 * before the first trial, so a run never ends with results it cannot save. */
#include "cli/outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/outlock.h"
#include "lib/dirfile.h"
#include "reporters/reporter.h"

/* The probe is dirfile_tmp's .iotrial-probe.iotrial~XXXXXX, as a reporter's temporary file
 * is. */
#define PROBE_NAME "iotrial-probe"

int outdir_mkdirs(const char *path)
{
	char *dup = strdup(path);
	int ret = 0;

	if (!dup)
		return -ENOMEM;
	if (!*dup) {
		free(dup);
		return -ENOENT;
	}
	for (char *c = dup + 1;; c++) {
		if (*c != '/' && *c != 0)
			continue;
		char saved = *c;
		struct stat st;
		*c = 0;
		if (mkdir(dup, 0755) < 0 && errno != EEXIST)
			ret = -errno;
		else if (stat(dup, &st) == 0 && !S_ISDIR(st.st_mode))
			ret = -ENOTDIR;
		*c = saved;
		if (!saved || ret < 0)
			break;
	}
	free(dup);
	return ret;
}

/* The name of the i-th file a reporter writes (report.html among them), or NULL past the last. */
static const char *result_name(size_t i)
{
	return i == 0 ? "report.html" : rep_registry[i - 1] ? rep_registry[i - 1]->file : NULL;
}

/* Whether NAME (its first `len` bytes) is a file a reporter writes. */
static bool result_file(const char *name, size_t len)
{
	for (size_t i = 0; result_name(i); i++)
		if (len == strlen(result_name(i)) && !strncmp(name, result_name(i), len))
			return true;
	return false;
}

/* What iotrial leaves in the result folder `dfd` besides the results: the lock file, and a
 * temporary file of the probe's or a result file's that a killed run left, as
 * dirfile_tmp_left alone decides (a user's .results.json.backup, even 0600, is not). */
static bool own_dotfile(int dfd, const char *name)
{
	if (!strcmp(name, OUTLOCK_NAME) || dirfile_tmp_left(dfd, name, PROBE_NAME))
		return true;
	for (size_t i = 0; result_name(i); i++)
		if (dirfile_tmp_left(dfd, name, result_name(i)))
			return true;
	return false;
}

/* The folders iotrial makes in a result folder, and what it writes in them. */
static const char *const own_subs[][2] = {{"records", ".csv"}, {"hooks", ".log"}};

/* Is `name` one of them: the index, or -1. */
static int own_sub(const char *name)
{
	for (int i = 0; i < 2; i++)
		if (!strcmp(name, own_subs[i][0]))
			return i;
	return -1;
}

static bool has_ext(const char *name, const char *ext)
{
	size_t len = strlen(name), e = strlen(ext);

	return len > e && !strcmp(name + len - e, ext);
}

/* Walk the folder open at `dfd` (records/ or hooks/ when `sub` >= 0): each entry is iotrial's
 * (counted in *own, the lock file aside) or not (its name into `foreign`, returns -EEXIST).
 * With `remove`, iotrial's entries are removed (the lock file is kept). Returns 0 or -errno,
 * with the entry it failed on in `foreign`. */
static int walk(int dfd, int sub, bool remove, size_t *own, char *foreign, size_t n)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	const char *in = sub >= 0 ? own_subs[sub][0] : "", *slash = sub >= 0 ? "/" : "";
	int ret = 0;

	if (!d) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return ret;
	}
	while (ret == 0 && (errno = 0, e = readdir(d))) {
		const char *name = e->d_name;
		struct stat st;
		bool ours;

		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno == ENOENT)
				continue; /* gone since readdir: another run's probe */
			ret = -errno;
			snprintf(foreign, n, "%s%s%s", in, slash, name);
			break;
		}
		if (sub >= 0)
			ours = dirfile_fit(&st) == 0 && has_ext(name, own_subs[sub][1]);
		else if (own_sub(name) >= 0 && S_ISDIR(st.st_mode))
			ours = true; /* if everything in it is: looked at below */
		else
			ours = dirfile_fit(&st) == 0 &&
			       (result_file(name, strlen(name)) || own_dotfile(dfd, name));
		/* Another run's probe or temporary file may go between the looks above (before
		 * the lock, this run looks while that one writes): one that is gone now was not
		 * the user's. */
		if (!ours && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
			continue;
		if (!ours) {
			snprintf(foreign, n, "%s%s%s", in, slash, name);
			ret = -EEXIST;
			break;
		}
		if (sub < 0 && own_sub(name) >= 0) {
			int rfd =
			    openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			size_t inner = 0;
			ret =
			    rfd < 0 ? -errno : walk(rfd, own_sub(name), remove, &inner, foreign, n);
			if (rfd >= 0)
				close(rfd);
			if (ret == 0 && remove && unlinkat(dfd, name, AT_REMOVEDIR) < 0)
				ret = -errno;
			if (ret < 0 && !*foreign)
				snprintf(foreign, n, "%s", name);
			(*own)++;
			continue;
		}
		if (!strcmp(name, OUTLOCK_NAME))
			continue;
		(*own)++;
		if (remove && unlinkat(dfd, name, 0) < 0) {
			ret = -errno;
			snprintf(foreign, n, "%s%s%s", in, slash, name);
		}
	}
	if (ret == 0 && errno)
		ret = -errno;
	closedir(d);
	return ret;
}

/* Create, write and remove a file: the folder takes new files (not read-only, not full). */
static int probe(const struct outdir *o)
{
	char name[sizeof(PROBE_NAME) + DIRFILE_TMP_TAIL + 2];
	int fd = dirfile_tmp(o->fd, PROBE_NAME, name, sizeof(name)), ret = 0;

	if (fd < 0)
		return fd;
	if (write(fd, "\n", 1) != 1)
		ret = errno ? -errno : -EIO;
	if (close(fd) < 0 && ret == 0)
		ret = -errno;
	if (unlinkat(o->fd, name, 0) < 0 && ret == 0)
		ret = -errno;
	return ret;
}

static int open_folder(struct outdir *o, const char *path)
{
	o->lock_fd = -1;
	/* path is never NULL: the default-name loop returns first on -ENOMEM. */
	/* cppcheck-suppress[nullPointer,ctunullpointer] */
	if (!(o->path = strdup(path)))
		return -ENOMEM;
	o->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return o->fd < 0 ? -errno : 0;
}

/* Lock the folder, or say why not (outlock_take). */
static int lock(struct outdir *o)
{
	int fd = outlock_take(o->fd, o->path);

	if (fd < 0)
		return fd;
	o->lock_fd = fd;
	return 0;
}

/* Probe the folder, or say why it cannot be written. */
static int writable(struct outdir *o)
{
	int ret = probe(o);

	if (ret < 0)
		fprintf(stderr, "iotrial: cannot write to result folder '%s': %s\n", o->path,
			strerror(-ret));
	return ret;
}

int outdir_new(struct outdir *o, const char *parent, const char *base)
{
	char *path = NULL, *slash;
	int ret = 0;

	*o = (struct outdir){NULL, -1, -1};
	for (unsigned n = 1; n <= 10000; n++) {
		free(path);
		if ((n == 1 ? asprintf(&path, "%s/%s", parent, base)
			    : asprintf(&path, "%s/%s-%u", parent, base, n)) < 0) {
			path = NULL;
			ret = -ENOMEM;
			break;
		}
		if (n == 1 && (slash = strrchr(path, '/'))) {
			*slash = 0; /* the parent, and BASE's own folders if it has a '/' */
			ret = outdir_mkdirs(path);
			*slash = '/';
			if (ret < 0)
				break;
		}
		/* mkdir either makes the folder or fails: two runs never get the same one. */
		ret = mkdir(path, 0755) < 0 ? -errno : 0;
		if (ret != -EEXIST)
			break;
	}
	if (ret < 0) {
		fprintf(stderr, "iotrial: cannot create result folder '%s/%s': %s\n", parent, base,
			strerror(-ret));
		free(path);
		return ret;
	}
	ret = open_folder(o, path);
	free(path);
	if (ret < 0) {
		fprintf(stderr, "iotrial: cannot open result folder '%s': %s\n", o->path,
			strerror(-ret));
		return ret;
	}
	if ((ret = lock(o)) < 0)
		return ret;
	return writable(o);
}

/* Refuse a folder holding what is not iotrial's, or an earlier run without `force`; with
 * `remove`, remove that run. Returns 1 when there was a run, 0 when none, or -errno. */
static int check_contents(struct outdir *o, bool force, bool remove)
{
	char foreign[320] = "";
	size_t own = 0;
	int ret = walk(o->fd, -1, remove, &own, foreign, sizeof(foreign));

	if (ret == -EEXIST)
		fprintf(
		    stderr,
		    "iotrial: result folder '%s' holds '%s', which iotrial did not write: name a new or empty folder (--force empties only a folder of iotrial's result files)\n",
		    o->path, foreign);
	else if (ret < 0)
		fprintf(stderr, "iotrial: cannot %s result folder '%s': '%s': %s\n",
			remove ? "empty" : "read", o->path, foreign, strerror(-ret));
	else if (own && !force) {
		fprintf(
		    stderr,
		    "iotrial: result folder '%s' holds an earlier run: give --force to replace it, or name another folder\n",
		    o->path);
		ret = -EEXIST;
	}
	return ret < 0 ? ret : (int)(own > 0);
}

/* May the user iotrial runs as remove files from the folder, and from the records/ and hooks/
 * in it (write and search permission, a file system not read-only)? Asked of the folders held
 * open, never following a symlink. Once removing has begun, a folder that refuses it has lost
 * part of its earlier run, and a batch the folders emptied before it: this is asked of every
 * folder before any is emptied. Prints one line when not. Returns 0 or -errno. */
static int removable(const struct outdir *o)
{
	int ret = 0;

	if (faccessat(o->fd, ".", W_OK | X_OK, AT_EACCESS) < 0) {
		ret = -errno;
		fprintf(stderr, "iotrial: cannot write to result folder '%s': %s\n", o->path,
			strerror(-ret));
		return ret;
	}
	for (size_t i = 0; i < sizeof(own_subs) / sizeof(own_subs[0]); i++) {
		/* O_PATH: asked about, never read. */
		int fd =
		    openat(o->fd, own_subs[i][0], O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		if (fd < 0 && errno == ENOENT)
			continue;
		ret = fd < 0 || faccessat(fd, ".", W_OK | X_OK, AT_EACCESS) < 0 ? -errno : 0;
		if (fd >= 0)
			close(fd);
		if (ret < 0) {
			fprintf(stderr, "iotrial: cannot empty result folder '%s': '%s': %s\n",
				o->path, own_subs[i][0], strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* Look at the folder, lock it, look again: refused as outdir_claim says, nothing removed. */
static int take(struct outdir *o, bool force)
{
	int ret;

	/* Look for what is not iotrial's before writing anything (-o ~ must not get even a
	 * lock file); once locked, when no other run can add to the folder, look again, for an
	 * earlier run too (a run under way is "in use", not "an earlier run"), and ask whether
	 * what --force would remove can be removed. */
	if ((ret = check_contents(o, true, false)) < 0 || (ret = lock(o)) < 0 ||
	    (ret = check_contents(o, force, false)) < 0 || (ret = removable(o)) < 0)
		return ret;
	return 0;
}

int outdir_take_at(struct outdir *o, int dfd, const char *name, const char *path, bool force)
{
	struct stat st;
	int ret;

	*o = (struct outdir){NULL, -1, -1};
	if (!(o->path = strdup(path)))
		return -ENOMEM;
	/* Made here and opened without following a symlink: one in its place would lead the
	 * batch, and --force, into a folder outside it. */
	ret = dirfile_subdir(dfd, name);
	if ((ret == -ENOTDIR || ret == -ELOOP) &&
	    fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		fprintf(
		    stderr,
		    "iotrial: result folder '%s' is %s: iotrial makes the folders in a batch folder itself and follows no symbolic link there, even with --force; move it away, or name another batch folder\n",
		    path, S_ISLNK(st.st_mode) ? "a symbolic link" : "a file");
		return -EEXIST;
	}
	if (ret < 0) {
		fprintf(stderr, "iotrial: cannot create result folder '%s': %s\n", path,
			strerror(-ret));
		return ret;
	}
	o->fd = ret;
	return take(o, force);
}

int outdir_empty(struct outdir *o)
{
	int ret = check_contents(o, true, true);

	return ret < 0 ? ret : writable(o);
}

int outdir_claim(struct outdir *o, const char *path, bool force)
{
	int ret;

	*o = (struct outdir){NULL, -1, -1};
	if ((ret = outdir_mkdirs(path)) < 0 || (ret = open_folder(o, path)) < 0) {
		fprintf(stderr, "iotrial: cannot create result folder '%s': %s\n", path,
			strerror(-ret));
		return ret;
	}
	/* Removed only after a look found nothing foreign: a refused folder loses nothing. */
	if ((ret = take(o, force)) < 0)
		return ret;
	return outdir_empty(o);
}

/* What a killed run leaves besides its files: a reporter's temporary file (a checkpoint cut
 * short) or a probe, removed so that the folder ends as a run in one go leaves it. */
static int remove_leftovers(const struct outdir *o)
{
	int fd = openat(o->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	int ret = 0;

	if (!d) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return ret;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, OUTLOCK_NAME) && own_dotfile(o->fd, e->d_name) &&
		    unlinkat(o->fd, e->d_name, 0) < 0 && errno != ENOENT && ret == 0)
			ret = -errno;
	closedir(d);
	return ret;
}

int outdir_resume(struct outdir *o, const char *path)
{
	int ret;

	*o = (struct outdir){NULL, -1, -1};
	if ((ret = open_folder(o, path)) < 0) {
		fprintf(stderr, "iotrial: cannot open result folder '%s': %s\n", path,
			strerror(-ret));
		return ret;
	}
	if ((ret = lock(o)) < 0)
		return ret;
	if ((ret = remove_leftovers(o)) < 0) {
		fprintf(stderr,
			"iotrial: cannot remove a temporary file from result folder '%s': %s\n",
			o->path, strerror(-ret));
		return ret;
	}
	return writable(o);
}

/* The lock file's length with nothing reserved: the pid line outlock_take wrote. */
static off_t pid_len(void)
{
	return snprintf(NULL, 0, "%ld\n", (long)getpid());
}

/* The lock file that keeps room, and its length without it, for outdir_leaving: a signal
 * handler may read only lock-free atomic objects. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2 && ATOMIC_LONG_LOCK_FREE == 2,
	       "outdir_leaving reads these from a signal handler");
static atomic_int held_fd = -1;
static atomic_long held_len;

void outdir_leaving(void)
{
	int fd = atomic_load(&held_fd);

	if (fd >= 0)
		(void)!ftruncate(fd, atomic_load(&held_len));
}

int outdir_reserve(struct outdir *o, uint64_t bytes)
{
	int err;

	if (o->lock_fd < 0 || bytes == 0)
		return 0;
	if (bytes > (uint64_t)INT64_MAX - 4096)
		return -EFBIG;
	/* Past the pid line: its reader stops at the first byte that is no digit. A signal
	 * (Ctrl-C: the run then stops at its first trial) cuts a long one short: again. */
	do
		err = posix_fallocate(o->lock_fd, pid_len(), (off_t)bytes);
	while (err == EINTR);
	if (err == EOPNOTSUPP)
		return 0; /* a file system that keeps no room in advance: nothing to hold */
	if (err) {
		outdir_unreserve(o);
		return -err;
	}
	atomic_store(&held_len, (long)pid_len());
	atomic_store(&held_fd, o->lock_fd);
	return 0;
}

uint64_t outdir_lock_len(uint64_t bytes)
{
	return bytes ? bytes + (uint64_t)pid_len() : 0;
}

uint64_t outdir_held(const char *path)
{
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	uint64_t held = 0;
	struct stat st;

	if (dfd >= 0 && dirfile_stat(dfd, OUTLOCK_NAME, &st) == 0)
		held = (uint64_t)st.st_blocks * 512;
	if (dfd >= 0)
		close(dfd);
	return held;
}

void outdir_unreserve(struct outdir *o)
{
	atomic_store(&held_fd, -1);
	if (o->lock_fd >= 0)
		(void)!ftruncate(o->lock_fd, pid_len());
}

void outdir_release(struct outdir *o)
{
	if (o->lock_fd >= 0 && atomic_load(&held_fd) == o->lock_fd)
		atomic_store(&held_fd, -1);
	if (o->lock_fd >= 0) {
		unlinkat(o->fd, OUTLOCK_NAME, 0);
		close(o->lock_fd);
	}
	if (o->fd >= 0)
		close(o->fd);
	free(o->path);
	*o = (struct outdir){NULL, -1, -1};
}
