/* fio's workload options in iotrial's workload keys (see import_fio.h): rwmixread as mix,
 * bssplit and bsrange as block_split, random_distribution, fsync and fdatasync as
 * fsync_every and fdatasync_every, prio and prioclass as ioprio, nice; then the rules that
 * look at the job's workload, since fio ignores some of these where iotrial refuses them. */
#include "cli/import_fio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "model/fio_names.h"
#include "model/jobkeys.h"

#define SPLIT_MAX 64 /* sizes in a block_split */

/* fio writes a per-direction value as `read,write[,trim]`; iotrial has one for both. The
 * value when every part is the same, else NULL (malloc'd). */
static char *one_for_all(const char *v)
{
	size_t n = strcspn(v, ",");

	for (const char *p = v + n; *p == ','; p += 1 + n)
		if (strncmp(p + 1, v, n) || (p[1 + n] && p[1 + n] != ','))
			return NULL;
	return strndup(v, n);
}

static bool whole(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (!*s || strspn(s + (*s == '-'), "0123456789") != strlen(s + (*s == '-')))
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* Does iotrial's own check take `text` for key `key`? The reason in `why` if not. */
static bool key_takes(const char *key, const char *text, char *why, size_t len)
{
	const struct job_key *k = job_key_find(key);

	return !k || !k->check || k->check(text, why, len) == 0;
}

int imp_map_mix(struct imp_state *st, const struct imp_opt *o, bool writes)
{
	char text[64];
	long pct;

	if (!whole(imp_opt_value(o), 0, 100, &pct))
		return imp_not_mapped(st, o, "fio takes a percentage from 0 to 100 here");
	if (writes)
		pct = 100 - pct;
	snprintf(text, sizeof(text), "{read: %ld, write: %ld}", pct, 100 - pct);
	st->wl[IMP_WL_MIX] = o;
	return imp_set(st->j, "mix", text, o->global);
}

/* One `size/percent` of a bssplit into *size (bytes as text) and *pct (-1: left out). */
static int split_entry(struct imp_state *st, char *ent, char *size, size_t len, long *pct)
{
	char *slash = strchr(ent, '/');

	*pct = -1;
	if (slash) {
		*slash = 0;
		if (slash[1] && !whole(slash + 1, 0, 100, pct))
			return -EINVAL;
	}
	return fio_size_to_iotrial(ent, st->kb1000, size, len);
}

/* fio draws a bssplit size by walking the running total of the percentages: a share past
 * 100 is cut, and what the list leaves below 100 goes to its last non-zero size. The shares
 * as fio draws them, in place; true when that changed one. */
static bool split_as_drawn(long *pct, size_t n)
{
	long total = 0, last = -1;
	bool changed = false;

	for (size_t i = 0; i < n; i++) {
		long want = pct[i],
		     cut = total >= 100 ? 0 : (want > 100 - total ? 100 - total : want);
		total += want;
		changed |= cut != want;
		pct[i] = cut;
		if (cut)
			last = (long)i;
	}
	if (total < 100 && last >= 0) {
		pct[last] += 100 - total;
		changed = true;
	}
	return changed;
}

/* Left-out percentages share what the others leave, as fio divides it (rounding down). */
static void split_fill(long *pct, size_t n)
{
	long given = 0, missing = 0;

	for (size_t i = 0; i < n; i++) {
		given += pct[i] < 0 ? 0 : pct[i];
		missing += pct[i] < 0;
	}
	for (size_t i = 0; i < n; i++)
		if (pct[i] < 0)
			pct[i] = given >= 100 ? 0 : (100 - given) / missing;
}

static int write_split(struct imp_state *st, const struct imp_opt *o, char sizes[][32], long *pct,
		       size_t n)
{
	char text[SPLIT_MAX * 48], why[256];
	size_t w = 0;
	bool changed;

	split_fill(pct, n);
	changed = split_as_drawn(pct, n);
	for (size_t i = 0; i < n; i++)
		if (pct[i])
			w += (size_t)snprintf(text + w, sizeof(text) - w, "%s%s:%ld", w ? "," : "",
					      sizes[i], pct[i]);
	if (!w)
		return imp_not_mapped(st, o, "no size has a share above 0%");
	if (!key_takes("block_split", text, why, sizeof(why)))
		return imp_not_mapped(st, o, why);
	st->wl[IMP_WL_SPLIT] = o;
	if (imp_set_scalar(st, o, "block_split", text) < 0)
		return -ENOMEM;
	return changed
		   ? imp_note(
			 st, o,
			 "the shares as fio draws them: a share past 100% is cut, and the last size gets what the list leaves")
		   : 0;
}

int imp_map_bssplit(struct imp_state *st, const struct imp_opt *o)
{
	char *v = one_for_all(imp_opt_value(o)), *save = NULL, sizes[SPLIT_MAX][32];
	long pct[SPLIT_MAX];
	size_t n = 0;
	int ret = 0;

	if (!v)
		return imp_not_mapped(st, o, "iotrial has one block-size mix for reads and writes");
	for (char *ent = strtok_r(v, ":", &save); ent && ret == 0;
	     ent = strtok_r(NULL, ":", &save)) {
		if (n == SPLIT_MAX)
			ret = -E2BIG;
		else
			ret = split_entry(st, ent, sizes[n], sizeof(sizes[n]), &pct[n]);
		n += ret == 0;
	}
	free(v);
	if (ret == -E2BIG)
		return imp_not_mapped(st, o, "iotrial's block_split takes at most 64 sizes");
	if (ret < 0 || !n)
		return imp_not_mapped(
		    st, o, "expected SIZE/PERCENT:SIZE/PERCENT..., whole percentages, fio's sizes");
	return write_split(st, o, sizes, pct, n);
}

/* bsrange: fio draws MIN + MAX x u (u uniform in [0, 1)), rounded down to a multiple of MIN
 * and cut at MAX: the multiples of MIN up to MAX alike when MAX is one, as iotrial's range. */
int imp_map_bsrange(struct imp_state *st, const struct imp_opt *o)
{
	char *v = one_for_all(imp_opt_value(o)), lo[32], hi[32], text[72];
	uint64_t a, b;
	const char *why;
	size_t n;
	int ret;

	if (!v)
		return imp_not_mapped(st, o,
				      "iotrial has one block-size range for reads and writes");
	n = strcspn(v, "-:");
	if (!v[n]) {
		free(v);
		return imp_not_mapped(st, o, "expected MIN-MAX");
	}
	v[n] = 0;
	ret = fio_size_to_iotrial(v, st->kb1000, lo, sizeof(lo)) < 0 ||
	      fio_size_to_iotrial(v + n + 1, st->kb1000, hi, sizeof(hi)) < 0;
	free(v);
	if (ret || units_parse_size(lo, &a, &why) < 0 || units_parse_size(hi, &b, &why) < 0 || !a ||
	    a > b)
		return imp_not_mapped(st, o, "expected MIN-MAX, fio sizes with MIN <= MAX");
	if (a == b)
		return imp_set_scalar(st, o, "block_size", lo);
	if (b % a)
		return imp_not_mapped(
		    st, o,
		    "fio cuts its sizes at MAX, which is not a multiple of MIN, so MAX comes up more often than the others; iotrial draws the multiples of MIN alike");
	snprintf(text, sizeof(text), "%s-%s", lo, hi);
	st->wl[IMP_WL_SPLIT] = o;
	return imp_set_scalar(st, o, "block_split", text);
}

/* random_distribution: fio's names are iotrial's (random is uniform, gauss is normal). */
int imp_map_dist(struct imp_state *st, const struct imp_opt *o)
{
	char *v = one_for_all(imp_opt_value(o)), text[512], why[256];
	const char *rest;
	size_t colons = 0;

	if (!v)
		return imp_not_mapped(st, o, "iotrial has one distribution for reads and writes");
	rest = strchr(v, ':') ? strchr(v, ':') : "";
	for (const char *p = rest; *p; p++)
		colons += *p == ':';
	if (!strcmp(v, "random"))
		snprintf(text, sizeof(text), "uniform");
	else if (!strncmp(v, "gauss", 5) && (!v[5] || v[5] == ':'))
		snprintf(text, sizeof(text), "normal%s", v + 5);
	else
		snprintf(text, sizeof(text), "%s", v);
	free(v);
	if (!strncmp(text, "zoned_abs", 9))
		return imp_not_mapped(
		    st, o, "iotrial's zones are percentages of the region (zoned:), not sizes");
	if ((!strncmp(text, "zipf", 4) || !strncmp(text, "pareto", 6)) && colons > 1)
		return imp_not_mapped(
		    st, o,
		    "iotrial scatters zipf's and pareto's hot blocks over the region; it takes no centre for them");
	if (!key_takes("distribution", text, why, sizeof(why)))
		return imp_not_mapped(st, o, why);
	st->wl[IMP_WL_DIST] = o;
	if (imp_set_scalar(st, o, "distribution", text) < 0)
		return -ENOMEM;
	if (!strncmp(text, "normal", 6))
		return imp_note(
		    st, o,
		    "iotrial's normal keeps its hot part in one piece around the centre; fio scatters its draws with a hash (the share of hot blocks is the same, their places are not)");
	return 0;
}

/* fsync=N, fdatasync=N: a sync after every N writes; 0 is none, iotrial's default. */
int imp_map_sync_every(struct imp_state *st, const struct imp_opt *o, const char *key)
{
	long n;

	if (!whole(imp_opt_value(o), 0, 1000000000, &n))
		return imp_not_mapped(st, o, "not a whole number");
	st->wl[strcmp(key, "fsync_every") ? IMP_WL_FDATASYNC : IMP_WL_FSYNC] = n ? o : NULL;
	if (!n)
		return imp_default(st, o, key);
	return imp_set_scalar(st, o, key, imp_opt_value(o));
}

int imp_map_nice(struct imp_state *st, const struct imp_opt *o)
{
	long n;

	if (!whole(imp_opt_value(o), -20, 19, &n))
		return imp_not_mapped(st, o, "fio takes a nice value from -20 to 19");
	return imp_set_scalar(st, o, "nice", imp_opt_value(o));
}

int imp_map_prio(struct imp_state *st, const struct imp_opt *o, bool cls)
{
	long n;

	if (!whole(imp_opt_value(o), 0, cls ? 3 : 7, &n))
		return imp_not_mapped(st, o,
				      cls ? "fio's prioclass is 0 to 3" : "fio's prio is 0 to 7");
	st->wl[cls ? IMP_WL_PRIOCLASS : IMP_WL_PRIO] = o;
	return 0;
}

/* ioprio from prio and prioclass together. fio's class 0 is best effort, and a class without
 * prio takes level 0 (iotrial's level would default to 4). */
static int resolve_ioprio(struct imp_state *st)
{
	static const char *const classes[] = {"be", "rt", "be", "idle"};
	const struct imp_opt *p = st->wl[IMP_WL_PRIO], *c = st->wl[IMP_WL_PRIOCLASS];
	char text[64];

	if (!p && !c)
		return 0;
	snprintf(text, sizeof(text), "{class: %s, level: %s}",
		 classes[c ? atoi(imp_opt_value(c)) : 0], p ? imp_opt_value(p) : "0");
	return imp_set(st->j, "ioprio", text, (!p || p->global) && (!c || c->global));
}

static const char *imp_get(const struct imp_job *j, const char *key)
{
	for (size_t i = 0; i < j->n; i++)
		if (j->e[i].key && !strcmp(j->e[i].key, key))
			return j->e[i].value;
	return NULL;
}

/* Option `w` of the job does not apply to its workload: out, with a note (fio ignores it
 * there) or a "not mapped" line (fio does it, iotrial cannot). */
static int imp_off(struct imp_state *st, enum imp_wl w, const char *key, bool fio_ignores,
		   const char *why)
{
	const struct imp_opt *o = st->wl[w];

	st->wl[w] = NULL;
	if (!o || !imp_drop(st->j, key))
		return 0;
	return fio_ignores ? imp_note(st, o, why) : imp_not_mapped(st, o, why);
}

static bool one_of(const char *s, const char *const *list)
{
	for (size_t i = 0; s && list[i]; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

int imp_resolve_workload(struct imp_state *st)
{
	static const char *const mixed[] = {"readwrite", "randrw", NULL};
	static const char *const random[] = {"randread", "randwrite", "randrw", NULL};
	static const char *const writes[] = {"write", "randwrite", NULL};
	static const char *const reads[] = {"read", "randread", NULL};
	const char *wl = imp_get(st->j, "workload");
	bool mix = one_of(wl, mixed);
	int ret = 0;

	if (!wl) /* rw was not mapped: nothing to weigh the others against */
		return resolve_ioprio(st);
	if (!mix)
		ret = imp_off(st, IMP_WL_MIX, "mix", true,
			      "fio mixes reads and writes only for rw=rw and rw=randrw");
	if (!ret && !one_of(wl, random))
		ret = imp_off(st, IMP_WL_DIST, "distribution", true,
			      "a sequential job draws no offsets");
	if (!ret && one_of(wl, reads)) {
		ret = imp_off(st, IMP_WL_FSYNC, "fsync_every", true,
			      "a read job has no writes to sync");
		if (!ret)
			ret = imp_off(st, IMP_WL_FDATASYNC, "fdatasync_every", true,
				      "a read job has no writes to sync");
	}
	if (!ret && !one_of(wl, writes) && !one_of(wl, reads)) {
		ret = imp_off(st, IMP_WL_FSYNC, "fsync_every", false,
			      "iotrial syncs every N writes in write and randwrite jobs only");
		if (!ret)
			ret = imp_off(
			    st, IMP_WL_FDATASYNC, "fdatasync_every", false,
			    "iotrial syncs every N writes in write and randwrite jobs only");
	}
	if (!ret && st->wl[IMP_WL_FSYNC] && st->wl[IMP_WL_FDATASYNC])
		ret = imp_off(st, IMP_WL_FDATASYNC, "fdatasync_every", false,
			      "iotrial syncs with fsync or fdatasync, not both; fsync is kept");
	if (!ret && mix)
		ret = imp_off(
		    st, IMP_WL_SPLIT, "block_split", false,
		    "iotrial's block-size mixes are for read, write, randread and randwrite");
	if (!ret && mix)
		ret = imp_off(st, IMP_WL_OFFSET, "offset", false,
			      "iotrial's offset is for read, write, randread and randwrite");
	if (!ret && mix)
		ret = imp_off(
		    st, IMP_WL_OFFSET_INC, "offset_increment", false,
		    "iotrial's offset_increment is for read, write, randread and randwrite");
	return ret < 0 ? ret : resolve_ioprio(st);
}

/* What the mapped options say to each other: a block-size mix decides the sizes (fio takes
 * bssplit over bsrange over bs); a time bound leaves io_size nothing to bound;
 * offset_increment needs the workers in one file. */
int imp_resolve_sizes(struct imp_state *st)
{
	const struct imp_opt *split = st->wl[IMP_WL_SPLIT], *inc = st->wl[IMP_WL_OFFSET_INC];
	const char *threads, *fpt;
	int ret = 0;

	if (split && imp_get(st->j, "block_size") && st->bs) {
		imp_drop(st->j, "block_size");
		ret = imp_note(st, st->bs, "the block-size mix decides the sizes, as in fio");
	}
	if (!ret && imp_get(st->j, "runtime") && st->wl[IMP_WL_IO_LIMIT])
		ret = imp_off(st, IMP_WL_IO_LIMIT, "io_limit", true,
			      "with time_based fio runs for runtime, however much it moves");
	/* looked up after the drops above, which move the entries */
	threads = imp_get(st->j, "threads");
	fpt = imp_get(st->j, "file_per_thread");
	if (!ret && inc && threads && strcmp(threads, "1") && (!fpt || strcmp(fpt, "false")))
		ret = imp_off(
		    st, IMP_WL_OFFSET_INC, "offset_increment", false,
		    "without a filename each of fio's numjobs has a file of its own; iotrial's offset_increment places workers that share one file (give filename)");
	return ret;
}
