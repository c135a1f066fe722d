/* The summary's pooled latency as a table of cells, for the text summary (text_lat.c) and
 * report.html: one column per percentile any measured instance asks for, ascending, "-"
 * under one an instance did not ask for; a row per measured instance, and per direction of a
 * mixed workload and for slat and clat with submit_latency; and why a row says n/a. */
#ifndef IOTRIAL_LAT_TABLE_H
#define IOTRIAL_LAT_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/results.h"

#define LAT_CELL 48
/* Columns of percentiles at most (the union of the instances' lists); then a note. */
#define LAT_MAX_PCOLS 32
/* job, I/Os, the percentiles, max */
#define LAT_MAX_COLS (LAT_MAX_PCOLS + 3)

/* cell[0] stays empty: the name is whole in `name` (a sweep's names often differ only at
 * their ends). Row 0 is the header. */
struct lat_row {
	char name[512];
	char cell[LAT_MAX_COLS][LAT_CELL];
};

struct lat_table {
	struct lat_row *rows;
	size_t nrows, ncols; /* ncols counts the name */
	bool cut;	     /* more than LAT_MAX_PCOLS percentiles: the first ones shown */
};

/* The table of `r` into `t`: 0 (nrows 0 when no instance has percentiles, as in a
 * results.json from before them), or -ENOMEM. Release it with lat_table_release. */
int lat_table_init(struct lat_table *t, const struct results *r);
void lat_table_release(struct lat_table *t);

/* Why instance `ir`'s rows say n/a although its kept trials did I/O (kept trials without a
 * histogram to pool), as a sentence into `buf`; false when there is nothing to say. */
bool lat_table_why(char *buf, size_t size, const struct instance_result *ir);

#endif
