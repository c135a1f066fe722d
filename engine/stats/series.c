/* Series from the record and interval logs, and their change points (see series.h). The
 * logs are read once, line by line, into fixed time bins per trial: memory stays in
 * proportion to the bins, however many I/Os were logged. */
#include "engine/stats/series.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/stats/changepoint.h"
#include "model/logname.h"
#include "model/names.h"

/* One stretch of a trial: what completed in it. */
struct bin {
	uint64_t bytes, lines, t_end;
	double
	    time_ns; /* records: the I/Os' latencies, summed; intervals: the intervals' lengths */
};

struct trial_bins {
	const struct trial_result *t; /* NULL: this index gets no series */
	uint64_t width;		      /* ns per bin */
	size_t nbins;
	struct bin *b;
};

/* The columns a kind needs, by name in the log's header line. */
enum { C_TRIAL, C_BYTES, C_A, C_B, NCOL };
static const char *const cols[2][NCOL] = {
    [SERIES_RECORDS] = {"trial", "bytes", "start_ns", "latency_ns"},
    [SERIES_INTERVALS] = {"trial", "bytes", "start_ns", "end_ns"},
};
#define MAXF 16

static size_t split(char *line, char **f)
{
	size_t n = 0;

	for (char *p = line; n < MAXF;) {
		f[n++] = p;
		if (!(p = strchr(p, ',')))
			break;
		*p++ = '\0';
	}
	if (n)
		f[n - 1][strcspn(f[n - 1], "\r\n")] = '\0';
	return n;
}

static bool num(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

/* The log of `kind` as a stream read from its start (a descriptor of its own: the run's is
 * left open), its name in the result folder into *path for messages. */
static FILE *open_log(const struct series_logs *logs, const char *name, enum series_kind kind,
		      char **path)
{
	int fd = kind == SERIES_RECORDS ? logs->rec_fd : logs->int_fd;
	char *file = logname_records(name, kind != SERIES_RECORDS);
	FILE *f = NULL;

	*path = NULL;
	if (!file || asprintf(path, "%s/records/%s", logs->dir, file) < 0) {
		free(file);
		*path = NULL;
		return NULL;
	}
	free(file);
	if ((fd = dup(fd)) < 0)
		return NULL;
	if (lseek(fd, 0, SEEK_SET) < 0 || !(f = fdopen(fd, "r")))
		close(fd);
	return f;
}

/* Bin every line of `f` into its trial's bins. Returns 0, or -errno when it cannot read. */
static int bin_log(FILE *f, enum series_kind kind, struct trial_bins *tb, size_t ntb)
{
	char *line = NULL, *fld[MAXF];
	size_t cap = 0, idx[NCOL], nf;
	int ret = 0;

	if (getline(&line, &cap, f) < 0) {
		free(line);
		return ferror(f) ? -EIO : -ENODATA;
	}
	nf = split(line, fld);
	for (size_t c = 0; c < NCOL; c++) {
		for (idx[c] = 0; idx[c] < nf && strcmp(fld[idx[c]], cols[kind][c]); idx[c]++)
			;
		if (idx[c] == nf) {
			free(line);
			return -EBADMSG; /* not the header this iotrial writes */
		}
	}
	while (getline(&line, &cap, f) >= 0) {
		uint64_t v[NCOL], at, len_ns;
		bool ok = true;
		nf = split(line, fld);
		for (size_t c = 0; c < NCOL && ok; c++)
			ok = idx[c] < nf && num(fld[idx[c]], &v[c]);
		if (!ok || v[C_TRIAL] >= ntb || !tb[v[C_TRIAL]].t)
			continue;
		struct trial_bins *t = &tb[v[C_TRIAL]];
		/* Records: the I/O's completion; intervals: the interval's middle. */
		if (kind == SERIES_RECORDS) {
			at = v[C_A] + v[C_B];
			len_ns = v[C_B];
		} else {
			at = v[C_B] > v[C_A] ? v[C_A] + (v[C_B] - v[C_A]) / 2 : v[C_A];
			len_ns = v[C_B] > v[C_A] ? v[C_B] - v[C_A] : 0;
		}
		struct bin *b = &t->b[at / t->width < t->nbins ? at / t->width : t->nbins - 1];
		uint64_t end = kind == SERIES_RECORDS ? at : v[C_B];
		b->bytes += v[C_BYTES];
		b->lines++;
		b->time_ns += (double)len_ns;
		b->t_end = end > b->t_end ? end : b->t_end;
	}
	if (ferror(f))
		ret = -EIO;
	free(line);
	return ret;
}

/* The workers whose interval lines share a bin: their rates add up. */
static double workers_of(const struct trial_result *t)
{
	return t->nworkers ? t->nworkers : t->nranks ? t->nranks : 1;
}

/* bytes/s over points [a, b) of the bins kept in `used`. */
static double pooled(const struct bin *const *used, size_t a, size_t b, double scale)
{
	double bytes = 0, ns = 0;

	for (size_t i = a; i < b; i++) {
		/* [a, b) lies within the m points of `used` (cp_detect's contract, which the
		 * analyzer cannot see from here). */
		/* NOLINTNEXTLINE(clang-analyzer-core.*,clang-analyzer-unix.Malloc) */
		bytes += (double)used[i]->bytes;
		ns += used[i]->time_ns;
	}
	return ns > 0 ? bytes / ns * 1e9 * scale : 0;
}

/* Records: the fine time bins merged in place into points of about equal bytes (at most
 * `n` of them), so a point stands for the same share of what was written before and after
 * a cliff, and the change point's place in bytes is as sharp in both. */
static void by_bytes(struct trial_bins *t, size_t n)
{
	uint64_t total = 0, target;
	size_t out = 0;

	for (size_t i = 0; i < t->nbins; i++)
		total += t->b[i].bytes;
	target = total / n + 1;
	for (size_t i = 0; i < t->nbins; i++) {
		struct bin *o = &t->b[out], *b = &t->b[i];
		if (!b->lines)
			continue;
		if (o != b) {
			o->bytes += b->bytes;
			o->lines += b->lines;
			o->time_ns += b->time_ns;
			o->t_end = b->t_end > o->t_end ? b->t_end : o->t_end;
			*b = (struct bin){0};
		}
		if (o->bytes >= target)
			out++;
	}
	t->nbins = out < t->nbins && t->b[out].lines ? out + 1 : out;
}

/* One trial's series and change points, appended to the instance's. */
static int add_series(struct instance_result *ir, enum series_kind kind, struct trial_bins *t)
{
	const struct bin **used = malloc(t->nbins * sizeof(*used));
	double *y = malloc(t->nbins * sizeof(*y)), scale = 1;
	struct series *s;
	size_t m = 0, at[CP_MAX];
	uint64_t bytes = 0;
	int ncp;

	if (kind == SERIES_INTERVALS)
		scale = workers_of(t->t);
	s = realloc(ir->series, (ir->nseries + 1) * sizeof(*s));
	if (!used || !y || !s) {
		free(used);
		free(y);
		if (s)
			ir->series = s;
		return -ENOMEM;
	}
	ir->series = s;
	s = &ir->series[ir->nseries];
	*s = (struct series){.trial = t->t->index, .kind = kind};
	for (size_t i = 0; i < t->nbins; i++)
		if (t->b[i].lines && t->b[i].time_ns > 0)
			used[m++] = &t->b[i];
	if (m && !(s->pts = malloc(m * sizeof(*s->pts)))) {
		free(used);
		free(y);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m; i++) {
		bytes += used[i]->bytes;
		y[i] = pooled(used, i, i + 1, scale);
		s->pts[i] = (struct series_point){bytes, used[i]->t_end, y[i]};
	}
	s->npts = m;
	ir->nseries++;
	struct cp_params p = cp_defaults();
	ncp = cp_detect(y, m, &p, at, CP_MAX);
	struct change_point *c =
	    ncp > 0 ? realloc(ir->cps, (ir->ncps + (size_t)ncp) * sizeof(*c)) : ir->cps;
	if (ncp < 0 || (ncp > 0 && !c)) {
		free(used);
		free(y);
		return -ENOMEM;
	}
	ir->cps = c;
	for (int j = 0; j < ncp; j++) {
		size_t a = j ? at[j - 1] : 0, k = at[j], b = j + 1 < ncp ? at[j + 1] : m;
		ir->cps[ir->ncps++] = (struct change_point){
		    .trial = t->t->index,
		    .kind = kind,
		    .at_bytes = s->pts[k - 1].at_bytes,
		    .at_ns = s->pts[k - 1].at_ns,
		    .before = pooled(used, a, k, scale),
		    .after = pooled(used, k, b, scale),
		};
	}
	free(used);
	free(y);
	return 0;
}

static int build_kind(struct instance_result *ir, const struct series_logs *logs,
		      enum series_kind kind, struct diag *d)
{
	struct trial_bins *tb = calloc(ir->ntrials ? ir->ntrials : 1, sizeof(*tb));
	size_t measured = 0, nbins;
	char *path = NULL;
	FILE *f = NULL;
	int ret = 0;

	if (!tb)
		return -ENOMEM;
	for (size_t i = 0; i < ir->ntrials; i++) {
		const struct trial_result *t = &ir->trials[i];
		if (t->ran && !t->warmup && t->index == i && t->end_ns > t->start_ns)
			measured++;
	}
	nbins = measured ? SERIES_BUDGET / measured : SERIES_POINTS;
	nbins = nbins > SERIES_POINTS	    ? SERIES_POINTS
		: nbins < SERIES_MIN_POINTS ? SERIES_MIN_POINTS
					    : nbins;
	for (size_t i = 0; i < ir->ntrials; i++) {
		const struct trial_result *t = &ir->trials[i];
		if (!t->ran || t->warmup || t->index != i || t->end_ns <= t->start_ns)
			continue;
		tb[i].t = t;
		/* Records are binned finer, then merged by bytes (by_bytes). */
		tb[i].nbins = kind == SERIES_RECORDS ? nbins * 16 : nbins;
		tb[i].width = (t->end_ns - t->start_ns + tb[i].nbins - 1) / tb[i].nbins;
		if (!(tb[i].b = calloc(tb[i].nbins, sizeof(*tb[i].b)))) {
			ret = -ENOMEM;
			goto out;
		}
	}
	if (!measured)
		goto out;
	if (!(f = open_log(logs, ir->name, kind, &path)) ||
	    (ret = bin_log(f, kind, tb, ir->ntrials))) {
		int err = ret ? ret : -errno;
		diag_add(d, NULL, "job '%s': no %s series or change points: cannot read '%s': %s",
			 ir->name, names_get(series_kind_names, (int)kind), path ? path : logs->dir,
			 err == -EBADMSG ? "not a log this iotrial wrote" : strerror(-err));
		ret = path ? 0 : -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < ir->ntrials && !ret; i++) {
		if (!tb[i].t)
			continue;
		if (kind == SERIES_RECORDS)
			by_bytes(&tb[i], nbins);
		ret = add_series(ir, kind, &tb[i]);
	}
out:
	if (f)
		fclose(f);
	free(path);
	for (size_t i = 0; i < ir->ntrials; i++)
		free(tb[i].b);
	free(tb);
	return ret;
}

int series_build(struct instance_result *ir, struct series_logs logs, bool records, bool intervals,
		 struct diag *d)
{
	int ret = 0;

	/* A log the run could not open was said then: no second line for it here. */
	if (records && logs.rec_fd >= 0)
		ret = build_kind(ir, &logs, SERIES_RECORDS, d);
	if (intervals && logs.int_fd >= 0 && ret == 0)
		ret = build_kind(ir, &logs, SERIES_INTERVALS, d);
	return ret;
}
