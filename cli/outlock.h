/* The lock file of a result folder: taken with flock for as long as a run holds the folder,
 * asked after by --resume, and never written into unless it is a file iotrial made. */
#ifndef IOTRIAL_OUTLOCK_H
#define IOTRIAL_OUTLOCK_H

#include <stdbool.h>

/* The name of the lock file in a result folder; it is removed when the run lets go. */
#define OUTLOCK_NAME ".iotrial.lock"

/* Lock the result folder open as `dfd` (PATH names it in messages): OUTLOCK_NAME made when
 * missing, locked with flock(LOCK_EX | LOCK_NB), emptied and given this process's pid. Prints
 * one line on stderr when it fails. Returns the lock file's descriptor, which the caller
 * closes (after removing the file) to let go, or -EBUSY (another run holds it), -EEXIST (not
 * a file iotrial made: nothing written into it), -EAGAIN (taken and let go 100 times over) or
 * -errno. */
int outlock_take(int dfd, const char *path);

/* Is the folder PATH held by a running iotrial? Its pid (or -1 when unknown), or 0: not held
 * (no lock file, or one nobody holds). Creates, changes and removes nothing. */
long outlock_holder(const char *path);

/* Does the folder PATH hold a .iotrial.lock that iotrial did not make (a symlink, a FIFO, a
 * device, a hard link: anything but a regular file with one link)? Opens nothing in it. */
bool outlock_foreign(const char *path);

#endif
