/* Mounted-device detection (see safety.h). A disk is "in use" when it or any of its
 * partitions is a mount's source, and a loop device or image file when the loop device on
 * that file is: writing to it would destroy a live file system. */
#include "lib/safety.h"

#include <dirent.h>
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

/* One line of a sysfs file, without its newline; false when it cannot be read. */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok = f && fgets(buf, (int)len, f);

	if (f)
		fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = 0;
	return ok;
}

/* The backing file of the loop device `name` (as in /sys/block): its device number and the
 * file's identity. false when `name` is not a loop device with a file attached. */
static bool loop_backing(const char *name, dev_t *rdev, struct stat *file, char *path, size_t len)
{
	char sys[PATH_MAX], buf[32];
	unsigned maj, min;

	snprintf(sys, sizeof(sys), "/sys/block/%s/dev", name);
	if (!read_line(sys, buf, sizeof(buf)) || sscanf(buf, "%u:%u", &maj, &min) != 2)
		return false;
	*rdev = makedev(maj, min);
	snprintf(sys, sizeof(sys), "/sys/block/%s/loop/backing_file", name);
	/* The kernel gives the file's path as it is now; a deleted file cannot be a target. */
	return read_line(sys, path, len) && stat(path, file) == 0;
}

/* Is a loop device backed by the file dev:ino mounted? Its name and mount point, if so. */
static bool backing_mounted(dev_t dev, ino_t ino, dev_t skip, char *loop, size_t looplen,
			    char *where, size_t len)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char path[PATH_MAX];
		struct stat file;
		dev_t rdev;
		if (strncmp(e->d_name, "loop", 4) ||
		    !loop_backing(e->d_name, &rdev, &file, path, sizeof(path)))
			continue;
		if (file.st_dev == dev && file.st_ino == ino && rdev != skip &&
		    safety_mounted(rdev, where, len)) {
			snprintf(loop, looplen, "/dev/%s", e->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* The /sys/block name of the whole disk `rdev`, when it is one. */
static bool disk_name(dev_t rdev, char *name, size_t len)
{
	char path[64], real[PATH_MAX], *slash;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	if (!realpath(path, real) || !(slash = strrchr(real, '/')))
		return false;
	snprintf(name, len, "%s", slash + 1);
	return true;
}

bool safety_in_use(const struct stat *st, char *why, size_t len)
{
	char where[PATH_MAX], loop[300], name[256], path[PATH_MAX];
	struct stat file;
	dev_t rdev;

	if (S_ISBLK(st->st_mode)) {
		if (safety_mounted(st->st_rdev, where, sizeof(where))) {
			snprintf(why, len, "is mounted (on %s)", where);
			return true;
		}
		/* A second loop device on a mounted image reaches the same blocks. */
		if (disk_name(st->st_rdev, name, sizeof(name)) && !strncmp(name, "loop", 4) &&
		    loop_backing(name, &rdev, &file, path, sizeof(path)) &&
		    backing_mounted(file.st_dev, file.st_ino, st->st_rdev, loop, sizeof(loop),
				    where, sizeof(where))) {
			snprintf(why, len,
				 "is a loop device on '%s', like %s, which is mounted (on %s)",
				 path, loop, where);
			return true;
		}
		return false;
	}
	if (S_ISREG(st->st_mode) &&
	    backing_mounted(st->st_dev, st->st_ino, 0, loop, sizeof(loop), where, sizeof(where))) {
		snprintf(why, len, "is the backing file of %s, which is mounted (on %s)", loop,
			 where);
		return true;
	}
	return false;
}
