/* One fio job's options as iotrial job keys (see import_fio.h): each option through its row
 * of model/fio_names.h, then the rules that take several options together (runtime with
 * time_based, filename with directory, iodepth on a synchronous engine). */
#include "cli/import_fio.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fio_names.h"
#include "model/jobkeys.h"

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* `a,b` (fio's read,write pair) when both halves are the same: that one value; else NULL. */
static char *one_of_pair(const char *v)
{
	const char *comma = strchr(v, ',');

	if (!comma)
		return strdup(v);
	if (strchr(comma + 1, ',') || strlen(comma + 1) != (size_t)(comma - v) ||
	    strncmp(v, comma + 1, (size_t)(comma - v)))
		return NULL;
	return strndup(v, (size_t)(comma - v));
}

/* file_size: N% is a part of the target, as fio's size=N%; no other size is relative. */
static int map_size(struct imp_state *st, const struct imp_opt *o, const char *key, const char *v)
{
	char out[64];

	if (strchr(v, '%') && !strcmp(key, "file_size"))
		return imp_set_scalar(st, o, key, v);
	if (strchr(v, '%'))
		return imp_not_mapped(
		    st, o,
		    "a percentage of the file: iotrial's offset, offset_increment and io_limit are sizes");
	if (fio_size_to_iotrial(v, st->kb1000, out, sizeof(out)) < 0)
		return imp_not_mapped(st, o, "not a size iotrial can read");
	return imp_set_scalar(st, o, key, out);
}

/* size, offset, offset_increment, io_size: a size; the last three are weighed against the
 * workload later (import_fio_wl.c), and 0 is iotrial's default for them. */
static int map_placement(struct imp_state *st, const struct imp_opt *o, const char *key,
			 const char *v)
{
	static const struct {
		const char *key;
		enum imp_wl wl;
	} placed[] = {{"offset", IMP_WL_OFFSET},
		      {"offset_increment", IMP_WL_OFFSET_INC},
		      {"io_limit", IMP_WL_IO_LIMIT}};

	for (size_t i = 0; i < sizeof(placed) / sizeof(placed[0]); i++) {
		if (strcmp(key, placed[i].key))
			continue;
		st->wl[placed[i].wl] = NULL;
		if (strspn(v, "0") == strlen(v))
			return imp_default(st, o, key);
		st->wl[placed[i].wl] = o;
	}
	return map_size(st, o, key, v);
}

static int map_pair(struct imp_state *st, const struct imp_opt *o, const char *key, bool size)
{
	char *one = one_of_pair(imp_opt_value(o));
	int ret;

	if (!one)
		return imp_not_mapped(st, o, "iotrial has one value for reads and writes");
	if (size)
		ret = map_size(st, o, key, one);
	else if (all_digits(one))
		ret = imp_set_scalar(st, o, key, one);
	else
		ret = imp_not_mapped(st, o, "not a whole number");
	free(one);
	return ret;
}

static int map_bool(struct imp_state *st, const struct imp_opt *o, const char *key, bool invert)
{
	const char *v = imp_opt_value(o);

	if (strcmp(v, "0") && strcmp(v, "1"))
		return imp_not_mapped(st, o, "fio takes 0 or 1 here");
	return imp_set(st->j, key, (*v == '1') != invert ? "true" : "false", o->global);
}

/* An option of fio's io_uring engine, or a batch size iotrial has on io_uring only: the key of
 * iotrial's io_uring backend when the job's engine is io_uring. */
static int map_uring(struct imp_state *st, const struct imp_opt *o, const char *key)
{
	const struct job_key *k = job_key_find(key);
	const char *v = imp_opt_value(o);
	char msg[160];

	if (!st->engine_name || strcmp(st->engine_name, "io_uring")) {
		snprintf(
		    msg, sizeof(msg),
		    "iotrial has it on its io_uring backend only (%s); this job's ioengine is %s",
		    key, st->engine_name ? st->engine_name : "fio's default, psync");
		return imp_not_mapped(st, o, msg);
	}
	if (k && k->type == KT_BOOL)
		return map_bool(st, o, key, false);
	if (!all_digits(v))
		return imp_not_mapped(st, o, "not a whole number");
	if (k && (strlen(v) > 19 || strtoull(v, NULL, 10) > k->max)) {
		snprintf(msg, sizeof(msg), "above what %s takes (%llu)", key,
			 (unsigned long long)k->max);
		return imp_not_mapped(st, o, msg);
	}
	if (!strcmp(v, "0") && !strcmp(key, "io_uring_batch_submit"))
		return imp_not_mapped(st, o, "fio's 0 is the iodepth: write the number");
	if (!strcmp(v, "0") && !strcmp(key, "io_uring_batch_complete_min"))
		return imp_not_mapped(
		    st, o, "fio's 0 polls without waiting; iotrial waits for at least one");
	if (!strcmp(key, "io_uring_batch_complete_min"))
		st->batch_min = o;
	if (!strcmp(key, "io_uring_batch_complete_max"))
		st->batch_max = o;
	return imp_set_scalar(st, o, key, v);
}

/* fio takes at most iodepth_batch_complete_min completions at a time unless _max says more
 * (a _max of 0, or below _min, is raised to _min, 1 by default); iotrial's default is up to
 * iodepth, and it refuses a max below the min. */
static int resolve_uring(struct imp_state *st)
{
	const char *min = st->batch_min ? imp_opt_value(st->batch_min) : "1";
	const struct imp_opt *at = st->batch_max ? st->batch_max : st->batch_min;

	if (!at || (st->batch_max && strtoull(imp_opt_value(st->batch_max), NULL, 10) != 0 &&
		    strtoull(imp_opt_value(st->batch_max), NULL, 10) >= strtoull(min, NULL, 10)))
		return 0;
	return imp_set_scalar(st, at, "io_uring_batch_complete_max", min);
}

static int map_rw(struct imp_state *st, const struct imp_opt *o)
{
	static const char *const same[][2] = {{"read", "read"},		{"write", "write"},
					      {"randread", "randread"}, {"randwrite", "randwrite"},
					      {"rw", "readwrite"},	{"readwrite", "readwrite"},
					      {"randrw", "randrw"},	{NULL, NULL}};
	const struct job_key *k = job_key_find("workload");
	const char *v = imp_opt_value(o);

	if (strchr(v, ':'))
		return imp_not_mapped(st, o,
				      "iotrial does not skip holes between I/Os (fio's rw=...:N)");
	for (size_t i = 0; same[i][0]; i++) {
		if (strcmp(v, same[i][0]))
			continue;
		for (size_t e = 0; k->enums[e]; e++)
			if (!strcmp(k->enums[e], same[i][1]))
				return imp_set(st->j, "workload", same[i][1], o->global);
		return imp_not_mapped(st, o, "this build has no such workload");
	}
	return imp_not_mapped(st, o, "iotrial reads and writes; it does not trim");
}

static int map_engine(struct imp_state *st, const struct imp_opt *o)
{
	static const char *const as_is[] = {"libaio", "io_uring", "null", NULL};
	static const char *const sync_like[] = {"psync", "pvsync", "pvsync2",
						"vsync", "sync",   NULL};
	const char *v = imp_opt_value(o);

	st->engine = o;
	for (size_t i = 0; as_is[i]; i++)
		if (!strcmp(v, as_is[i]))
			return imp_set(st->j, "backend", v, o->global);
	for (size_t i = 0; sync_like[i]; i++)
		if (!strcmp(v, sync_like[i]))
			return imp_set(st->j, "backend", "sync", o->global);
	return imp_not_mapped(st, o, "iotrial has no such backend (iotrial backends lists them)");
}

static int map_sync(struct imp_state *st, const struct imp_opt *o)
{
	const char *v = imp_opt_value(o);

	if (!strcmp(v, "0") || !strcmp(v, "none"))
		return imp_set(st->j, "sync", "none", o->global);
	if (!strcmp(v, "1") || !strcmp(v, "sync"))
		return imp_set(st->j, "sync", "osync", o->global);
	if (!strcmp(v, "dsync"))
		return imp_set(st->j, "sync", "odsync", o->global);
	return imp_not_mapped(st, o, "fio's sync takes none, sync, dsync, 0 or 1");
}

/* fio's `a:b:c` as the YAML list [a, b, c]. */
static int map_list(struct imp_state *st, const struct imp_opt *o, const char *key)
{
	const struct job_key *k = job_key_find(key);
	const char *v = imp_opt_value(o);
	char *out = malloc(2 * strlen(v) + 3), *w = out, why[160];

	if (!out)
		return -ENOMEM;
	/* The key's own check reads the list as its command-line text: commas for colons. */
	strcpy(out, v);
	for (char *c = strchr(out, ':'); c; c = strchr(c + 1, ':'))
		*c = ',';
	if (k && k->check && k->check(out, why, sizeof(why)) < 0) {
		free(out);
		return imp_not_mapped(st, o, why);
	}
	*w++ = '[';
	for (const char *p = v; *p; p++)
		w += *p == ':' ? sprintf(w, ", ") : sprintf(w, "%c", *p);
	strcpy(w, "]");
	int ret = imp_set(st->j, key, out, o->global);
	free(out);
	return ret;
}

static int map_time(struct imp_state *st, const struct imp_opt *o, const char *key, bool us)
{
	char out[64];

	if (fio_time_to_iotrial(imp_opt_value(o), us, out, sizeof(out)) < 0)
		return imp_not_mapped(st, o, "not a time iotrial can read");
	return imp_set_scalar(st, o, key, out);
}

/* A value that holds ${VAR} is kept as it is: iotrial expands it when it reads the file. */
static int map_variable(struct imp_state *st, const struct imp_opt *o, const struct fio_name *r)
{
	const struct job_key *k = job_key_find(r->key);
	int ret = imp_set_scalar(st, o, r->key, imp_opt_value(o));

	if (ret < 0 || !k || k->type == KT_STRING)
		return ret;
	return imp_note(
	    st, o,
	    "kept as a variable: give it in iotrial's units (4KiB, not 4k; 10s; true, not 1), and set it: iotrial stops on an unset variable where fio reads it as empty");
}

static int map_opt(struct imp_state *st, const struct imp_opt *o, char **top_name, char **top_desc)
{
	const struct fio_name *r = fio_name_find(o->o->key);
	const char *v = imp_opt_value(o);
	char msg[256];

	if (!r) {
		snprintf(msg, sizeof(msg), "iotrial has no equivalent of fio's '%s'", o->o->key);
		return imp_not_mapped(st, o, msg);
	}
	if (r->conv == FC_NONE)
		return imp_not_mapped(st, o, r->why);
	if (!fio_name_mapped(r)) {
		snprintf(msg, sizeof(msg),
			 job_key_find(r->key) ? "iotrial's '%s' does not take this yet (%s)"
					      : "iotrial has no '%s' key yet (%s)",
			 r->key, r->pending ? r->pending : "not in this build");
		st->unmapped++;
		return imp_comment(st->j, o->global, true, "not mapped yet: %s=%s (line %u): %s",
				   o->o->key, v, o->o->line, msg);
	}
	if (strstr(v, "$pagesize") || strstr(v, "$mb_memory") || strstr(v, "$ncpus") || *v == '(')
		return imp_not_mapped(st, o,
				      "fio computes this value when it runs; write the number");
	if (strstr(v, "${") && r->key && r->conv != FC_STONEWALL && r->conv != FC_WAIT_FOR &&
	    r->conv != FC_RUNTIME && r->conv != FC_FILENAME && r->conv != FC_DIRECTORY)
		return map_variable(st, o, r);
	if (!r->key) /* a row without a key: new_group, kb_base, ... */
		return r->conv == FC_NOTE ? imp_note(st, o, r->why) : 0;
	switch (r->conv) {
	case FC_NONE:
	case FC_KB_BASE:
		return 0;
	case FC_NOTE:
		return imp_note(st, o, r->why);
	case FC_COUNT:
		if (!strcmp(r->key, "iodepth"))
			st->iodepth = o;
		if (!all_digits(v))
			return imp_not_mapped(st, o, "not a whole number");
		return imp_set_scalar(st, o, r->key, v);
	case FC_SIZE:
		return map_placement(st, o, r->key, v);
	case FC_BS:
		st->bs = o;
		return map_pair(st, o, r->key, true);
	case FC_RATE:
		return map_pair(st, o, r->key, true);
	case FC_RATE_IOPS:
		return map_pair(st, o, r->key, false);
	case FC_BSRANGE:
		return imp_map_bsrange(st, o);
	case FC_BSSPLIT:
		return imp_map_bssplit(st, o);
	case FC_DIST:
		return imp_map_dist(st, o);
	case FC_SYNC_EVERY:
		return imp_map_sync_every(st, o, r->key);
	case FC_NICE:
		return imp_map_nice(st, o);
	case FC_PRIO:
	case FC_PRIOCLASS:
		return imp_map_prio(st, o, r->conv == FC_PRIOCLASS);
	case FC_CPUS_POLICY:
		if (!strcmp(v, "shared"))
			return imp_note(st, o, r->why);
		return imp_not_mapped(
		    st, o,
		    "iotrial lets every worker run on every CPU of cpus (fio's shared policy)");
	case FC_TIME_S:
		return map_time(st, o, r->key, false);
	case FC_TIME_US:
		return map_time(st, o, r->key, true);
	case FC_RUNTIME:
		st->runtime = o;
		return 0;
	case FC_TIME_BASED:
		st->time_based = o;
		st->time_based_on = strcmp(v, "0") != 0;
		return 0;
	case FC_BOOL:
		return map_bool(st, o, r->key, false);
	case FC_BOOL_NOT:
		return map_bool(st, o, r->key, true);
	case FC_RW:
		return map_rw(st, o);
	case FC_MIX_READ:
	case FC_MIX_WRITE:
		return imp_map_mix(st, o, r->conv == FC_MIX_WRITE);
	case FC_ENGINE:
		return map_engine(st, o);
	case FC_URING:
		return map_uring(st, o, r->key);
	case FC_SYNC:
		return map_sync(st, o);
	case FC_END_FSYNC:
		if (!strcmp(v, "0"))
			return 0; /* iotrial's default too */
		return imp_set(st->j, "sync", "fsync_end", o->global);
	case FC_FILENAME:
		st->filename = o;
		return 0;
	case FC_DIRECTORY:
		st->directory = o;
		return 0;
	case FC_LIST:
		return map_list(st, o, r->key);
	case FC_STRING:
		return imp_set_scalar(st, o, r->key, v);
	case FC_STONEWALL:
		st->j->leader |= strcmp(v, "0") != 0;
		return 0;
	case FC_WAIT_FOR:
		free(st->j->wait_for);
		st->j->wait_for = strdup(v);
		st->j->wait_line = o->o->line;
		return st->j->wait_for ? 0 : -ENOMEM;
	case FC_NAME:
		if (o->global) {
			free(*top_name);
			return (*top_name = strdup(v)) ? 0 : -ENOMEM;
		}
		free(st->j->name);
		return (st->j->name = imp_safe_name(v)) ? 0 : -ENOMEM;
	case FC_DESCRIPTION:
		if (o->global) {
			free(*top_desc);
			return (*top_desc = strdup(v)) ? 0 : -ENOMEM;
		}
		return imp_note(st, o, "an iotrial job has no description of its own");
	case FC_VERIFY:
		if (!strcmp(v, "0") || !strcmp(v, "none"))
			return imp_set(st->j, "verify", "false", o->global);
		if (strcmp(v, "1") &&
		    imp_note(
			st, o,
			"iotrial checks its own pattern (the offset, a seed and a CRC-32 in every 512 bytes), whatever checksum fio names") <
			0)
			return -ENOMEM;
		return imp_set(st->j, "verify", "true", o->global);
	case FC_THREAD:
		return imp_set(st->j, "worker_mode", strcmp(v, "0") ? "thread" : "process",
			       o->global);
	}
	return 0;
}

/* runtime counts as a time bound only with time_based: without it fio stops a job at its
 * size or its runtime, whichever comes first, and iotrial has no such double bound. */
static int resolve_runtime(struct imp_state *st)
{
	const struct imp_opt *rt = st->runtime, *tb = st->time_based;
	char out[64];

	if (rt && st->time_based_on) {
		if (strstr(imp_opt_value(rt), "${"))
			snprintf(out, sizeof(out), "%s", imp_opt_value(rt));
		else if (fio_time_to_iotrial(imp_opt_value(rt), false, out, sizeof(out)) < 0)
			return imp_not_mapped(st, rt, "not a time iotrial can read");
		char *y = imp_yaml_scalar(out);
		int ret = y ? imp_set(st->j, "runtime", y, rt->global && tb->global) : -ENOMEM;
		free(y);
		return ret;
	}
	if (rt && strcmp(imp_opt_value(rt), "0"))
		return imp_not_mapped(
		    st, rt,
		    "without time_based fio stops at size or runtime, whichever comes first; iotrial bounds a trial by one of them (add time_based for a time bound, or drop runtime for a size bound)");
	if (tb && st->time_based_on)
		return imp_not_mapped(
		    st, tb,
		    "time_based without runtime: fio runs until it is stopped; set runtime");
	return 0;
}

/* A file under /dev is a device, never a file to make: a target that is a device's path
 * must exist (a block device, used as it is, written only with allow_overwrite and never
 * mounted), where a plain missing path would be created. import_fio.c names the devices. */
static int device_target(struct imp_state *st, const struct imp_opt *fn, char *path, bool global)
{
	const char *base = strrchr(path, '/') + 1;
	char *name = imp_safe_name(*base ? base : "dev");
	int ret = name ? 0 : -ENOMEM;

	if (!ret)
		ret = imp_set(st->j, "device", name, global);
	if (!ret)
		ret = imp_set(st->j, "target", "\"{device}\"", global);
	if (!ret)
		ret = imp_set(st->j, "file_per_thread", "false", fn->global);
	free(name);
	free(st->j->dev_path);
	st->j->dev_path = path;
	if (!ret)
		ret = imp_note(
		    st, fn,
		    "a device (devices:), which must exist: iotrial never makes a file under /dev; it writes to a device only with allow_overwrite: true (or --force), and never to a mounted one");
	return ret;
}

/* filename and directory make one target; a shared file is file_per_thread: false, as fio's
 * numjobs share a filename. */
static int resolve_target(struct imp_state *st)
{
	const struct imp_opt *fn = st->filename, *dir = st->directory;
	bool global = (!fn || fn->global) && (!dir || dir->global);
	char *path = NULL, *y;
	int ret;

	if (fn && strchr(imp_opt_value(fn), ':'))
		return imp_not_mapped(st, fn,
				      "iotrial's target is one file; fio's ':' list names several");
	if (dir && strchr(imp_opt_value(dir), ':'))
		return imp_not_mapped(
		    st, dir, "iotrial's target is one folder; fio's ':' list names several");
	if (!fn && !dir)
		return 0;
	if (fn && dir && fn->o->value[0] != '/')
		ret = asprintf(&path, "%s/%s", imp_opt_value(dir), imp_opt_value(fn));
	else if (fn)
		ret = asprintf(&path, "%s", imp_opt_value(fn));
	else
		ret = asprintf(&path, "%s/", imp_opt_value(dir));
	if (ret < 0)
		return -ENOMEM;
	if (fn && !strncmp(path, "/dev/", 5))
		return device_target(st, fn, path, global);
	y = imp_yaml_scalar(path);
	ret = y ? imp_set(st->j, "target", y, global) : -ENOMEM;
	free(y);
	free(path);
	if (!ret && fn)
		ret = imp_set(st->j, "file_per_thread", "false", fn->global);
	return ret;
}

/* fio's synchronous engines (psync, its default) ignore iodepth; iotrial's sync refuses it. */
static int resolve_iodepth(struct imp_state *st)
{
	const char *eng = st->engine ? imp_opt_value(st->engine) : "psync";

	if (!strcmp(eng, "libaio") || !strcmp(eng, "io_uring") || !strcmp(eng, "null"))
		return 0;
	for (size_t i = 0; i < st->j->n; i++) {
		struct imp_entry *e = &st->j->e[i];
		char *text = NULL;
		if (!e->key || strcmp(e->key, "iodepth") ||
		    strspn(e->value, "0123456789") != strlen(e->value) || atoi(e->value) <= 1)
			continue;
		if (asprintf(
			&text,
			"note: iodepth=%s (line %u): fio's %s engine does one I/O at a time and ignores it, as iotrial's sync backend does (left out)",
			e->value, st->iodepth ? st->iodepth->o->line : 0, eng) < 0)
			return -ENOMEM;
		free(e->key);
		free(e->value);
		e->key = NULL;
		e->value = text;
		e->global = e->global && (!st->engine || st->engine->global);
	}
	return 0;
}

/* fio applies rate and rate_iops both (the tighter one holds); iotrial takes one of them. */
static int resolve_rates(struct imp_state *st)
{
	struct imp_entry *rate = NULL, *iops = NULL;

	for (size_t i = 0; i < st->j->n; i++) {
		if (st->j->e[i].key && !strcmp(st->j->e[i].key, "rate"))
			rate = &st->j->e[i];
		if (st->j->e[i].key && !strcmp(st->j->e[i].key, "rate_iops"))
			iops = &st->j->e[i];
	}
	if (!rate || !iops)
		return 0;
	char *text = NULL;
	if (asprintf(
		&text,
		"not mapped: rate_iops=%s: fio holds to both rate and rate_iops; iotrial takes one limit, and keeps rate (%s)",
		iops->value, rate->value) < 0)
		return -ENOMEM;
	free(iops->key);
	free(iops->value);
	iops->key = NULL;
	iops->value = text;
	iops->unmapped = true;
	iops->global = iops->global && rate->global;
	st->unmapped++;
	return 0;
}

int imp_map_job(struct imp_job *j, const struct imp_opt *opts, size_t n, char **top_name,
		char **top_desc)
{
	struct imp_state st = {.j = j};
	bool has_rw = false;
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		if (!strcmp(opts[i].o->key, "kb_base"))
			st.kb1000 = opts[i].o->value && !strcmp(opts[i].o->value, "1000");
		has_rw |= !strcmp(opts[i].o->key, "rw") || !strcmp(opts[i].o->key, "readwrite");
		if (!strcmp(opts[i].o->key, "ioengine"))
			st.engine_name = imp_opt_value(&opts[i]);
	}
	if (!has_rw)
		ret =
		    imp_comment(j, true, false, "note: fio reads sequentially when rw is not set");
	if (!ret && !has_rw)
		ret = imp_set(j, "workload", "read", true);
	for (size_t i = 0; i < n && ret >= 0; i++)
		ret = map_opt(&st, &opts[i], top_name, top_desc);
	if (ret >= 0)
		ret = resolve_runtime(&st);
	if (ret >= 0)
		ret = resolve_target(&st);
	if (ret >= 0)
		ret = resolve_iodepth(&st);
	if (ret >= 0)
		ret = resolve_rates(&st);
	if (ret >= 0)
		ret = imp_resolve_workload(&st);
	if (ret >= 0)
		ret = imp_resolve_sizes(&st);
	if (ret >= 0)
		ret = resolve_uring(&st);
	return ret < 0 ? ret : st.unmapped;
}
