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

#include "engine/env.h"
#include "engine/jobkeys.h"
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
			     "key '%s': %s (set 'device' to a name from devices:)", job_keys[k].name,
			     err);
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

/* A file name iotrial's own files carry, so a user can tell them apart. */
static char *scratch_name(const char *dir, const char *inst, const char *what)
{
	char *name = NULL, *c;

	if (asprintf(&name, "%s/iotrial.%s.%s.%ld", dir, inst, what, (long)getpid()) < 0)
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

	if (under(path, pl->p->scratch) || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
		if (!under(path, pl->p->scratch) || strcmp(path, pl->p->scratch))
			check_dir(pl, loc, kname, path, j->file_size);
		else
			pl->p->scratch_used = true;
		f->path = scratch_name(path, in->name, what);
		f->create = true;
		return;
	}
	if (stat(path, &st) < 0) {
		char *dir = dirname_of(path);
		if (errno != ENOENT) {
			fail(pl, PLAN_EENV, loc, "key '%s': cannot use '%s': %s", kname, path,
			     strerror(errno));
		} else if (dir && !under(dir, pl->p->scratch) && access(dir, F_OK) < 0) {
			fail(pl, PLAN_EENV, loc, "key '%s': '%s' does not exist, nor does its folder '%s'",
			     kname, path, dir);
		} else if (dir) {
			check_dir(pl, loc, kname, dir, j->file_size);
		}
		free(dir);
		f->path = strdup(path);
		f->create = true;
		return;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		fail(pl, PLAN_EENV, loc, "key '%s': '%s' is neither a file, a folder nor a block device",
		     kname, path);
		return;
	}
	f->path = strdup(path);
	if (writes && !j->allow_overwrite) {
		fail(pl, PLAN_EENV, loc,
		     "key '%s': '%s' exists and iotrial did not create it: refusing to write over it (set allow_overwrite: true to allow)",
		     kname, path);
		return;
	}
	uint64_t size = existing_size(path, &st);
	if (size < j->file_size) {
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

static void plan_files(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	const char *target = j->target ? j->target : pl->p->scratch;

	if (in->be->flags & BE_F_NOIO) {
		in->data.path = strdup("(null)");
		in->src.path = j->workload == WL_COPY ? strdup("(null)") : NULL;
		return;
	}
	if (j->workload == WL_COPY) {
		const char *src = j->source ? j->source : pl->p->scratch;
		resolve_file(pl, in, JK_SOURCE, src, "src", false, &in->src);
		in->src.layout = in->src.create ? LAYOUT_FILL : LAYOUT_NONE;
		resolve_file(pl, in, JK_TARGET, target, "dat", true, &in->data);
		if (!in->data.create && pl->status == 0)
			fail(pl, PLAN_ESPEC, where(j, JK_TARGET),
			     "key 'target': a copy writes a new file: name a folder or a file that does not exist yet");
		return;
	}
	resolve_file(pl, in, JK_TARGET, target, "dat", spec_workload_writes(j->workload),
		     &in->data);
	/* With verify, every block holds the pattern before the first trial, so a block no
	 * write reached still checks out. */
	if (in->data.create)
		in->data.layout = spec_workload_writes(j->workload) && !j->verify ? LAYOUT_ALLOC
										  : LAYOUT_FILL;
}

static void plan_backend(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	const char *name = j->backend ? j->backend : "sync";
	const char *pkg;

	in->be = be_find(name);
	if (!in->be) {
		if ((pkg = be_missing_library(name)))
			fail(pl, PLAN_EENV, where(j, JK_BACKEND),
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
	if (j->direct && !(in->be->flags & BE_F_DIRECT))
		fail(pl, PLAN_ESPEC, where(j, JK_DIRECT), "key 'direct': backend '%s' cannot take O_DIRECT",
		     in->be->name);
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
		fail(pl, PLAN_ESPEC, where(j, j->workload == WL_COPY ? JK_BUFFER_SIZE : JK_BLOCK_SIZE),
		     "key '%s': %llu bytes is not a multiple of %u, the logical block size of '%s', which direct: true needs",
		     j->workload == WL_COPY ? "buffer_size" : "block_size",
		     (unsigned long long)in->chunk, lbs, in->data.path);
	else if (j->file_size % lbs)
		fail(pl, PLAN_ESPEC, where(j, JK_FILE_SIZE),
		     "key 'file_size': %llu bytes is not a multiple of %u, the logical block size of '%s', which direct: true needs",
		     (unsigned long long)j->file_size, lbs, in->data.path);
}

static void plan_instance(struct planner *pl, size_t k)
{
	const struct exp_spec *s = pl->s;
	const struct job_spec *src = &s->jobs[k];
	struct instance *in = &pl->p->inst[pl->p->ninst];
	struct job_spec *j = &in->job;

	if (spec_job_copy(j, src) < 0 || !(in->name = strdup(src->name))) {
		fail(pl, PLAN_EENV, NULL, "out of memory");
		return;
	}
	pl->p->ninst++;
	in->job_index = k;
	in->runs = s->rep.runs;
	in->warmup = s->rep.warmup;
	if (j->device && !device_path("device", &(struct lookup_arg){s, j}))
		fail(pl, PLAN_ESPEC, where(j, JK_DEVICE), "key 'device': unknown device '%s'",
		     j->device);
	resolve_placeholders(pl, j, JK_TARGET);
	resolve_placeholders(pl, j, JK_SOURCE);
	in->chunk = j->workload == WL_COPY && j->buffer_size ? j->buffer_size : j->block_size;
	if (j->workload != WL_COPY && j->block_size > j->file_size)
		fail(pl, PLAN_ESPEC, where(j, JK_BLOCK_SIZE),
		     "key 'block_size': %llu bytes is larger than file_size (%llu bytes)",
		     (unsigned long long)j->block_size, (unsigned long long)j->file_size);
	if (j->workload != WL_COPY && j->key_loc[JK_BUFFER_SIZE].file)
		fail(pl, PLAN_ESPEC, where(j, JK_BUFFER_SIZE),
		     "key 'buffer_size': only a copy takes buffer_size; use block_size for %s",
		     spec_workload_name(j->workload));
	if (j->workload != WL_COPY && j->key_loc[JK_SOURCE].file)
		fail(pl, PLAN_ESPEC, where(j, JK_SOURCE), "key 'source': only a copy reads a source");
	if (j->verify && (in->chunk % VERIFY_UNIT || j->file_size % VERIFY_UNIT))
		fail(pl, PLAN_ESPEC, where(j, JK_VERIFY),
		     "key 'verify': block_size%s and file_size must be multiples of %u bytes",
		     j->workload == WL_COPY ? " (buffer_size)" : "", VERIFY_UNIT);
	plan_backend(pl, in);
	if (in->be && j->verify && (in->be->flags & BE_F_NOIO))
		fail(pl, PLAN_ESPEC, where(j, JK_VERIFY),
		     "key 'verify': backend '%s' keeps no data to verify", in->be->name);
	if (pl->status == PLAN_ESPEC || !in->be)
		return;
	plan_files(pl, in);
	if (in->data.path)
		plan_direct(pl, in);
}

static void plan_order(struct plan *p, enum spec_order order)
{
	uint32_t most = 0;
	size_t n = 0;

	for (size_t i = 0; i < p->ninst; i++) {
		n += p->inst[i].warmup + p->inst[i].runs;
		if (p->inst[i].warmup + p->inst[i].runs > most)
			most = p->inst[i].warmup + p->inst[i].runs;
	}
	p->order = calloc(n ? n : 1, sizeof(*p->order));
	if (!p->order)
		return;
	if (order == ORDER_SEQUENTIAL) {
		for (size_t i = 0; i < p->ninst; i++)
			for (uint32_t t = 0; t < p->inst[i].warmup + p->inst[i].runs; t++)
				p->order[p->ntrials++] =
					(struct plan_trial){i, t, t < p->inst[i].warmup};
		return;
	}
	/* Interleaved: round r holds trial r of every instance, so a slow drift of the machine
	 * hits every instance alike; warm-ups of all instances come first. */
	for (int warm = 1; warm >= 0; warm--)
		for (uint32_t r = 0; r < most; r++)
			for (size_t i = 0; i < p->ninst; i++) {
				struct instance *in = &p->inst[i];
				uint32_t t = warm ? r : in->warmup + r;
				if ((warm && r < in->warmup) || (!warm && r < in->runs))
					p->order[p->ntrials++] = (struct plan_trial){i, t, warm};
			}
}

int plan_build(const struct exp_spec *s, const char *scratch, uint64_t seed, struct plan *p,
	       struct diag *d)
{
	struct planner pl = {s, p, d, 0};

	memset(p, 0, sizeof(*p));
	p->spec = s;
	p->seed = s->seed_set ? s->seed : seed;
	p->scratch = strdup(scratch);
	p->inst = calloc(s->njobs ? s->njobs : 1, sizeof(*p->inst));
	if (!p->inst || !p->scratch) {
		diag_add(d, NULL, "out of memory");
		return PLAN_EENV;
	}
	for (size_t k = 0; k < s->njobs; k++)
		plan_instance(&pl, k);
	if (pl.status)
		return pl.status;
	plan_order(p, s->rep.order);
	return p->order ? 0 : PLAN_EENV;
}

void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->ninst; i++) {
		free(p->inst[i].name);
		spec_job_release(&p->inst[i].job);
		free(p->inst[i].data.path);
		free(p->inst[i].src.path);
	}
	free(p->inst);
	free(p->order);
	free(p->scratch);
	memset(p, 0, sizeof(*p));
}
