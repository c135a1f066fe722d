/* Per-I/O and per-interval logs, written by each worker through its own buffer straight to
 * a shared O_APPEND file: whole lines per write(2), constant memory however long the run.
 * Lines carry the trial, worker and rank, so workers and ranks share one file. In a
 * distributed run rank 0's workers write to the result folder's log, the other ranks' to a
 * spool file of their own, which reclog_gather streams to rank 0 after each trial. */
#ifndef IOTRIAL_RECLOG_H
#define IOTRIAL_RECLOG_H

#include <stddef.h>
#include <stdint.h>

#define RECLOG_BUF 65536

/* The room a record line may take while it is built: eight numbers of up to 20 digits and
 * their separators, and the whole fixed fields copied past their real end. */
#define RECLOG_LINE_MAX 256

struct reclog {
	int fd; /* -1: not logging */
	uint32_t trial, worker, rank;
	int err; /* the first write error (-errno); logging stops there */
	size_t len;
	/* Record lines' fixed parts, formatted once: "trial,worker," and ",rank\n", and the
	 * bytes field ("4096,") of the last size logged; the seq field of the last record,
	 * which the next one mostly increments (seq_len 0: none yet). */
	char head[24], tail[16], bytes[24], seq[24];
	uint8_t head_len, tail_len, bytes_len, seq_len;
	uint64_t last_bytes, last_seq;
	char buf[RECLOG_BUF];
};

/* The header lines the run writes when it creates each file. */
#define RECLOG_HEADER "trial,worker,seq,offset,bytes,start_ns,latency_ns,rank\n"
#define INTLOG_HEADER "trial,worker,start_ns,end_ns,bytes,ios,bw_bytes,iops,lat_mean_ns,rank\n"

/* What reclog_gather moves per message: a rank's lines, at most this many bytes at a time,
 * so rank 0 holds one chunk whatever a rank logged. */
#define RECLOG_CHUNK (1u << 20)

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

/* A spool for the log lines of a rank other than rank 0: an unlinked file in $TMPDIR (else
 * /tmp), opened O_APPEND, gone when closed. Returns its descriptor or -errno. */
int reclog_spool_open(void);

/* Collective (every rank, in the same order): the lines every other rank has in its spool
 * `fd` appended at rank 0 to its log `fd`, rank after rank, RECLOG_CHUNK bytes at a time;
 * rank 0 asks each rank in turn, so no rank sends before rank 0 waits for it. Each spool
 * is emptied. `local_err` is this rank's own logging error of the trial (-errno, 0: none).
 * On rank 0: the first rank whose lines are incomplete (its local_err, or a spool it could
 * not read) in *bad_rank and its -errno in *bad_err (0: none), and the return value is 0
 * or the error writing to `fd` (the lines are then dropped, the ranks stay in step). On the
 * others: 0. A broken transport stops every rank (dist_abort). */
int reclog_gather(int fd, int local_err, int *bad_rank, int *bad_err);

#endif
