/* The result folder of one job file: made with a name no other run uses, or the -o folder
 * the user named, checked and locked for the run, so two runs never mix their files. */
#ifndef IOTRIAL_OUTDIR_H
#define IOTRIAL_OUTDIR_H

#include <stdbool.h>
#include <stdint.h>

/* An outdir that holds nothing: what outdir_release leaves, and safe to release. */
#define OUTDIR_INIT                                                                                \
	{                                                                                          \
		NULL, -1, -1                                                                       \
	}

struct outdir {
	char *path;  /* as named or made: for the reporters and for messages */
	int fd;	     /* the folder, open */
	int lock_fd; /* the lock file, held with flock(LOCK_EX): see outlock.h */
};

/* A new folder PARENT/BASE, or PARENT/BASE-2, -3, ... when the name is taken (by an earlier
 * run, or another run that started in the same second), PARENT and BASE's own folders made as
 * needed; then locked and probed as outdir_claim does. Prints one line on stderr when it fails.
 * Returns 0 or -errno. */
int outdir_new(struct outdir *o, const char *parent, const char *base);

/* The folder PATH that -o named, made with its parents when missing. It must be empty, or
 * hold nothing but the files of an earlier run (results.json, trials.csv, summary.txt,
 * report.html, records/ of .csv files, their temporary files): then with `force` they are removed
 * first, without it the folder is refused (-EEXIST). A folder holding anything else is
 * refused whatever `force` says (-EEXIST), before anything is written into it; one that
 * another iotrial run holds, too (-EBUSY); and, before anything is removed, one where the
 * user may not remove files, in the folder or in its records/ or hooks/ (faccessat's
 * -EACCES, -EROFS, ...). The folder must take a new file (a probe is created, written and
 * removed). Prints one line on stderr when it fails. Returns 0 or
 * -errno. */
int outdir_claim(struct outdir *o, const char *path, bool force);

/* outdir_claim in two steps, for a job file's folder NAME in a batch folder open as `dfd`
 * (PATH names it in messages): outdir_take_at makes it when missing and opens it without
 * following a symlink (a symlink or a file in its place is refused, -EEXIST, whatever
 * `force` says: the batch folder's folders are iotrial's to make), looks at it and locks it,
 * refusing it as outdir_claim does (a folder it could not wholly empty among them), and
 * removes nothing; outdir_empty then removes the
 * earlier run in it (after outdir_take_at said yes: only iotrial's files) and probes it. So a
 * batch takes every folder before it empties any. Each prints one line on stderr when it
 * fails. Return 0 or -errno. */
int outdir_take_at(struct outdir *o, int dfd, const char *name, const char *path, bool force);
int outdir_empty(struct outdir *o);

/* Make folder PATH and its missing parents (an existing folder is fine). Returns 0 or
 * -errno (-ENOTDIR: a part of PATH is a file). */
int outdir_mkdirs(const char *path);

/* The existing folder PATH of an interrupted run, taken to go on with it (iotrial run
 * --resume): locked as outdir_claim does, rid of the temporary files a killed run leaves (a
 * checkpoint cut short: only files exactly as iotrial makes them, see own_dotfile), and
 * probed; its result files left in place. Prints one line
 * on stderr when it fails. Returns 0, -EBUSY (another run holds it) or -errno. */
int outdir_resume(struct outdir *o, const char *path);

/* Keep `bytes` of the folder's file system for the results (the lock file grows by that
 * much, with blocks allocated), so that what fills the disk during the run (record logs, a
 * target on the same disk, another program) cannot take the room the results are written
 * into at its end. Nothing is held where the file system allocates no room in advance.
 * Returns 0, -ENOSPC (the disk has not that much room: nothing is held) or -errno. */
int outdir_reserve(struct outdir *o, uint64_t bytes);
/* The bytes of disk the lock file in folder PATH holds: the room a killed run kept, which the
 * next run that takes the folder gives back (outlock_take empties the file). 0 when there is
 * none, or it is not a file iotrial made. */
uint64_t outdir_held(const char *path);
/* The length of the lock file once it keeps `bytes` (outdir_reserve: the room goes past its
 * pid line), the room it takes on disk once rounded up to whole blocks. */
uint64_t outdir_lock_len(uint64_t bytes);
/* Give the room back (before the results are written). Safe when nothing is held. */
void outdir_unreserve(struct outdir *o);
/* Give back the room a run keeps, as it leaves at once (a second Ctrl-C, from the signal
 * handler: async-signal-safe): else the lock file it leaves would hold it until the next run
 * takes the folder. */
void outdir_leaving(void);

/* Let go of the folder: remove the lock file, unlock, close. Safe on OUTDIR_INIT and twice. */
void outdir_release(struct outdir *o);

#endif
