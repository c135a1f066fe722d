/* The distributed layer: which rank of a run this process is, and the few collective
 * operations a run needs (barrier, broadcast, gather, agreement, polling, abort). One transport is
 * compiled in: engine/dist/dist_serial.c (one rank; `make`) or engine/dist/dist_mpi.c (`make
 * MPI=1`). Another transport (a PMIx-only launcher, say) is one more file implementing the
 * functions marked "transport" below; engine/dist/dist.c holds what every transport shares.
 *
 * Threads: only the thread that called dist_init (the coordinating thread) may call these;
 * workers never do (MPI_THREAD_FUNNELED). Every collective must be called by every rank in
 * the same order, or the run hangs: the engine calls them from code paths that depend only
 * on the plan, which every rank builds from the same job file. */
#ifndef IOTRIAL_DIST_H
#define IOTRIAL_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define DIST_HOST_MAX 64 /* a host name as gathered: truncated, NUL-terminated */

/* Flags for dist_agree: ORed over every rank. */
#define DIST_FAILED 1 /* a trial failed on some rank */
#define DIST_SETUP  2 /* a rank could not set its trial up (open a target, lay out a file) */
#define DIST_STOP   4 /* a rank was interrupted: every rank stops after this trial */

/* transport: Join the run. Called once, before anything else here, with main's arguments.
 * Returns 0, or -errno with a message printed (the process should then exit 1). */
int dist_init(int *argc, char ***argv);

/* transport: Leave the run (every rank must call it, after its last collective). */
void dist_finalize(void);

/* transport: This process's rank (0..size-1), the number of ranks, its host name and its
 * rank among the ranks on its host. One rank of one in a serial build. */
int dist_rank(void);
int dist_size(void);
const char *dist_host(void);
int dist_local_rank(void);

/* transport: The transport's name for --version: "serial" or "MPI (Open MPI v4.1.4)". */
const char *dist_transport(void);

/* transport: Wait until every rank has arrived. Returns 0 or -EIO. */
int dist_barrier(void);

/* transport: Copy `len` bytes from rank 0's `buf` into every other rank's `buf`. Returns 0
 * or -EIO; `len` must be the same on every rank. */
int dist_bcast(void *buf, size_t len);

/* transport: Every rank's `len` bytes at `send`, in rank order, into `recv` (size * len
 * bytes): on rank 0 only (dist_gather; other ranks may pass NULL), or on every rank
 * (dist_allgather). Returns 0 or -EIO. */
int dist_gather(const void *send, void *recv, size_t len);
int dist_allgather(const void *send, void *recv, size_t len);

/* transport: Send `len` bytes at `buf` to rank `to`, blocking until the buffer may be reused.
 * Point to point, for streams that rank 0 paces itself (record logs: see reclog.h); the
 * receiver must be waiting for it. Returns 0, -EINVAL (len too large) or -EIO. */
int dist_send(int to, const void *buf, size_t len);

/* transport: Receive one message from rank `from` into `buf`, which holds `cap` bytes.
 * Returns its length, or -EIO (a longer message is an error too). */
ssize_t dist_recv(int from, void *buf, size_t cap);

/* transport: The bitwise OR of `flags` (DIST_*) over every rank, on every rank; `flags`
 * itself when there is one rank. */
int dist_agree(int flags);

/* transport: The bitwise OR of `*mask` over every rank, into `*mask` on every rank: a
 * collective like dist_agree, for a coordinating thread that polls while its workers run
 * (stonewalling). It waits in short sleeps, not inside MPI, so that a busy-polling
 * transport takes no CPU from the workers. Returns 0, or -EIO (`*mask` is then unchanged);
 * with one rank, 0 at once. */
int dist_poll_or(uint64_t *mask);

/* transport: Stop every rank of the run now, after printing "iotrial: rank R (HOST): MSG"
 * on stderr. For states from which no agreement is possible; never returns. */
_Noreturn void dist_abort(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The run's id: rank 0's process id once dist_share_run_id has run (collective), else this
 * process's. Names the files that every rank shares. */
long dist_run_id(void);
int dist_share_run_id(void);

/* Broadcast a malloc'd buffer of any length from rank 0: on the other ranks *buf and *len
 * are replaced by a copy of rank 0's (a NULL buffer stays NULL). Returns 0, -ENOMEM or -EIO. */
int dist_bcast_buf(char **buf, size_t *len);

/* Refuse a launch in which each process thinks it is alone while the launcher started
 * several (a serial build, or an MPI build of another MPI, under mpirun or srun): every
 * process would be rank 0 and write the same results. Returns 0, or -EINVAL with the
 * reason in `why`. */
int dist_check_launch(char *why, size_t len);

/* Check that every rank runs the same iotrial (version, histogram layout, transport) on
 * the same job text (`hash`, 64 hex digits). Collective. Returns 0, or -EINVAL with one
 * message naming the first rank that differs and how in `why` (the same on every rank). */
int dist_check_peers(const char *hash, char *why, size_t len);

#endif
