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
	uint64_t avail;	   /* free to a writer that is not root, as statvfs says */
	uint64_t bytes;	   /* the files counted so far, copy destinations aside */
	uint64_t copy_max; /* the largest destination a copy removes after its trial */
	size_t files;
	bool said; /* one line for a file system is enough */
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
			w->fs[w->n++] = (struct fs_room){
			    .dev = st.st_dev, .avail = (uint64_t)v.f_bavail * v.f_frsize};
		}
	}
	free(at);
	return i;
}

/* The bytes created file `f` of instance `in` takes: one per worker with file_per_thread. */
static uint64_t file_bytes(const struct instance *in, const struct plan_file *f)
{
	const struct job_spec *j = &in->job;
	uint64_t one = f->size ? f->size : spec_job_extent(j);
	uint64_t n = j->threads > 1 && j->file_per_thread ? j->threads : 1;

	return one > UINT64_MAX / n ? UINT64_MAX : one * n;
}

/* Count file `f` of `in` (its key `key`) on its file system; say so at `key` when the
 * files so far, with the room kept there, no longer fit. */
static void count_file(struct room_walk *w, const struct instance *in, const struct plan_file *f,
		       enum job_key_id key)
{
	const struct job_spec *j = &in->job;
	const char *slash = strrchr(f->path, '/');
	size_t dl = slash ? (size_t)(slash - f->path) : 0;
	bool copy = f == &in->data && (j->workload == WL_COPY || j->workload == WL_COPYTREE);
	uint64_t avail, kept = 0, need;
	struct fs_room *e;

	if (!w->dir || strlen(w->dir) != dl || strncmp(w->dir, f->path, dl)) {
		char *dir = dl ? strndup(f->path, dl) : strdup(slash ? "/" : ".");
		ssize_t at = dir ? fs_of(w, dir) : -2;

		free(w->dir);
		w->dir = dir;
		w->dir_fs = at;
	}
	if (w->dir_fs == -2) {
		w->status = -ENOMEM;
		return;
	}
	if (w->dir_fs < 0)
		return;
	e = &w->fs[w->dir_fs];
	e->files++;
	/* A copy makes its destination anew each trial and removes it after: one at a time,
	 * but the last one of each instance stays with keep_files. */
	if (copy && !j->keep_files)
		e->copy_max = file_bytes(in, f) > e->copy_max ? file_bytes(in, f) : e->copy_max;
	else
		e->bytes = add(e->bytes, file_bytes(in, f));
	need = add(e->bytes, e->copy_max);
	avail = e->avail;
	if (w->kept && w->kept->dev == e->dev) {
		avail = add(avail, w->kept->held);
		kept = w->kept->bytes <= avail ? w->kept->bytes : 0;
	}
	if (e->said || add(need, kept) <= avail)
		return;
	e->said = true;
	if (need > avail)
		diag_add(
		    w->d, plan_where(in, key),
		    "key '%s': not enough free space in '%s': %llu bytes needed for what the plan creates on its file system (%zu file%s), %llu available",
		    job_key_row(key)->name, w->dir, (unsigned long long)need, e->files,
		    e->files == 1 ? "" : "s", (unsigned long long)avail);
	else
		diag_add(
		    w->d, plan_where(in, key),
		    "key '%s': not enough free space in '%s' beside the room kept for the results: %llu bytes needed for what the plan creates on its file system (%zu file%s), and %llu kept for the results in '%s'; %llu available",
		    job_key_row(key)->name, w->dir, (unsigned long long)need, e->files,
		    e->files == 1 ? "" : "s", (unsigned long long)kept, w->kept->folder,
		    (unsigned long long)avail);
	w->status = PLAN_EENV;
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
	free(w.dir);
	free(w.fs);
	if (w.status == -ENOMEM) {
		diag_add(d, NULL, "out of memory while planning");
		return PLAN_EENV;
	}
	return w.status ? PLAN_EENV : 0;
}
