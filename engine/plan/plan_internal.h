/* What the planner's files share (plan.c, plan_files.c): its working state and the way it
 * reports a problem at a job key. Not for use outside the planner. */
#ifndef IOTRIAL_PLAN_INTERNAL_H
#define IOTRIAL_PLAN_INTERNAL_H

#include <sys/stat.h>

#include "engine/plan/plan.h"

/* A {device} expansion: the text it read, for which device, and the string it made. */
struct plan_expansion {
	const char *in, *device;
	char *out;
};

struct planner {
	const struct exp_spec *s;
	struct plan *p;
	struct diag *d;
	int status;    /* 0, PLAN_EENV or PLAN_ESPEC; a spec error wins */
	bool oom;      /* an allocation failed: planning stops */
	char *namebuf; /* room to format an instance's name in */
	size_t namecap;
	/* Files iotrial creates that another instance may share, by path (plan_files.c):
	 * an open-addressing hash table of nfiles in filecap slots, a power of two. */
	struct plan_file **files;
	size_t nfiles, filecap;
	/* The last folder check_dir found fit for dir_ok_bytes: instances by the thousand
	 * naming one folder stat it once (plan_files.c). */
	char *dir_ok;
	uint64_t dir_ok_bytes;
	/* The last {device} expansion of a target ([0]) and a source ([1]): what it read, for
	 * which device, and the instance's string it made, which the next instances of the
	 * job borrow (plan_release frees every instance's at once). */
	struct plan_expansion expanded[2];
	/* The last existing file or device plan_in_use found in use by no file system: a
	 * 100000-point plan writing one file walks /sys/block once, not 100000 times. */
	struct stat unused;
	bool unused_known;
};

/* Report a problem of `kind` (PLAN_ESPEC or PLAN_EENV) at `loc`. */
void plan_fail(struct planner *pl, int kind, const struct src_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* An allocation failed: report it once (PLAN_EENV), and stop planning. */
void plan_oom(struct planner *pl);

/* Where key `k` of instance `in` was set; the job itself when the key was defaulted. */
const struct src_loc *plan_where(const struct instance *in, enum job_key_id k);

/* Is `path` `dir` or inside it? */
bool plan_under(const char *path, const char *dir);

/* The longest instance name iotrial puts into a file name: a scratch file
 * (iotrial.NAME.dat.PID, .shared.RUNID, .rN.PID) or a record log (NAME.intervals.csv),
 * with room left under the file systems' 255 bytes for every suffix. */
#define PLAN_FILE_NAME_MAX 200

/* Refuse (a spec error at the job) an instance whose name would make a file name too long;
 * called where a scratch file or a record log is planned. */
void plan_name_fits(struct planner *pl, const struct instance *in);

/* The files an instance reads and writes: resolved, checked, shared (plan_files.c). */
void plan_files(struct planner *pl, struct instance *in);

/* The size of the existing file or block device `path`, which stat(2) found as `st`
 * (plan_ids.c, as are the three below): st_size, or a block device's size asked of the device,
 * opened without waiting for a FIFO and checked with fstat to be still the device `st` is. Returns
 * 0 with the size in *size (0 when unknown), or -ESTALE when something else took the path's place.
 */
int plan_existing_size(const char *path, const struct stat *st, uint64_t *size);

/* The message for plan_existing_size's -ESTALE, at `loc` for key `kname`. */
void plan_changed(struct planner *pl, const struct src_loc *loc, const char *kname,
		  const char *path);

/* Note what the existing file `in` uses (its target, or a copy's or copytree's source) is,
 * as `st` says, for the run to pin (in->seen_id, see plan_seen). */
void plan_note_id(struct planner *pl, struct instance *in, const struct stat *st);

/* safety_in_use (lib/safety.h) of what stat(2) found as `st`, remembering the last thing
 * found in use by nothing. */
bool plan_in_use(struct planner *pl, const struct stat *st, char *why, size_t len);

/* Note the folder `dir` as `st` says it is, for the run to hold that one; the first look at
 * a folder is the one noted. */
void plan_note_dir(struct planner *pl, const char *dir, const struct stat *st);

/* O_DIRECT size rules against the target's logical block size (plan_files.c). */

void plan_direct(struct planner *pl, struct instance *in);

/* The workload's structured keys (distribution, mixes) parsed into in->wl and checked
 * against the rest of the job (plan_workload.c). */
void plan_workload(struct planner *pl, struct instance *in);

/* cpus, nice, ioprio, sched: parsed into in->wl, and refused when this process may not take
 * them (plan_sched.c). */
void plan_sched(struct planner *pl, struct instance *in);

/* A shared file across ranks
: one rank creates it (plan_files.c). */
void plan_dist_files(struct planner *pl, struct instance *in);

/* A wrapper's wrapped backend (in->be becomes the table it runs on; NULL when that backend
 * is not in this build), the job's backend options checked against its backend's tables
 * (plan_backend.c). */
void plan_backend_options(struct planner *pl, struct instance *in);

/* The backend as the job names it, for messages: "sync", "fault over io_uring". */
void plan_backend_text(const struct instance *in, char *buf, size_t len);

/* Offer the files `in` creates to the instances planned after it, which share one at the
 * same path (plan_files.c). Call once its files are final. */
void plan_files_offer(struct planner *pl, struct instance *in);

/* Refuse (a spec error at the later job) two instances that would share a file named after
 * each: a record, interval or hook log, or a copy's destination (plan_names.c). Call once
 * every instance's files are planned. */
void plan_own_names(struct planner *pl);

/* The plan's size from the spec alone (plan_bounds.c): at most PLAN_MAX_INSTANCES
 * instances, and no more memory for the plan and its results than the machine has. Sets
 * *ninst to the instances to make room for; returns pl->status. */
int plan_size(struct planner *pl, size_t *ninst);

/* What a unit's workers hold at once (plan_bounds.c): 0, or PLAN_EENV with the reason in
 * `d` when the largest unit would not fit in this machine's memory. */
int plan_memory(const struct plan *p, struct diag *d);

#endif
