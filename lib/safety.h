/* Safety checks before any write: is a block device (or a partition of it) mounted, or is
 * the target behind a mounted loop device (its backing file, or another loop device on the
 * same file)? */
#ifndef IOTRIAL_SAFETY_H
#define IOTRIAL_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Whether the block device `rdev`, or a partition on it, is mounted per
 * /proc/self/mountinfo; the mount point goes into `where`. */
bool safety_mounted(dev_t rdev, char *where, size_t len);

/* Whether writing to the file or block device `st` (as stat(2) gave it) would write under a
 * live file system: the device or a partition of it is mounted; or it is a loop device, and
 * a loop device on the same backing file is mounted; or it is a regular file that backs a
 * mounted loop device. `why` then says which, to follow the target's name ("is mounted (on
 * /)", "is the backing file of /dev/loop0, which is mounted (on /mnt)"). */
bool safety_in_use(const struct stat *st, char *why, size_t len);

#endif
