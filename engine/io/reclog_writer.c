/* A record log's writer thread (see reclog_writer.h). One block handed over costs a mutex
 * and, when the other side sleeps, one wake-up: per RECLOG_BLOCK I/Os, not per I/O. */
#include "engine/io/reclog_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>

static void write_block(struct reclog_writer *w, const struct reclog_entry *b, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		reclog_record(&w->text, b[i].seq, b[i].offset, b[i].bytes, b[i].start_ns,
			      b[i].latency_ns);
}

static void *writer_main(void *arg)
{
	struct reclog_writer *w = arg;
	struct rusage ru;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (w->tail == w->head && !w->done)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->tail == w->head)
			break;
		unsigned i = w->tail % RECLOG_BLOCKS;
		pthread_mutex_unlock(&w->mu);
		write_block(w, w->blocks + (size_t)i * RECLOG_BLOCK, w->count[i]);
		pthread_mutex_lock(&w->mu);
		w->tail++;
		pthread_cond_signal(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	reclog_flush(&w->text);
	getrusage(RUSAGE_THREAD, &ru);
	w->cpu_user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	w->cpu_sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return NULL;
}

int reclog_writer_start(struct reclog_writer *w, int fd, uint32_t trial, uint32_t worker,
			uint32_t rank)
{
	reclog_init(&w->text, fd, trial, worker, rank);
	/* On whole cache lines, so that every line of the ring is streamed whole, the blocks'
	 * edges too (the size, 40 * 4096 * 8 bytes, is a multiple of 64). */
	w->blocks = aligned_alloc(64, sizeof(*w->blocks) * RECLOG_BLOCK * RECLOG_BLOCKS);
	if (!w->blocks)
		return -ENOMEM;
	w->cur = w->blocks;
	w->n = w->head = w->tail = 0;
	w->done = w->joined = false;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	/* It inherits the worker's CPUs, nice value and scheduling policy. */
	w->threaded = pthread_create(&w->thread, NULL, writer_main, w) == 0;
	return 0;
}

void reclog_writer_hand(struct reclog_writer *w)
{
	unsigned i;

	reclog_writer_fence();
	if (!w->threaded) {
		write_block(w, w->cur, w->n);
		w->n = 0;
		return;
	}
	pthread_mutex_lock(&w->mu);
	w->count[w->head % RECLOG_BLOCKS] = w->n;
	w->head++;
	pthread_cond_signal(&w->cv);
	while (w->head - w->tail == RECLOG_BLOCKS)
		pthread_cond_wait(&w->cv, &w->mu);
	i = w->head % RECLOG_BLOCKS;
	pthread_mutex_unlock(&w->mu);
	w->cur = w->blocks + (size_t)i * RECLOG_BLOCK;
	w->n = 0;
}

int reclog_writer_finish(struct reclog_writer *w)
{
	if (!w->blocks || w->joined)
		return w->text.err;
	reclog_writer_fence();
	if (!w->threaded) {
		write_block(w, w->cur, w->n);
		w->n = 0;
		reclog_flush(&w->text);
	} else {
		pthread_mutex_lock(&w->mu);
		if (w->n) {
			w->count[w->head % RECLOG_BLOCKS] = w->n;
			w->head++;
			w->n = 0;
		}
		w->done = true;
		pthread_cond_signal(&w->cv);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->thread, NULL);
	}
	w->joined = true;
	return w->text.err;
}

void reclog_writer_release(struct reclog_writer *w)
{
	if (!w->blocks)
		return;
	reclog_writer_finish(w);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w->blocks);
	w->blocks = NULL;
}
