/* The record and interval logs (the CSV files in records/) cut back: a resumed run's to the
 * trials it keeps, so that its trials run again append to them as if the run had never
 * stopped; a log whose write was cut short (a full disk) to its last whole line. */
#ifndef IOTRIAL_LOGCUT_H
#define IOTRIAL_LOGCUT_H

#include <stdbool.h>

#include "model/results.h"

/* Cut the log open (read and write) as `fd` where its first line of a trial that `ir` does
 * not keep begins (a trial without a place in the order, seq 0: cut short or never saved),
 * or a last line without its end. The lines of a trial all come before the next trial's
 * (one trial runs at a time), so what is kept is the front of the file. With `seen` (ir->ntrials
 * entries, false), each trial with a line kept is marked true. Returns 1 when the file is
 * empty (no header yet), 0 when cut (or whole), or -errno. */
int logcut_keep(int fd, const struct instance_result *ir, bool *seen);

/* A kept trial's log_error when its lines were not in a log a resumed run cut back. */
#define LOGCUT_LOST "lines lost before the run was resumed: the log was cut or removed"

/* After logcut_keep(..., seen): each trial `ir` keeps (a seq) that moved data but has no
 * line in the log gets log_error LOGCUT_LOST (unless it has one). Returns how many, or
 * -ENOMEM. */
int logcut_missing(struct instance_result *ir, const bool *seen);

/* Cut the log open as `fd` after its last end of line: a write cut short by a full disk
 * leaves part of a line at the end, which a CSV reader takes for a line of wrong fields.
 * A file without an end of line is left as it is. Returns 0 or -errno. */
int logcut_partial(int fd);

#endif
