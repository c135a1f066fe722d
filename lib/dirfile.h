/* Files in a folder held open (a result folder): every name is taken relative to the folder's
 * descriptor, so renaming the folder, or a symlink put in its place, redirects nothing; a
 * name is never followed as a symlink; and a file iotrial opens again there must be a
 * regular file with one link, so a FIFO, a device or a hard link to a file elsewhere put in
 * its place is never opened, written or cut. */
#ifndef IOTRIAL_DIRFILE_H
#define IOTRIAL_DIRFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* A temporary name is `.NAME.` then this mark then the random part. The mark is what tells
 * a temporary file iotrial made from a user's: `.results.json.backup` has six letters too,
 * and a cp under umask 077 makes it 0600 as dirfile_tmp does; rsync's are `.NAME.XXXXXX`.
 * No one names a file `.NAME.iotrial~...` by chance. */
#define DIRFILE_TMP_MARK "iotrial~"
/* The length of the random part of a temporary name: as mkstemp's XXXXXX. */
#define DIRFILE_TMP_RAND 6
/* What dirfile_tmp puts after `.NAME.`: the mark and the random part. */
#define DIRFILE_TMP_TAIL (sizeof(DIRFILE_TMP_MARK) - 1 + DIRFILE_TMP_RAND)

/* Open NAME in the folder open as `dfd` with open(2) `flags` (O_CREAT, O_TRUNC, O_APPEND
 * allowed; O_NOFOLLOW, O_NONBLOCK and O_CLOEXEC are added). A NAME that is there is looked at
 * first (O_PATH: no driver's open runs, no FIFO waits) and only when it is a regular file
 * with one link is that very inode opened; a missing one is created (O_CREAT) with O_EXCL,
 * `mode`. A file removed or swapped between the look and the open is looked at again (up to
 * 8 times: then the last error, -ESTALE, -ENOENT or -EEXIST). O_TRUNC cuts the file only
 * once it is known to be the one looked at. Returns the descriptor or -errno: -ELOOP a symlink,
 * -EINVAL not a regular file, -EMLINK more than one link, -ENOENT not there (without O_CREAT). */
int dirfile_open(int dfd, const char *name, int flags, mode_t mode);

/* Is `st` (an lstat's, or an fstat's of an open file) a file dirfile_open opens: 0 when it is
 * a regular file with one link, else dirfile_open's refusal: -ELOOP a symlink, -EINVAL not a
 * regular file, -EMLINK more than one link. */
int dirfile_fit(const struct stat *st);

/* Look at NAME in `dfd` without following a symlink, into `st`: dirfile_fit's verdict, or
 * fstatat's -errno (-ENOENT: not there). Nothing is opened. */
int dirfile_stat(int dfd, const char *name, struct stat *st);

/* Is `err` (from dirfile_open or dirfile_stat) a refusal: a file there, but not one iotrial
 * may open again (-ELOOP, -EINVAL, -EMLINK)? */
bool dirfile_refused(int err);

/* The folder NAME in `dfd`, made (0755) when missing, opened without following a symlink.
 * Returns the descriptor or -errno (-ELOOP or -ENOTDIR: a symlink or a file in its place). */
int dirfile_subdir(int dfd, const char *name);

/* A new temporary file `.NAME.iotrial~XXXXXX` in `dfd` (DIRFILE_TMP_MARK, then X one of
 * mkstemp's letters: A-Z, a-z, 0-9), created 0600 with O_EXCL, its name into `tmp` (`len`
 * bytes: strlen(NAME) + 3 + DIRFILE_TMP_TAIL will do). Returns the descriptor or -errno
 * (-ENAMETOOLONG: `len` too short). */
int dirfile_tmp(int dfd, const char *name, char *tmp, size_t len);

/* Is `entry` in `dfd` a temporary file dirfile_tmp made for NAME, as a killed run leaves it:
 * named exactly `.NAME.`, DIRFILE_TMP_MARK and 6 of mkstemp's letters, and a regular file
 * with one link, owned by this user, mode 0600 (the writers give a file its final mode once
 * renamed)? The one test of "iotrial's to remove": anything else, a temporary name of an
 * older build without the mark included, is not. Nothing is opened. */
bool dirfile_tmp_left(int dfd, const char *entry, const char *name);

#endif
