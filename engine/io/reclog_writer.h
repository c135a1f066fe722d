/* A worker's record log, formatted and written by a thread of its own: the worker only
 * stores each I/O's numbers into blocks of a small ring, so turning them into text and
 * write(2) into the page cache (which the kernel may also throttle when a log grows large)
 * stay off its I/O path. A full ring makes the worker wait: no record is lost and memory
 * stays constant. See docs/performance.md, "The record log". */
#ifndef IOTRIAL_RECLOG_WRITER_H
#define IOTRIAL_RECLOG_WRITER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/io/reclog.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

/* 1.25 MiB a worker. A ring of 4 blocks of 2,048 (320 KiB) left either side waiting for the
 * other's wake-up: 11.5-13.4 M logged IO/s on the null backend against 15.6-18.2 M with
 * this one (docs/performance.md, "The record log"); 16 blocks gained nothing more. */
#define RECLOG_BLOCK  4096 /* records per block handed to the thread */
#define RECLOG_BLOCKS 8	   /* blocks in the ring */

struct reclog_entry {
	uint64_t seq, offset, start_ns, latency_ns, bytes;
};

struct reclog_writer {
	/* The worker's side, written per I/O. */
	struct reclog_entry *cur; /* the block being filled */
	unsigned n;		  /* records in it */
	/* Shared, under mu: blocks [tail, head) (modulo RECLOG_BLOCKS) wait for the thread. */
	pthread_mutex_t mu;
	pthread_cond_t cv; /* the thread waits for a block, or the worker for a free one */
	unsigned head, tail;
	unsigned count[RECLOG_BLOCKS];
	bool done, threaded, joined;
	pthread_t thread;
	struct reclog_entry *blocks;
	/* The thread's: its CPU time, set when it ends. */
	double cpu_user_s, cpu_sys_s;
	struct reclog text;
};

/* Start logging to `fd` (see reclog_init). Starts the thread; without one (it could not be
 * created) the worker formats and writes each full block itself. 0 or -ENOMEM. */
int reclog_writer_start(struct reclog_writer *w, int fd, uint32_t trial, uint32_t worker,
			uint32_t rank);

/* Hand the full block to the thread and take the next free one (the worker's side). */
void reclog_writer_hand(struct reclog_writer *w);

/* A store past the cache (x86-64's movnti), ordered before the block is handed over by
 * reclog_writer_fence (in reclog_writer_hand and _finish). The worker writes each line of
 * the ring once and the log thread, on the other CPU, reads it once: an ordinary store
 * first fetches the line, which the log thread read last (1.25 MiB ago, more than a core's
 * L2), stalling the worker once every 1.6 records (docs/performance.md, "Stores past the
 * cache"). */
static inline void reclog_store(uint64_t *p, uint64_t v)
{
#if defined(__x86_64__)
	_mm_stream_si64((long long *)p, (long long)v);
#else
	*p = v;
#endif
}

static inline void reclog_writer_fence(void)
{
#if defined(__x86_64__)
	_mm_sfence();
#endif
}

/* One record (see reclog_record): stores into the current block. */
static inline void reclog_writer_add(struct reclog_writer *w, uint64_t seq, uint64_t offset,
				     uint64_t bytes, uint64_t start_ns, uint64_t latency_ns)
{
	struct reclog_entry *e = &w->cur[w->n];

	reclog_store(&e->seq, seq);
	reclog_store(&e->offset, offset);
	reclog_store(&e->bytes, bytes);
	reclog_store(&e->start_ns, start_ns);
	reclog_store(&e->latency_ns, latency_ns);
	if (++w->n == RECLOG_BLOCK)
		reclog_writer_hand(w);
}

/* Hand over what is left, wait until the thread has written everything and ended.
 * Returns 0 or the first write error (-errno). Idempotent. */
int reclog_writer_finish(struct reclog_writer *w);

/* Finish if needed, and free the blocks (not `w` itself). */
void reclog_writer_release(struct reclog_writer *w);

#endif
