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

const struct key_value *instance_point(const struct instance *in, size_t d,
				       const struct src_loc **loc)
{
	const struct matrix_dim *m = &in->of->matrix[d];
	size_t rest = in->point_no;

	for (size_t e = in->of->nmatrix; e-- > d + 1;)
		rest /= in->of->matrix[e].n;
	rest %= m->n;
	if (loc)
		*loc = &m->locs[rest];
	return &m->values[rest];
}

const struct src_loc *instance_key_loc(const struct instance *in, enum job_key_id k)
{
	const struct src_loc *loc;

	for (size_t d = 0; d < in->npoint; d++)
		if (in->of->matrix[d].key == k) {
			instance_point(in, d, &loc);
			return loc;
		}
	return &in->job.key_loc[k];
}

const struct src_loc *plan_where(const struct instance *in, enum job_key_id k)
{
	const struct src_loc *loc = instance_key_loc(in, k);

	return loc->file ? loc : &in->job.loc;
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

/* Expand {device} in a target or source path, in place: the instance owns the result
 * when it differs from the job's, and the next instances with the same text and device
 * borrow it (100000 copies of one path cost 5 MB). */
static void resolve_placeholders(struct planner *pl, struct instance *in, enum job_key_id k)
{
	struct job_spec *j = &in->job;
	char **field = k == JK_TARGET ? &j->target : &j->source, *out, err[256] = "";
	bool *own = k == JK_TARGET ? &in->own_target : &in->own_source;
	struct plan_expansion *last = &pl->expanded[k == JK_TARGET ? 0 : 1];
	struct lookup_arg a = {pl->s, j};
	int ret;

	if (!*field)
		return;
	if (last->out && last->in == *field && last->device == j->device) {
		*field = last->out; /* borrowed: not this instance's to free */
		return;
	}
	if ((ret = expand_placeholders(*field, &out, device_path, &a, err, sizeof(err))) ==
	    -ENOMEM) {
		plan_oom(pl);
		return;
	} else if (ret < 0) {
		if (!j->device)
			plan_fail(pl, PLAN_ESPEC, plan_where(in, k),
				  "key '%s': %s (set 'device' to a name from devices:)",
				  job_key_row(k)->name, err);
		else
			plan_fail(pl, PLAN_ESPEC, plan_where(in, k), "key '%s': %s",
				  job_key_row(k)->name, err);
		return;
	}
	if (!strcmp(out, *field)) {
		free(out);
		return;
	}
	*last = (struct plan_expansion){*field, j->device, out};
	*field = out;
	*own = true;
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
			    pl, PLAN_EENV, plan_where(in, JK_BACKEND),
			    "key 'backend': '%s' is not compiled into this build (install %s and rebuild)",
			    name, pkg);
		else
			plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_BACKEND),
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
		    pl, PLAN_ESPEC, plan_where(in, JK_IODEPTH),
		    "key 'iodepth': %u needs an asynchronous backend; '%s' does one I/O at a time",
		    j->iodepth, text);
	else if (j->iodepth > in->be->max_iodepth)
		plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_IODEPTH),
			  "key 'iodepth': %u is above backend '%s''s limit of %u", j->iodepth, text,
			  in->be->max_iodepth);
	if (j->direct && !(in->be->flags & BE_F_DIRECT))
		plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_DIRECT),
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
		plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_RANKS), "key 'ranks': %s", err);
	/* A stonewall stops I/O between two I/Os of a size-bound pass. */
	if (j->stonewall != STONEWALL_NONE && (copies || j->workload == WL_COMMAND))
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_STONEWALL),
		    "key 'stonewall': a %s cannot be stopped early; only read, write, randread and randwrite stonewall",
		    spec_workload_name(j->workload));
	else if (j->stonewall != STONEWALL_NONE && (j->runtime_ns || j->background))
		plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_STONEWALL),
			  "key 'stonewall': only a size-bound measured job stonewalls, not %s",
			  j->background ? "background load" : "a time-bound job (runtime)");
	if (j->layout == RANK_LAYOUT_PER_RANK)
		return;
	if (copies || j->workload == WL_COMMAND)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_LAYOUT),
		    "key 'layout': a %s makes its own files; only read, write, randread and randwrite share one",
		    spec_workload_name(j->workload));
	else if (j->layout == RANK_LAYOUT_STRIDED && j->file_size % in->chunk)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_LAYOUT),
		    "key 'layout': strided interleaves whole blocks: file_size (%llu bytes) must be a multiple of block_size (%llu bytes)",
		    (unsigned long long)j->file_size, (unsigned long long)in->chunk);
}

/* The instance's name: the job's, with the matrix point in brackets; formatted in the
 * planner's buffer, then kept at its own length. */
static char *instance_name(struct planner *pl, const struct instance *in)
{
	const struct job_spec *src = in->of;
	char val[256];
	size_t len = strlen(src->name) + 3, o;

	for (size_t d = 0; d < in->npoint; d++)
		len += strlen(job_key_row(src->matrix[d].key)->name) + 2 + sizeof(val);
	if (len > pl->namecap) {
		char *grown = realloc(pl->namebuf, len);
		if (!grown)
			return NULL;
		pl->namebuf = grown;
		pl->namecap = len;
	}
	o = (size_t)snprintf(pl->namebuf, len, "%s", src->name);
	for (size_t d = 0; d < in->npoint; d++) {
		job_key_format(instance_point(in, d, NULL), val, sizeof(val));
		o += (size_t)snprintf(pl->namebuf + o, len - o, "%s%s=%s", d ? "," : "[",
				      job_key_row(src->matrix[d].key)->name, val);
	}
	if (in->npoint)
		snprintf(pl->namebuf + o, len - o, "]");
	return strdup(pl->namebuf);
}

/* Set key `v` of an instance's job to a matrix value, sharing its string with the spec; a
 * backend option copies the borrowed options (-ENOMEM), -E2BIG past JOB_OPTS_MAX of them. */
static int put_point(struct job_spec *j, const struct key_value *v)
{
	const struct job_key *key = job_key_row(v->key);

	if (key->type != KT_STRING)
		return job_key_put(j, v);
	*(char **)((char *)j + key->off) = v->s;
	return 0;
}

/* Does the job file mean `j`'s target as a folder, whatever is there now? Its target is a
 * device's path as it is ("{device}": a device names a folder, or an existing file or block
 * device); a path ending in '/' is checked once expanded. A copytree's missing target is
 * not one: it names the copy, which iotrial makes and removes. */
static bool target_is_folder(const struct job_spec *j)
{
	return j->target && !strcmp(j->target, "{device}");
}

/* Point `no` of job `k` as the next instance (idx[d] is its value in dimension d): the
 * job's values, strings shared, what is the job's alone left out. Returns false when its
 * name could not be allocated. */
static bool instance_init(struct planner *pl, size_t k, size_t no, const uint32_t *idx)
{
	const struct job_spec *src = &pl->s->jobs[k];
	struct instance *in = &pl->p->inst[pl->p->ninst];
	struct job_spec *j = &in->job;

	*j = *src;
	job_opts_borrow(j);
	j->matrix = NULL;
	j->nmatrix = 0;
	j->rules = NULL;
	j->key_loc = pl->p->job_locs + k * JK_MAX;
	/* From here on plan_release frees what the instance holds. */
	pl->p->ninst++;
	in->of = src;
	in->job_index = k;
	in->point_no = (uint32_t)no;
	in->npoint = (uint32_t)src->nmatrix;
	for (size_t d = 0; d < src->nmatrix; d++) {
		int r = put_point(j, &src->matrix[d].values[idx[d]]);
		if (r == -ENOMEM)
			return false;
		if (r < 0)
			plan_fail(pl, PLAN_ESPEC, instance_key_loc(in, src->matrix[d].key),
				  "key '%s': a job sets at most %d backend options",
				  job_key_row(src->matrix[d].key)->name, JOB_OPTS_MAX);
	}
	if (!(in->name = instance_name(pl, in)))
		return false;
	in->target_folder = target_is_folder(j);
	in->warmup = j->rep->warmup;
	in->runs = j->rep->target ? j->rep->pilot : j->rep->runs;
	in->max_runs = j->rep->target ? j->rep->max : j->rep->runs;
	return true;
}

/* The rules between an instance's keys that need neither a backend nor a file. A mix or
 * range of sizes (block_size: 4KiB-2MiB) is block_split, and is reported where it was set. */
static void plan_key_rules(struct planner *pl, struct instance *in, bool copies)
{
	const struct job_spec *j = &in->job;

	if (!copies && j->workload != WL_COMMAND && j->block_size > j->file_size)
		plan_fail(pl, PLAN_ESPEC,
			  plan_where(in, j->block_split ? JK_BLOCK_SPLIT : JK_BLOCK_SIZE),
			  "key 'block_size': %llu bytes is larger than file_size (%llu bytes)",
			  (unsigned long long)j->block_size, (unsigned long long)j->file_size);
	if (!copies && j->key_loc[JK_BUFFER_SIZE].file)
		plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_BUFFER_SIZE),
			  "key 'buffer_size': only a copy takes buffer_size; use block_size for %s",
			  spec_workload_name(j->workload));
	if (!copies && j->key_loc[JK_SOURCE].file)
		plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_SOURCE),
			  "key 'source': only a copy reads a source");
	if (j->verify && (in->chunk % VERIFY_UNIT || j->file_size % VERIFY_UNIT))
		plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_VERIFY),
			  "key 'verify': block_size%s and file_size must be multiples of %u bytes",
			  j->workload == WL_COPY ? " (buffer_size)" : "", VERIFY_UNIT);
	if (spec_job_sliced(j) && j->file_size < (uint64_t)j->threads * in->chunk)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_THREADS),
		    "key 'threads': %u workers share a file of %llu bytes, less than one %llu-byte I/O each",
		    j->threads, (unsigned long long)j->file_size, (unsigned long long)in->chunk);
	/* Each copytree worker copies the whole tree, and makes every file of it new. */
	if (j->workload == WL_COPYTREE && j->threads > 1 && !j->file_per_thread)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_FILE_PER_THREAD),
		    "key 'file_per_thread': the workers of a copytree each copy the whole tree into a folder of their own; they cannot share one (file_per_thread: false)");
	if (j->rate && j->rate_iops)
		plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_RATE_IOPS),
			  "key 'rate_iops': set rate (bytes per second) or rate_iops, not both");
	if (j->command && j->workload != WL_COMMAND)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_COMMAND),
		    "key 'command': only a command workload runs a command (workload: command)");
	if (j->background && j->rep->target)
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_BACKGROUND),
		    "key 'background': load runs as long as the jobs it accompanies; it takes no precision target");
}

/* Point `no` of job `k` as the next instance: resolved, checked, its files planned. */
static void plan_instance(struct planner *pl, size_t k, size_t no, const uint32_t *idx)
{
	struct instance *in = &pl->p->inst[pl->p->ninst];
	struct job_spec *j = &in->job;
	bool copies;

	if (!instance_init(pl, k, no, idx)) {
		plan_oom(pl);
		return;
	}
	if (j->device && !device_path("device", &(struct lookup_arg){pl->s, j}))
		plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_DEVICE),
			  "key 'device': unknown device '%s'", j->device);
	resolve_placeholders(pl, in, JK_TARGET);
	resolve_placeholders(pl, in, JK_SOURCE);
	if (j->target && *j->target && j->target[strlen(j->target) - 1] == '/')
		in->target_folder = true;
	copies = j->workload == WL_COPY || j->workload == WL_COPYTREE;
	in->chunk = copies && j->buffer_size ? j->buffer_size : j->block_size;
	plan_workload(pl, in);
	plan_key_rules(pl, in, copies);

	if (j->log_records || j->log_interval_ns)
		plan_name_fits(pl, in);
	plan_dist(pl, in);
	plan_backend(pl, in);
	if (in->be && j->verify && (in->be->flags & BE_F_NOIO))
		plan_fail(pl, PLAN_ESPEC, plan_where(in, JK_VERIFY),
			  "key 'verify': backend '%s' keeps no data to verify", in->be->name);
	/* Simulated time runs ahead of the measured trial's real one: such load ran for 1000 s
	 * of its own time while the trial beside it took 10 ms, or did nothing at all. */
	if (in->be && j->background && (in->be->flags & BE_F_VIRTUAL))
		plan_fail(
		    pl, PLAN_ESPEC, plan_where(in, JK_BACKGROUND),
		    "key 'background': backend '%s' keeps simulated time and does no I/O, so it cannot be load beside a trial (use a backend that does I/O)",
		    in->be->name);
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
	plan_files_offer(pl, in);
}

/* Each job's key_loc as its instances see it: a matrix key counts as set (at its first
 * value; instance_key_loc finds the point's own). One array per job, not per instance. */
static int job_locs(struct plan *p)
{
	const struct exp_spec *s = p->spec;

	if (!(p->job_locs = calloc(s->njobs * JK_MAX + 1, sizeof(*p->job_locs))))
		return -ENOMEM;
	for (size_t k = 0; k < s->njobs; k++) {
		struct src_loc *l = p->job_locs + k * JK_MAX;
		memcpy(l, s->jobs[k].key_loc, JK_MAX * sizeof(*l));
		for (size_t d = 0; d < s->jobs[k].nmatrix; d++)
			if (s->jobs[k].matrix[d].n)
				l[s->jobs[k].matrix[d].key] = s->jobs[k].matrix[d].locs[0];
	}
	return 0;
}

/* Every instance of every job, into p->inst, sized once by plan_size: instances point at
 * each other's files (plan_file.owner), so the array never moves once filled. The points
 * are made one at a time, never held all at once. */
static void plan_jobs(struct planner *pl, size_t room)
{
	const struct exp_spec *s = pl->s;
	struct plan *p = pl->p;
	uint32_t *idx =
	    calloc(JK_MAX + 1, sizeof(*idx)); /* a job has a dimension per key at most */

	if (!idx || job_locs(p) < 0 || !(p->inst = calloc(room ? room : 1, sizeof(*p->inst)))) {
		free(idx);
		plan_oom(pl);
		return;
	}
	for (size_t k = 0; k < s->njobs && !pl->oom; k++) {
		const struct job_spec *j = &s->jobs[k];
		long n = matrix_size(j);
		size_t kept = 0;

		if (n == -EINVAL) {
			plan_fail(pl, PLAN_ESPEC, &j->loc,
				  "key 'matrix': job '%s' has a key with no values", j->name);
			continue;
		} else if (n < 0) { /* plan_size refused more points than the bound */
			plan_oom(pl);
			break;
		}
		for (size_t no = 0; no < (size_t)n && !pl->oom; no++) {
			matrix_point_at(j, no, idx);
			if (matrix_excluded(j, idx))
				continue;
			if (p->ninst == room) /* plan_size counted every point */
				plan_oom(pl);
			else
				plan_instance(pl, k, no, idx);
			kept++;
		}
		if (!kept && !pl->oom)
			plan_fail(pl, PLAN_ESPEC, &j->loc,
				  "key 'exclude': every point of job '%s' is excluded", j->name);
	}
	free(idx);
}

/* A later step that failed for want of memory says nothing itself. */
static int plan_step(struct planner *pl, int ret, size_t before)
{
	if (ret == PLAN_EENV && pl->d->n == before)
		diag_add(pl->d, NULL, "out of memory while planning");
	return ret;
}

static int plan_steps(struct planner *pl, size_t room)
{
	struct plan *p = pl->p;
	struct diag *d = pl->d;
	size_t before;

	plan_jobs(pl, room);
	if (!pl->oom)
		plan_own_names(pl);
	if (pl->status)
		return pl->status;
	before = d->n;
	plan_compares(p, d, &pl->status);
	if (pl->status)
		return plan_step(pl, pl->status, before);
	before = d->n;
	if ((pl->status = plan_graph(p, d)))
		return plan_step(pl, pl->status, before);
	if ((pl->status = plan_memory(p, d)))
		return pl->status;
	before = d->n;
	return plan_step(pl, plan_order(p) < 0 ? PLAN_EENV : 0, before);
}

int plan_build(const struct exp_spec *s, const char *scratch, uint64_t seed, struct plan *p,
	       struct diag *d)
{
	struct planner pl = {.s = s, .p = p, .d = d};
	size_t room = 0;
	int ret;

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
	ret = plan_steps(&pl, room);
	free(pl.namebuf);
	free(pl.files);
	free(pl.dir_ok);
	return ret;
}

void plan_release(struct plan *p)
{
	for (size_t i = p->ninst; i-- > 0;) { /* last first: a borrowed expansion is freed last */
		struct instance *in = &p->inst[i];
		free(in->name);
		if (in->own_target)
			free(in->job.target);
		if (in->own_source)
			free(in->job.source);
		free(in->job.opts.own ? in->job.opts.v : NULL); /* else the parsed job's */
		if (in->data.own)
			free((char *)in->data.path);
		if (in->src.own)
			free((char *)in->src.path);
		free(in->wl);
	}
	free(p->job_locs);
	free(p->ids);
	for (size_t i = 0; i < p->ndirs; i++)
		free(p->dirs[i].path);
	free(p->dirs);
	free(p->cmp);
	free(p->unit_inst);
	free(p->units);
	free(p->inst);
	free(p->order);
	free(p->scratch);
	memset(p, 0, sizeof(*p));
}
