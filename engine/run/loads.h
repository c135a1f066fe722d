/* The workloads that are not a stream of I/Os on one file: copytree (copy a folder tree
 * file by file, like `rsync -a` without a network) and command (an external program, such
 * as a real rsync, run with /bin/sh -c). Both mostly serve as background load. */
#ifndef IOTRIAL_LOADS_H
#define IOTRIAL_LOADS_H

#include <stddef.h>
#include <sys/stat.h>

#include "model/spec.h"
#include "engine/io/worker.h"

/* A copytree's two folders: the source, open for reading, and the copy's root, which the
 * trial made (engine/run/ledger.h) and which stays open and owned by the caller. Everything
 * the copy makes inside the root is noted in `dst_log`. The paths are for messages; so is
 * `src_why`, the whole reason when the source was not opened (src_fd -errno) for another
 * cause than its open's errno (a folder put in the place of the one checked); else NULL. */
struct loads_tree {
	const char *src, *dst;
	int src_fd, dst_fd, dst_log;
	const char *src_why;
};

/* Run job `j`'s copytree (from t->src into the folder t->dst, which must be empty) or
 * command once, or, with w->stop_bg set, again and again until it is raised (emptying the
 * copy between rounds). Passes worker_gate first. Fills `o` (a copytree's I/Os are its
 * chunks; a command is one I/O per run). Returns 0 or -errno with a message in `err`. */
int loads_run(const struct worker_job *w, const struct job_spec *j, const struct loads_tree *t,
	      char *err, size_t errlen, struct worker_out *o);

/* Open for reading the entry `name` of the source folder open as `from` (`path` names it in
 * messages), which was `seen` (a file or a folder, by its mode) when the folder was read.
 * Never follows a symlink, never waits for a FIFO, and checks with fstat that what it opened
 * is still a file or a folder as seen: the caller decides on *st, never on the name.
 * Returns the fd (O_NONBLOCK cleared) with its fstat in *st; -ENOENT when the entry is gone
 * (no message); or -errno with one line in `err`: -ELOOP for a symlink, -ESTALE for an
 * entry of another kind (a FIFO, a device, a folder for a file) put in its place. */
int loads_open_entry(int from, const char *name, const char *path, mode_t seen, struct stat *st,
		     char *err, size_t errlen);

#endif
