/* The planner (see plan.h): one instance per job, its files and backend resolved and
 * checked against the machine, and the trials put in order. Reads the file system
 * (stat, statvfs) but writes nothing. */
#include "engine/plan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engine/dist.h"
#include "engine/env.h"
#include "engine/jobkeys.h"
#include "engine/safety.h"
#include "engine/verify.h"
#include "parsers/expand.h"

struct planner {
	const struct exp_spec *s;
	struct plan *p;
	struct diag *d;
	int status; /* 0, PLAN_EENV or PLAN_ESPEC; a spec error wins */
};

static void fail(struct planner *pl, int kind, const struct src_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail(struct planner *pl, int kind, const struct src_loc *loc, const char *fmt, ...)
{
	char msg[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_add(pl->d, loc, "%s", msg);
	if (kind > pl->status)
		pl->status = kind;
}

/* Where key `k` of job `j` was set; the job itself when the key was defaulted. */
static const struct src_loc *where(const struct job_spec *j, enum job_key_id k)
{
	return j->key_loc[k].file ? &j->key_loc[k] : &j->loc;
}

struct lookup_arg {
	const struct exp_spec *s;
	const struct job_spec *j;
};

static const char *device_path(const char *name, void *arg)
{
	const struct lookup_arg *a = arg;

	if (strcmp(name, "device") || !a->j->device)
		return NULL;
	for (size_t i = 0; i < a->s->ndevices; i++)
		if (!strcmp(a->s->devices[i].name, a->j->device))
			return a->s->devices[i].path;
	return NULL;
}

/* Expand {device} in a target or source path, in place. */
static void resolve_placeholders(struct planner *pl, struct job_spec *j, enum job_key_id k)
{
	char **field = (char **)((char *)j + job_keys[k].off), *out, err[256];
	struct lookup_arg a = {pl->s, j};

	if (!*field)
		return;
	if (expand_placeholders(*field, &out, device_path, &a, err, sizeof(err)) < 0) {
		if (!j->device)
			fail(pl, PLAN_ESPEC, where(j, k),
			     "key '%s': %s (set 'device' to a name from devices:)",
			     job_keys[k].name, err);
		else
			fail(pl, PLAN_ESPEC, where(j, k), "key '%s': %s", job_keys[k].name, err);
		return;
	}
	free(*field);
	*field = out;
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0);
}

static char *dirname_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* A file name iotrial's own files carry, so a user can tell them apart. The last part
 * keeps runs apart: the process; in a distributed run the rank too (ranks on several hosts
 * may share a folder), or the run's id for the one file all ranks share. */
static char *scratch_name(const char *dir, const struct instance *in, const char *what)
{
	const char *inst = in->name;
	char *name = NULL, *c;
	int n;

	if (dist_size() == 1)
		n = asprintf(&name, "%s/iotrial.%s.%s.%ld", dir, inst, what, (long)getpid());
	else if (in->job.layout != RANK_LAYOUT_PER_RANK)
		n = asprintf(&name, "%s/iotrial.%s.%s.shared.%ld", dir, inst, what, dist_run_id());
	else
		n = asprintf(&name, "%s/iotrial.%s.%s.r%d.%ld", dir, inst, what, dist_rank(),
			     (long)getpid());
	if (n < 0)
		return NULL;
	for (c = name + strlen(dir) + 1; *c; c++)
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
		fail(pl, PLAN_EENV, loc, "key '%s': '%s' is on a read-only file system", key, dir);
		return;
	}
	if ((uint64_t)v.f_bavail * v.f_frsize < bytes)
		fail(pl, PLAN_EENV, loc,
		     "key '%s': not enough free space in '%s': %llu bytes needed, %llu available",
		     key, dir, (unsigned long long)bytes,
		     (unsigned long long)v.f_bavail * v.f_frsize);
}

/* The directory that will hold a created file: must exist (or be under the scratch folder,
 * which the run creates) and be writable. */
static void check_dir(struct planner *pl, const struct src_loc *loc, const char *key,
		      const char *dir, uint64_t bytes)
{
	struct stat st;

	if (under(dir, pl->p->scratch)) {
		pl->p->scratch_used = true;
		return;
	}
	if (stat(dir, &st) < 0) {
		fail(pl, PLAN_EENV, loc, "key '%s': target folder '%s' does not exist", key, dir);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		fail(pl, PLAN_EENV, loc, "key '%s': '%s' is not a folder", key, dir);
		return;
	}
	check_space(pl, loc, key, dir, bytes);
	if (access(dir, W_OK) < 0 && errno != EROFS)
		fail(pl, PLAN_EENV, loc, "key '%s': cannot write in '%s': %s", key, dir,
		     strerror(errno));
}

static uint64_t existing_size(const char *path, const struct stat *st)
{
	uint64_t size = (uint64_t)st->st_size;
	int fd;

	if (S_ISBLK(st->st_mode) && (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		if (ioctl(fd, BLKGETSIZE64, &size) < 0)
			size = 0;
		close(fd);
	}
	return size;
}

/* Resolve one file of an instance: `path` is a folder (a scratch file goes inside), an
 * existing file or block device, or a file to create. */
static void resolve_file(struct planner *pl, struct instance *in, enum job_key_id key,
			 const char *path, const char *what, bool writes, struct plan_file *f)
{
	struct job_spec *j = &in->job;
	const struct src_loc *loc = where(j, key);
	const char *kname = job_keys[key].name;
	struct stat st;

	/* Under the scratch folder nothing exists yet: a target there is a folder to create, a
	 * source a file. */
	bool folder = under(path, pl->p->scratch) ? key == JK_TARGET
						  : stat(path, &st) == 0 && S_ISDIR(st.st_mode);

	if (folder && key == JK_SOURCE) {
		fail(pl, PLAN_ESPEC, loc, "key 'source': '%s' is a folder; name the file to copy",
		     path);
		return;
	}
	if (under(path, pl->p->scratch) && !folder) {
		pl->p->scratch_used = true;
		f->path = strdup(path);
		f->create = true;
		return;
	}
	if (folder) {
		if (!under(path, pl->p->scratch) || strcmp(path, pl->p->scratch))
			check_dir(pl, loc, kname, path, j->file_size);
		else
			pl->p->scratch_used = true;
		f->path = scratch_name(path, in, what);
		f->create = true;
		return;
	}
	if (stat(path, &st) < 0) {
		char *dir = dirname_of(path);
		if (errno != ENOENT) {
			fail(pl, PLAN_EENV, loc, "key '%s': cannot use '%s': %s", kname, path,
			     strerror(errno));
		} else if (dir && !under(dir, pl->p->scratch) && access(dir, F_OK) < 0) {
			fail(pl, PLAN_EENV, loc,
			     "key '%s': '%s' does not exist, nor does its folder '%s'", kname, path,
			     dir);
		} else if (dir) {
			check_dir(pl, loc, kname, dir, j->file_size);
		}
		free(dir);
		f->path = strdup(path);
		f->create = true;
		return;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		fail(pl, PLAN_EENV, loc,
		     "key '%s': '%s' is neither a file, a folder nor a block device", kname, path);
		return;
	}
	f->path = strdup(path);
	if (j->threads > 1 && j->file_per_thread) {
		fail(pl, PLAN_ESPEC, where(j, JK_THREADS),
		     "key 'threads': with file_per_thread each worker needs a file of its own, and '%s' is one existing file (name a folder, or set file_per_thread: false)",
		     path);
		return;
	}
	if (writes && S_ISBLK(st.st_mode)) {
		char mnt[512];
		/* Even allow_overwrite cannot make this safe: it would destroy a live file
		 * system. */
		if (safety_mounted(st.st_rdev, mnt, sizeof(mnt))) {
			fail(pl, PLAN_EENV, loc,
			     "key '%s': '%s' is mounted (on %s): refusing to write to it, whatever allow_overwrite says",
			     kname, path, mnt);
			return;
		}
	}
	if (writes && !j->allow_overwrite) {
		fail(
		    pl, PLAN_EENV, loc,
		    "key '%s': '%s' exists and iotrial did not create it: refusing to write over it (set allow_overwrite: true to allow)",
		    kname, path);
		return;
	}
	uint64_t size = existing_size(path, &st);
	/* A write may extend a file; a read needs the bytes to be there. */
	if (size < j->file_size && (!writes || S_ISBLK(st.st_mode))) {
		if (j->key_loc[JK_FILE_SIZE].file)
			fail(pl, PLAN_EENV, where(j, JK_FILE_SIZE),
			     "key 'file_size': %llu bytes, but '%s' holds only %llu",
			     (unsigned long long)j->file_size, path, (unsigned long long)size);
		else if (size == 0)
			fail(pl, PLAN_EENV, loc, "key '%s': '%s' is empty", kname, path);
		else
			j->file_size = size;
	}
	if (writes) {
		char *dir = dirname_of(path);
		check_space(pl, loc, kname, dir ? dir : ".", 0);
		free(dir);
	}
}

/* Several instances may name one file (a copy source shared by a matrix): the first one
 * owns it, lays it out big enough for all, and removes it. */
static void share_file(struct planner *pl, struct instance *in, struct plan_file *f)
{
	struct plan_file *owner = NULL;

	if (!f->create || !f->path)
		return;
	/* A file the ranks share holds every rank's region. */
	f->size = in->job.file_size *
		  (f == &in->data && in->job.layout != RANK_LAYOUT_PER_RANK ? in->rank_n : 1);
	for (size_t i = 0; i < pl->p->ninst && !owner; i++) {
		struct instance *o = &pl->p->inst[i];
		struct plan_file *cand[2] = {o->job.workload == WL_COPY ? NULL : &o->data, &o->src};
		for (int k = 0; k < 2 && !owner; k++)
			if (cand[k] && cand[k] != f && cand[k]->path && !cand[k]->owner &&
			    cand[k]->create && !strcmp(cand[k]->path, f->path))
				owner = cand[k];
	}
	if (!owner)
		return;
	f->owner = owner;
	if (f->size > owner->size)
		owner->size = f->size;
	if (f->layout == LAYOUT_FILL)
		owner->layout = LAYOUT_FILL;
}

/* A copytree's source: an existing folder, used as it is, or a tree iotrial lays out. */
static void plan_tree_source(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	struct plan_file *f = &in->src;
	struct stat st;

	f->layout = LAYOUT_TREE;
	if (!j->source) {
		f->path = scratch_name(pl->p->scratch, in, "tree");
		f->create = pl->p->scratch_used = true;
		return;
	}
	f->path = strdup(j->source);
	if (!under(j->source, pl->p->scratch) && stat(j->source, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			fail(pl, PLAN_ESPEC, where(j, JK_SOURCE),
			     "key 'source': a copytree copies a folder, and '%s' is not one", j->source);
		f->layout = LAYOUT_NONE;
		return;
	}
	f->create = true;
	if (under(j->source, pl->p->scratch)) {
		pl->p->scratch_used = true;
	} else {
		char *dir = dirname_of(j->source);
		if (dir)
			check_dir(pl, where(j, JK_SOURCE), "source", dir, j->file_size);
		free(dir);
	}
}

static void plan_files(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	const char *target = j->target ? j->target : pl->p->scratch;

	if (j->workload == WL_COMMAND) {
		if (!j->command)
			fail(pl, PLAN_ESPEC, &j->loc, "key 'command': a command workload needs the command to run");
		in->data.path = strdup("(command)");
		return;
	}
	if (in->be->flags & BE_F_NOIO) {
		in->data.path = strdup("(null)");
		in->src.path = j->workload == WL_COPY ? strdup("(null)") : NULL;
		return;
	}
	if (j->workload == WL_COPYTREE) {
		plan_tree_source(pl, in);
		share_file(pl, in, &in->src);
		resolve_file(pl, in, JK_TARGET, target, "copy", true, &in->data);
		if (!in->data.create && pl->status == 0)
			fail(pl, PLAN_ESPEC, where(j, JK_TARGET),
			     "key 'target': a copytree makes a new folder: name a folder to make it in");
		return;
	}
	if (j->workload == WL_COPY) {
		if (j->source) {
			resolve_file(pl, in, JK_SOURCE, j->source, "src", false, &in->src);
		} else {
			in->src.path = scratch_name(pl->p->scratch, in, "src");
			in->src.create = true;
			pl->p->scratch_used = true;
		}
		in->src.layout = in->src.create ? LAYOUT_FILL : LAYOUT_NONE;
		share_file(pl, in, &in->src);
		resolve_file(pl, in, JK_TARGET, target, "dat", true, &in->data);
		if (!in->data.create && pl->status == 0)
			fail(
			    pl, PLAN_ESPEC, where(j, JK_TARGET),
			    "key 'target': a copy writes a new file: name a folder or a file that does not exist yet");
		return;
	}
	resolve_file(pl, in, JK_TARGET, target, "dat", spec_workload_writes(j->workload),
		     &in->data);
	/* With verify, every block holds the pattern before the first trial, so a block no
	 * write reached still checks out. */
	if (in->data.create)
		in->data.layout =
		    spec_workload_writes(j->workload) && !j->verify ? LAYOUT_ALLOC : LAYOUT_FILL;
	share_file(pl, in, &in->data);
}

static void plan_backend(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	const char *name = j->backend ? j->backend : "sync";
	const char *pkg;

	in->be = be_find(name);
	if (!in->be) {
		if ((pkg = be_missing_library(name)))
			fail(
			    pl, PLAN_EENV, where(j, JK_BACKEND),
			    "key 'backend': '%s' is not compiled into this build (install %s and rebuild)",
			    name, pkg);
		else
			fail(pl, PLAN_ESPEC, where(j, JK_BACKEND),
			     "key 'backend': unknown backend '%s' (this build has: %s)", name,
			     be_names());
		return;
	}
	if (!strcmp(name, "direct"))
		j->direct = true;
	if (j->iodepth > 1 && !(in->be->flags & BE_F_ASYNC))
		fail(pl, PLAN_ESPEC, where(j, JK_IODEPTH),
		     "key 'iodepth': %u needs an asynchronous backend; '%s' does one I/O at a time",
		     j->iodepth, in->be->name);
	else if (j->iodepth > in->be->max_iodepth)
		fail(pl, PLAN_ESPEC, where(j, JK_IODEPTH),
		     "key 'iodepth': %u is above backend '%s''s limit of %u", j->iodepth,
		     in->be->name, in->be->max_iodepth);
	for (int k = JK_SIM_DIST; k <= JK_SIM_OUTLIER_FACTOR; k++)
		if (j->key_loc[k].file && strcmp(in->be->name, "synthetic"))
			fail(pl, PLAN_ESPEC, where(j, (enum job_key_id)k),
			     "key '%s': only the synthetic backend takes sim_* keys",
			     job_keys[k].name);
	if (j->direct && !(in->be->flags & BE_F_DIRECT))
		fail(pl, PLAN_ESPEC, where(j, JK_DIRECT),
		     "key 'direct': backend '%s' cannot take O_DIRECT", in->be->name);
}

/* O_DIRECT moves whole logical blocks of the device: check sizes against the target's. */
static void plan_direct(struct planner *pl, struct instance *in)
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
	if (in->chunk % lbs)
		fail(
		    pl, PLAN_ESPEC,
		    where(j, j->workload == WL_COPY ? JK_BUFFER_SIZE : JK_BLOCK_SIZE),
		    "key '%s': %llu bytes is not a multiple of %u, the logical block size of '%s', which direct: true needs",
		    j->workload == WL_COPY ? "buffer_size" : "block_size",
		    (unsigned long long)in->chunk, lbs, in->data.path);
	else if (j->file_size % lbs)
		fail(
		    pl, PLAN_ESPEC, where(j, JK_FILE_SIZE),
		    "key 'file_size': %llu bytes is not a multiple of %u, the logical block size of '%s', which direct: true needs",
		    (unsigned long long)j->file_size, lbs, in->data.path);
}

int plan_ranks(const char *text, uint32_t size, uint32_t *lo, uint32_t *n, char *err,
	       size_t errlen)
{
	unsigned long a, b;
	char *end;

	if (!strcmp(text, "all")) {
		*lo = 0;
		*n = size;
		return 0;
	}
	if (*text < '0' || *text > '9')
		goto bad;
	a = strtoul(text, &end, 10);
	if (*end == 0) {
		if (a < 1 || a > 65536) {
			snprintf(err, errlen, "must be between 1 and 65536 ranks, got '%s'", text);
			return -ERANGE;
		}
		if (a > size) {
			snprintf(err, errlen,
				 "the job asks for %lu ranks, but the run has %u (launch it with mpirun -np %lu)",
				 a, size, a);
			return -ERANGE;
		}
		*lo = 0;
		*n = (uint32_t)a;
		return 0;
	}
	if (*end != '-' || end[1] < '0' || end[1] > '9')
		goto bad;
	b = strtoul(end + 1, &end, 10);
	if (*end)
		goto bad;
	if (a > b || b > 65535) {
		snprintf(err, errlen, "a range of ranks A-B needs A <= B <= 65535, got '%s'", text);
		return -ERANGE;
	}
	if (b >= size) {
		snprintf(err, errlen,
			 "the job asks for ranks %lu-%lu, but the run has %u (launch it with mpirun -np %lu)",
			 a, b, size, b + 1);
		return -ERANGE;
	}
	*lo = (uint32_t)a;
	*n = (uint32_t)(b - a + 1);
	return 0;
bad:
	snprintf(err, errlen, "expected all, a number of ranks or a range like \"0-3\", got '%s'",
		 text);
	return -EINVAL;
}

/* ranks: and layout:, checked against the run's ranks; a rank that does not own a shared
 * file leaves its creation (and removal) to the one that does. */
static void plan_dist(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	char err[256];
	bool copies = j->workload == WL_COPY || j->workload == WL_COPYTREE;

	if (plan_ranks(j->ranks ? j->ranks : "all", (uint32_t)dist_size(), &in->rank_lo,
		       &in->rank_n, err, sizeof(err)) < 0)
		fail(pl, PLAN_ESPEC, where(j, JK_RANKS), "key 'ranks': %s", err);
	if (j->layout == RANK_LAYOUT_PER_RANK)
		return;
	if (copies || j->workload == WL_COMMAND)
		fail(pl, PLAN_ESPEC, where(j, JK_LAYOUT),
		     "key 'layout': a %s makes its own files; only read, write, randread and randwrite share one",
		     spec_workload_name(j->workload));
	else if (j->layout == RANK_LAYOUT_STRIDED && j->file_size % in->chunk)
		fail(pl, PLAN_ESPEC, where(j, JK_LAYOUT),
		     "key 'layout': strided interleaves whole blocks: file_size (%llu bytes) must be a multiple of block_size (%llu bytes)",
		     (unsigned long long)j->file_size, (unsigned long long)in->chunk);
}

static void plan_dist_files(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;

	if (j->layout == RANK_LAYOUT_PER_RANK || in->rank_n < 2 || !in->data.path ||
	    (in->be->flags & BE_F_NOIO))
		return;
	if (under(in->data.path, pl->p->scratch)) {
		fail(pl, PLAN_ESPEC, where(j, JK_LAYOUT),
		     "key 'layout': the ranks share one file, so it cannot be in a rank's own scratch folder: set target to a folder every rank can reach");
		return;
	}
	if (in->data.create && dist_rank() != (int)in->rank_lo)
		in->data.create = false;
}

/* The instance's name: the job's, with the matrix point in brackets. */
static char *instance_name(const struct job_spec *src, const struct matrix_point *pt)
{
	char *name, val[256];
	size_t len = strlen(src->name) + 3, o;

	for (size_t i = 0; i < pt->n; i++)
		len += strlen(job_keys[pt->kv[i].key].name) + 2 + sizeof(val);
	if (!(name = malloc(len)))
		return NULL;
	o = (size_t)snprintf(name, len, "%s", src->name);
	for (size_t i = 0; i < pt->n; i++) {
		job_key_format(&pt->kv[i], val, sizeof(val));
		o += (size_t)snprintf(name + o, len - o, "%s%s=%s", i ? "," : "[",
				      job_keys[pt->kv[i].key].name, val);
	}
	if (pt->n)
		snprintf(name + o, len - o, "]");
	return name;
}

static void plan_instance(struct planner *pl, size_t k, const struct matrix_point *pt,
			  const struct src_loc *locs)
{
	const struct exp_spec *s = pl->s;
	const struct job_spec *src = &s->jobs[k];
	struct instance *in = &pl->p->inst[pl->p->ninst];
	struct job_spec *j = &in->job;

	if (spec_job_copy(j, src) < 0 || !(in->name = instance_name(src, pt))) {
		fail(pl, PLAN_EENV, NULL, "out of memory");
		return;
	}
	pl->p->ninst++;
	in->job_index = k;
	for (size_t i = 0; i < pt->n; i++) {
		job_key_put(j, &pt->kv[i]);
		j->key_loc[pt->kv[i].key] = locs[i];
	}
	if (pt->n && !(in->point = calloc(pt->n, sizeof(*in->point))))
		return;
	for (size_t i = 0; i < pt->n; i++)
		job_key_get(j, pt->kv[i].key, &in->point[in->npoint++]);
	in->warmup = j->rep.warmup;
	in->runs = j->rep.target ? j->rep.pilot : j->rep.runs;
	in->max_runs = j->rep.target ? j->rep.max : j->rep.runs;
	if (j->device && !device_path("device", &(struct lookup_arg){s, j}))
		fail(pl, PLAN_ESPEC, where(j, JK_DEVICE), "key 'device': unknown device '%s'",
		     j->device);
	resolve_placeholders(pl, j, JK_TARGET);
	resolve_placeholders(pl, j, JK_SOURCE);
	bool copies = j->workload == WL_COPY || j->workload == WL_COPYTREE;
	in->chunk = copies && j->buffer_size ? j->buffer_size : j->block_size;
	if (!copies && j->workload != WL_COMMAND && j->block_size > j->file_size)
		fail(pl, PLAN_ESPEC, where(j, JK_BLOCK_SIZE),
		     "key 'block_size': %llu bytes is larger than file_size (%llu bytes)",
		     (unsigned long long)j->block_size, (unsigned long long)j->file_size);
	if (!copies && j->key_loc[JK_BUFFER_SIZE].file)
		fail(pl, PLAN_ESPEC, where(j, JK_BUFFER_SIZE),
		     "key 'buffer_size': only a copy takes buffer_size; use block_size for %s",
		     spec_workload_name(j->workload));
	if (!copies && j->key_loc[JK_SOURCE].file)
		fail(pl, PLAN_ESPEC, where(j, JK_SOURCE),
		     "key 'source': only a copy reads a source");
	if (j->verify && (in->chunk % VERIFY_UNIT || j->file_size % VERIFY_UNIT))
		fail(pl, PLAN_ESPEC, where(j, JK_VERIFY),
		     "key 'verify': block_size%s and file_size must be multiples of %u bytes",
		     j->workload == WL_COPY ? " (buffer_size)" : "", VERIFY_UNIT);
	if (j->threads > 1 && !j->file_per_thread && j->file_size < (uint64_t)j->threads * in->chunk)
		fail(pl, PLAN_ESPEC, where(j, JK_THREADS),
		     "key 'threads': %u workers share a file of %llu bytes, less than one %llu-byte I/O each",
		     j->threads, (unsigned long long)j->file_size, (unsigned long long)in->chunk);
	if (j->rate && j->rate_iops)
		fail(pl, PLAN_ESPEC, where(j, JK_RATE_IOPS),
		     "key 'rate_iops': set rate (bytes per second) or rate_iops, not both");
	if (j->command && j->workload != WL_COMMAND)
		fail(pl, PLAN_ESPEC, where(j, JK_COMMAND),
		     "key 'command': only a command workload runs a command (workload: command)");
	if (j->background && j->rep.target)
		fail(pl, PLAN_ESPEC, where(j, JK_BACKGROUND),
		     "key 'background': load runs as long as the jobs it accompanies; it takes no precision target");
	plan_dist(pl, in);
	plan_backend(pl, in);
	if (in->be && j->verify && (in->be->flags & BE_F_NOIO))
		fail(pl, PLAN_ESPEC, where(j, JK_VERIFY),
		     "key 'verify': backend '%s' keeps no data to verify", in->be->name);
	if (pl->status == PLAN_ESPEC || !in->be)
		return;
	plan_files(pl, in);
	plan_dist_files(pl, in);
	if (in->data.path)
		plan_direct(pl, in);
}

/* What a unit's workers hold at once: their buffers, histograms and log buffers. A plan
 * that would not fit in this machine's memory is refused before anything runs. */
static int plan_memory(const struct plan *p, struct diag *d)
{
	uint64_t mem = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	long double most = 0;
	size_t worst = 0;

	for (size_t u = 0; u < p->nunits; u++) {
		long double need = 0;
		for (size_t k = 0; k < p->units[u].n; k++) {
			const struct instance *in = &p->inst[p->units[u].inst[k]];
			long double per = (long double)in->job.iodepth * (long double)in->chunk +
					  (64 << 10) + 2 * 65536;
			need += per * in->job.threads;
		}
		if (need > most) {
			most = need;
			worst = u;
		}
	}
	if (mem && most > 0.8L * (long double)mem) {
		const struct instance *in = &p->inst[p->units[worst].inst[0]];
		diag_add(d, &in->job.loc,
			 "the plan needs about %.1f GiB of memory at once (%s: threads x iodepth x block size), more than this machine's %.1f GiB allows",
			 (double)(most / (1 << 30)), in->name, (double)mem / (1 << 30));
		return PLAN_EENV;
	}
	return 0;
}

static bool grow_instances(struct plan *p, size_t more)
{
	struct instance *ni = realloc(p->inst, (p->ninst + more) * sizeof(*ni));

	if (!ni)
		return false;
	memset(ni + p->ninst, 0, more * sizeof(*ni));
	p->inst = ni;
	return true;
}

int plan_build(const struct exp_spec *s, const char *scratch, uint64_t seed, struct plan *p,
	       struct diag *d)
{
	struct planner pl = {s, p, d, 0};

	memset(p, 0, sizeof(*p));
	p->spec = s;
	p->seed = s->seed_set ? s->seed : seed;
	p->scratch = strdup(scratch);
	if (!p->scratch) {
		diag_add(d, NULL, "out of memory");
		return PLAN_EENV;
	}
	p->order_seed = s->rep.seed_set ? s->rep.seed : p->seed;
	p->order_rng = p->order_seed;
	for (size_t k = 0; k < s->njobs; k++) {
		struct matrix_point *points = NULL;
		struct src_loc *locs = NULL;
		size_t n = 0;
		int ret = matrix_points(&s->jobs[k], &points, &locs, &n);

		if (ret == -E2BIG) {
			fail(&pl, PLAN_ESPEC, &s->jobs[k].loc,
			     "key 'matrix': job '%s' expands to more than %d points",
			     s->jobs[k].name, MATRIX_MAX_POINTS);
		} else if (ret < 0) {
			fail(&pl, PLAN_EENV, NULL, "out of memory");
		} else if (n == 0) {
			fail(&pl, PLAN_ESPEC, &s->jobs[k].loc,
			     "key 'exclude': every point of job '%s' is excluded", s->jobs[k].name);
		} else if (!grow_instances(p, n)) {
			fail(&pl, PLAN_EENV, NULL, "out of memory");
		}
		for (size_t i = 0; ret == 0 && i < n; i++)
			plan_instance(&pl, k, &points[i], locs + i * s->jobs[k].nmatrix);
		matrix_points_free(points, locs, n);
		if (pl.status == PLAN_EENV && !p->inst)
			return pl.status;
	}
	if (pl.status)
		return pl.status;
	plan_compares(p, d, &pl.status);
	if (pl.status)
		return pl.status;
	if ((pl.status = plan_graph(p, d)))
		return pl.status;
	if ((pl.status = plan_memory(p, d)))
		return pl.status;
	return plan_order(p) < 0 ? PLAN_EENV : 0;
}

void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->ninst; i++) {
		free(p->inst[i].name);
		spec_job_release(&p->inst[i].job);
		free(p->inst[i].data.path);
		free(p->inst[i].src.path);
		for (size_t k = 0; k < p->inst[i].npoint; k++)
			job_key_value_release(&p->inst[i].point[k]);
		free(p->inst[i].point);
	}
	free(p->cmp);
	for (size_t i = 0; i < p->nunits; i++)
		free(p->units[i].inst);
	free(p->units);
	free(p->inst);
	free(p->order);
	free(p->scratch);
	memset(p, 0, sizeof(*p));
}
