/* The one list of compiled-in backends, and the only C file that tests HAVE_LIBURING and
 * HAVE_LIBAIO. A new backend is one file plus one line here. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>

#include "engine/io/backends/backend.h"

extern const struct be_ops be_sync;
extern const struct be_ops be_null;
extern const struct be_ops be_synthetic;
extern const struct be_ops be_fault;
#ifdef HAVE_LIBURING
extern const struct be_ops be_io_uring;
#endif
#ifdef HAVE_LIBAIO
extern const struct be_ops be_libaio;
#endif

/* clang-format off */
const struct be_ops *const be_registry[] = {
	&be_sync,
	&be_null,
	&be_synthetic,
	&be_fault,
#ifdef HAVE_LIBURING
	&be_io_uring,
#endif
#ifdef HAVE_LIBAIO
	&be_libaio,
#endif
	NULL,
};
/* clang-format on */

/* Backends a build can leave out, and the Debian package that brings each one in. */
static const struct {
	const char *name;
	const char *package;
} optional[] = {
    {"io_uring", "liburing-dev"},
    {"libaio", "libaio-dev"},
};

int be_plain_open(void *priv, int dirfd, const char *path, int flags, mode_t mode)
{
	int fd;

	do
		fd = openat(dirfd, path, flags | O_CLOEXEC, mode);
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
}

int be_plain_close(void *priv, int fd)
{
	return close(fd) < 0 ? -errno : 0;
}

const struct be_ops *be_find(const char *name)
{
	if (!strcmp(name, "direct"))
		name = "sync";
	for (size_t i = 0; be_registry[i]; i++)
		if (!strcmp(be_registry[i]->name, name))
			return be_registry[i];
	return NULL;
}

const char *be_names(void)
{
	static char buf[256];
	size_t o = 0;

	if (buf[0])
		return buf;
	for (size_t i = 0; be_registry[i] && o < sizeof(buf); i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s", i ? ", " : "",
				      be_registry[i]->name);
	return buf;
}

const char *be_missing_library(const char *name)
{
	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++)
		if (!strcmp(optional[i].name, name) && !be_find(name))
			return optional[i].package;
	return NULL;
}
