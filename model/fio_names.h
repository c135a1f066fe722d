/* fio's vocabulary: one table from fio's option names to iotrial's job keys, with how a value
 * converts, or why iotrial has no equivalent. `iotrial import-fio` maps a fio job file with
 * it; the job-file parser uses it to answer a fio name with the iotrial one ("did you mean");
 * docs/fio.md is checked against it (`iotrial import-fio --options`). */
#ifndef IOTRIAL_FIO_NAMES_H
#define IOTRIAL_FIO_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* How a fio value becomes an iotrial one (cli/import_fio_map.c does each). */
enum fio_conv {
	FC_NONE,	/* no equivalent: `why` says why */
	FC_NOTE,	/* nothing to set: iotrial already does what the option asks (`why`) */
	FC_COUNT,	/* a whole number, as it is */
	FC_SIZE,	/* a fio size (4k is 4096 unless kb_base=1000) as an iotrial size */
	FC_BS,		/* bs: a size, or `read,write` sizes when they are equal */
	FC_BSRANGE,	/* bsrange: `a-b`; a single size when a equals b */
	FC_BSSPLIT,	/* bssplit: `4k/60:64k/40` as a weighted list */
	FC_TIME_S,	/* a fio time, a bare number in seconds */
	FC_TIME_US,	/* a fio time, a bare number in microseconds (thinktime) */
	FC_RUNTIME,	/* runtime: a time bound only with time_based */
	FC_TIME_BASED,	/* time_based: read with runtime */
	FC_BOOL,	/* 0 or 1 (bare: 1) as false or true */
	FC_BOOL_NOT,	/* the same, inverted (norandommap is random_map: false) */
	FC_RW,		/* rw: the workload */
	FC_MIX_READ,	/* rwmixread=N: mix: {read: N, write: 100 - N} */
	FC_MIX_WRITE,	/* rwmixwrite=N: mix: {read: 100 - N, write: N} */
	FC_ENGINE,	/* ioengine: the backend */
	FC_SYNC,	/* sync: none, sync, dsync, 0, 1 */
	FC_END_FSYNC,	/* end_fsync=1: sync: fsync_end */
	FC_FILENAME,	/* filename: the target file */
	FC_DIRECTORY,	/* directory: the target folder */
	FC_RATE,	/* rate: bytes per second, one value for reads and writes */
	FC_RATE_IOPS,	/* rate_iops: the same, in I/Os */
	FC_DIST,	/* random_distribution: zipf:1.2, pareto:0.9, normal:5, ... */
	FC_SYNC_EVERY,	/* fsync=N, fdatasync=N: a sync after every N writes (0: none) */
	FC_NICE,	/* nice: -20 to 19 */
	FC_PRIO,	/* prio: ioprio's level, with prioclass */
	FC_PRIOCLASS,	/* prioclass: ioprio's class, with prio */
	FC_CPUS_POLICY, /* cpus_allowed_policy: shared is iotrial's; split is not */
	FC_LIST,	/* a fio `a:b:c` list as a YAML list (percentile_list) */
	FC_STRING,	/* text as it is (cpus_allowed) */
	FC_STONEWALL,	/* stonewall: the job starts after the ones before it */
	FC_WAIT_FOR,	/* wait_for: after */
	FC_NAME,	/* name: the job's name (in [global]: the experiment's) */
	FC_DESCRIPTION, /* description: the experiment's */
	FC_VERIFY,	/* verify: any checksum type is verify: true */
	FC_THREAD,	/* thread: worker_mode: thread */
	FC_KB_BASE,	/* kb_base: how this section's sizes read */
	FC_URING, /* an option of the io_uring backend: mapped when the job's engine is io_uring */
};

struct fio_name {
	const char *fio; /* fio's option name */
	const char *key; /* the iotrial job key (or top-level key) it maps to; NULL: none */
	enum fio_conv conv;
	const char *why; /* FC_NONE: why not; FC_NOTE: what iotrial does instead; else a remark */
	const char *pending; /* not mapped yet: the work that brings the key (NULL: mapped) */
};

/* Every fio option iotrial knows about, NULL-terminated by a row with fio == NULL. */
extern const struct fio_name fio_names[];

/* The row of fio option `name`, or NULL. */
const struct fio_name *fio_name_find(const char *name);

/* Can the importer set row `n`'s key: not pending, and a key this build has? */
bool fio_name_mapped(const struct fio_name *n);

/* A fio size (`4k`, `10g`, `256K`, `4096`; k is 1024 unless `kb1000`) as iotrial writes it
 * (`4KiB`, `10GiB`, `256KiB`, `4096`) into out. 0, or -EINVAL when it is no fio size. */
int fio_size_to_iotrial(const char *fio, bool kb1000, char *out, size_t len);

/* A fio time (`60`, `10m`, `1d`, `500ms`; a bare number in seconds, or microseconds with
 * `bare_us`) as an iotrial duration. 0 or -EINVAL. */
int fio_time_to_iotrial(const char *fio, bool bare_us, char *out, size_t len);

/* A value that fio would write for iotrial key `key` (`1` for a bool, `4k` for a size, a fio
 * rw or ioengine name), as iotrial writes it; NULL when `text` is no such fio value. For the
 * "did you mean" of a value: 4k is 4KiB, 1 is true. `out` holds the answer. */
const char *fio_value_hint(const char *key, const char *text, char *out, size_t len);

#endif
