/* The room kept for the results, weighed against the plan's files (see room.h): the
 * command line knows the result folder and the estimate, the plan its files and their disks
 * (engine/plan/plan_room.h), which it is told of as a device and a number of bytes. */
#include "cli/room.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "cli/outdir.h"
#include "engine/dist/dist.h"
#include "engine/plan/plan_room.h"
#include "lib/path.h"

/* The nearest folder at or above `path` that exists, and its device; NULL when none can be
 * looked at (or memory ran out: then nothing is checked, as when statvfs fails). */
static char *existing(const char *path, dev_t *dev)
{
	char *at = strdup(path);
	struct stat st;

	while (at && stat(at, &st) < 0) {
		char *up =
		    errno == ENOENT && strcmp(at, "/") && strcmp(at, ".") ? path_dirname(at) : NULL;
		free(at);
		at = up;
	}
	if (at)
		*dev = st.st_dev;
	return at;
}

int room_check(const struct plan *p, const char *folder, uint64_t bytes, bool taken)
{
	struct plan_kept kept = {.bytes = bytes, .folder = folder ? folder : "results"};
	struct diag d = {0};
	char *at = NULL;
	int st = 0;

	if (dist_rank() == 0 && bytes && (at = existing(kept.folder, &kept.dev))) {
		/* Only the folder itself can hold a lock file of an earlier run. */
		kept.held = taken || strcmp(at, kept.folder) ? 0 : outdir_held(at);
		st = plan_check_room(p, &kept, &d) ? EXIT_RUN : 0;
	}
	free(at);
	return load_settle(st, &d);
}
