/* The one list of compiled-in backends, and the only C file that tests HAVE_LIBURING and
 * HAVE_LIBAIO. A new backend is one file plus one line here. At start-up, be_registry_init
 * lends the backends' options to the model and makes the wrappers' tables. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>

#include "engine/io/backends/backend.h"
#include "engine/io/backends/io_uring_opts.h"
#include "model/jobkeys.h"

extern const struct be_ops be_sync;
extern const struct be_ops be_null;
extern const struct be_ops be_synthetic;
extern const struct be_ops be_fault;
extern const struct be_ops be_skeleton;
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
	&be_skeleton,
#ifdef HAVE_LIBURING
	&be_io_uring,
#endif
#ifdef HAVE_LIBAIO
	&be_libaio,
#endif
	NULL,
};
/* clang-format on */

/* Backends a build can leave out, the Debian package that brings each one in, and their
 * options, which every build knows: a job file means the same wherever it is read. */
static const struct {
	const char *name;
	const char *package;
	const struct job_key *options;
} optional[] = {
    {"io_uring", "liburing-dev", be_io_uring_options},
    {"libaio", "libaio-dev", NULL},
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

const struct job_key *be_left_out_options(const char *name)
{
	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++)
		if (!strcmp(optional[i].name, name) && !be_find(name))
			return optional[i].options;
	return NULL;
}

/* Room for every (wrapper, wrapped) table, and for the names a wrapper takes. */
#define BE_MAX 16

const char *be_wrappable_names[BE_MAX + 1];

static struct {
	const struct be_ops *wrapper, *inner;
	struct be_ops ops;
} wraps[BE_MAX];
static size_t nwraps;

static bool wrappable(const struct be_ops *be)
{
	return !(be->flags & BE_F_VIRTUAL) && !be->inner;
}

const struct be_ops *be_wrap(const struct be_ops *wrapper, const struct be_ops *inner)
{
	for (size_t i = 0; i < nwraps; i++)
		if (wraps[i].wrapper == wrapper && wraps[i].inner == inner)
			return &wraps[i].ops;
	return NULL;
}

/* The wrapper's hooks with the capabilities of what it wraps, and room for both states. */
static void wrap_make(const struct be_ops *wrapper, const struct be_ops *inner)
{
	struct be_ops *o = &wraps[nwraps].ops;

	wraps[nwraps].wrapper = wrapper;
	wraps[nwraps++].inner = inner;
	*o = *wrapper;
	o->flags = inner->flags;
	o->max_iodepth = inner->max_iodepth;
	o->probe = inner->probe;
	o->priv_size = wrapper->priv_size + inner->priv_size;
}

/* A backend's table as the rest of the registry relies on it. */
static int table_ok(const struct be_ops *be, char *err, size_t errlen)
{
	if (be->opts_size > BE_OPTS_MAX || (be->opts_size && !be->options)) {
		snprintf(err, errlen,
			 "backend %s: an options struct of %zu bytes (at most %d, with a table)",
			 be->name, be->opts_size, BE_OPTS_MAX);
		return -EINVAL;
	}
	if (be->inner && be->priv_size % BE_PRIV_ALIGN) {
		snprintf(err, errlen, "backend %s: a wrapper's priv_size must be a multiple of %d",
			 be->name, BE_PRIV_ALIGN);
		return -EINVAL;
	}
	for (const struct job_key *k = be->options; k && k->name; k++)
		if (k->off >= be->opts_size) {
			snprintf(err, errlen, "backend %s: option '%s' lies past opts_size",
				 be->name, k->name);
			return -EINVAL;
		}
	return 0;
}

int be_registry_init(char *err, size_t errlen)
{
	static bool done;
	size_t n = 0;
	int r;

	if (done)
		return 0;
	for (size_t i = 0; be_registry[i]; i++)
		if (wrappable(be_registry[i]) && n < BE_MAX)
			be_wrappable_names[n++] = be_registry[i]->name;
	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++)
		if (!be_find(optional[i].name) && n < BE_MAX)
			be_wrappable_names[n++] = optional[i].name;
	be_wrappable_names[n] = NULL;
	for (size_t i = 0; be_registry[i]; i++) {
		const struct be_ops *be = be_registry[i];
		if ((r = table_ok(be, err, errlen)) < 0 ||
		    (be->options && (r = job_keys_extend(be->name, be->options, err, errlen)) < 0))
			return r;
		for (size_t k = 0; be->inner && be_registry[k]; k++)
			if (wrappable(be_registry[k]) && nwraps < BE_MAX)
				wrap_make(be, be_registry[k]);
	}
	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++)
		if (!be_find(optional[i].name) && optional[i].options &&
		    (r = job_keys_extend(optional[i].name, optional[i].options, err, errlen)) < 0)
			return r;
	done = true;
	return 0;
}
