/* The record and interval logs (the CSV files in records/) cut back: a resumed run's to the
 * trials it keeps, so that its trials run again append to them as if the run had never
 * stopped; a log whose write was cut short (a full disk) to its last whole line. */
#ifndef IOTRIAL_LOGCUT_H
#define IOTRIAL_LOGCUT_H

#include <stdbool.h>
#include <stdint.h>

#include "model/results.h"

/* Which log logcut_keep reads, and so what a line counts of its trial's I/Os. */
enum logcut_kind {
	LOGCUT_RECORDS,	  /* one line an I/O (RECLOG_HEADER) */
	LOGCUT_INTERVALS, /* its ios field (INTLOG_HEADER) */
};

/* Cut the log (of `kind`) open (read and write) as `fd` where its first line of a trial that
 * `ir` does not keep begins (a trial without a place in the order, seq 0: cut short or never
 * saved), or a last line without its end. The lines of a trial all come before the next
 * trial's (one trial runs at a time), so what is kept is the front of the file. With `ios`
 * (ir->ntrials entries, 0), what each kept line counts of its trial's I/Os is added to its
 * trial's entry. Returns 1 when the file is empty (no header yet), 0 when cut (or whole), or
 * -errno. */
int logcut_keep(int fd, const struct instance_result *ir, enum logcut_kind kind, uint64_t *ios);

/* A kept trial's log_error when lines of it were not in a log a resumed run cut back. */
#define LOGCUT_LOST "lines lost before the run was resumed: the log was cut or removed"

/* After logcut_keep(..., ios): each trial `ir` keeps (a seq) whose lines in the log count
 * fewer I/Os than it did (its ios: the log lost lines of it, or all of them) gets log_error
 * LOGCUT_LOST (unless it has one). Returns how many, or -ENOMEM. */
int logcut_missing(struct instance_result *ir, const uint64_t *ios);

/* Cut the log open as `fd` after its last end of line: a write cut short by a full disk
 * leaves part of a line at the end, which a CSV reader takes for a line of wrong fields.
 * A file without an end of line is left as it is. Returns 0 or -errno. */
int logcut_partial(int fd);

#endif
