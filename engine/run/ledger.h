/* The ledger of what iotrial created in one run, so that it never adopts, writes or deletes
 * anything else. The folders it works in are held open from first use (a folder named in
 * the job file is opened once, as named; one under the scratch folder is made by iotrial
 * and must not exist before), and every file and tree it makes is created relative to such
 * a folder, with O_EXCL and without following a symlink, and recorded by device and inode.
 * A file is reopened relative to its held folder and must still be the same inode; removal
 * looks at the inode first, so a file that was replaced, or was never iotrial's, is left in
 * place and named. A tree (a copytree's copy, or the source tree it lays out) records every
 * inode made inside it in a log that worker processes can append to. */
#ifndef IOTRIAL_LEDGER_H
#define IOTRIAL_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "lib/diag.h"

struct ledger_dir {
	char *path; /* as the plan names it */
	int fd;	    /* O_PATH | O_DIRECTORY */
	dev_t dev;
	ino_t ino;
	long parent; /* made: the folder it was made in; -1 otherwise */
	bool made;   /* iotrial made it in this run: removed at the end when empty */
	bool stale;  /* not the folder the plan checked: nothing is made in it */
};

struct ledger_entry {
	char *path;	  /* as the plan names it */
	const char *name; /* its last part (into path) */
	size_t dir;	  /* the held folder it is in */
	dev_t dev;
	ino_t ino;
	dev_t rdev;  /* pinned block device: the device it was */
	bool pinned; /* not iotrial's: an existing file, only checked on open, never removed */
	bool writes; /* pinned: a job writes it (else it is only read) */
	bool folder; /* pinned: a folder (a copytree's source) */
	bool keep;   /* left in place at the end (keep_files) */
	int fd;	     /* a tree: its root, O_RDONLY | O_DIRECTORY; -1 otherwise */
	int log;     /* a tree: the (device, inode) of everything made inside it; -1 otherwise */
};

struct ledger {
	char *scratch; /* the run's scratch folder: made by iotrial, never adopted */
	struct ledger_dir *dirs;
	size_t ndirs;
	struct ledger_entry *ents;
	size_t nents;
};

/* Start an empty ledger for a run whose scratch folder is `scratch`. Returns 0 or -ENOMEM. */
int ledger_init(struct ledger *l, const char *scratch);

/* The held folder `dir`: opened as named (symlinks in a path the user gave are the user's),
 * or, under the scratch folder, made with every folder between (each must not exist yet,
 * unless this run made it). Returns its index, or -errno with a message in *msg. */
long ledger_dir(struct ledger *l, const char *dir, char **msg);

/* ledger_dir, for a folder the plan checked as `seen` (its st_dev and st_ino): one that is
 * not that folder (another folder or a symlink was put in its place after the check) is
 * held, but refused, now and for the rest of the run, with -ESTALE and a message. */
long ledger_dir_as(struct ledger *l, const char *dir, const struct stat *seen, char **msg);

/* Create the file `path` (O_CREAT | O_EXCL | O_NOFOLLOW, relative to its held folder) with
 * open(2) `flags` and record it. Returns the open fd, or -errno with a message in *msg that
 * names the file (an existing one is left alone). */
int ledger_create(struct ledger *l, const char *path, int flags, mode_t mode, bool keep,
		  char **msg);

/* Make the folder `path` as the root of a tree, with its log. Returns the entry (valid until
 * the ledger changes), or NULL with -errno in *err and a message in *msg. */
const struct ledger_entry *ledger_mktree(struct ledger *l, const char *path, mode_t mode, bool keep,
					 int *err, char **msg);

/* Remember what the existing file, block device or folder `path` is, so that a later open
 * notices when something else took its place: `seen` (its st_dev, st_ino, st_mode and
 * st_rdev), what the plan checked, or, when NULL, what stat(2) finds now. `writes`: a job
 * writes it (said in the refusal; a path pinned again keeps its first identity, and is
 * written when either pin says so). Returns 0 or -errno (nothing pinned). */
int ledger_pin(struct ledger *l, const char *path, const struct stat *seen, bool writes);

/* The entry for `path` (created in this run and not yet removed, or pinned), or NULL. */
const struct ledger_entry *ledger_find(const struct ledger *l, const char *path);

/* Where to open entry `e`: a folder fd and a name for openat(2), and the flags to add
 * (O_NOFOLLOW for iotrial's own files; none for a pinned path, opened as named). */
void ledger_where(const struct ledger *l, const struct ledger_entry *e, int *dirfd,
		  const char **name, int *flags);

/* Is the open file `fd` still what `e` recorded? 0, or -ESTALE with a message in `err`. */
int ledger_check(const struct ledger_entry *e, int fd, char *err, size_t errlen);

/* Remove entry `path` (a file, or a tree with everything in it that iotrial made) when it
 * is still the inode iotrial made; forget it either way. Returns 0, or -errno with a message
 * in *msg naming what was left in place and why. A path not in the ledger is left alone. */
int ledger_remove(struct ledger *l, const char *path, char **msg);

/* Note in a tree's `log` the file or folder open as `fd`, made inside the tree. 0 or -errno. */
int ledger_tree_note(int log, int fd);

/* Remove what the tree open as `root` holds that its `log` lists, never following a
 * symlink; then empty the log. Anything else is left, the first one named in `err` (as a
 * path under `path`), and the result is -ENOTEMPTY. Returns 0 or -errno. */
int ledger_tree_clear(int root, int log, const char *path, char *err, size_t errlen);

/* The end of the run: remove every entry not kept, then every folder made that is empty,
 * each only while it is still iotrial's; what is left in place is said in `d`. Closes
 * everything and frees the ledger. */
void ledger_finish(struct ledger *l, struct diag *d);

#endif
