/* The record and interval logs of a resumed run (the CSV files in records/), cut back to the trials
 * it keeps, so that its trials run again append to them as if the run had never stopped. */
#ifndef IOTRIAL_LOGCUT_H
#define IOTRIAL_LOGCUT_H

#include "model/results.h"

/* Cut the log open (read and write) as `fd` where its first line of a trial that `ir` does
 * not keep begins (a trial without a place in the order, seq 0: cut short or never saved),
 * or a last line without its end. The lines of a trial all come before the next trial's
 * (one trial runs at a time), so what is kept is the front of the file. Returns 1 when the
 * file is empty (no header yet), 0 when cut (or whole), or -errno. */
int logcut_keep(int fd, const struct instance_result *ir);

#endif
