/* The run environment: the machine (host, kernel, CPU, memory) and each storage target
 * (file system, mount, block device and its queue properties), captured once per run for
 * the "env" object of results.json, so a result can be read against the hardware it came from.
 * Unknown strings are NULL and the JSON writer turns them into null. */
#ifndef IOTRIAL_ENV_H
#define IOTRIAL_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One storage target. Every string is owned by the struct (free with env_target_release). */
struct env_target {
	char *path;		     /* the path as the job gave it */
	char *fs_type;		     /* "ext4", "tmpfs", ...; NULL for an unmounted block device */
	char *device;		     /* mount source ("/dev/vda1", "tmpfs") or the block device */
	char *model;		     /* sysfs device/model, trimmed; NULL when unknown */
	int rotational;		     /* 1, 0, or -1 unknown */
	uint32_t logical_block_size; /* 0 unknown */
	char *mount_point;	     /* NULL for an unmounted block device */
};

/* The machine and its targets. Owned strings and array; free with env_release. */
struct run_env {
	char *hostname;	    /* uname nodename */
	char *kernel;	    /* uname release, e.g. "6.1.0-18-amd64" */
	char *cpu_model;    /* "model name" from /proc/cpuinfo, NULL when absent (most arm64) */
	uint32_t cpus;	    /* online CPUs; 0 unknown */
	uint64_t mem_bytes; /* total RAM; 0 unknown */
	char *clocksource; /* the kernel's current clocksource ("tsc", "kvm-clock"); NULL unknown */
	char *clock;	   /* the clock that timed the I/Os, "tsc" or "monotonic": set by the
			    * engine (engine/io/fastclock.h), not by env_capture; NULL unknown */
	char *thp; /* transparent huge pages: "always", "madvise" or "never"; NULL unknown */
	struct env_target *targets;
	size_t ntargets;
};

/*
 * Fill *e with the machine description. *e is overwritten entirely (targets included), so
 * call it before env_add_target. A field that cannot be read stays NULL or 0; that is not an
 * error. Returns 0, or -errno when uname fails or memory runs out (then *e is left released).
 */
int env_capture(struct run_env *e);

/*
 * Describe the storage behind path: a file, a directory or a block device, existing or not
 * (a path that does not exist yet is described by its nearest existing parent).
 * fs_type, device and mount_point come from the longest matching mount point in
 * /proc/self/mountinfo; for a block device path, device is the resolved device node and the
 * mount is the one whose source is that device (none if it is not mounted).
 * rotational, model and logical_block_size come from sysfs for the block device behind the
 * path (the whole disk for a partition); without one (tmpfs, overlay, virtiofs) rotational
 * stays -1, model NULL and logical_block_size falls back to statvfs f_bsize.
 * *t is overwritten. A missing sysfs file only leaves its field unknown. Returns 0, -EINVAL
 * for an empty path, -ENOMEM, or the -errno of resolving path when it and all its parents
 * are unusable; on failure *t is left released.
 */
int env_target_info(const char *path, struct env_target *t);

/*
 * env_target_info(path) appended to e->targets, unless a target with the same path string is
 * already there (then it returns 0 and changes nothing). Returns 0 or -errno as
 * env_target_info; on failure e is unchanged.
 */
int env_add_target(struct run_env *e, const char *path);

/* True when the target's file system is tmpfs (no O_DIRECT before Linux 6.6); false for NULL
 * or an unknown fs_type. */
bool env_fs_is_tmpfs(const struct env_target *t);

/* Free the strings of t and reset it (rotational -1); safe on a zeroed or released target. */
void env_target_release(struct env_target *t);

/* Free everything e owns, targets included, and zero it; safe to call twice. */
void env_release(struct run_env *e);

#endif
