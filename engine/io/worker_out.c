/* A worker's figures after its run: merged with a top-up's, and its bytes at a time (see
 * worker.h). Off the I/O path. */
#include "engine/io/worker.h"

double worker_bytes_at(const struct worker_out *o, uint64_t t)
{
	uint64_t t0 = o->start_ns, b0 = 0;

	if (t <= o->start_ns)
		return 0;
	if (t >= o->end_ns || o->nprog == 0)
		return t >= o->end_ns ? (double)o->bytes : 0;
	for (uint32_t i = 0; i < o->nprog; i++) {
		if (o->prog_t[i] >= t) {
			double f =
			    o->prog_t[i] > t0 ? (double)(t - t0) / (double)(o->prog_t[i] - t0) : 1;
			return (double)b0 + f * (double)(o->prog_b[i] - b0);
		}
		t0 = o->prog_t[i];
		b0 = o->prog_b[i];
	}
	/* After the last sample and before the end: on toward the total. */
	return (double)b0 + (double)(t - t0) / (double)(o->end_ns - t0) * (double)(o->bytes - b0);
}

void worker_job_alone(struct worker_job *w)
{
	w->ramp_ns = 0;
	w->stop_sw = NULL;
	w->barrier = w->ready = NULL;
	w->cancel = NULL;
	w->rec_fd = w->int_fd = -1;
	w->tally = NULL; /* the progress line counts the trial's part alone */
	w->ivl_ring = NULL;
}

void worker_out_add(struct worker_out *o, const struct worker_out *more)
{
	hist_merge(&o->hist, &more->hist);
	welford_merge(&o->lat, &more->lat);
	o->bytes += more->bytes;
	o->ios += more->ios;
	for (uint32_t i = 0; i < WL_SIZES_MAX; i++) {
		o->size_ios[i] += more->size_ios[i];
		o->size_cut[i] += more->size_cut[i];
	}
	if (o->extra && more->extra) {
		struct worker_extra *x = o->extra;
		const struct worker_extra *y = more->extra;
		x->syncs += y->syncs;
		hist_merge(&x->sync_hist, &y->sync_hist);
		welford_merge(&x->sync_lat, &y->sync_lat);
		for (int d = 0; d < 2; d++) {
			x->dir[d].bytes += y->dir[d].bytes;
			x->dir[d].ios += y->dir[d].ios;
			hist_merge(&x->dir[d].hist, &y->dir[d].hist);
			welford_merge(&x->dir[d].lat, &y->dir[d].lat);
			hist_merge(&x->split_hist[d], &y->split_hist[d]);
			welford_merge(&x->split_lat[d], &y->split_lat[d]);
		}
	}

	o->errors += more->errors;
	o->cpu_user_s += more->cpu_user_s;
	o->cpu_sys_s += more->cpu_sys_s;
	if (more->end_ns > o->end_ns)
		o->end_ns = more->end_ns;
	if (!o->err && more->err) {
		o->err = more->err;
		o->err_op = more->err_op;
		o->err_offset = more->err_offset;
		o->err_len = more->err_len;
		o->err_eof = more->err_eof;
		o->verify_why = more->verify_why;
	}
	for (int k = 0; k < WORKER_NLOGS; k++)
		if (!o->log_err[k])
			o->log_err[k] = more->log_err[k];
}
