/* The memory this process may use: the machine's physical memory, or less where its cgroup
 * (v2) sets memory.max, in itself or in a cgroup above it. */
#ifndef IOTRIAL_MEMLIMIT_H
#define IOTRIAL_MEMLIMIT_H

#include <stddef.h>
#include <stdint.h>

/* Where the kernel says it. */
#define MEMLIMIT_PROC_CGROUP "/proc/self/cgroup"
#define MEMLIMIT_CGROUP_ROOT "/sys/fs/cgroup"

/* A memory.max file's text: "max" (no limit) gives 0 in *out, a number of bytes that
 * number. Returns 0, or -EINVAL for anything else (trailing text, a sign, overflow). */
int memlimit_parse_max(const char *text, uint64_t *out);

/* The cgroup v2 path in a /proc/PID/cgroup file's text (its "0::PATH" line), into `out`
 * (`len` bytes). Returns 0, -ENOENT without such a line (cgroup v1 only), -ENAMETOOLONG. */
int memlimit_cgroup_path(const char *text, char *out, size_t len);

/* The smallest memory.max of the cgroup `proc_cgroup` names (a /proc/PID/cgroup file) and
 * of every cgroup above it, under the cgroup v2 mount `root`; 0 when none sets one, or
 * when the files cannot be read (cgroup v1, no /proc). */
uint64_t memlimit_cgroup(const char *proc_cgroup, const char *root);

/* The machine's physical memory in bytes (0: unknown). */
uint64_t memlimit_physical(void);

/* Of `physical` bytes and a cgroup limit of `cgroup` bytes (0 for either: unknown, none),
 * the one that binds: the cgroup's where smaller (then *is_cgroup is 1, else 0). */
uint64_t memlimit_least(uint64_t physical, uint64_t cgroup, int *is_cgroup);

/* What this process may use: memlimit_least() of memlimit_physical() and memlimit_cgroup()
 * of this process. 0: unknown. */
uint64_t memlimit_usable(int *cgroup);

#endif
