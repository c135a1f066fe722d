/* The fault backend: the sync backend with faults injected, after SQLite's test VFS — EIO
 * at an offset or at random, short transfers, ENOSPC past a byte count, added latency.
 * Tests use it to prove that errors are counted and reported with path and offset, that
 * short transfers are completed, and that a stalled device shows in the latency tail. */
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "engine/io/backends/backend.h"
#include "lib/rng.h"
#include "model/spec.h"

extern const struct be_ops be_sync;

struct fault {
	const struct job_spec *job;
	uint64_t rng;
	uint64_t ios;
	uint64_t written;
};

static int fault_init(void *priv, const struct be_config *cfg)
{
	struct fault *f = priv;

	f->job = cfg->job;
	f->rng = cfg->seed ^ 0xfa017u;
	return 0;
}

static int fault_open(void *priv, int dirfd, const char *path, int flags, mode_t mode)
{
	return be_sync.open(NULL, dirfd, path, flags, mode);
}

static int fault_queue(void *priv, struct be_io *io)
{
	struct fault *f = priv;
	const struct job_spec *j = f->job;
	uint32_t len = io->len;

	f->ios++;
	if (j->fault_delay_ns && f->ios % j->fault_delay_every == 0) {
		struct timespec ts = {(time_t)(j->fault_delay_ns / 1000000000ull),
				      (long)(j->fault_delay_ns % 1000000000ull)};
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}
	if (io->op != BE_FSYNC) {
		if (j->key_loc[JK_FAULT_EIO_OFFSET].file && j->fault_eio_offset >= io->offset &&
		    j->fault_eio_offset < io->offset + io->len) {
			io->result = -EIO;
			return BE_DONE;
		}
		if (j->fault_eio_rate > 0 && rng_uniform(&f->rng) < j->fault_eio_rate) {
			io->result = -EIO;
			return BE_DONE;
		}
		if (io->op == BE_WRITE && j->key_loc[JK_FAULT_ENOSPC_AFTER].file &&
		    f->written + io->len > j->fault_enospc_after) {
			io->result = -ENOSPC;
			return BE_DONE;
		}
		if (j->fault_short && io->len > 1)
			io->len = io->len / 2; /* the core must come back for the rest */
	}
	be_sync.queue(NULL, io);
	io->len = len;
	if (io->op == BE_WRITE && io->result > 0)
		f->written += (uint64_t)io->result;
	return BE_DONE;
}

static int fault_close(void *priv, int fd)
{
	return be_sync.close(NULL, fd);
}

const struct be_ops be_fault = {
    .name = "fault",
    .help = "sync with injected faults (fault_* keys): EIO, short transfers, ENOSPC, delays",
    .flags = BE_F_DIRECT,
    .max_iodepth = 1,
    .priv_size = sizeof(struct fault),
    .init = fault_init,
    .open = fault_open,
    .queue = fault_queue,
    .close = fault_close,
};
