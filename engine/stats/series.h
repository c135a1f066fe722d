/*
 * Series and their change points, once the run is over: each instance's record and
 * interval logs (records/) read back, each measured trial's lines binned by time into a
 * series of at most SERIES_POINTS points (bytes written, time, rate), and the lasting
 * changes of its level found (engine/stats/changepoint.c). The reporters only draw and say them.
 */
#ifndef IOTRIAL_SERIES_H
#define IOTRIAL_SERIES_H

#include <stdbool.h>

#include "lib/diag.h"
#include "model/results.h"

#define SERIES_POINTS	  512  /* per trial, at most: bins of equal time */
#define SERIES_MIN_POINTS 64   /* per trial, at least, however many trials share ... */
#define SERIES_BUDGET	  8192 /* ... this many points of one instance's kind */

/* The logs of one instance, as the run holds them: `dir` (the result folder) only names
 * them in messages; `rec_fd` and `int_fd` are the record and interval logs, open for
 * reading (-1: not open, as when its open failed: that kind is left out, without a line). */
struct series_logs {
	const char *dir;
	int rec_fd, int_fd;
};

/*
 * Fill ir->series and ir->cps from the logs the run wrote for `ir`: `records` from
 * logs.rec_fd (records/<name>.csv), `intervals` from logs.int_fd (<name>.intervals.csv),
 * each read from its start, the descriptors left open. Trials that did not run, warm-ups
 * and trials without a timed region get no series. A log that cannot be read leaves that
 * kind out, with a line in `d`. Returns 0 or -ENOMEM.
 */
int series_build(struct instance_result *ir, struct series_logs logs, bool records, bool intervals,
		 struct diag *d);

#endif
