/* The workload keys whose values have a structure of their own (an access distribution, a
 * block-size mix, a read/write mix): their text as the job file writes it, parsed into plain
 * structures. The parser calls these to check a value where it is written; the planner
 * calls them again to build what the workers use. One spelling, one parser. */
#ifndef IOTRIAL_WLOPTS_H
#define IOTRIAL_WLOPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WL_ZONES_MAX 64
#define WL_SIZES_MAX 64

enum wl_dist_kind { WL_DIST_UNIFORM, WL_DIST_ZIPF, WL_DIST_PARETO, WL_DIST_NORMAL, WL_DIST_ZONED };

/* distribution: uniform | zipf:THETA | pareto:H | normal:SIGMA[:CENTER] |
 * zoned:ACCESS/SIZE:ACCESS/SIZE... (percentages; fio's random_distribution spellings). */
struct wl_dist {
	enum wl_dist_kind kind;
	double param; /* zipf: theta (> 0); pareto: h (0 < h < 1); normal: sigma, % of the region */
	double center; /* normal: where the mean lies, 0..1 of the region (0.5) */
	uint32_t nzones;
	double zone_access[WL_ZONES_MAX]; /* zoned: % of the I/Os ... */
	double zone_size[WL_ZONES_MAX];	  /* ... that fall in this % of the region, in order */
};

/* block_split: SIZE:WEIGHT,SIZE:WEIGHT... (weights are percentages, adding to 100) or a
 * range MIN-MAX (sizes drawn uniformly among the multiples of MIN). */
struct wl_sizes {
	uint32_t n; /* entries of a weighted list; 0 for a range */
	bool range; /* MIN-MAX */
	uint64_t min, max;
	uint64_t size[WL_SIZES_MAX];
	uint32_t pct[WL_SIZES_MAX];
};

/* How a worker is scheduled: cpus: 0-1,4 | nice: N | ioprio: {class: rt|be|idle, level: N} |
 * sched: fifo|rr. */
#define WL_CPUS_MAX 1024
enum wl_ioprio_class { WL_IOPRIO_NONE, WL_IOPRIO_RT, WL_IOPRIO_BE, WL_IOPRIO_IDLE };

struct wl_sched {
	bool cpus_set;
	uint64_t cpus[WL_CPUS_MAX / 64]; /* bit i: CPU i */
	bool nice_set;
	int nice; /* -20 .. 19 */
	enum wl_ioprio_class ioprio_class;
	int ioprio_level; /* 0 (highest) .. 7 */
	int policy;	  /* 0: unchanged; 1: SCHED_FIFO, 2: SCHED_RR (Linux's numbers) */
};

/* What an instance's workers do beyond one size, one direction and uniform offsets; the
 * planner fills it from the job's keys (engine/plan/plan_workload.c). */
struct wl_opts {
	bool skewed; /* dist is not uniform */
	struct wl_dist dist;
	bool split; /* sizes holds a mix of I/O sizes */
	struct wl_sizes sizes;
	bool mixed;	   /* readwrite, randrw */
	uint32_t read_pct; /* ... the reads' share, in percent */
	bool scheduled;	   /* sched holds something to apply */
	struct wl_sched sched;
};

/* cpus: "0-1,4"; nice: "-5"; ioprio: "class:rt,level:4". 0, or -EINVAL / -ERANGE. */
int wl_cpus_parse(const char *text, struct wl_sched *s, char *err, size_t errlen);
int wl_nice_parse(const char *text, struct wl_sched *s, char *err, size_t errlen);
int wl_ioprio_parse(const char *text, struct wl_sched *s, char *err, size_t errlen);
int wl_cpus_check(const char *text, char *err, size_t errlen);
int wl_nice_check(const char *text, char *err, size_t errlen);
int wl_ioprio_check(const char *text, char *err, size_t errlen);

/* Parse a distribution. Returns 0, or -EINVAL / -ERANGE with one line in `err`. */
int wl_dist_parse(const char *text, struct wl_dist *d, char *err, size_t errlen);

/* Parse a block-size split. Returns 0, or -EINVAL / -ERANGE with one line in `err`. */
int wl_sizes_parse(const char *text, struct wl_sizes *s, char *err, size_t errlen);

/* Parse a read/write mix: read:R,write:W (percentages adding to 100; either alone leaves
 * the rest to the other). *read_pct gets R. Returns 0, or -EINVAL / -ERANGE. */
int wl_mix_parse(const char *text, uint32_t *read_pct, char *err, size_t errlen);

/* The first listed size that is not a multiple of `align`; 0 when all are. */
uint64_t wl_sizes_misaligned(const struct wl_sizes *s, uint64_t align);

/* The key table's checks
 (model/jobkeys.c): parse into a scratch value, keep the verdict. */
int wl_dist_check(const char *text, char *err, size_t errlen);
int wl_sizes_check(const char *text, char *err, size_t errlen);
int wl_mix_check(const char *text, char *err, size_t errlen);

#endif
