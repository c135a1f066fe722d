/* Files in a folder held open (a result folder): every name is taken relative to the folder's
 * descriptor, so renaming the folder, or a symlink put in its place, redirects nothing; and
 * a name is never followed as a symlink. */
#ifndef IOTRIAL_DIRFILE_H
#define IOTRIAL_DIRFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The length of the random part of a temporary name: as mkstemp's XXXXXX. */
#define DIRFILE_TMP_RAND 6

/* Open NAME in the folder open as `dfd` with open(2) `flags` and `mode` (O_NOFOLLOW,
 * O_NONBLOCK and O_CLOEXEC are added: a symlink is not followed, a FIFO does not block).
 * Returns the descriptor or -errno (-ELOOP: a symlink). */
int dirfile_open(int dfd, const char *name, int flags, mode_t mode);

/* The folder NAME in `dfd`, made (0755) when missing, opened without following a symlink.
 * Returns the descriptor or -errno (-ELOOP or -ENOTDIR: a symlink or a file in its place). */
int dirfile_subdir(int dfd, const char *name);

/* A new temporary file `.NAME.XXXXXX` in `dfd` (X one of mkstemp's letters: A-Z, a-z, 0-9),
 * created 0600 with O_EXCL, its name into `tmp` (`len` bytes). Returns the descriptor or
 * -errno. */
int dirfile_tmp(int dfd, const char *name, char *tmp, size_t len);

#endif
