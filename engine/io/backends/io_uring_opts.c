/* The io_uring backend's option table (see io_uring_opts.h): compiled whether or not
 * liburing is, so every build knows the keys; io_uring.c reads them with be_opts_load. */
#include <errno.h>
#include <stdio.h>

#include "engine/io/backends/io_uring_opts.h"

#define OFF(f) offsetof(struct uring_opts, f)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const struct job_key be_io_uring_options[] = {
    {"io_uring_register_files", KT_BOOL, OFF(register_files), "false", 0, 0, NULL,
     "register the worker's files with the ring (fio registerfiles): the kernel skips taking and dropping a file reference per I/O",
     "io_uring_register_files: true"},
    {"io_uring_fixed_buffers", KT_BOOL, OFF(fixed_buffers), "false", 0, 0, NULL,
     "register the worker's I/O buffers with the ring (fio fixedbufs): with direct I/O the kernel maps their pages once, not per I/O",
     "io_uring_fixed_buffers: true"},
    {"io_uring_sqpoll", KT_BOOL, OFF(sqpoll), "false", 0, 0, NULL,
     "a kernel thread polls the submission ring (fio sqthread_poll): I/Os are handed over without a system call, at the cost of a CPU spinning",
     "io_uring_sqpoll: true"},
    {"io_uring_sqpoll_idle", KT_DURATION, OFF(sqpoll_idle_ns), "1s", 1 * MSEC, 60000 * MSEC, NULL,
     "with io_uring_sqpoll: how long the polling thread spins without work before it sleeps (whole milliseconds)",
     "io_uring_sqpoll_idle: 10ms"},
    {"io_uring_sqpoll_cpu", KT_UINT, OFF(sqpoll_cpu), NULL, 0, 4095, NULL,
     "with io_uring_sqpoll: the CPU the polling thread runs on (fio sqthread_poll_cpu); unset: where the scheduler puts it",
     "io_uring_sqpoll_cpu: 1"},
    {"io_uring_hipri", KT_BOOL, OFF(hipri), "false", 0, 0, NULL,
     "polled completions (IORING_SETUP_IOPOLL, fio hipri): the worker polls the device instead of sleeping until an interrupt; needs direct: true and a device with poll queues",
     "io_uring_hipri: true"},
    {"io_uring_batch_submit", KT_UINT, OFF(batch_submit), "0", 0, URING_MAX_DEPTH, NULL,
     "hand the kernel I/Os this many at a time as they are queued (fio iodepth_batch_submit); 0: two at a time, then (random offsets) four, the last with the wait",
     "io_uring_batch_submit: 1"},
    {"io_uring_batch_complete_min", KT_UINT, OFF(batch_complete_min), "1", 1, URING_MAX_DEPTH, NULL,
     "wait for at least this many completions (or all in flight, if fewer) before taking any (fio iodepth_batch_complete_min)",
     "io_uring_batch_complete_min: 8"},
    {"io_uring_batch_complete_max", KT_UINT, OFF(batch_complete_max), "0", 0, URING_MAX_DEPTH, NULL,
     "take at most this many completions at a time (fio iodepth_batch_complete_max); 0: up to iodepth",
     "io_uring_batch_complete_max: 4"},
    {NULL},
};
#pragma GCC diagnostic pop

int be_io_uring_check(const void *opts, char *why, size_t len, const char **key)
{
	const struct uring_opts *o = opts;

	if (!o->batch_complete_max || o->batch_complete_min <= o->batch_complete_max)
		return 0;
	*key = "io_uring_batch_complete_min";
	snprintf(why, len,
		 "io_uring_batch_complete_min (%u) is above io_uring_batch_complete_max (%u)",
		 o->batch_complete_min, o->batch_complete_max);
	return -EINVAL;
}
