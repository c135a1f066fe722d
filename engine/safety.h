/* Safety checks before any write: is a block device (or a partition of it) mounted? */
#ifndef IOTRIAL_SAFETY_H
#define IOTRIAL_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Whether the block device `rdev`, or a partition on it, is mounted per
 * /proc/self/mountinfo; the mount point goes into `where`. */
bool safety_mounted(dev_t rdev, char *where, size_t len);

#endif
