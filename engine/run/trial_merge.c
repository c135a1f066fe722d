/* After a trial's workers are done: their figures merged into the instance's trial (bytes
 * summed, histograms merged, elapsed from the first start to the last end) and kept per
 * worker, their errors turned into one line naming operation, path and offset, and data a
 * write trial wrote read back when verify asks; in a distributed run, every rank's figures,
 * worker rows and log lines handed to rank 0. */
#include "engine/run/trial_merge.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/dist/dist.h"
#include "engine/io/reclog.h"
#include "engine/run/files.h"
#include "engine/run/logcut.h"
#include "engine/run/reduce.h"
#include "engine/stats/latency.h"
#include "engine/io/worker.h"
#include "model/names.h"

static const char *op_name(enum be_opcode op)
{
	return op == BE_READ ? "read" : op == BE_WRITE ? "write" : "fsync";
}

/* The first error of a worker, as a line naming the operation, path and offset. */
static void worker_error(struct trial_result *tr, const struct slot *s, const char *be)
{
	const struct worker_out *wo = &s->sh->out;
	bool copy = s->run->in->job.workload == WL_COPY;
	const char *path = wo->err_op == BE_READ && copy ? s->src_path : s->data_path;

	if (s->sh->err[0])
		trial_error(tr, "%s", s->sh->err);
	else if (wo->err == -EILSEQ)
		trial_error(tr, "verify: '%s' at offset %llu: %s", path,
			    (unsigned long long)wo->err_offset,
			    wo->verify_why ? wo->verify_why : "?");
	else if (wo->err_eof)
		trial_error(tr, "%s '%s' at offset %llu (%u bytes): unexpected end of file",
			    op_name(wo->err_op), path, (unsigned long long)wo->err_offset,
			    wo->err_len);
	else if (wo->err)
		trial_error(tr, "%s '%s' at offset %llu (%u bytes): %s%s", op_name(wo->err_op),
			    path, (unsigned long long)wo->err_offset, wo->err_len,
			    strerror(-wo->err), wo->err == -ENOSPC ? " (the disk is full" : "");
	else
		trial_error(tr, "backend '%s': %s", be, strerror(-s->sh->ret));
	if (wo->err == -ENOSPC && tr->error && !strstr(tr->error, "written)")) {
		char *more = NULL;
		if (asprintf(&more, "%s; %llu bytes were written)", tr->error,
			     (unsigned long long)wo->bytes) >= 0) {
			free(tr->error);
			tr->error = more;
		}
	}
}

/* A listed block_split: the I/Os of each size, over the workers. */
static void trial_merge_sizes(struct trial_result *tr, const struct inst_run *r)
{
	const struct wl_opts *o = r->in->wl;

	if (!o || !o->split || o->sizes.range || tr->sizes ||
	    !(tr->sizes = calloc(o->sizes.n, sizeof(*tr->sizes))))
		return;
	tr->nsizes = o->sizes.n;
	for (uint32_t i = 0; i < o->sizes.n; i++) {
		tr->sizes[i].size = o->sizes.size[i];
		for (uint32_t k = 0; k < r->n; k++) {
			tr->sizes[i].ios += r->slots[k].sh->out.size_ios[i];
			tr->sizes[i].cut += r->slots[k].sh->out.size_cut[i];
		}
	}
}

/* fsync_every, fdatasync_every: the syncs of every worker, their latency apart. */
static void trial_merge_syncs(struct trial_result *tr, const struct inst_run *r)
{
	const struct job_spec *j = &r->in->job;
	struct hist *h;
	struct welford w;

	if (!j->fsync_every && !j->fdatasync_every)
		return;
	tr->sync_on = true;
	tr->sync_lat = (struct lat_summary){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
	if (!(h = malloc(sizeof(*h))))
		return;
	hist_init(h);
	welford_init(&w);
	for (uint32_t k = 0; k < r->n; k++) {
		const struct worker_out *o = &r->slots[k].sh->out;
		if (!o->extra)
			continue;
		tr->syncs += o->extra->syncs;
		hist_merge(h, &o->extra->sync_hist);
		welford_merge(&w, &o->extra->sync_lat);
	}
	if (tr->syncs)
		latency_summarize(&tr->sync_lat, h, &w);
	free(h);
}

/* huge_buffers: the workers' buffers summed, and how they got huge pages. One worker's
 * fallback or failed measurement is the trial's: the sum of the others would not say what
 * the trial ran on. Nothing for a trial whose workers had no buffers (copytree, command, a
 * set-up that failed first). */
static void trial_merge_hpages(struct trial_result *tr, const struct inst_run *r)
{
	struct hpages_result *h = &tr->hpages;
	bool asked = false, fallback = false, unknown = false;

	*h = (struct hpages_result){0};
	for (uint32_t k = 0; k < r->n; k++) {
		const struct worker_out *o = &r->slots[k].sh->out;
		if (!o->buf_bytes)
			continue;
		h->bytes += o->buf_bytes;
		h->huge_bytes += o->hpage_bytes;
		asked |= o->hpages != WORKER_HP_OFF;
		fallback |= o->hpages == WORKER_HP_FALLBACK;
		unknown |= o->hpages == WORKER_HP_UNKNOWN || o->hpages == WORKER_HP_ASKED;
	}
	h->on = h->bytes != 0;
	if (!asked)
		h->state = HP_OFF;
	else if (fallback)
		h->state = HP_FALLBACK;
	else if (unknown)
		h->state = HP_UNKNOWN;
	else
		h->state = h->huge_bytes >= h->bytes ? HP_GRANTED
			   : h->huge_bytes	     ? HP_PARTIAL
						     : HP_NONE;
	if (h->state != HP_GRANTED && h->state != HP_PARTIAL && h->state != HP_NONE)
		h->huge_bytes = 0;
}

static void keep_hist(struct trial_result *tr, int k, const struct hist *h);

/* submit_latency: the submissions' (slat) and completions' (clat) latency, over the workers. */
static void trial_merge_split(struct trial_result *tr, const struct inst_run *r)
{
	struct lat_summary *out[2] = {&tr->slat, &tr->clat};
	struct hist *h;
	struct welford w;

	if (!r->in->job.submit_latency)
		return;
	tr->split_on = true;
	if (!(h = malloc(sizeof(*h))))
		return;
	for (int k = 0; k < 2; k++) {
		*out[k] =
		    (struct lat_summary){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
		hist_init(h);
		welford_init(&w);
		for (uint32_t s = 0; s < r->n; s++) {
			const struct worker_extra *x = r->slots[s].sh->out.extra;
			if (!x)
				continue;
			hist_merge(h, &x->split_hist[k]);
			welford_merge(&w, &x->split_lat[k]);
		}
		if (h->count)
			latency_summarize(out[k], h, &w);
		keep_hist(tr, LAT_SLAT + k, h);
	}
	free(h);
}

/* Keep histogram `h` as the trial's of kind `k`, for the summary to pool (when it holds
 * anything; without memory, the summary says it cannot pool). */
static void keep_hist(struct trial_result *tr, int k, const struct hist *h)
{
	free(tr->pool_hist[k]);
	tr->pool_hist[k] = h && h->count ? hist_sparse_of(h) : NULL;
}

/* Reads and writes apart: a mixed workload's from its workers' shares, a one-direction
 * workload's from the trial's own figures; rates over the trial's seconds. */
static void trial_merge_dirs(struct trial_result *tr, const struct inst_run *r)
{
	enum job_workload wl = r->in->job.workload;
	struct hist *h = NULL;
	struct welford w;

	for (int d = 0; d < 2; d++) {
		struct dir_result *dr = &tr->dir[d];
		bool mine = d == DIR_READ ? wl == WL_READ || wl == WL_RANDREAD
					  : wl == WL_WRITE || wl == WL_RANDWRITE;
		dr->ios = dr->bytes = 0;
		dr->lat =
		    (struct lat_summary){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
		if (mine) {
			dr->ios = tr->ios;
			dr->bytes = tr->bytes;
			dr->lat = tr->lat;
			/* Its histogram is the trial's own (pool_hist[LAT_ALL]): no copy. */
		} else if (spec_workload_mixed(wl) && r->slots && (h || (h = malloc(sizeof(*h))))) {
			hist_init(h);
			welford_init(&w);
			for (uint32_t k = 0; k < r->n; k++) {
				const struct worker_extra *x = r->slots[k].sh->out.extra;
				const struct worker_dir *wd = x ? &x->dir[d] : NULL;
				if (!wd)
					continue;

				dr->ios += wd->ios;
				dr->bytes += wd->bytes;
				hist_merge(h, &wd->hist);
				welford_merge(&w, &wd->lat);
			}
			if (dr->ios) {
				latency_summarize(&dr->lat, h, &w);
				keep_hist(tr, LAT_READ + d, h);
			}
		}
		dr->iops = isfinite(tr->seconds) ? (double)dr->ios / tr->seconds : NAN;
		dr->bw_bytes = isfinite(tr->seconds) ? (double)dr->bytes / tr->seconds : NAN;
	}
	free(h);
}

/* Worker k's row of the trial (threads > 1). */

static void worker_row(struct worker_result *wr, uint32_t k, const struct worker_out *o)
{
	wr->worker = k;
	wr->bytes = o->bytes;
	wr->ios = o->ios;
	wr->errors = o->errors;
	wr->seconds = o->end_ns > o->start_ns ? (double)(o->end_ns - o->start_ns) / 1e9 : NAN;
	wr->lat = (struct lat_summary){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
	if (o->ios)
		latency_summarize(&wr->lat, &o->hist, &o->lat);
}

/* The logs in the run's messages, by enum worker_log. */
static const char *const log_names[WORKER_NLOGS] = {
    [WORKER_LOG_RECORDS] = "a record log",
    [WORKER_LOG_INTERVALS] = "an interval log",
};

/* Worker s's figures added to trial `tr` and instance run `r`; its error, its log's. */
static void add_worker(struct trial_env *e, struct inst_run *r, const struct slot *s)
{
	struct trial_result *tr = r->tr;
	const struct worker_out *o = &s->sh->out;

	if (s->sh->ret < 0)
		worker_error(tr, s, r->in->be->name);
	for (int k = 0; k < WORKER_NLOGS; k++) {
		if (!o->log_err[k])
			continue;
		if (!r->log_err[k])
			r->log_err[k] = o->log_err[k];
		diag_add(e->d, NULL, "job '%s': %s could not be written: %s; logging stopped",
			 r->ir->name, log_names[k], strerror(-o->log_err[k]));
	}
	hist_merge(r->hist, &o->hist);
	welford_merge(&r->lat, &o->lat);
	tr->bytes += o->bytes;
	tr->ios += o->ios;
	tr->errors += o->errors;
	tr->stonewalled |= o->stopped;
	tr->stonewall_bytes += s->topup ? s->stonewall_bytes : o->bytes;
	tr->cpu_user_s += o->cpu_user_s;
	tr->cpu_sys_s += o->cpu_sys_s;
	if (o->start_ns && o->start_ns < r->first)
		r->first = o->start_ns;
	if (o->end_ns > r->last)
		r->last = o->end_ns;
}

/* Merge the workers' figures into the instance's trial, and keep them per worker; the
 * merged histogram and moments stay in `r` for the ranks' reduction. */
int trial_merge(struct trial_env *e, struct inst_run *r)
{
	struct trial_result *tr = r->tr;

	tr->stonewall = r->in->job.stonewall != STONEWALL_NONE && !r->background;
	r->first = UINT64_MAX;
	r->last = 0;
	welford_init(&r->lat);
	/* Nothing measured can be kept without its histogram or its worker rows. */
	if ((r->hist = malloc(sizeof(*r->hist))))
		hist_init(r->hist);
	if (!r->hist || (r->n > 1 && !(tr->workers = calloc(r->n, sizeof(*tr->workers))))) {
		trial_error(tr, "cannot merge its workers' figures: out of memory");
		return -ENOMEM;
	}
	tr->nworkers = r->n > 1 ? r->n : 0;
	tr->cpu_user_s = tr->cpu_sys_s = 0;
	trial_merge_sizes(tr, r);
	trial_merge_syncs(tr, r);
	trial_merge_split(tr, r);
	trial_merge_hpages(tr, r);

	for (uint32_t k = 0; k < r->n; k++) {
		add_worker(e, r, &r->slots[k]);
		if (tr->workers)
			worker_row(&tr->workers[k], k, &r->slots[k].sh->out);
	}
	if (r->first != UINT64_MAX && r->last > r->first) {
		tr->start_ns = r->first - e->t0;
		tr->end_ns = r->last - e->t0;
		tr->seconds = (double)(r->last - r->first) / 1e9;
		tr->iops = (double)tr->ios / tr->seconds;
		tr->bw_bytes = (double)tr->bytes / tr->seconds;
	}
	if (tr->ios)
		latency_summarize(&tr->lat, r->hist, &r->lat);
	/* log_histogram: the buckets the percentiles came from (the ranks' reduction, when
	 * there is one, replaces them by the merged ones). */
	if (tr->ios && r->in->job.log_histogram &&
	    latency_buckets(r->hist, &tr->hist, &tr->nhist) < 0) {
		trial_error(tr, "cannot keep its latency histogram: out of memory");
		return -ENOMEM;
	}
	keep_hist(tr, LAT_ALL, r->hist);
	trial_merge_dirs(tr, r);
	return 0;
}

/* Read back what a write trial wrote and check the pattern: not timed, not counted in the
 * trial's figures, but a mismatch fails the trial. */
int trial_verify_back(struct trial_env *e, struct inst_run *r)
{
	const struct instance *in = r->in;
	const struct job_spec *j = &in->job;
	bool copy = j->workload == WL_COPY;
	struct worker_out *vo = malloc(sizeof(*vo));
	void *priv = calloc(1, in->be->priv_size ? in->be->priv_size : 1);
	char why[512];
	struct be_config cfg = {.iodepth = j->iodepth, .direct = j->direct, .job = j};
	int ret = -ENOMEM;

	if (!vo || !priv || (in->be->init && (ret = in->be->init(priv, &cfg)) < 0))
		goto out_free;
	for (uint32_t k = 0; k < r->n; k++) {
		struct slot *s = &r->slots[k];
		struct worker_job v = s->job;
		worker_job_alone(&v);
		v.wl = WL_READ;
		v.extra = NULL;

		v.extra = NULL;

		v.runtime_ns = v.think_ns = v.rate = v.rate_iops = 0;
		v.cap_ns = v.limit = v.start_pos = 0;
		v.fsync_end = false;
		v.priv = priv;
		/* A copy checks the source's pattern; a full sequential write pass, its own. */
		v.verify_seed = copy ? trial_layout_seed(e->p, in->src.path) : s->job.verify_seed;
		v.verify_check_seed = copy || (j->workload == WL_WRITE && !j->runtime_ns &&
					       s->sh->out.bytes >= s->job.region_len);
		v.fd = files_open(r->ledger, in->be, priv, s->data_path, trial_open_flags(j, false),
				  why, sizeof(why));
		if (v.fd < 0) {
			ret = v.fd;
			trial_error(r->tr, "verify: %s", why);
			break;
		}
		ret = worker_run(&v, vo);
		in->be->close(priv, v.fd);
		if (ret == -EILSEQ) {
			r->tr->errors += vo->errors;
			trial_error(r->tr, "verify: reading back '%s' at offset %llu: %s",
				    s->data_path, (unsigned long long)vo->err_offset,
				    vo->verify_why ? vo->verify_why : "?");
		} else if (ret < 0) {
			trial_error(r->tr, "verify: reading back '%s' at offset %llu: %s",
				    s->data_path, (unsigned long long)vo->err_offset,
				    strerror(-ret));
		}
		if (ret < 0)
			break;
	}
	if (in->be->cleanup)
		in->be->cleanup(priv);
out_free:
	free(vo);
	free(priv);
	return ret;
}

/* Hand this rank's figures of every instance of the unit to rank 0, which merges them. */
void trial_reduce_unit(struct trial_env *e, const struct plan_unit *u, struct inst_run *runs,
		       uint64_t t_sync)
{
	for (size_t k = 0; k < u->n; k++) {
		const struct inst_run *r = &runs[k];
		const struct trial_result *tr = r->tr;
		bool ran = r->hist && r->first != UINT64_MAX && r->first >= t_sync;
		struct reduce_local m = {
		    .active = plan_on_rank(r->in, dist_rank()),
		    .error = tr->failed ? (tr->error ? tr->error : "failed") : NULL,
		    .bytes = tr->bytes,
		    .ios = tr->ios,
		    .errors = tr->errors,
		    .stopped = tr->stonewalled,
		    .stonewall_bytes = tr->stonewall_bytes,
		    .start_ns = ran ? r->first - t_sync : 0,
		    .end_ns = ran && r->last > t_sync ? r->last - t_sync : 0,
		    .cpu_user_s = isfinite(tr->cpu_user_s) ? tr->cpu_user_s : 0,
		    .cpu_sys_s = isfinite(tr->cpu_sys_s) ? tr->cpu_sys_s : 0,
		    .hist = r->hist,
		    .lat = &r->lat,
		    .workers = tr->workers,
		    .nworkers = tr->nworkers,
		    .maxworkers = r->in->job.threads > 1 ? r->in->job.threads : 0,
		};
		/* The rank's progress: its workers' samples summed on a grid up to its end. */
		for (int i = 0; ran && i <= REDUCE_CURVE; i++) {
			uint64_t at = t_sync + (uint64_t)((double)m.end_ns * i / REDUCE_CURVE);
			for (uint32_t w = 0; w < r->n; w++)
				m.curve[i] += worker_bytes_at(&r->slots[w].sh->out, at);
		}
		reduce_trial(r->tr, &m, t_sync - e->t0);
		/* One direction: the ranks' figures, summed (mixed runs are serial). */
		if (dist_size() > 1)
			trial_merge_dirs(r->tr, r);
	}
}

/* On rank 0, say which lines a gathered log is missing: `werr` by enum worker_log. */
static void log_trouble(struct trial_env *e, const struct inst_run *r, const int *werr,
			int bad_rank, int bad_kind, int bad_err)
{
	for (int k = 0; k < WORKER_NLOGS; k++)
		if (werr[k] < 0)
			diag_add(
			    e->d, NULL,
			    "job '%s': %s could not be written: %s; the other ranks' lines of trial %u are missing",
			    r->ir->name, log_names[k], strerror(-werr[k]), r->tr->index);
	if (bad_err < 0)
		diag_add(
		    e->d, NULL,
		    "job '%s': rank %d could not write every line of %s of trial %u: %s; its lines are incomplete",
		    r->ir->name, bad_rank, log_names[bad_kind], r->tr->index, strerror(-bad_err));
}

/* The first of errors `err` (by enum worker_log), or 0. */
static int first_log_err(const int *err)
{
	for (int k = 0; k < WORKER_NLOGS; k++)
		if (err[k])
			return err[k];
	return 0;
}

/* On rank 0, the trial's own record that its logs lack lines (log_error: it outlives the
 * run's messages, in results.json), counted: the run then ends with exit status 1. */
static void note_log_cut(struct trial_env *e, struct inst_run *r, const int *werr, int bad_rank,
			 int bad_err)
{
	int mine = first_log_err(r->log_err), wrote = first_log_err(werr);
	int err = mine ? mine : wrote ? wrote : bad_err;

	if (!err || r->tr->log_error)
		return;
	e->logs_cut++;
	if (err != bad_err || mine || wrote)
		r->tr->log_error = strdup(strerror(-err));
	else if (asprintf(&r->tr->log_error, "rank %d: %s", bad_rank, strerror(-err)) < 0)
		r->tr->log_error = NULL; /* out of memory: the run's message still says it */
}

void trial_gather_logs(struct trial_env *e, const struct plan_unit *u, struct inst_run *runs)
{
	for (size_t k = 0; k < u->n; k++) {
		size_t inst = u->inst[k];
		const struct job_spec *j = &e->p->inst[inst].job;
		const int fds[WORKER_NLOGS] = {
		    [WORKER_LOG_RECORDS] = e->rec_fd[inst],
		    [WORKER_LOG_INTERVALS] = e->int_fd[inst],
		};
		const bool want[WORKER_NLOGS] = {
		    [WORKER_LOG_RECORDS] = j->log_records,
		    [WORKER_LOG_INTERVALS] = j->log_interval_ns > 0,
		};
		int werr[WORKER_NLOGS] = {0}, bad_rank = 0, bad_kind = 0, bad_err = 0;

		for (int kind = 0; kind < WORKER_NLOGS; kind++) {
			int br, be;
			if (!want[kind])
				continue;
			/* Each rank says whether its own lines of this log are whole. */
			werr[kind] = reclog_gather(fds[kind], runs[k].log_err[kind], &br, &be);
			if (be && !bad_err) {
				bad_rank = br;
				bad_kind = kind;
				bad_err = be;
			}
		}
		if (dist_rank() == 0 && runs[k].tr) {
			log_trouble(e, &runs[k], werr, bad_rank, bad_kind, bad_err);
			note_log_cut(e, &runs[k], werr, bad_rank, bad_err);
		}
		/* A write cut short ends the log in part of a line; the error already says
		 * lines are missing, so the cut's own error adds nothing. */
		for (int kind = 0; dist_rank() == 0 && kind < WORKER_NLOGS; kind++)
			if (want[kind] && fds[kind] >= 0 && (werr[kind] || runs[k].log_err[kind]))
				(void)logcut_partial(fds[kind]);
	}
}
