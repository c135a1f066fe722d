/* trials.csv: one row per trial, a header row, RFC 4180 quoting; tidy, for pandas and R.
 * An unmeasured value is an empty field. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reporters/reporter.h"

/* Does text cell `s` start as a formula would in a spreadsheet (=, +, -, @, or a tab or
 * CR before one)? Opened there, it would be run: a results.json may be anyone's. */
static bool formula_like(const char *s)
{
	return s && *s && strchr("=+-@\t\r", *s);
}

/* A cell, quoted per RFC 4180 when it holds a comma, a quote or a line break. A `text` cell
 * (a string from the results, never a number) that starts like a formula is also quoted,
 * behind a single quote, as OWASP's CSV injection guidance says: '=1+1 is text to a
 * spreadsheet. A number cell is left alone, so that -3 stays a number. */
static void quoted(FILE *out, const char *s, bool text)
{
	bool guard = text && formula_like(s);

	if (s && (guard || strpbrk(s, ",\"\r\n"))) {
		fputc('"', out);
		if (guard)
			fputc('\'', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else if (s) {
		fputs(s, out);
	}
}

/* A text cell (see quoted). */
static void field(FILE *out, const char *s, bool last)
{
	quoted(out, s, true);
	fputc(last ? '\n' : ',', out);
}

/* A cell of a number printed here. */
static void number(FILE *out, const char *s)
{
	quoted(out, s, false);
	fputc(',', out);
}

static void real(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.9g", v);
	fputc(',', out);
}

/* submit_latency: the columns of slat and clat, after every other. */
static const char split_header[] =
    ",slat_mean_ns,slat_p50_ns,slat_p99_ns,slat_max_ns,clat_mean_ns,clat_p50_ns,clat_p99_ns,"
    "clat_max_ns";

static bool any_split(const struct results *r)
{
	for (size_t k = 0; k < r->ninst; k++)
		if (r->inst[k].submit_latency)
			return true;
	return false;
}

/* Trial `t`'s slat and clat cells, each after a comma; empty where not measured. */
static void split_cells(FILE *out, const struct trial_result *t)
{
	const struct lat_summary *l[2] = {&t->slat, &t->clat};

	for (int k = 0; k < 2; k++) {
		const double v[] = {l[k]->mean, l[k]->p50, l[k]->p99, l[k]->max};
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			fputc(',', out);
			if (t->split_on && isfinite(v[i]))
				fprintf(out, "%.9g", v[i]);
		}
	}
}

static int csv_report(const struct results *r, FILE *out)
{
	bool split = any_split(r);
	static const char *const header =
	    "trial,warmup,kept,failed,dropped,seconds,bytes,ios,iops,bw_bytes,"
	    "lat_min_ns,lat_max_ns,lat_mean_ns,lat_stddev_ns,lat_rms_ns,lat_p50_ns,lat_p90_ns,"
	    "lat_p95_ns,lat_p99_ns,lat_p99_9_ns,lat_p99_99_ns,cpu_user_s,cpu_sys_s,errors,"
	    "page_cache,page_cache_after,backend,workload,error,log_error,"
	    "read_ios,read_bytes,read_iops,read_bw_bytes,read_lat_mean_ns,read_lat_p99_ns,"
	    "write_ios,write_bytes,write_iops,write_bw_bytes,write_lat_mean_ns,write_lat_p99_ns";

	const char **mkeys = calloc(64, sizeof(*mkeys));
	size_t nm = 0;

	if (!mkeys)
		return -ENOMEM;
	/* One column per matrix key of any instance, in matrix order, first seen first. */
	for (size_t k = 0; k < r->ninst; k++)
		for (uint32_t pos = 1; pos <= r->inst[k].nparams; pos++)
			for (size_t i = 0; i < r->inst[k].nparams; i++) {
				const struct param *pa = &r->inst[k].params[i];
				bool seen = false;
				if (pa->matrix != pos)
					continue;
				for (size_t m = 0; m < nm && !seen; m++)
					seen = !strcmp(mkeys[m], pa->key);
				if (!seen && nm < 64)
					mkeys[nm++] = pa->key;
			}
	fputs("experiment,job", out);
	for (size_t m = 0; m < nm; m++) {
		fputc(',', out);
		quoted(out, mkeys[m], true);
	}
	fprintf(out, ",%s%s\n", header, split ? split_header : "");
	for (size_t k = 0; k < r->ninst; k++) {
		const struct instance_result *ir = &r->inst[k];
		for (size_t i = 0; i < ir->ntrials; i++) {
			const struct trial_result *t = &ir->trials[i];
			const struct lat_summary *l = &t->lat;
			if (!t->ran)
				continue;
			field(out, r->experiment, false);
			field(out, ir->name, false);
			for (size_t m = 0; m < nm; m++) {
				const struct param *pa = results_param(ir, mkeys[m]);
				char num[32];
				if (pa && pa->type == PV_STR) {
					field(out, pa->s, false);
				} else if (pa && pa->type == PV_UINT) {
					snprintf(num, sizeof(num), "%" PRIu64, pa->u);
					number(out, num);
				} else if (pa && pa->type == PV_REAL) {
					snprintf(num, sizeof(num), "%.9g", pa->d);
					number(out, num);
				} else if (pa && pa->type == PV_BOOL) {
					field(out, pa->b ? "true" : "false", false);
				} else {
					field(out, NULL, false);
				}
			}
			fprintf(out, "%" PRIu32 ",%s,%s,%s,%s,", t->index,
				t->warmup ? "true" : "false", t->kept ? "true" : "false",
				t->failed ? "true" : "false", t->dropped ? "true" : "false");
			real(out, t->seconds);
			fprintf(out, "%" PRIu64 ",%" PRIu64 ",", t->bytes, t->ios);
			real(out, t->iops);
			real(out, t->bw_bytes);
			const double lat[] = {l->min, l->max, l->mean, l->stddev, l->rms,   l->p50,
					      l->p90, l->p95, l->p99,  l->p99_9,  l->p99_99};
			for (size_t v = 0; v < sizeof(lat) / sizeof(lat[0]); v++)
				real(out, lat[v]);
			real(out, t->cpu_user_s);
			real(out, t->cpu_sys_s);
			fprintf(out, "%" PRIu64 ",", t->errors);
			real(out, t->cached);
			real(out, t->cached_after);
			field(out, ir->backend, false);
			field(out, ir->workload, false);
			field(out, t->error, false);
			field(out, t->log_error, false);
			for (int d = 0; d < 2; d++) {
				const struct dir_result *dr = &t->dir[d];
				fprintf(out, "%" PRIu64 ",%" PRIu64 ",", dr->ios, dr->bytes);
				real(out, dr->iops);
				real(out, dr->bw_bytes);
				real(out, dr->lat.mean);
				if (isfinite(dr->lat.p99) && d == 0)
					fprintf(out, "%.9g,", dr->lat.p99);
				else if (d == 0)
					fputc(',', out);
				else if (isfinite(dr->lat.p99))
					fprintf(out, "%.9g", dr->lat.p99);
			}
			if (split)
				split_cells(out, t);
			fputc('\n', out);
		}
	}
	free(mkeys);
	return ferror(out) ? -EIO : 0;
}

const struct rep_ops rep_csv = {
    .name = "csv",
    .file = "trials.csv",
    .write = csv_report,
};
