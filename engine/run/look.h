/* Opening a file that someone may have swapped: look at what the name leads to first (an
 * O_PATH descriptor, which runs no driver's open(2): a watchdog, a tape or a FIFO's waiting
 * reader put in a file's place is never touched by a look), check it, then open that very
 * inode through /proc/self/fd, whatever the name leads to by then. Every function returns
 * a descriptor or -errno, with a message in `err` that names `path`. */
#ifndef IOTRIAL_LOOK_H
#define IOTRIAL_LOOK_H

#include <stddef.h>

#include "engine/run/ledger.h"

/* Is the descriptor `fd` (open or O_PATH) fit to be used as `path`: what entry `e`
 * recorded (ledger_check), or, with no entry, a file or a block device? 0, or -ESTALE (not
 * the entry's) or -EINVAL (a FIFO, a socket, a character device...). */
int look_check(const struct ledger_entry *e, const char *path, int fd, char *err, size_t errlen);

/* An O_PATH descriptor of what `path` is now (a ledger entry relative to its held folder,
 * without following a symlink; anything else by its path, as named), checked with
 * look_check against its entry in `l` (NULL: no ledger, no entry). */
int look_at(const struct ledger *l, const char *path, char *err, size_t errlen);

/* The name that opens the very inode the O_PATH descriptor `look` stands for. */
void look_name(int look, char *buf, size_t len);

/* Open `path` with open(2) `flags` (O_CLOEXEC and O_NONBLOCK added: a FIFO does not hold
 * the open) once look_at passed it; without /proc, by its path, and checked again after. */
int look_open(const struct ledger *l, const char *path, int flags, char *err, size_t errlen);

#endif
