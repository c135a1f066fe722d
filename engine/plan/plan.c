/* The planner (see plan.h): one instance per job, its files and backend resolved and
 * checked against the machine, and the trials put in order. Reads the file system
 * (stat, statvfs) but writes nothing. */
#include "engine/plan/plan_internal.h"

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

#include "engine/dist/dist.h"
#include "lib/env.h"
#include "model/jobkeys.h"
#include "lib/safety.h"
#include "engine/io/verify.h"
#include "lib/expand.h"

void plan_fail(struct planner *pl, int kind, const struct src_loc *loc, const char *fmt, ...)
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

void plan_oom(struct planner *pl)
{
	if (!pl->oom)
		plan_fail(pl, PLAN_EENV, NULL, "out of memory while planning");
	pl->oom = true;
}

const struct src_loc *plan_where(const struct job_spec *j, enum job_key_id k)
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
			plan_fail(pl, PLAN_ESPEC, plan_where(j, k),
				  "key '%s': %s (set 'device' to a name from devices:)",
				  job_keys[k].name, err);
		else
			plan_fail(pl, PLAN_ESPEC, plan_where(j, k), "key '%s': %s",
				  job_keys[k].name, err);
		return;
	}
	free(*field);
	*field = out;
}

static void plan_backend(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	const char *name = j->backend ? j->backend : "sync";
	const char *pkg;
	char text[64];

	in->be = be_find(name);
	if (!in->be) {
		if ((pkg = be_missing_library(name)))
			plan_fail(
			    pl, PLAN_EENV, plan_where(j, JK_BACKEND),
			    "key 'backend': '%s' is not compiled into this build (install %s and rebuild)",
			    name, pkg);
		else
			plan_fail(pl, PLAN_ESPEC, plan_where(j, JK_BACKEND),
				  "key 'backend': unknown backend '%s' (this build has: %s)", name,
				  be_names());
		return;
	}
	if (!strcmp(name, "direct"))
		j->direct = true;
	plan_backend_options(pl, in);
	if (!in->be)
		return;
	plan_backend_text(in, text, sizeof(text));
	if (j->iodepth > 1 && !(in->be->flags & BE_F_ASYNC))
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(j, JK_IODEPTH),
		    "key 'iodepth': %u needs an asynchronous backend; '%s' does one I/O at a time",
		    j->iodepth, text);
	else if (j->iodepth > in->be->max_iodepth)
		plan_fail(pl, PLAN_ESPEC, plan_where(j, JK_IODEPTH),
			  "key 'iodepth': %u is above backend '%s''s limit of %u", j->iodepth, text,
			  in->be->max_iodepth);
	if (j->direct && !(in->be->flags & BE_F_DIRECT))
		plan_fail(pl, PLAN_ESPEC, plan_where(j, JK_DIRECT),
			  "key 'direct': backend '%s' cannot take O_DIRECT", text);
}

int plan_ranks(const char *text, uint32_t size, uint32_t *lo, uint32_t *n, char *err, size_t errlen)
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
			snprintf(
			    err, errlen,
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
		snprintf(
		    err, errlen,
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

/* ranks:, layout: and stonewall:, checked against the run's ranks; a rank that does not own a
 * shared file leaves its creation (and removal) to the one that does. */
static void plan_dist(struct planner *pl, struct instance *in)
{
	struct job_spec *j = &in->job;
	char err[256];
	bool copies = j->workload == WL_COPY || j->workload == WL_COPYTREE;

	if (plan_ranks(j->ranks ? j->ranks : "all", (uint32_t)dist_size(), &in->rank_lo,
		       &in->rank_n, err, sizeof(err)) < 0)
		plan_fail(pl, PLAN_ESPEC, plan_where(j, JK_RANKS), "key 'ranks': %s", err);
	/* A stonewall stops I/O between two I/Os of a size-bound pass. */
	if (j->stonewall != STONEWALL_NONE && (copies || j->workload == WL_COMMAND))
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(j, JK_STONEWALL),
		    "key 'stonewall': a %s cannot be stopped early; only read, write, randread and randwrite stonewall",
		    spec_workload_name(j->workload));
	else if (j->stonewall != STONEWALL_NONE && (j->runtime_ns || j->background))
		plan_fail(pl, PLAN_ESPEC, plan_where(j, JK_STONEWALL),
			  "key 'stonewall': only a size-bound measured job stonewalls, not %s",
			  j->background ? "background load" : "a time-bound job (runtime)");
	if (j->layout == RANK_LAYOUT_PER_RANK)
		return;
	if (copies || j->workload == WL_COMMAND)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(j, JK_LAYOUT),
		    "key 'layout': a %s makes its own files; only read, write, randread and randwrite share one",
		    spec_workload_name(j->workload));
	else if (j->layout == RANK_LAYOUT_STRIDED && j->file_size % in->chunk)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(j, JK_LAYOUT),
		    "key 'layout': strided interleaves whole blocks: file_size (%llu bytes) must be a multiple of block_size (%llu bytes)",
		    (unsigned long long)j->file_size, (unsigned long long)in->chunk);
}

/* The instance's name: the job's, with the matrix point in brackets. */
static char *instance_name(const struct job_spec *src, const struct matrix_point *pt)
{
	char *name, val[256];
	size_t len = strlen(src->name) + 3, o;

	for (size_t i = 0; i < pt->n; i++)
		len += strlen(job_key_row(pt->kv[i].key)->name) + 2 + sizeof(val);
	if (!(name = malloc(len)))
		return NULL;
	o = (size_t)snprintf(name, len, "%s", src->name);
	for (size_t i = 0; i < pt->n; i++) {
		job_key_format(&pt->kv[i], val, sizeof(val));
		o += (size_t)snprintf(name + o, len - o, "%s%s=%s", i ? "," : "[",
				      job_key_row(pt->kv[i].key)->name, val);
	}
	if (pt->n)
		snprintf(name + o, len - o, "]");
	return name;
}

/* Does the job file mean `j`'s target as a folder, whatever is there now? Its target is a
 * device's path as it is ("{device}": a device names a folder, or an existing file or block
 * device); a path ending in '/' is checked once expanded. A copytree's missing target is
 * not one: it names the copy, which iotrial makes and removes. */
static bool target_is_folder(const struct job_spec *j)
{
	return j->target && !strcmp(j->target, "{device}");
}

static void plan_instance(struct planner *pl, size_t k, const struct matrix_point *pt,
			  const struct src_loc *locs)
{
	const struct exp_spec *s = pl->s;
	const struct job_spec *src = &s->jobs[k];
	struct instance *in = &pl->p->inst[pl->p->ninst];
	struct job_spec *j = &in->job;
	bool failed = false;

	if (spec_job_copy(j, src) < 0) {
		memset(j, 0, sizeof(*j));
		plan_oom(pl);
		return;
	}
	/* From here on plan_release frees what the instance holds. */
	pl->p->ninst++;
	in->job_index = k;
	for (size_t i = 0; i < pt->n; i++) {
		failed |= job_key_put(j, &pt->kv[i]) < 0;
		j->key_loc[pt->kv[i].key] = locs[i];
	}
	failed |= !(in->name = instance_name(src, pt));
	failed |= pt->n && !(in->point = calloc(pt->n, sizeof(*in->point)));
	for (size_t i = 0; !failed && i < pt->n; i++)
		failed |= job_key_get(j, pt->kv[i].key, &in->point[in->npoint++]) < 0;
	if (failed) {
		plan_oom(pl);
		return;
	}
	in->target_folder = target_is_folder(j);
	in->warmup = j->rep.warmup;
	in->runs = j->rep.target ? j->rep.pilot : j->rep.runs;
	in->max_runs = j->rep.target ? j->rep.max : j->rep.runs;
	if (j->device && !device_path("device", &(struct lookup_arg){s, j}))
		plan_fail(pl, PLAN_ESPEC, plan_where(j, JK_DEVICE),
			  "key 'device': unknown device '%s'", j->device);
	resolve_placeholders(pl, j, JK_TARGET);
	resolve_placeholders(pl, j, JK_SOURCE);
	if (j->target && *j->target && j->target[strlen(j->target) - 1] == '/')
		in->target_folder = true;
	bool copies = j->workload == WL_COPY || j->workload == WL_COPYTREE;
	in->chunk = copies && j->buffer_size ? j->buffer_size : j->block_size;
	if (!copies && j->workload != WL_COMMAND && j->block_size > j->file_size)
		plan_fail(pl, PLAN_ESPEC, plan_where(j, JK_BLOCK_SIZE),
			  "key 'block_size': %llu bytes is larger than file_size (%llu bytes)",
			  (unsigned long long)j->block_size, (unsigned long long)j->file_size);
	if (!copies && j->key_loc[JK_BUFFER_SIZE].file)
		plan_fail(pl, PLAN_ESPEC, plan_where(j, JK_BUFFER_SIZE),
			  "key 'buffer_size': only a copy takes buffer_size; use block_size for %s",
			  spec_workload_name(j->workload));
	if (!copies && j->key_loc[JK_SOURCE].file)
		plan_fail(pl, PLAN_ESPEC, plan_where(j, JK_SOURCE),
			  "key 'source': only a copy reads a source");
	if (j->verify && (in->chunk % VERIFY_UNIT || j->file_size % VERIFY_UNIT))
		plan_fail(pl, PLAN_ESPEC, plan_where(j, JK_VERIFY),
			  "key 'verify': block_size%s and file_size must be multiples of %u bytes",
			  j->workload == WL_COPY ? " (buffer_size)" : "", VERIFY_UNIT);
	if (j->threads > 1 && !j->file_per_thread &&
	    j->file_size < (uint64_t)j->threads * in->chunk)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(j, JK_THREADS),
		    "key 'threads': %u workers share a file of %llu bytes, less than one %llu-byte I/O each",
		    j->threads, (unsigned long long)j->file_size, (unsigned long long)in->chunk);
	/* Each copytree worker copies the whole tree, and makes every file of it new. */
	if (j->workload == WL_COPYTREE && j->threads > 1 && !j->file_per_thread)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(j, JK_FILE_PER_THREAD),
		    "key 'file_per_thread': the workers of a copytree each copy the whole tree into a folder of their own; they cannot share one (file_per_thread: false)");
	if (j->rate && j->rate_iops)
		plan_fail(pl, PLAN_ESPEC, plan_where(j, JK_RATE_IOPS),
			  "key 'rate_iops': set rate (bytes per second) or rate_iops, not both");
	if (j->command && j->workload != WL_COMMAND)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(j, JK_COMMAND),
		    "key 'command': only a command workload runs a command (workload: command)");
	if (j->background && j->rep.target)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(j, JK_BACKGROUND),
		    "key 'background': load runs as long as the jobs it accompanies; it takes no precision target");
	if (j->log_records || j->log_interval_ns)
		plan_name_fits(pl, in);
	plan_dist(pl, in);
	plan_backend(pl, in);
	if (in->be && j->verify && (in->be->flags & BE_F_NOIO))
		plan_fail(pl, PLAN_ESPEC, plan_where(j, JK_VERIFY),
			  "key 'verify': backend '%s' keeps no data to verify", in->be->name);
	if (pl->status == PLAN_ESPEC || !in->be)
		return;
	plan_files(pl, in);
	/* Every way through plan_files names the files or reports why not: a name missing
	 * without a reason is a failed allocation. */
	if (!pl->status && (!in->data.path || (copies && !in->src.path)))
		plan_oom(pl);
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
		diag_add(
		    d, &in->job.loc,
		    "the plan needs about %.1f GiB of memory at once (%s: threads x iodepth x block size), more than this machine's %.1f GiB allows",
		    (double)(most / (1 << 30)), in->name, (double)mem / (1 << 30));
		return PLAN_EENV;
	}
	return 0;
}

/* Job `j`'s matrix points before exclude (1 without a matrix), saturating. */
static uint64_t job_points(const struct job_spec *j)
{
	uint64_t n = 1;

	for (size_t d = 0; d < j->nmatrix; d++) {
		if (j->matrix[d].n && n > UINT64_MAX / j->matrix[d].n)
			return UINT64_MAX;
		n *= j->matrix[d].n;
	}
	return n;
}

/* What one instance and one of its trials cost while planning, running and writing
 * results.json (whose document is built in memory), measured on the null backend: 10000
 * one-trial instances took 27 KiB each, 20000 trials of one instance 4.6 KiB each. A
 * worker row (threads above 1) is taken at 1 KiB. */
#define INSTANCE_BYTES (24u << 10)
#define TRIAL_BYTES    (5u << 10)
#define WORKER_BYTES   (1u << 10)

/* The plan's size, from the spec alone, before anything is allocated: at most
 * PLAN_MAX_INSTANCES instances in all (a YAML alias can hand one big matrix to every job),
 * and no more memory for the plan and its results than the machine has. Sets *ninst to
 * the instances to make room for; returns pl->status. */
static int plan_size(struct planner *pl, size_t *ninst)
{
	const struct exp_spec *s = pl->s;
	uint64_t mem = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t total = 0, trials = 0;
	long double bytes = 0;
	size_t over = s->njobs;

	for (size_t k = 0; k < s->njobs; k++) {
		const struct job_spec *j = &s->jobs[k];
		uint64_t pts = job_points(j);
		uint64_t runs =
		    (uint64_t)j->rep.warmup + (j->rep.target ? j->rep.max : j->rep.runs);
		uint64_t workers = j->threads > 1 ? j->threads : 0;

		if (pts > MATRIX_MAX_POINTS) {
			plan_fail(pl, PLAN_ESPEC, &j->loc,
				  "key 'matrix': job '%s' expands to more than %d points", j->name,
				  MATRIX_MAX_POINTS);
			continue;
		}
		total += pts;
		trials += pts * runs;
		if (total > PLAN_MAX_INSTANCES && over == s->njobs)
			over = k;
		bytes +=
		    (long double)pts * INSTANCE_BYTES +
		    (long double)pts * (long double)runs * (TRIAL_BYTES + workers * WORKER_BYTES);
	}
	if (pl->status)
		return pl->status;
	if (over < s->njobs) {
		plan_fail(
		    pl, PLAN_ESPEC, &s->jobs[over].loc,
		    "the plan expands to %llu job instances (the matrix points of its %zu jobs, before exclude), more than the bound of %d",
		    (unsigned long long)total, s->njobs, PLAN_MAX_INSTANCES);
		return pl->status;
	}
	if (mem && bytes > 0.8L * (long double)mem) {
		plan_fail(
		    pl, PLAN_EENV, &s->jobs[0].loc,
		    "the plan itself needs about %.1f GiB of memory (%llu job instances, %llu trials), more than this machine's %.1f GiB allows",
		    (double)(bytes / (1 << 30)), (unsigned long long)total,
		    (unsigned long long)trials, (double)mem / (1 << 30));
		return pl->status;
	}
	*ninst = (size_t)total;
	return 0;
}

/* Every instance of every job, into p->inst, sized once by plan_size: instances point at
 * each other's files (plan_file.owner), so the array never moves once filled. */
static void plan_jobs(struct planner *pl, size_t room)
{
	const struct exp_spec *s = pl->s;
	struct plan *p = pl->p;

	if (!(p->inst = calloc(room ? room : 1, sizeof(*p->inst)))) {
		plan_oom(pl);
		return;
	}
	for (size_t k = 0; k < s->njobs && !pl->oom; k++) {
		struct matrix_point *points = NULL;
		struct src_loc *locs = NULL;
		size_t n = 0;
		int ret = matrix_points(&s->jobs[k], &points, &locs, &n);

		if (ret == -ENOMEM || n > room - p->ninst) /* plan_size counted every point */
			plan_oom(pl);
		else if (ret < 0)
			plan_fail(pl, PLAN_ESPEC, &s->jobs[k].loc,
				  "key 'matrix': job '%s' has a key with no values",
				  s->jobs[k].name);
		else if (n == 0)
			plan_fail(pl, PLAN_ESPEC, &s->jobs[k].loc,
				  "key 'exclude': every point of job '%s' is excluded",
				  s->jobs[k].name);
		for (size_t i = 0; !pl->oom && ret == 0 && i < n; i++)
			plan_instance(pl, k, &points[i], locs + i * s->jobs[k].nmatrix);
		matrix_points_free(points, locs, n);
	}
}

/* A later step that failed for want of memory says nothing itself. */
static int plan_step(struct planner *pl, int ret, size_t before)
{
	if (ret == PLAN_EENV && pl->d->n == before)
		diag_add(pl->d, NULL, "out of memory while planning");
	return ret;
}

int plan_build(const struct exp_spec *s, const char *scratch, uint64_t seed, struct plan *p,
	       struct diag *d)
{
	struct planner pl = {s, p, d, 0, false};
	size_t room = 0, before;

	memset(p, 0, sizeof(*p));
	p->spec = s;
	p->seed = s->seed_set ? s->seed : seed;
	p->scratch = strdup(scratch);
	if (!p->scratch) {
		diag_add(d, NULL, "out of memory while planning");
		return PLAN_EENV;
	}
	p->order_seed = s->rep.seed_set ? s->rep.seed : p->seed;
	p->order_rng = p->order_seed;
	if (plan_size(&pl, &room))
		return pl.status;
	plan_jobs(&pl, room);
	if (pl.status)
		return pl.status;
	before = d->n;
	plan_compares(p, d, &pl.status);
	if (pl.status)
		return plan_step(&pl, pl.status, before);
	before = d->n;
	if ((pl.status = plan_graph(p, d)))
		return plan_step(&pl, pl.status, before);
	if ((pl.status = plan_memory(p, d)))
		return pl.status;
	before = d->n;
	return plan_step(&pl, plan_order(p) < 0 ? PLAN_EENV : 0, before);
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
