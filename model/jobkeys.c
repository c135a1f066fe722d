/* The job key table and the small lookups around it (see jobkeys.h). */
#include "model/jobkeys.h"

#include "model/pctlist.h"
#include "model/wlopts.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const workload_names[] = {"read",   "write",	   "randread", "randwrite",
					     "copy",   "copytree", "command",  "readwrite",
					     "randrw", NULL};
static const char *const worker_mode_names[] = {"thread", "process", NULL};
static const char *const layout_names[] = {"per_rank", "shared", "strided", NULL};
static const char *const stonewall_names[] = {"none", "time", "first_done", "wear_out", NULL};
static const char *const sync_names[] = {"none", "osync", "odsync", "fsync_end", NULL};
static const char *const sched_names[] = {"other", "fifo", "rr", NULL};

#define OFF(f) offsetof(struct job_spec, f)
#define KiB    1024ULL
#define GiB    (1024ULL * 1024 * 1024)
#define TiB    (1024ULL * GiB)
#define SEC    1000000000ULL

/* Rows list fields in order and stop after `example`: dmin and dmax are zero except in the
 * KT_DOUBLE rows that set them. clang's -Wextra flags every shorter row; gcc does not. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const struct job_key job_keys[JK_NKEYS] =
    {
	[JK_WORKLOAD] =
	    {"workload", KT_ENUM, OFF(workload), NULL, 0, 0, workload_names,
	     "what each trial does: read, write (sequential), randread, randwrite (uniform random offsets aligned to block_size), readwrite, randrw (reads and writes mixed, see mix), copy (source file to a new file in target, buffer_size at a time)",
	     "workload: randread"},
	[JK_MIX] =
	    {"mix", KT_STRING, OFF(mix), NULL, 0, 0, NULL,
	     "readwrite, randrw: the shares of reads and writes, in percent, adding to 100 (fio's rwmixread, rwmixwrite); each I/O's direction is a seeded draw; default: 50 and 50",
	     "mix: {read: 70, write: 30}", 0, 0, wl_mix_check},

	[JK_DEVICE] =
	    {"device", KT_STRING, OFF(device), NULL, 0, 0, NULL,
	     "a device name from `devices:`; {device} in target and source stands for its path",
	     "device: usb"},
	[JK_TARGET] =
	    {"target", KT_STRING, OFF(target), NULL, 0, 0, NULL,
	     "folder that receives a scratch file, or a file; {device} is a device's path; default: the run's scratch folder",
	     "target: \"{device}\""},
	[JK_SOURCE] =
	    {"source", KT_STRING, OFF(source), NULL, 0, 0, NULL,
	     "copy: the file to read; when it does not exist iotrial lays it out (file_size bytes) and removes it at the end",
	     "source: \"${SOURCE_DIR:-${scratch}}/file.bin\""},
	[JK_FILE_SIZE] =
	    {"file_size", KT_SIZE, OFF(file_size), "64MiB", 1, 16 * TiB, NULL,
	     "size of the file each trial works on; a trial without runtime moves this many bytes",
	     "file_size: 80MB"},
	[JK_OFFSET] =
	    {"offset", KT_SIZE, OFF(offset), NULL, 0, 16 * TiB, NULL,
	     "where the workers' region starts in the file (fio's offset); the region is file_size bytes from there, and a file iotrial lays out is that much longer",
	     "offset: 1GiB"},
	[JK_OFFSET_INCREMENT] =
	    {"offset_increment", KT_SIZE, OFF(offset_increment), NULL, 0, 16 * TiB, NULL,
	     "workers sharing a file (file_per_thread: false): worker w's region starts at offset + w x offset_increment, file_size bytes long (fio's offset_increment)",
	     "offset_increment: 1GiB"},

	[JK_BLOCK_SIZE] =
	    {"block_size", KT_SIZE, OFF(block_size), "4KiB", 1, 1 * GiB, NULL,
	     "bytes per I/O for read, write, randread and randwrite; a mapping of sizes to percentages, or a range MIN-MAX, is a block_split",
	     "block_size: 1MiB"},
	[JK_BLOCK_SPLIT] =
	    {"block_split", KT_STRING, OFF(block_split), NULL, 0, 0, NULL,
	     "a mix of I/O sizes (fio's bssplit and bsrange): SIZE:PERCENT,... (percentages adding to 100), or MIN-MAX (multiples of MIN, drawn uniformly); block_size: {4KiB: 60, 64KiB: 40} and block_size: 4KiB-64KiB set it; block_size becomes its largest size",
	     "block_split: \"4KiB:60,64KiB:30,1MiB:10\"", 0, 0, wl_sizes_check},
	[JK_BUFFER_SIZE] = {"buffer_size", KT_SIZE, OFF(buffer_size), NULL, 0, 1 * GiB, NULL,
			    "copy: bytes read and written per step; default: block_size",
			    "buffer_size: 32KiB"},
	[JK_RUNTIME] =
	    {"runtime", KT_DURATION, OFF(runtime_ns), NULL, 0, 30 * 24 * 3600 * SEC, NULL,
	     "bound each trial by time instead of size: the workload wraps around the file until then",
	     "runtime: 60s"},
	[JK_IO_LIMIT] =
	    {"io_limit", KT_SIZE, OFF(io_limit), NULL, 0, UINT64_MAX / 4, NULL,
	     "bytes each worker moves in a size-bound trial (fio's io_size), apart from the region it moves them in (file_size): less stops early, more goes around the region again; default: the region's size",
	     "io_limit: 1GiB"},
	[JK_RANDOM_MAP] =
	    {"random_map", KT_BOOL, OFF(random_map), "true", 0, 1, NULL,
	     "randread, randwrite: visit every block once per pass, in a new random order each pass; false: draw each offset independently, with replacement (fio's norandommap)",
	     "random_map: false"},
	[JK_DISTRIBUTION] =
	    {"distribution", KT_STRING, OFF(distribution), "uniform", 0, 0, NULL,
	     "randread, randwrite: how offsets are drawn (fio's random_distribution): uniform (with random_map, each block once per pass); zipf:THETA (theta > 0); pareto:H (0 < H < 1: a fraction H of the blocks gets 1-H of the I/Os); normal:SIGMA[:CENTER] (sigma in % of the region, around CENTER, 0 to 1, default 0.5); zoned:A/S:A/S... (A% of the I/Os fall in the next S% of the region). Zipf and pareto scatter their hot blocks over the region; every distribution but uniform draws with replacement",
	     "distribution: zipf:1.2", 0, 0, wl_dist_check},
	[JK_SYNC] =
	    {"sync", KT_ENUM, OFF(sync), "none", 0, 0, sync_names,
	     "write durability: none, osync (O_SYNC), odsync (O_DSYNC), fsync_end (fsync at the end, inside the timed region)",
	     "sync: osync"},
	[JK_FSYNC_EVERY] =
	    {"fsync_every", KT_UINT, OFF(fsync_every), NULL, 0, 1000000000, NULL,
	     "fsync the file after every this many writes (fio's fsync): the writes in flight complete first, and the syncs' count and latency are reported apart from the writes (sync in results.json)",
	     "fsync_every: 32"},
	[JK_FDATASYNC_EVERY] =
	    {"fdatasync_every", KT_UINT, OFF(fdatasync_every), NULL, 0, 1000000000, NULL,
	     "as fsync_every, with fdatasync(2): the data and what reading it back needs, not the other metadata (fio's fdatasync)",
	     "fdatasync_every: 32"},

	[JK_INVALIDATE] =
	    {"invalidate", KT_BOOL, OFF(invalidate), "true", 0, 1, NULL,
	     "drop the files' pages from the page cache before each trial, so reads measure the device",
	     "invalidate: false"},
	[JK_KEEP_FILES] = {"keep_files", KT_BOOL, OFF(keep_files), "false", 0, 1, NULL,
			   "keep the files iotrial created instead of removing them at the end",
			   "keep_files: true"},
	[JK_PREALLOCATE] =
	    {"preallocate", KT_BOOL, OFF(preallocate), "true", 0, 1, NULL,
	     "write, randwrite: allocate the file iotrial creates once, before the first trial; false: each trial writes a new, empty file, as a program that creates its output",
	     "preallocate: false"},
	[JK_ALLOW_OVERWRITE] = {"allow_overwrite", KT_BOOL, OFF(allow_overwrite), "false", 0, 1,
				NULL,
				"allow a write workload on an existing file iotrial did not create",
				"allow_overwrite: true"},
	[JK_BACKEND] = {"backend", KT_STRING, OFF(backend), "sync", 0, 0,
			NULL, "the I/O backend (see `iotrial backends`)", "backend: sync"},
	[JK_IODEPTH] = {"iodepth", KT_UINT, OFF(iodepth), "1", 1, 4096,
			NULL, "I/Os kept in flight; more than 1 needs an asynchronous backend",
			"iodepth: 32"},
	[JK_DIRECT] =
	    {"direct", KT_BOOL, OFF(direct), "false", 0, 1, NULL,
	     "open with O_DIRECT (bypass the page cache); block_size and offsets must be aligned",
	     "direct: true"},
	[JK_VERIFY] =
	    {"verify", KT_BOOL, OFF(verify), "false", 0, 1, NULL,
	     "write a pattern that carries each 512-byte unit's offset and a checksum, and check it on every read (writes are read back after the trial); a mismatch is an error",
	     "verify: true"},
	[JK_HUGE_BUFFERS] =
	    {"huge_buffers", KT_BOOL, OFF(huge_buffers), "true", 0, 1, NULL,
	     "I/Os larger than a page: buffers on huge pages, one segment an I/O at the device (false: as fio)",
	     "huge_buffers: false"},
	[JK_THREADS] =
	    {"threads", KT_UINT, OFF(threads), "1", 1, 1024, NULL,
	     "workers in one job instance, started together on one barrier; their figures are summed (bytes, I/Os) and merged (latency), and kept per worker",
	     "threads: 2"},
	[JK_CPUS] =
	    {"cpus", KT_STRING, OFF(cpus), NULL, 0, 0, NULL,
	     "the CPUs each worker may run on: numbers and ranges, 0-1,4 (fio's cpus_allowed, shared policy); CPUs this process may not use are an error",
	     "cpus: 0-1", 0, 0, wl_cpus_check},
	[JK_NICE] =
	    {"nice", KT_STRING, OFF(nice), NULL, 0, 0, NULL,
	     "the workers' nice value, -20 to 19 (fio's nice); below the process's own needs the privilege to raise priority",
	     "nice: -5", 0, 0, wl_nice_check},
	[JK_IOPRIO] =
	    {"ioprio", KT_STRING, OFF(ioprio), NULL, 0, 0, NULL,
	     "the workers' I/O priority: {class: rt|be|idle, level: 0-7} (fio's prioclass and prio; ionice); rt needs CAP_SYS_NICE or CAP_SYS_ADMIN",
	     "ioprio: {class: be, level: 0}", 0, 0, wl_ioprio_check},
	[JK_SCHED] =
	    {"sched", KT_ENUM, OFF(sched), "other", 0, 0, sched_names,
	     "the workers' CPU scheduling: other (unchanged), fifo or rr (real-time, priority 1); real-time needs CAP_SYS_NICE or an RLIMIT_RTPRIO of at least 1",
	     "sched: fifo"},
	[JK_FILE_PER_THREAD] =
	    {"file_per_thread", KT_BOOL, OFF(file_per_thread), "true", 0, 1, NULL,
	     "each worker its own file (name.N); false: one shared file, split into regions for sequential workloads",
	     "file_per_thread: false"},
	[JK_WORKER_MODE] =
	    {"worker_mode", KT_ENUM, OFF(worker_mode), "thread", 0, 0, worker_mode_names,
	     "workers as threads of one process, or as separate processes (isolation)",
	     "worker_mode: process"},
	[JK_RANKS] =
	    {"ranks", KT_STRING, OFF(ranks), "all", 0, 0, NULL,
	     "distributed runs: the ranks that run this job: all, N (ranks 0 to N-1, 1 to 65536) or \"A-B\"; the others wait; more ranks than launched is an error (a matrix over it measures scaling)",
	     "ranks: [1, 2, 4]"},
	[JK_LAYOUT] =
	    {"layout", KT_ENUM, OFF(layout), "per_rank", 0, 0, layout_names,
	     "distributed runs: per_rank (each rank its own file), shared (one file, each rank its own file_size region in one piece) or strided (one file, the ranks' blocks interleaved)",
	     "layout: shared"},
	[JK_STONEWALL] =
	    {"stonewall", KT_ENUM, OFF(stonewall), "none", 0, 0, stonewall_names,
	     "stop a size-bound trial early: none; time (each rank stops at stonewall_cap or its size, whichever first); first_done (the first rank to finish its size stops the others); wear_out (first_done, then every rank tops up to the most any rank moved)",
	     "stonewall: first_done"},
	[JK_STONEWALL_CAP] =
	    {"stonewall_cap", KT_DURATION, OFF(stonewall_cap_ns), "60s",
	     1000000, 30 * 24 * 3600 * SEC, NULL,
	     "with stonewall: the longest a rank runs a trial (time: its deadline), and the longest a wear_out top-up runs",
	     "stonewall_cap: 10s"},
	[JK_WITH] =
	    {"with", KT_STRING, OFF(with), NULL, 0, 0, NULL,
	     "run alongside this job: both start on one barrier, trial by trial", "with: writer"},
	[JK_BACKGROUND] =
	    {"background", KT_BOOL, OFF(background), "false", 0, 1, NULL,
	     "load, not measurement: loops its workload while the jobs it runs with run, and is reported apart",
	     "background: true"},
	[JK_LOG_RECORDS] =
	    {"log_records", KT_BOOL, OFF(log_records), "false", 0, 1, NULL,
	     "write records/<instance>.csv, one line per I/O (also log: {records: true})",
	     "log_records: true"},
	[JK_LOG_INTERVAL] =
	    {"log_interval", KT_DURATION, OFF(log_interval_ns), NULL, 0, 3600 * SEC, NULL,
	     "write records/<instance>.intervals.csv, bandwidth, IOPS and mean latency per interval (also log: {interval: 100ms})",
	     "log_interval: 100ms"},
	[JK_LOG_HISTOGRAM] =
	    {"log_histogram", KT_BOOL, OFF(log_histogram), "false", 0, 1, NULL,
	     "keep each trial's latency histogram (its non-empty buckets) in results.json (also log: {histogram: true})",
	     "log_histogram: true"},
	[JK_PERCENTILES] =
	    {"percentiles", KT_STRING, OFF(percentiles), NULL, 0, 0, NULL,
	     "the latency percentiles the summary gives, pooled over the I/Os of the kept trials (fio's percentile_list): ascending, each above 0 and at most 100 with at most four decimals, at most 16; default: 50, 99, 99.9",
	     "percentiles: [50, 90, 99, 99.9, 99.99]", 0, 0, pct_list_check},
	[JK_SUBMIT_LATENCY] =
	    {"submit_latency", KT_BOOL, OFF(submit_latency), "false", 0, 1, NULL,
	     "asynchronous backends (io_uring, libaio, null with null_delay): time each I/O's submission apart (fio's slat and clat): slat from queueing to the kernel taking it, clat from then to its completion; results.json and the text summary give both beside the total latency",
	     "submit_latency: true"},
	[JK_RAMP] = {"ramp", KT_DURATION, OFF(ramp_ns), NULL, 0, 3600 * SEC, NULL,
		     "run the workload this long before the measured window, without counting it",
		     "ramp: 5s"},
	[JK_RATE] = {"rate", KT_SIZE, OFF(rate), NULL, 0, 1024 * GiB, NULL,
		     "bytes per second per worker; latency counts from when each I/O was scheduled",
		     "rate: 50MB"},
	[JK_RATE_IOPS] =
	    {"rate_iops", KT_UINT, OFF(rate_iops), NULL, 0, 100000000, NULL,
	     "I/Os per second per worker; latency counts from when each I/O was scheduled",
	     "rate_iops: 1000"},
	[JK_THINK_TIME] = {"think_time", KT_DURATION, OFF(think_time_ns), NULL, 0, 3600 * SEC, NULL,
			   "pause this long after each I/O completes, before the next one",
			   "think_time: 1ms"},
	[JK_COMMAND] =
	    {"command", KT_STRING, OFF(command), NULL, 0, 0, NULL,
	     "workload command: the program to run with /bin/sh -c (as load, it is restarted until the measured jobs end)",
	     "command: \"rsync -a /data/ /mnt/usb/copy/\""},
	[JK_TREE_FILES] = {"tree_files", KT_UINT, OFF(tree_files), "64", 1, 1000000, NULL,
			   "copytree: files in the source tree iotrial lays out (file_size in all)",
			   "tree_files: 200"},
	[JK_PREPARE] =
	    {"prepare", KT_STRING, OFF(prepare), NULL, 0, 0, NULL,
	     "a command (/bin/sh -c) run before the first trial of the job's stage, outside every trial; its output goes to hooks/ in the result folder",
	     "prepare: \"sync; echo 3 > /proc/sys/vm/drop_caches\""},
	[JK_CLEANUP] =
	    {"cleanup", KT_STRING, OFF(cleanup), NULL, 0, 0, NULL,
	     "a command (/bin/sh -c) run after the last trial of the job's stage, also after a failure or an interrupt",
	     "cleanup: \"rm -f /tmp/iotrial-marker\""},
};
#pragma GCC diagnostic pop

const struct job_key *job_key_find(const char *name)
{
	for (size_t i = 0; i < job_key_count(); i++)
		if (strcmp(job_key_row((enum job_key_id)i)->name, name) == 0)
			return job_key_row((enum job_key_id)i);
	return NULL;
}

/* Optimal string alignment distance, bounded: keys are short. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[40][40];

	if (la >= 40 || lb >= 40)
		return 99;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

const char *job_key_suggest(const char *name, const char *const *names)
{
	const char *best = NULL;
	size_t best_d = strlen(name) <= 4 ? 1 : 2;

	for (size_t i = 0; names[i]; i++) {
		size_t dist = edit_distance(name, names[i]);
		if (dist <= best_d && (!best || dist < best_d)) {
			best = names[i];
			best_d = dist;
		}
	}
	return best;
}

const char *job_key_enum_name(const struct job_key *k, int v)
{
	for (int i = 0; k->enums && k->enums[i]; i++)
		if (i == v)
			return k->enums[i];
	return "?";
}

int job_key_get(const struct job_spec *j, enum job_key_id k, struct key_value *v)
{
	const struct job_key *key = job_key_row(k);
	const void *f = (const char *)j + key->off;

	v->key = k;
	v->u = 0;
	v->s = NULL;
	if (k >= JK_NKEYS) {
		v->u = job_opt_get(j, k);
		return 0;
	}
	switch (key->type) {
	case KT_STRING:
		if (*(char *const *)f && !(v->s = strdup(*(char *const *)f)))
			return -ENOMEM;
		break;
	case KT_SIZE:
	case KT_DURATION:
		v->u = *(const uint64_t *)f;
		break;
	case KT_UINT:
		v->u = *(const uint32_t *)f;
		break;
	case KT_BOOL:
		v->u = *(const bool *)f;
		break;
	case KT_ENUM:
		v->u = (uint64_t) * (const int *)f;
		break;
	case KT_DOUBLE:
		memcpy(&v->u, f, sizeof(double));
		break;
	}
	return 0;
}

int job_key_put(struct job_spec *j, const struct key_value *v)
{
	const struct job_key *key = job_key_row(v->key);
	void *f = (char *)j + key->off;
	char *s = NULL;

	if (v->key >= JK_NKEYS)
		return job_opt_put(j, v->key, v->u);
	switch (key->type) {
	case KT_STRING:
		if (v->s && !(s = strdup(v->s)))
			return -ENOMEM;
		free(*(char **)f);
		*(char **)f = s;
		break;
	case KT_SIZE:
	case KT_DURATION:
		*(uint64_t *)f = v->u;
		break;
	case KT_UINT:
		*(uint32_t *)f = (uint32_t)v->u;
		break;
	case KT_BOOL:
		*(bool *)f = v->u != 0;
		break;
	case KT_ENUM:
		*(int *)f = (int)v->u;
		break;
	case KT_DOUBLE:
		memcpy(f, &v->u, sizeof(double));
		break;
	}
	return 0;
}

bool job_key_value_eq(const struct key_value *a, const struct key_value *b)
{
	if (a->key != b->key)
		return false;
	if (job_key_row(a->key)->type == KT_STRING)
		return (!a->s && !b->s) || (a->s && b->s && !strcmp(a->s, b->s));
	return a->u == b->u;
}

void job_key_format(const struct key_value *v, char *buf, size_t len)
{
	const struct job_key *key = job_key_row(v->key);

	switch (key->type) {
	case KT_STRING:
		snprintf(buf, len, "%s", v->s ? v->s : "");
		break;
	case KT_BOOL:
		snprintf(buf, len, "%s", v->u ? "true" : "false");
		break;
	case KT_ENUM:
		snprintf(buf, len, "%s", job_key_enum_name(key, (int)v->u));
		break;
	case KT_DOUBLE: {
		double d;
		memcpy(&d, &v->u, sizeof(d));
		snprintf(buf, len, "%g", d);
		break;
	}
	default:
		snprintf(buf, len, "%llu", (unsigned long long)v->u);
		break;
	}
}

void job_key_value_release(struct key_value *v)
{
	free(v->s);
	v->s = NULL;
}

/* A job, and the spec that holds the jobs, released and copied through the table: it is
 * what knows which of a job's fields are strings the job owns. */

void spec_job_release(struct job_spec *j)
{
	for (size_t d = 0; d < j->nmatrix; d++) {
		for (size_t i = 0; i < j->matrix[d].n; i++)
			job_key_value_release(&j->matrix[d].values[i]);
		free(j->matrix[d].values);
		free(j->matrix[d].locs);
	}
	free(j->matrix);
	if (j->rules) {
		for (size_t i = 0; i < j->rules->nexclude; i++)
			spec_point_release(&j->rules->exclude[i]);
		free(j->rules->exclude);
		for (size_t i = 0; i < j->rules->nafter; i++)
			free(j->rules->after[i]);
		free(j->rules->after);
		free(j->rules);
	}
	if (j->rep)
		free(j->rep->metric);
	free(j->rep);
	free(j->key_loc);
	free(j->name);
	if (j->opts.own)
		free(j->opts.v);
	j->name = NULL;
	for (size_t i = 0; i < JK_NKEYS; i++)
		if (job_keys[i].type == KT_STRING)
			free(*(char **)((char *)j + job_keys[i].off));
	memset(j, 0, sizeof(*j));
}

struct job_rules *spec_job_rules(struct job_spec *j)
{
	if (!j->rules)
		j->rules = calloc(1, sizeof(*j->rules));
	return j->rules;
}

int spec_job_copy(struct job_spec *dst, const struct job_spec *src)
{
	*dst = *src;
	dst->name = NULL;
	dst->rep = NULL;
	dst->matrix = NULL;
	dst->nmatrix = 0;
	dst->rules = NULL;
	dst->key_loc = NULL;
	dst->opts = (struct job_opts){NULL, 0, false};
	for (int i = 0; i < JK_NKEYS; i++)
		if (job_keys[i].type == KT_STRING)
			*(char **)((char *)dst + job_keys[i].off) = NULL;
	if (!(dst->key_loc = malloc(JK_MAX * sizeof(*dst->key_loc))))
		goto fail;
	if (src->opts.n && !(dst->opts.v = malloc(src->opts.n * sizeof(*dst->opts.v))))
		goto fail;
	if (src->opts.n)
		memcpy(dst->opts.v, src->opts.v, src->opts.n * sizeof(*dst->opts.v));
	dst->opts.n = src->opts.n;
	dst->opts.own = true;
	memcpy(dst->key_loc, src->key_loc, JK_MAX * sizeof(*dst->key_loc));
	for (int i = 0; i < JK_NKEYS; i++) {
		if (job_keys[i].type != KT_STRING)
			continue;
		const char *v = *(char *const *)((const char *)src + job_keys[i].off);
		char **f = (char **)((char *)dst + job_keys[i].off);
		if (v && !(*f = strdup(v)))
			goto fail;
	}
	if (src->name && !(dst->name = strdup(src->name)))
		goto fail;
	if (src->rep) {
		if (!(dst->rep = malloc(sizeof(*dst->rep))))
			goto fail;
		*dst->rep = *src->rep;
		dst->rep->metric = NULL;
		if (src->rep->metric && !(dst->rep->metric = strdup(src->rep->metric)))
			goto fail;
	}
	return 0;
fail:
	spec_job_release(dst);
	return -ENOMEM;
}

void spec_release(struct exp_spec *s)
{
	free(s->path);
	free(s->experiment);
	free(s->prepare);
	free(s->cleanup);
	free(s->description);
	for (size_t i = 0; i < s->ndevices; i++) {
		free(s->devices[i].name);
		free(s->devices[i].path);
		spec_facts_release(s->devices[i].about, s->devices[i].nabout);
	}
	free(s->devices);
	for (size_t i = 0; i < s->njobs; i++)
		spec_job_release(&s->jobs[i]);
	free(s->jobs);
	for (size_t i = 0; i < s->noverrides; i++) {
		free(s->overrides[i].key);
		free(s->overrides[i].value);
	}
	free(s->overrides);
	free(s->scratch);
	free(s->rep.metric);
	for (size_t i = 0; i < s->ncompares; i++) {
		spec_point_release(&s->compares[i].a);
		spec_point_release(&s->compares[i].b);
		free(s->compares[i].metric);
	}
	free(s->compares);
	spec_table_release(&s->table);
	memset(s, 0, sizeof(*s));
}

const char *spec_workload_name(enum job_workload w)
{
	return job_key_enum_name(&job_keys[JK_WORKLOAD], (int)w);
}

const char *spec_sync_name(enum job_sync s)
{
	return job_key_enum_name(&job_keys[JK_SYNC], (int)s);
}
