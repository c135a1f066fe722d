/* The null backend: every I/O completes at once without touching a device, so a run on it
 * measures the engine's own cost per I/O (and makes end-to-end tests deterministic). */
#include "engine/io/backends/backend.h"

static int null_open(void *priv, int dirfd, const char *path, int flags, mode_t mode)
{
	return 0;
}

static int null_queue(void *priv, struct be_io *io)
{
	io->result = io->op == BE_FSYNC ? 0 : (int64_t)io->len;
	return BE_DONE;
}

static int null_close(void *priv, int fd)
{
	return 0;
}

const struct be_ops be_null = {
    .name = "null",
    .help = "completes every I/O at once, touches no device: the engine's own cost per I/O",
    .flags = BE_F_NOIO | BE_F_ASYNC,
    .max_iodepth = 65536,
    .open = null_open,
    .queue = null_queue,
    .close = null_close,
};
