/* The ledger of what iotrial created in one run (see ledger.h): held folders, files and
 * trees by device and inode, creation relative to a held folder, removal after a look at
 * the inode. */
#include "engine/run/ledger.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/path.h"

#define TREE_DEPTH 64

/* The scratch folder this process made, so that a second job file run by the same command
 * may find it again (it stays when kept files are inside). */
static struct {
	bool set;
	dev_t dev;
	ino_t ino;
} made_scratch;

struct inode_rec {
	uint64_t dev, ino;
};

static void set_msg(char **msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_msg(char **msg, const char *fmt, ...)
{
	va_list ap;

	if (!msg || *msg)
		return;
	va_start(ap, fmt);
	if (vasprintf(msg, fmt, ap) < 0)
		*msg = NULL;
	va_end(ap);
}

static bool same(const struct stat *st, dev_t dev, ino_t ino)
{
	return st->st_dev == dev && st->st_ino == ino;
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0);
}

int ledger_init(struct ledger *l, const char *scratch)
{
	memset(l, 0, sizeof(*l));
	if (scratch && !(l->scratch = strdup(scratch)))
		return -ENOMEM;
	return 0;
}

static long add_dir(struct ledger *l, const char *path, int fd, long parent, bool made)
{
	struct ledger_dir *nd = realloc(l->dirs, (l->ndirs + 1) * sizeof(*nd));
	struct stat st;
	char *p = strdup(path);

	if (!nd || !p || fstat(fd, &st) < 0) {
		if (nd)
			l->dirs = nd;
		free(p);
		close(fd);
		return -ENOMEM;
	}
	l->dirs = nd;
	nd[l->ndirs] = (struct ledger_dir){p, fd, st.st_dev, st.st_ino, parent, made, false};
	return (long)l->ndirs++;
}

/* A folder named in the job file (or holding the scratch folder): opened as named. */
static long hold(struct ledger *l, const char *path, char **msg)
{
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		int err = -errno;
		set_msg(msg, "cannot open the folder '%s': %s", path, strerror(errno));
		return err;
	}
	return add_dir(l, path, fd, -1, false);
}

/* Make the folder `path` in held folder `parent`: it must not exist, unless it is the
 * scratch folder this process made for an earlier job file. */
static long make(struct ledger *l, long parent, const char *path, char **msg)
{
	int pfd = l->dirs[parent].fd, fd;
	const char *name = base_of(path);
	bool scratch = !strcmp(path, l->scratch);
	struct stat st;

	if (mkdirat(pfd, name, 0700) < 0) {
		int err = -errno;
		if (err == -EEXIST && scratch && made_scratch.set &&
		    fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    same(&st, made_scratch.dev, made_scratch.ino)) {
			err = 0;
		} else if (err == -EEXIST) {
			set_msg(
			    msg,
			    "cannot create the folder '%s': it exists and iotrial did not create it (left alone)",
			    path);
			return err;
		} else {
			set_msg(msg, "cannot create the folder '%s': %s", path, strerror(-err));
			return err;
		}
	}
	fd = openat(pfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;
		set_msg(msg, "cannot open the folder '%s' just made: %s", path, strerror(errno));
		return err;
	}
	long i = add_dir(l, path, fd, parent, true);
	if (i >= 0 && scratch) {
		made_scratch.set = true;
		made_scratch.dev = l->dirs[i].dev;
		made_scratch.ino = l->dirs[i].ino;
	}
	return i;
}

static long stale_dir(const char *dir, char **msg)
{
	set_msg(
	    msg,
	    "the folder '%s' is not the one iotrial checked when the run started (another folder or a symlink was put in its place): not writing in it",
	    dir);
	return -ESTALE;
}

long ledger_dir_as(struct ledger *l, const char *dir, const struct stat *seen, char **msg)
{
	long i = ledger_dir(l, dir, msg);

	if (i < 0 || same(seen, l->dirs[i].dev, l->dirs[i].ino))
		return i;
	l->dirs[i].stale = true;
	return stale_dir(dir, msg);
}

long ledger_dir(struct ledger *l, const char *dir, char **msg)
{
	long parent;
	char *up;

	for (size_t i = 0; i < l->ndirs; i++)
		if (!strcmp(l->dirs[i].path, dir))
			return l->dirs[i].stale ? stale_dir(dir, msg) : (long)i;
	if (!l->scratch || !under(dir, l->scratch))
		return hold(l, dir, msg);
	if (!(up = path_dirname(dir)))
		return -ENOMEM;
	/* The scratch folder's own parent ($TMPDIR, or the current folder) is the user's. */
	parent = !strcmp(dir, l->scratch) ? hold(l, up, msg) : ledger_dir(l, up, msg);
	free(up);
	return parent < 0 ? parent : make(l, parent, dir, msg);
}

static int add_entry(struct ledger *l, const char *path, long dir, const struct stat *st, bool keep,
		     int fd, int log)
{
	struct ledger_entry *ne = realloc(l->ents, (l->nents + 1) * sizeof(*ne));
	char *p = strdup(path);

	if (!ne || !p) {
		if (ne)
			l->ents = ne;
		free(p);
		return -ENOMEM;
	}
	l->ents = ne;
	ne[l->nents++] = (struct ledger_entry){
	    .path = p,
	    .name = base_of(p),
	    .dir = dir < 0 ? 0 : (size_t)dir,
	    .dev = st->st_dev,
	    .ino = st->st_ino,
	    .rdev = S_ISBLK(st->st_mode) ? st->st_rdev : 0,
	    .pinned = dir < 0,
	    .keep = keep,
	    .fd = fd,
	    .log = log,
	};
	return 0;
}

int ledger_create(struct ledger *l, const char *path, int flags, mode_t mode, bool keep, char **msg)
{
	char *dir = path_dirname(path);
	long d = dir ? ledger_dir(l, dir, msg) : -ENOMEM;
	struct stat st;
	int fd, err;

	free(dir);
	if (d < 0) {
		set_msg(msg, "cannot create '%s': %s", path, strerror((int)-d));
		return (int)d;
	}
	do
		fd = openat(l->dirs[d].fd, base_of(path),
			    flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		err = -errno;
		if (err == -EEXIST)
			set_msg(
			    msg,
			    "cannot create '%s': File exists (iotrial did not create it, and leaves it alone)",
			    path);
		else
			set_msg(msg, "cannot create '%s': %s", path, strerror(-err));
		return err;
	}
	if (fstat(fd, &st) < 0 || (err = add_entry(l, path, d, &st, keep, -1, -1)) < 0) {
		unlinkat(l->dirs[d].fd, base_of(path), 0); /* ours, and we cannot track it */
		close(fd);
		set_msg(msg, "cannot create '%s': out of memory", path);
		return -ENOMEM;
	}
	return fd;
}

const struct ledger_entry *ledger_mktree(struct ledger *l, const char *path, mode_t mode, bool keep,
					 int *err, char **msg)
{
	char *dir = path_dirname(path);
	long d = dir ? ledger_dir(l, dir, msg) : -ENOMEM;
	int pfd, fd = -1, log = -1;
	struct stat st;

	free(dir);
	if (d < 0) {
		*err = (int)d;
		set_msg(msg, "cannot create the folder '%s': %s", path, strerror(-*err));
		return NULL;
	}
	pfd = l->dirs[d].fd;
	if (mkdirat(pfd, base_of(path), mode) < 0) {
		*err = -errno;
		if (*err == -EEXIST)
			set_msg(
			    msg,
			    "cannot create the folder '%s': File exists (iotrial did not create it, and leaves it alone)",
			    path);
		else
			set_msg(msg, "cannot create the folder '%s': %s", path, strerror(-*err));
		return NULL;
	}
	fd = openat(pfd, base_of(path), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	*err = fd < 0 || fstat(fd, &st) < 0 ? -errno : 0;
	if (*err == 0 && (log = memfd_create("iotrial-tree", MFD_CLOEXEC)) < 0)
		*err = -errno;
	if (*err == 0 && (*err = add_entry(l, path, d, &st, keep, fd, log)) == 0)
		return &l->ents[l->nents - 1];
	set_msg(msg, "cannot create the folder '%s': %s", path, strerror(-*err));
	if (fd >= 0) {
		unlinkat(pfd, base_of(path), AT_REMOVEDIR); /* empty, and ours */
		close(fd);
	}
	if (log >= 0)
		close(log);
	return NULL;
}

int ledger_pin(struct ledger *l, const char *path, const struct stat *seen, bool writes)
{
	const struct ledger_entry *e = ledger_find(l, path);
	struct stat st;
	int ret;

	if (e) {
		if (e->pinned)
			l->ents[e - l->ents].writes |= writes;
		return 0;
	}
	if (!seen && stat(path, &st) < 0)
		return -errno;
	if (!seen)
		seen = &st;
	if ((ret = add_entry(l, path, -1, seen, true, -1, -1)) < 0)
		return ret;
	l->ents[l->nents - 1].writes = writes;
	l->ents[l->nents - 1].folder = S_ISDIR(seen->st_mode);
	return 0;
}

const struct ledger_entry *ledger_find(const struct ledger *l, const char *path)
{
	for (size_t i = 0; i < l->nents; i++)
		if (!strcmp(l->ents[i].path, path))
			return &l->ents[i];
	return NULL;
}

void ledger_where(const struct ledger *l, const struct ledger_entry *e, int *dirfd,
		  const char **name, int *flags)
{
	if (e->pinned) {
		*dirfd = AT_FDCWD;
		*name = e->path;
		*flags = 0;
	} else {
		*dirfd = l->dirs[e->dir].fd;
		*name = e->name;
		*flags = O_NOFOLLOW;
	}
}

int ledger_check(const struct ledger_entry *e, int fd, char *err, size_t errlen)
{
	struct stat st;
	bool seen = fstat(fd, &st) == 0;

	if (seen &&
	    (e->rdev ? S_ISBLK(st.st_mode) && st.st_rdev == e->rdev : same(&st, e->dev, e->ino)))
		return 0;
	if (e->folder)
		snprintf(
		    err, errlen,
		    "'%s' is no longer the folder it was when the run started (replaced by another folder or a symlink?): not reading it",
		    e->path);
	else if (e->pinned && seen && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		snprintf(
		    err, errlen,
		    "'%s' is no longer a file or a block device (a FIFO, a socket or a character device was put in its place during the run): not using it",
		    e->path);
	else if (e->pinned && e->writes)
		snprintf(
		    err, errlen,
		    "'%s' is no longer the file it was when the run started (replaced by another file or a symlink?): not writing to it",
		    e->path);
	else if (e->pinned)
		snprintf(
		    err, errlen,
		    "'%s' is no longer the file it was when the run started (replaced by another file or a symlink?): not reading it",
		    e->path);
	else
		snprintf(
		    err, errlen,
		    "'%s' is not the file iotrial created: it was replaced during the run, and is left alone",
		    e->path);
	return -ESTALE;
}

int ledger_tree_note(int log, int fd)
{
	struct stat st;
	struct inode_rec rec;
	ssize_t n;

	if (fstat(fd, &st) < 0)
		return -errno;
	rec = (struct inode_rec){(uint64_t)st.st_dev, (uint64_t)st.st_ino};
	do
		n = write(log, &rec, sizeof(rec));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(rec) ? 0 : n < 0 ? -errno : -EIO;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct inode_rec *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

struct tree_set {
	struct inode_rec *v;
	size_t n;
	char *err;
	size_t errlen;
	int ret;
};

static bool in_tree(const struct tree_set *s, const struct stat *st)
{
	struct inode_rec key = {(uint64_t)st->st_dev, (uint64_t)st->st_ino};

	return s->n && bsearch(&key, s->v, s->n, sizeof(key), rec_cmp) != NULL;
}

/* A first error, or the first thing left in place, for the message. */
static void tree_fail(struct tree_set *s, int err, const char *fmt, const char *a, const char *b)
{
	if (s->ret)
		return;
	s->ret = err;
	snprintf(s->err, s->errlen, fmt, a, b);
}

static void clear_dir(struct tree_set *s, int dfd, const char *rel, int depth)
{
	int rd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = rd < 0 ? NULL : fdopendir(rd);
	struct dirent *e;

	if (!d) {
		if (rd >= 0)
			close(rd);
		tree_fail(s, -errno, "cannot read '%s': %s", rel, strerror(errno));
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;
		char *p = NULL;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (asprintf(&p, "%s/%s", rel, e->d_name) < 0) {
			tree_fail(s, -ENOMEM, "%s%s", "out of memory", "");
			break;
		}
		if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			free(p);
			continue; /* gone meanwhile */
		}
		if (!in_tree(s, &st)) {
			tree_fail(s, -ENOTEMPTY, "'%s' in it is not iotrial's%s", p, "");
		} else if (S_ISDIR(st.st_mode)) {
			int sub =
			    openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			struct stat now;
			if (sub >= 0 && fstat(sub, &now) == 0 && same(&now, st.st_dev, st.st_ino) &&
			    depth < TREE_DEPTH)
				clear_dir(s, sub, p, depth + 1);
			else
				tree_fail(s, -ENOTEMPTY,
					  "'%s' in it changed while it was removed%s", p, "");
			if (sub >= 0)
				close(sub);
			if (unlinkat(dfd, e->d_name, AT_REMOVEDIR) < 0 && errno != ENOTEMPTY)
				tree_fail(s, -errno, "cannot remove '%s': %s", p, strerror(errno));
		} else if (unlinkat(dfd, e->d_name, 0) < 0 && errno != ENOENT) {
			tree_fail(s, -errno, "cannot remove '%s': %s", p, strerror(errno));
		}
		free(p);
	}
	closedir(d);
}

int ledger_tree_clear(int root, int log, const char *path, char *err, size_t errlen)
{
	struct tree_set s = {.err = err, .errlen = errlen};
	struct stat st;

	if (fstat(log, &st) < 0)
		return -errno;
	s.n = (size_t)st.st_size / sizeof(*s.v);
	if (s.n && !(s.v = malloc(s.n * sizeof(*s.v))))
		return -ENOMEM;
	if (s.n && pread(log, s.v, s.n * sizeof(*s.v), 0) != (ssize_t)(s.n * sizeof(*s.v))) {
		free(s.v);
		return -EIO;
	}
	if (s.n)
		qsort(s.v, s.n, sizeof(*s.v), rec_cmp);
	clear_dir(&s, root, path, 0);
	free(s.v);
	if (s.ret == 0 && (ftruncate(log, 0) < 0 || lseek(log, 0, SEEK_SET) < 0))
		s.ret = -errno;
	return s.ret;
}

static void forget(struct ledger *l, size_t i)
{
	struct ledger_entry *e = &l->ents[i];

	if (e->fd >= 0)
		close(e->fd);
	if (e->log >= 0)
		close(e->log);
	free(e->path);
	memmove(e, e + 1, (l->nents - i - 1) * sizeof(*e));
	l->nents--;
}

int ledger_remove(struct ledger *l, const char *path, char **msg)
{
	const struct ledger_entry *found = ledger_find(l, path);
	struct ledger_entry *e;
	struct stat st;
	char why[512] = "";
	int dfd, ret = 0;

	if (!found || found->pinned)
		return 0;
	e = &l->ents[found - l->ents];
	dfd = l->dirs[e->dir].fd;
	if (fstatat(dfd, e->name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		ret = errno == ENOENT ? 0 : -errno; /* gone already: nothing of ours to remove */
		if (ret)
			set_msg(msg, "cannot remove '%s': %s", e->path, strerror(-ret));
	} else if (!same(&st, e->dev, e->ino)) {
		ret = -ESTALE;
		set_msg(
		    msg,
		    "left '%s' in place: it is not the %s iotrial created (it was replaced during the run)",
		    e->path, e->fd >= 0 ? "folder" : "file");
	} else if (e->fd >= 0) {
		ret = ledger_tree_clear(e->fd, e->log, e->path, why, sizeof(why));
		if (ret == 0 && unlinkat(dfd, e->name, AT_REMOVEDIR) < 0)
			snprintf(why, sizeof(why), "%s", strerror(-(ret = -errno)));
		if (ret)
			set_msg(msg, "left '%s' in place: %s", e->path, why);
	} else if (unlinkat(dfd, e->name, 0) < 0) {
		ret = -errno;
		set_msg(msg, "cannot remove '%s': %s", e->path, strerror(errno));
	}
	forget(l, (size_t)(e - l->ents));
	return ret;
}

void ledger_finish(struct ledger *l, struct diag *d)
{
	for (size_t i = l->nents; i-- > 0;) {
		char *msg = NULL;
		if (l->ents[i].pinned || l->ents[i].keep) {
			forget(l, i);
			continue;
		}
		if (ledger_remove(l, l->ents[i].path, &msg) < 0 && d)
			diag_add(d, NULL, "%s", msg ? msg : "cannot remove a file iotrial created");
		free(msg);
	}
	/* Folders last, the deepest first; one that holds kept files stays, rightly. */
	for (size_t i = l->ndirs; i-- > 0;) {
		struct ledger_dir *dir = &l->dirs[i];
		struct stat st;
		if (dir->made) {
			int pfd = l->dirs[dir->parent].fd;
			const char *name = base_of(dir->path);
			if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    !same(&st, dir->dev, dir->ino)) {
				if (d)
					diag_add(
					    d, NULL,
					    "left '%s' in place: it is not the folder iotrial created (it was replaced during the run)",
					    dir->path);
			} else if (unlinkat(pfd, name, AT_REMOVEDIR) == 0 && l->scratch &&
				   !strcmp(dir->path, l->scratch)) {
				made_scratch.set = false;
			}
		}
	}
	for (size_t i = 0; i < l->ndirs; i++) {
		close(l->dirs[i].fd);
		free(l->dirs[i].path);
	}
	free(l->dirs);
	free(l->ents);
	free(l->scratch);
	memset(l, 0, sizeof(*l));
}
