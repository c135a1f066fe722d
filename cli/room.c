/* The room kept for the results, weighed against the plan's files (see room.h): the
 * command line knows the result folder and the estimate, the plan its files and their disks
 * (engine/plan/plan_room.h), which it is told of as a device and a number of bytes. */
#include "cli/room.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "cli/outdir.h"
#include "engine/dist/dist.h"
#include "engine/plan/plan_room.h"
#include "lib/nearest.h"

/* The nearest folder at or above `path` that exists, and its device; NULL when none can be
 * looked at (or memory ran out: then nothing is checked, as when statvfs fails). */
static char *existing(const char *path, dev_t *dev)
{
	struct stat st;
	char *at;

	if (nearest_existing(path, &at, &st) < 0)
		return NULL;
	*dev = st.st_dev;
	return at;
}

/* The kernel's boot id: ranks that read the same one share a machine, where a device
 * number means the same disk. Empty when it cannot be read. */
static void boot_id(char id[40])
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	memset(id, 0, 40);
	if (f && !fgets(id, 40, f))
		memset(id, 0, 40);
	if (f)
		fclose(f);
}

/* What rank 0 keeps, told to the other ranks. */
struct room_said {
	uint64_t dev, bytes, held;
	char boot[40];
};

int room_check(const struct plan *p, const char *folder, uint64_t bytes, bool taken)
{
	struct plan_kept kept = {.folder = folder ? folder : "results"};
	struct room_said said = {0};
	struct diag d = {0};
	char *at = NULL, boot[40];
	int st = 0;

	if (dist_rank() == 0 && bytes && (at = existing(kept.folder, &kept.dev))) {
		/* Only the folder itself can hold a lock file of an earlier run. */
		said.held = taken || strcmp(at, kept.folder) ? 0 : outdir_held(at);
		said.dev = kept.dev;
		said.bytes = outdir_lock_len(bytes);
		boot_id(said.boot);
	}
	free(at);
	/* Rank 0 alone keeps room, but the ranks on its machine may create files on that disk
	 * too: each weighs its own against the room (what the ranks create together is not
	 * summed). */
	if (dist_size() > 1 && dist_bcast(&said, sizeof(said)) < 0)
		dist_abort(EXIT_RUN, "cannot tell the ranks of the room kept for the results");
	boot_id(boot);
	if (said.bytes && (dist_rank() == 0 || (*boot && !strcmp(boot, said.boot)))) {
		kept.dev = (dev_t)said.dev;
		kept.bytes = said.bytes;
		kept.held = said.held;
		st = plan_check_room(p, &kept, &d) ? EXIT_RUN : 0;
	}
	return load_settle(st, &d);
}
