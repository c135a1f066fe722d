/* Per-I/O and per-interval logs, written by each worker through its own buffer straight to
 * a shared O_APPEND file: whole lines per write(2), constant memory however long the run.
 * Lines carry the trial, worker and rank, so workers (and ranks) share one file. */
#ifndef IOTRIAL_RECLOG_H
#define IOTRIAL_RECLOG_H

#include <stddef.h>
#include <stdint.h>

#define RECLOG_BUF 65536

struct reclog {
	int fd; /* -1: not logging */
	uint32_t trial, worker, rank;
	int err; /* the first write error (-errno); logging stops there */
	size_t len;
	char buf[RECLOG_BUF];
};

/* The header lines the run writes when it creates each file. */
#define RECLOG_HEADER "trial,worker,seq,offset,bytes,start_ns,latency_ns,rank\n"
#define INTLOG_HEADER "trial,worker,start_ns,end_ns,bytes,ios,bw_bytes,iops,lat_mean_ns,rank\n"

/* Start logging to `fd` (-1: not logging) the lines of one worker's trial. */
void reclog_init(struct reclog *r, int fd, uint32_t trial, uint32_t worker, uint32_t rank);

/* One record: start_ns from the trial's start. */
void reclog_record(struct reclog *r, uint64_t seq, uint64_t offset, uint64_t bytes,
		   uint64_t start_ns, uint64_t latency_ns);

/* An interval line: [start_ns, end_ns) from the trial's start, with its totals. */
void reclog_interval(struct reclog *r, uint64_t start_ns, uint64_t end_ns, uint64_t bytes,
		     uint64_t ios, double lat_sum_ns);

/* Write out what is buffered. Returns 0 or the first error. */
int reclog_flush(struct reclog *r);

#endif
