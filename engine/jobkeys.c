/* The job key table and the small lookups around it (see jobkeys.h). */
#include "engine/jobkeys.h"

#include <stddef.h>
#include <string.h>

static const char *const workload_names[] = {"read", "write", "randread", "randwrite", "copy", NULL};
static const char *const sync_names[] = {"none", "osync", "odsync", "fsync_end", NULL};

#define OFF(f) offsetof(struct job_spec, f)
#define KiB 1024ULL
#define GiB (1024ULL * 1024 * 1024)
#define TiB (1024ULL * GiB)
#define SEC 1000000000ULL

const struct job_key job_keys[JK_NKEYS] = {
	[JK_WORKLOAD] = {"workload", KT_ENUM, OFF(workload), NULL, 0, 0, workload_names,
			 "what each trial does: read, write (sequential), randread, randwrite (uniform random offsets aligned to block_size), copy (source file to a new file in target, buffer_size at a time)",
			 "workload: randread"},
	[JK_DEVICE] = {"device", KT_STRING, OFF(device), NULL, 0, 0, NULL,
		       "a device name from `devices:`; {device} in target and source stands for its path",
		       "device: usb"},
	[JK_TARGET] = {"target", KT_STRING, OFF(target), NULL, 0, 0, NULL,
		       "folder that receives a scratch file, or a file; {device} is a device's path; default: the run's scratch folder",
		       "target: \"{device}\""},
	[JK_SOURCE] = {"source", KT_STRING, OFF(source), NULL, 0, 0, NULL,
		       "copy: the file to read; when it does not exist iotrial lays it out (file_size bytes) and removes it at the end",
		       "source: \"${SOURCE_DIR:-${scratch}}/file.bin\""},
	[JK_FILE_SIZE] = {"file_size", KT_SIZE, OFF(file_size), "64MiB", 1, 16 * TiB, NULL,
			  "size of the file each trial works on; a trial without runtime moves this many bytes",
			  "file_size: 80MB"},
	[JK_BLOCK_SIZE] = {"block_size", KT_SIZE, OFF(block_size), "4KiB", 1, 1 * GiB, NULL,
			   "bytes per I/O for read, write, randread and randwrite", "block_size: 1MiB"},
	[JK_BUFFER_SIZE] = {"buffer_size", KT_SIZE, OFF(buffer_size), NULL, 0, 1 * GiB, NULL,
			    "copy: bytes read and written per step; default: block_size", "buffer_size: 32KiB"},
	[JK_RUNTIME] = {"runtime", KT_DURATION, OFF(runtime_ns), NULL, 0, 30 * 24 * 3600 * SEC, NULL,
			"bound each trial by time instead of size: the workload wraps around the file until then",
			"runtime: 60s"},
	[JK_SYNC] = {"sync", KT_ENUM, OFF(sync), "none", 0, 0, sync_names,
		     "write durability: none, osync (O_SYNC), odsync (O_DSYNC), fsync_end (fsync at the end, inside the timed region)",
		     "sync: osync"},
	[JK_INVALIDATE] = {"invalidate", KT_BOOL, OFF(invalidate), "true", 0, 1, NULL,
			   "drop the files' pages from the page cache before each trial, so reads measure the device",
			   "invalidate: false"},
	[JK_KEEP_FILES] = {"keep_files", KT_BOOL, OFF(keep_files), "false", 0, 1, NULL,
			   "keep the files iotrial created instead of removing them at the end", "keep_files: true"},
	[JK_ALLOW_OVERWRITE] = {"allow_overwrite", KT_BOOL, OFF(allow_overwrite), "false", 0, 1, NULL,
				"allow a write workload on an existing file iotrial did not create",
				"allow_overwrite: true"},
	[JK_BACKEND] = {"backend", KT_STRING, OFF(backend), "sync", 0, 0, NULL,
			"the I/O backend (see `iotrial backends`)", "backend: sync"},
	[JK_IODEPTH] = {"iodepth", KT_UINT, OFF(iodepth), "1", 1, 4096, NULL,
			"I/Os kept in flight; more than 1 needs an asynchronous backend", "iodepth: 32"},
	[JK_DIRECT] = {"direct", KT_BOOL, OFF(direct), "false", 0, 1, NULL,
		       "open with O_DIRECT (bypass the page cache); block_size and offsets must be aligned",
		       "direct: true"},
	[JK_VERIFY] = {"verify", KT_BOOL, OFF(verify), "false", 0, 1, NULL,
		       "write a pattern that carries each 512-byte unit's offset and a checksum, and check it on every read (writes are read back after the trial); a mismatch is an error",
		       "verify: true"},
};

const struct job_key *job_key_find(const char *name)
{
	for (size_t i = 0; i < JK_NKEYS; i++)
		if (strcmp(job_keys[i].name, name) == 0)
			return &job_keys[i];
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
