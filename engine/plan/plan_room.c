/* Room for what a plan creates (see plan_room.h): its files summed by file system, and the
 * room kept for the results added on the result folder's, against what statvfs says is
 * free. The check of each folder (plan_files.c check_dir) looks at one file at a time; the
 * files of a plan live until the run ends, so they must fit together. */
#include "engine/plan/plan_room.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "engine/dist/dist.h"
#include "engine/plan/plan_internal.h"
#include "lib/nearest.h"
#include "model/jobkeys.h"

/* One file system the plan creates files on. */
struct fs_room {
	dev_t dev;
	uint64_t avail;	    /* free to a writer that is not root, as statvfs says */
	uint64_t block;	    /* its fragment size: a file takes whole ones */
	uint64_t bytes;	    /* the files counted so far, copy destinations aside */
	uint64_t copy_max;  /* the destinations the copies of one unit remove after its trial */
	uint64_t copy_unit; /* those of the unit `unit` (1 + its index), counted so far */
	size_t unit;
	size_t files;		      /* copy destinations aside */
	size_t copy_nunit, copy_nmax; /* the destinations in copy_unit, in copy_max */
	/* The first file that no longer fits, said at its key once every file is counted. */
	const struct instance *at;
	enum job_key_id at_key;
	char *at_dir;
};

struct room_walk {
	const struct plan_kept *kept;
	struct diag *d;
	struct fs_room *fs;
	size_t n, cap;
	char *dir;	/* the folder last looked up (a 100000-point plan names one folder) */
	ssize_t dir_fs; /* its file system in fs, or -1: not known (it is not checked) */
	int status;
};

static uint64_t add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The file system of the nearest folder at or above `dir` that exists (the scratch folder
 * is made by the run), into w->fs: its index, -1 when it cannot be looked at, or -2 when
 * memory ran out. */
static ssize_t fs_of(struct room_walk *w, const char *dir)
{
	struct statvfs v;
	struct stat st;
	char *at = NULL;
	ssize_t i = -1;
	int r = nearest_existing(dir, &at, &st);

	if (r == -ENOMEM)
		return -2;
	if (r == 0) {
		for (i = 0; i < (ssize_t)w->n && w->fs[i].dev != st.st_dev; i++)
			;
		if (i == (ssize_t)w->n && statvfs(at, &v) < 0)
			i = -1;
		else if (i == (ssize_t)w->n) {
			if (w->n == w->cap) {
				size_t cap = w->cap ? 2 * w->cap : 4;
				struct fs_room *more = realloc(w->fs, cap * sizeof(*more));
				if (!more) {
					free(at);
					return -2;
				}
				w->fs = more;
				w->cap = cap;
			}
			w->fs[w->n++] = (struct fs_room){.dev = st.st_dev,
							 .avail = (uint64_t)v.f_bavail * v.f_frsize,
							 .block = v.f_frsize ? v.f_frsize : 1};
		}
	}
	free(at);
	return i;
}

/* `bytes` in whole blocks of `block` bytes. */
static uint64_t blocks(uint64_t bytes, uint64_t block)
{
	uint64_t n = bytes / block + (bytes % block != 0);

	return n > UINT64_MAX / block ? UINT64_MAX : n * block;
}

/* The room created file `f` of instance `in` takes on a file system of `block`-byte blocks:
 * one per worker with file_per_thread; a copytree's tree (its source laid out, its copy)
 * tree_files files of file_size / tree_files bytes (files.c layout_tree), each in blocks. */
static uint64_t file_bytes(const struct instance *in, const struct plan_file *f, uint64_t block)
{
	const struct job_spec *j = &in->job;
	uint64_t one = f->size ? f->size : spec_job_extent(j);
	uint64_t n = j->threads > 1 && j->file_per_thread ? j->threads : 1;

	if (j->workload == WL_COPYTREE && j->tree_files > 1) {
		n = j->tree_files;
		one = one / n ? one / n : 1;
	}
	one = blocks(one, block);
	return one > UINT64_MAX / n ? UINT64_MAX : one * n;
}

/* The file system of the folder of `path` (w->dir caches the last one), or NULL: not known
 * (it is not checked), or out of memory (w->status). */
static struct fs_room *fs_of_path(struct room_walk *w, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) : 0;

	if (!w->dir || strlen(w->dir) != dl || strncmp(w->dir, path, dl)) {
		char *dir = dl ? strndup(path, dl) : strdup(slash ? "/" : ".");
		ssize_t at = dir ? fs_of(w, dir) : -2;

		free(w->dir);
		w->dir = dir;
		w->dir_fs = at;
	}
	if (w->dir_fs == -2)
		w->status = -ENOMEM;
	return w->dir_fs < 0 ? NULL : &w->fs[w->dir_fs];
}

/* What `e` needs in all (its files and copy destinations, `files` of them), and where it is
 * the result folder's file system, the room kept there (`kept`: none when it cannot be kept
 * at all) and the room held by a killed run's lock file, which `avail` then counts. */
static uint64_t fs_need(const struct room_walk *w, const struct fs_room *e, size_t *files,
			uint64_t *kept, uint64_t *avail)
{
	*files = e->files + e->copy_nmax;
	*avail = e->avail;
	*kept = 0;
	if (w->kept && w->kept->dev == e->dev) {
		*avail = add(*avail, w->kept->held);
		*kept = blocks(w->kept->bytes, e->block);
		*kept = *kept <= *avail ? *kept : 0;
	}
	return add(e->bytes, e->copy_max);
}

/* Note `key` of `in` on `e` when the files counted on it so far, with the room kept there,
 * no longer fit: the line is said there (say_fs). */
static void check_fs(struct room_walk *w, const struct instance *in, struct fs_room *e,
		     enum job_key_id key)
{
	uint64_t kept, avail, need;
	size_t files;

	if (e->at)
		return;
	need = fs_need(w, e, &files, &kept, &avail);
	if (add(need, kept) <= avail)
		return;
	if (!(e->at_dir = strdup(w->dir))) {
		w->status = -ENOMEM;
		return;
	}
	e->at = in;
	e->at_key = key;
	w->status = PLAN_EENV;
}

/* One line for `e`, which does not fit, at the first file that did not: what the plan
 * creates there in all, so that freeing that much is enough. */
static void say_fs(struct room_walk *w, const struct fs_room *e)
{
	const char *key = job_key_row(e->at_key)->name;
	uint64_t kept, avail, need;
	size_t files;

	need = fs_need(w, e, &files, &kept, &avail);
	if (need > avail)
		diag_add(
		    w->d, plan_where(e->at, e->at_key),
		    "key '%s': not enough free space in '%s': %llu bytes needed for what the plan creates or grows on its file system (%zu file%s), %llu available",
		    key, e->at_dir, (unsigned long long)need, files, files == 1 ? "" : "s",
		    (unsigned long long)avail);
	else
		diag_add(
		    w->d, plan_where(e->at, e->at_key),
		    "key '%s': not enough free space in '%s' beside the room kept for the results: %llu bytes needed for what the plan creates or grows on its file system (%zu file%s), and %llu kept for the results in '%s'; %llu available",
		    key, e->at_dir, (unsigned long long)need, files, files == 1 ? "" : "s",
		    (unsigned long long)kept, w->kept->folder, (unsigned long long)avail);
}

/* Is `f` a copy's destination, made anew each trial and removed after it? */
static bool copy_dest(const struct instance *in, const struct plan_file *f)
{
	const struct job_spec *j = &in->job;

	return f == &in->data && (j->workload == WL_COPY || j->workload == WL_COPYTREE) &&
	       !j->keep_files;
}

/* Count file `f` of `in` (its key `key`) on its file system, unless it is a copy's
 * destination (count_copies). */
static void count_file(struct room_walk *w, const struct instance *in, const struct plan_file *f,
		       enum job_key_id key)
{
	struct fs_room *e = copy_dest(in, f) ? NULL : fs_of_path(w, f->path);

	if (!e)
		return;
	e->files++;
	e->bytes = add(e->bytes, file_bytes(in, f, e->block));
	check_fs(w, in, e, key);
}

/* The copy destinations of unit `u` (index `k`): the instances of a unit run together, so
 * theirs exist at once (a copy `with` another, a background copy); the units run one after
 * another, so only the largest unit's count. */
static void count_copies(struct room_walk *w, const struct plan *p, const struct plan_unit *u,
			 size_t k)
{
	for (size_t i = 0; i < u->n && w->status != -ENOMEM; i++) {
		const struct instance *in = &p->inst[u->inst[i]];
		struct fs_room *e;

		if (!plan_on_rank(in, dist_rank()) || !in->data.path || !in->data.create ||
		    in->data.owner || !copy_dest(in, &in->data) ||
		    !(e = fs_of_path(w, in->data.path)))
			continue;
		if (e->unit != k + 1) {
			e->unit = k + 1;
			e->copy_unit = 0;
			e->copy_nunit = 0;
		}
		e->copy_unit = add(e->copy_unit, file_bytes(in, &in->data, e->block));
		e->copy_nunit++;
		if (e->copy_unit > e->copy_max) {
			e->copy_max = e->copy_unit;
			e->copy_nmax = e->copy_nunit;
			check_fs(w, in, e, JK_TARGET);
		}
	}
}

/* An existing file that instances write over (allow_overwrite), by its identity: the
 * largest extent they write, and the first of them. */
struct grown {
	const struct plan_id *id;
	uint64_t extent;
	const struct instance *in;
};

static int grown_cmp(const void *a, const void *b)
{
	const struct plan_id *x = ((const struct grown *)a)->id, *y = ((const struct grown *)b)->id;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* The existing files written over on this rank, each instance's largest extent, one entry
 * for the instances one after another on one file (a matrix over it), in `*out`. Returns
 * their count, or -1 when memory ran out. */
static ssize_t written_over(const struct plan *p, struct grown **out)
{
	struct grown *g = NULL, *more;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < p->ninst; i++) {
		const struct instance *in = &p->inst[i];
		const struct plan_id *id = plan_seen(p, in, &in->data);
		/* A file the ranks share holds every rank's region (as share_file sizes a
		 * created one). */
		uint64_t extent = spec_job_extent(&in->job),
			 ranks = in->job.layout != RANK_LAYOUT_PER_RANK ? in->rank_n : 1;

		extent = ranks > 1 && extent > UINT64_MAX / ranks ? UINT64_MAX : extent * ranks;

		if (!id || id->rdev || in->data.create || !plan_on_rank(in, dist_rank()) ||
		    !spec_workload_writes(in->job.workload))
			continue;
		if (n && g[n - 1].id == id) {
			g[n - 1].extent = extent > g[n - 1].extent ? extent : g[n - 1].extent;
			continue;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 4;
			if (!(more = realloc(g, cap * sizeof(*g)))) {
				free(g);
				return -1;
			}
			g = more;
		}
		g[n++] = (struct grown){id, extent, in};
	}
	*out = g;
	return (ssize_t)n;
}

/* The file system file `id` is on, which `path` names: its folder's, or where the name is a
 * symbolic link to a file elsewhere, the folder of the file it leads to. NULL: not known
 * (nor then checked), or out of memory (w->status). */
static struct fs_room *fs_of_file(struct room_walk *w, const char *path, const struct plan_id *id)
{
	struct fs_room *e = fs_of_path(w, path);
	char *real;

	if ((e && e->dev == id->dev) || w->status == -ENOMEM)
		return e;
	if (!(real = realpath(path, NULL))) {
		if (errno == ENOMEM)
			w->status = -ENOMEM;
		return NULL;
	}
	e = fs_of_path(w, real);
	free(real);
	return e && e->dev == id->dev ? e : NULL;
}

/* The bytes a file written up to `extent` (in whole blocks) takes more than it does now: its
 * blocks there, less those it holds there already. What it holds lies anywhere in it, so
 * only what its blocks past `extent` could not hold is sure to lie before: a file with
 * holes before that and its data past it grows by as much as one with none at all. */
static uint64_t growth(const struct plan_id *id, uint64_t extent, uint64_t block)
{
	uint64_t size = blocks(id->size, block), past = size > extent ? size - extent : 0;
	uint64_t held = id->allocated > past ? id->allocated - past : 0;

	return extent > held ? extent - held : 0;
}

/* A file written over grows to the largest extent written, where it is shorter or has
 * holes: that much more room on its file system, counted once per file however many
 * instances write it (the same file under several identities' entries merged). */
static void count_growth(struct room_walk *w, const struct plan *p)
{
	struct grown *g = NULL;
	ssize_t n = written_over(p, &g);

	if (n < 0) {
		w->status = -ENOMEM;
		return;
	}
	if (n > 1)
		qsort(g, (size_t)n, sizeof(*g), grown_cmp);
	for (ssize_t i = 0; i < n && w->status != -ENOMEM; i++) {
		uint64_t extent = g[i].extent;
		struct fs_room *e;

		while (i + 1 < n && !grown_cmp(&g[i], &g[i + 1])) {
			i++;
			extent = g[i].extent > extent ? g[i].extent : extent;
		}
		if (!(e = fs_of_file(w, g[i].in->data.path, g[i].id)))
			continue;
		if (!(extent = growth(g[i].id, blocks(extent, e->block), e->block)))
			continue;
		e->files++;
		e->bytes = add(e->bytes, extent);
		check_fs(w, g[i].in, e, JK_TARGET);
	}
	free(g);
}

int plan_check_room(const struct plan *p, const struct plan_kept *kept, struct diag *d)
{
	struct room_walk w = {.kept = kept, .d = d, .dir_fs = -1};

	for (size_t i = 0; i < p->ninst && w.status != -ENOMEM; i++) {
		const struct instance *in = &p->inst[i];
		const struct plan_file *f[2] = {&in->data, &in->src};

		if (!plan_on_rank(in, dist_rank()))
			continue;
		/* A file instances share is counted once, by the one that lays it out, at the
		 * size it lays out (plan_files.c share_file). */
		for (int k = 0; k < 2 && w.status != -ENOMEM; k++)
			if (f[k]->path && f[k]->create && !f[k]->owner)
				count_file(&w, in, f[k], k ? JK_SOURCE : JK_TARGET);
	}
	if (w.status != -ENOMEM)
		count_growth(&w, p);
	for (size_t u = 0; u < p->nunits && w.status != -ENOMEM; u++)
		count_copies(&w, p, &p->units[u], u);
	for (size_t k = 0; k < w.n; k++) {
		if (w.fs[k].at && w.status != -ENOMEM)
			say_fs(&w, &w.fs[k]);
		free(w.fs[k].at_dir);
	}
	free(w.dir);
	free(w.fs);
	if (w.status == -ENOMEM) {
		diag_add(d, NULL, "out of memory while planning");
		return PLAN_EENV;
	}
	return w.status ? PLAN_EENV : 0;
}
