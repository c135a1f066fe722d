/* The sync backend: pread/pwrite/fsync, one I/O at a time, completed inside queue().
 * EINTR is retried here (it is not an outcome); short transfers go back to the core. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "engine/io/backends/backend.h"

static int sync_queue(void *priv, struct be_io *io)
{
	ssize_t r;

	do {
		switch (io->op) {
		case BE_READ:
			r = pread(io->fd, io->buf, io->len, (off_t)io->offset);
			break;
		case BE_WRITE:
			r = pwrite(io->fd, io->buf, io->len, (off_t)io->offset);
			break;
		default:
			r = fsync(io->fd);
			break;
		}
	} while (r < 0 && errno == EINTR);
	io->result = r < 0 ? -errno : r;
	return BE_DONE;
}

const struct be_ops be_sync = {
    .name = "sync",
    .help = "pread/pwrite, one I/O at a time; direct: true adds O_DIRECT",
    .flags = BE_F_DIRECT,
    .max_iodepth = 1,
    .open = be_plain_open,
    .queue = sync_queue,
    .close = be_plain_close,
};
