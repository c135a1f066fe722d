/* A worker's scheduling (cpus, nice, ioprio, sched; model/wlopts.h), applied to the calling
 * thread before its trial starts. Linux keeps each of them per thread. */
#ifndef IOTRIAL_WORKER_SCHED_H
#define IOTRIAL_WORKER_SCHED_H

#include <stddef.h>

#include "model/wlopts.h"

/* Apply `s` to the calling thread. Returns 0, or -errno with what failed in `why`. */
int worker_sched_apply(const struct wl_sched *s, char *why, size_t len);

#endif
