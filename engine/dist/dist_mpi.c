/* The MPI transport (see dist.h), the only file that includes mpi.h. Built only by
 * `make MPI=1`; engine/dist/dist_serial.c is the transport otherwise. Only the coordinating thread
 * calls MPI (MPI_THREAD_FUNNELED); workers never do. */
#include "engine/dist/dist.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int rank, size = 1, local_rank;
static char host[DIST_HOST_MAX];
static char transport[96];

int dist_init(int *argc, char ***argv)
{
	int provided = 0, len = 0, ret;
	char name[MPI_MAX_PROCESSOR_NAME];
	MPI_Comm node;

	if ((ret = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided)) != MPI_SUCCESS) {
		fprintf(stderr, "iotrial: cannot start MPI (MPI_Init_thread returned %d)\n", ret);
		return -EIO;
	}
	if (provided < MPI_THREAD_FUNNELED) {
		fprintf(
		    stderr,
		    "iotrial: this MPI library does not support threads (MPI_THREAD_FUNNELED); iotrial's workers are threads\n");
		MPI_Finalize();
		return -ENOTSUP;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (MPI_Get_processor_name(name, &len) != MPI_SUCCESS || len <= 0)
		snprintf(name, sizeof(name), "rank%d", rank);
	snprintf(host, sizeof(host), "%.*s", (int)sizeof(host) - 1, name);
	/* The ranks that share this node's memory are the ranks on this host. */
	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node) ==
	    MPI_SUCCESS) {
		MPI_Comm_rank(node, &local_rank);
		MPI_Comm_free(&node);
	}
	return 0;
}

void dist_finalize(void)
{
	int done = 0;

	MPI_Finalized(&done);
	if (!done)
		MPI_Finalize();
}

int dist_rank(void)
{
	return rank;
}

int dist_size(void)
{
	return size;
}

const char *dist_host(void)
{
	/* Before dist_init (unit tests, --version): the system's name. */
	if (!host[0] && gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = 0;
	return host;
}

int dist_local_rank(void)
{
	return local_rank;
}

const char *dist_transport(void)
{
	char lib[MPI_MAX_LIBRARY_VERSION_STRING];
	int len = 0;

	/* Callable before MPI_Init: --version does not start MPI. */
	if (!transport[0] && MPI_Get_library_version(lib, &len) == MPI_SUCCESS) {
		lib[strcspn(lib, ",\n")] = 0;
		snprintf(transport, sizeof(transport), "MPI (%.80s)", lib);
	}
	return transport[0] ? transport : "MPI";
}

int dist_barrier(void)
{
	/* One rank (or before MPI_Init, in unit tests): nothing to wait for, no MPI call. */
	if (size == 1)
		return 0;
	return MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -EIO;
}

int dist_bcast(void *buf, size_t len)
{
	if (size == 1)
		return 0;
	if (len > INT_MAX)
		return -EINVAL;
	return MPI_Bcast(buf, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -EIO;
}

int dist_gather(const void *send, void *recv, size_t len)
{
	if (size == 1) {
		if (recv != send)
			memmove(recv, send, len);
		return 0;
	}
	if (len > INT_MAX)
		return -EINVAL;
	return MPI_Gather(send, (int)len, MPI_BYTE, recv, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD) ==
		       MPI_SUCCESS
		   ? 0
		   : -EIO;
}

int dist_allgather(const void *send, void *recv, size_t len)
{
	if (size == 1)
		return dist_gather(send, recv, len);
	if (len > INT_MAX)
		return -EINVAL;
	return MPI_Allgather(send, (int)len, MPI_BYTE, recv, (int)len, MPI_BYTE, MPI_COMM_WORLD) ==
		       MPI_SUCCESS
		   ? 0
		   : -EIO;
}

int dist_send(int to, const void *buf, size_t len)
{
	if (len > INT_MAX)
		return -EINVAL;
	return MPI_Send(buf, (int)len, MPI_BYTE, to, 0, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -EIO;
}

ssize_t dist_recv(int from, void *buf, size_t cap)
{
	MPI_Status st;
	int n = 0;

	if (cap > INT_MAX)
		cap = INT_MAX;
	/* A longer message is an error (MPI_ERR_TRUNCATE), fatal under MPI's default handler. */
	if (MPI_Recv(buf, (int)cap, MPI_BYTE, from, 0, MPI_COMM_WORLD, &st) != MPI_SUCCESS)
		return -EIO;
	if (MPI_Get_count(&st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED)
		return -EIO;
	return n;
}

int dist_agree(int flags)
{
	int all = flags;

	if (size > 1 &&
	    MPI_Allreduce(&flags, &all, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD) != MPI_SUCCESS)
		return flags | DIST_FAILED | DIST_STOP;
	return all;
}

int dist_poll_or(uint64_t *mask)
{
	const struct timespec nap = {0, 200000}; /* 0.2 ms: a poll is a few microseconds */
	uint64_t all = 0;
	MPI_Request req;
	int done = 0;

	if (size == 1)
		return 0;
	if (MPI_Iallreduce(mask, &all, 1, MPI_UINT64_T, MPI_BOR, MPI_COMM_WORLD, &req) !=
	    MPI_SUCCESS)
		return -EIO;
	for (;;) {
		if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (done)
			break;
		nanosleep(&nap, NULL);
	}
	*mask = all;
	return 0;
}

_Noreturn void dist_abort(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "iotrial: rank %d (%s): ", rank, host);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, status);
	_exit(status); /* MPI_Abort does not return; the compiler cannot know */
}
