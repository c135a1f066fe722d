/* The planner's files: where each instance reads and writes — a scratch file in a folder,
 * an existing file or block device, a tree for copytree — checked against the machine
 * (exists, writable, room, mounted, O_DIRECT sizes) and shared between instances that
 * name the same path. Reads the file system; writes nothing. */
#include "engine/plan/plan_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engine/dist/dist.h"
#include "lib/env.h"
#include "lib/path.h"
#include "model/jobkeys.h"

bool plan_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0);
}

void plan_name_fits(struct planner *pl, const struct instance *in)
{
	size_t n = strlen(in->name);

	/* Caught here, not by every trial failing with ENAMETOOLONG. */
	if (n > PLAN_FILE_NAME_MAX)
		plan_fail(
		    pl, PLAN_ESPEC, &in->job.loc,
		    "key 'name': instance '%.48s...' has a name of %zu bytes, too long for the file names made from it (scratch files, record logs: at most %d); shorten the job's name or its matrix values",
		    in->name, n, PLAN_FILE_NAME_MAX);
}

/* A file name iotrial's own files carry, so a user can tell them apart. The last part
 * keeps runs apart: the process; in a distributed run the rank too (ranks on several hosts
 * may share a folder), or the run's id for the one file all ranks share. */
static char *scratch_name(struct planner *pl, const char *dir, const struct instance *in,
			  const char *what)
{
	const char *inst = in->name;
	char *name = NULL, *c;
	int n, dl = (int)strlen(dir);

	plan_name_fits(pl, in);

	/* A target written "dir/" (or "/") names the folder: no "//" in the paths shown. */
	while (dl > 0 && dir[dl - 1] == '/')
		dl--;
	if (dist_size() == 1)
		n = asprintf(&name, "%.*s/iotrial.%s.%s.%ld", dl, dir, inst, what, (long)getpid());
	else if (in->job.layout != RANK_LAYOUT_PER_RANK)
		n = asprintf(&name, "%.*s/iotrial.%s.%s.shared.%ld", dl, dir, inst, what,
			     dist_run_id());
	else
		n = asprintf(&name, "%.*s/iotrial.%s.%s.r%d.%ld", dl, dir, inst, what, dist_rank(),
			     (long)getpid());
	if (n < 0)
		return NULL;
	for (c = name + dl + 1; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '.' || *c == '-' || *c == '_'))
			*c = '_';
	return name;
}

/* Is there room for `bytes` more in the file system holding `dir`? */
static void check_space(struct planner *pl, const struct src_loc *loc, const char *key,
			const char *dir, uint64_t bytes)
{
	struct statvfs v;

	if (statvfs(dir, &v) < 0)
		return;
	if (v.f_flag & ST_RDONLY) {
		plan_fail(pl, PLAN_EENV, loc, "key '%s': '%s' is on a read-only file system", key,
			  dir);
		return;
	}
	if ((uint64_t)v.f_bavail * v.f_frsize < bytes)
		plan_fail(
		    pl, PLAN_EENV, loc,
		    "key '%s': not enough free space in '%s': %llu bytes needed, %llu available",
		    key, dir, (unsigned long long)bytes,
		    (unsigned long long)v.f_bavail * v.f_frsize);
}

/* Did check_dir find `dir` fit for `bytes` (or more) just before? */
static bool dir_known(const struct planner *pl, const char *dir, uint64_t bytes)
{
	return pl->dir_ok && bytes <= pl->dir_ok_bytes && !strcmp(pl->dir_ok, dir);
}

/* The directory that will hold a created file: must exist (or be under the scratch folder,
 * which the run creates) and be writable. */
static void check_dir(struct planner *pl, const struct src_loc *loc, const char *key,
		      const char *dir, uint64_t bytes)
{
	struct stat st;
	size_t before = pl->d->n;

	if (plan_under(dir, pl->p->scratch)) {
		pl->p->scratch_used = true;
		return;
	}
	if (dir_known(pl, dir, bytes))
		return;
	if (stat(dir, &st) < 0) {
		plan_fail(pl, PLAN_EENV, loc, "key '%s': target folder '%s' does not exist", key,
			  dir);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		plan_fail(pl, PLAN_EENV, loc, "key '%s': '%s' is not a folder", key, dir);
		return;
	}
	plan_note_dir(pl, dir, &st);
	check_space(pl, loc, key, dir, bytes);
	if (access(dir, W_OK) < 0 && errno != EROFS)
		plan_fail(pl, PLAN_EENV, loc, "key '%s': cannot write in '%s': %s", key, dir,
			  strerror(errno));
	if (pl->d->n == before && (!pl->dir_ok || strcmp(pl->dir_ok, dir))) {
		free(pl->dir_ok);
		pl->dir_ok = strdup(dir); /* without it, the next check stats again */
		pl->dir_ok_bytes = bytes;
	} else if (pl->d->n == before && bytes > pl->dir_ok_bytes) {
		pl->dir_ok_bytes = bytes;
	}
}

/* A target the job file means as a folder is missing: iotrial makes files in a folder,
 * never the folder itself (a mistyped mount point would become a file on the root disk). */
static void missing_folder(struct planner *pl, const struct instance *in, const struct src_loc *loc,
			   const char *path)
{
	const struct job_spec *j = &in->job;

	if (j->device && j->key_loc[JK_TARGET].file && path[strlen(path) - 1] != '/')
		plan_fail(
		    pl, PLAN_EENV, loc,
		    "key 'target': folder '%s' of device '%s' does not exist; create it first, or point the device at a folder that exists",
		    path, j->device);
	else
		plan_fail(pl, PLAN_EENV, loc,
			  "key 'target': folder '%s' does not exist; create it first", path);
}

/* Resolve one file of an instance: `path` is a folder (a scratch file goes inside), an
 * existing file or block device, or a file to create. */
static void resolve_file(struct planner *pl, struct instance *in, enum job_key_id key,
			 const char *path, const char *what, bool writes, struct plan_file *f)
{
	struct job_spec *j = &in->job;
	const struct src_loc *loc = plan_where(in, key);
	const char *kname = job_key_row(key)->name;
	struct stat st = {0}; /* set unless under scratch, where every way returns early */
	bool scratch = plan_under(path, pl->p->scratch);
	/* Stat once: a 100000-point plan may name one path 100000 times. */
	int st_err = scratch || stat(path, &st) == 0 ? 0 : errno;

	/* Under the scratch folder nothing exists yet: a target there is a folder to create, a
	 * source a file. */
	bool folder = scratch ? key == JK_TARGET : !st_err && S_ISDIR(st.st_mode);

	if (folder && key == JK_SOURCE) {
		plan_fail(pl, PLAN_ESPEC, loc,
			  "key 'source': '%s' is a folder; name the file to copy", path);
		return;
	}
	if (plan_under(path, pl->p->scratch) && !folder) {
		pl->p->scratch_used = true;
		f->path = path;
		f->create = true;
		return;
	}
	if (folder) {
		if (!plan_under(path, pl->p->scratch) || strcmp(path, pl->p->scratch))
			check_dir(pl, loc, kname, path, spec_job_extent(j));
		else
			pl->p->scratch_used = true;
		f->path = scratch_name(pl, path, in, what);
		f->create = f->own = true;
		return;
	}
	if (st_err == ENOENT && key == JK_TARGET && in->target_folder) {
		missing_folder(pl, in, loc, path);
		return;
	}
	if (st_err) {
		char *dir = path_dirname(path);
		if (st_err != ENOENT) {
			plan_fail(pl, PLAN_EENV, loc, "key '%s': cannot use '%s': %s", kname, path,
				  strerror(st_err));
		} else if (dir && !plan_under(dir, pl->p->scratch) &&
			   !dir_known(pl, dir, j->file_size) && access(dir, F_OK) < 0) {
			plan_fail(pl, PLAN_EENV, loc,
				  "key '%s': '%s' does not exist, nor does its folder '%s'", kname,
				  path, dir);
		} else if (dir) {
			check_dir(pl, loc, kname, dir, spec_job_extent(j));
		}
		free(dir);
		f->path = path;
		f->create = true;
		return;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		plan_fail(pl, PLAN_EENV, loc,
			  "key '%s': '%s' is neither a file, a folder nor a block device", kname,
			  path);
		return;
	}
	f->path = path;
	/* A copy makes its destination new; allow_overwrite cannot change that, so it is not
	 * suggested. */
	if (key == JK_TARGET && (j->workload == WL_COPY || j->workload == WL_COPYTREE)) {
		plan_fail(
		    pl, PLAN_EENV, loc,
		    "key 'target': '%s' exists, and a %s; name a folder to make it in, or a path that does not exist yet",
		    path,
		    j->workload == WL_COPY ? "copy writes a new file"
					   : "copytree makes a new folder");
		return;
	}
	if (j->threads > 1 && j->file_per_thread) {
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_THREADS),
		    "key 'threads': with file_per_thread each worker needs a file of its own, and '%s' is one existing file (name a folder, or set file_per_thread: false)",
		    path);
		return;
	}
	if (writes) {
		char why[PATH_MAX + 600];
		/* Even allow_overwrite cannot make this safe: it would destroy a live file
		 * system (on the device, or on a loop device the file or device stands for). */
		if (plan_in_use(pl, &st, why, sizeof(why))) {
			plan_fail(
			    pl, PLAN_EENV, loc,
			    "key '%s': '%s' %s: refusing to write to it, whatever allow_overwrite says",
			    kname, path, why);
			return;
		}
	}
	if (writes && !j->allow_overwrite) {
		plan_fail(
		    pl, PLAN_EENV, loc,
		    "key '%s': '%s' exists and iotrial did not create it: refusing to write over it (set allow_overwrite: true to allow)",
		    kname, path);
		return;
	}
	/* With this process's own IDs (AT_EACCESS), as the open will be: else the trial fails
	 * after the result folder is made. A read-only file system is check_space's. */
	if (writes && faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) < 0 && errno != EROFS) {
		plan_fail(pl, PLAN_EENV, loc, "key '%s': cannot write to '%s': %s", kname, path,
			  strerror(errno));
		return;
	}
	uint64_t size;
	plan_note_id(pl, in, &st); /* what was checked above: the run uses only that */
	if (plan_existing_size(path, &st, &size) < 0) {
		plan_changed(pl, loc, kname, path);
		return;
	}
	/* A write may extend a file; a read needs the bytes to be there. */
	if (size < spec_job_extent(j) && (!writes || S_ISBLK(st.st_mode))) {
		if (j->key_loc[JK_FILE_SIZE].file || j->offset || j->offset_increment)
			plan_fail(
			    pl, PLAN_EENV, plan_where(in, JK_FILE_SIZE),
			    "key 'file_size': %llu bytes (from offset %llu), but '%s' holds only %llu",
			    (unsigned long long)j->file_size,
			    (unsigned long long)(spec_job_extent(j) - j->file_size), path,
			    (unsigned long long)size);
		else if (size == 0)
			plan_fail(pl, PLAN_EENV, loc, "key '%s': '%s' is empty", kname, path);
		else
			j->file_size = size;
	}
	if (writes) {
		char *dir = path_dirname(path);
		check_space(pl, loc, kname, dir ? dir : ".", 0);
		free(dir);
	}
}

static size_t path_hash(const char *path)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * 1099511628211ull;
	return (size_t)h;
}

/* The slot of `path` in the table of created files: its file's, or the empty one where it
 * would go. */
static struct plan_file **file_slot(struct planner *pl, const char *path)
{
	size_t mask = pl->filecap - 1, i = path_hash(path) & mask;

	while (pl->files[i] && strcmp(pl->files[i]->path, path))
		i = (i + 1) & mask;
	return &pl->files[i];
}

/* Put `f` in the table unless a file at its path is there already (the first one wins). */
static int file_add(struct planner *pl, struct plan_file *f)
{
	struct plan_file **slot;

	if (2 * (pl->nfiles + 1) > pl->filecap) {
		struct plan_file **old = pl->files;
		size_t oldcap = pl->filecap;
		pl->filecap = oldcap ? 2 * oldcap : 64;
		if (!(pl->files = calloc(pl->filecap, sizeof(*pl->files)))) {
			pl->files = old;
			pl->filecap = oldcap;
			return -ENOMEM;
		}
		for (size_t i = 0; i < oldcap; i++)
			if (old[i])
				*file_slot(pl, old[i]->path) = old[i];
		free(old);
	}
	slot = file_slot(pl, f->path);
	if (!*slot) {
		*slot = f;
		pl->nfiles++;
	}
	return 0;
}

void plan_files_offer(struct planner *pl, struct instance *in)
{
	/* A copy's destination is its own: it is never laid out for another instance. */
	struct plan_file *offer[2] = {in->job.workload == WL_COPY ? NULL : &in->data, &in->src};

	for (int k = 0; k < 2; k++)
		if (offer[k] && offer[k]->path && !offer[k]->owner && offer[k]->create &&
		    file_add(pl, offer[k]) < 0)
			plan_oom(pl);
}

/* Several instances may name one file (a copy source shared by a matrix): the first one
 * owns it, lays it out big enough for all, and removes it. The instances before this one
 * offered theirs (plan_files_offer); a hash table finds it, where comparing with each
 * made a 100000-point plan quadratic. */
static void share_file(struct planner *pl, struct instance *in, struct plan_file *f)
{
	struct plan_file *owner;

	if (!f->create || !f->path)
		return;
	/* A file the ranks share holds every rank's region. */
	f->size = spec_job_extent(&in->job) *
		  (f == &in->data && in->job.layout != RANK_LAYOUT_PER_RANK ? in->rank_n : 1);
	owner = pl->nfiles ? *file_slot(pl, f->path) : NULL;
	if (!owner)
		return;
	f->owner = owner;
	if (f->size > owner->size)
		owner->size = f->size;
	if (f->layout == LAYOUT_FILL)
		owner->layout = LAYOUT_FILL;
}

/* `path` absolute, its existing part resolved (symlinks, `..`), the rest appended as
 * written; NULL when even its first folder cannot be resolved. */
static char *resolve_partly(const char *path)
{
	char *real = realpath(path, NULL), *dir, *up, *out = NULL;
	const char *base = strrchr(path, '/');

	if (real || (errno != ENOENT && errno != ENOTDIR))
		return real;
	if (!(dir = path_dirname(path)) || !strcmp(dir, path)) {
		free(dir);
		return NULL;
	}
	up = resolve_partly(dir);
	base = base ? base + 1 : path;
	if (up && asprintf(&out, "%s/%s", strcmp(up, "/") ? up : "", base) < 0)
		out = NULL;
	free(up);
	free(dir);
	return out;
}

/* A copytree whose new folder is inside its source would copy its own copy, folder in
 * folder, until the depth limit stops it. */
static void check_tree_apart(struct planner *pl, struct instance *in)
{
	char *src = in->src.path ? resolve_partly(in->src.path) : NULL;
	char *dst = in->data.path ? resolve_partly(in->data.path) : NULL;

	if (src && dst && plan_under(dst, src))
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_TARGET),
		    "key 'target': the copy '%s' would be inside the source '%s', and copy itself; name a folder outside the source",
		    in->data.path, in->src.path);
	free(src);
	free(dst);
}

/* A copytree's source: an existing folder, used as it is, or a tree iotrial lays out. */
static void plan_tree_source(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	struct plan_file *f = &in->src;
	struct stat st;

	f->layout = LAYOUT_TREE;
	if (!j->source) {
		f->path = scratch_name(pl, pl->p->scratch, in, "tree");
		f->create = f->own = pl->p->scratch_used = true;
		return;
	}
	f->path = j->source;
	if (!plan_under(j->source, pl->p->scratch) && stat(j->source, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_SOURCE),
				  "key 'source': a copytree copies a folder, and '%s' is not one",
				  j->source);
		plan_note_id(pl, in, &st); /* the folder the run copies, and no other */
		f->layout = LAYOUT_NONE;
		return;
	}
	f->create = true;
	if (plan_under(j->source, pl->p->scratch)) {
		pl->p->scratch_used = true;
	} else {
		char *dir = path_dirname(j->source);
		if (dir)
			check_dir(pl, plan_where(in, JK_SOURCE), "source", dir, j->file_size);
		free(dir);
	}
}

static void instance_files(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	const char *target = j->target ? j->target : pl->p->scratch;

	if (j->workload == WL_COMMAND) {
		if (!j->command)
			plan_fail(pl, PLAN_ESPEC, &j->loc,
				  "key 'command': a command workload needs the command to run");
		in->data.path = "(command)";
		return;
	}
	if (in->be->flags & BE_F_NOIO) {
		in->data.path = "(null)";
		in->src.path = j->workload == WL_COPY ? "(null)" : NULL;
		return;
	}
	if (j->workload == WL_COPYTREE) {
		plan_tree_source(pl, in);
		share_file(pl, in, &in->src);
		resolve_file(pl, in, JK_TARGET, target, "copy", true, &in->data);
		if (in->data.create)
			check_tree_apart(pl, in);
		return;
	}
	if (j->workload == WL_COPY) {
		if (j->source) {
			resolve_file(pl, in, JK_SOURCE, j->source, "src", false, &in->src);
		} else {
			in->src.path = scratch_name(pl, pl->p->scratch, in, "src");
			in->src.create = in->src.own = true;
			pl->p->scratch_used = true;
		}
		in->src.layout = in->src.create ? LAYOUT_FILL : LAYOUT_NONE;
		share_file(pl, in, &in->src);
		resolve_file(pl, in, JK_TARGET, target, "dat", true, &in->data);
		return;
	}
	resolve_file(pl, in, JK_TARGET, target, "dat", spec_workload_writes(j->workload),
		     &in->data);
	/* With verify, every block holds the pattern before the first trial, so a block no
	 * write reached still checks out. */
	if (in->data.create)
		/* readwrite, randrw: the reads need data there. */
		in->data.layout = !spec_workload_writes(j->workload) || j->verify ||
					  spec_workload_mixed(j->workload)
				      ? LAYOUT_FILL
				  : j->preallocate ? LAYOUT_ALLOC
						   : LAYOUT_NONE;
	share_file(pl, in, &in->data);
}

/* The folder the scratch folder is made in ($TMPDIR, else the current folder), checked once,
 * at the first instance that needs it: a TMPDIR that is missing or a file would fail every
 * trial of every job that uses it. A plan that never uses it does not look. */
static void check_scratch_parent(struct planner *pl, const struct instance *in)
{
	char *dir = path_dirname(pl->p->scratch);
	char why[96] = "";
	struct stat st;
	int err;

	if (!dir) {
		plan_oom(pl);
		return;
	}
	err = stat(dir, &st) < 0 ? errno : 0;
	if (err == ENOENT)
		snprintf(why, sizeof(why), "does not exist");
	else if (err)
		snprintf(why, sizeof(why), "cannot be used: %s", strerror(err));
	else if (!S_ISDIR(st.st_mode))
		snprintf(why, sizeof(why), "is not a folder");
	else if (access(dir, W_OK) < 0) /* read-only too: the scratch folder is made there */
		snprintf(why, sizeof(why), "cannot be written in: %s", strerror(errno));
	if (*why)
		plan_fail(
		    pl, PLAN_EENV, plan_where(in, JK_TARGET),
		    "job '%s' needs the scratch folder, made in '%s' (TMPDIR, else the current folder), which %s; set TMPDIR to a folder, or name a target",
		    in->job.name, dir, why);
	free(dir);
}

void plan_files(struct planner *pl, struct instance *in)
{
	bool used = pl->p->scratch_used;

	instance_files(pl, in);
	if (!used && pl->p->scratch_used)
		check_scratch_parent(pl, in);
}

/* O_DIRECT moves whole logical blocks of the device: check sizes against the target's. */
void plan_direct(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	struct env_target t;
	uint32_t lbs = 512;

	if (!j->direct || (in->be->flags & BE_F_NOIO))
		return;
	if (env_target_info(in->data.path, &t) == 0) {
		if (t.logical_block_size)
			lbs = t.logical_block_size;
		env_target_release(&t);
	}
	if (in->wl && in->wl->split &&
	    (in->wl->sizes.range ? in->wl->sizes.min % lbs
				 : wl_sizes_misaligned(&in->wl->sizes, lbs))) {
		uint64_t bad = in->wl->sizes.range ? in->wl->sizes.min
						   : wl_sizes_misaligned(&in->wl->sizes, lbs);
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_BLOCK_SPLIT),
		    "key 'block_split': a size of %llu bytes is not a multiple of %u, the logical block size of '%s', which direct: true needs",
		    (unsigned long long)bad, lbs, in->data.path);
	} else if (in->chunk % lbs)
		plan_fail(

		    pl, PLAN_ESPEC,
		    plan_where(in, j->workload == WL_COPY ? JK_BUFFER_SIZE : JK_BLOCK_SIZE),
		    "key '%s': %llu bytes is not a multiple of %u, the logical block size of '%s', which direct: true needs",
		    j->workload == WL_COPY ? "buffer_size" : "block_size",
		    (unsigned long long)in->chunk, lbs, in->data.path);
	else if ((j->offset | j->offset_increment) % lbs)
		plan_fail(
		    pl, PLAN_ESPEC,
		    plan_where(in, j->offset % lbs ? JK_OFFSET : JK_OFFSET_INCREMENT),
		    "key '%s': %llu bytes is not a multiple of %u, the logical block size of '%s', which direct: true needs",
		    j->offset % lbs ? "offset" : "offset_increment",
		    (unsigned long long)(j->offset % lbs ? j->offset : j->offset_increment), lbs,
		    in->data.path);
	else if (j->file_size % lbs)

		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_FILE_SIZE),
		    "key 'file_size': %llu bytes is not a multiple of %u, the logical block size of '%s', which direct: true needs",
		    (unsigned long long)j->file_size, lbs, in->data.path);
}

void plan_dist_files(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;

	if (j->layout == RANK_LAYOUT_PER_RANK || in->rank_n < 2 || !in->data.path ||
	    (in->be->flags & BE_F_NOIO))
		return;
	if (plan_under(in->data.path, pl->p->scratch)) {
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_LAYOUT),
		    "key 'layout': the ranks share one file, so it cannot be in a rank's own scratch folder: set target to a folder every rank can reach");
		return;
	}
	if (in->data.create && dist_rank() != (int)in->rank_lo)
		in->data.create = false;
}
