/* What the planner saw of the paths it checked, for the run to use that and nothing else:
 * an existing file's identity (a target, a source), a folder's, a block device's size asked
 * of the device found there (engine/plan/plan_internal.h; the run's side is
 * engine/run/ledger.h). A swap after a look is what these guard against. */
#include "engine/plan/plan_internal.h"
#include "lib/safety.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Is `fd` the block device `st` says? */
static bool same_device(int fd, const struct stat *st)
{
	struct stat now;

	return fstat(fd, &now) == 0 && S_ISBLK(now.st_mode) && now.st_rdev == st->st_rdev;
}

int plan_existing_size(const char *path, const struct stat *st, uint64_t *size)
{
	char proc[32];
	int look, fd, ret = 0;

	*size = (uint64_t)st->st_size;
	if (!S_ISBLK(st->st_mode))
		return 0;
	/* A look first (O_PATH runs no driver's open: a FIFO or a device put in the place of
	 * the one checked is not touched), then an open of that very device, for its size;
	 * O_NONBLOCK all the same: without /proc, the open is by the name. */
	if ((look = open(path, O_PATH | O_CLOEXEC)) < 0)
		return 0;
	if (!same_device(look, st)) {
		close(look);
		return -ESTALE;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", look);
	if ((fd = open(proc, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0 && errno == ENOENT)
		fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	close(look);
	if (fd < 0)
		return 0;
	if (!same_device(fd, st))
		ret = -ESTALE;
	else if (ioctl(fd, BLKGETSIZE64, size) < 0)
		*size = 0;
	close(fd);
	return ret;
}

void plan_changed(struct planner *pl, const struct src_loc *loc, const char *kname,
		  const char *path)
{
	plan_fail(
	    pl, PLAN_EENV, loc,
	    "key '%s': '%s' changed while iotrial checked it (it is no longer the block device it was): not using it",
	    kname, path);
}

static bool same_id(const struct plan_id *a, const struct plan_id *b)
{
	return a->dev == b->dev && a->rdev == b->rdev && a->ino == b->ino;
}

void plan_note_id(struct planner *pl, struct instance *in, const struct stat *st)
{
	struct plan *p = pl->p;
	struct plan_id id = {st->st_dev, S_ISBLK(st->st_mode) ? st->st_rdev : 0, st->st_ino,
			     S_ISBLK(st->st_mode) ? 0 : (uint64_t)st->st_blocks * 512,
			     S_ISBLK(st->st_mode) ? 0 : (uint64_t)st->st_size};
	struct plan_id *ids;

	/* The points of a matrix name one file one after another: one entry serves them all,
	 * where one each would cost a 100000-point plan 2.4 MB. */
	if (p->nids && same_id(&p->ids[p->nids - 1], &id)) {
		in->seen_id = (uint32_t)p->nids;
		return;
	}
	/* Doubling at each power of two: nids is the capacity's measure. */
	if (!(p->nids & (p->nids - 1))) {
		if (!(ids = realloc(p->ids, (p->nids ? 2 * p->nids : 1) * sizeof(*ids)))) {
			plan_oom(pl);
			return;
		}
		p->ids = ids;
	}
	p->ids[p->nids++] = id;
	in->seen_id = (uint32_t)p->nids;
}

/* The length of `dir` without its trailing slashes ("/" keeps its one). */
static size_t dir_len(const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return n;
}

const struct plan_dir *plan_dir_find(const struct plan *p, const char *dir)
{
	size_t n = dir_len(dir);

	for (size_t i = 0; i < p->ndirs; i++)
		if (strlen(p->dirs[i].path) == n && !strncmp(p->dirs[i].path, dir, n))
			return &p->dirs[i];
	return NULL;
}

void plan_note_dir(struct planner *pl, const char *dir, const struct stat *st)
{
	struct plan *p = pl->p;
	struct plan_dir *dirs;

	if (plan_dir_find(p, dir))
		return;
	/* Doubling at each power of two: ndirs is the capacity's measure. */
	if (!(p->ndirs & (p->ndirs - 1))) {
		if (!(dirs = realloc(p->dirs, (p->ndirs ? 2 * p->ndirs : 1) * sizeof(*dirs)))) {
			plan_oom(pl);
			return;
		}
		p->dirs = dirs;
	}
	if (!(p->dirs[p->ndirs].path = strndup(dir, dir_len(dir)))) {
		plan_oom(pl);
		return;
	}
	p->dirs[p->ndirs].dev = st->st_dev;
	p->dirs[p->ndirs++].ino = st->st_ino;
}

bool plan_in_use(struct planner *pl, const struct stat *st, char *why, size_t len)
{
	const struct stat *u = &pl->unused;

	if (pl->unused_known && u->st_dev == st->st_dev && u->st_ino == st->st_ino &&
	    u->st_rdev == st->st_rdev && u->st_mode == st->st_mode)
		return false;
	if (safety_in_use(st, why, len))
		return true;
	pl->unused = *st;
	pl->unused_known = true;
	return false;
}
