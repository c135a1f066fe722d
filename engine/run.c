/* The runner (see run.h): per trial, prepare files (create, lay out, drop from the page
 * cache), open them through the backend, run the worker loop, record the figures; at the
 * end remove every file and folder it created. */
#include "engine/run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/jobkeys.h"
#include "engine/verify.h"
#include "engine/version.h"
#include "engine/worker.h"

#define LAYOUT_CHUNK (1u << 20)

struct runner {
	struct plan *p;
	struct results *r;
	const struct run_opts *o;
	struct diag *d;
	uint64_t t0;
	char **dirs; /* folders created under the scratch folder, to remove at the end */
	size_t ndirs;
};

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ull + (a << 6) + (a >> 2));
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	return z ^ (z >> 31);
}

/* The seed of the verify pattern a file is laid out with. */
static uint64_t layout_seed(const struct plan *p, const struct instance *in)
{
	return mix(p->seed, 0xf11e0000u + (uint64_t)(in - p->inst));
}

static void utc_now(char buf[32])
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int add_param(struct instance_result *ir, const struct job_spec *j, const struct job_key *k)
{
	struct param *pa = &ir->params[ir->nparams];
	const void *field = (const char *)j + k->off;

	if (!(pa->key = strdup(k->name)))
		return -ENOMEM;
	switch (k->type) {
	case KT_STRING:
		if (*(char *const *)field) {
			pa->type = PV_STR;
			pa->s = strdup(*(char *const *)field);
		}
		break;
	case KT_ENUM:
		pa->type = PV_STR;
		pa->s = strdup(job_key_enum_name(k, *(const int *)field));
		break;
	case KT_BOOL:
		pa->type = PV_BOOL;
		pa->b = *(const bool *)field;
		break;
	case KT_UINT:
		pa->type = PV_UINT;
		pa->u = *(const uint32_t *)field;
		break;
	case KT_SIZE:
	case KT_DURATION:
		pa->type = PV_UINT;
		pa->u = *(const uint64_t *)field;
		break;
	}
	ir->nparams++;
	return 0;
}

static char *dirname_dup(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash != path ? strndup(path, (size_t)(slash - path)) : strdup(".");
}

int run_results_init(const struct plan *p, struct results *r)
{
	const struct exp_spec *s = p->spec;

	memset(r, 0, sizeof(*r));
	r->tool_name = strdup("iotrial");
	r->tool_version = strdup(IOTRIAL_VERSION);
	r->experiment = strdup(s->experiment);
	r->description = s->description ? strdup(s->description) : NULL;
	r->job_path = strdup(s->path);
	memcpy(r->job_sha256, s->sha256, sizeof(r->job_sha256));
	r->units = s->units;
	r->seed = p->seed;
	r->confidence = s->rep.confidence;
	if (s->noverrides && !(r->overrides = calloc(s->noverrides, sizeof(*r->overrides))))
		return -ENOMEM;
	for (size_t i = 0; i < s->noverrides; i++) {
		r->overrides[i].key = strdup(s->overrides[i].key);
		r->overrides[i].value = strdup(s->overrides[i].value);
		r->noverrides++;
	}
	env_capture(&r->env);
	r->inst = calloc(p->ninst ? p->ninst : 1, sizeof(*r->inst));
	if (!r->inst)
		return -ENOMEM;
	for (size_t i = 0; i < p->ninst; i++) {
		const struct instance *in = &p->inst[i];
		struct instance_result *ir = &r->inst[r->ninst++];

		ir->name = strdup(in->name);
		ir->job = strdup(s->jobs[in->job_index].name);
		ir->backend = strdup(in->be->name);
		ir->workload = strdup(spec_workload_name(in->job.workload));
		ir->threads = 1;
		ir->params = calloc(JK_NKEYS, sizeof(*ir->params));
		ir->trials = calloc(in->warmup + in->runs, sizeof(*ir->trials));
		if (!ir->params || !ir->trials)
			return -ENOMEM;
		for (size_t k = 0; k < JK_NKEYS; k++)
			if (add_param(ir, &in->job, &job_keys[k]) < 0)
				return -ENOMEM;
		ir->ntrials = in->warmup + in->runs;
		for (uint32_t t = 0; t < ir->ntrials; t++) {
			struct trial_result *tr = &ir->trials[t];
			tr->lat = (struct lat_summary){NAN, NAN, NAN, NAN, NAN, NAN,
						       NAN, NAN, NAN, NAN, NAN};
			tr->index = t;
			tr->warmup = t < in->warmup;
			tr->seconds = tr->iops = tr->bw_bytes = tr->cached = NAN;
			tr->cpu_user_s = tr->cpu_sys_s = NAN;
		}
		if (!(in->be->flags & BE_F_NOIO)) {
			char *dir = dirname_dup(in->data.path);
			if (dir && !in->data.create)
				env_add_target(&r->env, in->data.path);
			else if (dir)
				env_add_target(&r->env, dir);
			free(dir);
		}
	}
	return 0;
}

/* Create the folders between the scratch folder and `path`'s parent. */
static int make_dirs(struct runner *rn, const char *path)
{
	const char *scratch = rn->p->scratch;
	size_t base = strlen(scratch);
	char *dir = dirname_dup(path);
	int ret = 0;

	if (!dir)
		return -ENOMEM;
	if (strncmp(dir, scratch, base) || (dir[base] != '/' && dir[base] != 0)) {
		free(dir);
		return 0;
	}
	for (size_t i = base; ret == 0; i++) {
		char c = dir[i];
		if (c != '/' && c != 0)
			continue;
		dir[i] = 0;
		if (mkdir(dir, 0700) == 0) {
			char **nd = realloc(rn->dirs, (rn->ndirs + 1) * sizeof(*nd));
			if (nd) {
				rn->dirs = nd;
				rn->dirs[rn->ndirs++] = strdup(dir);
			}
		} else if (errno != EEXIST) {
			ret = -errno;
		}
		dir[i] = c;
		if (c == 0)
			break;
	}
	free(dir);
	return ret;
}

static void trial_error(struct trial_result *tr, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void trial_error(struct trial_result *tr, const char *fmt, ...)
{
	va_list ap;

	tr->failed = true;
	tr->kept = false;
	if (tr->error)
		return;
	va_start(ap, fmt);
	if (vasprintf(&tr->error, fmt, ap) < 0)
		tr->error = NULL;
	va_end(ap);
}

/* Create `f` and give it file_size bytes: written (reads find real data) or allocated. */
static int layout_file(struct runner *rn, const struct instance *in, struct plan_file *f,
		       struct trial_result *tr)
{
	uint64_t size = in->job.file_size, done = 0;
	char *buf = NULL;
	int fd, ret = 0;

	if ((ret = make_dirs(rn, f->path)) < 0) {
		trial_error(tr, "cannot create the folder for '%s': %s", f->path, strerror(-ret));
		return ret;
	}
	fd = open(f->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		trial_error(tr, "cannot create '%s': %s", f->path, strerror(errno));
		return ret;
	}
	f->laid_out = true; /* it exists now: it must be removed at the end */
	if (f->layout == LAYOUT_ALLOC) {
		ret = posix_fallocate(fd, 0, (off_t)size);
		if (ret == EOPNOTSUPP || ret == EINVAL)
			ret = ftruncate(fd, (off_t)size) < 0 ? errno : 0;
		if (ret)
			trial_error(tr, "cannot allocate %llu bytes for '%s': %s",
				    (unsigned long long)size, f->path, strerror(ret));
		ret = -ret;
		goto out;
	}
	if (f->layout != LAYOUT_FILL)
		goto out;
	if (!(buf = malloc(LAYOUT_CHUNK))) {
		ret = -ENOMEM;
		goto out;
	}
	/* Varied bytes, not zeros: a device that compresses must not get an easy ride. */
	for (size_t i = 0; i < LAYOUT_CHUNK; i++)
		buf[i] = (char)(i * 2654435761u >> 13);
	while (done < size) {
		size_t n = size - done < LAYOUT_CHUNK ? (size_t)(size - done) : LAYOUT_CHUNK;
		if (in->job.verify)
			verify_fill(buf, n, done, layout_seed(rn->p, in));
		ssize_t w = pwrite(fd, buf, n, (off_t)done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			trial_error(tr, "laying out '%s': write at offset %llu: %s%s", f->path,
				    (unsigned long long)done, strerror(-ret),
				    ret == -ENOSPC ? " (the disk is full)" : "");
			goto out;
		}
		done += (uint64_t)w;
	}
	if (fsync(fd) < 0) {
		ret = -errno;
		trial_error(tr, "laying out '%s': fsync: %s", f->path, strerror(errno));
	}
out:
	free(buf);
	close(fd);
	return ret;
}

/* Write back and drop `path`'s pages, so the next read comes from the device. */
static void drop_cache(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

/* The fraction of the first `len` bytes of `path` that is in the page cache; NAN if unknown. */
static double cached_fraction(const char *path, uint64_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *vec = NULL;
	uint64_t pages, in = 0;
	double frac = NAN;
	void *map;
	int fd;

	if (len == 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NAN;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NAN;
	pages = (len + (uint64_t)page - 1) / (uint64_t)page;
	vec = malloc(pages);
	if (vec && mincore(map, len, vec) == 0) {
		for (uint64_t i = 0; i < pages; i++)
			in += vec[i] & 1;
		frac = (double)in / (double)pages;
	}
	free(vec);
	munmap(map, len);
	return frac;
}

static int open_flags(const struct job_spec *j, bool writes)
{
	int fl = writes ? O_WRONLY : O_RDONLY;

	if (j->direct)
		fl |= O_DIRECT;
	if (writes && j->sync == SYNC_OSYNC)
		fl |= O_SYNC;
	if (writes && j->sync == SYNC_ODSYNC)
		fl |= O_DSYNC;
	return fl;
}

static const char *op_name(enum be_opcode op)
{
	return op == BE_READ ? "read" : op == BE_WRITE ? "write" : "fsync";
}

static void fill_trial(struct trial_result *tr, const struct worker_out *wo, uint64_t t0)
{
	tr->ran = true;
	tr->start_ns = wo->start_ns - t0;
	tr->end_ns = wo->end_ns - t0;
	tr->seconds = (double)(wo->end_ns - wo->start_ns) / 1e9;
	tr->bytes = wo->bytes;
	tr->ios = wo->ios;
	tr->errors = wo->errors;
	tr->iops = tr->seconds > 0 ? (double)wo->ios / tr->seconds : NAN;
	tr->bw_bytes = tr->seconds > 0 ? (double)wo->bytes / tr->seconds : NAN;
	tr->cpu_user_s = wo->cpu_user_s;
	tr->cpu_sys_s = wo->cpu_sys_s;
	if (wo->ios == 0)
		return;
	tr->lat.min = (double)wo->hist.min;
	tr->lat.max = (double)wo->hist.max;
	tr->lat.mean = wo->lat.mean;
	tr->lat.stddev = welford_stddev(&wo->lat);
	tr->lat.rms = welford_rms(&wo->lat);
	tr->lat.p50 = hist_percentile(&wo->hist, 50);
	tr->lat.p90 = hist_percentile(&wo->hist, 90);
	tr->lat.p95 = hist_percentile(&wo->hist, 95);
	tr->lat.p99 = hist_percentile(&wo->hist, 99);
	tr->lat.p99_9 = hist_percentile(&wo->hist, 99.9);
	tr->lat.p99_99 = hist_percentile(&wo->hist, 99.99);
}

static void verify_error(struct trial_result *tr, const struct worker_out *wo, const char *path,
			 const char *when)
{
	trial_error(tr, "verify: %s'%s' at offset %llu: %s", when, path,
		    (unsigned long long)wo->err_offset, wo->verify_why ? wo->verify_why : "?");
}

/* Read back what a write trial wrote and check the pattern; not timed, not counted in the
 * trial's figures, but a mismatch fails the trial. */
static int verify_pass(struct runner *rn, struct instance *in, void *priv, const struct worker_job *wj,
		       struct trial_result *tr)
{
	struct worker_out *vo = malloc(sizeof(*vo));
	struct worker_job v = *wj;
	int ret;

	if (!vo)
		return -ENOMEM;
	v.wl = WL_READ;
	v.runtime_ns = 0;
	v.fsync_end = false;
	v.fd = in->be->open(priv, in->data.path, open_flags(&in->job, false), 0);
	if (v.fd < 0) {
		ret = v.fd;
		trial_error(tr, "verify: cannot open '%s': %s", in->data.path, strerror(-ret));
		free(vo);
		return ret;
	}
	ret = worker_run(&v, vo);
	in->be->close(priv, v.fd);
	if (ret == -EILSEQ) {
		tr->errors += vo->errors;
		verify_error(tr, vo, in->data.path, "reading back ");
	} else if (ret < 0) {
		trial_error(tr, "verify: reading back '%s' at offset %llu: %s", in->data.path,
			    (unsigned long long)vo->err_offset, strerror(-ret));
	}
	free(vo);
	return ret;
}

/* Run one trial of one instance. Returns 0, or -errno when it failed. */
static int run_trial(struct runner *rn, const struct plan_trial *pt)
{
	struct instance *in = &rn->p->inst[pt->inst];
	struct instance_result *ir = &rn->r->inst[pt->inst];
	struct trial_result *tr = &ir->trials[pt->index];
	const struct job_spec *j = &in->job;
	bool noio = in->be->flags & BE_F_NOIO, copy = j->workload == WL_COPY;
	bool writes = spec_workload_writes(j->workload);
	struct be_config cfg = {j->iodepth, j->direct};
	struct worker_job w = {0};
	struct worker_out *wo = NULL;
	void *priv = NULL;
	int ret = 0, fd = -1, src_fd = -1;

	tr->ran = true;
	if (!noio) {
		struct plan_file *files[2] = {copy ? &in->src : &in->data, NULL};
		for (int i = 0; files[i]; i++)
			if (files[i]->create && !files[i]->laid_out &&
			    (ret = layout_file(rn, in, files[i], tr)) < 0)
				return ret;
		if (copy && (ret = make_dirs(rn, in->data.path)) < 0) {
			trial_error(tr, "cannot create the folder for '%s': %s", in->data.path,
				    strerror(-ret));
			return ret;
		}
		if (j->invalidate)
			drop_cache(copy ? in->src.path : in->data.path);
		if (!writes || copy)
			tr->cached = cached_fraction(copy ? in->src.path : in->data.path,
						     j->file_size);
		if (!writes && tr->cached > 0.5)
			ir->reads_cached = true;
	}
	if (!(wo = malloc(sizeof(*wo))) ||
	    (in->be->priv_size && !(priv = calloc(1, in->be->priv_size)))) {
		free(wo);
		trial_error(tr, "out of memory");
		return -ENOMEM;
	}
	if (in->be->init && (ret = in->be->init(priv, &cfg)) < 0) {
		trial_error(tr, "backend '%s': cannot start: %s", in->be->name, strerror(-ret));
		goto out_free;
	}
	if (copy) {
		src_fd = in->be->open(priv, in->src.path, open_flags(j, false), 0);
		if (src_fd < 0) {
			ret = src_fd;
			trial_error(tr, "cannot open '%s': %s", in->src.path, strerror(-ret));
			goto out_cleanup;
		}
		fd = in->be->open(priv, in->data.path, open_flags(j, true) | O_CREAT | O_EXCL, 0644);
		if (fd >= 0 && !noio)
			in->data.laid_out = true;
	} else {
		fd = in->be->open(priv, in->data.path, open_flags(j, writes), 0);
	}
	if (fd < 0) {
		ret = fd;
		trial_error(tr, "cannot open '%s': %s", in->data.path, strerror(-ret));
		goto out_close;
	}

	w = (struct worker_job){
		.be = in->be,
		.priv = priv,
		.wl = j->workload,
		.fd = fd,
		.src_fd = src_fd,
		.chunk = in->chunk,
		.region_off = 0,
		.region_len = j->file_size,
		.runtime_ns = j->runtime_ns,
		.iodepth = j->iodepth,
		.fsync_end = writes && j->sync == SYNC_FSYNC_END,
		.seed = mix(rn->p->seed, mix(pt->inst, pt->index)),
		.stop = rn->o->stop,
		.verify = j->verify,
	};
	if (j->verify && (!writes || copy)) {
		/* Reads check the layout's pattern; a file iotrial did not lay out may come
		 * from an earlier run, so only its offsets and checksums are checked. */
		const struct plan_file *f = copy ? &in->src : &in->data;
		w.verify_seed = layout_seed(rn->p, in);
		w.verify_check_seed = f->create;
	} else if (j->verify) {
		w.verify_seed = w.seed;
		/* Only a full sequential pass rewrites every block under this trial's seed. */
		w.verify_check_seed = j->workload == WL_WRITE && !j->runtime_ns;
	}
	ret = worker_run(&w, wo);
	fill_trial(tr, wo, rn->t0);
	if (ret == 0 && j->verify && writes && !noio) {
		in->be->close(priv, fd);
		fd = -1;
		if (copy)
			w.verify_seed = layout_seed(rn->p, in);
		ret = verify_pass(rn, in, priv, &w, tr);
		if (ret == 0)
			tr->kept = !tr->warmup;
	} else if (ret == -EILSEQ) {
		verify_error(tr, wo, copy ? in->src.path : in->data.path, "");
	} else if (ret < 0) {
		const char *path = wo->err_op == BE_READ && copy ? in->src.path : in->data.path;
		if (wo->err_eof)
			trial_error(tr, "%s '%s' at offset %llu (%u bytes): unexpected end of file",
				    op_name(wo->err_op), path, (unsigned long long)wo->err_offset,
				    wo->err_len);
		else if (wo->err)
			trial_error(tr, "%s '%s' at offset %llu (%u bytes): %s%s",
				    op_name(wo->err_op), path, (unsigned long long)wo->err_offset,
				    wo->err_len, strerror(-wo->err),
				    wo->err == -ENOSPC ? " (the disk is full)" : "");
		else
			trial_error(tr, "backend '%s': %s", in->be->name, strerror(-ret));
	} else {
		tr->kept = !tr->warmup;
	}
out_close:
	if (fd >= 0)
		in->be->close(priv, fd);
	if (src_fd >= 0)
		in->be->close(priv, src_fd);
	/* A copy makes a new file every trial; the last one stays when files are kept. */
	if (copy && !noio && in->data.laid_out &&
	    (!j->keep_files || pt->index + 1 < in->warmup + in->runs)) {
		unlink(in->data.path);
		in->data.laid_out = false;
	}
out_cleanup:
	if (in->be->cleanup)
		in->be->cleanup(priv);
out_free:
	free(priv);
	free(wo);
	return ret;
}

/* Does the file system holding `path` (a file, or a folder to create one in) take O_DIRECT? */
static int probe_direct(const char *path, bool exists)
{
	char *probe = NULL;
	int fd, ret = 0;

	if (exists) {
		fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
		ret = fd < 0 ? -errno : 0;
	} else {
		if (asprintf(&probe, "%s/.iotrial-direct-probe.%ld", path, (long)getpid()) < 0)
			return -ENOMEM;
		fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0600);
		ret = fd < 0 ? -errno : 0;
		if (fd >= 0)
			unlink(probe);
		free(probe);
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/* The nearest existing folder at or above `path`. */
static char *existing_dir(const char *path)
{
	char *dir = strdup(path);
	struct stat st;

	while (dir && stat(dir, &st) < 0) {
		char *up = dirname_dup(dir);
		free(dir);
		dir = up;
	}
	return dir;
}

int run_preflight(const struct plan *p, struct diag *d)
{
	int bad = 0;

	for (size_t i = 0; i < p->ninst; i++) {
		const struct instance *in = &p->inst[i];
		const struct plan_file *files[2] = {&in->data, &in->src};

		if (!in->job.direct || (in->be->flags & BE_F_NOIO))
			continue;
		for (int k = 0; k < 2; k++) {
			const struct plan_file *f = files[k];
			char *dir;
			int ret;

			if (!f->path || (k == 1 && in->job.workload != WL_COPY))
				continue;
			dir = f->create ? dirname_dup(f->path) : NULL;
			if (dir) {
				char *up = existing_dir(dir);
				free(dir);
				dir = up;
			}
			ret = probe_direct(f->create ? dir : f->path, !f->create);
			if (ret == -EINVAL)
				diag_add(d, &in->job.key_loc[JK_DIRECT],
					 "key 'direct': '%s' is on a file system that refuses O_DIRECT (tmpfs or a FUSE file system?)",
					 f->create ? dir : f->path);
			else if (ret < 0)
				diag_add(d, &in->job.key_loc[JK_DIRECT],
					 "key 'direct': cannot open '%s' with O_DIRECT: %s",
					 f->create ? dir : f->path, strerror(-ret));
			bad += ret < 0;
			free(dir);
		}
	}
	return bad ? 1 : 0;
}

static void progress_line(struct runner *rn, size_t k, const struct plan_trial *pt)
{
	const struct instance_result *ir = &rn->r->inst[pt->inst];
	const struct trial_result *tr = &ir->trials[pt->index];

	if (!rn->o->progress)
		return;
	fprintf(rn->o->progress, "[%zu/%zu] %s %s %u: ", k + 1, rn->p->ntrials, ir->name,
		tr->warmup ? "warm-up" : "trial", pt->index);
	if (tr->failed)
		fprintf(rn->o->progress, "failed: %s\n", tr->error ? tr->error : "?");
	else
		fprintf(rn->o->progress, "%.3f s, %.1f MB/s, %.0f IO/s\n", tr->seconds,
			tr->bw_bytes / 1e6, tr->iops);
	fflush(rn->o->progress);
}

static void remove_files(struct runner *rn)
{
	for (size_t i = 0; i < rn->p->ninst; i++) {
		struct instance *in = &rn->p->inst[i];
		struct plan_file *files[2] = {&in->data, &in->src};
		for (int k = 0; k < 2; k++)
			if (files[k]->create && files[k]->laid_out && !in->job.keep_files &&
			    !(in->be->flags & BE_F_NOIO))
				unlink(files[k]->path);
	}
	while (rn->ndirs > 0) {
		char *dir = rn->dirs[--rn->ndirs];
		rmdir(dir); /* fails, rightly, when kept files are inside */
		free(dir);
	}
	free(rn->dirs);
}

int run_plan(struct plan *p, struct results *r, const struct run_opts *o, struct diag *d)
{
	struct runner rn = {p, r, o, d, worker_now_ns(), NULL, 0};
	size_t failed = 0, k;

	utc_now(r->started_at);
	for (k = 0; k < p->ntrials && !*o->stop; k++) {
		const struct plan_trial *pt = &p->order[k];
		if (run_trial(&rn, pt) < 0) {
			const struct trial_result *tr = &r->inst[pt->inst].trials[pt->index];
			diag_add(d, NULL, "job '%s' trial %u: %s", r->inst[pt->inst].name, pt->index,
				 tr->error ? tr->error : "failed");
			failed++;
		}
		progress_line(&rn, k, pt);
	}
	remove_files(&rn);
	utc_now(r->finished_at);
	r->complete = k == p->ntrials && !*o->stop;
	results_summarize(r, p->spec->rep.confidence, p->spec->rep.error);
	return failed || !r->complete ? 1 : 0;
}
