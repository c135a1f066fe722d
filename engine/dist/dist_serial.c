/* The serial transport (see dist.h): one rank of one, every collective a copy or nothing.
 * The Makefile builds this file or engine/dist/dist_mpi.c, never both: this one unless `make
 * MPI=1`. */
#include "engine/dist/dist.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char host[DIST_HOST_MAX];

int dist_init(int *argc, char ***argv)
{
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = 0;
	return 0;
}

void dist_finalize(void)
{
}

int dist_rank(void)
{
	return 0;
}

int dist_size(void)
{
	return 1;
}

const char *dist_host(void)
{
	if (!host[0] && gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "localhost");
	return host;
}

int dist_local_rank(void)
{
	return 0;
}

const char *dist_transport(void)
{
	return "serial";
}

int dist_barrier(void)
{
	return 0;
}

int dist_bcast(void *buf, size_t len)
{
	return 0;
}

int dist_gather(const void *send, void *recv, size_t len)
{
	if (recv != send)
		memmove(recv, send, len);
	return 0;
}

int dist_allgather(const void *send, void *recv, size_t len)
{
	return dist_gather(send, recv, len);
}

/* No other rank to talk to: nothing calls these with one rank. */
int dist_send(int to, const void *buf, size_t len)
{
	return -EINVAL;
}

ssize_t dist_recv(int from, void *buf, size_t cap)
{
	return -EINVAL;
}

int dist_agree(int flags)
{
	return flags;
}

int dist_poll_or(uint64_t *mask)
{
	return 0;
}

_Noreturn void dist_abort(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "iotrial: rank 0 (%s): ", dist_host());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}
