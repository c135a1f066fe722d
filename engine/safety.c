/* Mounted-device detection (see safety.h). A disk is "in use" when it or any of its
 * partitions is a mount's source: writing to it would destroy a live file system. */
#include "engine/safety.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

/* Is block device maj:min a partition of disk `disk` (sysfs: the partition's folder sits
 * inside the disk's, whose dev file holds the disk's number)? */
static bool partition_of(unsigned maj, unsigned min, dev_t disk)
{
	char path[64], real[PATH_MAX], devfile[PATH_MAX + 8], buf[32];
	unsigned dmaj, dmin;
	FILE *f;
	char *slash;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", maj, min);
	if (!realpath(path, real) || !(slash = strrchr(real, '/')))
		return false;
	*slash = 0;
	snprintf(devfile, sizeof(devfile), "%s/dev", real);
	if (!(f = fopen(devfile, "r")))
		return false;
	bool ok = fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &dmaj, &dmin) == 2 &&
		  makedev(dmaj, dmin) == disk;
	fclose(f);
	return ok;
}

bool safety_mounted(dev_t rdev, char *where, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096], mnt[PATH_MAX];
	unsigned maj, min;
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mount-point ... */
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &min, mnt) != 3)
			continue;
		if (makedev(maj, min) == rdev || partition_of(maj, min, rdev)) {
			snprintf(where, len, "%s", mnt);
			found = true;
		}
	}
	fclose(f);
	return found;
}
