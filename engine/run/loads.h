/* The workloads that are not a stream of I/Os on one file: copytree (copy a folder tree
 * file by file, like `rsync -a` without a network) and command (an external program, such
 * as a real rsync, run with /bin/sh -c). Both mostly serve as background load. */
#ifndef IOTRIAL_LOADS_H
#define IOTRIAL_LOADS_H

#include <stddef.h>

#include "model/spec.h"
#include "engine/io/worker.h"

/* A copytree's two folders: the source, open for reading, and the copy's root, which the
 * trial made (engine/run/ledger.h) and which stays open and owned by the caller. Everything
 * the copy makes inside the root is noted in `dst_log`. The paths are for messages. */
struct loads_tree {
	const char *src, *dst;
	int src_fd, dst_fd, dst_log;
};

/* Run job `j`'s copytree (from t->src into the folder t->dst, which must be empty) or
 * command once, or, with w->stop_bg set, again and again until it is raised (emptying the
 * copy between rounds). Passes worker_gate first. Fills `o` (a copytree's I/Os are its
 * chunks; a command is one I/O per run). Returns 0 or -errno with a message in `err`. */
int loads_run(const struct worker_job *w, const struct job_spec *j, const struct loads_tree *t,
	      char *err, size_t errlen, struct worker_out *o);

#endif
