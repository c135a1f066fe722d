/* Path helpers on strings alone: nothing here looks at the file system. */
#ifndef IOTRIAL_PATH_H
#define IOTRIAL_PATH_H

#include <stdbool.h>

/* The folder part of `path` ("." when none, "/" for a file at the root), malloc'd; NULL
 * when memory ran out. */
char *path_dirname(const char *path);

/* Is `path` the folder `dir` or below it, by their text ("/a/bc" is not under "/a/b")? */
bool path_under(const char *path, const char *dir);

#endif
