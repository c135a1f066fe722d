/* The backend ops table: how the worker loop talks to an I/O interface. One file per
 * backend under engine/io/backends/, ending in a `static const struct be_ops`; registry.c lists
 * them. skeleton.c is the annotated guide for writing the next one.
 *
 * Every hook returns 0, a count >= 0, or -errno. An I/O's outcome is one field, io->result:
 * bytes done or -errno; short transfers and retries are the core's business, not the
 * backend's, so there is one completion path for every backend. */
#ifndef IOTRIAL_BACKEND_H
#define IOTRIAL_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

enum be_opcode { BE_READ, BE_WRITE, BE_FSYNC };

struct be_io {
	enum be_opcode op;
	int fd;
	void *buf;
	uint32_t len;
	uint64_t offset;
	int64_t result;	 /* set by the backend on completion: bytes done, or -errno */
	uint64_t sim_ns; /* BE_F_VIRTUAL backends: how long the I/O took, in simulated time */
	/* Below: the core's own bookkeeping, never touched by a backend. */
	uint64_t start_ns;
	uint64_t seq;
	void *base_buf;	      /* the slot's buffer, where the whole transfer starts */
	uint64_t base_offset; /* where the whole transfer starts in the file */
	uint64_t done;	      /* bytes of the whole transfer done so far */
	uint32_t full_len;
	int phase;	 /* copy: 0 reading the source, 1 writing the destination */
	bool unsent;	 /* refused with BE_BUSY before it ever reached the backend */
	uint16_t size_i; /* block_split: which of the listed sizes it is */
	/* submit_latency: when the kernel took its first submission (its commit returned); 0:
	 * not taken yet, or done inside queue(); BE_SUBMIT_UNSEEN: handed over out of the core's
	 * sight. A short transfer's rest and a copy's write keep it: their time is clat. */
	uint64_t submit_ns;
};

#define BE_SUBMIT_UNSEEN UINT64_MAX

/* queue() outcomes (>= 0); a negative return is -errno for the submission itself. */
#define BE_DONE	  0 /* completed inside queue(); io->result is set */
#define BE_QUEUED 1 /* in flight; it comes back through reap() */
#define BE_BUSY	  2 /* no room now: reap something, then queue it again */

/* Capability flags, fixed at compile time. */
#define BE_F_ASYNC   (1u << 0) /* can keep iodepth > 1 I/Os in flight */
#define BE_F_DIRECT  (1u << 1) /* can take O_DIRECT */
#define BE_F_NOIO    (1u << 2) /* touches no device: no files are laid out or opened */
#define BE_F_VIRTUAL (1u << 3) /* reports simulated time in be_io.sim_ns; no clock is read */

struct job_spec;
struct job_key;

struct be_config {
	uint32_t iodepth;
	bool direct;
	const struct job_spec *job; /* the whole job: be_opts_load() reads a backend's options */
	uint64_t seed;		    /* this trial's seed, for backends that draw numbers */
	/* Where init, open and buffers may explain a failure in one line (the trial's error
	 * message, shown instead of strerror); NULL: nowhere. */
	char *why;
	size_t why_len;
};

struct be_ops {
	const char *name;
	const char *help; /* one line for `iotrial backends` */
	unsigned flags;
	uint32_t max_iodepth;
	size_t priv_size; /* zeroed state per worker, on cache lines of its own (core's) */

	/* Can this backend work on this machine? 0, or -errno with the reason in `why`
	 * (e.g. "io_uring_setup: Operation not permitted (seccomp?)"). Optional. */
	int (*probe)(char *why, size_t len);
	/* Set up per-worker state before a trial's files are opened. */
	int (*init)(void *priv, const struct be_config *cfg);
	/* Open `path` relative to the folder `dirfd` (or AT_FDCWD), like openat(2) with its
	 * flags; returns the fd to put in be_io.fd, or -errno. The core opens iotrial's own
	 * files relative to a folder it holds, with O_NOFOLLOW, and checks the fd it gets. */
	int (*open)(void *priv, int dirfd, const char *path, int flags, mode_t mode);
	/* The worker's I/O buffers, one region of `len` bytes from `base` (every be_io.buf lies
	 * in it), once per trial after init and the opens, before the clock starts: for a
	 * backend that registers them with the kernel. 0 or -errno. Optional. */
	int (*buffers)(void *priv, void *base, size_t len);
	/* Start one I/O: BE_DONE, BE_QUEUED, BE_BUSY, or -errno. */
	int (*queue)(void *priv, struct be_io *io);
	/* Push queued I/Os to the kernel, for backends that batch; optional. Returns how many of
	 * the I/Os queued since the last reap() the kernel took, the oldest first (those are
	 * stamped submitted now, for submit_latency; 0 where it held them back or hands them
	 * over elsewhere; not those a reap() left behind, which the core counts gone), or -errno;
	 * -EAGAIN and -EBUSY mean "no room now", and reap() tries again. The core calls it after
	 * every few I/Os it queues (a small batch reaches the device sooner than a big one) and
	 * before it sleeps, never just before reap(). */
	int (*commit)(void *priv);
	/* Hand the kernel whatever queue() prepared and commit() did not push (in the same call
	 * as the wait where the interface allows, as io_uring does), then wait for at least `min`
	 * and return at most `max` completed I/Os in `out`; returns the count or -errno. With
	 * `timeout` (relative) set, wait no longer than that and return what completed by then,
	 * possibly fewer than `min`, possibly 0; -EOPNOTSUPP when the backend cannot time its
	 * wait. Only called when I/Os are in flight; optional for sync backends. */
	int (*reap)(void *priv, unsigned min, unsigned max, struct be_io **out,
		    const struct timespec *timeout);
	/* Close an fd returned by open. */
	int (*close)(void *priv, int fd);
	/* Release per-worker state; called once after init succeeded. */
	void (*cleanup)(void *priv);

	/* The backend's options: job keys of its own, named after it ("null_delay"), as rows of
	 * model/jobkeys.h ended by a row whose name is NULL; NULL for none. A row's `off` is into
	 * the backend's options struct, `opts_size` bytes, which be_opts_load() fills from a job
	 * (in init, never per I/O). The rows are the one declaration: the parser types and bounds
	 * the values, the planner refuses them on a job of another backend, `iotrial keys
	 * BACKEND` prints them and docs/backends.md is checked against them. */
	const struct job_key *options;
	size_t opts_size;
	/* Rules across options that no single row states (two that go together, say), on the
	 * struct be_opts_load() filled. 0, or -EINVAL with the reason in `why` and the name of
	 * the option it concerns in *key. Called by the planner for each job instance. Optional. */
	int (*check)(const void *opts, char *why, size_t len, const char **key);
	/* Wrappers only: the name of the backend this one hands its I/Os to, as its options
	 * say. A job then runs on this backend's hooks with that one's flags, max_iodepth and
	 * probe (be_wrap), and its priv holds this backend's state, priv_size bytes (a multiple
	 * of BE_PRIV_ALIGN), followed by that one's. Options of both apply to the job. */
	const char *(*inner)(const void *opts);
};

/* Where a wrapped backend's state starts within its wrapper's priv: whole cache lines. */
#define BE_PRIV_ALIGN 64

/* The most bytes a backend's options struct may take (be_registry_init checks). */
#define BE_OPTS_MAX 256

/* open and close hooks for backends that work on plain file descriptors: openat(2) with
 * O_CLOEXEC, EINTR retried; close(2). Point .open and .close at them. */
int be_plain_open(void *priv, int dirfd, const char *path, int flags, mode_t mode);
int be_plain_close(void *priv, int fd);

/* Lend every compiled-in backend's options to the model (job_keys_extend) and make the
 * tables of the wrappers around each backend they can wrap (be_wrap). Once, at start-up,
 * before any job file is read (again: no-op). 0, or -EINVAL / -E2BIG with the reason, a
 * mistake in a backend's table, in `err` (options.c). */
int be_registry_init(char *err, size_t errlen);

/* Fill `out` (be->opts_size bytes) with backend be's options as job `j` sets them, and
 * their defaults where it does not. */
void be_opts_load(const struct be_ops *be, const struct job_spec *j, void *out);

/* Does job `j` set option `name` (in the file, a matrix or --set), rather than take its
 * default? For an option whose every value means something (an offset, where 0 is one). */
bool be_opt_set(const struct job_spec *j, const char *name);

/* The ids (model/jobkeys.h) of the options a job `j` on `be` takes: be's own, then those of
 * the backend it wraps, as j's options name it. Returns how many (at most JK_EXT_MAX). */
size_t be_option_ids(const struct be_ops *be, const struct job_spec *j, int *ids);

/* The backend a wrapper's options name on job `j`, with *name set to that name; NULL when
 * `be` wraps nothing or the name is not in this build. */
const struct be_ops *be_inner(const struct be_ops *be, const struct job_spec *j, const char **name);

/* The table `wrapper` runs on around `inner`: wrapper's hooks, inner's capabilities; NULL
 * when inner cannot be wrapped (it keeps virtual time, or wraps itself). */
const struct be_ops *be_wrap(const struct be_ops *wrapper, const struct be_ops *inner);

/* The backends a wrapper can take, by name: those of this build that can be wrapped, then
 * those a build can leave out (so that the list is the same in every build). NULL-ended;
 * filled by be_registry_init, for the enum rows of wrappers' options. */
extern const char *be_wrappable_names[];

/* The compiled-in backends, NULL-terminated (registry.c). */
extern const struct be_ops *const be_registry[];

/* The backend called `name`, or NULL. "direct" is an alias of sync with O_DIRECT. */
const struct be_ops *be_find(const char *name);

/* A space-separated list of compiled-in backend names, for messages. */
const char *be_names(void);

/* Whether `name` is a known backend that this build left out, with the library it needs. */
const char *be_missing_library(const char *name);

/* The options of backend `name` when this build left it out (every build knows them, so a
 * job file reads the same everywhere); NULL otherwise, or when it has none. */
const struct job_key *be_left_out_options(const char *name);

#endif
