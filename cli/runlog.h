/* --log FILE: one line per trial (and per job file begun and ended) appended to a log that
 * unattended runs leave behind, each line written whole with one write(2) on an O_APPEND
 * descriptor, so two runs may share the file without mixing their lines. */
#ifndef IOTRIAL_RUNLOG_H
#define IOTRIAL_RUNLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/run/run_events.h"

struct runlog {
	int fd; /* the log, O_APPEND; -1: no log */
	const char *path;
	const char *file; /* the job file being run, for each line */
	bool failed;	  /* a line could not be written (said once on stderr) */
};

#define RUNLOG_INIT                                                                                \
	{                                                                                          \
		-1, NULL, NULL, false                                                              \
	}

/* Open (create, mode 0644) PATH for appending. Prints one line on stderr when it cannot.
 * Returns 0 or -errno. */
int runlog_open(struct runlog *l, const char *path);

/* The observer that writes a line for each trial as its figures are final (run_observe,
 * with the struct runlog as its context). */
extern const struct run_observer runlog_observer;

/* One line for job file `file`: `event` (file-start, file-end) and, for file-end, its
 * exit status `status` and result folder `dir` (either may be NULL / negative: left out). */
void runlog_file(struct runlog *l, const char *event, const char *file, const char *dir,
		 int status);

/* Close the log. Safe on RUNLOG_INIT and twice. */
void runlog_close(struct runlog *l);

#endif
