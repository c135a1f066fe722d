/* The nearest path that exists at or above a path: where a file not made yet would go, for
 * the file system it would be on (the room a plan's files take, and the results'). */
#ifndef IOTRIAL_NEAREST_H
#define IOTRIAL_NEAREST_H

#include <sys/stat.h>

/* The nearest path at or above `path` that exists, malloc'd into *out, with its stat(2) in
 * *st. Returns 0; -ENOMEM; or -errno of a look that failed other than by ENOENT, or
 * -ENOENT when not even "/" (or "." for a relative path) could be looked at. */
int nearest_existing(const char *path, char **out, struct stat *st);

#endif
