/* The io_uring backend's options: its struct and table, compiled into every build, so a job
 * file that tunes io_uring parses (and the key table, the schema and the man pages are the
 * same) where liburing is missing; only running it needs the backend (io_uring.c). */
#ifndef IOTRIAL_IO_URING_OPTS_H
#define IOTRIAL_IO_URING_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/jobkeys.h"

#define URING_MAX_DEPTH 4096
#define MSEC		1000000ULL

struct uring_opts {
	bool register_files;
	bool fixed_buffers;
	bool sqpoll;
	uint64_t sqpoll_idle_ns;
	uint32_t sqpoll_cpu; /* only when set (be_opt_set) */
	bool hipri;
	uint32_t batch_submit;	     /* 0: the core's pairs */
	uint32_t batch_complete_min; /* at least this many completions per wait */
	uint32_t batch_complete_max; /* at most this many per reap; 0: iodepth */
};

extern const struct job_key be_io_uring_options[];

/* The rule the rows cannot state: the least batch of completions within the most. */
int be_io_uring_check(const void *opts, char *why, size_t len, const char **key);

#endif
