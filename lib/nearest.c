/* The nearest existing path (see nearest.h). */
#include "lib/nearest.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/path.h"

int nearest_existing(const char *path, char **out, struct stat *st)
{
	char *at = strdup(path);

	while (at && stat(at, st) < 0) {
		int err = errno;
		char *up;

		if (err != ENOENT || !strcmp(at, "/") || !strcmp(at, ".")) {
			free(at);
			return -err;
		}
		up = path_dirname(at);
		free(at);
		at = up;
	}
	if (!at)
		return -ENOMEM;
	*out = at;
	return 0;
}
