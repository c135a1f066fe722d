/* fio's option names and values in iotrial's terms (see fio_names.h). A row whose key other
 * work is still adding carries `pending`; when the key lands, taking that field out of the
 * row is the whole change. */
#include "model/fio_names.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/jobkeys.h"

#define ON_URING                                                                                   \
	"with ioengine=io_uring: an option of iotrial's io_uring backend; with another engine, not mapped"
#define NO_LATLOG  "iotrial logs per I/O (log_records) and per interval (log_interval), as CSV"
#define NO_BUFFERS "iotrial writes its own varied, non-zero pattern (verify's when verify is on)"

const struct fio_name fio_names[] = {
    {"rw", "workload", FC_RW, NULL, NULL},
    {"readwrite", "workload", FC_RW, NULL, NULL},
    {"rwmixread", "mix", FC_MIX_READ, NULL, NULL},
    {"rwmixwrite", "mix", FC_MIX_WRITE, NULL, NULL},
    {"bs", "block_size", FC_BS, NULL, NULL},
    {"blocksize", "block_size", FC_BS, NULL, NULL},
    {"bsrange", "block_split", FC_BSRANGE, NULL, NULL},
    {"blocksize_range", "block_split", FC_BSRANGE, NULL, NULL},
    {"bssplit", "block_split", FC_BSSPLIT, NULL, NULL},
    {"size", "file_size", FC_SIZE, NULL, NULL},
    {"filesize", "file_size", FC_SIZE, NULL, NULL},
    {"io_size", "io_limit", FC_SIZE, NULL, NULL},
    {"io_limit", "io_limit", FC_SIZE, NULL, NULL},
    {"offset", "offset", FC_SIZE, NULL, NULL},
    {"offset_increment", "offset_increment", FC_SIZE, NULL, NULL},
    {"runtime", "runtime", FC_RUNTIME, NULL, NULL},
    {"timeout", "runtime", FC_RUNTIME, NULL, NULL},
    {"time_based", "runtime", FC_TIME_BASED, NULL, NULL},
    {"ramp_time", "ramp", FC_TIME_S, NULL, NULL},
    {"ioengine", "backend", FC_ENGINE, NULL, NULL},
    {"iodepth", "iodepth", FC_COUNT, NULL, NULL},
    {"direct", "direct", FC_BOOL, NULL, NULL},
    {"buffered", "direct", FC_BOOL_NOT, NULL, NULL},
    {"numjobs", "threads", FC_COUNT, NULL, NULL},
    {"fsync", "fsync_every", FC_SYNC_EVERY, NULL, NULL},
    {"fdatasync", "fdatasync_every", FC_SYNC_EVERY, NULL, NULL},
    {"end_fsync", "sync", FC_END_FSYNC, NULL, NULL},
    {"sync", "sync", FC_SYNC, NULL, NULL},
    {"filename", "target", FC_FILENAME, NULL, NULL},
    {"directory", "target", FC_DIRECTORY, NULL, NULL},
    {"random_distribution", "distribution", FC_DIST, NULL, NULL},
    {"norandommap", "random_map", FC_BOOL_NOT, NULL, NULL},
    {"rate", "rate", FC_RATE, NULL, NULL},
    {"rate_iops", "rate_iops", FC_RATE_IOPS, NULL, NULL},
    {"thinktime", "think_time", FC_TIME_US, NULL, NULL},
    {"stonewall", "after", FC_STONEWALL, NULL, NULL},
    {"wait_on_previous", "after", FC_STONEWALL, NULL, NULL},
    {"wait_for", "after", FC_WAIT_FOR, NULL, NULL},
    {"new_group", NULL, FC_NOTE,
     "iotrial reports every job on its own; there are no group totals to start", NULL},
    {"group_reporting", NULL, FC_NOTE,
     "iotrial merges a job's threads into one figure per trial, as group_reporting merges numjobs, and keeps a row per worker",
     NULL},
    {"cpus_allowed", "cpus", FC_STRING, NULL, NULL},
    {"cpus_allowed_policy", "cpus", FC_CPUS_POLICY,
     "iotrial lets every worker run on every CPU of cpus, as fio's shared policy does", NULL},
    {"prio", "ioprio", FC_PRIO, NULL, NULL},
    {"prioclass", "ioprio", FC_PRIOCLASS, NULL, NULL},
    {"nice", "nice", FC_NICE, NULL, NULL},
    {"percentile_list", "percentiles", FC_LIST, NULL, NULL},
    {"verify", "verify", FC_VERIFY, NULL, NULL},
    {"name", "name", FC_NAME, NULL, NULL},
    {"description", "description", FC_DESCRIPTION, NULL, NULL},
    {"invalidate", "invalidate", FC_BOOL, NULL, NULL},
    {"thread", "worker_mode", FC_THREAD, NULL, NULL},
    {"kb_base", NULL, FC_KB_BASE, NULL, NULL},
    {"exec_prerun", "prepare", FC_STRING, NULL, NULL},
    {"exec_postrun", "cleanup", FC_STRING, NULL, NULL},
    {"iodepth_batch", "io_uring_batch_submit", FC_URING, ON_URING, NULL},
    {"iodepth_batch_submit", "io_uring_batch_submit", FC_URING, ON_URING, NULL},
    {"iodepth_batch_complete", "io_uring_batch_complete_min", FC_URING, ON_URING, NULL},
    {"iodepth_batch_complete_min", "io_uring_batch_complete_min", FC_URING, ON_URING, NULL},
    {"iodepth_batch_complete_max", "io_uring_batch_complete_max", FC_URING, ON_URING, NULL},
    {"registerfiles", "io_uring_register_files", FC_URING, ON_URING, NULL},
    {"fixedbufs", "io_uring_fixed_buffers", FC_URING, ON_URING, NULL},
    {"sqthread_poll", "io_uring_sqpoll", FC_URING, ON_URING, NULL},
    {"sqthread_poll_cpu", "io_uring_sqpoll_cpu", FC_URING, ON_URING, NULL},
    {"hipri", "io_uring_hipri", FC_URING, ON_URING, NULL},
    {"iodepth_low", NULL, FC_NONE,
     "iotrial refills the queue as each I/O completes; it has no low-water mark", NULL},
    {"io_submit_mode", NULL, FC_NONE,
     "iotrial's workers submit their own I/Os; rate and rate_iops keep a fixed schedule without an offload thread",
     NULL},
    {"rate_process", NULL, FC_NONE, "iotrial issues rate-limited I/Os on a fixed schedule only",
     NULL},
    {"loops", NULL, FC_NONE,
     "iotrial repeats a measurement as trials, each measured on its own (replication.runs); fio's loops adds the passes into one figure",
     NULL},
    {"random_generator", NULL, FC_NONE,
     "iotrial has one generator, seeded by the top-level seed (see random_map)", NULL},
    {"randrepeat", NULL, FC_NONE, "iotrial's offsets repeat when the top-level seed does", NULL},
    {"randseed", NULL, FC_NONE, "set the top-level seed instead", NULL},
    {"mem", NULL, FC_NONE,
     "see huge_buffers: true (iotrial's default) puts I/Os larger than a page on transparent huge pages, as mmaphuge does on hugetlbfs; false keeps ordinary pages, as malloc (fio's default); write the key",
     NULL},
    {"iomem", NULL, FC_NONE, "as mem", NULL},
    {"latency_target", NULL, FC_NONE,
     "iotrial does not search for a queue depth; sweep iodepth in a matrix and compare the latencies",
     NULL},
    {"latency_window", NULL, FC_NONE, "see latency_target", NULL},
    {"latency_percentile", NULL, FC_NONE, "see latency_target", NULL},
    {"write_lat_log", NULL, FC_NONE, NO_LATLOG, NULL},
    {"write_bw_log", NULL, FC_NONE, NO_LATLOG, NULL},
    {"write_iops_log", NULL, FC_NONE, NO_LATLOG, NULL},
    {"log_avg_msec", NULL, FC_NONE, NO_LATLOG, NULL},
    {"refill_buffers", NULL, FC_NONE, NO_BUFFERS, NULL},
    {"zero_buffers", NULL, FC_NONE, NO_BUFFERS, NULL},
    {"scramble_buffers", NULL, FC_NONE, NO_BUFFERS, NULL},
    {"buffer_compress_percentage", NULL, FC_NONE, NO_BUFFERS, NULL},
    {"gtod_reduce", NULL, FC_NONE, "iotrial always times every I/O", NULL},
    {"startdelay", NULL, FC_NONE, "jobs start together or after each other (with, after)", NULL},
    {"exitall", NULL, FC_NONE, "a stage ends when its last measured worker ends", NULL},
    {"ioscheduler", NULL, FC_NONE, "iotrial does not change the system's settings", NULL},
    {NULL, NULL, FC_NONE, NULL, NULL},
};

/* Keys the importer writes that are not job keys. */
static const char *const fio_other_keys[] = {"name", "after", "description", NULL};

const struct fio_name *fio_name_find(const char *name)
{
	for (const struct fio_name *n = fio_names; n->fio; n++)
		if (!strcmp(n->fio, name))
			return n;
	return NULL;
}

bool fio_name_mapped(const struct fio_name *n)
{
	if (n->pending || n->conv == FC_NONE)
		return false;
	if (!n->key || job_key_find(n->key))
		return true;
	for (size_t i = 0; fio_other_keys[i]; i++)
		if (!strcmp(fio_other_keys[i], n->key))
			return true;
	return false;
}

/* The number at the start of `s` (digits, one optional fraction) and its length; 0: none. */
static size_t fio_number_len(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (n && s[n] == '.' && isdigit((unsigned char)s[n + 1]))
		n += 1 + strspn(s + n + 1, "0123456789");
	return n;
}

int fio_size_to_iotrial(const char *fio, bool kb1000, char *out, size_t len)
{
	static const char prefixes[] = "kmgtp";
	static const char *const bin[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
	static const char *const dec[] = {"kB", "MB", "GB", "TB", "PB"};
	size_t n = fio_number_len(fio);
	const char *u = fio + n, *p;
	bool i_form;

	if (!n)
		return -EINVAL;
	if (!*u || !strcasecmp(u, "b")) {
		snprintf(out, len, "%.*s", (int)n, fio);
		return 0;
	}
	if (!(p = strchr(prefixes, tolower((unsigned char)*u))))
		return -EINVAL;
	/* k, kb, ki, kib (any case). With fio's default kb_base=1024, k is 1024 and ki 1000;
	 * kb_base=1000 turns that round. */
	i_form = tolower((unsigned char)u[1]) == 'i';
	if (strcasecmp(u + 1 + i_form, "") && strcasecmp(u + 1 + i_form, "b"))
		return -EINVAL;
	snprintf(out, len, "%.*s%s", (int)n, fio,
		 (i_form == kb1000) ? bin[p - prefixes] : dec[p - prefixes]);
	return 0;
}

int fio_time_to_iotrial(const char *fio, bool bare_us, char *out, size_t len)
{
	static const struct {
		const char *fio, *iotrial;
	} units[] = {{"us", "us"}, {"usec", "us"}, {"ms", "ms"}, {"msec", "ms"}, {"s", "s"},
		     {"sec", "s"}, {"m", "m"},	   {"h", "h"},	 {"d", NULL}};
	size_t n = fio_number_len(fio);
	const char *u = fio + n;

	if (!n || memchr(fio, '.', n))
		return -EINVAL;
	if (!*u) {
		snprintf(out, len, "%.*s%s", (int)n, fio, bare_us ? "us" : "s");
		return 0;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(u, units[i].fio))
			continue;
		if (units[i].iotrial)
			snprintf(out, len, "%.*s%s", (int)n, fio, units[i].iotrial);
		else /* iotrial has no days */
			snprintf(out, len, "%lluh", strtoull(fio, NULL, 10) * 24);
		return 0;
	}
	return -EINVAL;
}

static const char *fio_engine_hint(const char *text)
{
	static const char *const sync_like[] = {"psync", "pvsync", "pvsync2", "vsync", NULL};

	for (size_t i = 0; sync_like[i]; i++)
		if (!strcmp(text, sync_like[i]))
			return "sync";
	return NULL;
}

/* `4k`, `10M`: a number and a bare unit prefix, as only fio writes sizes. `4kb` is left to
 * iotrial's own answer (a lowercase b means bits), and `4KiB` is iotrial's already. */
static bool fio_bare_prefix(const char *text)
{
	size_t n = fio_number_len(text);

	return n && text[n] && strchr("kKmMgGtTpP", text[n]) && !text[n + 1];
}

const char *fio_value_hint(const char *key, const char *text, char *out, size_t len)
{
	const struct job_key *k = job_key_find(key);

	if (!k)
		return NULL;
	if (k->type == KT_BOOL && (!strcmp(text, "1") || !strcmp(text, "0")))
		snprintf(out, len, "%s", *text == '1' ? "true" : "false");
	else if (k->type == KT_SIZE && fio_bare_prefix(text) &&
		 fio_size_to_iotrial(text, false, out, len) == 0)
		;
	else if (!strcmp(key, "backend") && fio_engine_hint(text))
		snprintf(out, len, "%s", fio_engine_hint(text));
	else if (!strcmp(key, "workload") && (!strcmp(text, "rw") || !strcmp(text, "readwrite")))
		snprintf(out, len, "%s", "readwrite");
	else
		return NULL;
	/* A fio name iotrial does not have yet (readwrite before mixed workloads) is no hint. */
	for (size_t i = 0; k->type == KT_ENUM && k->enums[i]; i++)
		if (!strcmp(k->enums[i], out))
			return out;
	return k->type == KT_ENUM ? NULL : out;
}
